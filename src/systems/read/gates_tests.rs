use super::{Head, Root, accepts, has_gate, head};
use crate::extract::{Facts, template_regions};
use crate::systems::read::unread_docs::blank_docs;
use crate::systems::read::unread_docs::tests::yaml_files;
use std::path::{Path, PathBuf};

/// A file's facts as `extract_yaml_stream` reads them, with the root-key
/// gates or with definitions blanked only.
fn facts(path: &Path, text: &str, gates: bool) -> Facts {
    if gates {
        // As a scan reads it (a stream whose documents are all blanked is
        // not parsed at all).
        // With what the scan's sniff found out (`Sniffed`), as the scan.
        let sniffed = super::super::classify_sniffed(path, text.as_bytes())
            .map(|(_, s)| s)
            .unwrap_or_default();
        let mut facts = Facts::default();
        super::super::extract_yaml_stream(
            path,
            text,
            &[],
            super::super::Gates::On,
            sniffed,
            &mut facts,
        );
        return facts;
    }
    let templates = template_regions(text);
    let wanted = super::super::wanted_readers(path, text);
    let readers = super::super::gated_readers(path, text, &wanted);
    let blanked = templates
        .is_empty()
        .then(|| blank_docs(text, readers.as_deref().filter(|_| gates)))
        .flatten();
    let file = crate::yaml::parse(blanked.as_deref().unwrap_or(text));
    let mut facts = Facts::default();
    super::super::extract_parsed_stream(path, text, &file, templates, &wanted, &[], &mut facts);
    facts
}

/// Whether the gates change no fact of `text`; whether they blanked a
/// document.
fn same_facts(path: &Path, text: &str) -> bool {
    let (a, b) = (facts(path, text, true), facts(path, text, false));
    assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", path.display());
    let wanted = super::super::wanted_readers(path, text);
    let readers = super::super::gated_readers(path, text, &wanted);
    template_regions(text).is_empty()
        && blank_docs(text, readers.as_deref()) != blank_docs(text, None)
}

fn map<'a>(keys: &[&'a str], api: Option<&'a str>, kind: Option<&'a str>) -> Head<'a> {
    Head::Map(Root {
        keys: keys.to_vec(),
        api,
        kind,
    })
}

#[test]
fn the_root_is_read_from_plain_keys_at_column_0() {
    let deployment = "# a comment\napiVersion: apps/v1\nkind: Deployment # inline\nmetadata:\n  name: x\nspec:\n  replicas: 1\n";
    assert_eq!(
        head(deployment, true),
        map(
            &["apiVersion", "kind", "metadata", "spec"],
            Some("apps/v1"),
            Some("Deployment")
        )
    );
    // A compact sequence under a key with no value on its line.
    let listed = "gateways:\n- apiVersion: gateway.networking.k8s.io/v1\n  kind: Gateway\n-\n  x: 1\nxdsIR:\n  a: b\n";
    assert_eq!(head(listed, true), map(&["gateways", "xdsIR"], None, None));
    assert_eq!(
        head("kind: \"ConfigMap\"\napiVersion: 'v1'\r\n", false),
        map(&["kind", "apiVersion"], Some("v1"), Some("ConfigMap"))
    );
    assert_eq!(head("\n# only a comment\n\n", true), Head::Empty);
    for unknown in [
        "  indented: 1\n",
        "{kind: ConfigMap}\n",
        "\"kind\": ConfigMap\n",
        "<<: *base\nkind: ConfigMap\n",
        "kind: &k ConfigMap\n",
        "kind: *k\n",
        "kind: !!str ConfigMap\n",
        "kind: |\n  ConfigMap\n",
        "kind:\n  ConfigMap\n",
        "kind: Config\n  Map\n",
        "kind: \"Config\\u004dap\"\n",
        "kind: 'it''s'\n",
        "kind: a: b\n",
        "kind: ConfigMap\nkind: Secret\n",
        "apiVersion: v1\napiVersion: v2\n",
        "- kind: ConfigMap\n",
        "a: 1\n- b\n",
        "? complex\n: value\n",
        "http://x: 1\n",
        "%YAML 1.2\n",
        "key with space: 1\n",
        "a:b\n",
    ] {
        assert_eq!(head(unknown, true), Head::Unknown, "{unknown}");
    }
}

