//! Property tests of fixes on generated files: applying the safe fixes a
//! scan offers never changes a byte outside their edits, keeps the line
//! endings, gives a file that parses, and is idempotent (the re-scan offers
//! no safe fix any more).

use crate::common;

use proptest::prelude::*;
use retrylint::fix::{Fix, apply_fixes};
use std::path::Path;

/// The safe fixes of the one file scanned in `dir`, its text, and whether
/// it parsed.
fn safe_fixes(dir: &Path) -> (Vec<Fix>, String, bool) {
    let settings = retrylint::config::Settings::default();
    let run = retrylint::pipeline::Pipeline::new(&settings)
        .run(&[dir.to_path_buf()])
        .expect("scan");
    let fixes = run
        .report
        .findings
        .iter()
        .filter_map(|f| f.fixes.iter().find(|x| x.is_safe()).cloned())
        .collect();
    let file = &run.scan.files[0];
    let parsed = !file
        .facts
        .diagnostics
        .iter()
        .any(|d| d.code.as_str() == "RL903");
    (fixes, file.source.text.clone(), parsed)
}

/// A Resilience4j retry configuration in one of the ways people write it.
fn resilience4j_yaml() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just(2usize), Just(4)],
        any::<bool>(),                              // CRLF
        any::<bool>(),                              // kebab-case keys
        any::<bool>(),                              // flow mapping
        proptest::collection::vec(0usize..4, 1..4), // entry order
        2u64..5,
        any::<bool>(), // comments
        any::<bool>(), // quoted wait
    )
        .prop_map(
            |(ind, crlf, kebab, flow, order, attempts, comments, quoted)| {
                let k = |camel: &str| {
                    if kebab {
                        retrylint::systems::edit::key_like(camel, "a-b")
                    } else {
                        camel.to_string()
                    }
                };
                let wait = if quoted { "\"500ms\"" } else { "500ms" };
                let mut entries = vec![
                    format!("{}: {attempts}", k("maxAttempts")),
                    format!("{}: {wait}", k("waitDuration")),
                    format!("{}: true", k("enableExponentialBackoff")),
                    format!("{}: 2", k("exponentialBackoffMultiplier")),
                ];
                let mut picked: Vec<usize> = Vec::new();
                // The wait and the exponential switch always (without a wait,
                // Resilience4j ignores the switch: a fixed default delay).
                for i in order.into_iter().chain([1, 2]) {
                    if !picked.contains(&i) {
                        picked.push(i);
                    }
                }
                entries = picked.iter().map(|&i| entries[i].clone()).collect();
                let nl = if crlf { "\r\n" } else { "\n" };
                let pad = |n: usize| " ".repeat(ind * n);
                let mut t = format!(
                    "resilience4j:{nl}{}retry:{nl}{}instances:{nl}",
                    pad(1),
                    pad(2)
                );
                if comments {
                    t.push_str(&format!("{}# the orders client{nl}", pad(3)));
                }
                if flow {
                    t.push_str(&format!("{}orders: {{{}}}{nl}", pad(3), entries.join(", ")));
                } else {
                    t.push_str(&format!("{}orders:{nl}", pad(3)));
                    for e in &entries {
                        t.push_str(&format!("{}{e}", pad(4)));
                        if comments {
                            t.push_str("  # why");
                        }
                        t.push_str(nl);
                    }
                }
                t.push_str(&format!("server:{nl}{}port: 8080{nl}", pad(1)));
                t
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn safe_fixes_keep_every_other_byte_and_are_idempotent(text in resilience4j_yaml()) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("application.yml");
        std::fs::write(&path, &text).unwrap();
        let (fixes, read, parsed) = safe_fixes(tmp.path());
        prop_assert!(parsed);
        prop_assert_eq!(&read, &text);
        // An exponential backoff without jitter: one safe fix.
        prop_assert_eq!(fixes.len(), 1, "{:?}", fixes);
        let out = apply_fixes(&text, 0, fixes.iter());
        prop_assert_eq!(out.applied.len(), 1);
        // Bytes outside the edits.
        let mut edits: Vec<_> = fixes.iter().flat_map(|f| f.edits.iter()).collect();
        edits.sort_by_key(|e| e.span.start);
        let (mut at, mut o) = (0, 0);
        for e in &edits {
            let keep = &text[at..e.span.start];
            prop_assert_eq!(&out.text[o..o + keep.len()], keep);
            o += keep.len() + e.replacement.len();
            at = e.span.end;
        }
        prop_assert_eq!(&out.text[o..], &text[at..]);
        // Line endings kept.
        if text.contains("\r\n") {
            prop_assert_eq!(out.text.matches('\n').count(), out.text.matches("\r\n").count());
        }
        // The fixed file parses and offers no safe fix any more.
        std::fs::write(&path, &out.text).unwrap();
        let (again, _, parsed) = safe_fixes(tmp.path());
        prop_assert!(parsed, "{}", out.text);
        prop_assert!(again.is_empty(), "{:?}\n{}", again, out.text);
    }
}

