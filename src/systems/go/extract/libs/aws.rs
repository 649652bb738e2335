//! aws-sdk-go-v2 retries written in code: `retry.NewStandard(func(o
//! *retry.StandardOptions) { o.MaxAttempts = ..; o.MaxBackoff = .. })`,
//! `retry.AddWithMaxAttempts(r, n)`, `retry.AddWithMaxBackoffDelay(r, d)`,
//! and `config.LoadDefaultConfig(ctx, config.WithRetryMaxAttempts(n),
//! config.WithRetryMode(aws.RetryModeAdaptive))`. The standard mode's
//! defaults (3 attempts, full jitter from 1 s capped at 20 s, a retry
//! quota) are the AWS system's (`crate::systems::aws`, shared with the
//! shared config files): these settings override them.

use super::super::eval;
use super::super::{Ctx, Pkg, args, bound_name, enclosing_function, field, named_children, span};
use crate::model::{AttemptCount, Attempts, Delay, Located, RetryPolicy};
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// The policy a call writes, or `None` when it writes no retry setting or
/// is part of a larger call read at its outermost (`AddWithMaxAttempts(
/// NewStandard(), 5)` is one policy).
pub(super) fn policy(ctx: &Ctx<'_>, call: Node<'_>) -> Option<RetryPolicy> {
    let wraps = |n: Node<'_>| {
        matches!(
            ctx.pkg_call(n),
            Some((
                Pkg::AwsRetry,
                "AddWithMaxAttempts"
                    | "AddWithMaxBackoffDelay"
                    | "AddWithErrorCodes"
                    | "AddWithRetryables"
            )) | Some((Pkg::AwsConfig, "LoadDefaultConfig"))
        )
    };
    // Read at the outermost call only.
    let mut up = call.parent();
    for _ in 0..4 {
        let Some(u) = up else { break };
        if u.kind_name() == "call_expression" && wraps(u) {
            return None;
        }
        up = u.parent();
    }
    let at = span(call);
    let mut p = crate::systems::aws::extract::default_client_policy("aws-sdk-go-v2", at);
    let mut written = false;
    let mut mode: Option<(&str, crate::source::Span)> = None;
    let mut work = vec![call];
    let mut seen = 0;
    while let Some(n) = work.pop() {
        seen += 1;
        if seen > 64 {
            break;
        }
        let Some((pk, f)) = ctx.pkg_call(n) else {
            continue;
        };
        let a = args(n);
        match (pk, f) {
            (Pkg::AwsConfig, "LoadDefaultConfig") => {
                // With no retry option the SDK's own mode applies: a
                // policy nobody wrote (RL403), as the Rust reader reads
                // `aws_config::load_defaults`.
                written = true;
                let (opts, spread) = load_options(ctx, n);
                // A retryer in a slice of options (`opts...`) is read
                // where it is written, as a policy of its own.
                if !spread.is_empty()
                    && spread
                        .iter()
                        .any(|o| matches!(ctx.pkg_call(*o), Some((Pkg::AwsConfig, "WithRetryer"))))
                {
                    return None;
                }
                work.extend(opts);
                work.extend(spread);
            }
            (Pkg::AwsConfig, "WithRetryMaxAttempts") | (Pkg::AwsRetry, "AddWithMaxAttempts") => {
                let v = if pk == Pkg::AwsConfig {
                    a.first()
                } else {
                    a.get(1)
                };
                if let Some(v) = v.copied() {
                    attempts(ctx, &mut p, f, v);
                    written = true;
                }
                if pk == Pkg::AwsRetry {
                    work.extend(a.first().copied());
                }
            }
            (Pkg::AwsConfig, "WithRetryMode") => {
                if let Some(v) = a.first() {
                    match retry_mode(ctx, *v) {
                        Some(m) => mode = Some((m, span(*v))),
                        None => p.why.push(format!("retry mode `{}`", ctx.text(*v))),
                    }
                    written = true;
                }
            }
            (Pkg::AwsConfig, "WithRetryer") => {
                // `func() aws.Retryer { return retry.NewStandard(..) }`.
                for x in &a {
                    for &c in &ctx.calls {
                        if c.start_byte() >= x.start_byte()
                            && c.end_byte() <= x.end_byte()
                            && matches!(ctx.pkg_call(c), Some((Pkg::AwsRetry, _)))
                            && c.parent()
                                .is_some_and(|p| p.kind_name() == "expression_list")
                        {
                            work.push(c);
                        }
                    }
                }
            }
            (Pkg::AwsRetry, "AddWithMaxBackoffDelay") => {
                if let Some(d) = a.get(1).and_then(|v| eval::duration(ctx, *v)) {
                    cap(&mut p, d, span(a[1]));
                    written = true;
                }
                work.extend(a.first().copied());
            }
            (Pkg::AwsRetry, "AddWithErrorCodes" | "AddWithRetryables") => {
                work.extend(a.first().copied())
            }
            (Pkg::AwsRetry, "NewStandard" | "NewAdaptiveMode") => {
                // The options function: `o.MaxAttempts = n`.
                for opt in &a {
                    if opt.kind_name() != "func_literal" {
                        continue;
                    }
                    let param = field(*opt, "parameters")
                        .and_then(|ps| ps.named_child(0))
                        .and_then(|pd| field(pd, "name"))
                        .map(|n| ctx.text(n));
                    let Some(param) = param else { continue };
                    for fs in ctx.fields_of(param, Some(*opt)) {
                        match fs.field {
                            "MaxAttempts" => attempts(ctx, &mut p, "MaxAttempts", fs.value),
                            "MaxBackoff" => {
                                if let Some(d) = eval::duration(ctx, fs.value) {
                                    cap(&mut p, d, span(fs.value));
                                }
                            }
                            _ => {}
                        }
                    }
                }
                // A retryer built in code is a written policy, even with
                // the mode's defaults.
                written = true;
            }
            _ => {}
        }
    }
    // `WithRetryMode(aws.RetryModeAdaptive)`: the mode is written, and
    // with it its attempts (unless written too), delays and quota, as a
    // profile's `retry_mode` writes them.
    if let Some((m, at)) = mode {
        if p.attempts.provenance == crate::model::Provenance::Default {
            p.attempts = Located::written(
                Attempts {
                    count: p.attempts.value.count,
                    written_as: format!(
                        "WithRetryMode({m}) without WithRetryMaxAttempts: 3 attempts"
                    ),
                },
                at,
            );
        }
        p.delay = Located::written(p.delay.value.clone(), at);
        p.jitter = Located::written(p.jitter.value.clone(), at);
        if let Some(b) = &p.budget {
            p.budget = Some(Located::written(b.value.clone(), at));
        }
        if m == "adaptive" {
            p.why.push(
                "retry mode `adaptive`: the standard mode's retries and quota, and a client-side rate limiter on throttling"
                    .into(),
            );
        }
    }
    if call_is_load(ctx, call) && p.attempts.provenance == crate::model::Provenance::Default {
        match client_options(ctx) {
            ClientRetry::Own => return None,
            ClientRetry::Attempts(v) => attempts(ctx, &mut p, "RetryMaxAttempts", v),
            ClientRetry::Zero(v) => {
                p.attempts = Located::default_at(
                    Attempts {
                        count: p.attempts.value.count,
                        written_as: "`RetryMaxAttempts = 0` on the client's options, which aws-sdk-go-v2 reads as unset: its default, 3 attempts".into(),
                    },
                    span(v),
                );
            }
            ClientRetry::None => {}
        }
    }
    written.then_some(p)
}

