//! Key names as the configured systems compare them, and the one
//! "did you mean" engine every message uses: [`did_you_mean`] ranks the
//! candidates by Jaro-Winkler similarity of their relaxed forms
//! ([`normalise_key`]); [`is_typo_of`] is the one test of whether an
//! unknown name is a misspelling worth reporting at all.
//!
//! Part of the syntax layer: it imports nothing of the crate, so extractors,
//! the configuration loader and the rules can all call it.

/// The closest of `candidates` to `word`, for "did you mean" help: among
/// the candidates fewest edits away (Levenshtein, as written; all of them
/// when none is within four edits), the most similar by Jaro-Winkler of the
/// relaxed forms ([`normalise_key`]), if that is at least 0.85. The edit
/// distance keeps `proxy_next_upstream_try` from suggesting the shorter
/// `proxy_next_upstream` over `proxy_next_upstream_tries`.
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let candidates: Vec<&str> = candidates.into_iter().collect();
    let distance = |c: &str| strsim::levenshtein(c, word);
    let best = candidates.iter().map(|c| distance(c)).min()?;
    let w = normalise_key(word);
    candidates
        .into_iter()
        .filter(|c| best > 4 || distance(c) == best)
        .map(|c| (strsim::jaro_winkler(&w, &normalise_key(c)), c))
        .filter(|(score, _)| *score >= 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// Lower case without `-` and `_`: how relaxed binding compares keys.
pub fn normalise_key(k: &str) -> String {
    k.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A whole property or environment name as Spring's relaxed binding
/// meets it: every separator dropped, lower-cased, an index left off
/// (`spring.kafka.bootstrap-servers[0]` and `SPRING_KAFKA_BOOTSTRAP_SERVERS`
/// are both `springkafkabootstrapservers`).
pub fn relaxed_name(key: &str) -> String {
    key.split('[')
        .next()
        .unwrap_or(key)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Whether `word` is at most two single-character edits (Levenshtein) from
/// `known`: a likely misspelling of it (`proxy_read_timout`). Extractors
/// that see many names they do not model report only these, then let
/// [`did_you_mean`] name the fix.
pub fn is_typo_of(word: &str, known: &str) -> bool {
    // The length difference is a lower bound of the distance: most names
    // are rejected without computing it.
    word.chars().count().abs_diff(known.chars().count()) <= 2
        && strsim::levenshtein(word, known) <= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_and_typos() {
        let known = [
            "proxy_read_timeout",
            "proxy_next_upstream_tries",
            "proxy_next_upstream_timeout",
        ];
        assert_eq!(
            did_you_mean("proxy_read_timout", known),
            Some("proxy_read_timeout")
        );
        assert_eq!(
            did_you_mean("proxy_next_upstream_try", known),
            Some("proxy_next_upstream_tries")
        );
        assert_eq!(
            did_you_mean("Proxy-Read-Timeout", known),
            Some("proxy_read_timeout")
        );
        assert_eq!(did_you_mean("gzip", known), None);
        let ingress = ["proxy-next-upstream", "proxy-next-upstream-tries"];
        assert_eq!(
            did_you_mean("proxy-next-upstream-try", ingress),
            Some("proxy-next-upstream-tries")
        );
        assert!(is_typo_of("_read_timout", "_read_timeout"));
        assert!(is_typo_of("_next_upstream_tris", "_next_upstream_tries"));
        // Three edits: not a typo by distance (nginx reports it by prefix).
        assert!(!is_typo_of("_next_upstream_try", "_next_upstream_tries"));
        assert!(!is_typo_of("_redirect", "_read_timeout"));
        assert!(!is_typo_of("a", "abcd"));
    }
}
