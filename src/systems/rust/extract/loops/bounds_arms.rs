//! A count that bounds only one failure arm: `Err(SlowPeers) => { n += 1; if n >
//! MAX { return } continue }` beside `Err(RoundFailed) => continue`, which
//! never touches `n`. The second arm goes round without a limit, so the
//! count is no bound of the loop (tari's block sync, twenty-first pass).

use super::*;
use syn::Pat;

/// Error words of a write conflict (another writer won: a serialization
/// failure, a version or optimistic-lock conflict): going round on one
/// alone ends when this writer wins, not when an outage does, so such an
/// arm without a count leaves the other arms' count standing (RL205's and
/// RL206's conflict-only reading).
const CONFLICT_WORDS: [&str; 6] = [
    "Conflict",
    "SerializationFailure",
    "BadVersion",
    "OptimisticLock",
    "StaleVersion",
    "WriteConflict",
];

/// The pattern of a failure arm of the match holding the count's test
/// (at `count`) that goes round without naming any counter of that test:
/// the way round the count does not bound. `None` when every arm that goes
/// round is counted (or guarded, or a conflict).
pub(super) fn escaping_arm(spans: &Spans<'_>, body: &Block, count: Span) -> Option<Span> {
    struct Matches<'x> {
        out: Vec<&'x syn::ExprMatch>,
    }
    impl<'x> Visit<'x> for Matches<'x> {
        fn visit_item(&mut self, _: &'x Item) {}
        fn visit_expr_closure(&mut self, _: &'x syn::ExprClosure) {}
        fn visit_expr_loop(&mut self, _: &'x syn::ExprLoop) {}
        fn visit_expr_while(&mut self, _: &'x syn::ExprWhile) {}
        fn visit_expr_for_loop(&mut self, _: &'x syn::ExprForLoop) {}
        fn visit_expr_match(&mut self, m: &'x syn::ExprMatch) {
            self.out.push(m);
            syn::visit::visit_expr_match(self, m);
        }
    }
    let mut ms = Matches { out: Vec::new() };
    ms.visit_block(body);
    // The counters of the test: its lowercase names (`slow_rounds`, not
    // `MAX_SLOW_ROUNDS`).
    let counters: Vec<&str> = spans
        .slice(count)
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'))
        .filter(|w| !matches!(*w, "self" | "as"))
        .collect();
    if counters.is_empty() {
        return None;
    }
    for m in ms.out {
        let inside = |s: Span| s.start <= count.start && count.end <= s.end;
        // The count must be a failure arm's: `blocks_found >= max` in the
        // `Ok` arm counts work done (a mining or work loop), not attempts
        // (tari `run_miner.rs`, twenty-second pass).
        // A counter also moved outside the match (`attempt += 1;` at the
        // top of the pass) counts every pass, whichever arm goes round.
        let (whole, here) = (spans.block(body), spans.node(m));
        let outside = [
            Span {
                start: whole.start,
                end: here.start,
            },
            Span {
                start: here.end,
                end: whole.end,
            },
        ];
        if outside
            .iter()
            .any(|s| counters.iter().any(|c| assigns(spans.slice(*s), c)))
        {
            continue;
        }
        let Some(holder) = m.arms.iter().find(|a| inside(spans.node(*a))) else {
            continue;
        };
        if super::shape::pat_variant(&holder.pat).is_none_or(|(n, _)| n != "Err") {
            continue;
        }
        for a in &m.arms {
            if inside(spans.node(a)) {
                continue;
            }
            // A guarded arm is read by its guard (a bound, a sorting).
            if matches!(a.pat, Pat::Guard(_))
                || super::shape::pat_variant(&a.pat).is_none_or(|(n, _)| n != "Err")
                || super::shape::leaves(&a.body)
            {
                continue;
            }
            let pat = spans.text(&a.pat);
            if CONFLICT_WORDS.iter().any(|w| pat.contains(w)) {
                continue;
            }
            let text = spans.text(a);
            if counters.iter().any(|c| contains_word(text, c)) {
                continue;
            }
            return Some(spans.node(&a.pat));
        }
    }
    None
}

/// Whether `text` assigns to the name `c` (`c += 1`, `c -= 1`, `c = c + 1`;
/// not `c == n`).
fn assigns(text: &str, c: &str) -> bool {
    let mut rest = text;
    while let Some(i) = rest.find(c) {
        let before = rest[..i].chars().next_back();
        let after = &rest[i + c.len()..];
        rest = after;
        if before.is_some_and(|b| b.is_alphanumeric() || b == '_' || b == '.') {
            continue;
        }
        let t = after.trim_start();
        if t.starts_with("+=")
            || t.starts_with("-=")
            || (t.starts_with('=') && !t.starts_with("=="))
        {
            return true;
        }
    }
    false
}
