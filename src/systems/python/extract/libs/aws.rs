//! AWS: botocore `Config(retries=.., connect_timeout=.., read_timeout=..)`
//! and the boto3 clients it configures (`boto3.client("s3",
//! config=cfg)`, `session.client(..)`, `boto3.resource(..)`). A client
//! given a `Config` of this file is that policy's; a client given none
//! retries with botocore's defaults (legacy mode, 5 attempts, 60 s
//! timeouts: [`crate::systems::python`]), a policy of its own at the call.
//! A `config=` that is not read here (a parameter, another module's)
//! leaves the client without a policy.

use super::super::eval::{self, resolve};
use super::super::{Args, Ctx, callee, field, named_children, span};
use super::{attempts, default_attempts};
use crate::model::*;
use crate::systems::python as sys;
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::Node;

/// The service name of a boto3 client or resource built at `call`
/// (`boto3.client("s3")`, `session.client(service_name="sqs")`,
/// `boto3.resource("dynamodb")`), `None` when `call` builds none.
pub(super) fn client_service(ctx: &Ctx<'_>, call: Node<'_>) -> Option<String> {
    let (full, last) = callee(ctx, call);
    if !matches!(last, "client" | "resource") {
        return None;
    }
    let recv = full.rsplit_once('.').map_or("", |(r, _)| r);
    let boto = recv == "boto3"
        || recv == "aioboto3"
        || recv.to_ascii_lowercase().contains("session")
        || field(call, "function")
            .and_then(|f| field(f, "object"))
            .map(|o| resolve(ctx, o))
            .is_some_and(|o| o.kind() == "call" && callee(ctx, o).0.contains("Session"));
    if !boto {
        return None;
    }
    let args = Args::of(ctx, call);
    let svc = eval::string(ctx, args.get("service_name", 0)?)?;
    (!svc.is_empty() && svc.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')).then_some(svc)
}

/// Tie each client of the file to its `Config`: the `Config`'s policy is
/// named after the client(s) it configures; a client with no `config=`
/// gets botocore's defaults as its own policy. Every such policy is listed
/// in `facts.aws_shared` with what its code writes of the mode and
/// attempts, and the profile its session names, for the link step that
/// fills the rest from the workload's environment and the profiles
/// (`systems::aws::link`).
/// Each client tied to a policy is added to `clients` (its calls are
/// calls to AWS, [`crate::systems::aws::ENDPOINT`]).
pub(super) fn tie_clients<'a>(
    ctx: &Ctx<'a>,
    facts: &mut Facts,
    built: &HashMap<usize, usize>,
    clients: &mut Vec<super::super::sdk_calls::SdkClient<'a>>,
) {
    let client = |node, policy| super::super::sdk_calls::SdkClient {
        node,
        policy,
        host: crate::systems::aws::ENDPOINT.service.into(),
    };
    let mut named: Vec<usize> = Vec::new();
    let mut profiles: HashMap<usize, Located<String>> = HashMap::new();
    for &n in &ctx.nodes {
        if n.kind() != "call" {
            continue;
        }
        let Some(svc) = client_service(ctx, n) else {
            continue;
        };
        // A client used only to sign locally sends nothing to retry.
        if presigns_only(ctx, n) {
            continue;
        }
        let what = format!("{}(\"{svc}\")", callee(ctx, n).0);
        let splat = field(n, "arguments").is_some_and(|a| {
            named_children(a)
                .iter()
                .any(|c| c.kind() == "dictionary_splat")
        });
        let profile = client_profile(ctx, n);
        match Args::of(ctx, n).kw("config") {
            // `**client_params` may hold the `config`: not known here.
            None if splat => {}
            // A session built elsewhere, or given a default client config
            // (`session._session.set_default_client_config(cfg)`, as
            // prowler's `AwsProvider` does), configures its clients: not
            // known here.
            None if !default_session(ctx, n) => {}
            None => {
                if let Some(mut p) = botocore_policy(ctx, n, true, &mut Vec::new()) {
                    p.name = Some(format!("{what} with botocore's defaults"));
                    facts.policies.push(p);
                    clients.push(client(n, facts.policies.len() - 1));
                    if let Some(pr) = profile {
                        profiles.insert(facts.policies.len() - 1, pr);
                    }
                }
            }
            Some(c) => {
                let c = resolve(ctx, c);
                // `Config(..).merge(other)`: the outer call's receiver.
                let Some(&i) = built.get(&c.id()) else {
                    continue;
                };
                clients.push(client(n, i));
                let p = &mut facts.policies[i];
                if !named.contains(&i) {
                    named.push(i);
                    p.name = Some(format!("botocore Config of {what}"));
                }
                if let Some(pr) = profile {
                    profiles.insert(i, pr);
                }
            }
        }
    }
    for (i, p) in facts.policies.iter().enumerate() {
        if p.system != System::AwsSdk {
            continue;
        }
        // The mode, when the code writes it, is written on the delay.
        let mode = (p.delay.provenance == Provenance::Written).then(|| {
            let m = if p.budget.is_some() {
                "standard"
            } else {
                "legacy"
            };
            Located::written(m.to_string(), p.delay.span)
        });
        let attempts = match (&p.attempts.provenance, &p.attempts.value.count) {
            (Provenance::Written, AttemptCount::Finite(n)) => {
                Some(Located::written(*n, p.attempts.span))
            }
            // Written but unknown (a parameter): botocore reads nothing
            // else for the count (0 stands for "written, not known").
            (Provenance::Written, _) => Some(Located::written(0, p.attempts.span)),
            _ => None,
        };
        if mode.is_some() && attempts.is_some() {
            continue;
        }
        facts.aws_shared.push(AwsShared {
            kind: AwsSharedKind::Client {
                policy: i,
                botocore: true,
            },
            mode,
            attempts,
            profile: profiles.remove(&i),
        });
    }
}

