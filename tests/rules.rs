//! Every rule fixture: entries (files, or directories for path rules) under
//! `testdata/rules/RLnnn/err/` must make the rule fire, entries under `ok/`
//! must not; the exact output of each `err` fixture is a snapshot.

mod common;

use std::path::PathBuf;

fn fixtures() -> Vec<(String, String, PathBuf)> {
    let root = common::root().join("testdata/rules");
    let mut out = Vec::new();
    let mut codes: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    codes.sort();
    for code_dir in codes {
        let code = code_dir.file_name().unwrap().to_string_lossy().to_string();
        for kind in ["err", "ok"] {
            let Ok(entries) = std::fs::read_dir(code_dir.join(kind)) else {
                continue;
            };
            let mut entries: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
            entries.sort();
            for e in entries {
                out.push((code.clone(), kind.to_string(), e));
            }
        }
    }
    out
}

#[test]
fn rule_fixtures() {
    std::env::set_current_dir(common::root()).unwrap();
    let mut failures = Vec::new();
    for (code, kind, path) in fixtures() {
        let rel = path.strip_prefix(common::root()).unwrap().to_path_buf();
        let (scan, findings) = common::run(&rel, &[&code]);
        if !scan.notices.is_empty() {
            failures.push(format!("{}: notices {:?}", rel.display(), scan.notices));
        }
        let concise = common::concise(&scan, &findings);
        match kind.as_str() {
            "err" => {
                if findings.is_empty() {
                    failures.push(format!("{} must make {code} fire", rel.display()));
                    continue;
                }
                for f in &findings {
                    let m = &f.message;
                    if f.rule.code != code
                        || m.chars().next().is_some_and(char::is_uppercase)
                        || m.ends_with('.')
                        || !m.contains('`')
                        || m.matches('`').count() % 2 == 1
                        || f.help.is_empty()
                    {
                        failures.push(format!(
                            "{}: a message must be of {code}, start lowercase, have no trailing period, show the value in balanced backticks and come with a help: {m}",
                            rel.display()
                        ));
                    }
                }
                let pretty = common::pretty(&scan, &findings);
                let name = format!(
                    "{code}__{kind}__{}",
                    rel.file_name().unwrap().to_string_lossy()
                );
                insta::with_settings!({ input_file => &rel, omit_expression => true }, {
                    insta::assert_snapshot!(name, format!("{concise}\n{pretty}"));
                });
            }
            "ok" => {
                if !findings.is_empty() {
                    failures.push(format!(
                        "{} must not make {code} fire:\n{concise}",
                        rel.display()
                    ));
                }
            }
            _ => unreachable!(),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
