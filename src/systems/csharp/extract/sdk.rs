//! Retries built into .NET client libraries, written in C#:
//! - the Azure SDK's `ClientOptions.Retry` (`options.Retry.MaxRetries =
//!   5;`, `new BlobClientOptions { Retry = { MaxRetries = 5, Mode =
//!   RetryMode.Fixed } }`, `o.Retry.NetworkTimeout = ..` in
//!   `ConfigureDefaults`);
//! - Microsoft.Data.SqlClient's configurable retry logic
//!   (`new SqlRetryLogicOption { NumberOfTries = 5, DeltaTime = .. }`
//!   handed to `SqlConfigurableRetryFactory.Create{Exponential,
//!   Incremental,Fixed}RetryProvider(..)`).
//!
//! Defaults and sources: [`crate::systems::csharp`].

use super::eval;
use super::{Ctx, args, field, method, named_children, span};
use crate::diag::invalid_setting;
use crate::model::*;
use crate::source::Span;
use crate::systems::csharp::extract::Kind as _;
use crate::systems::csharp::{
    AZURE_DEFAULT_DELAY, AZURE_DEFAULT_MAX_DELAY, AZURE_DEFAULT_MAX_RETRIES,
    AZURE_DEFAULT_NETWORK_TIMEOUT, AZURE_JITTER, SQL_CLIENT_JITTER,
};
use std::collections::BTreeMap;
use std::time::Duration;
use tree_sitter::Node;

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    azure(ctx, facts);
    sql_client(ctx, facts);
}

/// `ClientOptions.Retry` properties (Azure.Core `RetryOptions`).
const AZURE_KEYS: &[&str] = &["MaxRetries", "Delay", "MaxDelay", "Mode", "NetworkTimeout"];
/// Keys only Azure's `RetryOptions` has among the retry options this
/// reader knows (Polly's and the standard handler's have `Delay` and
/// `MaxDelay` too): a group of settings is Azure's when it has one.
const AZURE_ONLY: &[&str] = &["MaxRetries", "Mode", "NetworkTimeout"];

/// One `RetryOptions` object's settings as written: key, value, and the
/// span of the whole setting.
type Group<'a> = Vec<(&'a str, Node<'a>, Span)>;

fn azure(ctx: &Ctx<'_>, facts: &mut Facts) {
    // Settings grouped by the object they set: `x.Retry` in one block, or
    // one `Retry = { .. }` initializer.
    let mut groups: BTreeMap<(usize, String), Group<'_>> = BTreeMap::new();
    for &n in &ctx.nodes {
        if n.kind_str() != "assignment_expression" {
            continue;
        }
        let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
            continue;
        };
        let path: Vec<&str> = ctx.text(l).split('.').map(str::trim).collect();
        let Some((&key, before)) = path.split_last() else {
            continue;
        };
        if !AZURE_KEYS.contains(&key) {
            continue;
        }
        let group = if before.last() == Some(&"Retry") {
            // `options.Retry.MaxRetries = 5;`: the receiver in its block.
            let block = enclosing(
                n,
                &["block", "lambda_expression", "arrow_expression_clause"],
            );
            (block.map_or(0, |b| b.start_byte()), before.join("."))
        } else if before.is_empty()
            && let Some(init) = n
                .parent()
                .filter(|p| p.kind_str() == "initializer_expression")
            && let Some(owner) = init
                .parent()
                .filter(|p| p.kind_str() == "assignment_expression")
            && field(owner, "left")
                .is_some_and(|x| ctx.text(x).trim().rsplit('.').next() == Some("Retry"))
        {
            // `Retry = { MaxRetries = 5 }` in an options initializer.
            (init.start_byte(), String::new())
        } else {
            continue;
        };
        groups
            .entry(group)
            .or_default()
            .push((key, r, span(l).cover(span(r))));
    }
    for (_, g) in groups {
        if g.iter().any(|(k, _, _)| AZURE_ONLY.contains(k)) {
            azure_policy(ctx, &g, facts);
        }
    }
}

