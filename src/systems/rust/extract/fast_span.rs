//! A syntax node's span without printing it: syn's `Spanned::span` turns
//! the whole node into tokens to join the first and the last (quote's
//! `join_spans`), so each span of an expression costs its size, and the
//! evaluator takes one per expression it evaluates and each call it looks
//! at (the site finder was 14% of a cold scan of qdrant/qdrant, most of
//! it printing nested builder chains again and again).
//!
//! [`span`] gives the same span from the node's own first and last tokens
//! for the expressions the readers meet most (calls, method calls, paths,
//! fields, literals, references, `?`, `.await`, blocks, closures, macros,
//! struct literals ...), `None` for anything else (outer attributes, a
//! qualified path, a closure whose body syn would wrap in braces ...),
//! and the caller falls back to syn; and a function item's from its first
//! attribute or keyword to its body's closing brace (the fn items the
//! evaluator indexes were 2.7% of a cold scan of qdrant, printed whole).
//! The loop reader's nodes too: loops, `match`, `if`, `let`, `return`,
//! `break`, `continue`, `async` blocks, match arms, patterns and
//! statements (each loop it reads was printed whole seven times or more,
//! and each of its arms and patterns again: a fifth of the generated
//! tree's Rust reader, stop 59).
//! Joining is the same union of the
//! first and last tokens' spans syn's join makes (proc-macro2's fallback
//! join keeps the lowest start and the highest end). A test compares it
//! with syn's on every expression and function item of every Rust fixture, corpus file and
//! (with `RETRYLINT_PRUNE_DIR`) real checkout.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, ExprMethodCall, Member, Pat, Path, PathArguments};

/// `a` joined with `b` as quote's `join_spans` does (`first.join(last)`,
/// or `first` when they cannot be joined).
fn join(a: Span, b: Span) -> Span {
    a.join(b).unwrap_or(a)
}

/// The span of a node the readers take spans of, without printing it
/// when it is one [`expr`] reads.
pub fn span<T: Spanned + std::any::Any>(n: &T) -> Span {
    let any = n as &dyn std::any::Any;
    if let Some(e) = any.downcast_ref::<Expr>() {
        return expr(e).unwrap_or_else(|| e.span());
    }
    if let Some(m) = any.downcast_ref::<ExprMethodCall>() {
        return method_call(m).unwrap_or_else(|| m.span());
    }
    if let Some(i) = any.downcast_ref::<proc_macro2::Ident>() {
        return i.span();
    }
    if let Some(b) = any.downcast_ref::<syn::Block>() {
        return b.brace_token.span.join();
    }
    if let Some(f) = any.downcast_ref::<syn::ItemFn>() {
        return function(&f.attrs, &f.vis, None, &f.sig, &f.block);
    }
    if let Some(f) = any.downcast_ref::<syn::ImplItemFn>() {
        return function(
            &f.attrs,
            &f.vis,
            f.modifiers.defaultness.as_ref(),
            &f.sig,
            &f.block,
        );
    }
    if let Some(a) = any.downcast_ref::<syn::Arm>() {
        return arm(a).unwrap_or_else(|| a.span());
    }
    if let Some(p) = any.downcast_ref::<Pat>() {
        return pat(p).unwrap_or_else(|| p.span());
    }
    if let Some(s) = any.downcast_ref::<syn::Stmt>() {
        return stmt(s).unwrap_or_else(|| s.span());
    }
    if let Some(c) = any.downcast_ref::<syn::ExprCall>() {
        return call(c).unwrap_or_else(|| c.span());
    }
    if let Some(m) = any.downcast_ref::<syn::ExprMatch>() {
        return expr_match(m).unwrap_or_else(|| m.span());
    }
    if let Some(l) = any.downcast_ref::<syn::LitStr>() {
        return l.span();
    }
    if let Some(t) = any.downcast_ref::<syn::token::Loop>() {
        return t.span;
    }
    n.span()
}

