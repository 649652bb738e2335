//! Settings, edges and layers as the report words them (no escaping: each
//! renderer escapes what it writes).

use super::*;

/// `3 (gateway -> orders, nginx tries) x 3 (...) = 9`, without backticks.
pub(super) fn arithmetic(g: &Graph, edges: &[usize], total: u64) -> String {
    let mut parts = Vec::new();
    for &e in edges {
        let edge = &g.edges[e];
        for l in edge.layers.iter().filter(|l| l.retries()) {
            parts.push(format!(
                "{} ({} → {}, {})",
                l.factor(),
                g.service_name(edge.from),
                g.service_name(edge.to),
                l.label.replace('`', "")
            ));
        }
    }
    if parts.is_empty() {
        return format!("no retries = {total}");
    }
    format!("{} = {total}", parts.join(" x "))
}

pub(super) fn delay_text(d: &Delay) -> String {
    match d {
        Delay::None => "none".into(),
        Delay::Fixed { delay } => format!("fixed {}", human(*delay)),
        Delay::Exponential {
            base,
            multiplier,
            cap,
        } => {
            let mut s = format!("exponential {} x{multiplier}", human(*base));
            if let Some(c) = cap {
                s.push_str(&format!(", cap {}", human(*c)));
            }
            s
        }
        Delay::Decorrelated { base, cap } => {
            let mut s = format!("decorrelated from {}", human(*base));
            if let Some(c) = cap {
                s.push_str(&format!(", cap {}", human(*c)));
            }
            s
        }
        Delay::Linear { base, cap } => {
            let mut s = format!("linear +{} each", human(*base));
            if let Some(c) = cap {
                s.push_str(&format!(", cap {}", human(*c)));
            }
            s
        }
        Delay::Fibonacci { first, second, cap } => {
            let mut s = format!("fibonacci {}, {}, ..", human(*first), human(*second));
            if let Some(c) = cap {
                s.push_str(&format!(", cap {}", human(*c)));
            }
            s
        }
        Delay::Quadratic { base, cap } => {
            let mut s = format!("{} x n²", human(*base));
            if let Some(c) = cap {
                s.push_str(&format!(", cap {}", human(*c)));
            }
            s
        }
        Delay::Growing { multiplier, cap } => {
            let mut s = format!("growing x{multiplier} from an unknown start");
            if let Some(c) = cap {
                s.push_str(&format!(", cap {}", human(*c)));
            }
            s
        }
        Delay::Custom => "custom".into(),
        Delay::Unknown => "unknown".into(),
    }
}

pub(super) fn jitter_text(j: &Jitter) -> String {
    match j {
        Jitter::None => "none".into(),
        Jitter::Full => "full".into(),
        Jitter::Equal => "equal".into(),
        Jitter::Proportional { factor } => format!("+/-{}%", (factor * 100.0).round()),
        Jitter::Decorrelated => "decorrelated".into(),
        Jitter::Additive => "additive".into(),
        Jitter::Added { factor } => format!("+0..{}%", (factor * 100.0).round()),
        Jitter::Unknown => "unknown".into(),
    }
}

pub(super) fn budget_text(b: &Budget) -> String {
    match b {
        Budget::Ratio {
            ratio,
            min_per_second,
        } => {
            let mut s = format!("{}% of requests", (ratio * 100.0).round());
            if let Some(m) = min_per_second {
                s.push_str(&format!(", min {m}/s"));
            }
            s
        }
        Budget::TokenBucket {
            max_tokens,
            token_ratio,
        } => format!("token bucket {max_tokens}, ratio {token_ratio}"),
        Budget::Concurrency { max } => format!("{max} concurrent"),
        Budget::Quota => "retry quota".into(),
    }
}

pub(super) fn retry_on_text(r: &RetryOn, m: &Methods) -> String {
    let on = match r {
        RetryOn::AllErrors => "every error".to_string(),
        RetryOn::Nothing => "nothing".to_string(),
        RetryOn::Unknown => "unknown".to_string(),
        RetryOn::Listed { conditions } => {
            let items: Vec<String> = conditions
                .iter()
                .map(|c| match &c.value {
                    crate::model::Condition::Status { from, to } if from == to => from.to_string(),
                    crate::model::Condition::Status { from, to } => format!("{from}-{to}"),
                    crate::model::Condition::Grpc(s)
                    | crate::model::Condition::Exception(s)
                    | crate::model::Condition::Transport(s)
                    | crate::model::Condition::Token(s) => s.clone(),
                    crate::model::Condition::Predicate => "a predicate".into(),
                })
                .collect();
            // One token can stand for several conditions that other tokens
            // also name (Envoy's `5xx` includes `connect-failure`).
            let mut seen = BTreeSet::new();
            let items: Vec<String> = items
                .into_iter()
                .filter(|i| seen.insert(i.clone()))
                .collect();
            if items.is_empty() {
                "nothing listed".into()
            } else {
                items.join(", ")
            }
        }
    };
    match m {
        Methods::All => format!("{on}; every method"),
        Methods::IdempotentOnly => format!("{on}; idempotent methods"),
        Methods::Set(s) if !s.is_empty() => format!("{on}; {}", s.join(", ")),
        _ => on,
    }
}

