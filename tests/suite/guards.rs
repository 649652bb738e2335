//! Issue 16, Build 2: each stage of a scan runs under a time budget and a
//! panic guard. A file whose extraction overruns is RL903 and the scan goes
//! on; a rule, the linking or the graph that panics or overruns is an
//! internal-error notice (exit 2) and the other rules still report. The
//! faults are injected through the debug build's `RETRYLINT_TEST_FAULT`
//! seam, the budgets shortened with `RETRYLINT_TEST_BUDGET_MS`.

use assert_cmd::Command;
use std::path::Path;
use std::time::Duration;

/// Two known findings: RL102 on line 4, RL203 on line 6.
const CONTROL: &str = "resilience4j:\n  retry:\n    instances:\n      payments:\n        maxAttempts: 3\n        waitDuration: 100ms\n";

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn run(dir: &Path, fault: &str) -> Run {
    let out = Command::cargo_bin("retrylint")
        .unwrap()
        .current_dir(dir)
        .env("RETRYLINT_TEST_FAULT", fault)
        .env("RETRYLINT_TEST_BUDGET_MS", "300")
        .args([
            "check",
            "--no-config",
            "--no-cache",
            "--format",
            "concise",
            ".",
        ])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("control.yml"), CONTROL).unwrap();
    std::fs::write(dir.path().join("other.yml"), CONTROL).unwrap();
    dir
}

#[test]
fn no_fault_reports_both_findings_of_both_files() {
    let t = tree();
    let r = run(t.path(), "none:none");
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    for f in [
        "control.yml:4:7: RL102",
        "control.yml:6:9: RL203",
        "other.yml:4:7: RL102",
    ] {
        assert!(r.out.contains(f), "{}", r.out);
    }
}

#[test]
fn a_file_whose_reading_stalls_is_rl903_and_the_others_are_read() {
    let t = tree();
    let r = run(t.path(), "stall:file:other.yml");
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("other.yml:1:1: RL903 [warning] file not checked: reading it took longer than the `300ms` budget of one file"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("other.yml:4:7: RL102"), "{}", r.out);
    assert!(r.out.contains("control.yml:4:7: RL102"), "{}", r.out);
}

#[test]
fn a_rule_that_panics_is_a_notice_and_the_other_rules_report() {
    let t = tree();
    let r = run(t.path(), "panic:rule:RL203");
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(
        r.err
            .contains("control.yml: internal error: rule RL203 panicked: injected panic"),
        "{}",
        r.err
    );
    assert!(!r.out.contains("RL203"), "{}", r.out);
    assert!(r.out.contains("control.yml:4:7: RL102"), "{}", r.out);
    assert!(r.out.contains("other.yml:4:7: RL102"), "{}", r.out);
}

#[test]
fn a_rule_that_stalls_is_stopped_at_its_budget() {
    let t = tree();
    let r = run(t.path(), "stall:rule:RL102");
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("internal error: rule RL102 stopped after `"),
        "{}",
        r.err
    );
    assert!(!r.out.contains("RL102"), "{}", r.out);
    assert!(r.out.contains("control.yml:6:9: RL203"), "{}", r.out);
}

#[test]
fn a_graph_rule_that_panics_leaves_the_policy_rules() {
    let t = tree();
    let r = run(t.path(), "panic:rule:RL401");
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(
        r.err
            .contains("internal error: rule RL401 panicked: injected panic (RETRYLINT_TEST_FAULT) in rule:RL401 over the scan"),
        "{}",
        r.err
    );
    assert!(r.out.contains("control.yml:6:9: RL203"), "{}", r.out);
}

#[test]
fn the_graph_or_the_linking_stopping_leaves_the_policy_rules() {
    let t = tree();
    for (fault, said) in [
        (
            "panic:graph",
            "internal error: building the call graph panicked",
        ),
        (
            "stall:graph",
            "internal error: building the call graph stopped after",
        ),
        ("panic:link", "internal error: linking the files panicked"),
        (
            "stall:link",
            "internal error: linking the files stopped after",
        ),
    ] {
        let r = run(t.path(), fault);
        assert_eq!(r.code, 2, "{fault}: {}{}", r.out, r.err);
        assert!(r.err.contains(said), "{fault}: {}", r.err);
        assert!(
            r.out.contains("control.yml:4:7: RL102"),
            "{fault}: {}",
            r.out
        );
        assert!(
            r.out.contains("control.yml:6:9: RL203"),
            "{fault}: {}",
            r.out
        );
    }
}
