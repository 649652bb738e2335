//! EF Core's retrying execution strategy: `EnableRetryOnFailure()`,
//! `EnableRetryOnFailure(maxRetryCount)`, `EnableRetryOnFailure(
//! maxRetryCount, maxRetryDelay, errorNumbersToAdd)` (SQL Server, Npgsql's
//! `errorCodesToAdd`). Defaults: [`crate::systems::csharp`].

use super::eval;
use super::{Ctx, args, span};
use crate::model::*;
use crate::systems::csharp::EF_CORE_MAX_RETRY_COUNT;
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

pub fn enable_retry_on_failure(ctx: &Ctx<'_>, call: Node<'_>, facts: &mut Facts) {
    let anchor = super::resilience::call_span(call);
    let a = args(ctx, call);
    let arg = |name: &str, i: usize| {
        a.iter()
            .find(|(k, _)| *k == Some(name))
            .or_else(|| a.get(i).filter(|(k, _)| k.is_none()))
            .map(|(_, v)| *v)
    };
    let attempts = super::retries_or_default(
        ctx,
        arg("maxRetryCount", 0).map(|n| (n, span(n))),
        ("maxRetryCount", ": "),
        EF_CORE_MAX_RETRY_COUNT,
        anchor,
        None,
        facts,
    );
    let mut p = RetryPolicy::new(System::EfCore, anchor, attempts);
    p.name = Some("EnableRetryOnFailure".into());
    // (2^n - 1) x 1 s with up to 10% added at random, capped at
    // `maxRetryDelay` (30 s by default): not one of the model's shapes.
    p.delay = match arg("maxRetryDelay", 1) {
        Some(d) if eval::duration(ctx, d).is_some() => Located::written(Delay::Custom, span(d)),
        Some(d) => Located::written(Delay::Unknown, span(d)),
        None => Located::default_at(Delay::Custom, anchor),
    };
    transient_errors(&mut p, anchor);
    // Written in an Aspire `Add*DbContext`'s options: that database's.
    if let Some((_, name)) = aspire_call(ctx, call) {
        p.scope.client = Some(ClientScope::Named(db_client(&name)));
    }
    facts.policies.push(p);
}

