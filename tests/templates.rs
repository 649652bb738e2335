//! Templated and embedded configuration (issue 22): each folder of
//! `testdata/templates/` is scanned whole, as `retrylint check <folder>`
//! does, and its concise findings are a snapshot
//! (`tests/snapshots/templates__NAME.snap`); the folder's README works
//! each finding out by hand. No finding may be a warning or an error
//! about a template being a template: RL903 stays at `info`.

mod common;

#[test]
fn every_folder_gives_the_findings_its_readme_works_out() {
    let dir = common::root().join("testdata/templates");
    let mut folders: Vec<_> = std::fs::read_dir(&dir)
        .expect("testdata/templates")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    assert!(!folders.is_empty());
    for folder in folders {
        let rel = folder.strip_prefix(common::root()).unwrap().to_path_buf();
        let name = rel.file_name().unwrap().to_string_lossy().to_string();
        assert!(folder.join("README.md").is_file(), "{name} has no README");
        let (scan, findings) = common::run(&rel, &[]);
        for f in &findings {
            if f.rule.code == "RL903" {
                assert_eq!(
                    f.severity.as_str(),
                    "info",
                    "{name}: RL903 above info: {}",
                    f.message
                );
            }
        }
        insta::assert_snapshot!(name, common::concise(&scan, &findings));
    }
}

/// A chart template named alone, outside any repository
/// (`retrylint check chart/templates/x.yaml`), is read with its chart's
/// values, as in a whole scan, and only its own findings are reported:
/// not one RL903 for a file read raw.
#[test]
fn a_chart_template_named_alone_renders_with_its_chart() {
    let tmp = tempfile::tempdir().unwrap();
    let chart = tmp.path().join("chart");
    std::fs::create_dir_all(chart.join("templates")).unwrap();
    let from = common::root().join("testdata/templates/helm-chart");
    for f in [
        "Chart.yaml",
        "values.yaml",
        "values-prod.yaml",
        "values-nightly.yaml",
    ] {
        std::fs::copy(from.join(f), chart.join(f)).unwrap();
    }
    for f in ["virtualservice.yaml", "_helpers.tpl"] {
        std::fs::copy(
            from.join("templates").join(f),
            chart.join("templates").join(f),
        )
        .unwrap();
    }
    let out = assert_cmd::Command::cargo_bin("retrylint")
        .unwrap()
        .current_dir(&chart)
        .args([
            "check",
            "--format",
            "concise",
            "templates/virtualservice.yaml",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("templates/virtualservice.yaml:19:7: RL206"),
        "{text}"
    );
    assert!(!text.contains("RL903"), "{text}");
    assert!(
        text.lines()
            .filter(|l| l.contains(": RL"))
            .all(|l| l.starts_with("templates/virtualservice.yaml:")),
        "{text}"
    );
}

/// Values variants rendering one template line: variants with the same
/// settings are one finding naming both, and a variant whose settings
/// differ is kept as a related location of the finding shown there (JSON,
/// as SARIF and the language server), not dropped; the count is quoted as
/// the template writes it, with the rendered value named.
#[test]
fn variants_at_one_template_line_are_one_finding_with_the_others_related() {
    let out = assert_cmd::Command::cargo_bin("retrylint")
        .unwrap()
        .current_dir(common::root())
        .args(["check", "--format", "json", "testdata/templates/helm-chart"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = json["findings"].as_array().unwrap();
    let at = |code: &str, line: u64| {
        findings
            .iter()
            .filter(|f| f["code"] == code && f["range"]["start"]["line"] == line)
            .collect::<Vec<_>>()
    };
    let rl206 = at("RL206", 19);
    assert_eq!(rl206.len(), 1, "{rl206:?}");
    let msg = rl206[0]["message"].as_str().unwrap();
    assert!(msg.contains("with `values-canary.yaml`"), "{msg}");
    assert!(
        msg.contains("(`attempts: {{ $.Values.retries.attempts | int }}`, rendered `attempts: 7`)"),
        "{msg}"
    );
    let related: Vec<&str> = rl206[0]["related"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["message"].as_str())
        .collect();
    assert!(
        related.iter().any(|m| m.starts_with(
            "also here: `orders/http[0]` with `values-prod.yaml`, `values-staging.yaml`"
        ) && m.contains("makes `6` attempts")),
        "{related:?}"
    );
    assert!(
        related
            .iter()
            .any(|m| m
                .starts_with("the same cause here: `payments/http[0]` with `values-canary.yaml`")),
        "{related:?}"
    );
    let rl301 = at("RL301", 20);
    assert_eq!(rl301.len(), 1, "{rl301:?}");
    assert!(
        rl301[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("`orders/http[0]` with `values-prod.yaml`, `values-staging.yaml` (Istio"),
        "{}",
        rl301[0]["message"]
    );
}
