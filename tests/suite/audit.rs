//! `retrylint audit`: the report's Markdown and JSON (snapshots), its HTML
//! (parsed: well-formed, unique ids, one SVG node per service, nothing
//! loaded from elsewhere), escaping of values from scanned files, the
//! layout of a 60-service graph, the command line, and the corpus.

use crate::common;

use retrylint::config::Settings;
use retrylint::render::audit::layout::{NODE_H, NODE_W};
use retrylint::render::audit::{Report, html, markdown};
use scraper::{Html, Selector};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn report_of(paths: &[PathBuf]) -> Report {
    let settings = Settings::default();
    let retrylint::pipeline::Run {
        scan,
        graph,
        report,
    } = retrylint::pipeline::Pipeline::new(&settings)
        .run(paths)
        .expect("scan");
    let (graph, findings) = (graph.expect("graph"), report.findings);
    let roots: Vec<String> = paths
        .iter()
        .map(|p| retrylint::source::display_path(p))
        .collect();
    Report::build(&roots, &scan, &graph, &findings)
}

fn report(path: &str) -> Report {
    report_of(&[PathBuf::from(path)])
}

fn sel(s: &str) -> Selector {
    Selector::parse(s).expect("selector")
}

/// Parse the page and check what every report must satisfy; returns the
/// parsed document.
fn parse_and_check(page: &str, r: &Report) -> Html {
    let doc = Html::parse_document(page);
    assert!(doc.errors.is_empty(), "HTML parse errors: {:?}", doc.errors);
    // Unique ids.
    let mut ids = BTreeSet::new();
    for el in doc.select(&sel("[id]")) {
        let id = el.value().id().unwrap_or_default().to_string();
        assert!(ids.insert(id.clone()), "duplicate id `{id}`");
    }
    // Every in-page link goes to an id that exists.
    for a in doc.select(&sel("a[href^='#']")) {
        let target = &a.value().attr("href").unwrap()[1..];
        assert!(ids.contains(target), "link to missing id `{target}`");
    }
    // Self-contained: no external resource of any kind; one script, ours,
    // allowed by its hash.
    for bad in ["link", "img", "iframe", "object", "embed", "image", "use"] {
        assert_eq!(doc.select(&sel(bad)).count(), 0, "a <{bad}> element");
    }
    let scripts: Vec<String> = doc
        .select(&sel("script"))
        .map(|s| s.text().collect())
        .collect();
    assert_eq!(scripts, [html::SCRIPT]);
    assert!(page.contains(html::SCRIPT_HASH));
    assert_eq!(doc.select(&sel("[src]")).count(), 0);
    for style in doc.select(&sel("style")) {
        let css: String = style.text().collect();
        assert!(!css.contains("url(") && !css.contains("@import"), "{css}");
    }
    // The SVG graph: one node per service, with the report's ids, in order.
    let nodes: Vec<_> = doc.select(&sel("svg#call-graph g.node")).collect();
    if r.graph.services.is_empty() {
        assert!(nodes.is_empty());
    } else {
        assert_eq!(doc.select(&sel("svg#call-graph")).count(), 1);
        assert_eq!(nodes.len(), r.graph.services.len());
        for (i, (n, s)) in nodes.iter().zip(&r.graph.services).enumerate() {
            assert_eq!(n.value().id(), Some(format!("svc-{i}").as_str()));
            assert_eq!(n.value().attr("data-name"), Some(s.name.as_str()));
        }
        assert_eq!(
            doc.select(&sel("svg#call-graph g.edge")).count(),
            r.graph.edges.len()
        );
    }
    doc
}

