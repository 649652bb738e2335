//! Spring Retry `RetryTemplate`s: `RetryTemplate.builder()` chains, the
//! classic `new RetryTemplate()` with its `setRetryPolicy` /
//! `setBackOffPolicy` calls, and the callbacks a template executes.

use super::*;

/// `RetryTemplate.builder()...build()` chains.
pub(super) fn templates<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    let mut created: HashMap<usize, usize> = HashMap::new();
    for (n, c) in ctx.chains("RetryTemplate", &["builder"]) {
        let at = span(n);
        let mut attempts = attempts_default(
            AttemptCount::Finite(retry::MAX_ATTEMPTS),
            &format!("maxAttempts({}) (default)", retry::MAX_ATTEMPTS),
            at,
        );
        let mut delay = Located::default_at(Delay::None, at);
        let mut jitter = Located::default_at(Jitter::None, at);
        let mut order = CapOrder::BeforeJitter;
        let mut conditions = Vec::new();
        let mut ignores = Vec::new();
        let mut overall = None;
        for call in &c.calls[1..] {
            let a = |i: usize| call.args.get(i).copied();
            let ms = |i: usize| a(i).and_then(|x| ctx.duration(x, MS));
            match call.name.as_str() {
                "maxAttempts" => {
                    let count = a(0)
                        .and_then(|x| ctx.int(x))
                        .map_or(AttemptCount::Unknown, |v| {
                            AttemptCount::Finite(v.max(1) as u64)
                        });
                    attempts = attempts_written(
                        count,
                        format!("maxAttempts({})", a(0).map_or("", |x| ctx.text(x))),
                        call.span,
                    );
                }
                "infiniteRetry" => {
                    attempts = attempts_written(
                        AttemptCount::Unbounded,
                        "infiniteRetry()".into(),
                        call.span,
                    );
                }
                "customPolicy" => {
                    attempts = attempts_written(
                        AttemptCount::Unknown,
                        "customPolicy(..)".into(),
                        call.span,
                    );
                }
                "withinMillis" | "withTimeout" => {
                    attempts = attempts_written(
                        AttemptCount::Unbounded,
                        format!("{}(..) (no attempt limit)", call.name),
                        call.span,
                    );
                    overall = Some(Located::written(
                        ms(0).map_or(Timeout::Unknown, Timeout::after),
                        call.span,
                    ));
                }
                "fixedBackoff" => {
                    delay = Located::written(
                        ms(0).map_or(Delay::Unknown, |delay| Delay::Fixed { delay }),
                        call.span,
                    );
                    jitter = Located::written(Jitter::None, call.span);
                }
                "noBackoff" => {
                    delay = Located::written(Delay::None, call.span);
                    jitter = Located::written(Jitter::None, call.span);
                }
                "customBackoff" => {
                    delay = Located::written(Delay::Custom, call.span);
                    jitter = Located::written(Jitter::Unknown, call.span);
                }
                "uniformRandomBackoff" => {
                    let (d, j, o) = match (ms(0), ms(1)) {
                        (Some(lo), Some(hi)) => {
                            uniform(lo.as_secs_f64() * 1000.0, hi.as_secs_f64() * 1000.0)
                        }
                        _ => (Delay::Unknown, Jitter::Unknown, CapOrder::BeforeJitter),
                    };
                    delay = Located::written(d, call.span);
                    jitter = Located::written(j, call.span);
                    order = o;
                }
                "exponentialBackoff" => {
                    let m = a(1).and_then(|x| ctx.float(x));
                    let random = a(3).is_some_and(|x| ctx.text(x).trim() == "true");
                    let d = match (ms(0), m) {
                        (Some(base), Some(multiplier)) => Delay::Exponential {
                            base,
                            multiplier,
                            cap: ms(2),
                        },
                        _ => Delay::Unknown,
                    };
                    delay = Located::written(d, call.span);
                    jitter = Located::written(
                        if random {
                            Jitter::Additive
                        } else {
                            Jitter::None
                        },
                        call.span,
                    );
                    order = if random {
                        CapOrder::AfterJitter
                    } else {
                        CapOrder::BeforeJitter
                    };
                }
                "retryOn" => conditions.extend(
                    call.args
                        .iter()
                        .flat_map(|x| ast::class_literals(*x, ctx.src))
                        .map(|(n, s)| Located::written(Condition::Exception(n), s)),
                ),
                "notRetryOn" => ignores.extend(
                    call.args
                        .iter()
                        .flat_map(|x| ast::class_literals(*x, ctx.src))
                        .map(|(n, s)| Located::written(Condition::Exception(n), s)),
                ),
                _ => {}
            }
        }
        let mut p = RetryPolicy::new(System::SpringRetry, at, attempts);
        p.name = ctx.policy_name(n);
        p.delay = delay;
        p.jitter = jitter;
        p.cap_order = order;
        p.retry_on = retry_on(conditions, None, at);
        p.ignores = ignores;
        p.overall_timeout = overall;
        p.methods = Located::default_at(Methods::All, at);
        created.insert(n.id(), facts.policies.len());
        facts.policies.push(p);
    }
    classic_templates(ctx, facts, &mut created);
    if created.is_empty() {
        return;
    }
    // `template.execute(ctx -> ..)`: the callback runs once per attempt.
    callbacks(ctx, &created, &["execute"], out);
}