/// `text` with `fixes` applied keeps every byte outside the applied fixes'
/// edits: `Err` names the first difference.
fn outside_kept(text: &str, file: usize, fixes: &[&Fix]) -> Result<String, String> {
    let out = apply_fixes(text, file, fixes.iter().copied());
    let mut edits: Vec<_> = out
        .applied
        .iter()
        .flat_map(|&i| fixes[i].edits_in(file))
        .collect();
    edits.sort_by_key(|e| e.span.start);
    let (mut at, mut o) = (0, 0);
    for e in &edits {
        let keep = &text[at..e.span.start];
        if out.text.get(o..o + keep.len()) != Some(keep) {
            return Err(format!("bytes before {} changed", e.span.start));
        }
        o += keep.len() + e.replacement.len();
        at = e.span.end;
    }
    if out.text.get(o..) != Some(&text[at..]) {
        return Err("bytes after the last edit changed".into());
    }
    Ok(out.text)
}

/// Every fix of every fixture under testdata/fixes (safe and unsafe, one
/// per finding, as `--unsafe-fixes` takes them) changes no byte outside
/// its edits, keeps CRLF files CRLF, and a second scan of the fixed files
/// offers no fix for what was fixed (idempotent: `tests/suite/fixes.rs` checks
/// the same through the binary, this through the library's edits).
#[test]
fn every_fixture_fix_changes_only_its_edits() {
    let root = common::root().join("testdata/fixes");
    let mut cases = 0;
    for rule in std::fs::read_dir(&root).unwrap() {
        let rule = rule.unwrap().path();
        let code = rule.file_name().unwrap().to_string_lossy().to_string();
        for case in std::fs::read_dir(&rule).unwrap() {
            let before = case.unwrap().path().join("before");
            let settings = retrylint::config::Settings::default();
            let run = retrylint::pipeline::Pipeline::new(&settings)
                .run(std::slice::from_ref(&before))
                .expect("scan");
            let offered: Vec<&Fix> = run
                .report
                .findings
                .iter()
                .filter(|f| f.rule.code == code)
                .filter_map(|f| f.fixes.first())
                .collect();
            assert!(!offered.is_empty(), "{}: no {code} fix", before.display());
            cases += 1;
            for (id, file) in run.scan.files.iter().enumerate() {
                let mine: Vec<&Fix> = offered
                    .iter()
                    .copied()
                    .filter(|f| f.edits.iter().all(|e| e.file == id))
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let text = &file.source.text;
                let fixed = outside_kept(text, id, &mine)
                    .unwrap_or_else(|e| panic!("{}: {e}", before.display()));
                if text.contains("\r\n") {
                    assert_eq!(
                        fixed.matches('\n').count(),
                        fixed.matches("\r\n").count(),
                        "{}: a bare LF added",
                        before.display()
                    );
                }
            }
        }
    }
    assert!(cases >= 40, "fixtures missing: {cases}");
}

