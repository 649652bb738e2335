//! The outputs and integrations: SARIF (validated against the OASIS
//! schema in ../shared), GitHub workflow commands (escaping proven with
//! hostile input), Markdown, several formats in one run and `--output`.

use crate::common;

use assert_cmd::Command;
use retrylint::rules::RULES;
use serde_json::Value;
use std::path::Path;

fn cmd(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("retrylint").unwrap();
    c.current_dir(dir).env_remove("NO_COLOR");
    c
}

fn run(c: &mut Command) -> (i32, String, String) {
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The SARIF schema from `../shared/schemas` (or `$RETRYLINT_SHARED`);
/// a test that calls this is `#[ignore]`d with the reason, and CI runs it
/// with `--include-ignored`, where a missing schema fails it.
fn sarif_validator() -> jsonschema::Validator {
    if let Some(why) = common::needs::Need::SarifSchema.missing() {
        panic!("{why}");
    }
    let path = common::needs::sarif_schema_path();
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).expect("the SARIF schema compiles")
}

fn assert_valid(validator: &jsonschema::Validator, doc: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .take(20)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

fn sarif_of(dir: &Path, args: &[&str]) -> Value {
    let mut a = vec!["check", "--no-config", "--format", "sarif"];
    a.extend_from_slice(args);
    let (code, out, err) = run(cmd(dir).args(&a));
    assert!(code == 0 || code == 1, "{err}");
    serde_json::from_str(&out).expect("SARIF is JSON")
}

#[test]
fn sarif_carries_every_rule_and_validates() {
    let root = common::root();
    let doc = sarif_of(&root, &["testdata"]);
    let run0 = &doc["runs"][0];
    assert_eq!(doc["version"], "2.1.0");
    assert_eq!(run0["columnKind"], "unicodeCodePoints");
    let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), RULES.len());
    for (r, d) in RULES.iter().zip(rules) {
        assert_eq!(d["id"], r.code);
        assert_eq!(d["name"], r.name);
        assert_eq!(d["shortDescription"]["text"], r.summary);
        assert_eq!(
            d["fullDescription"]["text"],
            r.section("What it does").unwrap()
        );
        assert!(
            d["help"]["markdown"]
                .as_str()
                .unwrap()
                .contains("## Why is this bad?")
        );
        assert!(!d["help"]["text"].as_str().unwrap().is_empty());
        assert_eq!(d["helpUri"], r.help_uri());
        let level = match r.severity.as_str() {
            "info" => "note",
            s => s,
        };
        assert_eq!(d["defaultConfiguration"]["level"], level);
    }
    // Paths are relative to %SRCROOT%, which is a directory URI.
    let base = run0["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );
    let results = run0["results"].as_array().unwrap();
    assert!(results.len() > 20);
    for r in results {
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
        assert!(uri.starts_with("testdata/"), "{uri}");
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(loc["region"]["startColumn"].as_u64().unwrap() >= 1);
        assert!(
            r["partialFingerprints"]["retrylint/v1"]
                .as_str()
                .is_some_and(|p| p.len() == 16)
        );
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
    }
    // Every related location of the JSON output is a relatedLocation.
    let (_, json, _) =
        run(cmd(&root).args(["check", "--no-config", "--format", "json", "testdata"]));
    let json: Value = serde_json::from_str(&json).unwrap();
    let related_json: usize = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["related"].as_array().unwrap().len())
        .sum();
    let related_sarif: usize = results
        .iter()
        .filter(|r| r.get("suppressions").is_none())
        .map(|r| r["relatedLocations"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(related_json > 0);
    assert_eq!(related_json, related_sarif);
}

#[test]
#[ignore = "needs ../shared/schemas/sarif-schema-2.1.0.json (or RETRYLINT_SHARED); CI runs it with --include-ignored"]
fn sarif_of_the_fixtures_validates_against_the_schema() {
    let doc = sarif_of(&common::root(), &["testdata"]);
    let v = sarif_validator();
    assert_valid(&v, &doc);
    // The validator does reject a broken log.
    let mut broken = doc.clone();
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!v.is_valid(&broken));
}

#[test]
#[ignore = "needs ../shared (corpus, schemas) or RETRYLINT_SHARED; CI runs it with --include-ignored"]
fn sarif_of_the_shared_corpus_validates() {
    let validator = sarif_validator();
    let corpus = common::shared_dir().join("corpus");
    let doc = sarif_of(&common::root(), &[corpus.to_str().unwrap()]);
    assert_valid(&validator, &doc);
    assert!(!doc["runs"][0]["results"].as_array().unwrap().is_empty());
}

