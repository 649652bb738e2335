//! `retrylint audit`'s first screen and grouping: what "Fix first" holds
//! back, the assumptions and what was not read, one row per cause.

use retrylint::config::Settings;
use retrylint::render::audit::{Report, markdown};
use std::path::PathBuf;

fn report(path: &str) -> Report {
    let settings = Settings::default();
    let run = retrylint::pipeline::Pipeline::new(&settings)
        .run(&[PathBuf::from(path)])
        .expect("scan");
    let graph = run.graph.expect("graph");
    Report::build(&[path.to_string()], &run.scan, &graph, &run.report.findings)
}

/// "Fix first" holds only what rests on written settings or stated
/// defaults: on the shop, whose sidecars are assumed from a VirtualService
/// file, the path findings are held back and the file is named; on
/// bookinfo, whose namespace asks for injection, they are listed.
#[test]
fn fix_first_holds_back_what_rests_on_an_assumed_sidecar() {
    let r = report("testdata/audit/shop");
    let codes: Vec<&str> = r.summary.fix_first.iter().map(|f| f.code).collect();
    assert!(codes.contains(&"RL301"), "{codes:?}");
    assert!(
        !codes.contains(&"RL401") && !codes.contains(&"RL303"),
        "{codes:?}"
    );
    assert!(r.summary.fix_first_held_back >= 2);
    assert!(r.summary.fix_first_held_back_rules.contains_key("RL401"));
    let assumed = &r.summary.assumptions[0];
    assert!(
        assumed.what.contains("assumed") && assumed.what.contains("k8s/virtual-services.yaml"),
        "{assumed:?}"
    );
    let md = markdown::render(&r);
    assert!(md.contains("### What these numbers rest on"), "{md}");
    assert!(md.contains("### Not read"), "{md}");

    let r = report("testdata/graph/bookinfo");
    let codes: Vec<&str> = r.summary.fix_first.iter().map(|f| f.code).collect();
    assert!(codes.contains(&"RL303"), "{codes:?}");
    assert_eq!(r.summary.fix_first_held_back, 0);
    assert!(
        r.summary.assumptions[0].what.contains("namespaces inject"),
        "{:?}",
        r.summary.assumptions
    );
}

/// Five VirtualServices with one cause each for RL103 and RL603: one row
/// per rule, counted 5, naming the other four places with their route.
#[test]
fn findings_of_one_cause_are_one_row_with_their_places() {
    let r = report("testdata/audit/grouped");
    let rl103 = r
        .findings
        .iter()
        .find(|g| g.code == "RL103")
        .expect("RL103");
    assert_eq!(rl103.findings.len(), 5);
    let md = markdown::render(&r);
    let part = &md[md.find("### RL103 retries-non-idempotent").expect("part")..];
    let part = &part[..part[4..].find("\n### ").map_or(part.len(), |i| i + 4)];
    let rows: Vec<&str> = part
        .lines()
        .filter(|l| l.starts_with("| warning"))
        .collect();
    assert_eq!(rows.len(), 1, "{part}");
    assert!(rows[0].starts_with("| warning | 5 |"), "{}", rows[0]);
    for route in [
        "payments/http[0]",
        "carts/http[0]",
        "users/http[0]",
        "search/http[0]",
    ] {
        assert!(
            rows[0].contains(&format!("`{route}`")),
            "{route}: {}",
            rows[0]
        );
    }
    // In the page each rule's part folds.
    let page = retrylint::render::audit::html::render(&r);
    assert!(page.contains("<details id=\"rule-RL103\""), "{page}");
    assert!(page.contains("<summary><h3>RL103 retries-non-idempotent "));
}