/// .NET Aspire's EF Core client integrations, each registering a
/// `DbContext` whose provider retries by default, and the one (Oracle)
/// whose retry count is not known from public source.
///
/// - `AddSqlServerDbContext` (Aspire.Microsoft.EntityFrameworkCore.SqlServer),
///   `AddNpgsqlDbContext` (Aspire.Npgsql.EntityFrameworkCore.PostgreSQL) and
///   `AddMySqlDbContext` (Aspire.Pomelo.EntityFrameworkCore.MySql) call
///   `builder.EnableRetryOnFailure()` with no argument `if
///   (!settings.DisableRetry)` (https://github.com/dotnet/aspire,
///   `src/Components/Aspire.Microsoft.EntityFrameworkCore.SqlServer/AspireSqlServerEFCoreSqlClientExtensions.cs`
///   commit 251ff03; `.../Aspire.Npgsql.EntityFrameworkCore.PostgreSQL/AspireEFPostgreSqlExtensions.cs`
///   commit 8e98ab2; `.../Aspire.Pomelo.EntityFrameworkCore.MySql/AspireEFMySqlExtensions.cs`
///   commit c9f6065); `DisableRetry` is `false` by default (each
///   integration's settings class: "The default value is false"; Aspire
///   8's settings named it `Retry`, `true` by default, and the same code
///   read `if (settings.Retry)`: `OracleEntityFrameworkCoreSettings.cs` in
///   8.x, "Gets or sets whether retries should be enabled", `= true`;
///   the 8.0 previews' `MaxRetryCount` instead: [`PREVIEW_MAX_RETRY_COUNT`]). With no
///   argument each provider's strategy takes EF Core's
///   `DefaultMaxRetryCount` 6 and `DefaultMaxDelay` 30 s
///   ([`EF_CORE_MAX_RETRY_COUNT`]; Pomelo's `MySqlRetryingExecutionStrategy(
///   dependencies) : this(dependencies, DefaultMaxRetryCount)` and
///   `DefaultMaxDelay`, https://github.com/PomeloFoundation/Pomelo.EntityFrameworkCore.MySql
///   `src/EFCore.MySql/MySqlRetryingExecutionStrategy.cs` commit 98c9bdb).
/// - `AddOracleDatabaseDbContext` (Aspire.Oracle.EntityFrameworkCore) sets
///   `new OracleRetryingExecutionStrategy(context)` under the same
///   `DisableRetry` (`AspireOracleEFCoreExtensions.cs` commit a19e8a2):
///   Oracle's provider is not public source, so its count is unknown here.
///
/// A `sqlServerOptionsAction` that calls `EnableRetryOnFailure(..)` itself
/// runs after Aspire's and wins: that call is the policy
/// ([`enable_retry_on_failure`]).
///
/// The third of each is the configuration section the settings are bound
/// from before the settings action runs: `{section}:{typeof(TContext).Name}`,
/// else `{section}` (each integration's `DefaultConfigSectionName`, e.g.
/// `"Aspire:Microsoft:EntityFrameworkCore:SqlServer"` in
/// `AspireSqlServerEFCoreSqlClientExtensions.cs`, dotnet/aspire commit
/// 023c409, bound by `builder.GetDbContextSettings<TContext, ..>(
/// DefaultConfigSectionName, (settings, section) => section.Bind(settings))`;
/// `"Aspire:Npgsql:EntityFrameworkCore:PostgreSQL"`,
/// `"Aspire:Pomelo:EntityFrameworkCore:MySql"`,
/// `"Aspire:Oracle:EntityFrameworkCore"` in the other three): an
/// appsettings `DisableRetry: true` (`Retry: false` in Aspire 8) there
/// turns the retry off (`systems::csharp::connections::join`).
pub const ASPIRE_DB_CONTEXTS: &[(&str, Option<u64>, &str)] = &[
    (
        "AddSqlServerDbContext",
        Some(EF_CORE_MAX_RETRY_COUNT),
        "Aspire:Microsoft:EntityFrameworkCore:SqlServer",
    ),
    (
        "AddNpgsqlDbContext",
        Some(EF_CORE_MAX_RETRY_COUNT),
        "Aspire:Npgsql:EntityFrameworkCore:PostgreSQL",
    ),
    (
        "AddMySqlDbContext",
        Some(EF_CORE_MAX_RETRY_COUNT),
        "Aspire:Pomelo:EntityFrameworkCore:MySql",
    ),
    (
        "AddOracleDatabaseDbContext",
        None,
        "Aspire:Oracle:EntityFrameworkCore",
    ),
];

/// The 8.0 previews' setting (until February 2024), `int MaxRetryCount
/// { get; set; } = 6`, "set it to 0 to disable the retry mechanism", read
/// as `if (settings.MaxRetryCount > 0) builder.EnableRetryOnFailure(
/// settings.MaxRetryCount)` (dotnet/aspire commit 327993961,
/// `src/Components/Aspire.Microsoft.EntityFrameworkCore.SqlServer/MicrosoftEntityFrameworkCoreSqlServerSettings.cs`
/// and `AspireSqlServerEFCoreSqlClientExtensions.cs`; commit 063f11b76,
/// `Aspire.Npgsql.EntityFrameworkCore.PostgreSQL/NpgsqlEntityFrameworkCorePostgreSQLSettings.cs`
/// and `AspireEFPostgreSqlExtensions.cs`). Its default is EF Core's own
/// count, so only a written value changes the policy: `n` retries, `0`
/// none.
const PREVIEW_MAX_RETRY_COUNT: &str = "MaxRetryCount";

/// The client name joining an Aspire `DbContext`'s retry to the AppHost's
/// `WithReference` of the database it connects to: the connection name is
/// the resource's name (`WithReference(db)` sets
/// `ConnectionStrings__{name}`).
pub fn db_client(resource: &str) -> String {
    format!("Aspire DbContext {resource}")
}

/// The Aspire `Add*DbContext<T>(..)` call `n` is written in (as an
/// argument's lambda), with its connection name.
fn aspire_call<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<(Node<'a>, String)> {
    let mut cur = n;
    for _ in 0..super::MAX_DEPTH {
        let (_, outer) = super::enclosing_lambda_call(ctx, cur)?;
        if let Some((m, _)) = super::method(ctx, outer)
            && ASPIRE_DB_CONTEXTS.iter().any(|(a, _, _)| *a == m)
        {
            return Some((outer, connection_name(ctx, outer)?));
        }
        cur = outer;
    }
    None
}