#[test]
fn sarif_fingerprints_survive_lines_inserted_above() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = std::fs::read_to_string(
        common::root().join("testdata/rules/RL203/err/resilience4j-fixed-delay.yml"),
    )
    .unwrap();
    std::fs::write(dir.path().join("application.yml"), &fixture).unwrap();
    let prints = |doc: &Value| -> Vec<(String, u64)> {
        doc["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["partialFingerprints"]["retrylint/v1"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                    r["locations"][0]["physicalLocation"]["region"]["startLine"]
                        .as_u64()
                        .unwrap(),
                )
            })
            .collect()
    };
    let before = prints(&sarif_of(dir.path(), &["."]));
    std::fs::write(
        dir.path().join("application.yml"),
        format!("# a comment\n\n# another\n{fixture}"),
    )
    .unwrap();
    let after = prints(&sarif_of(dir.path(), &["."]));
    assert!(!before.is_empty());
    assert_eq!(before.len(), after.len());
    for ((p1, l1), (p2, l2)) in before.iter().zip(&after) {
        assert_eq!(p1, p2, "fingerprint changed");
        assert_eq!(l1 + 3, *l2, "the line moved");
    }
}

/// The SARIF log of a file with one finding suppressed in the source.
fn suppressed_sarif() -> Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("application.yml"),
        "resilience4j.retry:\n  instances:\n    a:\n      maxAttempts: 3\n      waitDuration: 1s # retrylint: ignore[RL203] serialised downstream\n",
    )
    .unwrap();
    sarif_of(dir.path(), &["."])
}

#[test]
fn suppressed_findings_are_listed_as_suppressions_in_sarif() {
    let doc = suppressed_sarif();
    let results = doc["runs"][0]["results"].as_array().unwrap();
    let s = results
        .iter()
        .find(|r| r.get("suppressions").is_some())
        .expect("a suppressed result");
    assert_eq!(s["suppressions"][0]["kind"], "inSource");
    assert_eq!(
        s["suppressions"][0]["justification"],
        "serialised downstream"
    );
}

#[test]
#[ignore = "needs ../shared/schemas/sarif-schema-2.1.0.json (or RETRYLINT_SHARED); CI runs it with --include-ignored"]
fn suppressed_findings_in_sarif_validate_against_the_schema() {
    assert_valid(&sarif_validator(), &suppressed_sarif());
}

/// Hostile names and values: newlines, `::`, `%0A`, `,` and `:` in the
/// file name. Each finding must stay exactly one command whose properties
/// hold no raw separator.
#[test]
fn github_commands_neutralise_injection() {
    let dir = tempfile::tempdir().unwrap();
    let name = "we,ird:na%0Ame.yml";
    std::fs::write(
        dir.path().join(name),
        "resilience4j:\n  retry:\n    instances:\n      \"pay::error file=evil.yml,line=1::injected\\n::warning::two%0Athree\\r\\n::error::x\":\n        maxAttempts: 3\n        \"wait\\n::error file=x::y%0A\": 1s\n",
    )
    .unwrap();
    let (code, out, err) =
        run(cmd(dir.path()).args(["check", "--no-config", "--format", "github", "."]));
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 2, "{out}");
    for line in &lines {
        let (command, rest) = line
            .strip_prefix("::")
            .and_then(|l| l.split_once(' '))
            .unwrap_or_else(|| panic!("not a workflow command: {line}"));
        assert!(["error", "warning", "notice"].contains(&command), "{line}");
        // The first `::` ends the properties: none may hide inside them.
        let (props, message) = rest.split_once("::").unwrap();
        for prop in props.split(',') {
            let (k, v) = prop
                .split_once('=')
                .unwrap_or_else(|| panic!("{prop} in {line}"));
            assert!(
                ["file", "line", "endLine", "col", "endColumn", "title"].contains(&k),
                "{k} in {line}"
            );
            assert!(!v.contains(':') && !v.contains(','), "{v}");
        }
        assert!(
            props.starts_with("file=we%2Cird%3Ana%250Ame.yml,"),
            "{props}"
        );
        assert!(!message.contains('\r'));
        // A literal `%0A` in the input is shown, not decoded into a newline.
        assert!(
            !message.contains("%0A::") || message.contains("%250A"),
            "{message}"
        );
    }
    assert!(out.contains("%250A"), "the literal %0A is escaped: {out}");
    assert!(
        out.contains("injected%0A::warning"),
        "a real newline is escaped: {out}"
    );
    // Decoding gives back the text, as the runner does.
    let decode = |s: &str| {
        s.replace("%0A", "\n")
            .replace("%0D", "\r")
            .replace("%3A", ":")
            .replace("%2C", ",")
            .replace("%25", "%")
    };
    assert!(decode(lines[0]).contains("we,ird:na%0Ame.yml"));
}

