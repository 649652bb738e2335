//! The AWS SDK for Java 2.x (`software.amazon.awssdk`): service clients
//! built in code (`S3Client.builder()...build()`, `S3Client.create()`,
//! `DynamoDbAsyncClient.builder()`), with the retries their
//! `overrideConfiguration(..)` writes: `retryPolicy(RetryMode.STANDARD)`,
//! `retryPolicy(RetryPolicy.builder().numRetries(n).build())`,
//! `retryPolicy(RetryPolicy.none())`, `retryStrategy(RetryMode.X)`,
//! `retryStrategy(b -> b.maxAttempts(n))`,
//! `retryStrategy(AwsRetryStrategy.doNotRetry())`.
//!
//! What the code leaves unwritten the SDK reads at start from
//! `AWS_RETRY_MODE` (or the profile's `retry_mode`) and
//! `AWS_MAX_ATTEMPTS` (not the profile's `max_attempts`): each client is
//! listed in `facts.aws_shared` for the link step
//! (`systems::aws::link`). Defaults, pre-2026 behaviour
//! ([`crate::systems::java::AWS_LEGACY_ATTEMPTS`]): legacy mode, 4
//! attempts (3 retries), exponential from 100 ms capped at 20 s with
//! full jitter, a token bucket of 500; standard and adaptive 3 attempts.
//! `RetryPolicy.numRetries(n)` counts retries (n + 1 attempts),
//! `RetryStrategy.maxAttempts(n)` attempts. `defaultProfileName("x")`
//! names the profile whose `retry_mode` the SDK reads (over
//! `AWS_PROFILE`).

use super::Ctx;
use super::ast::Kind as _;
use super::ast::{self, span};
use crate::extract::Facts;
use crate::model::*;
use crate::source::Span;
use crate::systems::java as sys;
use std::time::Duration;
use tree_sitter::Node;

/// What an `overrideConfiguration(..)` writes of the retries.
#[derive(Default)]
struct Written {
    mode: Option<Located<String>>,
    attempts: Option<Located<Attempts>>,
    /// A `retryPolicy`/`retryStrategy` whose retries are not read here.
    opaque: Option<Span>,
    /// `circuitBreakerEnabled(false)`: no token bucket.
    no_quota: Option<Span>,
    /// `defaultProfileName("x")`: the profile whose `retry_mode` applies
    /// (over `AWS_PROFILE`).
    profile: Option<Located<String>>,
    /// `apiCallTimeout(..)`: the whole call, retries included.
    overall: Option<Located<Timeout>>,
    /// `apiCallAttemptTimeout(..)`: each attempt.
    per_try: Option<Located<Timeout>>,
    /// Nodes looked at, helpers followed included (bounded).
    steps: usize,
}

/// At most this many nodes are looked at for one client.
const MAX_STEPS: usize = 20_000;