fn enclosing<'a>(n: Node<'a>, kinds: &[&str]) -> Option<Node<'a>> {
    let mut cur = n.parent();
    for _ in 0..super::MAX_CLIMB {
        let c = cur?;
        if kinds.contains(&c.kind_str()) {
            return Some(c);
        }
        cur = c.parent();
    }
    None
}

fn setting<'a>(g: &Group<'a>, key: &str) -> Option<(Node<'a>, Span)> {
    g.iter()
        .rev()
        .find(|(k, _, _)| *k == key)
        .map(|(_, v, s)| (*v, *s))
}

/// One Azure SDK client's retry options, defaults from Azure.Core's
/// `RetryOptions` and `RetryPolicy`.
fn azure_policy(ctx: &Ctx<'_>, g: &Group<'_>, facts: &mut Facts) {
    let anchor = g
        .iter()
        .map(|(_, _, s)| *s)
        .reduce(|a, b| a.cover(b))
        .unwrap_or_default();
    let attempts = super::retries_or_default(
        ctx,
        setting(g, "MaxRetries"),
        ("MaxRetries", " = "),
        AZURE_DEFAULT_MAX_RETRIES,
        anchor,
        Some("a negative count: Azure.Core's retry policy then makes the first attempt only"),
        facts,
    );
    let mut p = RetryPolicy::new(System::AzureSdk, anchor, attempts);
    p.name = Some("ClientOptions.Retry".into());
    let lookup = |key: &str| setting(g, key);
    let dur = |key: &str, default: Duration| written_duration(ctx, lookup(key), default);
    let (base, cap, fixed, delay_at) =
        delays(ctx, lookup, (AZURE_DEFAULT_DELAY, AZURE_DEFAULT_MAX_DELAY));
    let (delay, jitter) = match (fixed, base, cap) {
        (Some(true), Some(d), _) if d.is_zero() => (Delay::None, Jitter::None),
        // `RetryMode.Fixed` waits `Delay` each time, no random part.
        (Some(true), Some(d), _) => (Delay::Fixed { delay: d }, Jitter::None),
        // `(1 << (attempt - 1)) x random(0.8 .. 1.2) x Delay`, at most
        // `MaxDelay`.
        (Some(false), Some(d), Some(c)) if !d.is_zero() => (
            Delay::Exponential {
                base: d,
                multiplier: 2.0,
                cap: Some(c),
            },
            Jitter::Proportional {
                factor: AZURE_JITTER,
            },
        ),
        (Some(false), Some(d), _) if d.is_zero() => (Delay::None, Jitter::None),
        _ => (Delay::Unknown, Jitter::Unknown),
    };
    // The client's `ResponseClassifier` decides (throttling, server
    // errors, `IOException`); the Retry-After headers stretch the wait.
    let shape = AzureShape {
        delay: (delay, jitter, delay_at),
        try_timeout: dur("NetworkTimeout", AZURE_DEFAULT_NETWORK_TIMEOUT),
        retried: "Azure.Core's transient responses and I/O errors",
        methods: Methods::All,
    };
    facts.policies.push(shape.apply(p, anchor));
}

/// The settings an Azure retry options object writes the same way
/// (Azure.Core's `RetryOptions`, Service Bus's `ServiceBusRetryOptions`).
pub(super) struct AzureShape<'a> {
    /// The delay and jitter, and where they are written (`None`: defaults).
    pub delay: (Delay, Jitter, Option<Span>),
    /// The per-try timeout and where it is written.
    pub try_timeout: (Option<Duration>, Option<Span>),
    /// What the client retries, in its words.
    pub retried: &'a str,
    pub methods: Methods,
}