#[test]
fn several_formats_in_one_run_and_output_files() {
    let dir = tempfile::tempdir().unwrap();
    let target = common::root().join("testdata/rules/RL203/err");
    let t = target.to_str().unwrap();
    let sarif = dir.path().join("out.sarif");
    let json = dir.path().join("out.json");
    let md = dir.path().join("summary.md");
    let (code, out, err) = run(cmd(&common::root()).args([
        "check",
        "--no-config",
        "--select",
        "RL203",
        "--format",
        "concise",
        "--format",
        &format!("sarif={}", sarif.display()),
        "--format",
        &format!("json={}", json.display()),
        "--format",
        &format!("markdown={}", md.display()),
        t,
    ]));
    assert_eq!(code, 1, "{err}");
    // Every format gets the same findings, however many fixtures there are.
    let n = out.lines().count();
    assert!(n >= 3, "concise on stdout: {out}");
    // SARIF and JSON give one result per cause in a file and count its
    // places; the concise output has a line per place.
    let s: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    let results = s["runs"][0]["results"].as_array().unwrap();
    let places = |v: &[Value], at: &dyn Fn(&Value) -> &Value| -> u64 {
        v.iter().map(|r| at(r).as_u64().unwrap()).sum()
    };
    assert_eq!(places(results, &|r| &r["properties"]["places"]), n as u64);
    let j: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let entries = j["findings"].as_array().unwrap();
    assert_eq!(entries.len(), results.len());
    assert_eq!(places(entries, &|f| &f["places"]), n as u64);
    assert_eq!(j["summary"]["findings"].as_u64().unwrap(), n as u64);
    let m = std::fs::read_to_string(&md).unwrap();
    assert!(
        m.starts_with("## retrylint") && m.contains("| RL203 |"),
        "{m}"
    );

    // --output takes the format without a file.
    let o = dir.path().join("o.json");
    let (code, out, _) = run(cmd(&common::root()).args([
        "check",
        "--no-config",
        "--select",
        "RL203",
        "--format",
        "json",
        "--output",
        o.to_str().unwrap(),
        t,
    ]));
    assert_eq!(code, 1);
    assert!(out.is_empty());
    let j: Value = serde_json::from_str(&std::fs::read_to_string(&o).unwrap()).unwrap();
    assert_eq!(j["findings"].as_array().unwrap().len(), entries.len());

    // Two formats cannot share stdout; a bad name or `name=` is a usage error.
    for args in [
        vec!["--format", "json", "--format", "sarif"],
        vec!["--format", "yaml"],
        vec!["--format", "sarif="],
    ] {
        let mut a = vec!["check", "--no-config"];
        a.extend(args.iter().copied());
        a.push(t);
        let (code, _, err) = run(cmd(&common::root()).args(&a));
        assert_eq!(code, 2, "{args:?}: {err}");
    }
    let (_, _, err) = run(cmd(&common::root()).args([
        "check",
        "--no-config",
        "--format",
        "json",
        "--format",
        "sarif",
        t,
    ]));
    assert!(err.contains("give all but one a file"), "{err}");
}

#[test]
fn markdown_summary_escapes_table_cells() {
    assert_eq!(
        retrylint::render::markdown::cell("a|b\n<script>"),
        "a\\|b &lt;script&gt;"
    );
    let (code, out, _) = run(cmd(&common::root()).args([
        "check",
        "--no-config",
        "--select",
        "RL203",
        "--format",
        "markdown",
        "testdata/rules/RL203/ok",
    ]));
    assert_eq!(code, 0);
    assert!(out.contains("No findings"), "{out}");
}

/// A repository `b` (a `.git` directory, a service with findings) and a
/// working directory `a` beside it; the SARIF log of `b/svc` run from `a`.
fn sarif_of_another_tree() -> (tempfile::TempDir, Value) {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(b.join(".git")).unwrap();
    std::fs::create_dir_all(b.join("svc")).unwrap();
    std::fs::copy(
        common::root().join("testdata/rules/RL203/err/resilience4j-fixed-delay.yml"),
        b.join("svc/application.yml"),
    )
    .unwrap();
    let doc = sarif_of(&a, &["--sarif-category", "retrylint/b", "../b/svc"]);
    (dir, doc)
}