/// Calls `template.<method>(callback, ..)` on a template built at a node in
/// `templates` (node id -> policy): the callback's bodies are retry scopes.
pub(in crate::systems::java::extract) fn callbacks<'a>(
    ctx: &Ctx<'a>,
    templates: &HashMap<usize, usize>,
    methods: &[&str],
    out: &mut Out<'a>,
) {
    for &n in &ctx.nodes {
        if n.kind_str() != "method_invocation"
            || !field(n, "name").is_some_and(|x| methods.contains(&ctx.text(x)))
        {
            continue;
        }
        let Some(obj) = field(n, "object") else {
            continue;
        };
        let Some(&idx) = templates.get(&ctx.resolve(obj).id()) else {
            continue;
        };
        let args = field(n, "arguments")
            .map(named_children)
            .unwrap_or_default();
        if let Some(cb) = args.first() {
            for body in ctx.callable_bodies(*cb) {
                out.scopes.push(RetryScope { body, policy: idx });
            }
        }
    }
}

/// `new X(..)` with the setter calls made on the variable holding it:
/// (simple type, constructor arguments, setter calls).
pub(in crate::systems::java::extract) fn constructed<'a>(
    ctx: &Ctx<'a>,
    n: Node<'a>,
) -> Option<(&'a str, Vec<Node<'a>>, Vec<ast::Call<'a>>)> {
    let r = ctx.resolve(n);
    if r.kind_str() != "object_creation_expression" {
        return None;
    }
    let ty = ast::simple_type(field(r, "type").map_or("", |t| ctx.text(t)));
    let args = field(r, "arguments")
        .map(named_children)
        .unwrap_or_default();
    let mut setters = Vec::new();
    let n = ast::unwrap_expr(n);
    if n.kind_str() == "identifier"
        && let Some(v) = ctx.var(ctx.text(n), n)
    {
        for m in ctx.mutations_of(ctx.text(n), &v) {
            setters.extend(ast::chain(m, ctx.src).calls);
        }
    }
    Some((ty, args, setters))
}

/// `RetryTemplate t = new RetryTemplate(); t.setRetryPolicy(..);
/// t.setBackOffPolicy(..);` (spring-retry before the builder). Defaults:
/// `SimpleRetryPolicy` (3 attempts, every exception) and `NoBackOffPolicy`;
/// `FixedBackOffPolicy` 1000 ms; `ExponentialBackOffPolicy` 100 ms x2 up
/// to 30 s; `UniformRandomBackOffPolicy` 500-1500 ms.
fn classic_templates<'a>(ctx: &Ctx<'a>, facts: &mut Facts, created: &mut HashMap<usize, usize>) {
    for &d in &ctx.nodes {
        if d.kind_str() != "variable_declarator" {
            continue;
        }
        let (Some(name), Some(value)) = (field(d, "name"), field(d, "value")) else {
            continue;
        };
        let value = ast::unwrap_expr(value);
        let Some(("RetryTemplate", _, setters)) = constructed(ctx, name) else {
            continue;
        };
        let at = span(value);
        let mut p = RetryPolicy::new(
            System::SpringRetry,
            at,
            attempts_default(
                AttemptCount::Finite(retry::MAX_ATTEMPTS),
                &format!(
                    "SimpleRetryPolicy: {} attempts (default)",
                    retry::MAX_ATTEMPTS
                ),
                at,
            ),
        );
        p.name = Some(ctx.text(name).to_string());
        p.methods = Located::default_at(Methods::All, at);
        p.delay = Located::default_at(Delay::None, at);
        p.jitter = Located::default_at(Jitter::None, at);
        p.retry_on = Located::default_at(RetryOn::AllErrors, at);
        for call in &setters {
            let Some(arg) = call.args.first().copied() else {
                continue;
            };
            match call.name.as_str() {
                "setRetryPolicy" => classic_retry_policy(ctx, arg, call.span, &mut p),
                "setBackOffPolicy" => classic_backoff(ctx, arg, call.span, &mut p),
                _ => {}
            }
        }
        created.insert(value.id(), facts.policies.len());
        facts.policies.push(p);
    }
}