/// A short label for an edge: `2x3 = 6, 1s/try`.
pub fn edge_short_label(e: &EdgeData) -> String {
    if e.layers.is_empty() {
        return "no retries".into();
    }
    let factors: Vec<String> = e
        .layers
        .iter()
        .map(|l| match (l.attempts, l.unbounded) {
            (_, true) => "inf".to_string(),
            (Some(n), _) => n.max(1).to_string(),
            (None, _) => "?".to_string(),
        })
        .collect();
    let mut s = if factors.len() > 1 {
        format!("{} = {}", factors.join("x"), e.attempts)
    } else {
        format!("x{}", factors[0])
    };
    // The innermost per-try timeout bounds each attempt that reaches the callee.
    if let Some(ms) = e.layers.iter().rev().find_map(|l| l.per_try_timeout_ms) {
        s.push_str(&format!(
            ", {}/try",
            human(std::time::Duration::from_millis(ms))
        ));
    } else if let Some(ms) = e.layers.iter().find_map(|l| l.overall_timeout_ms) {
        s.push_str(&format!(
            ", {} total",
            human(std::time::Duration::from_millis(ms))
        ));
    }
    s
}

/// A full label for an edge: every layer with attempts and timeouts.
pub fn edge_full_label(e: &EdgeData) -> String {
    if e.layers.is_empty() {
        return format!("{} (no retries)", e.via.replace('`', ""));
    }
    let layers: Vec<String> = e
        .layers
        .iter()
        .map(|l| {
            let mut s = format!("{} x{}", l.label.replace('`', ""), attempts_word(l));
            if l.implicit {
                s.push_str(" (default)");
            }
            if let Some(ms) = l.per_try_timeout_ms {
                s.push_str(&format!(
                    ", {} per try",
                    human(std::time::Duration::from_millis(ms))
                ));
            }
            if let Some(ms) = l.overall_timeout_ms {
                s.push_str(&format!(
                    ", {} total",
                    human(std::time::Duration::from_millis(ms))
                ));
            }
            s
        })
        .collect();
    format!("{}: {}", e.via.replace('`', ""), layers.join("; "))
}

/// A layer's attempts as a word: `3`, `unbounded`, `unknown`.
pub fn attempts_word(l: &LayerData) -> String {
    match (l.attempts, l.unbounded) {
        (_, true) => "unbounded".into(),
        (Some(n), _) => n.to_string(),
        (None, _) => "unknown".into(),
    }
}

/// A layer's timeouts: `1s per try, 10s total`, or `none`.
pub fn timeouts_word(l: &LayerData) -> String {
    let d = |ms: u64| human(std::time::Duration::from_millis(ms));
    match (l.per_try_timeout_ms, l.overall_timeout_ms) {
        (Some(p), Some(o)) => format!("{} per try, {} total", d(p), d(o)),
        (Some(p), None) => format!("{} per try", d(p)),
        (None, Some(o)) => format!("{} total", d(o)),
        (None, None) => "none".into(),
    }
}

/// `1 error, 2 warnings`: the findings of a group by severity.
pub fn severity_counts(findings: &[FindingData]) -> String {
    let mut parts = Vec::new();
    for (sev, one, many) in [
        (Severity::Error, "error", "errors"),
        (Severity::Warning, "warning", "warnings"),
        (Severity::Info, "info", "infos"),
    ] {
        let n = findings.iter().filter(|f| f.severity == sev).count();
        if n > 0 {
            parts.push(format!("{n} {}", if n == 1 { one } else { many }));
        }
    }
    parts.join(", ")
}

/// The layer kind as a word.
pub fn layer_word(l: Layer) -> &'static str {
    match l {
        Layer::Application => "application",
        Layer::Sdk => "SDK",
        Layer::Mesh => "mesh",
        Layer::Proxy => "proxy",
    }
}