/// Every `artifactLocation` in a SARIF log.
fn artifact_locations(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "artifactLocation" {
                    out.push(x.clone());
                }
                artifact_locations(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| artifact_locations(x, out)),
        _ => {}
    }
}

#[test]
fn sarif_of_another_tree_is_relative_to_its_repository_root() {
    let (dir, doc) = sarif_of_another_tree();
    let run0 = &doc["runs"][0];
    let b = dir.path().join("b");
    let base = run0["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert_eq!(
        base,
        format!("file://{}/", b.display()),
        "the repository root of the scanned tree, not the working directory"
    );
    let mut locations = Vec::new();
    artifact_locations(run0, &mut locations);
    assert!(!locations.is_empty());
    for l in &locations {
        assert_eq!(l["uriBaseId"], "%SRCROOT%", "{l}");
        assert_eq!(l["uri"], "svc/application.yml", "{l}");
    }
    assert_eq!(run0["automationDetails"]["id"], "retrylint/b/");
    let inv = &run0["invocations"][0];
    assert_eq!(inv["exitCode"], 1, "findings at the default --fail-on");
    assert_eq!(inv["executionSuccessful"], true);
    // Without findings: exit code 0.
    let doc = sarif_of(&dir.path().join("a"), &["--fail-on", "never", "../b"]);
    assert_eq!(doc["runs"][0]["invocations"][0]["exitCode"], 0);
    assert!(doc["runs"][0].get("automationDetails").is_none());
}

#[test]
#[ignore = "needs ../shared/schemas/sarif-schema-2.1.0.json (or RETRYLINT_SHARED); CI runs it with --include-ignored"]
fn sarif_with_category_and_exit_code_validates_against_the_schema() {
    let (_dir, doc) = sarif_of_another_tree();
    assert_valid(&sarif_validator(), &doc);
}

/// What GitHub code scanning documents for uploaded SARIF ("SARIF support
/// for code scanning", docs.github.com/en/code-security/reference/
/// code-scanning/sarif-files/sarif-support-for-code-scanning, and the hard
/// limits of docs.github.com/code-security/code-scanning/
/// troubleshooting-sarif/results-exceed-limit): rule ids of at most 255
/// characters, each result's
/// `ruleId` naming a rule, a message text, string `partialFingerprints`,
/// `automationDetails.id` as `category/run-id` (everything before the last
/// `/` is the category), URIs relative to the checkout, and the limits per
/// run (20 runs, 25,000 results and rules, 20 tags per rule, 1,000
/// locations per result).
#[test]
fn sarif_follows_githubs_documented_upload_rules() {
    let root = common::root();
    let doc = sarif_of(&root, &["--sarif-category", "retrylint", "testdata"]);
    assert_eq!(doc["version"], "2.1.0");
    let runs = doc["runs"].as_array().unwrap();
    assert!(!runs.is_empty() && runs.len() <= 20);
    let run0 = &runs[0];
    let id = run0["automationDetails"]["id"].as_str().unwrap();
    let (category, _run_id) = id.rsplit_once('/').unwrap();
    assert_eq!(category, "retrylint");
    let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules.len() <= 25_000);
    let mut ids = std::collections::BTreeSet::new();
    for r in rules {
        let id = r["id"].as_str().unwrap();
        assert!(!id.is_empty() && id.len() <= 255, "{id}");
        assert!(ids.insert(id), "rule ids are unique: {id}");
        assert!(r["name"].as_str().unwrap().len() <= 255);
        assert!(r["properties"]["tags"].as_array().unwrap().len() <= 20);
        assert!(!r["shortDescription"]["text"].as_str().unwrap().is_empty());
    }
    let results = run0["results"].as_array().unwrap();
    assert!(!results.is_empty() && results.len() <= 25_000);
    for res in results {
        let rule = res["ruleId"].as_str().unwrap();
        assert!(ids.contains(rule), "{rule}");
        assert!(!res["message"]["text"].as_str().unwrap().is_empty());
        let locations = res["locations"].as_array().unwrap();
        assert!(!locations.is_empty() && locations.len() <= 1000);
        let prints = res["partialFingerprints"].as_object().unwrap();
        assert!(prints.values().all(Value::is_string), "{prints:?}");
    }
    let mut locations = Vec::new();
    artifact_locations(run0, &mut locations);
    for l in locations {
        let uri = l["uri"].as_str().unwrap();
        assert_eq!(l["uriBaseId"], "%SRCROOT%", "{l}");
        assert!(
            !uri.contains("://") && !uri.starts_with('/') && !uri.starts_with(".."),
            "{uri}"
        );
    }
}

