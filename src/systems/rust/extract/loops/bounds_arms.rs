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
pub(super) const CONFLICT_WORDS: [&str; 7] = [
    "Conflict",
    // A conditional write whose ETag or version no longer matches (HTTP
    // 412): another writer saved first.
    "PreconditionFailed",
    "SerializationFailure",
    "BadVersion",
    "OptimisticLock",
    "StaleVersion",
    "WriteConflict",
];

/// The `match` expressions of a loop's body, not those of a nested loop,
/// closure or item (which go round, or run, on their own).
fn own_matches(body: &Block) -> Vec<&syn::ExprMatch> {
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
    ms.out
}

/// The pattern of a failure arm of the match holding the count's test
/// (at `count`) that goes round without naming any counter of that test:
/// the way round the count does not bound. `None` when every arm that goes
/// round is counted (or guarded, or a conflict).
pub(super) fn escaping_arm(spans: &Spans<'_>, body: &Block, count: Span) -> Option<Span> {
    let ms = own_matches(body);
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
    for m in ms {
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

/// The write conflict that alone goes round: a match of the loop whose
/// failure arms that stay all name a conflict (`Err(e @
/// SerializationFailure ..) => { n += 1; if n > MAX { break Err(e) }
/// continue }`), in the pattern or in a function of the file its guard
/// calls (`Err(e) if is_retryable(&e) && attempt < MAX`, whose body
/// matches `PreconditionFailed`), beside one that leaves (`Err(e) =>
/// break Err(e)`, or a catch-all `result => return result`). The policy
/// retries that conflict only (RL201's few-conflicts exemption,
/// `rules::backoff::conflicts_only`).
pub(super) fn conflict_only(
    spans: &Spans<'_>,
    body: &Block,
    guard_text: &dyn Fn(&Expr) -> String,
) -> Option<String> {
    let ms = own_matches(body);
    let mut found = None;
    for m in ms {
        let errs: Vec<&syn::Arm> = m
            .arms
            .iter()
            .filter(|a| super::shape::pat_variant(&a.pat).is_some_and(|(n, _)| n == "Err"))
            .collect();
        // An arm that yields a value (`Err(NotFound) => (Vec::new(), None)`)
        // goes on with the pass; one that goes round says `continue`.
        let (mut leaving, rest): (Vec<&syn::Arm>, Vec<&syn::Arm>) = errs
            .into_iter()
            .partition(|a| super::shape::leaves(&a.body));
        leaving.extend(m.arms.iter().filter(|a| {
            matches!(&a.pat, syn::Pat::Ident(_) | syn::Pat::Wild(_))
                && super::shape::leaves(&a.body)
        }));
        let staying: Vec<&syn::Arm> = rest
            .into_iter()
            .filter(|a| contains_word(spans.text(&*a.body), "continue"))
            .collect();
        if staying.is_empty() {
            continue;
        }
        let words: Option<Vec<&str>> = staying
            .iter()
            .map(|a| {
                let pat = match &a.pat {
                    syn::Pat::Guard(g) => {
                        format!("{} {}", spans.text(&*g.pat), guard_text(&g.guard))
                    }
                    p => spans.text(p).to_string(),
                };
                CONFLICT_WORDS.iter().copied().find(|w| pat.contains(w))
            })
            .collect();
        match words {
            Some(w) if !leaving.is_empty() && found.is_none() => found = Some(w[0].to_string()),
            // A match where another failure goes round: not conflicts only.
            _ => return None,
        }
    }
    found
}
