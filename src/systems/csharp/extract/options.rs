//! The standard HTTP resilience handler's options configured apart from
//! the handler, through the options API. Each handler reads the options
//! named `{client}-standard` (dotnet/extensions, commit 5862342c9a,
//! `src/Libraries/Microsoft.Extensions.Http.Resilience/Resilience/ResilienceHttpClientBuilderExtensions.StandardResilience.cs`:
//! `optionsName = PipelineNameHelper.GetName(builder.Name, "standard")`,
//! `monitor.Get(optionsName)`; `Internal/PipelineNameHelper.cs`:
//! `$"{httpClientName}-{pipelineIdentifier}"`), also the handler of
//! `ConfigureHttpClientDefaults` (a builder with no name: `-standard`).
//!
//! - `services.Configure<HttpStandardResilienceOptions>(section)` (or a
//!   lambda), `PostConfigure<..>(..)`, and
//!   `AddOptions<HttpStandardResilienceOptions>()` followed by `.Bind(..)`,
//!   `.BindConfiguration(..)` or `.Configure(..)` set the unnamed options
//!   (`Options.DefaultName`, `""`), which no handler reads: RL902.
//! - `ConfigureAll<..>(..)`/`PostConfigureAll<..>(..)` (every name) and the
//!   same calls given a name (`Configure<..>("catalog-standard", ..)`,
//!   `AddOptions<..>("catalog-standard").Configure(..)`) are
//!   [`NamedOptions`], joined to the handlers that read them by
//!   `systems::csharp::options` (a name no handler reads is RL902 there).

use super::{Ctx, args, field, method, type_args};
use crate::diag::invalid_setting;
use crate::model::{Facts, NamedOptions};
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

const OPTIONS: &str = "HttpStandardResilienceOptions";

/// Whom an options call configures.
enum Target {
    Unnamed,
    /// `None`: every name.
    Named(Option<String>),
}

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    if !ctx.src.contains(OPTIONS) {
        return;
    }
    for &n in &ctx.nodes {
        if n.kind_str() != "invocation_expression" {
            continue;
        }
        let Some((m, _)) = method(ctx, n) else {
            continue;
        };
        let of_options = type_args(ctx, n)
            .iter()
            .any(|t| t.trim().rsplit('.').next() == Some(OPTIONS));
        if !of_options {
            continue;
        }
        let a: Vec<Node<'_>> = args(ctx, n).into_iter().map(|(_, x)| x).collect();
        // The call that writes the settings, and the arguments that are
        // settings (not the name).
        let (target, post, settings_call, settings): (Target, bool, Node<'_>, Vec<Node<'_>>) =
            match m {
                "ConfigureAll" | "PostConfigureAll" => {
                    (Target::Named(None), m.starts_with("Post"), n, a.clone())
                }
                // `Configure<T>(section)`, `Configure<T>(o => ..)`: one
                // argument, the unnamed options; `Configure<T>(name, ..)`
                // names them.
                "Configure" | "PostConfigure" => {
                    let post = m.starts_with("Post");
                    match a.as_slice() {
                        [_] => (Target::Unnamed, post, n, a.clone()),
                        [first, rest @ ..] => match name_of(ctx, *first) {
                            Some(None) => (Target::Unnamed, post, n, rest.to_vec()),
                            Some(Some(name)) => (Target::Named(Some(name)), post, n, rest.to_vec()),
                            None => continue,
                        },
                        [] => continue,
                    }
                }
                // `AddOptions<T>()` then `.Bind(..)`, `.Configure(..)`.
                "AddOptions" | "AddOptionsWithValidateOnStart" => {
                    let Some((after, post)) = bound_after(ctx, n) else {
                        continue;
                    };
                    let target = match a.first() {
                        None => Target::Unnamed,
                        Some(x) => match name_of(ctx, *x) {
                            Some(None) => Target::Unnamed,
                            Some(Some(name)) => Target::Named(Some(name)),
                            None => continue,
                        },
                    };
                    let s = args(ctx, after).into_iter().map(|(_, x)| x).collect();
                    (target, post, after, s)
                }
                _ => continue,
            };
        let at = super::resilience::call_span(n);
        match target {
            Target::Unnamed => facts.diagnostics.push(invalid_setting::unread(
                at,
                &format!("`{m}<{OPTIONS}>(..)`"),
                "it configures the unnamed options, and each standard handler reads its own, named `{client}-standard` (`-standard` for the handler of `ConfigureHttpClientDefaults`)",
                "configure the handler itself: pass the section or lambda to `AddStandardResilienceHandler(..)`, or call `.Configure(..)` on what it returns; `ConfigureAll<HttpStandardResilienceOptions>(..)` reaches every handler",
            )),
            Target::Named(name) => {
                let p = read(ctx, settings_call, &settings, &name, facts);
                facts.named_options.push(NamedOptions {
                    name,
                    span: at,
                    post,
                    settings: p,
                });
            }
        }
    }
}