/// The SARIF log of the nested tree (`testdata/nested`: three
/// configuration files), each file checked with its nearest one.
fn sarif_of_the_nested_tree() -> Value {
    let (code, out, err) = run(cmd(&common::root()).args([
        "check",
        "--no-cache",
        "--format",
        "sarif",
        "testdata/nested",
    ]));
    assert_eq!(code, 1, "{err}");
    serde_json::from_str(&out).expect("SARIF is JSON")
}

#[test]
fn sarif_names_the_configuration_files_used() {
    let doc = sarif_of_the_nested_tree();
    let run0 = &doc["runs"][0];
    let expected = [
        "testdata/nested/.retrylint.toml",
        "testdata/nested/projects/payments/.retrylint.toml",
        "testdata/nested/projects/payments/reports/.retrylint.toml",
    ];
    assert_eq!(
        run0["invocations"][0]["properties"]["configurationFiles"],
        serde_json::json!(expected)
    );
    let artifacts = run0["artifacts"].as_array().unwrap();
    assert_eq!(artifacts.len(), 3);
    for (a, uri) in artifacts.iter().zip(expected) {
        assert_eq!(a["location"]["uri"], uri, "{a}");
        assert_eq!(a["location"]["uriBaseId"], "%SRCROOT%", "{a}");
        assert_eq!(
            a["roles"],
            serde_json::json!(["userSpecifiedConfiguration"])
        );
    }
    // Without a configuration file: none named, no artifacts.
    let doc = sarif_of(&common::root(), &["testdata/rules/RL203/err"]);
    let run0 = &doc["runs"][0];
    assert_eq!(
        run0["invocations"][0]["properties"]["configurationFiles"],
        serde_json::json!([])
    );
    assert!(run0.get("artifacts").is_none());
}

#[test]
#[ignore = "needs ../shared/schemas/sarif-schema-2.1.0.json (or RETRYLINT_SHARED); CI runs it with --include-ignored"]
fn sarif_naming_configuration_files_validates_against_the_schema() {
    assert_valid(&sarif_validator(), &sarif_of_the_nested_tree());
}