/// The body of the method `name` declared in this file.
fn method_body<'a>(ctx: &Ctx<'a>, name: &str) -> Option<Node<'a>> {
    ctx.nodes
        .iter()
        .filter(|n| n.kind_str() == "method_declaration")
        .find(|n| ast::field(**n, "name").is_some_and(|x| ctx.text(x) == name))
        .and_then(|n| ast::field(*n, "body"))
}

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts) {
    if !ctx.imports_prefix("software.amazon.awssdk") {
        return;
    }
    for &n in &ctx.nodes {
        if n.kind_str() != "method_invocation" || ctx.is_chain_link(n) {
            continue;
        }
        let c = ast::chain(n, ctx.src);
        let root = ast::last_segment(c.root_text(ctx.src));
        // A service client of the SDK: imported from its packages (not
        // Spring's `WebClient.builder()` in the same file).
        let full = c.root_text(ctx.src);
        let is_client = root.ends_with("Client")
            && root.starts_with(|ch: char| ch.is_ascii_uppercase())
            && (full.starts_with("software.amazon.awssdk.services.")
                || ctx.imports.iter().any(|i| {
                    i.starts_with("software.amazon.awssdk.services.")
                        && (i.rsplit('.').next() == Some(root) || i.ends_with(".*"))
                }));
        let shape = match (
            c.first().map(|f| f.name.as_str()),
            c.last().map(|l| l.name.as_str()),
        ) {
            (Some("create"), _) if c.calls.len() == 1 => true,
            (Some("builder"), Some("build")) => true,
            // `S3ClientBuilder b = S3Client.builder()..; .. b.build()`.
            (Some("builder"), _) => ctx
                .parent(n)
                .filter(|p| p.kind_str() == "variable_declarator")
                .and_then(|p| ast::field(p, "name"))
                .is_some_and(|v| ctx.src.contains(&format!("{}.build()", ctx.text(v)))),
            _ => false,
        };
        if !is_client || !shape {
            continue;
        }
        let at = span(n);
        let mut w = Written::default();
        for call in &c.calls {
            if call.name == "overrideConfiguration"
                && let Some(a) = call.args.first()
            {
                read_override(ctx, ctx.resolve(*a), &mut w, 0);
            }
        }
        // A strategy given as a mode (`retryStrategy(RetryMode.STANDARD)`)
        // has the mode's count; any other one, not read, an unknown one.
        if let Some(s) = w.opaque
            && w.attempts.is_none()
            && w.mode.is_none()
        {
            w.attempts = Some(Located::written(
                Attempts {
                    count: AttemptCount::Unknown,
                    written_as: ctx.src.get(s.start..s.end).unwrap_or("").to_string(),
                },
                s,
            ));
        }
        let p = policy(ctx, n, root, at, &w);
        let service_attempts = dynamodb_default(root, &w).then_some(sys::AWS_DYNAMODB_ATTEMPTS);
        let idx = facts.policies.len();
        facts.policies.push(p);
        if w.mode.is_some() && w.attempts.is_some() {
            continue;
        }
        facts.aws_shared.push(AwsShared {
            kind: AwsSharedKind::JavaClient {
                policy: idx,
                service_attempts,
            },
            mode: w.mode,
            attempts: w
                .attempts
                .map(|a| Located::written(a.value.count.finite().unwrap_or(0), a.span)),
            profile: w.profile,
        });
    }
}