fn call_is_load(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    matches!(
        ctx.pkg_call(call),
        Some((Pkg::AwsConfig, "LoadDefaultConfig"))
    )
}

/// What a service client's options in the file say of its retries
/// (`func(o *s3.Options) { o.RetryMaxAttempts = 5 }`): they override the
/// loaded configuration's for that client (aws-sdk-go-v2 generated
/// `api_client.go` `resolveRetryer`, from `codegen/smithy-aws-go-codegen/
/// src/main/java/software/amazon/smithy/aws/go/codegen/AddAwsConfigFields.java`
/// at eb2d43917f5c: `if v := o.RetryMaxAttempts; v != 0 { so.MaxAttempts
/// = v }`, and a `Retryer` set wins over both `RetryMaxAttempts` and
/// `RetryMode`; "A value of 0 is ignored").
enum ClientRetry<'a> {
    /// Nothing about retries.
    None,
    /// `RetryMaxAttempts` set to a count other than zero (or unknown).
    Attempts(Node<'a>),
    /// `RetryMaxAttempts = 0`: ignored, the default stays.
    Zero(Node<'a>),
    /// A `Retryer` of the client's own (`aws.NopRetryer{}`, a retryer
    /// built in code and read where it is built).
    Own,
}

fn client_options<'a>(ctx: &Ctx<'a>) -> ClientRetry<'a> {
    if !ctx.imports(Pkg::AwsService) {
        return ClientRetry::None;
    }
    let mut out = ClientRetry::None;
    for fs in &ctx.fields {
        if !matches!(fs.field, "RetryMaxAttempts" | "Retryer") || !service_options(ctx, fs) {
            continue;
        }
        if fs.field == "Retryer" {
            return ClientRetry::Own;
        }
        out = match eval::count(ctx, fs.value) {
            Some(0) => ClientRetry::Zero(fs.value),
            _ => ClientRetry::Attempts(fs.value),
        };
    }
    out
}

