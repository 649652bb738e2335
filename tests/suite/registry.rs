//! The registry: every rule has a code, a doc with the required sections,
//! fixtures that fire and that do not in every format it names, and the
//! README table is generated from it.

use crate::common;

use retrylint::rules::RULES;
use std::collections::HashSet;

const SECTIONS: &[&str] = &[
    "What it does",
    "Why is this bad?",
    "Example",
    "Use instead",
    "Options",
    "References",
];

#[test]
fn codes_and_names_are_unique_and_well_formed() {
    let mut codes = HashSet::new();
    let mut names = HashSet::new();
    for r in RULES {
        assert!(codes.insert(r.code), "duplicate code {}", r.code);
        assert!(names.insert(r.name), "duplicate name {}", r.name);
        assert!(r.code.starts_with("RL") && r.code.len() == 5, "{}", r.code);
        assert!(
            r.name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{} is kebab-case",
            r.name
        );
        assert!(
            !r.summary.is_empty() && !r.summary.ends_with('.'),
            "{}: summary",
            r.code
        );
        assert!(!r.formats.is_empty(), "{}: names no format", r.code);
    }
    assert!(RULES.len() >= 9);
}

#[test]
fn every_rule_has_a_complete_doc() {
    for r in RULES {
        assert!(
            r.body().starts_with(&format!("# {} {}", r.code, r.name)),
            "{}: title",
            r.code
        );
        for s in SECTIONS {
            let text = r
                .section(s)
                .unwrap_or_else(|| panic!("{}: no `## {s}` section", r.code));
            assert!(!text.is_empty(), "{}: empty `## {s}`", r.code);
        }
        assert!(
            r.section("References").unwrap().contains("- "),
            "{}: references are a list",
            r.code
        );
    }
}

#[test]
fn every_rule_has_fixtures_in_every_format_it_names() {
    let root = common::root().join("testdata/rules");
    for r in RULES {
        for kind in ["err", "ok"] {
            let dir = root.join(r.code).join(kind);
            let entries: Vec<String> = std::fs::read_dir(&dir)
                .unwrap_or_else(|_| panic!("{}: no {}", r.code, dir.display()))
                .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
                .collect();
            for format in r.formats {
                assert!(
                    entries.iter().any(|e| e.starts_with(&format!("{format}-"))),
                    "{}: no {kind} fixture for format `{format}` (a file named `{format}-*` in {})",
                    r.code,
                    dir.display()
                );
            }
            for e in &entries {
                let prefix = e.split('-').next().unwrap();
                assert!(
                    r.formats.contains(&prefix),
                    "{}: fixture {e} is for a format the doc does not name",
                    r.code
                );
            }
        }
    }
    // No fixtures for a rule that does not exist.
    for e in std::fs::read_dir(&root).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().to_string();
        assert!(
            RULES.iter().any(|r| r.code == name),
            "testdata/rules/{name} belongs to no rule"
        );
    }
}

#[test]
fn readme_rules_table_is_generated_from_the_registry() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let start = readme
        .find("<!-- rules:start -->\n")
        .expect("README has <!-- rules:start -->")
        + "<!-- rules:start -->\n".len();
    let end = readme
        .find("<!-- rules:end -->")
        .expect("README has <!-- rules:end -->");
    let want = retrylint::cli::rules_listing(retrylint::cli::RulesFormat::Markdown);
    assert_eq!(
        &readme[start..end],
        want,
        "the README rules table is stale: replace it with `retrylint rules --format markdown`"
    );
}