/// An Envoy cluster in the shapes its `circuit_breakers` are written in
/// (none, an empty flow mapping, a thresholds list whose first entry is
/// DEFAULT by omission, a HIGH entry before the DEFAULT one, a list without
/// `max_retries`), indented by 2 or 4, LF or CRLF, with or without
/// comments.
fn envoy_cluster() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just(2usize), Just(4)],
        any::<bool>(), // CRLF
        0usize..5,     // circuit breaker shape
        any::<bool>(), // comments
    )
        .prop_map(|(ind, crlf, shape, comments)| {
            let nl = if crlf { "\r\n" } else { "\n" };
            let mut t = String::new();
            // `col` in columns; a `- ` item's keys sit 2 further.
            let mut line = |col: usize, s: &str| {
                t.push_str(&" ".repeat(col));
                t.push_str(s);
                t.push_str(nl);
            };
            let (a, b) = (ind, ind + 2); // listeners' items and their keys
            line(0, "static_resources:");
            line(a, "listeners:");
            line(a, "- name: edge");
            line(b, "filter_chains:");
            line(b, "- filters:");
            let c = b + 2;
            line(c + ind, "- name: envoy.filters.network.http_connection_manager");
            let d = c + ind + 2;
            line(d, "typed_config:");
            let e = d + ind;
            line(e, "\"@type\": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager");
            line(e, "stat_prefix: edge");
            line(e, "route_config:");
            line(e + ind, "virtual_hosts:");
            line(e + ind, "- name: api");
            let f = e + ind + 2;
            line(f, "domains: [\"*\"]");
            line(f, "routes:");
            line(f, "- match: {prefix: \"/\"}");
            line(f + 2, "route: {cluster: api, timeout: 4s, retry_policy: {retry_on: 5xx, num_retries: 2, per_try_timeout: 1s}}");
            line(a, "clusters:");
            if comments {
                line(a, "# the API");
            }
            line(a, "- name: api");
            line(b, "connect_timeout: 0.25s");
            let (g, h) = (b + ind, b + ind + 2); // thresholds' items and keys
            match shape {
                0 => {}
                1 => line(b, "circuit_breakers: {}"),
                2 => {
                    line(b, "circuit_breakers:");
                    line(b + ind, "thresholds:");
                    line(g, "- max_retries: 50");
                    line(h, "max_requests: 2000");
                }
                3 => {
                    line(b, "circuit_breakers:");
                    line(b + ind, "thresholds:");
                    line(g, "- priority: HIGH");
                    line(h, "max_retries: 9");
                    line(g, "- priority: DEFAULT");
                    line(h, "max_retries: 5");
                }
                _ => {
                    line(b, "circuit_breakers:");
                    if comments {
                        line(b + ind, "# none yet");
                    }
                    line(b + ind, "thresholds:");
                    line(g, "- max_connections: 100");
                }
            }
            line(b, "load_assignment:");
            line(b + ind, "cluster_name: api");
            line(b + ind, "endpoints:");
            line(b + ind, "- lb_endpoints:");
            line(b + ind + 2, "- endpoint: {address: {socket_address: {address: api, port_value: 80}}}");
            t
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// RL601's Envoy cluster fix: one edit, nothing else changed, the file
    /// parses, and fixing again finds nothing (the budget is read back).
    #[test]
    fn the_envoy_budget_fix_keeps_the_file_and_is_idempotent(text in envoy_cluster()) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("envoy.yaml");
        std::fs::write(&path, &text).unwrap();
        let rl601 = |dir: &Path| {
            let settings = retrylint::config::Settings::default();
            let run = retrylint::pipeline::Pipeline::new(&settings)
                .run(&[dir.to_path_buf()])
                .expect("scan");
            let parsed = !run.report.findings.iter().any(|f| f.rule.code == "RL903");
            let found: Vec<Option<Fix>> = run
                .report
                .findings
                .iter()
                .filter(|f| f.rule.code == "RL601")
                .map(|f| f.fixes.first().cloned())
                .collect();
            (found, parsed)
        };
        let (found, parsed) = rl601(tmp.path());
        prop_assert!(parsed);
        prop_assert_eq!(found.len(), 1);
        // Every shape has a place for the budget: a DEFAULT entry (by
        // omission or by name, after a HIGH one), or none written yet.
        let fix = found[0].clone();
        prop_assert!(fix.is_some(), "no fix for\n{}", text);
        let fix = fix.unwrap();
        prop_assert_eq!(fix.edits.len(), 1);
        let fixed = outside_kept(&text, 0, &[&fix]).map_err(TestCaseError::fail)?;
        if text.contains("\r\n") {
            prop_assert_eq!(fixed.matches('\n').count(), fixed.matches("\r\n").count());
        }
        std::fs::write(&path, &fixed).unwrap();
        let (again, parsed) = rl601(tmp.path());
        prop_assert!(parsed, "{}", fixed);
        prop_assert!(again.is_empty(), "{:?}\n{}", again, fixed);
    }
}
