//! `extract_overlay` blanks the documents no wanted reader reads in a
//! templated text too, and `extract_yaml_stream` hands back the scan's
//! whole parse of a templated one: neither changes what a Kustomize
//! overlay takes of a reading (policies, timeouts, workloads).

use crate::model::Syntax;
use crate::systems::read::gates::tests::fixture_roots;
use crate::systems::read::unread_docs::tests::yaml_files;
use std::path::Path;

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: virtualservices.networking.istio.io\nspec:\n  group: networking.istio.io\n  names:\n    kind: VirtualService\n";

/// A ConfigMap holding a Go template, as kubeflow/manifests' Istio,
/// Knative and KServe resources do (a rendered overlay writes it quoted).
const TEMPLATED: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  t: \"{{ .Name }}-{{ .Namespace }}\"\n";

/// A ServiceAccount: no reader reads one.
const UNREAD: &str = "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: s\n";

/// What an overlay takes of a reading.
fn used(f: &crate::model::Facts) -> String {
    format!("{:?} {:?} {:?}", f.policies, f.timeouts, f.services)
}

/// Every YAML and JSON file of the fixtures and the corpus, alone and
/// between a definition, a templated ConfigMap and a document no reader
/// reads: the overlay's reading takes what the scan's does.
#[test]
fn an_overlay_reading_takes_what_the_whole_parse_gives() {
    let files = yaml_files(&fixture_roots());
    assert!(files.len() > 100, "{}", files.len());
    let (mut templated, mut blanked) = (0, 0);
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        for text in [
            text.clone(),
            format!("{CRD}---\n{TEMPLATED}---\n{UNREAD}---\n{text}\n---\n{CRD}"),
        ] {
            let whole = super::extract(f, &text, Syntax::Yaml);
            let overlay = super::extract_overlay(f, &text);
            assert_eq!(used(&overlay), used(&whole), "{}", f.display());
            if !crate::extract::template_regions(&text).is_empty() {
                templated += 1;
                let wanted = super::wanted_readers(f, &text);
                let readers = super::gated_readers(f, &text, &wanted);
                blanked += usize::from(!matches!(
                    super::unread_docs::blank_unread_stream(&text, readers.as_deref()),
                    super::unread_docs::Blanked::Nothing
                ));
            }
        }
    }
    assert!(templated > 100 && blanked > 100, "{templated} {blanked}");
}

/// The scan keeps its parse of a templated YAML text it parsed whole;
/// of one with documents blanked (the loader parses it whole), or of any
/// other text, none.
#[test]
fn the_scan_keeps_the_whole_parse_of_a_templated_text_only() {
    let p = Path::new("k/all.yaml");
    let text = format!("{TEMPLATED}---\n{UNREAD}");
    let kept = super::extract(p, TEMPLATED, Syntax::Yaml).parse.0;
    assert_eq!(kept.as_deref(), Some(&crate::yaml::parse(TEMPLATED)));
    let blanked = format!("{CRD}---\n{text}");
    assert!(super::extract(p, &blanked, Syntax::Yaml).parse.0.is_none());
    assert!(super::extract(p, UNREAD, Syntax::Yaml).parse.0.is_none());
    // Not by the other readings: a template rendered, an overlay.
    assert!(super::extract_overlay(p, &text).parse.0.is_none());
    assert!(super::extract_rendered(p, &text).parse.0.is_none());
}
