//! `resilience4j.circuitbreaker.{configs,instances}.<name>`: the settings
//! a retry composed around a breaker of that name meets (the simulation
//! reads them). Keys as `CircuitBreakerConfigurationProperties` binds them
//! (resilience4j-framework-common 2.x): `failureRateThreshold` (percent),
//! `minimumNumberOfCalls`, `slidingWindowSize` with `slidingWindowType`
//! (`COUNT_BASED` calls or `TIME_BASED` seconds), `waitDurationInOpenState`,
//! `permittedNumberOfCallsInHalfOpenState`; `baseConfig` and
//! `configs.default` inherited as for retries; defaults
//! [`r4j::BREAKER_DEFAULTS`].

use super::*;

/// The name under which `configs.default` is recorded: an instance that
/// is not configured takes it.
pub const DEFAULT_CONFIG_NAME: &str = "configs.default";

fn whole(p: &Prop, key: &str, min: f64, max: f64, facts: &mut Facts) -> Option<f64> {
    match number(p) {
        Some(n) if (min..=max).contains(&n) => Some(n),
        _ if is_placeholder(&p.value) => None,
        _ => {
            facts.diagnostics.push(invalid_setting::value(
                p.value_span,
                key,
                &p.value,
                &format!("not a number from {min} to {max}"),
            ));
            None
        }
    }
}

pub(super) fn breakers(blocks: &[Block<'_>], facts: &mut Facts) {
    let configs = configs(blocks);
    for b in blocks {
        if b.is_config && b.name != DEFAULT_CONFIG {
            continue;
        }
        let chain = chain(blocks, &configs, b);
        let d = r4j::BREAKER_DEFAULTS;
        let mut s = d;
        let mut written = false;
        let mut field = |key: &str| {
            let f = resolve(&chain, key, false);
            written |= f.as_ref().is_some_and(|f| !f.inherited);
            f
        };
        let ratio = field("failureRateThreshold");
        let min_calls = field("minimumNumberOfCalls");
        let size = field("slidingWindowSize");
        let kind = field("slidingWindowType");
        let open = field("waitDurationInOpenState");
        let half = field("permittedNumberOfCallsInHalfOpenState");
        if let Some(f) = ratio
            && let Some(n) = whole(f.prop, "failureRateThreshold", 0.0, 100.0, facts)
        {
            s.failure_ratio = n / 100.0;
        }
        if let Some(f) = min_calls
            && let Some(n) = whole(f.prop, "minimumNumberOfCalls", 1.0, 1e9, facts)
        {
            s.min_calls = n as u64;
        }
        let time_based =
            kind.is_some_and(|f| f.prop.value.trim().eq_ignore_ascii_case("TIME_BASED"));
        let n = size
            .and_then(|f| whole(f.prop, "slidingWindowSize", 1.0, 1e9, facts))
            .unwrap_or(100.0) as u64;
        s.window = if time_based {
            BreakerWindow::Time {
                length: Duration::from_secs(n),
            }
        } else {
            BreakerWindow::Calls { count: n }
        };
        if let Some(f) = open
            && let Some(t) = duration(f.prop, "waitDurationInOpenState", facts)
        {
            s.open_for = t;
        }
        if let Some(f) = half
            && let Some(n) = whole(
                f.prop,
                "permittedNumberOfCallsInHalfOpenState",
                1.0,
                1e9,
                facts,
            )
        {
            s.half_open_calls = n as u64;
        }
        let settings = if written {
            Located::written(s, b.name_span)
        } else {
            Located::inherited(s, b.name_span)
        };
        facts.breakers.push(NamedBreaker {
            system: System::Resilience4j,
            name: if b.is_config {
                DEFAULT_CONFIG_NAME.to_string()
            } else {
                b.name.clone()
            },
            settings,
        });
    }
}