fn classic_retry_policy(ctx: &Ctx<'_>, arg: Node<'_>, at: Span, p: &mut RetryPolicy) {
    let Some((ty, args, setters)) = constructed(ctx, arg) else {
        p.attempts = attempts_written(AttemptCount::Unknown, "setRetryPolicy(..)".into(), at);
        p.retry_on = Located::written(RetryOn::Unknown, at);
        return;
    };
    let mut n: Option<AttemptCount> = match ty {
        "SimpleRetryPolicy" | "MaxAttemptsRetryPolicy" => Some(match args.first() {
            Some(a) => ctx.int(*a).map_or(AttemptCount::Unknown, |v| {
                AttemptCount::Finite(v.max(1) as u64)
            }),
            None => AttemptCount::Finite(retry::MAX_ATTEMPTS),
        }),
        "AlwaysRetryPolicy" => Some(AttemptCount::Unbounded),
        "NeverRetryPolicy" => Some(AttemptCount::Finite(1)),
        "TimeoutRetryPolicy" => Some(AttemptCount::Unbounded),
        _ => None,
    };
    for s in &setters {
        if s.name == "setMaxAttempts" {
            n = s.args.first().map(|a| {
                ctx.int(*a).map_or(AttemptCount::Unknown, |v| {
                    AttemptCount::Finite(v.max(1) as u64)
                })
            });
        }
        if s.name == "setTimeout" {
            let t = s.args.first().and_then(|a| ctx.duration(*a, MS));
            p.overall_timeout = Some(Located::written(
                t.map_or(Timeout::Unknown, Timeout::after),
                s.span,
            ));
        }
    }
    if ty == "TimeoutRetryPolicy" && p.overall_timeout.is_none() {
        // TimeoutRetryPolicy's default timeout is 1 s.
        p.overall_timeout = Some(Located::default_at(
            Timeout::after(Duration::from_secs(1)),
            at,
        ));
    }
    p.attempts = attempts_written(
        n.unwrap_or(AttemptCount::Unknown),
        format!("setRetryPolicy(new {ty}(..))"),
        at,
    );
    // `new SimpleRetryPolicy(3, Map.of(IOException.class, true))`.
    let conditions: Vec<Located<Condition>> = args
        .iter()
        .skip(1)
        .flat_map(|a| ast::class_literals(*a, ctx.src))
        .map(|(c, s)| Located::written(Condition::Exception(c), s))
        .collect();
    p.retry_on = match ty {
        "SimpleRetryPolicy"
        | "MaxAttemptsRetryPolicy"
        | "AlwaysRetryPolicy"
        | "TimeoutRetryPolicy" => retry_on(conditions, None, at),
        _ => Located::written(RetryOn::Unknown, at),
    };
}

fn classic_backoff(ctx: &Ctx<'_>, arg: Node<'_>, at: Span, p: &mut RetryPolicy) {
    let Some((ty, _, setters)) = constructed(ctx, arg) else {
        p.delay = Located::written(Delay::Unknown, at);
        p.jitter = Located::written(Jitter::Unknown, at);
        return;
    };
    let ms_of = |name: &str, default: f64| -> Option<f64> {
        match setters.iter().rev().find(|s| s.name == name) {
            Some(s) => s.args.first().and_then(|a| ctx.int(*a)).map(|v| v as f64),
            None => Some(default),
        }
    };
    let mult = match setters.iter().rev().find(|s| s.name == "setMultiplier") {
        Some(s) => s.args.first().and_then(|a| ctx.float(*a)),
        None => Some(retry::EXPONENTIAL_MULTIPLIER),
    };
    let dur = |v: Option<f64>| v.and_then(|v| ast::scale(MS, v.max(0.0)));
    let (d, j, o) = match ty {
        "NoBackOffPolicy" => (Delay::None, Jitter::None, CapOrder::BeforeJitter),
        "FixedBackOffPolicy" => (
            dur(ms_of("setBackOffPeriod", retry::BACKOFF_MS))
                .map_or(Delay::Unknown, |delay| Delay::Fixed { delay }),
            Jitter::None,
            CapOrder::BeforeJitter,
        ),
        "UniformRandomBackOffPolicy" => match (
            ms_of("setMinBackOffPeriod", retry::UNIFORM_MIN_MS),
            ms_of("setMaxBackOffPeriod", retry::UNIFORM_MAX_MS),
        ) {
            (Some(lo), Some(hi)) if hi > lo => uniform(lo, hi),
            (Some(lo), Some(_)) => (
                dur(Some(lo)).map_or(Delay::Unknown, |delay| Delay::Fixed { delay }),
                Jitter::None,
                CapOrder::BeforeJitter,
            ),
            _ => (Delay::Unknown, Jitter::Unknown, CapOrder::BeforeJitter),
        },
        "ExponentialBackOffPolicy" | "ExponentialRandomBackOffPolicy" => {
            let random = ty == "ExponentialRandomBackOffPolicy";
            let d = match (
                dur(ms_of("setInitialInterval", retry::EXPONENTIAL_INITIAL_MS)),
                mult,
                dur(ms_of("setMaxInterval", retry::EXPONENTIAL_MAX_MS)),
            ) {
                (Some(base), Some(m), cap) => Delay::Exponential {
                    base,
                    multiplier: m.max(1.0),
                    cap,
                },
                _ => Delay::Unknown,
            };
            if random {
                (d, Jitter::Additive, CapOrder::AfterJitter)
            } else {
                (d, Jitter::None, CapOrder::BeforeJitter)
            }
        }
        _ => (Delay::Custom, Jitter::Unknown, CapOrder::BeforeJitter),
    };
    p.delay = Located::written(d, at);
    p.jitter = Located::written(j, at);
    p.cap_order = o;
}
