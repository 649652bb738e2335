//! urllib3 `Retry` and requests' `HTTPAdapter(max_retries=..)`, httpx
//! transports, Celery tasks with `autoretry_for` and `self.retry`.

use super::super::eval::{self, resolve};
use super::super::{Args, Ctx, field, named_children, policy, span};
use super::{attempts, default_attempts, exception_names, secs};
use crate::model::backoff::ServerDelay;
use crate::model::*;
use crate::systems::python as sys;
use tree_sitter::Node;

// ---------------------------------------------------------------------------
// urllib3 / requests

fn attempts_of(p: &RetryPolicy) -> Option<u64> {
    p.attempts.value.count.finite()
}

pub(super) fn urllib3_policy(
    ctx: &Ctx<'_>,
    call: Node<'_>,
    diagnostics: &mut Vec<crate::diag::Diagnostic>,
) -> Option<RetryPolicy> {
    let args = Args::of(ctx, call);
    // google-api-core's `Retry(initial=, maximum=, ...)` is not urllib3's.
    if ["initial", "maximum", "multiplier", "predicate", "deadline"]
        .iter()
        .any(|k| args.kw(k).is_some())
    {
        return None;
    }
    let at = |n: Node<'_>| span(n);
    let total = args.get("total", 0);
    let count_of = |n: Node<'_>| -> Option<AttemptCount> {
        let r = resolve(ctx, n);
        match r.kind() {
            "false" => Some(AttemptCount::Finite(1)),
            "none" => None,
            _ => Some(match eval::number(ctx, r) {
                Some(v) if v >= 0.0 => AttemptCount::Finite(v as u64 + 1),
                _ => AttemptCount::Unknown,
            }),
        }
    };
    let attempts_l = match total {
        Some(t) => match count_of(t) {
            Some(c) => attempts(c, format!("total={} (retries)", ctx.text(t)), t),
            // `total=None`: the per-kind counters limit it.
            None => {
                let kinds: Vec<AttemptCount> = ["connect", "read", "status", "other"]
                    .iter()
                    .filter_map(|k| args.kw(k))
                    .filter_map(count_of)
                    .collect();
                let count = if kinds.is_empty() {
                    AttemptCount::Unbounded
                } else if kinds.iter().all(|c| c.finite().is_some()) {
                    // Each kind counts its own retries.
                    AttemptCount::Finite(
                        kinds
                            .iter()
                            .filter_map(|c| c.finite())
                            .map(|n| n - 1)
                            .sum::<u64>()
                            + 1,
                    )
                } else {
                    AttemptCount::Unknown
                };
                attempts(count, format!("total={}", ctx.text(t)), t)
            }
        },
        None => default_attempts(
            AttemptCount::Finite(sys::URLLIB3_TOTAL + 1),
            "no total: urllib3's default total=10 retries",
            call,
        ),
    };
    let mut p = policy("urllib3", span(call), attempts_l);
    p.name = Some(format!("Retry({})", short_args(ctx, call)));
    let cap = match args.kw("backoff_max") {
        Some(m) => eval::seconds(ctx, m),
        None => Some(sys::URLLIB3_BACKOFF_MAX),
    };
    p.delay = match args.kw("backoff_factor") {
        None => Located::default_at(Delay::None, span(call)),
        Some(f) => Located::written(
            match eval::number(ctx, f) {
                Some(v) if v <= 0.0 => Delay::None,
                // The first retry goes at once, then `factor x 2^(n-1)`:
                // read as `factor x 2^(n-1)` from the first (one wait
                // of `factor` more than urllib3's).
                Some(v) => Delay::Exponential {
                    base: secs(v),
                    multiplier: 2.0,
                    cap,
                },
                None => Delay::Unknown,
            },
            at(f),
        ),
    };
    p.jitter = match args.kw("backoff_jitter") {
        None => Located::default_at(Jitter::None, span(call)),
        Some(j) => Located::written(
            match eval::number(ctx, j) {
                Some(v) if v <= 0.0 => Jitter::None,
                Some(_) => Jitter::Additive,
                None => Jitter::Unknown,
            },
            at(j),
        ),
    };
    // Connection and read errors always; statuses only when listed (and
    // 413/429/503 with a `Retry-After`).
    let mut conditions = vec![
        Located::default_at(Condition::Transport("connect".into()), span(call)),
        Located::default_at(Condition::Transport("read timeout".into()), span(call)),
    ];
    if let Some(list) = args.kw("status_forcelist") {
        let list = resolve(ctx, list);
        for s in named_children(list) {
            if let Some(v) = eval::number(ctx, s).filter(|v| (100.0..600.0).contains(v)) {
                conditions.push(Located::written(Condition::status(v as u16), span(s)));
            }
        }
        if !matches!(list.kind(), "list" | "tuple" | "set") {
            conditions.push(Located::written(Condition::Predicate, span(list)));
        }
    }
    // `respect_retry_after_header=True` (the default): a 413, 429 or 503
    // with a `Retry-After` is retried even when no status is listed
    // (`is_retry`), after the header's wait as it is (`sleep_for_retry`:
    // no jitter, not bounded by `backoff_max`; capped only by
    // `retry_after_max`, new in 2.7.0 with a default of 21600 s). These
    // statuses are not added to the conditions: they are retried only
    // when the server asks for it, at the time it names, which is RL208's
    // to judge (as conditions every `Retry` would retry the overload
    // signal, RL603, and 413 a client error, RL101). With
    // `respect_retry_after_header=False` it ignores the header on the 429
    // and 503 it is told to retry (RL208's other half).
    let lists_429_503 = conditions.iter().any(|c| {
        matches!(c.value, Condition::Status { from, to } if (from..=to).contains(&429) || (from..=to).contains(&503))
    });
    let respect = args.kw("respect_retry_after_header");
    let off = respect.and_then(|r| eval::boolean(ctx, r)) == Some(false);
    let retries = !matches!(attempts_of(&p), Some(1));
    if retries && (!off || lists_429_503) {
        let cap = args.kw("retry_after_max");
        let d = ServerDelay {
            header: "Retry-After".into(),
            capped: !off && cap.is_some(),
            jittered: false,
            by: if off {
                "urllib3's `Retry`".into()
            } else {
                "urllib3's `Retry` (respect_retry_after_header=True)".into()
            },
            ignored: off
                .then(|| "set `respect_retry_after_header=True` (urllib3's default)".to_string()),
        };
        p.server_delay = Some(match respect {
            Some(r) => Located::written(d, span(r)),
            None => Located::default_at(d, span(call)),
        });
    }
    p.retry_on = Located::written(RetryOn::Listed { conditions }, span(call));
    // `raise_on_status` (default True): what the caller gets once the
    // status retries are spent (an error, or with False the last
    // response), not how often it retries.
    if let Some(r) = args.kw("raise_on_status") {
        p.why.push(match eval::boolean(ctx, r) {
            Some(false) => {
                "raise_on_status=False: the last response is returned after the status retries"
                    .into()
            }
            _ => format!("raise_on_status={}", ctx.text(r)),
        });
    }
    // urllib3 1.x and 2.x: `method_whitelist` is 1.x's name (deprecated in
    // 1.26, removed in 2.0, where `Retry(method_whitelist=..)` raises
    // TypeError); `backoff_max` and `backoff_jitter` are 2.x arguments
    // (1.26 raises TypeError for them; its cap is the class attribute
    // `BACKOFF_MAX`/`DEFAULT_BACKOFF_MAX`, also 120 s).
    if let Some(w) = args.kw("method_whitelist") {
        let two = ["backoff_max", "backoff_jitter", "retry_after_max"]
            .into_iter()
            .find(|k| args.kw(k).is_some());
        let message = match two {
            Some(k) => format!(
                "`method_whitelist` is urllib3 1.x's argument and `{k}` is 2.x's: no urllib3 accepts both, this `Retry` raises TypeError"
            ),
            None => "`method_whitelist` was removed in urllib3 2.0: `Retry(method_whitelist=..)` raises TypeError there".into(),
        };
        diagnostics.push(crate::diag::Diagnostic::new(
            crate::diag::unknown_setting::CODE,
            span(w),
            message,
            "rename it to `allowed_methods` (urllib3 1.26 and 2.x)",
        ));
    }
    let methods = args
        .kw("allowed_methods")
        .or_else(|| args.kw("method_whitelist"));
    p.methods = match methods {
        None => Located::default_at(
            Methods::Set(
                sys::URLLIB3_ALLOWED_METHODS
                    .iter()
                    .map(|m| m.to_string())
                    .collect(),
            ),
            span(call),
        ),
        Some(m) => {
            let r = resolve(ctx, m);
            let v = match r.kind() {
                // `None`/`False`: every method, POST included.
                "none" | "false" => Methods::All,
                "list" | "tuple" | "set" | "call" => {
                    let items = if r.kind() == "call" {
                        field(r, "arguments")
                            .and_then(|a| named_children(a).first().copied())
                            .map(|l| named_children(resolve(ctx, l)))
                            .unwrap_or_default()
                    } else {
                        named_children(r)
                    };
                    let ms: Option<Vec<String>> = items
                        .iter()
                        .map(|i| eval::string(ctx, *i).map(|s| s.to_ascii_uppercase()))
                        .collect();
                    ms.map_or(Methods::Unknown, Methods::Set)
                }
                _ => Methods::Unknown,
            };
            Located::written(v, span(m))
        }
    };
    Some(p)
}

