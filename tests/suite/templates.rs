//! Templated and embedded configuration (issue 22): each folder of
//! `testdata/templates/` is scanned whole, as `retrylint check <folder>`
//! does, and its concise findings are a snapshot
//! (`tests/suite/snapshots/suite__templates__NAME.snap`); the folder's README works
//! each finding out by hand. No finding may be a warning or an error
//! about a template being a template: RL903 stays at `info`.

use crate::common;

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

/// A configuration file that does not parse in a folder of test inputs
/// (`testdata/`, `test/`) is most often a test's input: RL903 at `info`,
/// its help naming the folder; the same file elsewhere stays a warning.
/// Decided on the path relative to the scan root (this repository's own
/// `testdata/` above a scanned fixture does not count). Linkerd2
/// b24cd40's `cli/cmd/testdata/*.bad.input.yml` and ingress-nginx
/// dbb11b9's `test/data/cleanConf.src.conf` were warnings.
#[test]
fn a_broken_file_in_a_test_inputs_folder_is_info() {
    let tmp = tempfile::tempdir().unwrap();
    let yaml = std::fs::read_to_string(
        common::root().join("testdata/rules/RL903/err/yaml-broken-document.yaml"),
    )
    .unwrap();
    let conf = std::fs::read_to_string(
        common::root().join("testdata/rules/RL903/err/nginx-missing-semicolon.conf"),
    )
    .unwrap();
    for (path, text) in [
        ("cli/testdata/vs.bad.input.yml", &yaml),
        ("test/data/nginx.conf", &conf),
        ("k8s/vs.yaml", &yaml),
    ] {
        let p = tmp.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let out = assert_cmd::Command::cargo_bin("retrylint")
        .unwrap()
        .current_dir(tmp.path())
        .args(["check", "--no-cache", "--format", "json", "."])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rl903: Vec<(String, String, String)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "RL903")
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
                f["help"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let severity = |file: &str| {
        rl903
            .iter()
            .find(|(f, ..)| f == file)
            .map(|(_, s, h)| (s.as_str(), h.as_str()))
    };
    let (s, h) = severity("cli/testdata/vs.bad.input.yml").expect("testdata RL903");
    assert_eq!(s, "info");
    assert!(h.contains("the test folder `testdata/`"), "{h}");
    let (s, h) = severity("test/data/nginx.conf").expect("test/data RL903");
    assert_eq!(s, "info");
    assert!(h.contains("the test folder `test/`"), "{h}");
    let (s, h) = severity("k8s/vs.yaml").expect("k8s RL903");
    assert_eq!(s, "warning");
    assert!(!h.contains("test folder"), "{h}");
}
