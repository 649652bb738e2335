//! The `Retry` filter of a route (or a default filter): its arguments read
//! into a retry policy, with the route's methods and the status codes and
//! series it retries on.

use super::*;

pub(super) fn retry_policy(
    f: &Filter<'_>,
    route: Option<&Route>,
    global_timeout: Option<(Timeout, Span)>,
    caller: Option<&str>,
    facts: &mut Facts,
) -> Option<RetryPolicy> {
    let args = collect_args(f);
    let root = f.shortcut.or(f.name).map_or(f.span, |p| p.span());
    let route_label = match (&f.route, route.and_then(|r| r.id.clone())) {
        (Some(_), Some(id)) => format!("route {id}"),
        (Some(r), None) => format!("routes{r}"),
        (None, _) => "default-filters".into(),
    };
    let site = Site {
        root,
        mvc: f.mvc,
        label: route_label,
        route,
        global_timeout,
    };
    policy_of_args(&args, &site, caller, facts)
}

/// Where a `Retry` filter stands: its span, whether it is Server MVC's,
/// its route's label and route (methods, response timeout), and the
/// global response timeout.
pub(crate) struct Site<'r> {
    pub root: Span,
    pub mvc: bool,
    pub label: String,
    pub route: Option<&'r Route>,
    pub global_timeout: Option<(Timeout, Span)>,
}