/// The connection name an Aspire `Add*DbContext` call is given.
fn connection_name(ctx: &Ctx<'_>, call: Node<'_>) -> Option<String> {
    let a = args(ctx, call);
    let v = a
        .iter()
        .find(|(k, _)| *k == Some("connectionName"))
        .or_else(|| a.first().filter(|(k, _)| k.is_none()))?
        .1;
    super::calls::string(ctx, v, 0).filter(|s| !s.is_empty() && !s.contains('{'))
}

/// `builder.AddSqlServerDbContext<T>("orders", s => s.DisableRetry =
/// ..)`: EF Core's retrying strategy at its defaults, on the calls to the
/// database the connection names ([`db_client`]).
///
/// `builder.EnrichSqlServerDbContext<T>(s => ..)` does the same for a
/// `DbContext` the program registers itself (`AddDbContext<T>(o =>
/// o.UseSqlServer(..))`): under the same setting it patches the context's
/// options with `UseSqlServer(options => options.EnableRetryOnFailure())`
/// (dotnet/aspire commit 023c409, `EnrichSqlServerDbContext` in
/// `AspireSqlServerEFCoreSqlClientExtensions.cs`, `EnrichNpgsqlDbContext`
/// in `AspireEFPostgreSqlExtensions.cs`: `PatchServiceDescriptor<TContext>(
/// optionsBuilder => optionsBuilder.UseNpgsql(options =>
/// options.EnableRetryOnFailure()))`). It names no connection: the
/// program's own read of the connection string carries it
/// (`extract::connections`).
pub fn aspire_db_context(ctx: &Ctx<'_>, call: Node<'_>, m: &str, facts: &mut Facts) {
    let enrich = m.strip_prefix("Enrich").map(|r| format!("Add{r}"));
    let key = enrich.as_deref().unwrap_or(m);
    let Some(&(_, retries, section)) = ASPIRE_DB_CONTEXTS.iter().find(|(a, _, _)| *a == key) else {
        return;
    };
    if !aspire_own(ctx, call, m) {
        return;
    }
    let name = connection_name(ctx, call);
    if name.is_none() && enrich.is_none() {
        return;
    }
    let anchor = super::resilience::call_span(call);
    // The options action's own `EnableRetryOnFailure(..)` is the policy.
    let mut disable: Option<(Node<'_>, bool)> = None;
    // `MaxRetryCount = n` (the 8.0 previews' setting, [`PREVIEW_MAX_RETRY_COUNT`]).
    let mut max: Option<Node<'_>> = None;
    let mut own = false;
    let mut todo = vec![call];
    let mut seen = 0;
    while let Some(n) = todo.pop() {
        seen += 1;
        if seen > 10_000 {
            break;
        }
        match n.kind_str() {
            "invocation_expression"
                if n != call
                    && super::method(ctx, n).is_some_and(|(x, _)| x == "EnableRetryOnFailure") =>
            {
                own = true;
            }
            // `DisableRetry = true` (Aspire 9), `Retry = false` (Aspire 8).
            "assignment_expression" => {
                let key = super::field(n, "left").map(|l| ctx.text(l).rsplit('.').next());
                let inverted = match key.flatten().map(str::trim) {
                    Some("DisableRetry") => false,
                    Some("Retry") => true,
                    Some(PREVIEW_MAX_RETRY_COUNT) => {
                        max = super::field(n, "right");
                        continue;
                    }
                    _ => {
                        todo.extend(super::named_children(n));
                        continue;
                    }
                };
                disable = super::field(n, "right").map(|r| (r, inverted));
            }
            _ => {}
        }
        todo.extend(super::named_children(n));
    }
    if own {
        return;
    }
    let disable = disable.map(|(d, inverted)| (d, eval::boolean(ctx, d).map(|b| b != inverted)));
    let max = max.map(|m| (m, eval::int(ctx, m)));
    let attempts = match (disable, max, retries) {
        (Some((_, Some(true))), _, _) => return,
        // `MaxRetryCount = 0` turns the retry off.
        (_, Some((_, Some(n))), _) if n <= 0 => return,
        (_, Some((m, Some(n))), _) => Located::written(
            Attempts {
                count: AttemptCount::Finite(u64::try_from(n).unwrap_or(u64::MAX).saturating_add(1)),
                written_as: format!("MaxRetryCount = {}", super::one_line(ctx.text(m))),
            },
            span(m),
        ),
        (_, Some((m, None)), _) => Located::written(
            Attempts {
                count: AttemptCount::Unknown,
                written_as: super::one_line(ctx.text(m)),
            },
            span(m),
        ),
        (Some((d, None)), _, _) => Located::written(
            Attempts {
                count: AttemptCount::Unknown,
                written_as: super::one_line(ctx.text(d)),
            },
            span(d),
        ),
        (_, _, Some(n)) => Located::default_at(
            Attempts {
                count: AttemptCount::Finite(n + 1),
                written_as: format!("{m}: EnableRetryOnFailure() (the default, {n} retries)"),
            },
            anchor,
        ),
        (_, _, None) => Located::default_at(
            Attempts {
                count: AttemptCount::Unknown,
                written_as: format!(
                    "{m}: OracleRetryingExecutionStrategy (its count is not public)"
                ),
            },
            anchor,
        ),
    };
    let mut p = RetryPolicy::new(System::EfCore, anchor, attempts);
    p.name = Some(m.to_string());
    p.delay = Located::default_at(Delay::Custom, anchor);
    transient_errors(&mut p, anchor);
    if let Some(name) = &name {
        p.scope.client = Some(ClientScope::Named(db_client(name)));
    }
    // Settings the code does not write may come from the section.
    if disable.is_none()
        && max.is_none()
        && let Some(t) = super::type_args(ctx, call).first()
    {
        p.config_section = Some(format!("{section}:{t}"));
    }
    facts.policies.push(p);
}

/// Whether `call` (named `m`) is Aspire's integration and not a method of
/// the program's own of the same name: Aspire's extends
/// `IHostApplicationBuilder`; one called on the services
/// (`builder.Services.AddMySqlDbContext<T>(..)`) or declared in this file
/// is the program's own (ElectNewt/Distribt 7b384eb).
fn aspire_own(ctx: &Ctx<'_>, call: Node<'_>, m: &str) -> bool {
    let on_services = super::field(call, "function")
        .and_then(|f| super::field(f, "expression"))
        .is_some_and(|r| {
            let last = ctx.text(r).rsplit('.').next().unwrap_or("").trim();
            last.eq_ignore_ascii_case("services") || last.eq_ignore_ascii_case("serviceCollection")
        });
    let declared = ctx.nodes.iter().any(|n| {
        n.kind_str() == "method_declaration"
            && super::field(*n, "name").is_some_and(|x| ctx.text(x) == m)
    });
    !on_services && !declared
}

/// The connection an Aspire `Add*DbContext<T>("name")` call opens, when
/// `call` is one: Aspire reads `ConnectionStrings:name` itself (from the
/// AppHost's reference, or from the program's settings where no AppHost
/// runs it).
pub fn aspire_connection(ctx: &Ctx<'_>, call: Node<'_>) -> Option<String> {
    let (m, _) = super::method(ctx, call)?;
    ASPIRE_DB_CONTEXTS.iter().find(|(a, _, _)| *a == m)?;
    aspire_own(ctx, call, m).then(|| connection_name(ctx, call))?
}

/// What an execution strategy retries, as EF Core's providers decide it:
/// the provider's transient-error detector (SQL Server error numbers,
/// Npgsql `IsTransient`), plus any numbers added; jitter and methods
/// unknown to the model.
fn transient_errors(p: &mut RetryPolicy, anchor: crate::source::Span) {
    p.jitter = Located::default_at(Jitter::Unknown, anchor);
    p.retry_on = Located::default_at(
        RetryOn::Listed {
            conditions: vec![Located::default_at(
                Condition::Token("transient database errors".into()),
                anchor,
            )],
        },
        anchor,
    );
    p.methods = Located::default_at(Methods::Unknown, anchor);
}
