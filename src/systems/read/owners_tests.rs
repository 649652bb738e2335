//! The one-pass needle search agrees with searching each extractor's
//! needles one by one.

use super::{DOC_EXTRACTORS, DOC_OWNERS};

fn one_by_one(text: &str) -> Vec<bool> {
    DOC_EXTRACTORS
        .iter()
        .map(|(_, needles, _)| needles.iter().any(|n| text.contains(n)))
        .collect()
}

#[test]
fn every_needle_alone_and_in_pairs_is_found_as_before() {
    let all: Vec<&str> = DOC_EXTRACTORS
        .iter()
        .flat_map(|(_, needles, _)| needles.iter().copied())
        .collect();
    assert_eq!(DOC_OWNERS.found_in(b""), one_by_one(""));
    for a in &all {
        let text = format!("x: {a}\n");
        assert_eq!(
            DOC_OWNERS.found_in(text.as_bytes()),
            one_by_one(&text),
            "{a}"
        );
        for b in &all {
            // Glued, so that one needle's end may be another's start.
            let text = format!("{a}{b}");
            assert_eq!(
                DOC_OWNERS.found_in(text.as_bytes()),
                one_by_one(&text),
                "{a} {b}"
            );
        }
    }
}

#[test]
fn a_needle_inside_another_is_found() {
    // "Ingress" (ingress-nginx's reader) inside a longer word of another
    // needle set, and a kind line holding a word of a third.
    for text in [
        "kind: IngressClass\n",
        "apiVersion: networking.istio.io/v1\nkind: VirtualService\n",
        "kind: ConfigMap\ndata:\n  envoy.yaml: |\n    static_resources: {}\n",
    ] {
        assert_eq!(
            DOC_OWNERS.found_in(text.as_bytes()),
            one_by_one(text),
            "{text}"
        );
    }
}
