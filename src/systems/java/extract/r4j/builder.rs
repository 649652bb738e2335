//! `RetryConfig` builders: `custom()` / `from(base)` chains, builder
//! variables mutated by later statements, their interval functions and
//! result predicates, and the retry policy a config makes.

use super::*;

/// A `RetryConfig` as far as the file shows it.
#[derive(Clone, Debug)]
pub struct Cfg {
    pub span: Span,
    /// Built `from` a config that is not in this file.
    pub base_unknown: bool,
    /// Start byte of the `RetryConfig.custom()/from()/ofDefaults()` call.
    pub origin: usize,
    pub attempts: Option<Located<Attempts>>,
    pub delay: Option<Located<Delay>>,
    pub jitter: Option<Located<Jitter>>,
    pub cap_order: CapOrder,
    pub exceptions: Vec<Located<Condition>>,
    pub results: Vec<Located<Condition>>,
    /// The `retryOnException` predicate: opaque, or one that accepts every
    /// exception (a catch-all condition).
    pub predicate: Option<Located<Condition>>,
    pub ignores: Vec<Located<Condition>>,
    /// Spans of `intervalFunction(..)` and `intervalBiFunction(..)` calls.
    pub interval_fn: Option<Span>,
    /// `intervalBiFunction(..)` or `waitDuration(..)`, which sets the same
    /// slot, with the method name.
    pub interval_bi: Option<(Span, &'static str)>,
    /// A wait the `intervalBiFunction` reads from `Retry-After` (RL208).
    pub server_delay: Option<Located<crate::model::backoff::ServerDelay>>,
}

impl Cfg {
    pub(super) fn new(span: Span, origin: usize, base_unknown: bool) -> Self {
        Cfg {
            span,
            base_unknown,
            origin,
            attempts: None,
            delay: None,
            jitter: None,
            cap_order: CapOrder::BeforeJitter,
            exceptions: Vec::new(),
            results: Vec::new(),
            predicate: None,
            ignores: Vec::new(),
            interval_fn: None,
            interval_bi: None,
            server_delay: None,
        }
    }
}

/// Evaluate a `RetryConfig` or `RetryConfig.Builder` expression.
pub fn config<'a>(
    ctx: &Ctx<'a>,
    n: Node<'a>,
    diags: &mut Vec<crate::diag::Diagnostic>,
    depth: usize,
) -> Option<Cfg> {
    if depth > MAX_DEPTH {
        return None;
    }
    let n = ast::unwrap_expr(n);
    match n.kind_str() {
        "identifier" => {
            let name = ctx.text(n);
            let var = ctx.var(name, n);
            let value = ctx.value_of(name, n);
            let mut cfg = match value {
                Some(v) if v.id() != n.id() => config(ctx, v, diags, depth + 1)?,
                _ => {
                    let ty = ast::simple_type(var.map_or("", |v| v.ty));
                    if ty == "RetryConfig" || var.is_some_and(|v| v.ty.contains("RetryConfig")) {
                        Cfg::new(span(n), n.start_byte(), true)
                    } else {
                        return None;
                    }
                }
            };
            if let Some(v) = var {
                for m in ctx.mutations_of(name, &v) {
                    let c = ast::chain(m, ctx.src);
                    apply(ctx, &mut cfg, &c.calls, diags);
                }
            }
            Some(cfg)
        }
        "method_invocation" => {
            let c = ast::chain(n, ctx.src);
            let root = c.root_text(ctx.src);
            let first = c.first()?;
            if ast::last_segment(root) == "RetryConfig" {
                let mut cfg = match first.name.as_str() {
                    "custom" | "ofDefaults" => Cfg::new(span(n), first.node.start_byte(), false),
                    "from" => {
                        let base = first
                            .args
                            .first()
                            .and_then(|a| config(ctx, *a, &mut Vec::new(), depth + 1));
                        match base {
                            Some(mut b) => {
                                b.span = span(n);
                                b.origin = first.node.start_byte();
                                b
                            }
                            None => Cfg::new(span(n), first.node.start_byte(), true),
                        }
                    }
                    _ => return None,
                };
                apply(ctx, &mut cfg, &c.calls[1..], diags);
                return Some(cfg);
            }
            let r = c.root?;
            if r.kind_str() == "identifier" {
                let mut cfg = config(ctx, r, diags, depth + 1)?;
                apply(ctx, &mut cfg, &c.calls, diags);
                cfg.span = cfg.span.cover(span(n));
                return Some(cfg);
            }
            None
        }
        "lambda_expression" => {
            // `Retry.of(name, () -> config)`.
            let body = field(n, "body")?;
            if body.kind_str() == "block" {
                return None;
            }
            config(ctx, body, diags, depth + 1)
        }
        _ => None,
    }
}