/// Client methods that sign a request or token locally and send nothing
/// (botocore `signers.py`: `generate_presigned_url`, S3's
/// `generate_presigned_post`, RDS's `generate_db_auth_token`, Aurora
/// DSQL's `generate_db_connect_auth_token` and
/// `generate_db_connect_admin_auth_token`, added to the clients by
/// `add_generate_*` handlers; they compute a signature with the client's
/// credentials and return it, no request made).
const PRESIGNS: &[&str] = &[
    "generate_presigned_url",
    "generate_presigned_post",
    "generate_db_auth_token",
    "generate_db_connect_auth_token",
    "generate_db_connect_admin_auth_token",
];

/// Whether the client built at `call` is used only for local signing:
/// called on at once (`session.client("s3").generate_presigned_url(..)`),
/// or bound to a name whose every use in the function (the file, for
/// an attribute) is a call of one of [`PRESIGNS`], with at least one.
fn presigns_only(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    let signs = |recv: Node<'_>| {
        recv.parent()
            .filter(|a| a.kind() == "attribute")
            .filter(|a| field(*a, "object").is_some_and(|o| o.id() == recv.id()))
            .and_then(|a| field(a, "attribute"))
            .is_some_and(|m| PRESIGNS.contains(&ctx.text(m)))
    };
    if signs(call) {
        return true;
    }
    let Some(assign) = call
        .parent()
        .filter(|a| a.kind() == "assignment")
        .filter(|a| field(*a, "right").is_some_and(|r| r.id() == call.id()))
    else {
        return false;
    };
    let Some(left) =
        field(assign, "left").filter(|l| matches!(l.kind(), "identifier" | "attribute"))
    else {
        return false;
    };
    let name = ctx.text(left);
    // Where the name is used: its function, or the file for an attribute.
    let within = if left.kind() == "identifier" {
        std::iter::successors(assign.parent(), |p| p.parent())
            .take(64)
            .find(|p| p.kind() == "function_definition")
    } else {
        None
    };
    let pool: &[Node<'_>] = match within {
        Some(f) => ctx.subtree(f),
        None => &ctx.nodes,
    };
    let uses: Vec<Node<'_>> = pool
        .iter()
        .copied()
        .filter(|u| u.kind() == left.kind() && ctx.text(*u) == name && u.id() != left.id())
        // Not the name of a member or keyword (`session.client(..)`,
        // `f(client=..)`): another thing of the same name.
        .filter(|u| {
            u.parent().is_none_or(|p| {
                !matches!(p.kind(), "attribute" | "keyword_argument")
                    || field(
                        p,
                        if p.kind() == "attribute" {
                            "object"
                        } else {
                            "value"
                        },
                    )
                    .is_some_and(|o| o.id() == u.id())
            })
        })
        .take(256)
        .collect();
    !uses.is_empty() && uses.iter().all(|u| signs(*u))
}

/// Whether a client built at `call` without `config=` runs with
/// botocore's defaults: it is built from the `boto3` module's default
/// session, or from a session this file builds (`boto3.Session(..)`) and
/// never gives a default client config (botocore `session.py`
/// `Session.set_default_client_config`: "the config ... is used as the
/// default for all clients created from the session", merged with a
/// client's own; botocore 1.43.67). A session that comes from elsewhere
/// (a parameter, an attribute) may carry one.
fn default_session(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    let (full, _) = callee(ctx, call);
    let recv = full.rsplit_once('.').map_or("", |(r, _)| r);
    if matches!(recv, "boto3" | "aioboto3") {
        return true;
    }
    let built_here = field(call, "function")
        .filter(|f| f.kind() == "attribute")
        .and_then(|f| field(f, "object"))
        .map(|o| resolve(ctx, o))
        .is_some_and(|o| {
            o.kind() == "call" && matches!(callee(ctx, o).1, "Session" | "get_session")
        });
    built_here
        && !ctx
            .nodes
            .iter()
            .any(|&c| c.kind() == "call" && callee(ctx, c).1 == "set_default_client_config")
}