#[test]
fn each_gate_mirrors_its_reader() {
    let r = |keys: &[&'static str], api: Option<&'static str>, kind: Option<&'static str>| Root {
        keys: keys.to_vec(),
        api,
        kind,
    };
    let object =
        |api: &'static str, kind: &'static str| r(&["apiVersion", "kind"], Some(api), Some(kind));
    let vs = object("networking.istio.io/v1", "VirtualService");
    let route = object("gateway.networking.k8s.io/v1", "HTTPRoute");
    let config_map = object("v1", "ConfigMap");
    let listed = r(&["gateways", "httpRoutes", "xdsIR"], None, None);
    assert!(accepts("istio", &vs) && !accepts("istio", &route) && accepts("istio", &config_map));
    assert!(accepts("istio", &r(&["meshConfig"], None, None)));
    assert!(!accepts(
        "istio",
        &r(&["meshConfig", "kind"], None, Some("X"))
    ));
    assert!(accepts("spring", &r(&["Spring.cloud.gateway"], None, None)));
    assert!(accepts(
        "spring",
        &r(&["server", "resilience-4j"], None, None)
    ));
    assert!(accepts("spring", &r(&["feign"], None, None)));
    assert!(!accepts("spring", &listed) && !accepts("spring", &config_map));
    assert!(accepts("envoy", &listed) && accepts("envoy", &config_map) && !accepts("envoy", &vs));
    assert!(accepts("gatewayapi", &route) && !accepts("gatewayapi", &listed));
    assert!(accepts("workload", &object("apps/v1", "Deployment")) && !accepts("workload", &listed));
    assert!(accepts("embedded", &object("v1", "Secret")) && !accepts("embedded", &route));
    assert!(accepts(
        "ingress-nginx",
        &object("networking.k8s.io/v1", "Ingress")
    ));
    assert!(accepts("linkerd", &object("v1", "Service")) && !accepts("linkerd", &route));
    assert!(accepts(
        "knative",
        &object("serving.knative.dev/v1", "Service")
    ));
    assert!(accepts(
        "envoygateway",
        &object("gateway.envoyproxy.io/v1alpha1", "BackendTrafficPolicy")
    ));
    assert!(
        accepts("dapr", &object("dapr.io/v1alpha1", "Resiliency"))
            && !accepts("dapr", &object("dapr.io/v1alpha1", "Component"))
    );
    // A multi-app run file (`version`, `apps`), not an object.
    let run = r(&["version", "apps"], None, None);
    assert!(accepts("dapr-run", &run) && !accepts("dapr-run", &object("v1", "List")));
    // A reader with no gate reads every document.
    assert!(accepts("grpc", &listed) && accepts("aws", &listed) && accepts("dotnet", &listed));
}

/// The documents a Spring document's placeholders resolve from are read
/// whatever their roots: nothing of a file Spring reads is blanked.
#[test]
fn a_spring_file_keeps_every_document() {
    let text = "app:\n  attempts: 5\n---\nresilience4j:\n  retry:\n    instances:\n      a:\n        maxAttempts: ${app.attempts}\n---\ngateways:\n- apiVersion: gateway.networking.k8s.io/v1\n  kind: Gateway\n";
    let p = Path::new("conf/retry.yaml");
    assert!(!same_facts(p, text), "a document was blanked");
    let read = facts(p, text, true);
    assert_eq!(read.policies.len(), 1, "{read:?}");
    assert_eq!(
        read.policies[0].attempts.value.count,
        crate::model::AttemptCount::Finite(5)
    );
}