fn short_args(ctx: &Ctx<'_>, call: Node<'_>) -> String {
    let t = field(call, "arguments").map_or("", |a| ctx.text(a));
    let t = t.trim_start_matches('(').trim_end_matches(')');
    let t: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.chars().count() > 60 {
        format!("{}..", t.chars().take(57).collect::<String>())
    } else {
        t
    }
}

/// `HTTPAdapter(max_retries=n)` with a number: `Retry.from_int(n)`, no
/// backoff and no status retried. A `Retry` object is its own policy;
/// no `max_retries` retries nothing.
pub(super) fn adapter_policy(ctx: &Ctx<'_>, call: Node<'_>) -> Option<RetryPolicy> {
    let args = Args::of(ctx, call);
    let m = args.get("max_retries", 2)?;
    let n = eval::number(ctx, m)?;
    if n < 1.0 {
        return None;
    }
    let mut p = policy(
        "urllib3",
        span(call),
        attempts(
            AttemptCount::Finite(n as u64 + 1),
            format!("max_retries={} (retries)", ctx.text(m)),
            m,
        ),
    );
    p.name = Some(format!("HTTPAdapter(max_retries={})", ctx.text(m)));
    p.delay = Located::default_at(Delay::None, span(m));
    p.jitter = Located::default_at(Jitter::None, span(m));
    p.retry_on = Located::default_at(
        RetryOn::Listed {
            conditions: vec![
                Located::default_at(Condition::Transport("connect".into()), span(m)),
                Located::default_at(Condition::Transport("read timeout".into()), span(m)),
            ],
        },
        span(m),
    );
    p.methods = Located::default_at(
        Methods::Set(
            sys::URLLIB3_ALLOWED_METHODS
                .iter()
                .map(|m| m.to_string())
                .collect(),
        ),
        span(m),
    );
    Some(p)
}

