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
///
/// When what a reader read across functions reaches blanked bodies, the
/// file is parsed again with those bodies kept (as if a keep word were in
/// them), until nothing blanked is reached: each round keeps at least one
/// more body, and after [`MAX_ROUNDS`] the file is read whole. A round
/// reads what a pruned parse reads, so the facts are the whole file's
/// for the reason they are on a first pruned parse; a second parse of
/// the whole file was ~4% of the Go parsed on istio 86c9f01.
pub fn extract_with(text: &str, facts: &mut Facts, prune: bool) {
    read_rounds(text, facts, prune);
}

/// [`extract_with`], giving the bytes parsed after the first parse (the
/// rounds after it, or the whole file read again).
pub(super) fn read_rounds(text: &str, facts: &mut Facts, prune: bool) -> usize {
    let mut again = 0;
    if prune && let Some(mut p) = prune::pruned(text) {
        let before = facts.clone();
        let mut kept: Vec<prune::Body> = Vec::new();
        for round in 0..MAX_ROUNDS {
            if round > 0 {
                again += text.len() - p.skip.iter().map(|r| r.len()).sum::<usize>();
            }
            // The blanked bodies are left out of the parse too: the parser
            // jumps over them instead of lexing their spaces (and over type
            // declarations and comments, which no reader reads).
            let Some(needs) = read(p.text.as_deref().unwrap_or(text), &p.skip, facts) else {
                return again;
            };
            let reached = needs.reached(text, &p.bodies);
            if reached.is_empty() {
                return again;
            }
            // What a reader reads across functions was blanked: read the
            // file again with it.
            facts.clone_from(&before);
            kept.extend(reached);
            match prune::pruned_keeping(text, &kept) {
                Some(next) => p = next,
                None => break,
            }
        }
        again += text.len();
    }
    read(text, &[], facts);
    again
}

/// Pruned parses of one file before it is read whole.
const MAX_ROUNDS: usize = 3;

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
    #[cfg(test)]
    pub(super) fn reaches(&self, text: &str, bodies: &[prune::Body]) -> bool {
        bodies.iter().any(|b| self.reaches_body(text, b))
    }

    /// The blanked bodies any of it lies in.
    fn reached(&self, text: &str, bodies: &[prune::Body]) -> Vec<prune::Body> {
        bodies
            .iter()
            .filter(|b| self.reaches_body(text, b))
            .copied()
            .collect()
    }

    fn reaches_body(&self, text: &str, b: &prune::Body) -> bool {
        let body = text.get(b.start..b.end).unwrap_or("");
        self.scopes.iter().any(|&(s, e)| s < b.end && b.start < e)
            || self.clients.iter().any(|c| body.contains(&format!("{c}.")))
            || self.words.iter().any(|w| body.contains(w.as_str()))
    }
}
