//! Incident shapes (issue 28): each folder of `testdata/incidents/` is a
//! small reconstruction, written for this project, of the retry settings
//! behind a kind of published outage. Its `EXPECTED` file lists the
//! findings that must appear (`RL603 virtualservice.yaml`: that rule, in
//! a file whose path ends so) and those that must not (`not RL603
//! destinationrule.yaml`, or `not RL603 *` for the whole folder). The whole
//! pipeline runs with every rule, as `retrylint check <folder>` does.

use crate::common;

use std::path::PathBuf;

fn folders() -> Vec<PathBuf> {
    let dir = common::root().join("testdata/incidents");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testdata/incidents")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

#[test]
fn every_incident_shows_its_findings() {
    let folders = folders();
    assert!(folders.len() >= 6, "too few incident folders: {folders:?}");
    let mut failures = Vec::new();
    for dir in folders {
        let rel = dir.strip_prefix(common::root()).unwrap().to_path_buf();
        let expected = std::fs::read_to_string(dir.join("EXPECTED"))
            .unwrap_or_else(|_| panic!("{} has no EXPECTED file", rel.display()));
        let (scan, findings) = common::run(&rel, &[]);
        let lines: Vec<(String, String)> = findings
            .iter()
            .map(|f| {
                let path = scan.files[f.file]
                    .source
                    .path
                    .to_string_lossy()
                    .replace('\\', "/");
                (f.rule.code.to_string(), path)
            })
            .collect();
        let concise = common::concise(&scan, &findings);
        let mut wanted = 0;
        for line in expected.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (negated, rest) = match line.strip_prefix("not ") {
                Some(r) => (true, r),
                None => (false, line),
            };
            let (code, file) = rest.split_once(' ').unwrap_or((rest, "*"));
            let file = file.trim();
            let hit = lines
                .iter()
                .any(|(c, p)| c == code && (file == "*" || p.ends_with(file)));
            if !negated {
                wanted += 1;
            }
            if hit == negated {
                failures.push(format!(
                    "{}: {} {code} in {file}; findings:\n{concise}",
                    rel.display(),
                    if negated { "unexpected" } else { "missing" },
                ));
            }
        }
        assert!(wanted > 0, "{}: EXPECTED names no finding", rel.display());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The serverless incident's Knative Service is read: a service node with
/// its hosts, the revision's 60 s timeout, and the ingress's single attempt.
#[test]
fn the_knative_service_is_read_with_its_timeout_and_no_ingress_retries() {
    use retrylint::model::{AttemptCount, System, Timeout};
    use std::time::Duration;
    let rel = std::path::Path::new("testdata/incidents/serverless-behind-three-retry-layers");
    let (scan, _) = common::run(rel, &[]);
    let facts: Vec<_> = scan.files.iter().map(|f| &f.facts).collect();
    assert!(facts.iter().any(|f| {
        f.timeouts.iter().any(|t| {
            t.system == System::Knative
                && t.timeout.value == Timeout::after(Duration::from_secs(60))
        })
    }));
    assert!(facts.iter().any(|f| f.services.iter().any(|s| {
        s.name == "thumbnailer"
            && s.hosts
                .contains(&"thumbnailer.media.svc.cluster.local".to_string())
    })));
    let ingress: Vec<_> = facts
        .iter()
        .flat_map(|f| &f.policies)
        .filter(|p| p.system == System::Knative)
        .collect();
    assert_eq!(ingress.len(), 1);
    assert_eq!(ingress[0].attempts.value.count, AttemptCount::Finite(1));
}

/// The summary names the languages whose files were read and gave nothing
/// (issue 28: `1 read` hid that a Java or Python file gave no loop).
#[test]
fn the_summary_names_languages_that_gave_nothing() {
    let (scan, findings) = common::run(std::path::Path::new("testdata/summary/nothing-found"), &[]);
    let line = retrylint::render::summary(&scan, &findings);
    assert!(
        line.contains("2 read (nothing found in java 1, python 1)"),
        "{line}"
    );
}