/// `httpx.HTTPTransport(retries=n)`: n retries of failed connections
/// only, 0 s then 0.5 s x 2^k apart (read here as 0.5 s x 2^(n-1) from the
/// first), no jitter. No `retries` retries nothing.
pub(super) fn httpx_transport_policy(ctx: &Ctx<'_>, call: Node<'_>) -> Option<RetryPolicy> {
    let args = Args::of(ctx, call);
    let r = args.kw("retries")?;
    let n = eval::number(ctx, r);
    if n.is_some_and(|n| n < 1.0) {
        return None;
    }
    let count = n.map_or(AttemptCount::Unknown, |n| {
        AttemptCount::Finite(n as u64 + 1)
    });
    let mut p = policy(
        "httpx",
        span(call),
        attempts(count, format!("retries={} (retries)", ctx.text(r)), r),
    );
    p.name = Some(format!("HTTPTransport(retries={})", ctx.text(r)));
    p.delay = Located::default_at(
        Delay::Exponential {
            base: sys::HTTPX_CONNECT_BACKOFF,
            multiplier: 2.0,
            cap: None,
        },
        span(call),
    );
    p.jitter = Located::default_at(Jitter::None, span(call));
    p.retry_on = Located::default_at(
        RetryOn::Listed {
            conditions: vec![Located::default_at(
                Condition::Transport("connect".into()),
                span(call),
            )],
        },
        span(call),
    );
    // A connection that failed carried no request: every method is safe.
    p.methods = Located::default_at(Methods::All, span(call));
    Some(p)
}