/// The generated 60-service monorepo (scripts/gen-monorepo.sh): every
/// service placed, no edge drawn through a box, and "Fix first" worst
/// first.
#[test]
fn a_generated_sixty_service_monorepo_is_laid_out_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("bash")
        .arg("scripts/gen-monorepo.sh")
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let root = dir.path().display().to_string();
    let r = report(&root);
    assert_eq!(r.graph.services.len(), 60);
    assert!(r.graph.edges.len() > 80, "{} calls", r.graph.edges.len());
    let l = retrylint::render::audit::svg::layout_of(&r);
    let edges: Vec<(usize, usize, bool)> = r
        .graph
        .edges
        .iter()
        .map(|e| (e.from, e.to, e.back_edge))
        .collect();
    let through = l.crossings(&edges);
    assert!(through.is_empty(), "edges through boxes: {through:?}");
    // The stores each core alone calls are rows of one box beside it;
    // the two stores two cores share keep their own, and so does the one
    // store left to each of those two cores (a group has two or more);
    // the two stores nobody calls stay in the grid.
    assert_eq!(l.groups.len(), 8, "{:?}", l.groups);
    let grouped = (0..r.graph.services.len())
        .filter(|&s| l.grouped(s))
        .count();
    assert_eq!(grouped, 24 - 2 - 2 - 2);
    for g in &l.groups {
        let caller = l.service_rect(g.caller);
        for &s in &g.stores {
            let row = l.service_rect(s);
            assert!(
                row.x0 > caller.x1,
                "{} left of its caller",
                r.graph.services[s].name
            );
        }
    }
    for a in 0..r.graph.services.len() {
        for b in a + 1..r.graph.services.len() {
            assert!(
                !l.service_rect(a).intersects(&l.service_rect(b)),
                "{} and {} overlap",
                r.graph.services[a].name,
                r.graph.services[b].name
            );
        }
    }
    // Worst first: the first RL401 is the worst path's (768 attempts).
    let first = &r.summary.fix_first[0];
    assert_eq!(first.code, "RL401");
    let worst = r.summary.worst_amplification.as_ref().unwrap().attempts;
    assert!(
        first.message.contains(&format!("`{worst}` attempts")),
        "{}",
        first.message
    );
    // report.md draws only the worst paths' calls of a graph this large.
    let md = markdown::render(&r);
    let block = &md[md.find("```mermaid").unwrap()..];
    let block = &block[..block[3..].find("```").unwrap()];
    let arrows = block
        .lines()
        .filter(|l| l.contains("-->") || l.contains("-.->"))
        .count();
    let worst = r.graph.edges.iter().filter(|e| e.on_worst_path).count();
    assert_eq!(arrows, worst, "{block}");
    assert!(worst > 0 && worst < r.graph.edges.len());
    // No absolute path: the temporary folder is the repository.
    let json = r.to_json();
    assert!(!json.contains(&root), "{json}");
}

/// A version-dependent reading no build file decides is a version guess
/// in the summary, naming the library, the version boundary and the file;
/// where a build file tells the version, no guess is listed.
#[test]
fn version_guesses_are_stated_where_no_build_file_tells_the_version() {
    let r = report("testdata/rules/RL901/err/resilience4j-removed-key-no-build-file");
    let guess = r
        .summary
        .assumptions
        .iter()
        .find(|a| a.what.contains("without knowing whether Resilience4j"))
        .unwrap_or_else(|| panic!("{:?}", r.summary.assumptions));
    assert!(guess.what.contains("`2.0.0`"), "{guess:?}");
    assert!(
        guess.what.contains("no scanned build file tells it"),
        "{guess:?}"
    );
    assert_eq!(guess.calls, 1);
    assert!(
        guess
            .source
            .as_ref()
            .is_some_and(|s| s.file.ends_with("src/main/resources/application.yml")),
        "{guess:?}"
    );
    let md = markdown::render(&r);
    assert!(md.contains("without knowing whether Resilience4j"), "{md}");

    let r = report("testdata/rules/RL901/err/resilience4j-removed-key-gradle-2x");
    assert!(
        !r.summary
            .assumptions
            .iter()
            .any(|a| a.what.contains("without knowing")),
        "{:?}",
        r.summary.assumptions
    );
}

/// Templated files the scan could only read in part are named under "Not
/// read"; a Helm chart rendered with its values is read whole and is not.
#[test]
fn templated_files_read_in_part_are_listed_as_not_read() {
    let r = report("testdata/rules/RL903/err");
    let line = r
        .summary
        .not_read
        .iter()
        .find(|n| n.what.contains("templated files read in part"))
        .unwrap_or_else(|| panic!("{:?}", r.summary.not_read));
    assert!(line.what.starts_with("2 templated files"), "{line:?}");
    assert!(
        line.examples
            .iter()
            .any(|e| e.ends_with("yaml-helm-template.yaml")),
        "{line:?}"
    );
    let r = report("testdata/templates/helm-chart");
    assert!(
        !r.summary
            .not_read
            .iter()
            .any(|n| n.what.contains("templated")),
        "{:?}",
        r.summary.not_read
    );
}
