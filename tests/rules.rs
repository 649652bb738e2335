//! Every rule fixture: files under `testdata/rules/RLnnn/err/` must make
//! the rule fire, files under `ok/` must not; the exact output of each
//! `err` fixture is a snapshot.

mod common;

use std::path::Path;

fn code_and_kind(path: &Path) -> (String, String) {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    let i = parts
        .iter()
        .position(|p| p == "rules")
        .expect("under testdata/rules");
    (parts[i + 1].clone(), parts[i + 2].clone())
}

#[test]
fn rule_fixtures() {
    std::env::set_current_dir(common::root()).unwrap();
    insta::glob!("../testdata/rules", "RL*/*/*", |path| {
        let rel = path.strip_prefix(common::root()).unwrap();
        let (code, kind) = code_and_kind(rel);
        let (scan, findings) = common::run(rel, &[&code]);
        assert!(
            scan.notices.is_empty(),
            "{}: notices {:?}",
            rel.display(),
            scan.notices
        );
        let concise = common::concise(&scan, &findings);
        match kind.as_str() {
            "err" => {
                assert!(
                    !findings.is_empty(),
                    "{} must make {code} fire",
                    rel.display()
                );
                assert!(findings.iter().all(|f| f.rule.code == code));
                for f in &findings {
                    assert!(
                        f.message.chars().next().is_some_and(|c| !c.is_uppercase()),
                        "message starts lowercase: {}",
                        f.message
                    );
                    assert!(
                        !f.message.ends_with('.'),
                        "no trailing period: {}",
                        f.message
                    );
                    assert!(
                        f.message.contains('`'),
                        "the offending value in backticks: {}",
                        f.message
                    );
                    assert!(
                        !f.help.is_empty(),
                        "a help that names the fix: {}",
                        f.message
                    );
                }
                let pretty = common::pretty(&scan, &findings);
                insta::assert_snapshot!(format!("{concise}\n{pretty}"));
            }
            "ok" => assert!(
                findings.is_empty(),
                "{} must not make {code} fire:\n{concise}",
                rel.display()
            ),
            other => panic!("fixture folder must be err/ or ok/, not {other}"),
        }
    });
}