// ---------------------------------------------------------------------------
// Celery

pub(super) fn celery_policy(ctx: &Ctx<'_>, call: Node<'_>) -> Option<RetryPolicy> {
    celery_options(ctx, call, &Args::of(ctx, call))
}

/// A Celery `Task` subclass whose class attributes set `autoretry_for`:
/// every task made with `base=` the class retries so (Celery
/// `app/task.py`: `Task.autoretry_for`, `retry_kwargs`, `retry_backoff`,
/// `retry_backoff_max`, `retry_jitter`, `max_retries`,
/// `default_retry_delay` are class attributes the task decorator's
/// options set; `app/autoretry.py` calls `task.retry(exc=exc,
/// **retry_kwargs)`, so `retry_kwargs["max_retries"]` wins over
/// `max_retries`). A `retry` method of the class computes its own wait.
pub(super) fn celery_task_class(ctx: &Ctx<'_>, class: Node<'_>) -> Option<RetryPolicy> {
    let bases = field(class, "superclasses").map_or("", |b| ctx.text(b));
    if !bases.contains("Task") {
        return None;
    }
    let body = field(class, "body")?;
    let mut keywords = Vec::new();
    let mut from_kwargs = None;
    let mut own_retry = None;
    for st in named_children(body) {
        if st.kind() == "function_definition"
            && field(st, "name").is_some_and(|n| ctx.text(n) == "retry")
        {
            own_retry = Some(st);
        }
        let Some(a) = named_children(st)
            .first()
            .copied()
            .filter(|a| st.kind() == "expression_statement" && a.kind() == "assignment")
        else {
            continue;
        };
        let (Some(l), Some(r)) = (field(a, "left"), field(a, "right")) else {
            continue;
        };
        let name = ctx.text(l);
        if name == "retry_kwargs" && r.kind() == "dictionary" {
            from_kwargs = named_children(r).into_iter().find_map(|pair| {
                let k = field(pair, "key")?;
                (eval::string(ctx, k).as_deref() == Some("max_retries"))
                    .then(|| field(pair, "value"))
                    .flatten()
            });
        } else if l.kind() == "identifier" {
            keywords.push((name, r));
        }
    }
    if let Some(m) = from_kwargs {
        keywords.insert(0, ("max_retries", m));
    }
    let args = Args {
        positional: Vec::new(),
        keywords,
    };
    let mut p = celery_options(ctx, class, &args)?;
    p.name = field(class, "name").map(|n| format!("Celery task class {}", ctx.text(n)));
    if let Some(f) = own_retry {
        let at = field(f, "name").map_or(span(f), span);
        p.delay = Located::written(Delay::Custom, at);
        p.jitter = Located::written(Jitter::Unknown, at);
    }
    Some(p)
}

