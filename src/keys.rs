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
    // Byte by byte for an ASCII key (every key a reader compares): the
    // same string as `char::to_lowercase` gives, without building it a
    // `char` at a time (Spring's readers normalise every segment of
    // every property, 117 M instructions of envoyproxy/gateway's cold
    // scan went to `String: FromIterator<char>`).
    if k.is_ascii() {
        let mut out = k.as_bytes().to_vec();
        out.retain(|b| *b != b'-' && *b != b'_');
        out.make_ascii_lowercase();
        // ASCII in, ASCII out.
        return String::from_utf8(out).unwrap_or_default();
    }
    k.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `k` normalises to `want` (`normalise_key(k) == want`), without
/// building the normalised key: Spring's readers ask this of every
/// segment of every property of a document, most of them no.
pub fn normalises_to(k: &str, want: &str) -> bool {
    if !k.is_ascii() {
        return normalise_key(k) == want;
    }
    let mut w = want.bytes();
    for b in k.bytes() {
        if b == b'-' || b == b'_' {
            continue;
        }
        if w.next() != Some(b.to_ascii_lowercase()) {
            return false;
        }
    }
    w.next().is_none()
}

/// A whole property or environment name as Spring's relaxed binding
/// meets it: every separator dropped, lower-cased, an index left off
/// (`spring.kafka.bootstrap-servers[0]` and `SPRING_KAFKA_BOOTSTRAP_SERVERS`
/// are both `springkafkabootstrapservers`).
pub fn relaxed_name(key: &str) -> String {
    let head = key.split('[').next().unwrap_or(key);
    // Byte by byte: only ASCII letters and digits are kept (no byte of a
    // non-ASCII character is one).
    let mut out: Vec<u8> = head.bytes().filter(u8::is_ascii_alphanumeric).collect();
    out.make_ascii_lowercase();
    String::from_utf8(out).unwrap_or_default()
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

    /// The ASCII path gives what the `char` path gives.
    #[test]
    fn normalised_keys_are_what_lowercasing_each_char_gives() {
        let by_chars = |k: &str| -> String {
            k.chars()
                .filter(|c| *c != '-' && *c != '_')
                .flat_map(char::to_lowercase)
                .collect()
        };
        for k in [
            "",
            "maxAttempts",
            "max-attempts",
            "MAX_ATTEMPTS",
            "-_-",
            "[0]",
            "a.b-C_d",
            "Überweisung-Retry",
            "İstanbul",
        ] {
            assert_eq!(normalise_key(k), by_chars(k), "{k}");
        }
        assert_eq!(normalise_key("Max-Attempts_X"), "maxattemptsx");
        assert_eq!(
            relaxed_name("spring.Kafka-x_É.bootstrap[0].y"),
            "springkafkaxbootstrap"
        );
        assert_eq!(
            relaxed_name("MANAGEMENT_ZIPKIN_TRACING_ENDPOINT"),
            "managementzipkintracingendpoint"
        );
        for k in ["maxAttempts", "max-attempts", "", "-", "İstanbul", "a_b"] {
            for want in ["maxattempts", "", "ab", "max", "maxattemptss", "i̇stanbul"] {
                assert_eq!(
                    normalises_to(k, want),
                    normalise_key(k) == want,
                    "{k} {want}"
                );
            }
        }
    }

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