/// The profile of the session a client is built from:
/// `boto3.Session(profile_name="x").client(..)`, `session.client(..)`
/// where `session = boto3.session.Session(profile_name="x")`.
fn client_profile(ctx: &Ctx<'_>, call: Node<'_>) -> Option<Located<String>> {
    let recv = field(call, "function")
        .filter(|f| f.kind() == "attribute")
        .and_then(|f| field(f, "object"))
        .map(|o| resolve(ctx, o))
        .filter(|o| o.kind() == "call" && callee(ctx, *o).1 == "Session")?;
    let v = Args::of(ctx, recv).kw("profile_name")?;
    let name = eval::string(ctx, v).filter(|s| !s.is_empty() && !s.contains(eval::UNKNOWN))?;
    Some(Located::written(name, span(v)))
}

/// The policy of `Config(..)` at `call` (`None` when it sets no retry or
/// timeout), or with `implicit` the defaults of a client built without
/// one (`call` is then the `boto3.client(..)` call). A `max_attempts`
/// taken from `AWS_MAX_ATTEMPTS` is reported in `diags`
/// ([`attempts_as_retries`]).
pub(super) fn botocore_policy(
    ctx: &Ctx<'_>,
    call: Node<'_>,
    implicit: bool,
    diags: &mut Vec<crate::diag::Diagnostic>,
) -> Option<RetryPolicy> {
    let args = if implicit {
        Args {
            positional: Vec::new(),
            keywords: Vec::new(),
        }
    } else {
        Args::of(ctx, call)
    };
    let retries = args.kw("retries").map(|r| resolve(ctx, r));
    let read = args.kw("read_timeout");
    if !implicit && retries.is_none() && read.is_none() && args.kw("connect_timeout").is_none() {
        return None;
    }
    // The `retries` dictionary's entries.
    let mut entries: Vec<(String, Node<'_>)> = Vec::new();
    if let Some(r) = retries.filter(|r| r.kind() == "dictionary") {
        for pair in named_children(r).into_iter().filter(|p| p.kind() == "pair") {
            if let (Some(k), Some(v)) = (field(pair, "key"), field(pair, "value"))
                && let Some(k) = eval::string(ctx, k)
            {
                entries.push((k, v));
            }
        }
    }
    let entry = |k: &str| entries.iter().find(|(n, _)| n == k).map(|(_, v)| *v);
    let mode = entry("mode").and_then(|m| eval::string(ctx, m));
    let standard = matches!(mode.as_deref(), Some("standard" | "adaptive"));
    let default_count = if standard {
        sys::BOTOCORE_STANDARD_ATTEMPTS
    } else {
        sys::BOTOCORE_LEGACY_ATTEMPTS
    };
    let attempts_l = if let Some(t) = entry("total_max_attempts") {
        let c = match eval::number(ctx, t) {
            Some(v) if v >= 1.0 => AttemptCount::Finite(v as u64),
            _ => AttemptCount::Unknown,
        };
        attempts(c, format!("\"total_max_attempts\": {}", ctx.text(t)), t)
    } else if let Some(m) = entry("max_attempts") {
        if let Some(d) = attempts_as_retries(ctx, m) {
            diags.push(d);
        }
        // In a `Config`, `max_attempts` counts retries (botocore adds 1).
        let c = match eval::number(ctx, m) {
            Some(v) if v >= 0.0 => AttemptCount::Finite(v as u64 + 1),
            _ => AttemptCount::Unknown,
        };
        attempts(c, format!("\"max_attempts\": {} (retries)", ctx.text(m)), m)
    } else {
        // The mode and count not written here come from `AWS_RETRY_MODE`
        // / `AWS_MAX_ATTEMPTS` or the profile's `retry_mode` /
        // `max_attempts` (`args.py` `_compute_retry_mode`), which a file of
        // code cannot show; without them botocore uses legacy mode.
        let mode = mode.as_deref().unwrap_or("legacy");
        default_attempts(
            AttemptCount::Finite(default_count),
            &format!(
                "no max_attempts: botocore's {mode} mode default of {default_count} attempts (unless AWS_MAX_ATTEMPTS or the profile's max_attempts is set)"
            ),
            call,
        )
    };
    let mut p = RetryPolicy::new(System::AwsSdk, span(call), attempts_l);
    p.name = Some(if implicit {
        "boto3 client with botocore's defaults".into()
    } else {
        "botocore Config".into()
    });
    let at = span(call);
    p.delay = Located::default_at(
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: standard.then_some(sys::BOTOCORE_MAX_BACKOFF),
        },
        at,
    );
    p.jitter = Located::default_at(Jitter::Full, at);
    // A mode written in the `Config` writes its delays (and quota): the
    // shared configuration's mode no longer applies (`systems::aws::link`).
    if let Some(m) = entry("mode").filter(|_| mode.is_some()) {
        p.delay = Located::written(p.delay.value.clone(), span(m));
    }
    p.cap_order = CapOrder::AfterJitter;
    if standard {
        p.budget = Some(Located::default_at(Budget::Quota, at));
    }
    p.retry_on = Located::default_at(RetryOn::Unknown, at);
    p.methods = Located::default_at(Methods::Unknown, at);
    p.per_try_timeout = Some(match read {
        Some(r) => super::super::timeout_at(ctx, r),
        None => Located::default_at(Timeout::after(sys::BOTOCORE_TIMEOUT), at),
    });
    Some(p)
}

