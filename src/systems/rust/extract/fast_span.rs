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
//! Joining is the same union of the
//! first and last tokens' spans syn's join makes (proc-macro2's fallback
//! join keeps the lowest start and the highest end). A test compares it
//! with syn's on every expression and function item of every Rust fixture, corpus file and
//! (with `RETRYLINT_PRUNE_DIR`) real checkout.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, ExprMethodCall, Member, Path, PathArguments};

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
    n.span()
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
        assert!(n > 40, "{n}");
        assert!(diff.is_empty(), "{diff:?}");
    }
}
