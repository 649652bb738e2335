//! `retrylint simulate` on the monorepo: the ledger numbers, the SVG
//! written beside them, JSON, and the path choices.

use crate::common;

use assert_cmd::Command;

fn cmd() -> Command {
    let mut c = Command::cargo_bin("retrylint").unwrap();
    c.current_dir(common::root());
    c
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = cmd().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_monorepo_ledger_numbers_and_chart() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("ledger.svg");
    let (code, out, err) = run(&[
        "simulate",
        "testdata/monorepo",
        "--no-cache",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // The worst path stops at the repository's deepest service, `ledger`
    // (not the AWS endpoint it calls).
    assert!(
        out.starts_with("simulate gateway -> orders -> payments -> ledger\n"),
        "{out}"
    );
    // 3 x 3 per hop (testdata/monorepo/README.md), but `orders` and
    // `payments` answer a `500` when `ledger` is down, which nginx, the
    // gateway's Istio default and the payments VirtualService do not
    // retry: Resilience4j x reqwest-retry x the payments sidecar's Istio
    // default, 27; the fixed variant keeps one layer of 3.
    assert!(out.contains("(nginx) (does not retry a `500`)"), "{out}");
    // Istio's default (no VirtualService for `orders`) retries refused
    // connections, not a `500` (train-ticket's chains of Istio defaults
    // were taken as 3^9 before): its sidecar's default on the last hop
    // does retry.
    assert!(
        out.contains("gateway -> orders: Istio default (does not retry a `500`)  x3"),
        "{out}"
    );
    assert!(
        out.contains("payments -> ledger: Istio default  x3, waits 0-25 ms .. 0-50 ms"),
        "{out}"
    );
    assert!(out.contains("attempts per request          27 "), "{out}");
    let peak = out
        .lines()
        .find(|l| l.starts_with("peak load on `ledger`"))
        .unwrap();
    // 27x once the Resilience4j waits (up to 0.75 + 1.5 s) have passed;
    // the fixed variant's budget holds it at 1.2x plus 10 retries a
    // second.
    assert!(peak.contains("2700 rps (27x) at 14 s"), "{peak}");
    assert!(peak.contains("130 rps (1.3x) at 10 s"), "{peak}");
    assert!(out.contains("excess after recovery         1.4 s"), "{out}");
    assert!(
        out.contains("user requests failed          27.4%   "),
        "{out}"
    );
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(chart.matches("<polyline").count(), 2);
    assert!(!chart.contains("<script") && !chart.contains("href"));
    assert!(chart.contains("as found: peak 27x of normal"), "{chart}");
}

#[test]
fn a_service_that_never_answers_is_retried_on_per_try_timeouts_in_waves() {
    let (code, out, err) = run(&[
        "simulate",
        "testdata/monorepo",
        "--no-cache",
        "--failure",
        "timeout",
    ]);
    assert_eq!(code, 0, "{err}");
    // The payments VirtualService's 3 s per-try timeout retries its
    // timeouts: waves 3 s apart (2x from 13 s, 3x from 16 s ...); fixed,
    // the one layer left has no timeout and never retries.
    assert!(out.contains("    12s         100    1.0x"), "{out}");
    assert!(out.contains("    13s         200    2.0x"), "{out}");
    assert!(out.contains("    16s         298    3.0x"), "{out}");
    assert!(
        out.contains("1900 rps (19x) at 42 s  100 rps (1.0x) at 0 s"),
        "{out}"
    );
    assert!(out.contains("slower than the entry's 12 s  30.0%"), "{out}");
}

#[test]
fn json_has_every_bucket_and_both_variants() {
    let (code, out, err) = run(&[
        "simulate",
        "testdata/monorepo",
        "--no-cache",
        "--format",
        "json",
        "--outage",
        "10",
        "--duration",
        "60",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["target"], "ledger");
    assert_eq!(v["found"]["outcome"]["load"].as_array().unwrap().len(), 600);
    assert_eq!(v["fixed"]["path"]["attempts"], 3.0);
    assert_eq!(v["scenario"]["outage"], 10.0);
}

#[test]
fn a_service_or_a_path_is_chosen_by_name() {
    let (code, out, err) = run(&[
        "simulate",
        "testdata/monorepo",
        "--no-cache",
        "--service",
        "payments",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("simulate gateway -> orders -> payments\n"),
        "{out}"
    );
    let (code, out, err) = run(&[
        "simulate",
        "testdata/monorepo",
        "--no-cache",
        "--path",
        "payments->ledger",
        "--format",
        "html",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("<svg") && out.contains("payments -&gt; ledger"),
        "{out}"
    );
    let (code, _, err) = run(&[
        "simulate",
        "testdata/monorepo",
        "--no-cache",
        "--service",
        "ledgr",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `ledger`"), "{err}");
    let (code, _, err) = run(&[
        "simulate",
        "testdata/monorepo",
        "--no-cache",
        "--path",
        "ledger->gateway",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("`ledger` does not call `gateway`"), "{err}");
    let (code, _, err) = run(&["simulate", "testdata/monorepo", "--no-cache", "--rps", "-1"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn the_audit_draws_each_worst_path_s_outage_next_to_its_table() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(&[
        "audit",
        "testdata/monorepo",
        "--no-cache",
        "-q",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    // The call graph, then the path's chart after its table.
    assert_eq!(page.matches("<svg").count(), 2);
    let table = page.find("Simulated outage").unwrap();
    let chart = page
        .find("<title>load on ledger while it is down</title>")
        .unwrap();
    assert!(page[..table].contains("From gateway"));
    assert!(table < chart);
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(
        md.contains("| peak load on `ledger` | 2700 rps (27x) at 14 s |"),
        "{md}"
    );
    // report.json holds the same numbers, as found and fixed.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap())
            .unwrap();
    let sims = json["simulations"].as_array().unwrap();
    assert_eq!(sims.len(), 1, "{sims:?}");
    let s = &sims[0];
    assert_eq!(s["path"], 0);
    assert_eq!(s["services"].as_array().unwrap().last().unwrap(), "ledger");
    assert_eq!(s["scenario"]["outage"], 30.0);
    assert_eq!(s["found"]["attempts"], 27.0);
    assert!(
        (s["found"]["peak_multiple"].as_f64().unwrap() - 27.0).abs() < 0.01,
        "{s}"
    );
    assert!(s["found"]["changes"].as_array().unwrap().is_empty());
    let fixed = s["fixed"]["peak_multiple"].as_f64().unwrap();
    assert!(fixed < 27.0, "{s}");
    assert!(!s["fixed"]["changes"].as_array().unwrap().is_empty());
}

/// README.md's picture is what `retrylint simulate testdata/monorepo
/// --format svg` draws now (`UPDATE_SIMULATE_SVG=1` rewrites it).
#[test]
fn the_readme_picture_is_current() {
    let (code, out, err) = run(&[
        "simulate",
        "testdata/monorepo",
        "--no-cache",
        "-q",
        "--format",
        "svg",
    ]);
    assert_eq!(code, 0, "{err}");
    let file = common::root().join("docs/simulate-ledger.svg");
    if std::env::var_os("UPDATE_SIMULATE_SVG").is_some() {
        std::fs::write(&file, &out).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        out,
        "docs/simulate-ledger.svg is stale: UPDATE_SIMULATE_SVG=1 cargo test --test suite simulate::"
    );
}

/// A retry around a circuit breaker configured by name: the breaker's
/// settings are the configuration's (`testdata/simulate/breaker`), and
/// the retry does not retry its "open" error (only `IOException`).
#[test]
fn a_configured_circuit_breaker_is_simulated_with_its_settings() {
    let (code, out, err) = run(&[
        "simulate",
        "testdata/simulate/breaker",
        "--no-cache",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let b = &json["found"]["path"]["layers"][0]["breaker"];
    assert_eq!(b["threshold"], 0.2, "{b}");
    assert_eq!(b["min_calls"], 10.0);
    assert_eq!(b["window"], 20.0);
    assert_eq!(b["open_for"], 5.0);
    assert_eq!(b["half_open_calls"], 2.0);
    assert_eq!(b["retried_when_open"], false);
    // 10 failed calls open it at once: the outage's load is a trickle of
    // half-open calls every 5 s, not 3x.
    let load: Vec<f64> = json["found"]["outcome"]["load"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let outage: f64 = load[105..400].iter().sum::<f64>() / 295.0;
    assert!(outage < 5.0, "{outage}");
    let (code, out, err) = run(&["simulate", "testdata/simulate/breaker", "--no-cache"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("circuit breaker opening at 20% failures of 20 calls (10 at least), open 5 s, 2 half-open (open: not retried)"),
        "{out}"
    );
}