/// The shared-config setting that counts attempts, the first included:
/// `AWS_MAX_ATTEMPTS` in the environment, `max_attempts` in a profile
/// (botocore `configprovider.py` `'max_attempts': ('max_attempts',
/// 'AWS_MAX_ATTEMPTS', None, int)`, stored as `total_max_attempts` by
/// `args.py` `_compute_retry_max_attempts`; botocore 1.43.67).
const ATTEMPTS_VARIABLE: &str = "AWS_MAX_ATTEMPTS";

/// A `Config`'s `"max_attempts"` whose value is read from
/// `AWS_MAX_ATTEMPTS` (`int(os.getenv("AWS_MAX_ATTEMPTS", "5"))`, a name
/// bound to it, `settings.AWS_MAX_ATTEMPTS`): the variable counts
/// attempts, the `Config` key retries, in every retry mode (botocore
/// 1.43.67 `args.py` `_compute_retry_max_attempts` makes it
/// `total_max_attempts = max_attempts + 1`; legacy mode turns that back
/// into retries in `client.py` `_transform_legacy_retries` and adds the 1
/// again in `translate.py` `_merge_client_retry_config`), so the program
/// makes one attempt more than the variable says, and the `Config`
/// overrides the variable botocore would have read itself. Seen in
/// aws/aws-sdk-pandas `awswrangler/_utils.py` `default_botocore_config`.
fn attempts_as_retries(ctx: &Ctx<'_>, m: Node<'_>) -> Option<crate::diag::Diagnostic> {
    let mut stack = vec![(m, 0usize)];
    let mut seen = 0usize;
    let mut found = false;
    while let Some((n, depth)) = stack.pop() {
        seen += 1;
        if seen > 256 || depth > super::super::MAX_DEPTH {
            break;
        }
        // The variable itself, not a name that contains it
        // (`S3_AWS_MAX_ATTEMPTS` is the program's own setting).
        let names_it = match n.kind() {
            "string" => eval::string(ctx, n).is_some_and(|v| v == ATTEMPTS_VARIABLE),
            "identifier" => ctx.text(n) == ATTEMPTS_VARIABLE,
            "attribute" => field(n, "attribute").is_some_and(|a| ctx.text(a) == ATTEMPTS_VARIABLE),
            _ => false,
        };
        if names_it {
            found = true;
            break;
        }
        match n.kind() {
            "identifier" => {
                let r = resolve(ctx, n);
                if r.id() != n.id() {
                    stack.push((r, depth + 1));
                }
            }
            _ => stack.extend(named_children(n).into_iter().map(|c| (c, depth + 1))),
        }
    }
    if !found {
        return None;
    }
    Some(crate::diag::invalid_setting::misread(
        span(m),
        "max_attempts",
        &crate::systems::python::extract::one_line(ctx.text(m)),
        &format!(
            "`{ATTEMPTS_VARIABLE}` counts attempts (the first included) while a `Config`'s `max_attempts` counts retries in every retry mode, so `{ATTEMPTS_VARIABLE}=5` makes 6 attempts here, and this `Config` overrides the variable botocore would read itself"
        ),
        "pass the value as `\"total_max_attempts\"`, which counts attempts as `AWS_MAX_ATTEMPTS` does, or leave it out and let botocore read `AWS_MAX_ATTEMPTS`",
    ))
}
