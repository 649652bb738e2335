//! The pruned read of a Go file ([`prune`]): parse with the bodies no
//! reader needs blanked and left out, and read the file whole when what a
//! reader read across functions reaches a blanked body.

use super::{Facts, prune, read};

/// `RETRYLINT_NO_GO_PRUNE=1` parses whole files, as before [`prune`]: a
/// way out should a blanked body ever be missed (the facts are the same
/// on every fixture and corpus file, and on istio, either way).
pub(super) static NO_PRUNE: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
    std::env::var_os("RETRYLINT_NO_GO_PRUNE").is_some_and(|v| v == "1")
});

/// Read one Go file, blanking the function bodies no reader needs when
/// `prune` (see [`prune`]; tests compare both ways).
pub fn extract_with(text: &str, facts: &mut Facts, prune: bool) {
    if prune && let Some(p) = prune::pruned(text) {
        let before = facts.clone();
        // The blanked bodies are left out of the parse too: the parser
        // jumps over them instead of lexing their spaces (and over type
        // declarations and comments, which no reader reads).
        match read(p.text.as_deref().unwrap_or(text), &p.skip, facts) {
            // What a reader reads across functions was blanked: read the
            // file whole.
            Some(needs) if needs.reaches(text, &p.bodies) => *facts = before,
            _ => return,
        }
    }
    read(text, &[], facts);
}

/// What the readers read outside the function they found a policy in:
/// a retried operation's range (a function named by the retry) and the
/// client variables whose calls and fields count wherever they are.
pub(super) struct CrossRefs {
    pub(super) scopes: Vec<(usize, usize)>,
    pub(super) clients: Vec<String>,
    pub(super) words: Vec<String>,
}

impl CrossRefs {
    /// Whether any of it lies in a blanked body.
    pub(super) fn reaches(&self, text: &str, bodies: &[prune::Body]) -> bool {
        bodies.iter().any(|b| {
            let body = text.get(b.start..b.end).unwrap_or("");
            self.scopes.iter().any(|&(s, e)| s < b.end && b.start < e)
                || self.clients.iter().any(|c| body.contains(&format!("{c}.")))
                || self.words.iter().any(|w| body.contains(w.as_str()))
        })
    }
}