impl AzureShape<'_> {
    /// `p` with these settings, each a default at `anchor` where not written.
    pub fn apply(self, mut p: RetryPolicy, anchor: Span) -> RetryPolicy {
        fn placed<T>(v: T, s: Option<Span>, anchor: Span) -> Located<T> {
            match s {
                Some(s) => Located::written(v, s),
                None => Located::default_at(v, anchor),
            }
        }
        let (delay, jitter, delay_at) = self.delay;
        p.delay = placed(delay, delay_at, anchor);
        p.jitter = placed(jitter, delay_at, anchor);
        if matches!(p.delay.value, Delay::Exponential { .. }) {
            p.cap_order = CapOrder::AfterJitter;
        }
        let (t, t_at) = self.try_timeout;
        let t = t.map_or(Timeout::Unknown, |d| {
            if d.is_zero() {
                Timeout::Disabled
            } else {
                Timeout::after(d)
            }
        });
        p.per_try_timeout = Some(placed(t, t_at, anchor));
        p.retry_on = Located::default_at(
            RetryOn::Listed {
                conditions: vec![Located::default_at(
                    Condition::Token(self.retried.into()),
                    anchor,
                )],
            },
            anchor,
        );
        p.methods = Located::default_at(self.methods, anchor);
        p
    }
}

