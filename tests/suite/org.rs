//! Several repositories joined (issue 23, item 5): `retrylint facts` per
//! repository, `retrylint audit --facts` over them. The three small
//! repositories of `testdata/org/` call each other (web -> gateway in
//! `storefront`, orders -> payments in `orders`, payments -> database in
//! `payments`, each hop behind Istio with 2 retries): alone none exceeds
//! the amplification threshold; joined, the path is 81 attempts and each
//! hop is shown in its repository.

use crate::common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

const REPOS: [&str; 3] = ["storefront", "orders", "payments"];

fn bin(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("retrylint").unwrap();
    c.current_dir(dir);
    c
}

/// The three repositories copied into a temporary folder (out of this
/// checkout, so that each is its own repository root), each with its
/// facts file written beside it.
fn org() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for r in REPOS {
        let from = common::root().join("testdata/org").join(r);
        let to = tmp.path().join(r);
        std::fs::create_dir_all(&to).unwrap();
        for e in std::fs::read_dir(&from).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
        let o = bin(&to)
            .args(["facts", "--no-cache", "--no-config", "--out"])
            .arg(format!("../{r}.facts.json"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    tmp
}

fn report(dir: &Path, args: &[&str]) -> Value {
    let o = bin(dir)
        .args(["audit", "--no-cache", "--no-config", "-q", "--out", "rep"])
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&std::fs::read_to_string(dir.join("rep/report.json")).unwrap()).unwrap()
}

/// The RL401 findings of a report.json: (message, files of its hops).
fn amplification(report: &Value) -> Vec<(String, Vec<String>)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["code"] == "RL401")
        .flat_map(|g| g["findings"].as_array().unwrap().iter())
        .map(|f| {
            let mut files = vec![f["source"]["file"].as_str().unwrap().to_string()];
            for r in f["related"].as_array().unwrap() {
                files.push(r["source"]["file"].as_str().unwrap().to_string());
            }
            (f["message"].as_str().unwrap().to_string(), files)
        })
        .collect()
}

#[test]
fn each_repository_alone_shows_no_amplification() {
    let tmp = org();
    for r in REPOS {
        let rep = report(&tmp.path().join(r), &["."]);
        assert!(
            amplification(&rep).is_empty(),
            "{r}: {:?}",
            amplification(&rep)
        );
        let rep = report(tmp.path(), &["--facts", &format!("{r}.facts.json")]);
        assert!(amplification(&rep).is_empty(), "{r} from its facts");
    }
}

#[test]
fn joined_the_cross_repository_path_is_found_with_the_repository_of_each_hop() {
    let tmp = org();
    let facts: Vec<String> = REPOS.iter().map(|r| format!("{r}.facts.json")).collect();
    let mut args = vec!["--facts"];
    args.extend(facts.iter().map(String::as_str));
    let rep = report(tmp.path(), &args);
    let found = amplification(&rep);
    assert_eq!(found.len(), 1, "{found:?}");
    let (message, files) = &found[0];
    assert!(message.contains("`81` attempts at `database`"), "{message}");
    for r in REPOS {
        assert!(
            files.iter().any(|f| f == &format!("{r}/k8s.yaml")),
            "no hop in {r}: {files:?}"
        );
    }
    let roots: Vec<&str> = rep["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(roots, REPOS, "the roots are the repositories");
    // Facts files and a local tree mix: the payments repository read
    // from its folder meets the other two's facts.
    let rep = report(
        tmp.path(),
        &[
            "--facts",
            "storefront.facts.json",
            "orders.facts.json",
            "--",
            "payments",
        ],
    );
    let found = amplification(&rep);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].1.iter().any(|f| f == "payments/k8s.yaml"),
        "{found:?}"
    );
}

#[test]
fn facts_files_validate_against_the_schema() {
    let tmp = org();
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(common::root().join("docs/facts.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    for r in REPOS {
        let doc: Value = serde_json::from_str(
            &std::fs::read_to_string(tmp.path().join(format!("{r}.facts.json"))).unwrap(),
        )
        .unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{r}: {errors:?}");
        assert_eq!(doc["repository"]["name"], r);
        assert!(!doc["files"].as_array().unwrap().is_empty());
        // The schema does reject what the reader refuses.
        let mut broken = doc.clone();
        broken["files"][0]["path"] = "/etc/passwd".into();
        assert!(!validator.is_valid(&broken));
        let mut broken = doc.clone();
        broken["retrylint_facts"] = 2.into();
        assert!(!validator.is_valid(&broken));
    }
}

#[test]
fn a_bad_facts_file_is_refused_with_its_name() {
    let tmp = org();
    let good: Value = serde_json::from_str(
        &std::fs::read_to_string(tmp.path().join("orders.facts.json")).unwrap(),
    )
    .unwrap();
    type Spoil = Box<dyn Fn(&mut Value)>;
    let cases: [(&str, Spoil, &str); 3] = [
        (
            "newer.json",
            Box::new(|v: &mut Value| v["retrylint_facts"] = 7.into()),
            "facts format version 7; this retrylint reads version 1",
        ),
        (
            "escape.json",
            Box::new(|v: &mut Value| v["files"][0]["path"] = "../../etc/x.yaml".into()),
            "is not relative to the repository",
        ),
        (
            "span.json",
            Box::new(|v: &mut Value| v["files"][0]["text"] = "short".into()),
            "is outside the file's text",
        ),
    ];
    for (name, spoil, want) in cases {
        let mut v = good.clone();
        spoil(&mut v);
        std::fs::write(tmp.path().join(name), v.to_string()).unwrap();
        let o = bin(tmp.path())
            .args([
                "audit",
                "--no-cache",
                "--no-config",
                "-q",
                "--out",
                "rep",
                "--facts",
                name,
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(name) && err.contains(want), "{name}: {err}");
    }
}

/// A repository read through its facts file gives the same graph and
/// findings as read directly: the join keeps what each file was read as
/// (the graph asks whether a file is program source that reads a
/// variable handed over with `envFrom`; bank-of-anthos gave three extra
/// edges when imported files lost their syntax).
#[test]
fn a_repository_joined_from_its_facts_is_the_repository_read_directly() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("shop");
    let from = common::root().join("testdata/graph/envfrom-code-reads");
    let copy = std::process::Command::new("cp")
        .arg("-r")
        .arg(&from)
        .arg(&repo)
        .status()
        .unwrap();
    assert!(copy.success());
    let o = bin(&repo)
        .args([
            "facts",
            "--no-cache",
            "--no-config",
            "--out",
            "../shop.facts.json",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = |rep: &Value| -> (Vec<String>, usize) {
        let mut found: Vec<String> = rep["findings"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["findings"].as_array().unwrap().iter())
            .map(|f| f["message"].as_str().unwrap().to_string())
            .collect();
        found.sort();
        (found, rep["graph"]["edges"].as_array().unwrap().len())
    };
    let direct = summary(&report(tmp.path(), &["shop"]));
    let joined = summary(&report(tmp.path(), &["--facts", "shop.facts.json"]));
    assert!(direct.1 > 0, "no edges in the fixture");
    assert_eq!(joined, direct);
}