pub(super) fn apply<'a>(
    ctx: &Ctx<'a>,
    cfg: &mut Cfg,
    calls: &[ast::Call<'a>],
    diags: &mut Vec<crate::diag::Diagnostic>,
) {
    for call in calls {
        let arg = call.args.first().copied();
        match call.name.as_str() {
            "maxAttempts" => {
                let Some(a) = arg else { continue };
                let t = ctx.text(a);
                let count = match ctx.int(a) {
                    Some(v) if v >= 1 => AttemptCount::Finite(v.min(u64::MAX as i128) as u64),
                    Some(v) => {
                        diags.push(invalid_setting::value(
                            ast::span(a),
                            "maxAttempts",
                            t,
                            &format!("`{v}` is below 1: `RetryConfig.Builder.maxAttempts` throws IllegalArgumentException"),
                        ));
                        AttemptCount::Unknown
                    }
                    None => AttemptCount::Unknown,
                };
                cfg.attempts = Some(attempts_written(
                    count,
                    format!("maxAttempts({t})"),
                    call.span,
                ));
            }
            "waitDuration" => {
                let Some(a) = arg else { continue };
                let d = ctx.duration(a, MS);
                if d.is_none() && is_negative(ctx, a) {
                    diags.push(invalid_setting::value(
                        ast::span(a),
                        "waitDuration",
                        ctx.text(a),
                        "a negative wait: `RetryConfig.Builder.waitDuration` throws IllegalArgumentException",
                    ));
                }
                cfg.delay = Some(Located::written(
                    d.map_or(Delay::Unknown, |delay| Delay::Fixed { delay }),
                    call.span,
                ));
                cfg.jitter = Some(Located::written(
                    if d.is_some() {
                        Jitter::None
                    } else {
                        Jitter::Unknown
                    },
                    call.span,
                ));
                cfg.cap_order = CapOrder::BeforeJitter;
                // `waitDuration` sets the bi-function slot.
                cfg.interval_bi = Some((call.span, "waitDuration"));
                cfg.server_delay = None;
            }
            "intervalFunction" => {
                let Some(a) = arg else { continue };
                let (d, j, order) = interval(ctx, a);
                cfg.delay = Some(Located::written(d, call.span));
                cfg.jitter = Some(Located::written(j, call.span));
                cfg.cap_order = order;
                cfg.interval_fn = Some(call.span);
            }
            "intervalBiFunction" => {
                cfg.delay = Some(Located::written(Delay::Custom, call.span));
                cfg.jitter = Some(Located::written(Jitter::Unknown, call.span));
                cfg.cap_order = CapOrder::BeforeJitter;
                cfg.interval_bi = Some((call.span, "intervalBiFunction"));
                // `(n, result) -> .. getHeader("Retry-After") ..`, or the
                // same in the method a reference names or the class given.
                cfg.server_delay = arg.and_then(|a| {
                    interval_bodies(ctx, a).into_iter().find_map(|body| {
                        let (s, e, d) = crate::model::backoff::ServerDelay::in_source(
                            ctx.text(body),
                            "the `intervalBiFunction`",
                        )?;
                        let b = body.start_byte();
                        Some(Located::written(d, Span::new(b + s, b + e)))
                    })
                });
            }
            "retryExceptions" => {
                cfg.exceptions = call
                    .args
                    .iter()
                    .flat_map(|a| ast::class_literals(*a, ctx.src))
                    .map(|(n, s)| Located::written(Condition::Exception(n), s))
                    .collect();
            }
            "ignoreExceptions" => {
                cfg.ignores = call
                    .args
                    .iter()
                    .flat_map(|a| ast::class_literals(*a, ctx.src))
                    .map(|(n, s)| Located::written(Condition::Exception(n), s))
                    .collect();
            }
            // A predicate that accepts everything narrows nothing.
            "retryOnException" if arg.is_some_and(|a| predicates::accepts_all(ctx, a)) => {
                cfg.predicate = Some(predicates::catch_all(call.span));
            }
            "retryOnException" => {
                cfg.predicate = Some(Located::written(Condition::Predicate, call.span))
            }
            "retryOnResult" if arg.is_some_and(|a| predicates::accepts_all(ctx, a)) => {
                cfg.results = vec![predicates::catch_all(call.span)];
            }
            "retryOnResult" => {
                cfg.results = vec![Located::written(
                    arg.and_then(|a| status_predicate(ctx, a))
                        .unwrap_or(Condition::Predicate),
                    call.span,
                )];
            }
            _ => {}
        }
    }
    if let (Some(f), Some((b, bkey))) = (cfg.interval_fn, cfg.interval_bi) {
        let (later, lkey, earlier, ekey) = if f.start > b.start {
            (f, "intervalFunction", b, bkey)
        } else {
            (b, bkey, f, "intervalFunction")
        };
        let why = if bkey == "waitDuration" {
            "`waitDuration` sets the interval bi-function, so Resilience4j 2.x `build()` throws IllegalStateException (\"The intervalFunction was configured twice\"), and releases whose setters replace each other silently keep only the last one"
        } else {
            "Resilience4j 2.x `build()` throws IllegalStateException (\"The intervalFunction was configured twice\"), and releases whose setters replace each other silently keep only the last one"
        };
        diags.push(
            invalid_setting::conflicting(later, lkey, ekey, why)
                .with_related(earlier, format!("`{ekey}` is set here")),
        );
    }
}

