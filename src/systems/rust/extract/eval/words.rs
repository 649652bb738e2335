//! Text searches of a site's surroundings: the `let` a builder is bound
//! to, a later statement replacing or extending it, an operation that gives
//! up (`Permanent`), a predicate that says yes to everything.

use super::*;

/// The name bound by the innermost `let NAME =` that starts before `at`
/// on a line of lesser indentation than `at`'s.
pub(super) fn let_name_before(text: &str, at: usize) -> Option<String> {
    let before = &text[..at.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let mut indent = before[line_start..].len() - before[line_start..].trim_start().len();
    let mut found = None;
    let mut end = line_start;
    while end > 0 {
        let s = before[..end.saturating_sub(1)]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let line = &before[s..end.saturating_sub(1).max(s)];
        let ind = line.len() - line.trim_start().len();
        let t = line.trim_start();
        if ind < indent && !t.is_empty() {
            if let Some(rest) = t.strip_prefix("let ") {
                let rest = rest.trim_start_matches("mut ");
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && rest[name.len()..].trim_start().starts_with('=') {
                    // Keep the outermost binding of this function.
                    found = Some(name);
                    indent = ind;
                }
            }
            if t.starts_with("fn ") || t.contains(" fn ") {
                return found;
            }
            indent = indent.min(ind.max(1));
        }
        if s == 0 {
            break;
        }
        end = s;
    }
    found
}

/// Whether the `backoff` crate's operation sorts failures into permanent
/// and transient ones: itself, or a function of this file it calls
/// (`try_proxy(..)` calling `handle_response(response)`, which returns
/// `Error::Permanent` for a 4xx), two calls deep.
pub(super) fn sorts_permanent(ev: &Eval<'_, '_>, op: &str) -> bool {
    gives_up(ev, op, "permanent") || gives_up(ev, op, "Permanent")
}

/// Whether the retried operation, or a function of this file it calls (two
/// calls deep), writes `word`: the crate's way of saying "give up"
/// (`Permanent`, the `retry` crate's `OperationResult::Err`).
pub(super) fn gives_up(ev: &Eval<'_, '_>, op: &str, word: &str) -> bool {
    gives_up_d(ev, op, word, 0)
}

pub(super) fn gives_up_d(ev: &Eval<'_, '_>, op: &str, word: &str, depth: u32) -> bool {
    if op.contains(word) {
        return true;
    }
    if depth >= 2 {
        return false;
    }
    ev.ix.bodies.iter().take(256).any(|(name, _, _, span)| {
        op.match_indices(name.as_str()).any(|(i, _)| {
            let before = op[..i].chars().next_back();
            let after = op[i + name.len()..].trim_start();
            before.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) && after.starts_with('(')
        }) && gives_up_d(ev, ev.spans.slice(*span), word, depth + 1)
    })
}

/// Whether `text` calls a builder setter on the local `name`
/// (`name.with_jitter()`) as a value of its own.
pub(super) fn extended(text: &str, name: &str) -> bool {
    let needle = format!("{name}.with_");
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, needle.as_bytes()).any(|i| {
        i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.')
    })
}

/// A predicate that says yes to every error (`|_| true`, `|_: &E| {
/// true }`): no predicate at all.
pub(super) fn always_true(e: &Expr) -> bool {
    let Expr::Closure(c) = e else { return false };
    let mut body = &*c.body;
    while let Expr::Block(b) = body {
        match b.block.stmts.as_slice() {
            [syn::Stmt::Expr(e, None)] => body = e,
            _ => return false,
        }
    }
    matches!(body, Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. }) if b.value)
}

/// Whether `text` assigns `name` (`self.name` when `field`) a new value
/// with `=`: a statement `name = expr` whose right side is not a change of
/// the old value (`b = b.with_jitter()`). Searched with memmem (SIMD):
/// the evaluator asks this of every `let` over the rest of its function
/// and of every struct field over the whole file, and `str::find`'s
/// Two-Way search was 7% of a cold scan of qdrant.
pub(super) fn replaced(text: &str, name: &str, field: bool) -> bool {
    let target = if field {
        format!("self.{name}")
    } else {
        name.to_string()
    };
    let b = text.as_bytes();
    let finder = memchr::memmem::Finder::new(target.as_bytes());
    let mut from = 0;
    // An occurrence of a whole `str` starts on a character boundary.
    while let Some(i) = finder.find(&b[from..]) {
        let s = from + i;
        let e = s + target.len();
        from = e;
        let before = text[..s].trim_end();
        let ok_l = if field {
            s == 0 || !(b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_' || b[s - 1] == b'.')
        } else {
            before.is_empty() || before.ends_with([';', '{', '}'])
        };
        let ok_r = e >= b.len() || !(b[e].is_ascii_alphanumeric() || b[e] == b'_');
        if !ok_l || !ok_r {
            continue;
        }
        let rest = text[e..].trim_start();
        if let Some(rhs) = rest.strip_prefix('=')
            && !rhs.starts_with('=')
        {
            let rhs = rhs.trim_start();
            let keeps =
                rhs.starts_with(&target) && rhs[target.len()..].trim_start().starts_with('.');
            if !keeps {
                return true;
            }
        }
    }
    false
}

pub fn contains_word(hay: &str, w: &str) -> bool {
    let b = hay.as_bytes();
    let mut from = 0;
    while let Some(i) = hay[from..].find(w) {
        let s = from + i;
        let e = s + w.len();
        let ok_l = s == 0 || !(b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_');
        let ok_r = e >= b.len() || !(b[e].is_ascii_alphanumeric() || b[e] == b'_');
        if ok_l && ok_r {
            return true;
        }
        from = e;
    }
    false
}
