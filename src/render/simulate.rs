//! `retrylint simulate`'s outputs: a text table, JSON, a self-contained
//! SVG line chart and an HTML page holding both.

use crate::simulate::{Comparison, Failure, Outcome, SimLayer, SimPath};

/// Version of the JSON document.
pub const JSON_VERSION: u32 = 1;

fn secs(x: f64) -> String {
    if x >= 10.0 || x == x.round() {
        format!("{x:.0} s")
    } else {
        format!("{x:.1} s")
    }
}

fn rps(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

fn multiple(x: f64) -> String {
    if x >= 10.0 {
        format!("{x:.0}x")
    } else {
        format!("{x:.1}x")
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn failure_words(f: Failure) -> &'static str {
    match f {
        Failure::Error => "fails every request at once",
        Failure::Timeout => "never answers",
    }
}

/// "`ledger` fails every request at once for 30 s (from 10 s), 100
/// requests/s into `gateway`".
pub fn headline(c: &Comparison) -> String {
    let s = &c.scenario;
    format!(
        "`{}` {} for {} (from {} of {}), {} requests/s into `{}`",
        c.target(),
        failure_words(s.failure),
        secs(s.outage),
        secs(s.outage_start),
        secs(s.duration),
        rps(s.rps),
        c.found.services.first().map_or("", String::as_str)
    )
}

/// Seconds without a unit: `5`, `0.5`.
fn secs_plain(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn layer_line(l: &SimLayer) -> String {
    let mut parts = vec![format!("x{}", l.attempts)];
    if l.waits.iter().all(|w| w.hi <= 0.0) {
        if !l.waits.is_empty() {
            parts.push("no wait".into());
        }
    } else if let (Some(first), Some(last)) = (l.waits.first(), l.waits.last()) {
        let w = |lo: f64, hi: f64| {
            if (hi - lo).abs() < 1e-9 {
                format!("{:.0} ms", hi * 1000.0)
            } else {
                format!("{:.0}-{:.0} ms", lo * 1000.0, hi * 1000.0)
            }
        };
        parts.push(if l.waits.len() == 1 {
            format!("wait {}", w(first.lo, first.hi))
        } else {
            format!("waits {} .. {}", w(first.lo, first.hi), w(last.lo, last.hi))
        });
    }
    if let Some(p) = l.per_try {
        parts.push(format!("{} per try", secs(p)));
    }
    if let Some(o) = l.overall {
        parts.push(format!("{} overall", secs(o)));
    }
    if let Some(h) = l.hedge {
        parts.push(format!("hedged every {}", secs(h)));
    }
    if let Some(b) = &l.budget {
        parts.push(match b {
            crate::simulate::SimBudget::Ratio {
                ratio,
                min_per_second,
            } => format!("budget {:.0}% + {min_per_second}/s", ratio * 100.0),
            crate::simulate::SimBudget::Tokens { max_tokens, .. } => {
                format!("token bucket of {max_tokens}")
            }
            crate::simulate::SimBudget::Concurrency { max } => {
                format!("at most {max} retries in flight")
            }
            crate::simulate::SimBudget::Quota { capacity, cost, .. } => {
                format!("retry quota of {capacity} tokens, {cost} per retry (one client)")
            }
        });
    }
    if let Some(b) = &l.breaker {
        let window = match b.window_secs {
            Some(w) => format!("{} s", secs_plain(w)),
            None => format!("{:.0} calls", b.window),
        };
        parts.push(format!(
            "circuit breaker opening at {:.0}% failures of {window} ({:.0} at least), open {} s, {:.0} half-open (open: {})",
            b.threshold * 100.0,
            b.min_calls,
            secs_plain(b.open_for),
            b.half_open_calls,
            if b.retried_when_open { "retried" } else { "not retried" }
        ));
    }
    format!("{}  {}", l.label, parts.join(", "))
}

/// The rows of the comparison table: (what, as found, fixed).
pub fn rows(c: &Comparison) -> Vec<(String, String, String)> {
    let target = c.target();
    let (a, b) = (&c.found_outcome, &c.fixed_outcome);
    let peak = |o: &Outcome| {
        format!(
            "{} rps ({}) at {}",
            rps(o.peak_rps),
            multiple(o.peak_multiple()),
            secs(o.peak_at)
        )
    };
    let mut rows = vec![
        (
            "attempts per request".to_string(),
            format!("{}", c.found.attempts),
            format!("{}", c.fixed.attempts),
        ),
        (format!("peak load on `{target}`"), peak(a), peak(b)),
        (
            "extra requests".to_string(),
            format!("{:.0}", a.extra_requests),
            format!("{:.0}", b.extra_requests),
        ),
        (
            "excess after recovery".to_string(),
            secs(a.excess_after_recovery),
            secs(b.excess_after_recovery),
        ),
        (
            "user requests failed".to_string(),
            pct(a.failed_share),
            pct(b.failed_share),
        ),
    ];
    if let Some(t) = a.entry_timeout {
        rows.push((
            format!("slower than the entry's {}", secs(t)),
            pct(a.slow_share),
            pct(b.slow_share),
        ));
    }
    rows
}

fn path_words(p: &SimPath) -> String {
    p.services.join(" -> ")
}

/// The text table, with the load per second (the mean of its 100 ms
/// buckets; JSON and SVG have every bucket).
pub fn text(c: &Comparison) -> String {
    let mut out = String::new();
    out.push_str(&format!("simulate {}", path_words(&c.found)));
    out.push('\n');
    out.push_str(&format!("  {}", headline(c)));
    out.push('\n');
    out.push_str("\nlayers, outermost first:");
    out.push('\n');
    for l in &c.found.layers {
        out.push_str(&format!("  {}", layer_line(l)));
        out.push('\n');
    }
    if !c.fixed.changes.is_empty() {
        out.push_str("\nfixed variant:");
        out.push('\n');
        for ch in &c.fixed.changes {
            out.push_str(&format!("  {ch}"));
            out.push('\n');
        }
    }
    let rows = rows(c);
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(8);
    out.push_str(&format!("\n{:w0$}  {:w1$}  fixed", "", "as found"));
    out.push('\n');
    for (k, a, b) in &rows {
        out.push_str(&format!("{k:w0$}  {a:w1$}  {b}"));
        out.push('\n');
    }
    out.push_str(&format!(
        "\nload on `{}` per second (requests/s, multiple of normal):",
        c.target()
    ));
    out.push('\n');
    out.push_str(&format!("{:>7}  {:>18}  {:>18}", "t", "as found", "fixed"));
    out.push('\n');
    let per = ((1.0 / c.found_outcome.bucket).round() as usize).max(1);
    let (a, b) = (&c.found_outcome, &c.fixed_outcome);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    for (i, (x, y)) in a.load.chunks(per).zip(b.load.chunks(per)).enumerate() {
        let (x, y) = (mean(x), mean(y));
        let n = a.normal_rps.max(f64::MIN_POSITIVE);
        out.push_str(&format!(
            "{:>6}s  {:>10} {:>7}  {:>10} {:>7}",
            (i as f64 * per as f64 * a.bucket).round(),
            rps(x),
            multiple(x / n),
            rps(y),
            multiple(y / n)
        ));
        out.push('\n');
    }
    out
}

/// The JSON document: the scenario, each variant's path, layers and
/// outcome (the load per bucket in requests per second).
pub fn json(c: &Comparison) -> String {
    let doc = serde_json::json!({
        "version": JSON_VERSION,
        "scenario": c.scenario,
        "target": c.target(),
        "found": { "path": c.found, "outcome": c.found_outcome },
        "fixed": { "path": c.fixed, "outcome": c.fixed_outcome },
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

fn esc(s: &str) -> String {
    crate::render::sanitize(s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const W: f64 = 760.0;
const H: f64 = 320.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 44.0;

/// The load on the failing service over time, as a multiple of normal
/// on a log scale, as found (red) and fixed (blue), the outage shaded:
/// an SVG with no script, no external reference.
pub fn svg(c: &Comparison) -> String {
    let (a, b) = (&c.found_outcome, &c.fixed_outcome);
    let n = a.normal_rps.max(f64::MIN_POSITIVE);
    let top = a
        .load
        .iter()
        .chain(&b.load)
        .fold(1.0f64, |m, &x| m.max(x / n));
    // Decades from 0.1x to the peak's.
    let decades = top.log10().ceil().max(1.0);
    let ymin = -1.0;
    let pw = W - LEFT - RIGHT;
    let ph = H - TOP - BOTTOM;
    let dur = c.scenario.duration.max(f64::MIN_POSITIVE);
    let x = |t: f64| LEFT + pw * (t / dur).clamp(0.0, 1.0);
    let y = |m: f64| {
        let l = m.max(0.1).log10();
        TOP + ph * (1.0 - (l - ymin) / (decades - ymin))
    };
    let mut s = String::new();
    s.push_str(&format!(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" font-family="sans-serif" font-size="12" role="img">"#
    ));
    let title = format!("load on {} while it is down", c.target());
    s.push_str(&format!("<title>{}</title>", esc(&title)));
    s.push_str(&format!(
        r##"<rect width="{W}" height="{H}" fill="#fff"/>"##
    ));
    let (o0, o1) = (
        c.scenario.outage_start,
        c.scenario.outage_start + c.scenario.outage,
    );
    s.push_str(&format!(
        r##"<rect x="{:.1}" y="{TOP}" width="{:.1}" height="{ph}" fill="#f3e0e0"/>"##,
        x(o0),
        x(o1) - x(o0)
    ));
    s.push_str(&format!(
        r##"<text x="{:.1}" y="{:.1}" fill="#a44">{} down</text>"##,
        x(o0) + 4.0,
        TOP + 14.0,
        esc(c.target())
    ));
    // Grid: one line per decade.
    let mut d = ymin;
    while d <= decades + 1e-9 {
        let m = 10f64.powf(d);
        let yy = y(m);
        s.push_str(&format!(
            r##"<line x1="{LEFT}" x2="{:.1}" y1="{yy:.1}" y2="{yy:.1}" stroke="{}"/>"##,
            LEFT + pw,
            if d == 0.0 { "#888" } else { "#e4e4e4" }
        ));
        let label = if m < 1.0 {
            format!("{m}x")
        } else {
            format!("{m:.0}x")
        };
        s.push_str(&format!(
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555">{label}</text>"##,
            LEFT - 6.0,
            yy + 4.0
        ));
        d += 1.0;
    }
    // Time ticks: about 10.
    let step = [
        1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0,
    ]
    .into_iter()
    .find(|st| dur / st <= 12.0)
    .unwrap_or(7200.0);
    let mut t = 0.0;
    while t <= dur + 1e-9 {
        s.push_str(&format!(
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#555">{t:.0}</text>"##,
            x(t),
            TOP + ph + 16.0
        ));
        t += step;
    }
    s.push_str(&format!(
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#555">seconds</text>"##,
        LEFT + pw / 2.0,
        H - 8.0
    ));
    let line = |o: &Outcome, color: &str| {
        let pts: Vec<String> = o
            .load
            .iter()
            .enumerate()
            .flat_map(|(i, r)| {
                let (t0, t1) = (i as f64 * o.bucket, (i as f64 + 1.0) * o.bucket);
                let yy = y(r / n);
                [
                    format!("{:.1},{yy:.1}", x(t0)),
                    format!("{:.1},{yy:.1}", x(t1)),
                ]
            })
            .collect();
        format!(
            r#"<polyline fill="none" stroke="{color}" stroke-width="1.5" points="{}"/>"#,
            pts.join(" ")
        )
    };
    s.push_str(&line(b, "#2060c0"));
    s.push_str(&line(a, "#d02020"));
    let legend = [
        (
            "#d02020",
            format!("as found: peak {} of normal", multiple(a.peak_multiple())),
        ),
        (
            "#2060c0",
            format!("fixed: peak {}", multiple(b.peak_multiple())),
        ),
    ];
    let mut lx = LEFT;
    for (color, text) in legend {
        s.push_str(&format!(r#"<rect x="{lx:.1}" y="12" width="14" height="4" fill="{color}"/><text x="{:.1}" y="18">{}</text>"#,
            lx + 18.0,
            esc(&text)
        ));
        lx += 30.0 + 7.0 * text.len() as f64;
    }
    s.push_str(&format!(r##"<text x="{:.1}" y="18" text-anchor="end" fill="#555">load on {}, multiple of normal ({} rps)</text>"##,
        W - RIGHT,
        esc(c.target()),
        rps(a.normal_rps)
    ));
    s.push_str("</svg>\n");
    s
}

/// A page with the headline, the layers, the table and the chart.
pub fn html(c: &Comparison) -> String {
    let mut s = String::from(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>retrylint simulate</title>\
<style>body{font-family:sans-serif;max-width:820px;margin:2em auto;color:#222}\
table{border-collapse:collapse}td,th{padding:.2em .8em;border-bottom:1px solid #ddd;text-align:left}\
code{background:#f4f4f4}</style></head><body>\n",
    );
    s.push_str(&format!(
        "<h1>{}</h1>\n<p>{}</p>",
        esc(&path_words(&c.found)),
        esc(&headline(c))
    ));
    s.push('\n');
    s.push_str(&fragment(c));
    s.push_str("</body></html>\n");
    s
}

/// The table, the layers and the chart, for a page that has its own
/// heading (the audit report's path section).
pub fn fragment(c: &Comparison) -> String {
    let mut s = String::new();
    s.push_str("<table><tr><th></th><th>as found</th><th>fixed</th></tr>\n");
    for (k, a, b) in rows(c) {
        s.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&k),
            esc(&a),
            esc(&b)
        ));
        s.push('\n');
    }
    s.push_str("</table>\n");
    s.push_str(&svg(c));
    s.push_str("<details><summary>layers, outermost first</summary><ul>\n");
    for l in &c.found.layers {
        s.push_str(&format!("<li>{}</li>", esc(&layer_line(l))));
        s.push('\n');
    }
    s.push_str("</ul>");
    if !c.fixed.changes.is_empty() {
        s.push_str("<p>fixed variant:</p><ul>\n");
        for ch in &c.fixed.changes {
            s.push_str(&format!("<li>{}</li>", esc(ch)));
            s.push('\n');
        }
        s.push_str("</ul>");
    }
    s.push_str("</details>\n");
    s
}