/// The retries an `overrideConfiguration(..)` argument writes: a builder
/// chain, a lambda on the builder, or a variable holding either.
fn read_override<'a>(ctx: &Ctx<'a>, arg: Node<'a>, w: &mut Written, depth: usize) {
    if depth > ast::MAX_DEPTH {
        return;
    }
    for d in ctx.descendants(arg).into_iter().take(4096) {
        w.steps += 1;
        if w.steps > MAX_STEPS {
            return;
        }
        match d.kind_str() {
            "method_invocation" => {
                let name = ast::field(d, "name").map_or("", |x| ctx.text(x));
                let args = ast::field(d, "arguments")
                    .map(ast::named_children)
                    .unwrap_or_default();
                let s = span(d);
                match name {
                    "retryPolicy" | "retryStrategy" => {
                        w.opaque.get_or_insert(s);
                        // `retryPolicy(b -> ..)`, a builder, a variable.
                        if let Some(a) = args.first() {
                            let r = ctx.resolve(*a);
                            if r.id() != a.id() {
                                read_override(ctx, r, w, depth + 1);
                            }
                        }
                    }
                    "numRetries" | "maxAttempts"
                        if args.first().is_some_and(|a| ctx.int(*a).is_none()) =>
                    {
                        let arg = args.first().map_or("", |a| ctx.text(*a));
                        w.attempts = Some(Located::written(
                            Attempts {
                                count: AttemptCount::Unknown,
                                written_as: format!("{name}({arg})"),
                            },
                            s,
                        ));
                    }
                    "numRetries" => {
                        if let Some(n) = args.first().and_then(|a| ctx.int(*a)).filter(|n| *n >= 0)
                        {
                            w.attempts = Some(Located::written(
                                Attempts {
                                    count: AttemptCount::Finite(n as u64 + 1),
                                    written_as: format!("numRetries({n})"),
                                },
                                s,
                            ));
                        }
                    }
                    "maxAttempts" => {
                        if let Some(n) = args.first().and_then(|a| ctx.int(*a)).filter(|n| *n >= 1)
                        {
                            w.attempts = Some(Located::written(
                                Attempts {
                                    count: AttemptCount::Finite(n as u64),
                                    written_as: format!("maxAttempts({n})"),
                                },
                                s,
                            ));
                        }
                    }
                    "none" | "doNotRetry" => {
                        w.attempts = Some(Located::written(
                            Attempts {
                                count: AttemptCount::Finite(1),
                                written_as: ctx.text(d).to_string(),
                            },
                            s,
                        ));
                    }
                    "standardRetryStrategy" | "legacyRetryStrategy" | "adaptiveRetryStrategy" => {
                        let m = name.trim_end_matches("RetryStrategy");
                        w.mode = Some(Located::written(m.to_string(), s));
                    }
                    // `StandardRetryStrategy.builder()`.
                    "builder" => {
                        let obj = ast::field(d, "object").map_or("", |o| ctx.text(o));
                        let m = match ast::last_segment(obj) {
                            "StandardRetryStrategy" => "standard",
                            "LegacyRetryStrategy" => "legacy",
                            "AdaptiveRetryStrategy" => "adaptive",
                            _ => continue,
                        };
                        w.mode = Some(Located::written(m.to_string(), s));
                    }
                    // The profile the client reads its defaults from,
                    // over `AWS_PROFILE` (aws-sdk-java-v2
                    // `ClientOverrideConfiguration.Builder.defaultProfileName`;
                    // `AwsDefaultClientBuilder.resolveAwsRetryStrategy`
                    // resolves the mode with `PROFILE_NAME`). The profile's
                    // `max_attempts` is not read by this SDK.
                    "defaultProfileName" => {
                        if let Some(name) = args.first().and_then(|a| ctx.string(*a)) {
                            w.profile = Some(Located::written(name, s));
                        }
                    }
                    // aws-sdk-java-v2 `ClientOverrideConfiguration.Builder`
                    // (also `RequestOverrideConfiguration.Builder`, per
                    // request, not read): `apiCallTimeout` bounds the call
                    // with every retry (`ApiCallTimeoutTrackingStage`),
                    // `apiCallAttemptTimeout` each attempt
                    // (`ApiCallAttemptTimeoutTrackingStage`); neither is set
                    // by default (`SdkClientOption.API_CALL_TIMEOUT` and
                    // `API_CALL_ATTEMPT_TIMEOUT` are resolved from the
                    // override only).
                    "apiCallTimeout" | "apiCallAttemptTimeout" => {
                        let t = match args
                            .first()
                            .and_then(|a| ctx.duration(*a, Duration::from_millis(1)))
                        {
                            Some(d) if !d.is_zero() => Timeout::after(d),
                            _ => Timeout::Unknown,
                        };
                        // At the value, not the chain before it.
                        let at = args.first().map_or(s, |a| span(*a));
                        let t = Some(Located::written(t, at));
                        if name == "apiCallTimeout" {
                            w.overall = t;
                        } else {
                            w.per_try = t;
                        }
                    }
                    // The token bucket turned off: retries with no quota
                    // (aws-sdk-java-v2 `RetryStrategy.Builder.circuitBreakerEnabled`).
                    "circuitBreakerEnabled"
                        if args.first().is_some_and(|a| ctx.text(*a) == "false") =>
                    {
                        w.no_quota = Some(s);
                    }
                    // A helper of this class that builds the configuration
                    // or the strategy (`overrideConfiguration(create(..))`).
                    _ if ast::field(d, "object").is_none() => {
                        if let Some(body) = method_body(ctx, name) {
                            read_override(ctx, body, w, depth + 1);
                        }
                    }
                    _ => {}
                }
            }
            "field_access" => {
                // `RetryMode.STANDARD` and friends.
                let t = ctx.text(d);
                if let Some(m) = t.strip_prefix("RetryMode.") {
                    let m = match m {
                        "STANDARD" => "standard",
                        "LEGACY" => "legacy",
                        "ADAPTIVE" | "ADAPTIVE_V2" => "adaptive",
                        _ => continue,
                    };
                    w.mode = Some(Located::written(m.to_string(), span(d)));
                }
            }
            _ => {}
        }
    }
}