/// The settings of one options call: its lambdas, the section it binds.
fn read(
    ctx: &Ctx<'_>,
    call: Node<'_>,
    settings: &[Node<'_>],
    name: &Option<String>,
    facts: &mut Facts,
) -> crate::model::RetryPolicy {
    let lambdas: Vec<Node<'_>> = settings
        .iter()
        .copied()
        .filter(|a| a.kind_str() == "lambda_expression")
        .collect();
    let bind_path = method(ctx, call)
        .filter(|(m, _)| *m == "BindConfiguration")
        .and_then(|_| settings.first())
        .filter(|a| a.kind_str() == "string_literal")
        .map(|a| ctx.text(*a).trim_matches('"').to_string());
    // `BindConfiguration("Path")` binds a section, no delegate.
    let args: &[Node<'_>] = if bind_path.is_some() { &[] } else { settings };
    let label = match name {
        Some(n) => format!("options `{n}`"),
        None => format!("ConfigureAll<{OPTIONS}>"),
    };
    let anchor = super::resilience::call_span(call);
    let mut p = super::resilience::standard_options(ctx, anchor, args, &lambdas, &label, facts);
    p.config_section = bind_path.or_else(|| {
        settings
            .iter()
            .find_map(|a| super::resilience::section_path(ctx, *a))
    });
    p
}

/// An options name as written: `Some(None)` for the unnamed options
/// (`""`, `Options.DefaultName`), `Some(Some(name))` for a string literal
/// or `nameof(X)`, `None` when not a name the reader can read.
fn name_of(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Option<String>> {
    let t = ctx.text(n).trim();
    if t == "\"\"" || t == "Options.DefaultName" || t.ends_with(".Options.DefaultName") {
        return Some(None);
    }
    // `nameof(CatalogClient)`: the name's last part.
    if let Some(inner) = t.strip_prefix("nameof(").and_then(|r| r.strip_suffix(')')) {
        let last = inner.rsplit('.').next().unwrap_or(inner).trim();
        let plain = !last.is_empty() && last.chars().all(|c| c.is_alphanumeric() || c == '_');
        return plain.then(|| Some(last.to_string()));
    }
    (n.kind_str() == "string_literal").then(|| Some(t.trim_matches('"').to_string()))
}

/// The call configuring `call`'s result right after it: `.Bind(..)`,
/// `.BindConfiguration(..)`, `.Configure(..)`, `.PostConfigure(..)`
/// (whether it is a post-configuration).
fn bound_after<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> Option<(Node<'a>, bool)> {
    let x = call
        .parent()
        .filter(|p| p.kind_str() == "member_access_expression")
        .and_then(|p| p.parent())
        .filter(|x| x.kind_str() == "invocation_expression" && field(*x, "function").is_some())?;
    let (m, _) = method(ctx, x)?;
    matches!(
        m,
        "Bind" | "BindConfiguration" | "Configure" | "PostConfigure"
    )
    .then_some((x, m == "PostConfigure"))
}