/// A duration setting's value and place, or its default where not written.
pub(super) fn written_duration(
    ctx: &Ctx<'_>,
    written: Option<(Node<'_>, Span)>,
    default: Duration,
) -> (Option<Duration>, Option<Span>) {
    match written {
        Some((v, at)) => (eval::duration(ctx, v), Some(at)),
        None => (Some(default), None),
    }
}

/// An Azure retry options object's `Delay`, `MaxDelay` and `Mode` (each
/// its default where not written): the delay, the cap, whether the mode
/// is `Fixed` (`None`: a mode not known), and where they are written.
#[allow(clippy::type_complexity)]
pub(super) fn delays<'a>(
    ctx: &Ctx<'a>,
    lookup: impl Fn(&str) -> Option<(Node<'a>, Span)>,
    (delay, max_delay): (Duration, Duration),
) -> (
    Option<Duration>,
    Option<Duration>,
    Option<bool>,
    Option<Span>,
) {
    let (base, base_at) = written_duration(ctx, lookup("Delay"), delay);
    let (cap, cap_at) = written_duration(ctx, lookup("MaxDelay"), max_delay);
    let mode = lookup("Mode").map(|(v, at)| (eval::last_name(ctx, v), at));
    let fixed = match mode {
        Some(("Fixed", _)) => Some(true),
        Some(("Exponential", _)) | None => Some(false),
        Some(_) => None,
    };
    let delay_at = [base_at, cap_at, mode.map(|(_, s)| s)]
        .into_iter()
        .flatten()
        .reduce(|a, b| a.cover(b));
    (base, cap, fixed, delay_at)
}

/// `SqlConfigurableRetryFactory.CreateExponentialRetryProvider(options)`
/// (and `Incremental`, `Fixed`) with `options` a `SqlRetryLogicOption`
/// written in the file.
fn sql_client(ctx: &Ctx<'_>, facts: &mut Facts) {
    for &n in &ctx.nodes {
        if n.kind_str() != "invocation_expression" {
            continue;
        }
        let Some((m, _)) = method(ctx, n) else {
            continue;
        };
        let shape = match m {
            "CreateExponentialRetryProvider" => Shape::Exponential,
            "CreateIncrementalRetryProvider" => Shape::Incremental,
            "CreateFixedRetryProvider" => Shape::Fixed,
            _ => continue,
        };
        let Some((_, a)) = args(ctx, n).into_iter().next() else {
            continue;
        };
        let mut obj = a;
        for _ in 0..super::MAX_DEPTH {
            if obj.kind_str() != "identifier" {
                break;
            }
            match ctx.binding(ctx.text(obj), obj.start_byte()) {
                Some(b) => obj = b,
                None => break,
            }
        }
        let anchor = super::resilience::call_span(n);
        let settings: Vec<(&str, Node<'_>, Span)> = field(obj, "initializer")
            .filter(|_| obj.kind_str().ends_with("object_creation_expression"))
            .map(|init| {
                named_children(init)
                    .into_iter()
                    .filter(|e| e.kind_str() == "assignment_expression")
                    .filter_map(|e| {
                        let (l, r) = (field(e, "left")?, field(e, "right")?);
                        Some((ctx.text(l).trim(), r, span(e)))
                    })
                    .collect()
            })
            .unwrap_or_default();
        sql_policy(ctx, shape, &settings, anchor, facts);
    }
}

#[derive(Clone, Copy)]
enum Shape {
    Exponential,
    Incremental,
    Fixed,
}

fn sql_policy(ctx: &Ctx<'_>, shape: Shape, g: &Group<'_>, anchor: Span, facts: &mut Facts) {
    // `NumberOfTries` counts every try, the first included
    // (`SqlRetryLogic.TryNextInterval`: `Current < NumberOfTries - 1`);
    // it has no default (0 is rejected by `SqlRetryLogic`).
    let attempts = match setting(g, "NumberOfTries") {
        Some((v, at)) => {
            let written = super::one_line(ctx.text(v));
            let count = match eval::int(ctx, v) {
                Some(n) if n >= 1 => AttemptCount::Finite(n as u64),
                Some(n) => {
                    facts.diagnostics.push(invalid_setting::value(
                        span(v),
                        "NumberOfTries",
                        &n.to_string(),
                        "it counts every try and must be at least 1: `SqlRetryLogic` throws `ArgumentOutOfRangeException`",
                    ));
                    return;
                }
                None => AttemptCount::Unknown,
            };
            Located::written(
                Attempts {
                    count,
                    written_as: format!("NumberOfTries = {written} (tries, the first included)"),
                },
                at,
            )
        }
        None => Located::written(
            Attempts {
                count: AttemptCount::Unknown,
                written_as: "SqlRetryLogicOption".into(),
            },
            anchor,
        ),
    };
    let mut p = RetryPolicy::new(System::SqlClientRetry, anchor, attempts);
    p.name = Some(
        match shape {
            Shape::Exponential => "CreateExponentialRetryProvider",
            Shape::Incremental => "CreateIncrementalRetryProvider",
            Shape::Fixed => "CreateFixedRetryProvider",
        }
        .into(),
    );
    let delta = setting(g, "DeltaTime").map(|(v, s)| (eval::duration(ctx, v), s));
    let max = setting(g, "MaxTimeInterval").and_then(|(v, _)| eval::duration(ctx, v));
    // Every interval has a random part of ±20% of `DeltaTime`
    // (`SqlRetryIntervalEnumerators.cs`: `random.Next(0.8 x gap, 1.2 x
    // gap)`).
    let jitter = Jitter::Proportional {
        factor: SQL_CLIENT_JITTER,
    };
    let (delay, at) = match delta {
        Some((Some(d), s)) if d.is_zero() => (Delay::None, s),
        Some((Some(d), s)) => (
            match shape {
                Shape::Fixed => Delay::Fixed { delay: d },
                Shape::Incremental => Delay::Linear { base: d, cap: max },
                // (2^n - 1) x DeltaTime for retry n = 1, 2, ..: 1, 3, 7,
                // 15 x DeltaTime, at most `MaxTimeInterval`.
                Shape::Exponential => Delay::Custom,
            },
            s,
        ),
        Some((None, s)) => (Delay::Unknown, s),
        None => (Delay::Unknown, anchor),
    };
    p.delay = Located::written(delay, at);
    p.jitter = Located::written(jitter, at);
    // The default transient error numbers (`s_defaultTransientErrors`:
    // deadlock 1205, lock timeout 1222, Azure SQL 40613/40501/..) or the
    // `TransientErrors` written.
    p.retry_on = match setting(g, "TransientErrors") {
        Some((_, s)) => Located::written(
            RetryOn::Listed {
                conditions: vec![Located::written(
                    Condition::Token("the SQL error numbers listed".into()),
                    s,
                )],
            },
            s,
        ),
        None => Located::default_at(
            RetryOn::Listed {
                conditions: vec![Located::default_at(
                    Condition::Token("SqlClient's transient SQL error numbers".into()),
                    anchor,
                )],
            },
            anchor,
        ),
    };
    p.methods = Located::default_at(Methods::Unknown, anchor);
    facts.policies.push(p);
}