/// Whether a client takes DynamoDB's own default: a DynamoDB client
/// given no retry strategy, policy or mode (`DynamoDbRetryPolicy`
/// applies only when `RETRY_STRATEGY`/`RETRY_POLICY` is not configured;
/// [`sys::AWS_DYNAMODB_ATTEMPTS`]).
fn dynamodb_default(root: &str, w: &Written) -> bool {
    matches!(root, "DynamoDbClient" | "DynamoDbAsyncClient")
        && w.mode.is_none()
        && w.attempts.is_none()
        && w.opaque.is_none()
}

/// The client's policy: the mode's defaults with what the code writes.
fn policy(ctx: &Ctx<'_>, n: Node<'_>, root: &str, at: Span, w: &Written) -> RetryPolicy {
    let dynamodb = dynamodb_default(root, w);
    let mode = w.mode.as_ref().map_or("legacy", |m| m.value.as_str());
    let n_default = if dynamodb {
        sys::AWS_DYNAMODB_ATTEMPTS
    } else if mode == "legacy" {
        sys::AWS_LEGACY_ATTEMPTS
    } else {
        sys::AWS_STANDARD_ATTEMPTS
    };
    let attempts = match &w.attempts {
        Some(a) => a.clone(),
        None => {
            let why = match &w.mode {
                Some(m) => format!(
                    "RetryMode.{} without a count: {n_default} attempts",
                    m.value.to_uppercase()
                ),
                None if dynamodb => format!(
                    "no retry strategy: DynamoDB's own default, {n_default} attempts in every mode"
                ),
                None => format!(
                    "no retry mode or count: the Java SDK's legacy mode, {n_default} attempts"
                ),
            };
            let a = Attempts {
                count: AttemptCount::Finite(n_default),
                written_as: why,
            };
            match &w.mode {
                Some(m) => Located::written(a, m.span),
                None => Located::default_at(a, at),
            }
        }
    };
    let mut p = RetryPolicy::new(System::AwsSdk, at, attempts);
    p.name = Some(match ctx.policy_name(n) {
        Some(v) => format!("{root} {v}"),
        None => root.to_string(),
    });
    let dspan = w.mode.as_ref().map_or(at, |m| m.span);
    p.delay = Located::default_at(
        Delay::Exponential {
            base: if dynamodb {
                sys::AWS_DYNAMODB_BASE_DELAY
            } else {
                sys::AWS_BASE_DELAY
            },
            multiplier: 2.0,
            cap: Some(sys::AWS_MAX_BACKOFF),
        },
        dspan,
    );
    p.cap_order = CapOrder::BeforeJitter;
    p.jitter = Located::default_at(Jitter::Full, dspan);
    p.budget = match w.no_quota {
        Some(_) => {
            p.why.push(
                "`circuitBreakerEnabled(false)`: the token bucket that stops retries in an outage is off"
                    .into(),
            );
            None
        }
        None => Some(Located::default_at(Budget::Quota, dspan)),
    };
    p.retry_on = Located::default_at(RetryOn::Unknown, at);
    p.methods = Located::default_at(Methods::Unknown, at);
    p.overall_timeout.clone_from(&w.overall);
    p.per_try_timeout.clone_from(&w.per_try);
    p
}
