//! Property tests of fixes on generated files: applying the safe fixes a
//! scan offers never changes a byte outside their edits, keeps the line
//! endings, gives a file that parses, and is idempotent (the re-scan offers
//! no safe fix any more).

mod common;

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
