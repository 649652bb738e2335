//! `remap_facts` moves every span of a file's facts: read every fixture,
//! move its facts' spans far away, and look for a span left where it was.

use super::*;
use crate::extract::remap_facts;
use serde_json::Value;
use std::collections::BTreeSet;

const SHIFT: usize = 1 << 40;

fn shifted(s: Span) -> Span {
    Span::new(s.start + SHIFT, s.end + SHIFT)
}

/// Whether a JSON value is a serialised [`Span`].
fn is_span(v: &Value) -> bool {
    v.as_object().is_some_and(|o| {
        o.len() == 2
            && o.get("start").is_some_and(Value::is_u64)
            && o.get("end").is_some_and(Value::is_u64)
    })
}

/// Record the paths of spans that did not move, and the top-level fields
/// where a span was seen.
fn compare(
    before: &Value,
    after: &Value,
    path: &str,
    stuck: &mut Vec<String>,
    seen: &mut BTreeSet<String>,
) {
    if is_span(before) {
        // `.policies[].attempts.span`: the field is `policies`.
        let field = path[1..].split(['.', '[']).next().unwrap_or("");
        seen.insert(field.to_string());
        if before == after {
            stuck.push(path.to_string());
        }
        return;
    }
    match (before, after) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                if let Some(w) = b.get(k) {
                    compare(v, w, &format!("{path}.{k}"), stuck, seen);
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (v, w) in a.iter().zip(b) {
                compare(v, w, &format!("{path}[]"), stuck, seen);
            }
        }
        _ => {}
    }
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn remapping_moves_every_span_of_every_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut all = Vec::new();
    files(&root, &mut all);
    all.sort();
    let mut stuck = Vec::new();
    let mut seen = BTreeSet::new();
    let mut samples: Vec<(std::path::PathBuf, String)> = all
        .into_iter()
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .collect();
    // No fixture file holds a Rust retry macro (they are tested in
    // `systems::rust::extract`): one defined and one called.
    samples.push((
        root.join("inline/src/m.rs"),
        "#[macro_export]\nmacro_rules! again {\n ($f:expr, $n:expr, $ms:expr) => {{ let mut i = 0; loop { let r = $f; if r.is_ok() { break r; } else if i >= $n { break r; } else { i += 1; std::thread::sleep(std::time::Duration::from_millis($ms)); } } }};\n}\n".into(),
    ));
    samples.push((
        root.join("inline/src/g.rs"),
        "fn g() -> R { crate::again!(connect(), 2, 250) }\n".into(),
    ));
    for (path, text) in &samples {
        let path = path.as_path();
        let Some(syntax) = classify(path, text.as_bytes()) else {
            continue;
        };
        let facts = extract(path, text, syntax);
        let mut moved = facts.clone();
        remap_facts(&mut moved, &shifted);
        let name = path.strip_prefix(&root).unwrap_or(path).display();
        let before = serde_json::to_value(&facts).unwrap();
        let after = serde_json::to_value(&moved).unwrap();
        let mut here = Vec::new();
        compare(&before, &after, "", &mut here, &mut seen);
        stuck.extend(here.into_iter().map(|p| format!("{name}: {p}")));
        // Diagnostics are not serialised (the cache re-reads them).
        for (d, m) in facts.diagnostics.iter().zip(&moved.diagnostics) {
            seen.insert("diagnostics".into());
            let related_moved = d.related.iter().zip(&m.related).all(|(a, b)| a.0 != b.0);
            if d.span == m.span || !related_moved {
                stuck.push(format!("{name}: .diagnostics[] {}", d.code.as_str()));
            }
        }
    }
    stuck.sort();
    stuck.dedup();
    assert!(
        stuck.is_empty(),
        "spans remap_facts leaves in place:\n{}",
        stuck.join("\n")
    );
    // Every field of `Facts` that holds places holds some in a fixture, so a
    // new one is checked here too (a field without places is listed).
    let fields: BTreeSet<String> =
        match serde_json::to_value(crate::extract::Facts::default()).unwrap() {
            Value::Object(o) => o.keys().cloned().collect(),
            _ => unreachable!("facts serialise as an object"),
        };
    let without_places = ["extractors", "mesh", "upstreams", "build"];
    let unseen: Vec<&String> = fields
        .iter()
        .filter(|f| !without_places.contains(&f.as_str()) && !seen.contains(*f))
        .collect();
    assert!(
        unseen.is_empty(),
        "fields of `Facts` no fixture gives a span in (add a fixture, or list them as without places): {unseen:?}"
    );
}
