//! The response statuses a Rust retry loop retries (issue 28): an
//! `Ok(resp)` whose status is tested and goes round
//! (`if resp.status() == StatusCode::TOO_MANY_REQUESTS { sleep; continue }`,
//! `Ok(r) if r.status().is_success() => return Ok(r)` beside an `Ok(r)`
//! arm that waits, `match resp.status().as_u16() { 429 | 503 => .. }`),
//! and `error_for_status()` without `?` turning every failure status into
//! an `Err` that goes round. Read with [`crate::extract::status_test`].

use super::shape::leaves;
use super::shape_exits::leaving_macro;
use super::{Eval, Spans};
use crate::extract::status_test::{self, Statuses, Test};
use crate::source::Span;
use syn::visit::Visit;
use syn::{Block, Expr, Pat};

struct V<'s> {
    spans: &'s Spans<'s>,
    /// The evaluator, for the file's own one-line helpers.
    ev: &'s Eval<'s, 's>,
    tests: Vec<Test>,
    /// Inside a value (`let conflict = match status { .. }`): a match or
    /// `if` there computes a value, it does not send statuses round.
    value: u32,
    /// The `if` or `match` that is a statement of its block (its address):
    /// one anywhere else (`return match ..`, an argument) is a value.
    statement: usize,
    /// Nodes visited, bounded.
    budget: u32,
    /// `if`s with no `else` (their addresses) after which the block leaves
    /// (`if r.status().is_success() { break } return Err(..)`): a status
    /// the test does not hold for falls through to the exit, it does not
    /// go round.
    falls_out: Vec<usize>,
}

/// The statuses the loop's body retries, each with its test.
pub(super) fn retried<'s>(ev: &'s Eval<'s, 's>, body: &Block) -> Vec<(Statuses, Span)> {
    let spans = ev.spans;
    let mut v = V {
        spans,
        ev,
        tests: Vec::new(),
        value: 0,
        statement: 0,
        budget: 20_000,
        falls_out: Vec::new(),
    };
    v.visit_block(body);
    let compact: String = spans
        .block_text(body)
        .split_whitespace()
        .collect::<String>();
    // `resp.error_for_status()` handled in the loop (not `?`, which
    // leaves the function): a failure status becomes an `Err` that goes
    // round with the others.
    if compact.contains(".error_for_status()") && !compact.contains(".error_for_status()?") {
        let at = compact_at(spans, body, ".error_for_status()");
        v.tests.push(Test {
            holds: Statuses::range(400, 599),
            then_round: true,
            else_round: None,
            at,
        });
    }
    status_test::retried(&v.tests)
}