/// Whether a field set's receiver is the parameter of a function literal
/// typed as a service client's options (`func(o *s3.Options)`).
fn service_options(ctx: &Ctx<'_>, fs: &super::super::FieldSet<'_>) -> bool {
    let mut up = fs.value.parent();
    for _ in 0..32 {
        let Some(u) = up else { return false };
        if u.kind_name() == "func_literal" {
            let Some(params) = field(u, "parameters") else {
                return false;
            };
            return named_children(params).into_iter().any(|pd| {
                let name = field(pd, "name").map(|n| ctx.text(n));
                let ty = field(pd, "type").map(|t| ctx.text(t).trim_start_matches('*'));
                name == Some(fs.recv)
                    && ty.and_then(|t| t.split_once('.')).is_some_and(|(pk, t)| {
                        t == "Options" && ctx.pkg(pk) == Some(Pkg::AwsService)
                    })
            });
        }
        up = u.parent();
    }
    false
}

/// What `config.LoadDefaultConfig(..)` at `call` (policy `p`, index
/// `index`) leaves to the shared configuration, for `systems::aws::link`:
/// the mode and attempts its options write (`WithRetryMode`,
/// `WithRetryMaxAttempts`; a `WithRetryer` writes both), and the profile
/// `config.WithSharedConfigProfile("name")` names. aws-sdk-go-v2
/// `config/resolve.go` `resolveRetryMaxAttempts` / `resolveRetryMode`
/// (the first of `LoadOptions`, `EnvConfig`, `SharedConfig`): an
/// option given to `LoadDefaultConfig` wins over `AWS_MAX_ATTEMPTS` /
/// `AWS_RETRY_MODE` (`config/env_config.go`), which win over the
/// profile's `max_attempts` / `retry_mode` (`config/shared_config.go`);
/// the profile is `WithSharedConfigProfile`'s, else `AWS_PROFILE`, else
/// `default`.
pub(super) fn shared(
    ctx: &Ctx<'_>,
    call: Node<'_>,
    p: &RetryPolicy,
    index: usize,
) -> Option<crate::model::AwsShared> {
    use crate::model::Provenance;
    let mut profile = None;
    let mut retryer = false;
    let (opts, spread) = load_options(ctx, call);
    for a in opts.iter().chain(spread.iter()) {
        match ctx.pkg_call(*a) {
            Some((Pkg::AwsConfig, "WithSharedConfigProfile")) => {
                if let Some(v) = args(*a).first()
                    && let Some(name) = eval::string(ctx, *v).filter(|s| !s.is_empty())
                {
                    profile = Some(Located::written(name, span(*v)));
                }
            }
            Some((Pkg::AwsConfig, "WithRetryer")) => retryer = true,
            _ => {}
        }
    }
    if retryer {
        return None;
    }
    let mode = (p.delay.provenance == Provenance::Written).then(|| {
        let m = if p.why.iter().any(|w| w.contains("adaptive")) {
            "adaptive"
        } else {
            "standard"
        };
        Located::written(m.to_string(), p.delay.span)
    });
    // A `WithRetryMode` alone writes its attempts too, with the mode's
    // default: only `WithRetryMaxAttempts` (its text) writes a count.
    let attempts = match (&p.attempts.provenance, &p.attempts.value.count) {
        (Provenance::Written, _) if p.attempts.value.written_as.starts_with("WithRetryMode(") => {
            None
        }
        (Provenance::Written, AttemptCount::Finite(n)) => {
            Some(Located::written(*n, p.attempts.span))
        }
        (Provenance::Written, _) => Some(Located::written(0, p.attempts.span)),
        _ => None,
    };
    if mode.is_some() && attempts.is_some() {
        return None;
    }
    Some(crate::model::AwsShared {
        kind: crate::model::AwsSharedKind::Client {
            policy: index,
            botocore: false,
        },
        mode,
        attempts,
        profile,
    })
}