#[test]
fn a_document_no_wanted_reader_accepts_is_blanked() {
    let listed = "gateways:\n- apiVersion: gateway.networking.k8s.io/v1\n  kind: Gateway\n  metadata:\n    name: eg\n";
    let route = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\nspec:\n  parentRefs:\n  - name: eg\n  rules:\n  - backendRefs:\n    - name: backend\n      port: 3000\n    timeouts:\n      request: 10s\n";
    let p = Path::new("testdata/routes.yaml");
    let text = format!("{listed}---\n{route}");
    assert!(same_facts(p, &text));
    let wanted = super::super::wanted_readers(p, &text);
    let readers = super::super::gated_readers(p, &text, &wanted).unwrap();
    let out = blank_docs(&text, Some(readers.as_slice())).unwrap();
    assert_eq!(out.len(), text.len());
    assert!(out.starts_with('~') && out.ends_with(route), "{out}");
    assert!(!facts(p, &text, true).timeouts.is_empty());
    // In a Compose file every document is offered to the workload reader.
    assert!(super::super::gated_readers(Path::new("docker-compose.yml"), "", &wanted).is_none());
    // Alone, the listed document is not parsed at all.
    assert!(same_facts(p, listed));
}

pub(in crate::systems::read) use crate::extract::fixture_roots;

/// A document the gates reject wherever it stands: roots a Gateway API
/// test file has, with the words of every gated reader inside.
const LISTED: &str = "gateways:\n- apiVersion: gateway.networking.k8s.io/v1\n  kind: Deployment\n  data:\n    mesh: defaultHttpRetryPolicy\nhttpRoutes:\n- kind: ConfigMap\n  x: networking.istio.io linkerd.io serving.knative.dev Ingress BackendTrafficPolicy\n";

/// Every YAML and JSON file of the fixtures and the shared corpus, alone,
/// after a document the gates reject and before one: the same facts with
/// the gates and without.
#[test]
fn gates_change_no_fact() {
    let files = yaml_files(&fixture_roots());
    assert!(files.len() > 100, "{}", files.len());
    let mut gated = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        gated += usize::from(same_facts(f, &text));
        // A syntax error in a document no reader reads is not reported
        // with the gates (`an_error_in_a_document_no_reader_reads_is_not_reported`);
        // beside LISTED's Kubernetes words it would be without them.
        if !crate::yaml::parse(&text).errors.is_empty() {
            continue;
        }
        gated += usize::from(same_facts(f, &format!("{LISTED}---\n{text}")));
        gated += usize::from(same_facts(f, &format!("{text}\n---\n{LISTED}")));
    }
    // Not vacuous: the gates blanked documents in many of them.
    assert!(gated > files.len() / 2, "{gated} of {} files", files.len());
    println!(
        "{} files, {gated} readings with a document gated",
        files.len()
    );
}

/// Each gated reader, run alone on every document of every fixture and
/// corpus file that its gate rejects (whatever the file's sniff words),
/// reads nothing from it.
#[test]
fn a_rejected_document_gives_no_fact() {
    let files = yaml_files(&fixture_roots());
    let mut rejected = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if !template_regions(&text).is_empty() {
            continue;
        }
        let wanted = super::super::wanted_readers(f, &text);
        if super::super::gated_readers(f, &text, &wanted).is_none() {
            continue;
        }
        let file = crate::yaml::parse(&text);
        let Some(docs) = super::super::unread_docs::documents(&text) else {
            continue;
        };
        if docs.len() != file.documents.len() {
            continue;
        }
        for (i, ((range, bare), doc)) in docs.iter().zip(&file.documents).enumerate() {
            let Head::Map(root) = (if *bare {
                head(&text[range.clone()], i == 0)
            } else {
                Head::Unknown
            }) else {
                continue;
            };
            for (name, _, read) in super::super::DOC_EXTRACTORS.iter() {
                if accepts(name, &root) {
                    continue;
                }
                rejected += 1;
                let ctx = crate::extract::DocCtx {
                    path: f,
                    text: &text,
                    file: &file,
                    doc,
                    outer: &[],
                };
                let mut facts = Facts::default();
                let claimed = read(&ctx, &mut facts);
                assert!(
                    !claimed && format!("{facts:?}") == format!("{:?}", Facts::default()),
                    "{name} read document {i} of {}: {facts:?}",
                    f.display()
                );
            }
        }
    }
    assert!(rejected > 1000, "{rejected}");
    println!("{rejected} rejections checked");
}

