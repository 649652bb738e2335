//! The `audit` command end to end: the three files it writes, what it
//! prints on a pipe, `--quiet`, and a path that does not exist.

use crate::common;

fn cmd() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("retrylint").unwrap();
    c.current_dir(common::root());
    c
}

#[test]
fn the_command_writes_three_files_and_no_progress_bar_when_piped() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("report");
    let o = cmd()
        .args(["audit", "testdata/audit/shop", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8(o.stderr).unwrap();
    // stderr is not a terminal here: the closing lines only, no bar.
    assert!(!err.contains("scanning") && !err.contains('\r'), "{err}");
    assert!(
        err.contains("wrote ") && err.contains("report.html"),
        "{err}"
    );
    for f in ["report.md", "report.html", "report.json"] {
        let p = dir.join(f);
        assert!(p.is_file(), "{f} missing");
        assert!(std::fs::metadata(&p).unwrap().len() > 100, "{f} empty");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["version"], 2);
    assert_eq!(json["summary"]["worst_amplification"]["attempts"], 36);
    // --quiet prints nothing at all.
    let o = cmd()
        .args(["audit", "--quiet", "testdata/audit/shop", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stderr.is_empty() && o.stdout.is_empty());
    // A path that does not exist is a usage error.
    let o = cmd()
        .args(["audit", "no/such/path", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}