/// A `Retry` filter's policy from its arguments by normalised name,
/// however they were written: configuration's `args` or shortcut, or the
/// Java DSL's `RetryConfig` setters (`systems::java::extract::gateway_routes`).
pub(crate) fn policy_of_args(
    args: &BTreeMap<String, Arg>,
    site: &Site<'_>,
    caller: Option<&str>,
    facts: &mut Facts,
) -> Option<RetryPolicy> {
    let (root, route) = (site.root, site.route);
    let (arg_keys, backoff_keys, filter) = if site.mvc {
        (
            mvc::ARG_KEYS,
            mvc::BACKOFF_KEYS,
            "the Spring Cloud Gateway Server MVC Retry filter's args",
        )
    } else {
        (
            ARG_KEYS,
            BACKOFF_KEYS,
            "the Spring Cloud Gateway Retry filter's args",
        )
    };
    // Unknown argument names.
    for (k, a) in args {
        let (head, leaf) = match k.split_once('.') {
            Some((h, l)) => (h, Some(l)),
            None => (k.as_str(), None),
        };
        let mut written = a.key.split('.');
        let written_head = written.next().unwrap_or(&a.key);
        if !arg_keys.iter().any(|x| normalise_key(x) == head) {
            facts.diagnostics.push(unknown_setting::unknown_key(
                a.head_span,
                written_head,
                filter,
                arg_keys.iter().copied(),
            ));
            continue;
        }
        let (known, what): (&[&str], &str) = match head {
            "backoff" => (backoff_keys, "a Retry filter `backoff`"),
            "jitter" => (JITTER_KEYS, "a Retry filter `jitter`"),
            _ => continue,
        };
        if let Some(leaf) = leaf
            && !known.iter().any(|x| normalise_key(x) == leaf)
        {
            facts.diagnostics.push(unknown_setting::unknown_key(
                a.key_span,
                written.next().unwrap_or(leaf),
                what,
                known.iter().copied(),
            ));
        }
    }
    // Only the filter's own fields count (the others were reported above).
    let arg = |k: &str| {
        let head = k.split('.').next().unwrap_or(k);
        args.get(&normalise_key(k))
            .filter(|_| arg_keys.iter().any(|x| x.eq_ignore_ascii_case(head)))
    };

    // retries
    let attempts = match arg("retries").and_then(|a| a.one().map(|o| (a, o))) {
        Some((a, (v, span))) => {
            match v.parse::<i64>() {
                Ok(n) if n > 0 => Located::written(
                    Attempts {
                        count: AttemptCount::Finite(n as u64 + 1),
                        written_as: format!("retries: {n}"),
                    },
                    a.span.cover(*span),
                ),
                Ok(n) => {
                    facts.diagnostics.push(invalid_setting::value(
                    *span,
                    "retries",
                    v,
                    &format!("`{n}` fails the filter's check `retries must be greater than 0` at startup"),
                ));
                    return None;
                }
                Err(_) if v.contains("${") => Located::written(
                    Attempts {
                        count: AttemptCount::Unknown,
                        written_as: format!("retries: {v}"),
                    },
                    *span,
                ),
                Err(_) => {
                    facts.diagnostics.push(invalid_setting::value(
                        *span,
                        "retries",
                        v,
                        "not a whole number",
                    ));
                    return None;
                }
            }
        }
        None => Located::default_at(
            Attempts {
                count: AttemptCount::Finite(4),
                written_as: "retries: 3 (default)".into(),
            },
            root,
        ),
    };
    let mut policy = RetryPolicy::new(System::SpringCloudGateway, root, attempts);
    let route_label = site.label.clone();
    policy.name = Some(route_label.clone());
    policy.scope.route = Some(route_label);
    policy.scope.caller = caller.map(str::to_string);

    // What is retried.
    let mut conditions: Vec<Located<Condition>> = Vec::new();
    let mut any_written = false;
    if let Some(a) = arg("statuses") {
        any_written = true;
        for (v, span) in &a.items {
            match status_code(v) {
                Some(c) => conditions.push(Located::written(Condition::status(c), *span)),
                None => facts.diagnostics.push(invalid_setting::unknown_token(
                    *span,
                    "statuses",
                    v,
                    STATUSES.iter().map(|(n, _)| *n),
                )),
            }
        }
    }
    let series = arg("series");
    match series {
        Some(a) => {
            any_written = true;
            for (v, span) in &a.items {
                match SERIES.iter().find(|(n, ..)| n.eq_ignore_ascii_case(v)) {
                    Some((_, from, to)) => conditions.push(Located::written(
                        Condition::Status {
                            from: *from,
                            to: *to,
                        },
                        *span,
                    )),
                    None => facts.diagnostics.push(invalid_setting::unknown_token(
                        *span,
                        "series",
                        v,
                        SERIES.iter().map(|(n, ..)| *n),
                    )),
                }
            }
        }
        None => conditions.push(Located::default_at(
            Condition::Status { from: 500, to: 599 },
            root,
        )),
    }
    match arg("exceptions") {
        Some(a) => {
            any_written = true;
            for (v, span) in &a.items {
                conditions.push(Located::written(Condition::Exception(v.clone()), *span));
            }
        }
        None => {
            let defaults: &[&str] = if site.mvc {
                mvc::DEFAULT_EXCEPTIONS
            } else {
                &[
                    "java.io.IOException",
                    "org.springframework.cloud.gateway.support.TimeoutException",
                ]
            };
            for d in defaults.iter().copied() {
                conditions.push(Located::default_at(Condition::Exception(d.into()), root));
            }
        }
    }
    if conditions.is_empty() {
        facts.diagnostics.push(invalid_setting::value(
            series.map_or(root, |s| s.span),
            "series",
            "",
            "`series`, `statuses` and `exceptions` may not all be empty: the filter fails at startup",
        ));
    }
    let span = conditions.first().map_or(root, |c| c.span);
    policy.retry_on = if any_written {
        Located::written(RetryOn::Listed { conditions }, span)
    } else {
        Located::default_at(RetryOn::Listed { conditions }, root)
    };

    // Methods.
    policy.methods = match arg("methods") {
        Some(a) => {
            let mut set = Vec::new();
            for (v, span) in &a.items {
                let m = v.to_ascii_uppercase();
                if METHODS.contains(&m.as_str()) {
                    set.push(m);
                } else {
                    facts.diagnostics.push(invalid_setting::unknown_token(
                        *span,
                        "methods",
                        v,
                        METHODS.iter().copied(),
                    ));
                }
            }
            Located::written(Methods::Set(restrict(set, route)), a.span)
        }
        None => Located::default_at(Methods::Set(restrict(vec!["GET".into()], route)), root),
    };

    // Backoff and jitter.
    let backoff_written = args.keys().any(|k| k.starts_with("backoff"));
    let backoff_span = args
        .iter()
        .filter(|(k, _)| k.starts_with("backoff"))
        .map(|(_, a)| a.span)
        .reduce(Span::cover);
    policy.jitter = Located::default_at(Jitter::None, root);
    policy.delay = Located::default_at(Delay::None, root);
    if backoff_written {
        let span = backoff_span.unwrap_or(root);
        let dur = |k: &str, facts: &mut Facts| -> Option<Duration> {
            let a = arg(k)?;
            let (v, s) = a.one()?;
            match parse_spring(v, Duration::from_millis(1)) {
                Ok(d) => Some(d),
                Err(e) => {
                    facts.diagnostics.push(invalid_setting::value(
                        *s,
                        k.split('.').next_back().unwrap_or(k),
                        v,
                        &e,
                    ));
                    None
                }
            }
        };
        let first = dur("backoff.firstBackoff", facts).unwrap_or(Duration::from_millis(5));
        let mut max = dur("backoff.maxBackoff", facts);
        let factor = match arg("backoff.factor").and_then(|a| a.one()) {
            Some((v, s)) => match v.parse::<i32>() {
                Ok(n) => n,
                Err(_) => {
                    facts.diagnostics.push(invalid_setting::value(
                        *s,
                        "factor",
                        v,
                        "`factor` is a whole number (an `int`)",
                    ));
                    2
                }
            },
            None => 2,
        };
        if site.mvc {
            if let Some((key, why)) = mvc::rejected(first, max, factor) {
                let at = arg(&format!("backoff.{key}")).map_or(span, |a| a.span);
                let v = arg(&format!("backoff.{key}"))
                    .and_then(|a| a.one())
                    .map_or(String::new(), |(v, _)| v.clone());
                facts
                    .diagnostics
                    .push(invalid_setting::value(at, key, &v, &why));
            }
            max = max.or(Some(mvc::DEFAULT_MAX_BACKOFF));
        }
        let delay = if first.is_zero() {
            Delay::None
        } else if factor <= 1 || max.is_some_and(|m| m <= first) {
            Delay::Fixed {
                delay: max.map_or(first, |m| m.min(first)),
            }
        } else {
            Delay::Exponential {
                base: first,
                multiplier: factor as f64,
                cap: max,
            }
        };
        policy.delay = Located::written(delay, span);
        policy.jitter = Located::default_at(Jitter::None, span);
    }
    if let Some(a) = arg("jitter.randomFactor")
        && let Some((v, s)) = a.one()
    {
        match v.parse::<f64>() {
            Ok(r) if (0.0..=1.0).contains(&r) => {
                policy.jitter = Located::written(
                    if r == 0.0 {
                        Jitter::None
                    } else {
                        Jitter::Proportional { factor: r }
                    },
                    a.span,
                );
            }
            _ => facts.diagnostics.push(invalid_setting::value(
                *s,
                "randomFactor",
                v,
                "must be a number between 0 and 1",
            )),
        }
    }

    // Timeouts: the route's or the global response timeout bounds each try.
    policy.per_try_timeout = Some(
        match route
            .and_then(|r| r.response_timeout)
            .or(site.global_timeout)
        {
            Some((t, span)) => Located::written(t, span),
            None => Located::default_at(Timeout::Disabled, root),
        },
    );
    if let Some(a) = arg("timeout")
        && let Some((v, s)) = a.one()
    {
        match parse_spring(v, Duration::from_millis(1)) {
            Ok(d) => policy.overall_timeout = Some(Located::written(Timeout::after(d), a.span)),
            Err(e) => facts
                .diagnostics
                .push(invalid_setting::value(*s, "timeout", v, &e)),
        }
    }
    Some(policy)
}

/// Retry methods that the route's `Method` predicate lets through.
fn restrict(set: Vec<String>, route: Option<&Route>) -> Vec<String> {
    match route.and_then(|r| r.methods.as_ref()) {
        Some(allowed) => set.into_iter().filter(|m| allowed.contains(m)).collect(),
        None => set,
    }
}

/// `BAD_GATEWAY`, `502` -> 502.
fn status_code(v: &str) -> Option<u16> {
    if let Ok(n) = v.parse::<u16>() {
        return (100..600).contains(&n).then_some(n);
    }
    let up = v.to_ascii_uppercase();
    STATUSES.iter().find(|(n, _)| *n == up).map(|(_, c)| *c)
}