/// The same over a real checkout: `RETRYLINT_DOC_SKIP_DIR=/path cargo test
/// --lib gates_real -- --ignored`.
#[test]
#[ignore = "needs RETRYLINT_DOC_SKIP_DIR=<a checkout>"]
fn gates_real() {
    let dir = crate::systems::read::real_checkout("RETRYLINT_DOC_SKIP_DIR");
    let files = yaml_files(&[dir]);
    let mut gated = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if crate::systems::classify(f, text.as_bytes()).is_none() {
            continue;
        }
        super::super::owners_tests::keys_find_what_overlapping_finds(text.as_bytes());
        gated += usize::from(same_facts(f, &text));
    }
    println!(
        "{} files, {gated} with a document gated, facts identical",
        files.len()
    );
}

/// The one behaviour change (as for definitions, `unread_docs`): a
/// document no reader reads is not parsed, so a syntax error inside it is
/// no longer an RL903; under a root a reader reads it still is.
#[test]
fn an_error_in_a_document_no_reader_reads_is_not_reported() {
    let bomb: String = (1..10)
        .map(|i| {
            format!(
                "a{i}: &a{i} [{}]\n",
                vec![format!("*a{}", i - 1); 10].join(", ")
            )
        })
        .collect();
    let unread = format!("# resilience4j\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n{bomb}");
    let p = Path::new("conf/bomb.yaml");
    let rl903 = |f: &Facts| {
        f.diagnostics
            .iter()
            .filter(|d| d.code.as_str() == "RL903")
            .count()
    };
    assert_eq!(rl903(&facts(p, &unread, false)), 1);
    assert_eq!(rl903(&facts(p, &unread, true)), 0);
    let read = format!("{unread}resilience4j.retry.configs.default.maxAttempts: 3\n");
    assert_eq!(rl903(&facts(p, &read, true)), 1);
}

/// `has_gate` names exactly the readers whose gate can reject a document:
/// each rejects an RBAC object, and every other reader accepts it.
#[test]
fn has_gate_names_the_gated_readers() {
    let role = Root {
        keys: vec!["apiVersion", "kind", "metadata", "rules"],
        api: Some("rbac.authorization.k8s.io/v1"),
        kind: Some("ClusterRole"),
    };
    let mut gated = 0;
    for (name, _, _) in super::super::DOC_EXTRACTORS.iter() {
        assert_eq!(has_gate(name), !accepts(name, &role), "{name}");
        gated += usize::from(has_gate(name));
    }
    assert_eq!(gated, 13);
}

/// What the sniff notes of a YAML file (whether it is a Compose file) is
/// what the read would find out itself, on every YAML file of the
/// fixtures and the corpus and on files named as Compose files.
#[test]
fn the_sniff_notes_what_the_read_would_find() {
    let files = yaml_files(&fixture_roots());
    assert!(files.len() > 100, "{}", files.len());
    let mut noted = 0;
    let mut compose = 0;
    let named = [
        (
            PathBuf::from("docker-compose.yml"),
            "services:\n  a:\n    image: x\n".to_string(),
        ),
        (
            PathBuf::from("apps.yml"),
            "services:\n  a:\n    build: .\n".to_string(),
        ),
        (
            PathBuf::from("x.yaml"),
            "a:\n  services:\n    b:\n      image: y\n".to_string(),
        ),
    ];
    let read: Vec<(PathBuf, String)> = files
        .iter()
        .filter_map(|f| Some((f.clone(), std::fs::read_to_string(f).ok()?)))
        .chain(named)
        .collect();
    for (path, text) in &read {
        let Some((_, sniffed)) = super::super::classify_sniffed(path, text.as_bytes()) else {
            continue;
        };
        if let Some(c) = sniffed.compose {
            noted += 1;
            compose += usize::from(c);
            assert_eq!(
                c,
                super::super::compose_file(path, text),
                "{}",
                path.display()
            );
        }
    }
    assert!(noted > 100 && compose >= 2, "{noted} {compose}");
}
