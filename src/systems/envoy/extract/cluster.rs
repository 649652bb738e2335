//! Envoy clusters: a cluster's name, its endpoints (the callee) and the
//! retry budget its `circuit_breakers` hold.

use super::*;

pub(super) fn cluster(c: Yaml<'_>, facts: &mut Facts) -> Option<(String, ClusterInfo)> {
    let name_node = c.get("name")?;
    let name = name_node.as_str()?.to_string();
    let endpoints = endpoints(c);
    if let Some((first, span)) = endpoints.first() {
        facts.services.push(ServiceDecl::new(
            short_host(first),
            *span,
            crate::model::calls::IdentityKind::Upstream,
            format!("Envoy cluster `{name}`"),
            endpoints.iter().map(|(h, _)| h.clone()).collect(),
        ));
    }
    let budget = cluster_budget(c, name_node.span(), facts);
    // A written retry circuit breaker, for routes in other files (linked
    // by cluster name, `link::retry_limits`).
    if let Some(b) = &budget
        && b.is_written()
        && let Budget::Concurrency { max } = b.value
    {
        facts.protections.push(Protection {
            system: System::Envoy,
            host: name.clone(),
            what: format!("circuit_breakers max_retries: {max}"),
            span: b.span,
            max_retries: Some(max),
        });
    }
    Some((
        name,
        ClusterInfo {
            name_span: name_node.span(),
            endpoints,
            budget,
        },
    ))
}

pub(super) fn socket_address(addr: Yaml<'_>) -> Option<(String, Span)> {
    let sa = addr.get_any(&["socket_address", "socketAddress"])?;
    let a = sa.get("address")?;
    Some((a.as_str()?.to_string(), a.span()))
}

pub(super) fn endpoints(c: Yaml<'_>) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    if let Some(la) = field(c, "load_assignment") {
        for group in la
            .value
            .get("endpoints")
            .map(|e| e.items())
            .unwrap_or_default()
        {
            let lbs = field(group, "lb_endpoints")
                .map(|e| e.value.items())
                .unwrap_or_default();
            for lb in lbs {
                if let Some(addr) = lb.path(&["endpoint", "address"])
                    && let Some(a) = socket_address(addr)
                {
                    out.push(a);
                }
            }
        }
    }
    // v2 `hosts: [{socket_address: ..}]`, v1 `hosts: [{url: tcp://h:p}]`.
    for h in c.get("hosts").map(|h| h.items()).unwrap_or_default() {
        if let Some(a) = socket_address(h) {
            out.push(a);
        } else if let Some(url) = h.get("url")
            && let Some(u) = url.as_str()
        {
            let host = u.split_once("://").map_or(u, |(_, r)| r);
            out.push((host.to_string(), url.span()));
        }
    }
    out
}

/// What limits the cluster's retries as a whole: the DEFAULT priority's
/// `retry_budget` (a share of the active requests), else its `max_retries`
/// circuit breaker (concurrent retries, [`DEFAULT_MAX_RETRIES`] when not
/// written). `None` when the block cannot be read.
fn cluster_budget(c: Yaml<'_>, name: Span, facts: &mut Facts) -> Option<Located<Budget>> {
    let default = || {
        Some(Located::default_at(
            Budget::Concurrency {
                max: DEFAULT_MAX_RETRIES,
            },
            name,
        ))
    };
    let Some(cb) = field(c, "circuit_breakers") else {
        return default();
    };
    if !cb.value.is_map() {
        if !cb.value.is_null() {
            facts.diagnostics.push(invalid_setting::wrong_shape(
                cb.span(),
                cb.key,
                "a mapping with `thresholds`",
                cb.value.kind_name(),
                "write `circuit_breakers:` with a `thresholds:` list",
            ));
        }
        return None;
    }
    let Some(th) = cb.value.entry("thresholds") else {
        // v1: `circuit_breakers: {default: {max_retries: ..}, high: ..}`
        return None;
    };
    if th.value.is_null() {
        return default();
    }
    if th.value.is_map() || (!th.value.is_seq() && !th.value.is_null()) {
        facts.diagnostics.push(invalid_setting::wrong_shape(
            th.span(),
            th.key,
            "a list of thresholds",
            th.value.kind_name(),
            "write each threshold as a list item (`- max_retries: 3`); Envoy refuses to load a mapping here",
        ));
        return None;
    }
    let mut budget = None;
    let mut breaker = None;
    let mut seen_default = false;
    for t in th.value.items() {
        if !t.is_map() {
            continue;
        }
        check_keys(
            t,
            THRESHOLD_KEYS,
            "an Envoy circuit-breaker threshold",
            facts,
        );
        let priority = t
            .get("priority")
            .and_then(|p| p.as_str())
            .unwrap_or("DEFAULT");
        // Envoy uses the first threshold of a priority.
        let first_default = priority == "DEFAULT" && !seen_default;
        seen_default |= priority == "DEFAULT";
        if let Some(mr) = field(t, "max_retries") {
            match mr.value.as_i64().and_then(|n| u64::try_from(n).ok()) {
                Some(max) if first_default => {
                    breaker = Some(Located::written(Budget::Concurrency { max }, mr.span()));
                }
                Some(_) => {}
                None => facts.diagnostics.push(invalid_setting::value(
                    mr.value.span(),
                    mr.key,
                    mr.value.as_str().unwrap_or(""),
                    "not a non-negative whole number",
                )),
            }
        }
        let Some(rb) = field(t, "retry_budget") else {
            continue;
        };
        if !rb.value.is_map() {
            continue;
        }
        check_keys(
            rb.value,
            RETRY_BUDGET_KEYS,
            "an Envoy `retry_budget`",
            facts,
        );
        let (percent, span) = match field(rb.value, "budget_percent") {
            Some(bp) => {
                let v = bp.value.get("value").unwrap_or(bp.value);
                match v.as_f64() {
                    Some(p) if (0.0..=100.0).contains(&p) => (p, bp.span()),
                    _ => {
                        facts.diagnostics.push(invalid_setting::value(
                            v.span(),
                            "budget_percent",
                            v.as_str().unwrap_or(""),
                            "a percentage from 0 to 100 is expected",
                        ));
                        continue;
                    }
                }
            }
            None => (DEFAULT_BUDGET_PERCENT, rb.span()),
        };
        if let Some(mc) = field(rb.value, "min_retry_concurrency")
            && mc.value.as_i64().is_none_or(|n| n < 0)
        {
            facts.diagnostics.push(invalid_setting::value(
                mc.value.span(),
                mc.key,
                mc.value.as_str().unwrap_or(""),
                "not a non-negative whole number",
            ));
        }
        if first_default {
            budget = Some(Located::written(
                Budget::Ratio {
                    ratio: percent / 100.0,
                    min_per_second: None,
                },
                span,
            ));
        }
    }
    // Each threshold not written keeps its default.
    budget.or(breaker).or_else(default)
}
