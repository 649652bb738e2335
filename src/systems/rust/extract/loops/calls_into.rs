//! Whether each hand-written retry loop of the file calls a function the
//! file declares (`Facts::loops_into_file`, see `extract::loop_calls`):
//! the names of the file's functions against the names its loops call
//! (`helper(..)`, `self.fetch(..)`, and inside a macro's arguments).

use super::Spans;
use crate::extract::Facts;
use crate::source::Span;
use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::Block;
use syn::visit::Visit;

/// Calls read from one file, at most.
const MAX_CALLS: usize = 100_000;

/// Record each loop policy of `facts` whose span calls a function of
/// `bodies` declared outside it.
pub(super) fn record(
    spans: &Spans<'_>,
    bodies: &[(String, Option<&str>, &Block, Span)],
    facts: &mut Facts,
) {
    let loops: Vec<Span> = facts
        .policies
        .iter()
        .filter(|p| p.system == crate::model::System::RustLoop)
        .map(|p| p.span)
        .collect();
    if loops.is_empty() {
        return;
    }
    let mut calls = Calls {
        spans,
        out: Vec::new(),
    };
    for (_, _, block, _) in bodies {
        calls.visit_block(block);
    }
    let inside = |s: &Span, at: usize| s.start <= at && at < s.end;
    for body in loops {
        let into = calls.out.iter().any(|(at, name)| {
            inside(&body, *at)
                && bodies
                    .iter()
                    .any(|(f, _, _, fs)| f == name && !inside(&body, fs.start))
        });
        if into && !facts.loops_into_file.contains(&body) {
            facts.loops_into_file.push(body);
        }
    }
}

/// Every call's name and where it is.
struct Calls<'s> {
    spans: &'s Spans<'s>,
    out: Vec<(usize, String)>,
}

impl Calls<'_> {
    fn push(&mut self, at: usize, name: String) {
        if self.out.len() < MAX_CALLS {
            self.out.push((at, name));
        }
    }

    /// `name(..)` in a macro's tokens (`retry!(self.fetch(url))`).
    fn tokens(&mut self, tokens: &TokenStream, depth: usize) {
        if depth > 16 {
            return;
        }
        let mut last: Option<proc_macro2::Ident> = None;
        for t in tokens.clone() {
            match t {
                TokenTree::Group(g) => {
                    if g.delimiter() == Delimiter::Parenthesis
                        && let Some(id) = last.take()
                    {
                        let at = self.spans.node(&id).start;
                        self.push(at, id.to_string());
                    }
                    self.tokens(&g.stream(), depth + 1);
                }
                TokenTree::Ident(id) => last = Some(id),
                _ => last = None,
            }
        }
    }
}

impl<'a> Visit<'a> for Calls<'_> {
    fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
        if let syn::Expr::Path(p) = &*c.func
            && let Some(seg) = p.path.segments.last()
        {
            let at = self.spans.node(c).start;
            self.push(at, seg.ident.to_string());
        }
        syn::visit::visit_expr_call(self, c);
    }

    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        let at = self.spans.node(&m.method).start;
        self.push(at, m.method.to_string());
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_macro(&mut self, m: &'a syn::Macro) {
        self.tokens(&m.tokens, 0);
        syn::visit::visit_macro(self, m);
    }
}