/// A match arm's span as syn prints it (`ToTokens for Arm`: outer
/// attributes, the pattern, `=>`, the body, the comma).
fn arm(a: &syn::Arm) -> Option<Span> {
    if !a.attrs.is_empty() {
        return None;
    }
    let last = match &a.comma {
        Some(c) => c.spans[0],
        None => expr(&a.body)?,
    };
    Some(join(pat(&a.pat)?, last))
}

/// A statement's span as syn prints it (`ToTokens for Stmt`, `Local`).
fn stmt(s: &syn::Stmt) -> Option<Span> {
    match s {
        syn::Stmt::Local(l) if l.attrs.is_empty() => {
            Some(join(l.let_token.span, l.semi_token.spans[0]))
        }
        syn::Stmt::Expr(e, semi) => {
            let e = expr(e)?;
            Some(semi.map_or(e, |t| join(e, t.spans[0])))
        }
        _ => None,
    }
}

fn call(c: &syn::ExprCall) -> Option<Span> {
    if !c.attrs.is_empty() {
        return None;
    }
    Some(join(expr(&c.func)?, c.paren_token.span.join()))
}

fn expr_match(m: &syn::ExprMatch) -> Option<Span> {
    if !m.attrs.is_empty() {
        return None;
    }
    Some(join(m.match_token.span, m.brace_token.span.join()))
}

/// The first token of a loop: its label's apostrophe or the keyword.
fn labelled(label: &Option<syn::Label>, keyword: Span) -> Span {
    label.as_ref().map_or(keyword, |l| l.name.apostrophe)
}

/// A pattern's span as syn prints it (`pat.rs`, `mod printing`), `None`
/// where it is not read here.
fn pat(p: &Pat) -> Option<Span> {
    Some(match p {
        Pat::Ident(i) if i.attrs.is_empty() => {
            let first = i
                .by_ref
                .map(|t| t.span)
                .or(i.mutability.map(|t| t.span))
                .unwrap_or(i.ident.span());
            let last = match &i.subpat {
                Some((_, sub)) => pat(sub)?,
                None => i.ident.span(),
            };
            join(first, last)
        }
        Pat::Wild(w) if w.attrs.is_empty() => w.underscore_token.span,
        Pat::Lit(l) if l.attrs.is_empty() => l.lit.span(),
        Pat::Path(p) if p.attrs.is_empty() && p.qself.is_none() => path(&p.path)?,
        Pat::TupleStruct(t) if t.attrs.is_empty() && t.qself.is_none() => {
            join(path(&t.path)?, t.paren_token.span.join())
        }
        Pat::Struct(t) if t.attrs.is_empty() && t.qself.is_none() => {
            join(path(&t.path)?, t.brace_token.span.join())
        }
        Pat::Tuple(t) if t.attrs.is_empty() => t.paren_token.span.join(),
        Pat::Slice(t) if t.attrs.is_empty() => t.bracket_token.span.join(),
        Pat::Paren(t) if t.attrs.is_empty() => t.paren_token.span.join(),
        Pat::Reference(r) if r.attrs.is_empty() => join(r.and_token.spans[0], pat(&r.pat)?),
        Pat::Rest(r) if r.attrs.is_empty() => join(r.dot2_token.spans[0], r.dot2_token.spans[1]),
        Pat::Or(o) if o.attrs.is_empty() => {
            let first = match &o.leading_vert {
                Some(v) => v.spans[0],
                None => pat(o.cases.first()?)?,
            };
            let last = match o.cases.pairs().next_back()? {
                syn::punctuated::Pair::Punctuated(_, v) => v.spans[0],
                syn::punctuated::Pair::End(p) => pat(p)?,
            };
            join(first, last)
        }
        Pat::Guard(g) if g.attrs.is_empty() => join(pat(&g.pat)?, expr(&g.guard)?),
        _ => return None,
    })
}