/// Top-left corners of the SVG's service boxes.
fn node_positions(doc: &Html) -> Vec<(i64, i64)> {
    doc.select(&sel("svg#call-graph g.node"))
        .map(|n| {
            let t = n.value().attr("transform").expect("transform");
            let inner = t
                .strip_prefix("translate(")
                .and_then(|s| s.strip_suffix(')'))
                .expect("translate");
            let mut it = inner.split_whitespace().map(|v| v.parse::<i64>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect()
}

fn assert_no_overlap(pos: &[(i64, i64)]) {
    for i in 0..pos.len() {
        for j in i + 1..pos.len() {
            let (a, b) = (pos[i], pos[j]);
            let overlap = a.0 < b.0 + NODE_W
                && b.0 < a.0 + NODE_W
                && a.1 < b.1 + NODE_H
                && b.1 < a.1 + NODE_H;
            assert!(!overlap, "services {i} and {j} overlap at {a:?} and {b:?}");
        }
    }
}

#[test]
fn monorepo_report_markdown_and_json() {
    let r = report("testdata/monorepo");
    insta::assert_snapshot!("monorepo_markdown", markdown::render(&r));
    insta::assert_snapshot!("monorepo_json", r.to_json());
    assert_links_resolve_on_github(&markdown::render(&r));
}

#[test]
fn an_absolute_root_gives_paths_relative_to_the_repository() {
    let abs = std::env::current_dir().unwrap().join("testdata/audit/shop");
    let r = report_of(std::slice::from_ref(&abs));
    let relative = report("testdata/audit/shop");
    let home = std::env::current_dir().unwrap().display().to_string();
    for page in [markdown::render(&r), html::render(&r), r.to_json()] {
        assert!(!page.contains(&home), "an absolute path: {page}");
    }
    // The same report as over the relative root: paths from the repository root.
    assert_eq!(r.to_json(), relative.to_json());
    assert_eq!(r.roots, ["testdata/audit/shop"]);
}

#[test]
fn a_configured_instance_used_in_code_is_one_policy() {
    // orders' `@Retry(name = "payments")` and its
    // `resilience4j.retry.instances.payments`: one policy, listed where it
    // is configured, with the use beside it: the five written layers of
    // testdata/monorepo/README.md's table.
    let r = report("testdata/monorepo");
    assert_eq!(r.summary.policies, 5);
    assert_eq!(r.summary.policies_by_system.get("Resilience4j"), Some(&1));
    let rows: Vec<_> = r
        .services
        .iter()
        .flat_map(|s| s.policies.iter())
        .filter(|p| p.system == "Resilience4j")
        .collect();
    assert_eq!(rows.len(), 1);
    assert!(
        rows[0]
            .source
            .file
            .ends_with("orders/src/main/resources/application.yml")
    );
    assert_eq!(rows[0].used_at.len(), 1);
    assert!(rows[0].used_at[0].file.ends_with("PaymentsClient.java"));
}

#[test]
fn a_configured_instance_is_one_policy_however_many_sites_use_it() {
    // The monorepo's orders service with a second client that retries
    // through the same `payments` instance: still one policy, both uses
    // beside it.
    let dir = tempfile::tempdir().unwrap();
    let orders = dir.path().join("services/orders");
    let from = std::path::Path::new("testdata/monorepo/services/orders");
    let java = "src/main/java/com/example/orders";
    let yml = "src/main/resources/application.yml";
    std::fs::create_dir_all(orders.join(java)).unwrap();
    std::fs::create_dir_all(orders.join(yml).parent().unwrap()).unwrap();
    std::fs::copy(from.join(yml), orders.join(yml)).unwrap();
    let client = std::fs::read_to_string(from.join(java).join("PaymentsClient.java")).unwrap();
    std::fs::write(orders.join(java).join("PaymentsClient.java"), &client).unwrap();
    std::fs::write(
        orders.join(java).join("RefundsClient.java"),
        client
            .replace("PaymentsClient", "RefundsClient")
            .replace("charge(", "refund("),
    )
    .unwrap();
    let r = report_of(&[dir.path().to_path_buf()]);
    assert_eq!(r.summary.policies_by_system.get("Resilience4j"), Some(&1));
    let rows: Vec<_> = r
        .services
        .iter()
        .flat_map(|s| s.policies.iter())
        .filter(|p| p.system == "Resilience4j")
        .collect();
    assert_eq!(rows.len(), 1);
    let mut uses: Vec<&str> = rows[0].used_at.iter().map(|u| u.file.as_str()).collect();
    uses.sort();
    assert_eq!(uses.len(), 2, "{uses:?}");
    assert!(uses[0].ends_with("PaymentsClient.java") && uses[1].ends_with("RefundsClient.java"));
}

#[test]
fn monorepo_report_html() {
    let r = report("testdata/monorepo");
    let doc = parse_and_check(&html::render(&r), &r);
    assert_no_overlap(&node_positions(&doc));
    assert!(doc.select(&sel("svg#call-graph g.edge.worst")).count() > 0);
}

#[test]
fn shop_report_markdown_and_json() {
    let r = report("testdata/audit/shop");
    insta::assert_snapshot!("shop_markdown", markdown::render(&r));
    insta::assert_snapshot!("shop_json", r.to_json());
}

#[test]
fn shop_report_content() {
    let r = report("testdata/audit/shop");
    let w = r
        .summary
        .worst_amplification
        .as_ref()
        .expect("a worst path");
    // 4 (VirtualService for orders) x 3 (for payments) x 3 (Istio's
    // default for ledger, which has no VirtualService).
    assert_eq!(w.attempts, 36);
    assert_eq!(w.services, ["gateway", "orders", "payments", "ledger"]);
    // The worst path's edges, and only those, are highlighted.
    let worst: Vec<(String, String)> = r
        .graph
        .edges
        .iter()
        .filter(|e| e.on_worst_path)
        .map(|e| {
            (
                r.graph.services[e.from].name.clone(),
                r.graph.services[e.to].name.clone(),
            )
        })
        .collect();
    assert_eq!(
        worst,
        [
            ("gateway".to_string(), "orders".to_string()),
            ("orders".into(), "payments".into()),
            ("payments".into(), "ledger".into())
        ]
    );
    // Istio's unwritten retries on the three hosts without a
    // VirtualService, and Resilience4j's default maxAttempts.
    let istio = r
        .implicit_defaults
        .iter()
        .find(|g| g.system == "Istio")
        .expect("Istio defaults");
    let calls: BTreeSet<&str> = istio
        .entries
        .iter()
        .flat_map(|e| e.applies_to.iter().map(String::as_str))
        .collect();
    assert_eq!(
        calls,
        BTreeSet::from([
            "gateway → catalog",
            "orders → inventory",
            "payments → ledger"
        ])
    );
    let r4j = r
        .implicit_defaults
        .iter()
        .find(|g| g.system == "Resilience4j")
        .expect("Resilience4j defaults");
    assert_eq!(r4j.entries.len(), 1);
    assert!(
        r4j.entries[0].what.contains("inventory"),
        "{:?}",
        r4j.entries
    );
    // Policies are listed under the service that runs them (Resilience4j
    // in orders) or whose callers they apply to (the VirtualServices).
    let orders = r
        .services
        .iter()
        .find(|s| s.service.as_deref() == Some("orders"))
        .expect("orders");
    let systems: Vec<&str> = orders.policies.iter().map(|p| p.system.as_str()).collect();
    assert_eq!(systems, ["Istio", "Resilience4j", "Resilience4j"]);
    let payments = &orders.policies[1];
    assert_eq!(payments.attempts, Some(4));
    assert_eq!(payments.delay, "exponential 500ms x2");
    assert_eq!(payments.jitter, "none (default)");
    assert!(payments.source.short().ends_with("application.yml:7"));
    // Findings are grouped by rule, in code order, linked to their docs.
    let codes: Vec<&str> = r.findings.iter().map(|g| g.code).collect();
    let mut sorted = codes.clone();
    sorted.sort();
    assert_eq!(codes, sorted);
    assert!(codes.contains(&"RL401") && codes.contains(&"RL403"));
    let md = markdown::render(&r);
    // Rule links stay inside the report: GitHub renders report.md alone.
    assert!(
        md.contains("[RL401](#rl401-retry-amplification) retry-amplification"),
        "{md}"
    );
    assert!(md.contains("\n### RL401 retry-amplification\n"), "{md}");
    assert!(!md.contains("](rules/"), "{md}");
    assert_links_resolve_on_github(&md);
    // Sections in the order the report promises.
    let order = [
        "## Summary",
        "## Call graph",
        "## Worst paths",
        "## Retry policies by service",
        "## Findings by rule",
        "## Implicit defaults",
    ];
    let at: Vec<usize> = order.iter().map(|h| md.find(h).expect(h)).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
    assert!(md.contains("```mermaid\nflowchart LR\n"));
}

/// GitHub's anchor for a heading: lowercase; letters, digits, `-`, `_`
/// kept, spaces as `-`, everything else dropped; repeats get `-1`, `-2`.
fn github_anchors(md: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut in_fence = false;
    for line in md.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence || !line.starts_with('#') {
            continue;
        }
        let text = line.trim_start_matches('#').trim();
        let slug: String = text
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut anchor = slug.clone();
        let mut k = 0;
        while seen.contains(&anchor) {
            k += 1;
            anchor = format!("{slug}-{k}");
        }
        seen.insert(anchor);
    }
    seen
}

/// Every in-page link of report.md lands on a heading's anchor; no link
/// points at a file the output folder does not hold.
fn assert_links_resolve_on_github(md: &str) {
    let anchors = github_anchors(md);
    let mut checked = 0;
    for (i, _) in md.match_indices("](") {
        let rest = &md[i + 2..];
        let target = &rest[..rest.find(')').expect("closed link")];
        if let Some(a) = target.strip_prefix('#') {
            assert!(anchors.contains(a), "`#{a}` is no heading: {anchors:?}");
            checked += 1;
        } else {
            assert!(target.starts_with("https://"), "link to `{target}`");
        }
    }
    assert!(checked > 3, "{checked} in-page links");
}

#[test]
fn shop_report_html() {
    let r = report("testdata/audit/shop");
    let page = html::render(&r);
    let doc = parse_and_check(&page, &r);
    assert_no_overlap(&node_positions(&doc));
    // Worst-path edges are marked, with a label naming attempts and the
    // per-try timeout.
    let worst: Vec<_> = doc.select(&sel("svg#call-graph g.edge.worst")).collect();
    assert_eq!(worst.len(), 3);
    let labels: Vec<String> = doc
        .select(&sel("svg#call-graph g.edge-label text"))
        .map(|t| t.text().collect())
        .collect();
    assert!(labels.contains(&"x4, 2s/try".to_string()), "{labels:?}");
    // Rule links use the rule's help URI.
    let hrefs: Vec<&str> = doc
        .select(&sel("#findings details a"))
        .filter_map(|a| a.value().attr("href"))
        .collect();
    assert!(
        hrefs
            .iter()
            .any(|h| h.ends_with("rules/RL401-retry-amplification.md")),
        "{hrefs:?}"
    );
    let sections: Vec<String> = doc
        .select(&sel("main > section"))
        .filter_map(|s| s.value().id().map(String::from))
        .collect();
    assert_eq!(
        sections,
        [
            "summary",
            "graph",
            "worst-paths",
            "policies",
            "findings",
            "defaults"
        ]
    );
}

/// Count the cells of a GFM table row: pipes not escaped by a backslash.
fn cells(line: &str) -> usize {
    let mut n = 0;
    let mut backslashes = 0;
    for c in line.chars() {
        if c == '|' && backslashes % 2 == 0 {
            n += 1;
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
    }
    n
}

#[test]
fn values_from_scanned_files_are_escaped() {
    let r = report("testdata/audit/escaping");
    // The hostile values are in the model as written ...
    let json = r.to_json();
    assert!(json.contains("<script>alert('x')</script>"), "{json}");
    assert!(
        r.graph
            .services
            .iter()
            .any(|s| s.name.contains("<b onmouseover"))
    );
    // ... and nowhere in the Markdown as markup: the only tags are ours.
    let md = markdown::render(&r);
    let mut rest = md.as_str();
    while let Some(i) = rest.find('<') {
        let tail = &rest[i..];
        assert!(
            ["<code>", "</code>", "<br>"]
                .iter()
                .any(|t| tail.starts_with(t)),
            "raw `<` in the Markdown: {}",
            &tail[..tail.len().min(40)]
        );
        rest = &tail[1..];
    }
    assert!(md.contains("&lt;script\\>alert"), "{md}");
    // Every table row has as many cells as its header.
    let mut header: Option<usize> = None;
    for line in md.lines() {
        if !line.starts_with('|') {
            header = None;
            continue;
        }
        match header {
            None => header = Some(cells(line)),
            Some(n) => assert_eq!(cells(line), n, "a broken table row: {line}"),
        }
    }
    // Mermaid labels cannot end the code block or the label.
    let mermaid = &md[md.find("```mermaid").unwrap() + 3..];
    let block = &mermaid[..mermaid.find("```").unwrap()];
    for l in block.lines().filter(|l| l.contains("[\"")) {
        assert_eq!(l.matches('"').count(), 2, "{l}");
        assert!(!l.contains('<') && !l.contains('|'), "{l}");
    }
    // The HTML parses into text, not elements, for every hostile value.
    let page = html::render(&r);
    let doc = parse_and_check(&page, &r);
    for tag in ["b", "i"] {
        assert_eq!(doc.select(&sel(tag)).count(), 0, "a <{tag}> element");
    }
    assert_eq!(doc.select(&sel("script")).count(), 1, "only ours");
    let text: String = doc.root_element().text().collect();
    assert!(text.contains("<script>alert('x')</script>"), "{text}");
    assert!(text.contains("web|<b onmouseover=alert(1)>bold"), "{text}");
}

/// A monorepo of 60 services: a gateway calling 30 services, each of which
/// calls one of 29 leaves, all Kubernetes Deployments.
fn sixty_services(dir: &Path) {
    let mut yaml = String::new();
    let deployment = |name: &str, calls: &[String]| {
        let mut s = format!(
            "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  template:\n    spec:\n      containers:\n      - name: {name}\n        image: example/{name}:1.0\n"
        );
        if !calls.is_empty() {
            s.push_str("        env:\n");
            for (i, c) in calls.iter().enumerate() {
                s.push_str(&format!(
                    "        - name: DEP{i}_URL\n          value: http://{c}:8080\n"
                ));
            }
        }
        s
    };
    let mids: Vec<String> = (0..30).map(|i| format!("mid-{i:02}")).collect();
    yaml.push_str(&deployment("gateway", &mids));
    for (i, m) in mids.iter().enumerate() {
        yaml.push_str(&deployment(m, &[format!("leaf-{:02}", i % 29)]));
    }
    for i in 0..29 {
        yaml.push_str(&deployment(&format!("leaf-{i:02}"), &[]));
    }
    std::fs::write(dir.join("deployments.yaml"), yaml).unwrap();
}

#[test]
fn sixty_services_are_laid_out_without_overlap() {
    let dir = tempfile::tempdir().unwrap();
    sixty_services(dir.path());
    let r = report_of(&[dir.path().to_path_buf()]);
    assert_eq!(r.graph.services.len(), 60);
    assert_eq!(r.graph.edges.len(), 60);
    let page = html::render(&r);
    let doc = parse_and_check(&page, &r);
    let pos = node_positions(&doc);
    assert_eq!(pos.len(), 60);
    assert_no_overlap(&pos);
    // The graph stays within a canvas of sensible size: 30 services in
    // one layer make one column.
    let svg = doc.select(&sel("svg#call-graph")).next().unwrap();
    let h: i64 = svg.value().attr("height").unwrap().parse().unwrap();
    let w: i64 = svg.value().attr("width").unwrap().parse().unwrap();
    assert!(h <= 34 * (NODE_H + 12), "height {h}");
    // In the page as drawn: no label's box meets another's or a service's.
    let rect = |g: scraper::ElementRef, dx: f64, dy: f64| {
        let r = g.select(&sel("rect")).next().unwrap().value();
        let f = |a: &str| r.attr(a).map_or(0.0, |v| v.parse::<f64>().unwrap());
        let (x, y) = (f("x") + dx, f("y") + dy);
        (x, y, x + f("width"), y + f("height"))
    };
    let meet = |a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)| {
        a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
    };
    let labels: Vec<_> = doc
        .select(&sel("svg#call-graph g.edge-label"))
        .map(|g| rect(g, 0.0, 0.0))
        .collect();
    assert!(labels.len() >= 30, "{} labels", labels.len());
    let boxes: Vec<_> = pos
        .iter()
        .map(|&(x, y)| (x as f64, y as f64, (x + NODE_W) as f64, (y + NODE_H) as f64))
        .collect();
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[i + 1..] {
            assert!(!meet(*a, *b), "labels {a:?} and {b:?} overlap");
        }
        for b in &boxes {
            assert!(!meet(*a, *b), "label {a:?} covers the service at {b:?}");
        }
    }
    assert!(w <= 3000, "width {w}");
    for (x, y) in &pos {
        assert!(*x >= 0 && *y >= 0 && x + NODE_W <= w && y + NODE_H <= h);
    }
}

#[test]
#[ignore = "needs ../shared/corpus (or RETRYLINT_SHARED); CI runs it with --include-ignored"]
fn a_corpus_report_lists_every_policy_found() {
    let corpus = common::shared_dir().join("corpus");
    let settings = Settings::default();
    let scan = retrylint::scan(std::slice::from_ref(&corpus), &settings).expect("scan");
    let r = report_of(std::slice::from_ref(&corpus));
    // Every policy of every file, once, at its place; the corpus holds no
    // `.git`, so paths are shown from the corpus folder.
    let shown = retrylint::render::audit::paths::Paths::new(&[corpus.display().to_string()]);
    let mut expected: Vec<(String, usize)> = Vec::new();
    for f in &scan.files {
        for p in &f.facts.policies {
            let file = shown.file(&f.source.display_path());
            assert!(!file.starts_with('/') && !file.contains(".."), "{file}");
            expected.push((file, f.source.line_col(p.span.start).line));
        }
    }
    // A use of a configured instance is listed with the instance.
    let rows: Vec<_> = r.services.iter().flat_map(|s| s.policies.iter()).collect();
    let mut listed: Vec<(String, usize)> = rows
        .iter()
        .flat_map(|p| std::iter::once(&p.source).chain(&p.used_at))
        .map(|s| (s.file.clone(), s.line))
        .collect();
    expected.sort();
    listed.sort();
    assert_eq!(listed, expected);
    let total: usize = r.summary.policies_by_system.values().sum();
    assert_eq!(total, rows.len());
    // Policies INDEX.tsv names, one or more per format read today:
    // (file, system, part of the name, total attempts as shown).
    let want: &[(&str, &str, &str, &str)] = &[
        (
            "nilesh93/training-istio/05-resilliency/all-together.yaml",
            "Istio",
            "nginx-test",
            "4",
        ),
        (
            "redhat-developer-demos/istio-tutorial/istiofiles/virtual-service-recommendation-v2_retry.yml",
            "Istio",
            "recommendation",
            "4",
        ),
        (
            "redhat-developer-demos/istio-tutorial/istiofiles/virtual-service-no-retries.yml",
            "Istio",
            "no-retries-preference",
            "1",
        ),
        (
            "resilience4j/resilience4j-spring-boot2-demo/src/main/resources/application.yml",
            "Resilience4j",
            "backendA",
            "3",
        ),
        (
            "thombergs/code-examples/resilience4j/springboot-resilience4j/src/main/resources/application.yml",
            "Resilience4j",
            "intervalFunctionExponentialExample",
            // `maxRetryAttempts: 6`, and no build file in the corpus tells
            // the Resilience4j version: the 2.x reading, the default 3.
            "3",
        ),
        (
            "resilience4j/resilience4j/resilience4j-commons-configuration/src/test/resources/resilience.properties",
            "Resilience4j",
            "backendB",
            "5",
        ),
        (
            "flackdl/cwwed/configs/ingress.yml",
            "ingress-nginx",
            "",
            "3",
        ),
        (
            "getsentry/self-hosted/nginx.conf",
            "nginx",
            "location /",
            "2",
        ),
        (
            "envoyproxy/gateway/internal/xds/translator/testdata/out/xds-ir/retry.routes.yaml",
            "Envoy",
            "first-route",
            "4",
        ),
        (
            "grpc/grpc-java/examples/src/main/resources/io/grpc/examples/retrying/retrying_service_config.json",
            "gRPC",
            "SayHello",
            "5",
        ),
        (
            "grpc/grpc-java/examples/src/main/resources/io/grpc/examples/hedging/hedging_service_config.json",
            "gRPC",
            "SayHello",
            "3",
        ),
        (
            "googleapis/googleapis/google/pubsub/v1/pubsub_grpc_service_config.json",
            "gRPC",
            "Publisher/Publish",
            "5",
        ),
        (
            "BuoyantIO/emojivoto/training/service-profiles/web-service-profile-with-retry-budget.yml",
            "Linkerd",
            "/api/vote",
            "",
        ),
        (
            "aws/aws-sdk-go-v2/config/testdata/shared_config",
            "AWS SDK",
            "retrywithstandard",
            "5",
        ),
        (
            "dotnet/docs/docs/core/resilience/snippets/http-resilience/appsettings.json",
            ".NET standard resilience",
            "RetryOptions",
            "4",
        ),
        (
            "apache/opendal/core/layers/retry/src/lib.rs",
            "backon",
            "",
            "4",
        ),
        (
            "astral-sh/uv/crates/uv-client/src/base_client.rs",
            "reqwest-retry",
            "RetryTransientMiddleware",
            "4",
        ),
        (
            "kube-rs/kube/kube-client/src/client/retry.rs",
            "tower",
            "server_retry",
            "16",
        ),
        (
            "osintbuddy/osintbuddy/rs/src/db.rs",
            "Rust retry loop",
            "",
            "6",
        ),
    ];
    let rows: Vec<&retrylint::render::audit::PolicyData> =
        r.services.iter().flat_map(|s| s.policies.iter()).collect();
    for (file, system, name, attempts) in want {
        let found = rows.iter().any(|p| {
            p.source.file.ends_with(file)
                && p.system == *system
                && p.name.as_deref().unwrap_or("").contains(name)
                && p.attempts_text.starts_with(attempts)
        });
        assert!(
            found,
            "no {system} policy `{name}` with {attempts} attempts from {file}"
        );
    }
    // And the Markdown lists them too, one row per policy (a use of a
    // configured instance, such as `retryRegistry.retry(BACKEND_B)` with
    // the constant resolved, is listed with the instance).
    let md = markdown::render(&r);
    let section = &md
        [md.find("## Retry policies by service").unwrap()..md.find("## Findings by rule").unwrap()];
    let policy_rows = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| System |"))
        .count();
    assert_eq!(policy_rows, rows.len(), "{md}");
    let page = html::render(&r);
    parse_and_check(&page, &r);
}

/// The Aspire-style solution (testdata/audit/aspire-shop, worked by hand
/// in its README): the standard handler every client gets through
/// `ConfigureHttpClientDefaults`, and the event bus's Polly pipeline, are
/// stated with their attempts; the report does not say that no retry
/// applies.
#[test]
fn aspire_solution_states_the_standard_handler_and_the_event_bus() {
    let r = report("testdata/audit/aspire-shop");
    let policies: Vec<_> = r.services.iter().flat_map(|s| s.policies.iter()).collect();
    let standard = policies
        .iter()
        .find(|p| p.name.as_deref() == Some("ConfigureHttpClientDefaults"))
        .expect("the standard handler on every client");
    assert_eq!(standard.system, ".NET standard resilience");
    assert_eq!(standard.attempts, Some(4));
    assert!(standard.defaulted.contains(&"attempts"), "{standard:?}");
    assert!(standard.per_try_timeout.starts_with("10s"), "{standard:?}");
    assert!(standard.overall_timeout.starts_with("30s"), "{standard:?}");
    let bus = policies
        .iter()
        .find(|p| p.name.as_deref() == Some("CreateResiliencePipeline"))
        .expect("the event bus pipeline");
    assert_eq!(bus.system, "Polly");
    // 1 + RetryCount 10 (the options' initialiser, passed by the one call).
    assert_eq!(bus.attempts, Some(11));
    assert_eq!(bus.jitter, "none");
    let md = markdown::render(&r);
    assert!(!md.contains("No retry applies"), "{md}");
    // The standard handler is stated on both HttpClient calls (issue 19,
    // item 5): the services' calls, found through their ProjectReference
    // to ServiceDefaults, not "calls it makes".
    assert!(
        md.contains("basketservice → catalogservice<br>catalogservice → basketservice"),
        "{md}"
    );
    assert!(
        md.contains("calls to basketservice, catalogservice"),
        "{md}"
    );
    let codes: BTreeSet<&str> = r.findings.iter().map(|g| g.code).collect();
    assert!(codes.contains("RL103"), "{codes:?}");
    assert!(codes.contains("RL203"), "{codes:?}");
}
