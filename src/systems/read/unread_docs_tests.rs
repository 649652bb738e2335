use super::blank;
use crate::extract::{Facts, template_regions};
use std::path::{Path, PathBuf};

/// A file's facts as `extract_yaml_stream` reads them, with or without
/// the unread documents blanked.
fn facts(path: &Path, text: &str, blanking: bool) -> Facts {
    let templates = template_regions(text);
    let blanked = (blanking && templates.is_empty())
        .then(|| blank(text))
        .flatten();
    let file = crate::yaml::parse(blanked.as_deref().unwrap_or(text));
    let mut facts = Facts::default();
    let wanted = super::super::wanted_readers(path, text);
    super::super::extract_parsed_stream(path, text, &file, templates, &wanted, &[], &mut facts);
    facts
}

/// Whether blanking `text` changes no fact; whether it blanked anything.
fn same_facts(path: &Path, text: &str) -> bool {
    let (a, b) = (facts(path, text, true), facts(path, text, false));
    assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", path.display());
    blank(text).is_some()
}

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: virtualservices.networking.istio.io
spec:
  group: networking.istio.io
  names:
    kind: VirtualService
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        properties:
          retries:
            description: \"Retry policy for HTTP requests: attempts, perTryTimeout, retryOn (gateway.networking.k8s.io, BackendTrafficPolicy, ConfigMap).\"
            properties:
              attempts:
                type: integer
";

const VIRTUAL_SERVICE: &str = "apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews
spec:
  hosts: [reviews]
  http:
  - route:
    - destination:
        host: reviews
    retries:
      attempts: 5
      perTryTimeout: 2s
    timeout: 3s
";

#[test]
fn a_definition_is_blanked_and_the_other_documents_read_as_before() {
    let p = Path::new("deploy/all.yaml");
    for text in [
        format!("{CRD}---\n{VIRTUAL_SERVICE}"),
        format!("---\n{CRD}---\n{VIRTUAL_SERVICE}---\n{CRD}"),
        format!("# Source: crds/all.yaml\n{CRD}\n---\n\n{VIRTUAL_SERVICE}"),
        format!("{VIRTUAL_SERVICE}---\n{CRD}").replace('\n', "\r\n"),
        format!("{VIRTUAL_SERVICE}---   \n{CRD}---\n"),
        CRD.to_string(),
    ] {
        assert!(same_facts(p, &text), "nothing blanked in\n{text}");
        let out = blank(&text).unwrap();
        // Same length, same lines: every offset stays.
        assert_eq!(out.len(), text.len());
        assert_eq!(
            out.match_indices('\n').collect::<Vec<_>>(),
            text.match_indices('\n').collect::<Vec<_>>()
        );
        assert!(!out.contains("CustomResourceDefinition"), "{out}");
        // As many documents as before.
        let (a, b) = (crate::yaml::parse(&out), crate::yaml::parse(&text));
        assert_eq!(a.documents.len(), b.documents.len());
        assert!(a.errors.is_empty() && b.errors.is_empty());
    }
    let read = facts(p, &format!("{CRD}---\n{VIRTUAL_SERVICE}"), true);
    assert_eq!(read.policies.len(), 1, "{read:?}");
}

#[test]
fn only_a_definition_at_column_0_in_plain_keys_is_blanked() {
    let indented: String = CRD.lines().map(|l| format!("  {l}\n")).collect();
    let flow = "{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition}\n";
    let quoted_key = CRD.replace("metadata:", "\"metadata\":");
    let merged = CRD.replace("metadata:", "<<: *base\nmetadata:");
    let two_kinds = format!("{CRD}kind: ConfigMap\n");
    let not_apiextensions = CRD.replace("apiextensions.k8s.io/v1", "example.com/v1");
    let compact_seq = format!("{CRD}items:\n- a\n");
    for text in [
        indented,
        flow.to_string(),
        quoted_key,
        merged,
        two_kinds,
        not_apiextensions,
        compact_seq,
        format!("%YAML 1.2\n---\n{CRD}"),
        format!("{CRD}...\n---\n{VIRTUAL_SERVICE}"),
        format!("--- !crd\n{CRD}"),
        format!("{{{{- if .Values.crds }}}}\n{CRD}{{{{- end }}}}\n"),
        VIRTUAL_SERVICE.to_string(),
    ] {
        assert_eq!(blank(&text), None, "{text}");
        same_facts(Path::new("x.yaml"), &text);
    }
    // A later document may be blanked even when an earlier one is not.
    let mixed = format!("--- !crd\n{CRD}---\n{CRD}");
    let out = blank(&mixed).unwrap();
    assert!(out.contains("CustomResourceDefinition"));
    assert_eq!(out.matches("CustomResourceDefinition").count(), 1);
}

/// Every YAML/JSON file under `roots` (the gates' tests use it too).
pub(in crate::systems::read) fn yaml_files(roots: &[PathBuf]) -> Vec<PathBuf> {
    crate::systems::read::files_under(roots, |p| {
        p.extension()
            .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
    })
}

/// Every YAML and JSON file of the fixtures and the shared corpus, each
/// alone and each after a definition: the same facts with blanking and
/// without.
#[test]
fn blanking_changes_no_fact() {
    let mut roots = vec![PathBuf::from("testdata")];
    let shared = std::env::var_os("RETRYLINT_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared"));
    if shared.join("corpus").is_dir() {
        roots.push(shared.join("corpus"));
    } else {
        println!("../shared is absent: blanking checked on testdata only");
    }
    let files = yaml_files(&roots);
    assert!(files.len() > 100, "{}", files.len());
    let mut blanked = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        blanked += usize::from(same_facts(f, &text));
        let joined = format!("{CRD}---\n{text}");
        same_facts(f, &joined);
    }
    println!("{} files, {blanked} with a definition blanked", files.len());
}

/// The same over a real checkout: `RETRYLINT_DOC_SKIP_DIR=/path cargo test
/// --lib blanking_real -- --ignored`.
#[test]
#[ignore = "needs RETRYLINT_DOC_SKIP_DIR=<a checkout>"]
fn blanking_real() {
    let dir = crate::systems::read::real_checkout("RETRYLINT_DOC_SKIP_DIR");
    let files = yaml_files(&[dir]);
    let mut blanked = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if crate::systems::classify(f, text.as_bytes()).is_none() {
            continue;
        }
        blanked += usize::from(same_facts(f, &text));
    }
    println!(
        "{} files, {blanked} with a definition blanked, facts identical",
        files.len()
    );
}