/// A function item's span as syn prints it (syn 3.0.10 `item.rs`,
/// `ToTokens for ItemFn`/`ImplItemFn`: outer attributes, visibility, an
/// impl fn's `default`, then the signature from `const`, `async`, the
/// safety keyword, `extern` or `fn`): its first token to the closing
/// brace of its body.
fn function(
    attrs: &[syn::Attribute],
    vis: &syn::Visibility,
    default: Option<&syn::token::Default>,
    sig: &syn::Signature,
    block: &syn::Block,
) -> Span {
    let attr = attrs
        .iter()
        .find(|a| matches!(a.style, syn::AttrStyle::Outer))
        .map(|a| a.pound_token.spans[0]);
    let vis = match vis {
        syn::Visibility::Public(p) => Some(p.span),
        syn::Visibility::Restricted(r) => Some(r.pub_token.span),
        syn::Visibility::Inherited => None,
    };
    let first = attr
        .or(vis)
        .or(default.map(|d| d.span))
        .or(sig.constness.map(|t| t.span))
        .or(sig.asyncness.map(|t| t.span))
        .or(match &sig.safety {
            syn::Safety::Safe(t) => Some(t.span),
            syn::Safety::Unsafe(t) => Some(t.span),
            syn::Safety::Default => None,
        })
        .or(sig.abi.as_ref().map(|a| a.extern_token.span))
        .unwrap_or(sig.fn_token.span);
    join(first, block.brace_token.span.join())
}

/// The span of a path printed in expression style, without a `qself`:
/// its leading `::` or first segment to its last segment (`None` for
/// `Fn(A) -> B` arguments).
fn path(p: &Path) -> Option<Span> {
    let first = match &p.leading_colon {
        Some(c) => c.spans[0],
        None => p.segments.first()?.ident.span(),
    };
    let last = p.segments.last()?;
    let end = match &last.arguments {
        PathArguments::None => last.ident.span(),
        PathArguments::AngleBracketed(a) => a.gt_token.spans[0],
        PathArguments::Parenthesized(_) => return None,
    };
    Some(join(first, end))
}

fn method_call(m: &ExprMethodCall) -> Option<Span> {
    if !m.attrs.is_empty() {
        return None;
    }
    Some(join(expr(&m.receiver)?, m.paren_token.span.join()))
}