#[test]
fn json_says_why_a_loop_is_a_retry_and_how_it_is_bounded() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (_, json, _) = run(cmd(root).args([
        "check",
        "--no-config",
        "--format",
        "json",
        "testdata/rules/RL206/err/java-countdown-tested-before-decrement.java",
        "testdata/rules/RL205/err/rust-loop-forever.rs",
    ]));
    let json: Value = serde_json::from_str(&json).unwrap();
    let findings = json["findings"].as_array().unwrap();
    let reasons = |code: &str| -> Vec<String> {
        findings
            .iter()
            .find(|f| f["code"] == code)
            .and_then(|f| f["reasons"].as_array())
            .map(|r| r.iter().map(|x| x.as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    };
    let java = reasons("RL206");
    assert!(
        java.iter()
            .any(|r| r.contains("`ConnectionException` goes round again")),
        "{java:?}"
    );
    assert!(
        java.iter()
            .any(|r| r == "bound: `retry <= 0` (11 attempts)"),
        "{java:?}"
    );
    let rust = reasons("RL205");
    assert!(
        rust.iter().any(|r| r.contains("success leaves the loop")),
        "{rust:?}"
    );
    assert!(rust.iter().any(|r| r.starts_with("bound: ")), "{rust:?}");
}

/// `--format json` and `--format sarif` carry each finding's fixes, and
/// they are the edits `check --fix` makes: applied to the file as read,
/// the JSON's edits give the fixture's `after/` text byte for byte, and
/// SARIF names the same regions and texts.
#[test]
fn json_and_sarif_carry_the_fixes_check_fix_makes() {
    // A sibling added, list entries taken out (several edits, one unsafe
    // because a series covers 429 too), a count lowered in JSON.
    for (case, name, code, applicability) in [
        (
            "RL203/resilience4j-yaml-kebab",
            "application.yml",
            "RL203",
            "safe",
        ),
        (
            "RL101/istio-retry-on",
            "virtual-service.yaml",
            "RL101",
            "safe",
        ),
        (
            "RL101/springcloudgateway-series",
            "application.yml",
            "RL101",
            "unsafe",
        ),
        ("RL205/dotnet-json", "appsettings.json", "RL205", "unsafe"),
    ] {
        carries_fixes(case, name, code, applicability);
    }
}

fn carries_fixes(case: &str, name: &str, code: &str, applicability: &str) {
    let case = common::root().join("testdata/fixes").join(case);
    let before = std::fs::read_to_string(case.join("before").join(name)).unwrap();
    let after = std::fs::read_to_string(case.join("after").join(name)).unwrap();
    let dir = case.join("before");
    let (_, json, _) = run(cmd(&dir).args([
        "check",
        "--no-config",
        "--no-cache",
        "--format",
        "json",
        ".",
    ]));
    let json: Value = serde_json::from_str(&json).unwrap();
    let at = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .position(|f| f["code"] == code)
        .expect("a finding of the fixture's rule");
    let finding = &json["findings"][at];
    let fix = &finding["fixes"][0];
    assert_eq!(fix["applicability"], applicability, "{fix}");
    let mut edits: Vec<(usize, usize, String)> = fix["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            assert_eq!(e["file"], name);
            (
                e["span"]["start"].as_u64().unwrap() as usize,
                e["span"]["end"].as_u64().unwrap() as usize,
                e["replacement"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    edits.sort();
    let mut text = before.clone();
    for (start, end, with) in edits.iter().rev() {
        text.replace_range(start..end, with);
    }
    assert_eq!(text, after, "the JSON's edits are not --fix's");
    let sarif = sarif_of(&dir, &["--no-cache", "."]);
    let result = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == code)
        .expect("a result of the fixture's rule");
    let change = &result["fixes"][0]["artifactChanges"][0];
    let uri = change["artifactLocation"]["uri"].as_str().unwrap();
    assert!(uri.ends_with(&format!("/before/{name}")), "{uri}");
    let replaced: Vec<(usize, usize, String)> = change["replacements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let start = r["deletedRegion"]["byteOffset"].as_u64().unwrap() as usize;
            let len = r["deletedRegion"]["byteLength"].as_u64().unwrap() as usize;
            (
                start,
                start + len,
                r["insertedContent"]["text"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(replaced, edits);
    assert_eq!(
        result["fixes"][0]["properties"]["applicability"],
        applicability
    );
    // The JSON schema (docs/json-output.schema.json) accepts them.
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(common::root().join("docs/json-output.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(&json));
    let mut broken = json.clone();
    broken["findings"][at]["fixes"][0]["applicability"] = "maybe".into();
    assert!(!validator.is_valid(&broken));
}

/// One cause on three routes of one file (a Linkerd profile missing its
/// timeout) is one JSON entry and one SARIF result, the other routes their
/// related locations with their own messages and fingerprints.
#[test]
fn json_and_sarif_give_one_result_per_cause_with_its_places_related() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = "testdata/rules/RL304/err/linkerd-routes-without-timeout.yaml";
    let args = ["check", "--no-config", "--select", "RL304"];
    let (_, json, _) = run(cmd(root).args(args).args(["--format", "json", fixture]));
    let json: Value = serde_json::from_str(&json).unwrap();
    let entries = json["findings"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{json:#}");
    assert_eq!(entries[0]["places"], 3);
    assert_eq!(json["summary"]["findings"], 3);
    let same: Vec<&Value> = entries[0]["related"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["message"]
                .as_str()
                .unwrap()
                .starts_with("the same cause here: ")
        })
        .collect();
    assert_eq!(same.len(), 2);
    let lines: Vec<u64> = same
        .iter()
        .map(|r| r["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [21, 26]);
    assert!(
        same[0]["message"]
            .as_str()
            .unwrap()
            .contains("GET /books/{id}")
    );
    assert!(
        same.iter()
            .all(|r| r["fingerprint"].as_str().unwrap().len() == 16)
    );
    let sarif = sarif_of(root, &["--select", "RL304", fixture]);
    assert_valid(&sarif_validator(), &sarif);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["properties"]["places"], 3);
    let related = results[0]["relatedLocations"].as_array().unwrap();
    let same: Vec<&Value> = related
        .iter()
        .filter(|r| {
            r["message"]["text"]
                .as_str()
                .unwrap()
                .starts_with("the same cause here: ")
        })
        .collect();
    assert_eq!(same.len(), 2);
    assert_eq!(
        same[1]["physicalLocation"]["region"]["startLine"].as_u64(),
        Some(26)
    );
}
