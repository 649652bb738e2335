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
    let all = all_words();
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

/// The search by keys gives the overlapping search's flags, on `text` and
/// on each of its last bytes (the packed search takes another path on a
/// haystack shorter than its keys).
pub(in crate::systems::read) fn keys_find_what_overlapping_finds(text: &[u8]) {
    let (keys, all) = DOC_OWNERS.both(text);
    if let Some(keys) = keys {
        assert_eq!(keys, all, "{}", String::from_utf8_lossy(text));
    }
    for n in 0..text.len().min(8) {
        let tail = &text[text.len() - n..];
        let (keys, all) = DOC_OWNERS.both(tail);
        if let Some(keys) = keys {
            assert_eq!(keys, all, "{}", String::from_utf8_lossy(tail));
        }
    }
}

#[test]
fn the_search_by_keys_finds_what_the_overlapping_search_finds() {
    let all = all_words();
    for a in &all {
        for b in &all {
            keys_find_what_overlapping_finds(format!("{a}{b}").as_bytes());
            // A key of one word that is not the word, before another.
            let cut = &a[..a.len() - 1];
            keys_find_what_overlapping_finds(format!("{cut}{b} {cut}").as_bytes());
        }
    }
    let files = super::unread_docs::tests::yaml_files(&super::gates::tests::fixture_roots());
    assert!(files.len() > 100, "{}", files.len());
    for f in &files {
        if let Ok(text) = std::fs::read(f) {
            keys_find_what_overlapping_finds(&text);
        }
    }
}

#[test]
#[cfg(target_arch = "x86_64")]
fn the_search_by_keys_is_used_where_the_cpu_has_it() {
    if std::arch::is_x86_feature_detected!("ssse3") {
        assert!(DOC_OWNERS.both(b"").0.is_some());
    }
}

/// After a reader is found the search goes on with the keys of the
/// readers left: a word of another reader later in the text (its key
/// shared with a found reader's word or not) is still found, past more of
/// the found reader's words.
#[test]
fn words_after_a_found_reader_are_still_found() {
    let all = all_words();
    for a in &all {
        for b in &all {
            let text = format!("{a}\n{}{a} {b}\n", "x: y\n".repeat(20));
            keys_find_what_overlapping_finds(text.as_bytes());
            assert_eq!(
                DOC_OWNERS.found_in(text.as_bytes()),
                one_by_one(&text),
                "{a} {b}"
            );
        }
    }
}

/// The narrowed search has no key of a found reader that no reader left
/// shares: with every reader but the workload reader found, a text of
/// Istio words has no place to stop at (no key of the workload reader's
/// `kind: ..` words is in it), and a workload word is stopped at inside
/// it, where its key is.
#[test]
#[cfg(target_arch = "x86_64")]
fn a_narrowed_search_drops_the_keys_of_the_readers_found() {
    if !std::arch::is_x86_feature_detected!("ssse3") {
        return;
    }
    let workload = DOC_EXTRACTORS
        .iter()
        .position(|(name, _, _)| *name == "workload")
        .expect("the workload reader");
    let others = (0..DOC_EXTRACTORS.len().min(64))
        .filter(|&i| i != workload)
        .fold(0u64, |m, i| m | 1 << i);
    let narrowed = DOC_OWNERS.narrowed(others).expect("a packed search");
    let text = b"apiVersion: networking.istio.io/v1\nspec:\n  static_resources: {}\n";
    assert!(
        narrowed
            .find_in(text, aho_corasick::Span::from(0..text.len()))
            .is_none()
    );
    let text = b"x: 1\nkind: Deployment\n";
    let at = narrowed
        .find_in(text, aho_corasick::Span::from(0..text.len()))
        .map(|m| m.start());
    assert!(
        at.is_some_and(|p| (5..5 + "kind: Deployment".len()).contains(&p)),
        "{at:?}"
    );
}

/// Every word of every YAML reader.
fn all_words() -> Vec<&'static str> {
    DOC_EXTRACTORS
        .iter()
        .flat_map(|(_, needles, _)| needles.iter().copied())
        .collect()
}

/// Where the CPU has the packed search, the words are searched by their
/// rarer windows, not their first bytes: the workload reader's
/// `kind: Deployment` not by `kind` (the commonest window: its `:`
/// is rarer), and a word of four bytes by itself.
#[test]
#[cfg(target_arch = "x86_64")]
fn the_words_are_searched_by_rarer_windows() {
    if !std::arch::is_x86_feature_detected!("ssse3") {
        return;
    }
    assert!(
        DOC_OWNERS
            .key_offset("kind: Deployment")
            .is_some_and(|o| o >= 1)
    );
    assert_eq!(DOC_OWNERS.key_offset("etry"), Some(0));
}