fn celery_options(ctx: &Ctx<'_>, call: Node<'_>, args: &Args<'_>) -> Option<RetryPolicy> {
    let auto = args.kw("autoretry_for")?;
    let at = span(call);
    let mut p = policy(
        "celery",
        at,
        default_attempts(
            AttemptCount::Finite(sys::CELERY_MAX_RETRIES + 1),
            "no max_retries: Celery's default of 3 retries",
            call,
        ),
    );
    if let Some(m) = args.kw("max_retries") {
        p.attempts = super::max_retries(ctx, m);
    }
    let backoff = args.kw("retry_backoff");
    let backoff_on = backoff.map(|b| match resolve(ctx, b).kind() {
        "true" => Some(1.0),
        "false" => None,
        _ => eval::number(ctx, b).filter(|v| *v > 0.0),
    });
    let cap = args
        .kw("retry_backoff_max")
        .and_then(|m| eval::seconds(ctx, m))
        .or(Some(sys::CELERY_BACKOFF_MAX));
    p.delay = match (backoff, backoff_on) {
        (Some(b), Some(Some(base))) => Located::written(
            Delay::Exponential {
                base: secs(base),
                multiplier: 2.0,
                cap,
            },
            span(b),
        ),
        _ => match args.kw("default_retry_delay") {
            Some(d) => Located::written(
                eval::seconds(ctx, d).map_or(Delay::Unknown, |delay| Delay::Fixed { delay }),
                span(d),
            ),
            None => Located::default_at(
                Delay::Fixed {
                    delay: sys::CELERY_RETRY_DELAY,
                },
                at,
            ),
        },
    };
    let exponential = matches!(p.delay.value, Delay::Exponential { .. });
    p.jitter = match args.kw("retry_jitter") {
        Some(j) => Located::written(
            match (eval::boolean(ctx, j), exponential) {
                (Some(true), true) => Jitter::Full,
                (Some(false), _) | (_, false) => Jitter::None,
                _ => Jitter::Unknown,
            },
            span(j),
        ),
        // `retry_jitter` only applies to `retry_backoff`.
        None if exponential => Located::default_at(Jitter::Full, at),
        None => Located::default_at(Jitter::None, at),
    };
    p.retry_on = match exception_names(ctx, auto) {
        None => Located::written(RetryOn::AllErrors, span(auto)),
        Some(c) => Located::written(RetryOn::Listed { conditions: c }, span(auto)),
    };
    Some(p)
}

