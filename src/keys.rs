//! Key names as the configured systems compare them, and the one
//! "did you mean" engine every message uses.
//!
//! Part of the syntax layer: it imports nothing of the crate, so extractors,
//! the configuration loader and the rules can all call it.

/// The closest of `candidates` to `word`, for "did you mean" help.
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let w = normalise_key(word);
    candidates
        .into_iter()
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
