//! docs/audit-report.png: the audit report of `testdata/monorepo`, rendered
//! by `scripts/screenshot-report.sh` with headless Chromium. This test
//! renders it from a fresh `retrylint audit` and checks the picture;
//! `UPDATE_SCREENSHOT=1 cargo test --test screenshot` also writes it to
//! docs/audit-report.png, so the picture in the README is always the
//! output of the current code. Without Chromium the trial is reported as
//! ignored, and fails under `CI=true` (tests/common/needs.rs).

mod common;

use common::needs::Need;
use std::process::{Command, ExitCode};

const WIDTH: u32 = 1400;
const HEIGHT: u32 = 2100;
const DOC: &str = "docs/audit-report.png";

fn main() -> ExitCode {
    let trials = vec![
        trial!(&[Need::Chromium], the_audit_screenshot_renders),
        trial!(
            &[Need::Chromium],
            sixty_services_render_and_the_script_filters
        ),
        trial!(
            &[Need::Chromium],
            sixty_services_labels_and_edges_clear_every_box_in_chromium
        ),
    ];
    common::needs::run(include_str!("screenshot.rs"), trials)
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert_eq!(&bytes[12..16], b"IHDR");
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

fn the_audit_screenshot_renders() {
    let root = common::root();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("audit");
    let status = Command::new(assert_cmd::cargo::cargo_bin("retrylint"))
        .current_dir(&root)
        .args(["audit", "-q", "--no-cache", "testdata/monorepo", "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success(), "retrylint audit failed: {status}");
    let png = dir.path().join("audit-report.png");
    let run = Command::new("bash")
        .arg(root.join("scripts/screenshot-report.sh"))
        .arg(out.join("report.html"))
        .arg(&png)
        .arg(format!("{WIDTH},{HEIGHT}"))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let bytes = std::fs::read(&png).expect("the script wrote the picture");
    assert_eq!(png_size(&bytes), (WIDTH, HEIGHT));
    // A page that failed to load is one colour and compresses to little.
    assert!(bytes.len() > 50_000, "{} bytes: a blank page?", bytes.len());
    if std::env::var_os("UPDATE_SCREENSHOT").is_some() {
        std::fs::write(root.join(DOC), &bytes).unwrap();
        eprintln!("wrote {DOC}");
    }
}

const GRAPH_DOC: &str = "docs/audit-graph-60.png";

fn chromium() -> String {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| Command::new(b).arg("--version").output().is_ok())
        .expect("a chromium")
        .to_string()
}

/// The generated 60-service monorepo (scripts/gen-monorepo.sh) written
/// under `dir` and audited; the report's folder.
fn audit_sixty(dir: &std::path::Path) -> std::path::PathBuf {
    let root = common::root();
    let repo = dir.join("monorepo");
    let gen_ok = Command::new("bash")
        .arg(root.join("scripts/gen-monorepo.sh"))
        .arg(&repo)
        .status()
        .unwrap();
    assert!(gen_ok.success());
    let out = dir.join("audit");
    let status = Command::new(assert_cmd::cargo::cargo_bin("retrylint"))
        .current_dir(&root)
        .args(["audit", "-q", "--no-cache"])
        .arg(&repo)
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    out
}

/// The DOM after the page's script ran, as Chromium sees it.
fn dump_dom(page: &std::path::Path) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The generated 60-service monorepo (scripts/gen-monorepo.sh), audited
/// and rendered: a picture in the test's output (and docs/ with
/// UPDATE_SCREENSHOT), the page's script running under its
/// Content-Security-Policy, and its filter lighting one service's paths.
fn sixty_services_render_and_the_script_filters() {
    let root = common::root();
    let dir = tempfile::tempdir().unwrap();
    let out = audit_sixty(dir.path());
    let page = out.join("report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // The graph alone, scaled to the window, for the picture.
    let start = html.find("<svg").unwrap();
    let end = html.find("</svg>").unwrap() + "</svg>".len();
    let svg = html[start..end].replacen(
        "style=\"",
        "style=\"width: 100% !important; max-width: none !important; min-width: 0 !important; ",
        1,
    );
    let graph_page = dir.path().join("graph.html");
    std::fs::write(
        &graph_page,
        format!("<!DOCTYPE html><html><body style=\"margin:0\">{svg}</body></html>"),
    )
    .unwrap();
    let png = dir.path().join("audit-graph-60.png");
    let run = Command::new("bash")
        .arg(root.join("scripts/screenshot-report.sh"))
        .arg(&graph_page)
        .arg(&png)
        .arg("1600,1250")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(png_size(&bytes), (1600, 1250));
    assert!(
        bytes.len() > 50_000,
        "{} bytes: a blank picture?",
        bytes.len()
    );
    let keep = std::env::temp_dir().join("retrylint-audit-graph-60.png");
    std::fs::write(&keep, &bytes).unwrap();
    eprintln!("wrote {}", keep.display());
    if std::env::var_os("UPDATE_SCREENSHOT").is_some() {
        std::fs::write(root.join(GRAPH_DOC), &bytes).unwrap();
        eprintln!("wrote {GRAPH_DOC}");
    }
    // The script runs under the page's policy: it adds its tools.
    let dom = dump_dom(&page);
    assert!(
        dom.contains("<div class=\"graph-tools\">"),
        "the script did not run"
    );
    // Its filter: the same page, with a line that types a name in it (the
    // policy is left out, as it would refuse the added line).
    let csp_start = html
        .find("<meta http-equiv=\"Content-Security-Policy\"")
        .unwrap();
    let csp_end = csp_start + html[csp_start..].find('>').unwrap() + 1;
    let typed = format!("{}{}", &html[..csp_start], &html[csp_end..])
        .replace(
            "</body>",
            "<script>var i = document.querySelector('.graph-tools input'); i.value = 'core-07'; i.dispatchEvent(new Event('input'));</script></body>",
        );
    let typed_page = dir.path().join("typed.html");
    std::fs::write(&typed_page, typed).unwrap();
    let dom = dump_dom(&typed_page);
    assert!(dom.contains("class=\"call-graph focus\""), "no focus");
    let lit = dom.matches("node lit").count()
        + dom.matches("hot lit").count()
        + dom.matches("entry lit").count();
    assert!(
        (3..30).contains(&lit),
        "{lit} services lit for core-07's paths"
    );
}

/// The 60-service audit as Chromium draws it (tests/common/geometry.js
/// measures the page after layout, text as the browser set it): no two
/// edge labels meet, no label covers a service, a group of stores or a
/// namespace's caption, every text stays inside its box, no two namespace
/// bands meet, and no edge passes through a box other than its own two
/// ends'.
fn sixty_services_labels_and_edges_clear_every_box_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let out = audit_sixty(dir.path());
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let csp_start = html
        .find("<meta http-equiv=\"Content-Security-Policy\"")
        .unwrap();
    let csp_end = csp_start + html[csp_start..].find('>').unwrap() + 1;
    let measured = format!("{}{}", &html[..csp_start], &html[csp_end..]).replace(
        "</body>",
        &format!(
            "<script>{}</script></body>",
            include_str!("common/geometry.js")
        ),
    );
    let page = dir.path().join("measured.html");
    std::fs::write(&page, measured).unwrap();
    let dom = dump_dom(&page);
    let at = dom
        .find("data-geometry=\"")
        .expect("the measuring script ran")
        + 15;
    let raw = &dom[at..at + dom[at..].find('"').unwrap()];
    let json = raw
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let g: serde_json::Value = serde_json::from_str(&json).unwrap();
    eprintln!("{g}");
    let count = |k: &str| g[k].as_u64().unwrap();
    assert!(count("nodes") >= 60, "{g}");
    assert!(count("edges") > 80, "{g}");
    assert!(count("labels") > 40, "{g}");
    // Namespaces `shop` and `data` as bands, in several columns.
    assert!(count("bands") >= 4, "{g}");
    for k in [
        "label_overlaps",
        "label_on_box",
        "text_outside",
        "edge_through",
        "band_overlaps",
    ] {
        assert_eq!(g[k].as_array().map(Vec::len), Some(0), "{k}: {}", g[k]);
    }
}