/// The mode `WithRetryMode` is given: `aws.RetryModeStandard`/
/// `aws.RetryModeAdaptive` or the string (aws-sdk-go-v2 `aws/retryer.go`,
/// since v1.14.0: `RetryModeStandard RetryMode = "standard"`,
/// `RetryModeAdaptive RetryMode = "adaptive"`; `ParseRetryMode` knows no
/// other).
fn retry_mode(ctx: &Ctx<'_>, v: Node<'_>) -> Option<&'static str> {
    let name = match ctx.pkg_ref(v) {
        Some((Pkg::Aws, c)) => c.strip_prefix("RetryMode")?.to_ascii_lowercase(),
        _ => eval::string(ctx, v)?,
    };
    match name.as_str() {
        "standard" => Some("standard"),
        "adaptive" => Some("adaptive"),
        _ => None,
    }
}

fn attempts(ctx: &Ctx<'_>, p: &mut RetryPolicy, what: &str, v: Node<'_>) {
    let count = match eval::count(ctx, v) {
        Some(n) if n >= 1 => AttemptCount::Finite(n),
        // aws-sdk-go-v2 reads 0 as "the default".
        Some(_) => return,
        None => AttemptCount::Unknown,
    };
    p.attempts = Located::written(
        Attempts {
            count,
            written_as: format!("{what}({})", ctx.text(v)),
        },
        span(v),
    );
}

fn cap(p: &mut RetryPolicy, d: std::time::Duration, at: crate::source::Span) {
    if let Delay::Exponential {
        base, multiplier, ..
    } = p.delay.value
    {
        p.delay = Located::written(
            Delay::Exponential {
                base,
                multiplier,
                cap: Some(d),
            },
            at,
        );
    }
}

/// The options a `config.LoadDefaultConfig(ctx, ..)` call is given: its
/// arguments after the context, and apart the options of a slice spread
/// into it (`opts...`, external-dns's `defaultOpts`): the elements of
/// the literal bound to the slice and of each `append(opts, ..)`
/// assigned to it before the call in the same function.
fn load_options<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> (Vec<Node<'a>>, Vec<Node<'a>>) {
    let mut direct = Vec::new();
    let mut spread = Vec::new();
    for a in args(call).into_iter().skip(1) {
        if a.kind_name() != "variadic_argument" {
            direct.push(a);
            continue;
        }
        let Some(name) = a
            .named_child(0)
            .filter(|x| x.kind_name() == "identifier")
            .map(|x| ctx.text(x))
        else {
            continue;
        };
        let within = enclosing_function(call);
        let (lo, hi) = within.map_or((0, call.start_byte()), |f| {
            (f.start_byte(), call.start_byte())
        });
        for &n in &ctx.nodes {
            if n.start_byte() < lo || n.end_byte() > hi {
                continue;
            }
            match n.kind_name() {
                "composite_literal" if bound_name(ctx, n) == Some(name) => {
                    let Some(body) = field(n, "body") else {
                        continue;
                    };
                    for e in named_children(body) {
                        let e = if e.kind_name() == "literal_element" {
                            e.named_child(0).unwrap_or(e)
                        } else {
                            e
                        };
                        spread.push(e);
                    }
                }
                "call_expression"
                    if bound_name(ctx, n) == Some(name)
                        && field(n, "function").is_some_and(|f| ctx.text(f) == "append") =>
                {
                    let xs = args(n);
                    if xs.first().is_some_and(|x| ctx.text(*x) == name) {
                        spread.extend(
                            xs.into_iter()
                                .skip(1)
                                .filter(|x| x.kind_name() != "variadic_argument"),
                        );
                    }
                }
                _ => {}
            }
            if spread.len() > 64 {
                break;
            }
        }
    }
    (direct, spread)
}