fn is_negative(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    let r = ctx.resolve(n);
    if r.kind_str() == "method_invocation" {
        let c = ast::chain(r, ctx.src);
        return c
            .first()
            .and_then(|f| f.args.first())
            .and_then(|a| ctx.int(*a))
            .is_some_and(|v| v < 0);
    }
    ctx.int(r).is_some_and(|v| v < 0)
}

/// `r -> r.statusCode() >= 500` and the like: the statuses a result
/// predicate retries, when it is that simple.
pub fn status_predicate(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Condition> {
    let n = ctx.resolve(n);
    let body = if n.kind_str() == "lambda_expression" {
        field(n, "body")?
    } else {
        return None;
    };
    let e = ast::unwrap_expr(body);
    let t = ctx.text(e);
    if t.contains("is5xxServerError") {
        return Some(Condition::Status { from: 500, to: 599 });
    }
    if e.kind_str() != "binary_expression" {
        return None;
    }
    let l = field(e, "left")?;
    let r = field(e, "right")?;
    let op = field(e, "operator").map(|o| ctx.text(o))?;
    let lt = ctx.text(l).to_ascii_lowercase();
    if !(lt.contains("status") || lt.contains("code")) {
        return None;
    }
    let v = u16::try_from(ctx.int(r)?).ok()?;
    Some(match op {
        ">=" => Condition::Status { from: v, to: 599 },
        ">" => Condition::Status {
            from: v.saturating_add(1),
            to: 599,
        },
        "==" => Condition::status(v),
        _ => return None,
    })
}

/// An `IntervalFunction` expression.
pub(super) fn interval(ctx: &Ctx<'_>, n: Node<'_>) -> (Delay, Jitter, CapOrder) {
    let unknown = (Delay::Unknown, Jitter::Unknown, CapOrder::BeforeJitter);
    let n = ctx.resolve(n);
    if n.kind_str() == "lambda_expression" {
        return (Delay::Custom, Jitter::Unknown, CapOrder::BeforeJitter);
    }
    if n.kind_str() != "method_invocation" {
        return unknown;
    }
    let c: Chain<'_> = ast::chain(n, ctx.src);
    let root = ast::last_segment(c.root_text(ctx.src));
    let Some(first) = c.first() else {
        return unknown;
    };
    if root == "IntervalBiFunction" && first.name == "ofIntervalFunction" {
        return first.args.first().map_or(unknown, |a| interval(ctx, *a));
    }
    if root != "IntervalFunction" || c.calls.len() != 1 {
        return unknown;
    }
    let args = &first.args;
    let dur = |i: usize, default: Duration| -> Option<Duration> {
        match args.get(i) {
            Some(a) => ctx.duration(*a, MS),
            None => Some(default),
        }
    };
    let num = |i: usize, default: f64| -> Option<f64> {
        match args.get(i) {
            Some(a) => ctx.float(*a),
            None => Some(default),
        }
    };
    let is_float = |i: usize| {
        args.get(i)
            .is_some_and(|a| ctx.resolve(*a).kind_str() == "decimal_floating_point_literal")
    };
    match first.name.as_str() {
        "ofDefaults" => (
            Delay::Fixed {
                delay: DEFAULT_WAIT,
            },
            Jitter::None,
            CapOrder::BeforeJitter,
        ),
        "of" if args.len() >= 2 => (Delay::Custom, Jitter::None, CapOrder::BeforeJitter),
        "of" => match dur(0, DEFAULT_WAIT) {
            Some(delay) => (Delay::Fixed { delay }, Jitter::None, CapOrder::BeforeJitter),
            None => unknown,
        },
        "ofRandomized" => match (dur(0, DEFAULT_WAIT), num(1, DEFAULT_FACTOR)) {
            (Some(delay), Some(factor)) => (
                Delay::Fixed { delay },
                Jitter::Proportional { factor },
                CapOrder::BeforeJitter,
            ),
            (Some(delay), None) => (
                Delay::Fixed { delay },
                Jitter::Unknown,
                CapOrder::BeforeJitter,
            ),
            _ => unknown,
        },
        "ofExponentialBackoff" => {
            let cap = if args.len() >= 3 {
                dur(2, Duration::ZERO)
            } else {
                None
            };
            match (dur(0, DEFAULT_WAIT), num(1, DEFAULT_MULTIPLIER)) {
                (Some(base), Some(multiplier)) => (
                    Delay::Exponential {
                        base,
                        multiplier,
                        cap,
                    },
                    Jitter::None,
                    CapOrder::BeforeJitter,
                ),
                _ => (Delay::Unknown, Jitter::None, CapOrder::BeforeJitter),
            }
        }
        "ofExponentialRandomBackoff" => {
            let (factor, cap) = match args.len() {
                0..=2 => (Some(DEFAULT_FACTOR), None),
                3 if is_float(2) => (num(2, DEFAULT_FACTOR), None),
                3 => (Some(DEFAULT_FACTOR), dur(2, Duration::ZERO)),
                _ => (num(2, DEFAULT_FACTOR), dur(3, Duration::ZERO)),
            };
            let order = if cap.is_some() {
                CapOrder::AfterJitter
            } else {
                CapOrder::BeforeJitter
            };
            let jitter = factor.map_or(Jitter::Unknown, |factor| Jitter::Proportional { factor });
            match (dur(0, DEFAULT_WAIT), num(1, DEFAULT_MULTIPLIER)) {
                (Some(base), Some(multiplier)) => (
                    Delay::Exponential {
                        base,
                        multiplier,
                        cap,
                    },
                    jitter,
                    order,
                ),
                _ => (Delay::Unknown, jitter, order),
            }
        }
        _ => unknown,
    }
}

/// Build the policy of one retry instance.
pub fn policy(cfg: Option<&Cfg>, name: Option<String>, at: Span) -> RetryPolicy {
    let unknown_base = cfg.is_none_or(|c| c.base_unknown);
    let anchor = cfg.map_or(at, |c| c.span);
    let attempts = cfg.and_then(|c| c.attempts.clone()).unwrap_or_else(|| {
        if unknown_base {
            attempts_default(
                AttemptCount::Unknown,
                "maxAttempts (configured outside this file)",
                at,
            )
        } else {
            attempts_default(
                AttemptCount::Finite(DEFAULT_MAX_ATTEMPTS),
                &default_attempts_text(),
                anchor,
            )
        }
    });
    let mut p = RetryPolicy::new(System::Resilience4j, at, attempts);
    p.name = name;
    p.methods = Located::default_at(Methods::All, at);
    match cfg.and_then(|c| c.delay.clone()) {
        Some(d) => {
            p.delay = d;
            p.jitter = cfg
                .and_then(|c| c.jitter.clone())
                .unwrap_or_else(|| Located::default_at(Jitter::Unknown, at));
            p.cap_order = cfg.map_or(CapOrder::BeforeJitter, |c| c.cap_order);
        }
        None if !unknown_base => {
            p.delay = Located::default_at(
                Delay::Fixed {
                    delay: DEFAULT_WAIT,
                },
                anchor,
            );
            p.jitter = Located::default_at(Jitter::None, anchor);
        }
        None => {}
    }
    let Some(c) = cfg else {
        return p;
    };
    p.server_delay = c.server_delay.clone();
    let mut conditions: Vec<Located<Condition>> = c.exceptions.clone();
    if let Some(pred) = &c.predicate {
        conditions.push(pred.clone());
    }
    let exceptions_listed = !conditions.is_empty();
    conditions.extend(c.results.iter().cloned());
    conditions.sort_by_key(|x| x.span.start);
    p.retry_on = if conditions.is_empty() {
        if c.base_unknown {
            Located::default_at(RetryOn::Unknown, at)
        } else {
            Located::default_at(RetryOn::AllErrors, anchor)
        }
    } else {
        if !exceptions_listed && !c.base_unknown {
            // A result predicate alone still retries every exception.
            conditions.push(Located::default_at(
                Condition::Exception("Throwable".into()),
                anchor,
            ));
        }
        let s = conditions.first().map_or(anchor, |x| x.span);
        Located::written(RetryOn::Listed { conditions }, s)
    };
    p.ignores = c.ignores.clone();
    p
}

/// The code an `intervalBiFunction` runs: the argument itself (a lambda,
/// an anonymous class), else, in this file, the method a reference names
/// (`this::retryAfter`, `Waits::fromHeader`) or the class built
/// (`new RetryAfterInterval()`, a name bound to one), whose body holds its
/// `apply`.
fn interval_bodies<'a>(ctx: &Ctx<'a>, arg: Node<'a>) -> Vec<Node<'a>> {
    let mut out = vec![arg];
    let r = ctx.resolve(arg);
    match r.kind_str() {
        "method_reference" => {
            let text = ctx.text(r);
            if let Some((_, name)) = text.rsplit_once("::")
                && name.trim() != "new"
            {
                out.extend(ctx.methods_named(name.trim()).iter().copied());
            }
        }
        "object_creation_expression" if field(r, "body").is_none() => {
            let class = field(r, "type").map(|t| ctx.text(t)).unwrap_or("");
            let class = class.split('<').next().unwrap_or(class).trim();
            out.extend(ctx.nodes.iter().copied().filter(|n| {
                n.kind_str() == "class_declaration"
                    && field(*n, "name").is_some_and(|x| ctx.text(x) == class)
            }));
        }
        _ => {}
    }
    if r.id() != arg.id() {
        out.push(r);
    }
    out
}