/// The span syn would give `e`, from its first and last tokens, or `None`
/// where it is not read here.
pub fn expr(e: &Expr) -> Option<Span> {
    Some(match e {
        Expr::Lit(l) if l.attrs.is_empty() => l.lit.span(),
        Expr::Path(p) if p.attrs.is_empty() && p.qself.is_none() => path(&p.path)?,
        Expr::Call(c) if c.attrs.is_empty() => join(expr(&c.func)?, c.paren_token.span.join()),
        Expr::MethodCall(m) => method_call(m)?,
        Expr::Field(f) if f.attrs.is_empty() => {
            let end = match &f.member {
                Member::Named(i) => i.span(),
                Member::Unnamed(i) => i.span,
            };
            join(expr(&f.base)?, end)
        }
        Expr::Try(t) if t.attrs.is_empty() => join(expr(&t.expr)?, t.question_token.spans[0]),
        Expr::Await(a) if a.attrs.is_empty() => join(expr(&a.base)?, a.await_token.span),
        Expr::Index(i) if i.attrs.is_empty() => join(expr(&i.expr)?, i.bracket_token.span.join()),
        Expr::Binary(b) if b.attrs.is_empty() => join(expr(&b.left)?, expr(&b.right)?),
        Expr::Unary(u) if u.attrs.is_empty() => {
            let op = match &u.op {
                syn::UnOp::Deref(t) => t.spans[0],
                syn::UnOp::Not(t) => t.spans[0],
                syn::UnOp::Neg(t) => t.spans[0],
                _ => return None,
            };
            join(op, expr(&u.expr)?)
        }
        Expr::Reference(r) if r.attrs.is_empty() => join(r.and_token.spans[0], expr(&r.expr)?),
        Expr::Paren(p) if p.attrs.is_empty() => p.paren_token.span.join(),
        Expr::Tuple(t) if t.attrs.is_empty() => t.paren_token.span.join(),
        Expr::Array(a) if a.attrs.is_empty() => a.bracket_token.span.join(),
        Expr::Block(b) if b.attrs.is_empty() && b.label.is_none() => {
            b.block.brace_token.span.join()
        }
        Expr::Unsafe(u) if u.attrs.is_empty() => {
            join(u.unsafe_token.span, u.block.brace_token.span.join())
        }
        Expr::Struct(s) if s.attrs.is_empty() && s.qself.is_none() => {
            join(path(&s.path)?, s.brace_token.span.join())
        }
        Expr::Macro(m) if m.attrs.is_empty() => {
            let end = match &m.mac.delimiter {
                syn::MacroDelimiter::Paren(p) => p.span.join(),
                syn::MacroDelimiter::Brace(b) => b.span.join(),
                syn::MacroDelimiter::Bracket(b) => b.span.join(),
            };
            join(path(&m.mac.path)?, end)
        }
        Expr::Closure(c) if c.attrs.is_empty() && c.lifetimes.is_none() => {
            // syn prints a body with a return type in braces of its own
            // unless it is a plain block: those braces have no place in
            // the source, and the span would not be the one read here.
            let plain = matches!(c.output, syn::ReturnType::Default)
                || matches!(&*c.body, Expr::Block(b) if b.attrs.is_empty() && b.label.is_none());
            if !plain {
                return None;
            }
            let first = match (&c.constness, &c.asyncness, &c.capture) {
                (Some(t), _, _) => t.span,
                (None, Some(t), _) => t.span,
                (None, None, Some(t)) => t.span,
                (None, None, None) => c.inputs_begin.spans[0],
            };
            join(first, expr(&c.body)?)
        }
        Expr::Cast(c) if c.attrs.is_empty() => join(expr(&c.expr)?, c.ty.span()),
        Expr::Loop(l) if l.attrs.is_empty() => join(
            labelled(&l.label, l.loop_token.span),
            l.body.brace_token.span.join(),
        ),
        Expr::While(w) if w.attrs.is_empty() => join(
            labelled(&w.label, w.while_token.span),
            w.body.brace_token.span.join(),
        ),
        Expr::ForLoop(f) if f.attrs.is_empty() => join(
            labelled(&f.label, f.for_token.span),
            f.body.brace_token.span.join(),
        ),
        Expr::Match(m) => expr_match(m)?,
        Expr::If(i) if i.attrs.is_empty() => {
            let last = match &i.else_branch {
                // (an `else` is a block or another `if`)
                Some((_, e)) if matches!(&**e, Expr::If(_) | Expr::Block(_)) => expr(e)?,
                Some(_) => return None,
                None => i.then_branch.brace_token.span.join(),
            };
            join(i.if_token.span, last)
        }
        Expr::Let(l) if l.attrs.is_empty() => join(l.let_token.span, expr(&l.expr)?),
        Expr::Assign(a) if a.attrs.is_empty() => join(expr(&a.left)?, expr(&a.right)?),
        Expr::Return(r) if r.attrs.is_empty() => match &r.expr {
            Some(e) => join(r.return_token.span, expr(e)?),
            None => r.return_token.span,
        },
        Expr::Continue(c) if c.attrs.is_empty() => match &c.label {
            Some(l) => join(c.continue_token.span, l.ident.span()),
            None => c.continue_token.span,
        },
        Expr::Break(b) if b.attrs.is_empty() => {
            let last = match (&b.expr, &b.label) {
                (Some(e), _) => expr(e)?,
                (None, Some(l)) => l.ident.span(),
                (None, None) => b.break_token.span,
            };
            join(b.break_token.span, last)
        }
        Expr::Async(a) if a.attrs.is_empty() => {
            join(a.async_token.span, a.block.brace_token.span.join())
        }
        _ => return None,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::Spans;
    use syn::visit::Visit;

    /// Every expression and function item of `text` (when it parses) whose
    /// fast span differs from syn's, as `(syn, fast, text)`; and how many
    /// were compared.
    pub(in crate::systems::rust::extract) fn differences(
        text: &str,
    ) -> (usize, Vec<(String, String, String)>) {
        struct V<'s> {
            spans: &'s Spans<'s>,
            n: usize,
            out: Vec<(String, String, String)>,
        }
        impl V<'_> {
            fn compare<T: syn::spanned::Spanned + std::any::Any>(&mut self, n: &T) {
                self.n += 1;
                let (a, b) = (self.spans.of(n.span()), self.spans.of(super::span(n)));
                if a != b {
                    self.out.push((
                        format!("{a:?}"),
                        format!("{b:?}"),
                        self.spans.slice(a).chars().take(120).collect(),
                    ));
                }
            }
        }
        impl<'a> Visit<'a> for V<'_> {
            fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
                self.compare(f);
                syn::visit::visit_item_fn(self, f);
            }
            fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
                self.compare(f);
                syn::visit::visit_impl_item_fn(self, f);
            }
            fn visit_expr(&mut self, e: &'a syn::Expr) {
                self.compare(e);
                syn::visit::visit_expr(self, e);
            }
            fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
                self.compare(c);
                syn::visit::visit_expr_call(self, c);
            }
            fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
                self.compare(m);
                syn::visit::visit_expr_match(self, m);
            }
            fn visit_arm(&mut self, a: &'a syn::Arm) {
                self.compare(a);
                syn::visit::visit_arm(self, a);
            }
            fn visit_pat(&mut self, p: &'a syn::Pat) {
                self.compare(p);
                syn::visit::visit_pat(self, p);
            }
            fn visit_stmt(&mut self, s: &'a syn::Stmt) {
                self.compare(s);
                syn::visit::visit_stmt(self, s);
            }
            fn visit_lit_str(&mut self, l: &'a syn::LitStr) {
                self.compare(l);
            }
            fn visit_expr_loop(&mut self, l: &'a syn::ExprLoop) {
                self.compare(&l.loop_token);
                syn::visit::visit_expr_loop(self, l);
            }
        }
        proc_macro2::extra::invalidate_current_thread_spans();
        let Ok(file) = syn::parse_file(text) else {
            return (0, Vec::new());
        };
        let spans = Spans::new(text);
        let mut v = V {
            spans: &spans,
            n: 0,
            out: Vec::new(),
        };
        v.visit_file(&file);
        proc_macro2::extra::invalidate_current_thread_spans();
        (v.n, v.out)
    }

    #[test]
    fn the_shapes_read_here() {
        let src = r#"
fn f() {
    let b = ExponentialBuilder::default().with_max_times(3).with_jitter();
    let c = (|| async { client.get("http://x").send().await }).retry(b).when(|e| e.is_x());
    let d = ::std::time::Duration::from_secs(1 + 2) * 3;
    let e = &mut self.inner.0[1]?.field;
    let g = Vec::<u8>::new();
    let h = Foo { a: 1, ..Default::default() };
    let i = vec![1, 2, 3];
    let j = move |x: u8| -> u8 { x + 1 };
    let l = unsafe { *p } as u64;
    let m = -(!x);
    let o = <T as Tr>::f(1);
    'outer: loop {
        match client.call().await {
            Ok(v) if v.ok() => return Ok(v),
            Err(ref mut e @ E::A) | Err(E::B { .. }) => { n += 1; continue 'outer; }
            Err(E::C(x, _)) => break 'outer x,
            Err(&[1, .., 3]) => break,
            _ => continue,
        }
    }
    while let Some(x) = it.next() { if x > 1 { sleep(d).await; } else if x == 0 { return; } else { n = 2 } }
    for (i, _) in (0..3).enumerate() { let Ok(v) = f(i) else { return Err(e) }; }
    'w: while n < 3 { n += 1; }
    let t = async move { 1 };
    let r = 1..=3;
    let p = match x { 1 | 2 => 3, (a, b) => a, S(_) => 0, };
}
/// A doc comment.
#[inline]
pub(crate) async unsafe fn g() {}
const fn h() {}
extern "C" fn k() {}
impl S {
    pub fn a(&self) {}
    default fn b() {}
    /** block doc */ unsafe fn c() { #![allow(x)] }
}
"#;
        let (n, diff) = differences(src);
        assert!(n > 120, "{n}");
        assert!(diff.is_empty(), "{diff:?}");
    }
}