/// A bound Celery task's own retry: `raise self.retry(exc=e,
/// countdown=..)` inside an `except` of a task body
/// (`@app.task(bind=True, max_retries=..)`). The task is attempted again
/// after `countdown` (else the task's `default_retry_delay`, else 180 s),
/// at most `max_retries` more times (the call's, else the task's, else 3);
/// what is retried is what the enclosing `except` catches. Returns the
/// policy and the task body it repeats.
pub(super) fn celery_self_retry<'a>(
    ctx: &Ctx<'a>,
    call: Node<'a>,
) -> Option<(RetryPolicy, Node<'a>)> {
    let (fname, def) = super::super::enclosing_function(ctx, call)?;
    let body = field(def, "body")?;
    // The task's decorator: `@app.task(..)` / `@shared_task(..)`.
    let deco = def
        .parent()
        .filter(|p| p.kind() == "decorated_definition")
        .into_iter()
        .flat_map(named_children)
        .filter(|d| d.kind() == "decorator")
        .filter_map(|d| named_children(d).first().copied())
        .find(|e| {
            let t = ctx.text(*e);
            let head = t.split('(').next().unwrap_or(t);
            head.ends_with("task") || head.ends_with("shared_task")
        })?;
    let task = (deco.kind() == "call").then(|| Args::of(ctx, deco));
    let args = Args::of(ctx, call);
    let at = span(call);
    let max = args
        .kw("max_retries")
        .or_else(|| task.as_ref().and_then(|t| t.kw("max_retries")));
    let mut p = policy(
        "celery",
        at,
        default_attempts(
            AttemptCount::Finite(sys::CELERY_MAX_RETRIES + 1),
            "no max_retries: Celery's default of 3 retries",
            call,
        ),
    );
    p.name = Some(format!("self.retry in {fname}"));
    if let Some(m) = max {
        let c = match resolve(ctx, m).kind() {
            "none" => AttemptCount::Unbounded,
            _ => match eval::number(ctx, m) {
                Some(v) if v >= 0.0 => AttemptCount::Finite(v as u64 + 1),
                _ => AttemptCount::Unknown,
            },
        };
        p.attempts = attempts(c, format!("max_retries={} (retries)", ctx.text(m)), m);
    }
    let countdown = args
        .kw("countdown")
        .or_else(|| task.as_ref().and_then(|t| t.kw("default_retry_delay")));
    (p.delay, p.jitter) = match countdown {
        None => (
            Located::default_at(
                Delay::Fixed {
                    delay: sys::CELERY_RETRY_DELAY,
                },
                at,
            ),
            Located::default_at(Jitter::None, at),
        ),
        Some(c) => {
            let text = ctx.text(c);
            let jitter = if text.contains("random") || text.contains("jitter") {
                Jitter::Full
            } else {
                Jitter::None
            };
            let delay = match eval::seconds(ctx, c) {
                Some(delay) => Delay::Fixed { delay },
                // `2 ** self.request.retries`, `base * 2 ** retries`.
                None if text.contains("**") && text.contains("retries") => {
                    let base = text.split_once("**").map_or(text, |(b, _)| b);
                    let lhs: Vec<&str> = base.split('*').map(str::trim).collect();
                    let num = |s: &str| s.trim_matches(['(', ')', ' ']).parse::<f64>().ok();
                    let multiplier = lhs.last().and_then(|s| num(s)).unwrap_or(2.0);
                    let scale = if lhs.len() > 1 {
                        lhs.first().and_then(|s| num(s)).unwrap_or(1.0)
                    } else {
                        1.0
                    };
                    // An offset in the exponent (`2 ** (retries + 6)`)
                    // scales the first delay: 2^6 s.
                    let offset = exponent_offset(text.split_once("**").map_or("", |(_, e)| e));
                    let scale = scale * multiplier.powi(offset);
                    Delay::Exponential {
                        base: secs(scale),
                        multiplier,
                        cap: None,
                    }
                }
                None => Delay::Unknown,
            };
            (
                Located::written(delay, span(c)),
                Located::written(jitter, span(c)),
            )
        }
    };
    // What the enclosing `except` catches.
    let mut cur = call.parent();
    let mut clause = None;
    // A test between the `except` and the retry sorts what is caught
    // (`if "503" in str(exc): raise self.retry(..)`).
    let mut sorted = None;
    while let Some(c) = cur {
        if c.id() == body.id() {
            break;
        }
        if c.kind() == "except_clause" {
            clause = Some(c);
            break;
        }
        if matches!(
            c.kind(),
            "if_statement" | "elif_clause" | "conditional_expression"
        ) {
            sorted = sorted.or(field(c, "condition").or(Some(c)));
        }
        cur = c.parent();
    }
    if let (Some(_), Some(test)) = (clause, sorted) {
        p.retry_on = Located::written(
            RetryOn::Listed {
                conditions: vec![Located::written(Condition::Predicate, span(test))],
            },
            span(test),
        );
        return Some((p, body));
    }
    p.retry_on = match clause {
        None => Located::written(
            RetryOn::Listed {
                conditions: vec![Located::written(Condition::Predicate, at)],
            },
            at,
        ),
        Some(cl) => match named_children(cl)
            .into_iter()
            .find(|n| n.kind() != "block" && n.kind() != "comment")
        {
            // A bare `except:` catches everything.
            None => Located::written(RetryOn::AllErrors, span(cl)),
            Some(ty) => {
                let ty = if ty.kind() == "as_pattern" {
                    named_children(ty).first().copied().unwrap_or(ty)
                } else {
                    ty
                };
                match exception_names(ctx, ty) {
                    Some(c) => Located::written(RetryOn::Listed { conditions: c }, span(ty)),
                    None => Located::written(
                        RetryOn::Listed {
                            conditions: vec![Located::written(
                                Condition::Exception(ctx.text(ty).into()),
                                span(ty),
                            )],
                        },
                        span(ty),
                    ),
                }
            }
        },
    };
    Some((p, body))
}

/// The constant added to the retry count in an exponent written
/// `(self.request.retries + 6)` (or `- 1`): 6 (or -1); 0 for none, and for
/// an offset beyond +/-32 (not a delay anybody writes).
fn exponent_offset(exp: &str) -> i32 {
    let inner = exp.trim().trim_start_matches('(');
    let inner = inner.split(')').next().unwrap_or(inner);
    let (sign, k) = match (inner.rsplit_once('+'), inner.rsplit_once('-')) {
        (Some((_, k)), _) => (1, k),
        (None, Some((_, k))) => (-1, k),
        _ => return 0,
    };
    match k.trim().parse::<i32>() {
        Ok(v) if v <= 32 => sign * v,
        _ => 0,
    }
}