/// Calls of the file's own one-expression functions of one parameter
/// written out (`is_transient_status(status)` as `(status == 429 ||
/// status.is_server_error())`), one level, so a status test through a
/// helper is read like one written in place.
fn inline_calls(ev: &Eval<'_, '_>, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    // Calls written out, bounded.
    for _ in 0..8 {
        let Some(open) = rest.find('(') else { break };
        let name_start = rest[..open]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &rest[name_start..open];
        let free = !rest[..name_start].ends_with(['.', ':']);
        let close = close_paren(&rest[open..]).map(|i| open + i);
        let def = (free && !name.is_empty())
            .then(|| ev.own_fn_of_one(name))
            .flatten();
        match (def, close) {
            (Some((param, body)), Some(close)) if !rest[open + 1..close].contains(',') => {
                let arg = rest[open + 1..close].trim();
                let body = ev.spans.text(body);
                out.push_str(&rest[..name_start]);
                out.push('(');
                out.push_str(&replace_word(body, &param, arg));
                out.push(')');
                rest = &rest[close + 1..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The index of the `)` closing the `(` that starts `t`.
fn close_paren(t: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in t.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` with the whole word `w` replaced by `by`.
fn replace_word(text: &str, w: &str, by: &str) -> String {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some(i) = text[from..].find(w) {
        let s = from + i;
        let e = s + w.len();
        out.push_str(&text[from..s]);
        let whole = (s == 0 || !word(b[s - 1])) && (e >= b.len() || !word(b[e]));
        out.push_str(if whole { by } else { w });
        from = e;
    }
    out.push_str(&text[from..]);
    out
}

/// Where `word` is written in the block (its first place), else the block.
fn compact_at(spans: &Spans<'_>, body: &Block, word: &str) -> Span {
    let b = spans.block(body);
    spans
        .block_text(body)
        .find(word)
        .map_or(b, |i| Span::new(b.start + i + 1, b.start + i + word.len()))
}

/// Whether a branch goes round: it does not leave, or a `continue` of it
/// does (`if attempt < 3 { continue } return ..`).
fn block_round(spans: &Spans<'_>, b: &Block) -> bool {
    let text = spans.block_text(b);
    if text.contains("continue") {
        return true;
    }
    !b.stmts.iter().any(|s| match s {
        syn::Stmt::Expr(e, _) => leaves(e),
        syn::Stmt::Macro(m) => leaving_macro(&m.mac.path),
        _ => false,
    })
}

/// Whether the statements after an `if` leave before anything can go
/// round: one of them is a `return`/`break` (or `bail!`/`panic!`), and no
/// `continue` comes before it.
fn falls_out(spans: &Spans<'_>, rest: &[syn::Stmt]) -> bool {
    for st in rest {
        let leaves_here = match st {
            syn::Stmt::Expr(e, _) => leaves(e),
            syn::Stmt::Macro(m) => leaving_macro(&m.mac.path),
            _ => false,
        };
        if leaves_here {
            return true;
        }
        let text = match st {
            syn::Stmt::Expr(e, _) => spans.text(e),
            syn::Stmt::Local(l) => spans.text(l),
            syn::Stmt::Macro(m) => spans.text(m),
            syn::Stmt::Item(_) => "",
        };
        if text.contains("continue") {
            return false;
        }
    }
    false
}

/// `Ok(r)` (with or without a guard): the arm of a success.
fn is_ok_arm(p: &Pat) -> bool {
    let p = match p {
        Pat::Guard(g) => &*g.pat,
        p => p,
    };
    matches!(p, Pat::TupleStruct(t) if t.path.segments.last().is_some_and(|s| s.ident == "Ok"))
}

impl V<'_> {
    /// Whether a branch goes round (`Some(true)`), leaves (`Some(false)`),
    /// or, inside a value (`let x = match ..`), only computes the value
    /// (`None`): there only a `continue` or a leave is control flow.
    fn round_expr(&self, e: &Expr, value: bool) -> Option<bool> {
        let text = self.spans.text(e);
        if text.contains("continue") {
            Some(true)
        } else if leaves(e) {
            Some(false)
        } else if value {
            None
        } else {
            Some(true)
        }
    }

    fn round_block(&self, b: &Block, value: bool) -> Option<bool> {
        let round = block_round(self.spans, b);
        if value && round && !self.spans.block_text(b).contains("continue") {
            None
        } else {
            Some(round)
        }
    }
}

impl<'a> Visit<'a> for V<'_> {
    fn visit_expr(&mut self, e: &'a Expr) {
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        match e {
            // Another loop's or a closure's tests are theirs.
            Expr::Loop(_) | Expr::While(_) | Expr::ForLoop(_) | Expr::Closure(_) => {}
            _ => syn::visit::visit_expr(self, e),
        }
    }

    fn visit_block(&mut self, b: &'a Block) {
        for (k, st) in b.stmts.iter().enumerate() {
            if let syn::Stmt::Expr(Expr::If(i), _) = st
                && i.else_branch.is_none()
                && falls_out(self.spans, &b.stmts[k + 1..])
            {
                self.falls_out.push(i as *const syn::ExprIf as usize);
            }
        }
        syn::visit::visit_block(self, b);
    }

    fn visit_stmt(&mut self, st: &'a syn::Stmt) {
        if let syn::Stmt::Expr(e, _) = st {
            match e {
                Expr::If(i) => self.statement = i as *const syn::ExprIf as usize,
                Expr::Match(m) => self.statement = m as *const syn::ExprMatch as usize,
                _ => {}
            }
        }
        syn::visit::visit_stmt(self, st);
    }

    fn visit_local(&mut self, l: &'a syn::Local) {
        self.value += 1;
        syn::visit::visit_local(self, l);
        self.value -= 1;
    }

    fn visit_expr_assign(&mut self, a: &'a syn::ExprAssign) {
        self.value += 1;
        syn::visit::visit_expr_assign(self, a);
        self.value -= 1;
    }

    fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
        let value = self.value > 0 || self.statement != i as *const syn::ExprIf as usize;
        if !matches!(&*i.cond, Expr::Let(_))
            && let Some(holds) =
                status_test::holds_for(&inline_calls(self.ev, self.spans.text(&*i.cond)))
        {
            let else_round = match i.else_branch.as_ref().map(|(_, e)| &**e) {
                Some(Expr::Block(b)) => self.round_block(&b.block, value),
                None if self.falls_out.contains(&(i as *const syn::ExprIf as usize)) => Some(false),
                _ => None,
            };
            if let Some(then_round) = self.round_block(&i.then_branch, value) {
                self.tests.push(Test {
                    holds,
                    then_round,
                    else_round,
                    at: self.spans.node(&*i.cond),
                });
            }
        }
        syn::visit::visit_expr_if(self, i);
    }

    fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
        let value = self.value > 0 || self.statement != m as *const syn::ExprMatch as usize;
        let scrutinee = self.spans.text(&*m.expr);
        let on_status = status_test::holds_for(&format!("{scrutinee} == 200")).is_some();
        let on_result = m.arms.iter().any(|a| is_ok_arm(&a.pat));
        let mut listed = Statuses::none();
        let mut any = false;
        let mut rest: Vec<(Option<bool>, Span)> = Vec::new();
        for a in &m.arms {
            let round = self.round_expr(&a.body, value);
            let holds = if on_status {
                match &a.pat {
                    Pat::Wild(_) | Pat::Ident(_) => {
                        rest.push((round, self.spans.node(&a.pat)));
                        continue;
                    }
                    // `s if s.is_success()`: `s` is the status matched on.
                    Pat::Guard(g) => {
                        status_test::holds_for(&as_status(self.spans.text(&*g.guard), &g.pat))
                    }
                    p => status_test::pattern(self.spans.text(p)),
                }
            } else if on_result && is_ok_arm(&a.pat) {
                match &a.pat {
                    Pat::Guard(g) => status_test::holds_for(self.spans.text(&*g.guard)),
                    _ => {
                        rest.push((round, self.spans.node(&a.pat)));
                        continue;
                    }
                }
            } else {
                None
            };
            let Some(holds) = holds else {
                continue;
            };
            listed = listed.union(&holds);
            any = true;
            // An arm that computes a value neither leaves nor goes round.
            if let Some(round) = round {
                self.tests.push(Test {
                    holds,
                    then_round: round,
                    else_round: None,
                    at: self.spans.node(&a.pat),
                });
            }
        }
        // `_ =>` beside status arms, or an unguarded `Ok(r)` beside
        // guarded ones: every other status.
        if any && let Some((Some(round), at)) = rest.first() {
            self.tests.push(Test {
                holds: listed.not(),
                then_round: *round,
                else_round: None,
                at: *at,
            });
        }
        syn::visit::visit_expr_match(self, m);
    }
}

/// A guard's text with the arm's binding (`s` of `s if s.is_success()` on
/// a match over a status) named `status`, so the test reads as one on it.
fn as_status(guard: &str, pat: &Pat) -> String {
    let Pat::Ident(p) = pat else {
        return guard.to_string();
    };
    let name = p.ident.to_string();
    let mut out = String::with_capacity(guard.len());
    let mut rest = guard;
    while let Some(i) = rest.find(name.as_str()) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + name.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..i]);
        if word(before) || word(after) || before == Some('.') {
            out.push_str(&name);
        } else {
            out.push_str("status");
        }
        rest = &rest[i + name.len()..];
    }
    out.push_str(rest);
    out
}
