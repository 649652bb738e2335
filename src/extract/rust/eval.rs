//! A small, bounded evaluator over one file's syntax tree: enough to follow
//! a retry builder through `let` bindings, reassignments, struct fields,
//! constants and calls of the file's own functions, and to turn each retry
//! crate's builder chain into a [`RetryPolicy`] with that crate's defaults.
//!
//! Defaults, as read in upstream source:
//! - retry-policies `src/policies/exponential_backoff.rs`
//!   (`ExponentialBackoffBuilder::default`): `min_retry_interval` 1 s,
//!   `max_retry_interval` 30 min, `Jitter::Full`, `base` 2; the wait is
//!   `min(max, min x base^n)` jittered then clipped to `max`;
//!   `build_with_max_retries(n)` sets `max_n_retries: Some(n)` (retries).
//!   `Jitter::Bounded` draws between (half of) the minimum and the backoff.
//! - reqwest-retry `src/retryable_strategy.rs` (`DefaultRetryableStrategy`):
//!   5xx, 408 and 429 and timeouts, connect errors, resets, incomplete
//!   messages; the middleware never looks at the method or `Retry-After`.
//! - backon `backon/src/backoff/{exponential,constant,fibonacci}.rs`:
//!   `jitter: false`, `factor: 2.0`, `min_delay` 1 s, `max_delay` 60 s,
//!   `max_times: Some(3)`, `total_delay: None`; jitter adds
//!   `current x rand` (`[d, 2d)`) after the cap; `backon/src/retry.rs`:
//!   `retryable_fn: |_| true` unless `.when(..)`.
//! - tokio-retry `src/strategy/exponential_backoff.rs`: `from_millis(b)`
//!   yields `b^n x factor` ms (factor 1), capped by `max_delay`, forever;
//!   `src/strategy/jitter.rs`: `jitter(d)` is uniform in `(0, d]`.
//! - backoff `src/default.rs`: 500 ms, randomisation 0.5, x1.5, 60 s max
//!   interval, 15 min max elapsed; `src/exponential.rs` randomises the
//!   already capped interval.
//! - tower `tower/src/retry/backoff.rs`: `ExponentialBackoffMaker::new(min,
//!   max, jitter, rng)` doubles from `min` and adds `[0, jitter x base]`,
//!   never more than `max`.
//! - Fibonacci strategies (backon, tokio-retry) are modelled as exponential
//!   growth by the golden ratio (x1.618) from their first delay.
//! - aws-smithy-types `retry.rs` (`RetryConfig::standard`): 3 attempts,
//!   `initial_backoff` 1 s, `max_backoff` 20 s; aws-smithy-runtime
//!   `standard.rs`: `rand x initial x 2^n`, then capped.

use super::{MacroCall, MacroDef, Spans, loops};
use crate::extract::Facts;
use crate::model::*;
use crate::source::Span;
use std::cell::Cell;
use std::collections::HashMap;
use std::time::Duration;
use syn::visit::Visit;
use syn::{Attribute, Block, Expr, FnArg, ImplItem, Item, Lit, Member, Pat, Signature, Stmt, Type};

/// Calls of the file's own functions followed at most this deep.
const MAX_CALL_DEPTH: u32 = 8;
/// Evaluation steps per top-level question.
const STEP_BUDGET: u32 = 20_000;
/// Evaluation steps per file: past it every question is unknown, so a huge
/// generated file costs bounded time.
const FILE_BUDGET: u64 = 2_000_000;

/// A value the evaluator knows, with the span that wrote it.
#[derive(Clone, Debug)]
enum V {
    Int(i128),
    Float(f64),
    Dur(Duration),
    Bool(bool),
    Str(String),
    /// A path such as `Jitter::Bounded` or `None` (its last two segments).
    Path(String),
    /// `Some(x)`.
    Some(Box<L>),
    B(Box<Build>),
    /// A struct literal: its named fields.
    Struct(Vec<(String, L)>),
    Unknown,
}

#[derive(Clone, Debug)]
struct L {
    v: V,
    pub span: Span,
}

impl L {
    fn new(v: V, span: Span) -> Self {
        L { v, span }
    }
    fn unknown(span: Span) -> Self {
        L::new(V::Unknown, span)
    }
    fn int(&self) -> Option<i128> {
        match &self.v {
            V::Int(n) => Some(*n),
            V::Float(f) if f.fract() == 0.0 => Some(*f as i128),
            _ => None,
        }
    }
    fn float(&self) -> Option<f64> {
        match &self.v {
            V::Int(n) => Some(*n as f64),
            V::Float(f) => Some(*f),
            _ => None,
        }
    }
    fn dur(&self) -> Option<Duration> {
        match &self.v {
            V::Dur(d) => Some(*d),
            _ => None,
        }
    }
}

/// Which crate a builder belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Krate {
    Backon,
    RetryPolicies,
    TokioRetry,
    Backoff,
    Aws,
    Tower,
}

impl Krate {
    pub fn name(self) -> &'static str {
        match self {
            Krate::Backon => "backon",
            Krate::RetryPolicies => "reqwest-retry",
            Krate::TokioRetry => "tokio-retry",
            Krate::Backoff => "backoff",
            Krate::Aws => "aws-config",
            Krate::Tower => "tower",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Exponential,
    Constant,
    Fibonacci,
}

/// A retry builder or strategy being assembled.
#[derive(Clone, Debug)]
pub struct Build {
    pub krate: Krate,
    pub shape: Shape,
    /// The constructor call: the policy's identity.
    pub origin: Span,
    pub min: Located<Duration>,
    pub factor: Located<f64>,
    pub cap: Option<Located<Duration>>,
    /// Retries (not attempts); `None` is unbounded. `Unknown` when set by
    /// something the evaluator cannot read.
    pub retries: Located<AttemptCount>,
    pub retries_written: String,
    pub jitter: Located<Jitter>,
    pub cap_order: CapOrder,
    /// A total delay / elapsed-time bound.
    pub elapsed: Option<Located<Option<Duration>>>,
    pub budget: bool,
    /// A delay setting whose value the evaluator could not read.
    pub delay_unknown: Option<Span>,
}

impl Build {
    fn new(krate: Krate, shape: Shape, origin: Span) -> Self {
        Build {
            krate,
            shape,
            origin,
            min: Located::default_at(Duration::from_secs(1), origin),
            factor: Located::default_at(2.0, origin),
            cap: None,
            retries: Located::default_at(AttemptCount::Unbounded, origin),
            retries_written: String::new(),
            jitter: Located::default_at(Jitter::None, origin),
            cap_order: CapOrder::BeforeJitter,
            elapsed: None,
            budget: false,
            delay_unknown: None,
        }
    }

    /// The delay model.
    pub fn delay(&self) -> Located<Delay> {
        if let Some(at) = self.delay_unknown {
            return Located::written(Delay::Unknown, at);
        }
        let written = self.min.is_written()
            || self.factor.is_written()
            || self.cap.as_ref().is_some_and(|c| c.is_written());
        let value = match self.shape {
            Shape::Constant => Delay::Fixed {
                delay: self.min.value,
            },
            Shape::Exponential | Shape::Fibonacci => {
                let multiplier = if self.shape == Shape::Fibonacci {
                    1.618
                } else {
                    self.factor.value
                };
                if multiplier <= 1.0 {
                    Delay::Fixed {
                        delay: self.min.value,
                    }
                } else {
                    Delay::Exponential {
                        base: self.min.value,
                        multiplier,
                        cap: self.cap.as_ref().map(|c| c.value),
                    }
                }
            }
        };
        let span = if self.min.is_written() {
            self.min.span
        } else {
            self.origin
        };
        if written {
            Located::written(value, span)
        } else {
            Located::default_at(value, self.origin)
        }
    }

    /// Total attempts, the first included.
    pub fn attempts(&self) -> Located<Attempts> {
        let mut count = match self.retries.value {
            AttemptCount::Finite(n) => AttemptCount::Finite(n.saturating_add(1)),
            other => other,
        };
        // An elapsed-time or total-delay bound ends an otherwise unbounded
        // sequence after as many delays as fit in it.
        if count == AttemptCount::Unbounded
            && let Some(Located {
                value: Some(total), ..
            }) = self.elapsed
        {
            let delay = self.delay().value;
            let mut sum = Duration::ZERO;
            let mut n = 1u64;
            while n < 10_000 {
                let d = delay.nominal(n as u32).unwrap_or(Duration::MAX);
                sum = sum.saturating_add(d);
                if sum > total {
                    break;
                }
                n += 1;
            }
            count = AttemptCount::Finite(n);
        }
        let written_as = if self.retries_written.is_empty() {
            match self.retries.value {
                AttemptCount::Finite(n) => format!("{} default {n} retries", self.krate.name()),
                _ => "no retry limit".to_string(),
            }
        } else {
            self.retries_written.clone()
        };
        Located {
            value: Attempts { count, written_as },
            span: self.retries.span,
            provenance: self.retries.provenance,
        }
    }
}

/// A function of the file.
#[derive(Clone, Copy)]
struct FnDef<'a> {
    impl_ty: Option<&'a str>,
    sig: &'a Signature,
    block: &'a Block,
}

/// A struct-literal initialisation of a field.
#[derive(Clone, Copy)]
struct Init<'a> {
    expr: &'a Expr,
    /// The impl the literal is written in (what `self` is there).
    impl_ty: Option<&'a str>,
}

/// What the file defines, for following names.
#[derive(Default)]
pub struct Index<'a> {
    pub(crate) consts: HashMap<String, &'a Expr>,
    fns: HashMap<String, Vec<FnDef<'a>>>,
    inits: HashMap<(String, String), Vec<Init<'a>>>,
    /// Types named in `impl ... Policy<..> for T` with their `retry` fn.
    tower_policies: Vec<(String, &'a syn::ImplItemFn, Span)>,
    /// Every production function body with its name and impl type.
    bodies: Vec<(String, Option<&'a str>, &'a Block, Span)>,
    macro_rules: Vec<&'a syn::ItemMacro>,
}

/// Whether attributes mark test-only code.
pub fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        let p = a.path();
        if p.is_ident("test") {
            return true;
        }
        if p.segments.last().is_some_and(|s| s.ident == "test") && p.segments.len() == 2 {
            // #[tokio::test]
            return true;
        }
        if p.is_ident("cfg")
            && let syn::Meta::List(l) = &a.meta
        {
            let t = l.tokens.to_string();
            return t
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == "test")
                && !t.contains("not");
        }
        false
    })
}

/// A crate named for tests: `test_util`, `test-utils`, `foo_test`,
/// `foo-tests`, `testing`.
fn is_test_crate(name: &str) -> bool {
    let n = name.to_ascii_lowercase().replace('-', "_");
    n.starts_with("test_")
        || n.ends_with("_test")
        || n.ends_with("_tests")
        || n.contains("_test_")
        || n == "testing"
        || n == "tests"
}

/// A `#[test]` (or `#[tokio::test]`, `#[rstest]`) function.
fn is_test_fn(item: &Item) -> bool {
    let Item::Fn(f) = item else { return false };
    f.attrs.iter().any(|a| {
        let p = a.path();
        p.is_ident("test")
            || p.is_ident("rstest")
            || (p.segments.len() == 2 && p.segments.last().is_some_and(|s| s.ident == "test"))
    })
}

fn type_name(t: &Type) -> Option<&syn::Ident> {
    match t {
        Type::Path(p) => p.path.segments.last().map(|s| &s.ident),
        Type::Reference(r) => type_name(&r.elem),
        Type::Paren(p) => type_name(&p.elem),
        _ => None,
    }
}

struct Collector<'a> {
    ix: Index<'a>,
    spans: &'a Spans<'a>,
}

impl<'a> Collector<'a> {
    fn items(&mut self, items: &'a [Item]) {
        for item in items {
            self.item(item);
        }
    }

    fn item(&mut self, item: &'a Item) {
        match item {
            Item::Const(c) if !is_test_only(&c.attrs) => {
                self.ix.consts.insert(c.ident.to_string(), &c.expr);
            }
            Item::Static(c) if !is_test_only(&c.attrs) => {
                self.ix.consts.insert(c.ident.to_string(), &c.expr);
            }
            Item::Fn(f) if !is_test_only(&f.attrs) => {
                let name = f.sig.ident.to_string();
                self.ix.fns.entry(name.clone()).or_default().push(FnDef {
                    impl_ty: None,
                    sig: &f.sig,
                    block: &f.block,
                });
                self.ix
                    .bodies
                    .push((name, None, &f.block, self.spans.node(f)));
                self.inits_in(&f.block, None);
            }
            Item::Mod(m) if !is_test_only(&m.attrs) => {
                if let Some((_, items)) = &m.content {
                    self.items(items);
                }
            }
            Item::Impl(i) if !is_test_only(&i.attrs) => {
                let ty: Option<&'a str> = type_name(&i.self_ty).map(|id| self.spans.text(id));
                let is_policy = i
                    .trait_
                    .as_ref()
                    .is_some_and(|(p, _)| p.segments.last().is_some_and(|s| s.ident == "Policy"));
                for it in &i.items {
                    match it {
                        ImplItem::Fn(f) if !is_test_only(&f.attrs) => {
                            let name = f.sig.ident.to_string();
                            if is_policy
                                && name == "retry"
                                && let Some(t) = ty
                            {
                                self.ix
                                    .tower_policies
                                    .push((t.to_string(), f, self.spans.node(i)));
                            }
                            self.ix.fns.entry(name.clone()).or_default().push(FnDef {
                                impl_ty: ty,
                                sig: &f.sig,
                                block: &f.block,
                            });
                            self.ix
                                .bodies
                                .push((name, ty, &f.block, self.spans.node(f)));
                            self.inits_in(&f.block, ty);
                        }
                        ImplItem::Const(c) => {
                            self.ix.consts.insert(c.ident.to_string(), &c.expr);
                        }
                        _ => {}
                    }
                }
            }
            Item::Macro(m) if !is_test_only(&m.attrs) && m.mac.path.is_ident("macro_rules") => {
                self.ix.macro_rules.push(m);
            }
            _ => {}
        }
    }

    fn inits_in(&mut self, block: &'a Block, impl_ty: Option<&'a str>) {
        struct V<'a, 'c> {
            out: &'c mut HashMap<(String, String), Vec<Init<'a>>>,
            impl_ty: Option<&'a str>,
        }
        impl<'a> Visit<'a> for V<'a, '_> {
            fn visit_expr_struct(&mut self, s: &'a syn::ExprStruct) {
                let ty = match s.path.segments.last() {
                    Some(seg) if seg.ident == "Self" => self.impl_ty.map(str::to_string),
                    Some(seg) => Some(seg.ident.to_string()),
                    None => None,
                };
                if let Some(ty) = ty {
                    for f in &s.fields {
                        if let Member::Named(n) = &f.member {
                            self.out
                                .entry((ty.clone(), n.to_string()))
                                .or_default()
                                .push(Init {
                                    expr: &f.expr,
                                    impl_ty: self.impl_ty,
                                });
                        }
                    }
                }
                syn::visit::visit_expr_struct(self, s);
            }
            fn visit_item(&mut self, _: &'a Item) {}
        }
        V {
            out: &mut self.ix.inits,
            impl_ty,
        }
        .visit_block(block);
    }
}

/// The evaluation context of one function body.
#[derive(Clone, Default)]
struct Frame {
    impl_ty: Option<String>,
    locals: HashMap<String, L>,
    /// Params without a binding (evaluate to Unknown, not to constants).
    params: Vec<String>,
    fn_name: Option<String>,
}

pub struct Eval<'a, 's> {
    pub ix: &'a Index<'a>,
    pub spans: &'s Spans<'s>,
    steps: Cell<u32>,
    total: Cell<u64>,
    depth: Cell<u32>,
    /// (type, field) pairs being resolved, against cycles.
    resolving: std::cell::RefCell<Vec<(String, String)>>,
    pub uses_backoff_crate: bool,
}

fn path_segs(p: &syn::Path) -> Vec<String> {
    p.segments.iter().map(|s| s.ident.to_string()).collect()
}

fn last2(segs: &[String]) -> String {
    let n = segs.len();
    segs[n.saturating_sub(2)..].join("::")
}

impl<'a, 's> Eval<'a, 's> {
    fn sp<T: syn::spanned::Spanned + ?Sized>(&self, n: &T) -> Span {
        self.spans.node(n)
    }

    fn tick(&self) -> bool {
        let s = self.steps.get() + 1;
        self.steps.set(s);
        let t = self.total.get() + 1;
        self.total.set(t);
        s <= STEP_BUDGET && t <= FILE_BUDGET
    }

    pub fn reset(&self) {
        self.steps.set(0);
    }

    /// A constant item of the file.
    pub fn ix_const(&self, name: &str) -> Option<&'a Expr> {
        self.ix.consts.get(name).copied()
    }

    /// A `Duration::from_*(literal)` or a constant holding one.
    pub fn eval_pub(&self, e: &Expr, _f: &mut ()) -> Option<Duration> {
        match e {
            Expr::Paren(p) => self.eval_pub(&p.expr, _f),
            Expr::Path(p) => {
                let c = self.ix_const(&p.path.segments.last()?.ident.to_string())?;
                self.eval_pub(c, _f)
            }
            Expr::Call(c) => {
                let Expr::Path(p) = &*c.func else { return None };
                let segs = path_segs(&p.path);
                if segs.len() < 2 || segs[segs.len() - 2] != "Duration" {
                    return None;
                }
                let x = match c.args.first()? {
                    Expr::Lit(l) => match lit(&l.lit) {
                        V::Int(n) => n as f64,
                        V::Float(f) => f,
                        _ => return None,
                    },
                    _ => return None,
                };
                let secs = match segs.last()?.as_str() {
                    "from_secs" | "from_secs_f64" | "from_secs_f32" => x,
                    "from_millis" => x / 1e3,
                    "from_micros" => x / 1e6,
                    "from_nanos" => x / 1e9,
                    _ => return None,
                };
                (0.0..1e12)
                    .contains(&secs)
                    .then(|| Duration::from_secs_f64(secs))
            }
            _ => None,
        }
    }

    fn eval(&self, e: &'a Expr, f: &mut Frame) -> L {
        let span = self.sp(e);
        if !self.tick() {
            return L::unknown(span);
        }
        match e {
            Expr::Lit(l) => L::new(lit(&l.lit), span),
            Expr::Paren(p) => self.eval(&p.expr, f),
            Expr::Group(g) => self.eval(&g.expr, f),
            Expr::Reference(r) => self.eval(&r.expr, f),
            Expr::Try(t) => self.eval(&t.expr, f),
            Expr::Await(a) => self.eval(&a.base, f),
            Expr::Cast(c) => self.eval(&c.expr, f),
            Expr::Unary(u) => {
                let v = self.eval(&u.expr, f);
                match (&u.op, v.v) {
                    (syn::UnOp::Neg(_), V::Int(n)) => L::new(V::Int(-n), span),
                    (syn::UnOp::Neg(_), V::Float(x)) => L::new(V::Float(-x), span),
                    (syn::UnOp::Not(_), V::Bool(b)) => L::new(V::Bool(!b), span),
                    _ => L::unknown(span),
                }
            }
            Expr::Binary(b) => {
                let l = self.eval(&b.left, f);
                let r = self.eval(&b.right, f);
                L::new(binary(&b.op, &l, &r), span)
            }
            Expr::Path(p) => self.eval_path(&p.path, span, f),
            Expr::Field(fe) => self.eval_field(fe, span, f),
            Expr::Struct(s) => self.eval_struct(s, span, f),
            Expr::Block(b) => self.eval_block(&b.block, f),
            Expr::Unsafe(b) => self.eval_block(&b.block, f),
            Expr::If(i) => {
                // Both branches run for their effect on locals, in source
                // order (a later setting wins); the value is the first
                // branch that gives one.
                let a = self.eval_block(&i.then_branch, f);
                let b = match &i.else_branch {
                    Some((_, e)) => self.eval(e, f),
                    None => L::unknown(span),
                };
                if matches!(a.v, V::Unknown) { b } else { a }
            }
            Expr::Assign(a) => {
                if let Expr::Path(p) = &*a.left
                    && let Some(id) = p.path.get_ident()
                {
                    let v = self.eval(&a.right, f);
                    f.locals.insert(id.to_string(), v);
                }
                L::unknown(span)
            }
            Expr::Call(c) => self.eval_call(c, span, f),
            Expr::MethodCall(m) => self.eval_method(m, span, f),
            Expr::Macro(_) => L::unknown(span),
            _ => L::unknown(span),
        }
    }

    fn eval_block(&self, b: &'a Block, f: &mut Frame) -> L {
        let mut last = L::unknown(self.sp(b));
        for (i, s) in b.stmts.iter().enumerate() {
            match s {
                Stmt::Local(l) => {
                    if let Some(init) = &l.init {
                        let v = self.eval(&init.expr, f);
                        if let Some(name) = pat_ident(&l.pat) {
                            f.locals.insert(name, v);
                        }
                    }
                }
                Stmt::Expr(e, semi) => {
                    let v = self.eval(e, f);
                    if semi.is_none() && i + 1 == b.stmts.len() {
                        last = v;
                    } else if let Expr::Return(r) = e
                        && let Some(x) = &r.expr
                    {
                        return self.eval(x, f);
                    }
                }
                _ => {}
            }
        }
        last
    }

    fn eval_path(&self, p: &'a syn::Path, span: Span, f: &mut Frame) -> L {
        let segs = path_segs(p);
        if segs.len() == 1 {
            let name = &segs[0];
            if let Some(v) = f.locals.get(name) {
                return v.clone();
            }
            if f.params.contains(name) {
                return L::unknown(span);
            }
            if name == "None" {
                return L::new(V::Path("None".into()), span);
            }
            if let Some(e) = self.ix.consts.get(name.as_str()) {
                return self.nested(|s| s.eval(e, &mut Frame::default()), span);
            }
            return L::new(V::Path(name.clone()), span);
        }
        // `Self::CONST`, `Type::CONST`, `Duration::MAX` ...
        if let Some(last) = segs.last()
            && let Some(e) = self.ix.consts.get(last.as_str())
        {
            return self.nested(|s| s.eval(e, &mut Frame::default()), span);
        }
        if segs.last().is_some_and(|s| s == "MAX") && segs.iter().any(|s| s == "Duration") {
            return L::new(V::Dur(Duration::MAX), span);
        }
        L::new(V::Path(last2(&segs)), span)
    }

    fn nested(&self, run: impl FnOnce(&Self) -> L, span: Span) -> L {
        let d = self.depth.get();
        if d >= MAX_CALL_DEPTH {
            return L::unknown(span);
        }
        self.depth.set(d + 1);
        let v = run(self);
        self.depth.set(d);
        v
    }

    fn eval_field(&self, fe: &'a syn::ExprField, span: Span, f: &mut Frame) -> L {
        let Member::Named(name) = &fe.member else {
            return L::unknown(span);
        };
        let name = name.to_string();
        if let Expr::Path(p) = &*fe.base
            && p.path.is_ident("self")
        {
            let Some(ty) = f.impl_ty.clone() else {
                return L::unknown(span);
            };
            return self.field_of(&ty, &name, span);
        }
        match self.eval(&fe.base, f).v {
            V::Struct(fields) => fields
                .into_iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v)
                .unwrap_or(L::unknown(span)),
            _ => L::unknown(span),
        }
    }

    /// The value struct literals of the file give `ty.field`, when they
    /// agree (literals that copy it from elsewhere or from parameters are
    /// skipped).
    fn field_of(&self, ty: &str, field: &str, span: Span) -> L {
        let key = (ty.to_string(), field.to_string());
        if self.resolving.borrow().contains(&key) {
            return L::unknown(span);
        }
        let Some(inits) = self.ix.inits.get(&key) else {
            return L::unknown(span);
        };
        self.resolving.borrow_mut().push(key);
        let mut found: Option<L> = None;
        let mut conflict = false;
        for init in inits {
            let v = self.nested(
                |s| {
                    let mut fr = Frame {
                        impl_ty: init.impl_ty.map(str::to_string),
                        ..Frame::default()
                    };
                    // A bare name in a literal is a parameter or local of
                    // its function, which we do not know here.
                    if let Expr::Path(p) = init.expr
                        && p.path.get_ident().is_some()
                        && !s
                            .ix
                            .consts
                            .contains_key(&p.path.segments[0].ident.to_string())
                    {
                        return L::unknown(span);
                    }
                    s.eval(init.expr, &mut fr)
                },
                span,
            );
            if matches!(v.v, V::Unknown) {
                continue;
            }
            match &found {
                None => found = Some(v),
                Some(prev) if same(prev, &v) => {}
                Some(_) => conflict = true,
            }
        }
        self.resolving.borrow_mut().pop();
        if conflict {
            return L::unknown(span);
        }
        found.unwrap_or(L::unknown(span))
    }

    fn eval_struct(&self, s: &'a syn::ExprStruct, span: Span, f: &mut Frame) -> L {
        let segs = path_segs(&s.path);
        let ty = match segs.last().map(String::as_str) {
            Some("Self") => f.impl_ty.clone().unwrap_or_default(),
            Some(t) => t.to_string(),
            None => String::new(),
        };
        let mut fields = Vec::new();
        for fv in &s.fields {
            if let Member::Named(n) = &fv.member {
                fields.push((n.to_string(), self.eval(&fv.expr, f)));
            }
        }
        // backoff::ExponentialBackoff { .., ..Default::default() }
        if ty == "ExponentialBackoff"
            && (self.uses_backoff_crate
                || fields.iter().any(|(n, _)| {
                    matches!(
                        n.as_str(),
                        "initial_interval" | "max_elapsed_time" | "randomization_factor"
                    )
                }))
        {
            let mut b = backoff_default(span);
            for (n, v) in &fields {
                backoff_field(&mut b, n, v);
            }
            return L::new(V::B(Box::new(b)), span);
        }
        L::new(V::Struct(fields), span)
    }

    fn eval_call(&self, c: &'a syn::ExprCall, span: Span, f: &mut Frame) -> L {
        let Expr::Path(p) = &*c.func else {
            return L::unknown(span);
        };
        let segs = path_segs(&p.path);
        let args: Vec<&'a Expr> = c.args.iter().collect();
        let last = segs.last().map(String::as_str).unwrap_or("");
        let owner = if segs.len() >= 2 {
            segs[segs.len() - 2].as_str()
        } else {
            ""
        };
        // Wrappers.
        if matches!(last, "Ok" | "Some" | "new" | "from")
            && matches!(owner, "" | "Box" | "Arc" | "Rc" | "Some" | "Ok")
            && args.len() == 1
            && (!owner.is_empty() || last != "new")
        {
            let v = self.eval(args[0], f);
            if last == "Some" {
                return L::new(V::Some(Box::new(v)), span);
            }
            return v;
        }
        if owner == "Duration" {
            let v = args.first().map(|a| self.eval(a, f));
            let Some(x) = v.as_ref().and_then(|v| v.float()) else {
                return L::unknown(span);
            };
            let d = match last {
                "from_secs" | "from_secs_f64" | "from_secs_f32" => x,
                "from_millis" => x / 1e3,
                "from_micros" => x / 1e6,
                "from_nanos" => x / 1e9,
                "from_mins" => x * 60.0,
                "from_hours" => x * 3600.0,
                _ => return L::unknown(span),
            };
            if !(0.0..1e15).contains(&d) {
                return L::unknown(span);
            }
            return L::new(V::Dur(Duration::from_secs_f64(d)), span);
        }
        if let Some(b) = self.constructor(owner, last, &args, span, f) {
            return L::new(V::B(Box::new(b)), span);
        }
        // The file's own functions: `f(..)`, `Self::f(..)`, `Type::f(..)`.
        let impl_ty = match owner {
            "Self" => f.impl_ty.clone(),
            "" => None,
            t => Some(t.to_string()),
        };
        if let Some(def) = self.find_fn(last, impl_ty.as_deref(), owner.is_empty()) {
            let vals: Vec<L> = args.iter().map(|a| self.eval(a, f)).collect();
            return self.call(def, vals, span);
        }
        L::unknown(span)
    }

    fn find_fn(&self, name: &str, impl_ty: Option<&str>, free: bool) -> Option<FnDef<'a>> {
        let defs = self.ix.fns.get(name)?;
        let mut it = defs.iter().filter(|d| {
            if free {
                d.impl_ty.is_none()
            } else {
                d.impl_ty == impl_ty
            }
        });
        let first = *it.next()?;
        if it.next().is_some() {
            return None;
        }
        Some(first)
    }

    fn call(&self, def: FnDef<'a>, args: Vec<L>, span: Span) -> L {
        self.nested(
            |s| {
                let mut fr = Frame {
                    impl_ty: def.impl_ty.map(str::to_string),
                    fn_name: Some(def.sig.ident.to_string()),
                    ..Frame::default()
                };
                let mut args = args.into_iter();
                for input in &def.sig.inputs {
                    match input {
                        FnArg::Receiver(_) => {}
                        FnArg::Typed(t) => {
                            let v = args.next();
                            if let Some(name) = pat_ident(&t.pat) {
                                match v {
                                    Some(v) if !matches!(v.v, V::Unknown) => {
                                        fr.locals.insert(name, v);
                                    }
                                    _ => fr.params.push(name),
                                }
                            }
                        }
                    }
                }
                s.eval_block(def.block, &mut fr)
            },
            span,
        )
    }

    fn eval_method(&self, m: &'a syn::ExprMethodCall, span: Span, f: &mut Frame) -> L {
        let name = m.method.to_string();
        // `self.method(..)`: the file's own method.
        if let Expr::Path(p) = &*m.receiver
            && p.path.is_ident("self")
        {
            if let Some(def) = self.find_fn(&name, f.impl_ty.as_deref(), false) {
                let vals: Vec<L> = m.args.iter().map(|a| self.eval(a, f)).collect();
                return self.call(def, vals, span);
            }
            return L::unknown(span);
        }
        let recv = self.eval(&m.receiver, f);
        match recv.v {
            V::B(mut b) => {
                let args: Vec<L> = m.args.iter().map(|a| self.eval(a, f)).collect();
                let call_span = Span::new(self.sp(&m.method).start, span.end);
                if apply(&mut b, &name, &args, call_span, self.spans.slice(call_span)) {
                    L::new(V::B(b), span)
                } else {
                    L::unknown(span)
                }
            }
            V::Some(inner) if matches!(name.as_str(), "unwrap" | "expect") => *inner,
            v @ V::Struct(..)
                if matches!(
                    name.as_str(),
                    "unwrap" | "expect" | "clone" | "into" | "to_owned" | "build"
                ) =>
            {
                L::new(v, span)
            }
            _ => L::unknown(span),
        }
    }

    /// A retry builder's constructor.
    fn constructor(
        &self,
        owner: &str,
        name: &str,
        args: &[&'a Expr],
        span: Span,
        f: &mut Frame,
    ) -> Option<Build> {
        let arg = |i: usize, f: &mut Frame| args.get(i).map(|a| self.eval(a, f));
        let b = match (owner, name) {
            ("ExponentialBuilder", "default" | "new") => {
                let mut b = Build::new(Krate::Backon, Shape::Exponential, span);
                b.cap = Some(Located::default_at(Duration::from_secs(60), span));
                b.retries = Located::default_at(AttemptCount::Finite(3), span);
                b
            }
            ("ConstantBuilder", "default" | "new") => {
                let mut b = Build::new(Krate::Backon, Shape::Constant, span);
                b.retries = Located::default_at(AttemptCount::Finite(3), span);
                b
            }
            ("FibonacciBuilder", "default" | "new") => {
                let mut b = Build::new(Krate::Backon, Shape::Fibonacci, span);
                b.cap = Some(Located::default_at(Duration::from_secs(60), span));
                b.retries = Located::default_at(AttemptCount::Finite(3), span);
                b
            }
            ("ExponentialBackoff", "builder") => {
                let mut b = Build::new(Krate::RetryPolicies, Shape::Exponential, span);
                b.cap = Some(Located::default_at(Duration::from_secs(30 * 60), span));
                b.jitter = Located::default_at(Jitter::Full, span);
                b.retries = Located::default_at(AttemptCount::Unknown, span);
                b
            }
            ("ExponentialBackoff" | "FibonacciBackoff" | "FixedInterval", "from_millis") => {
                let ms = arg(0, f)?;
                let base = ms.float()?;
                let shape = match owner {
                    "ExponentialBackoff" => Shape::Exponential,
                    "FibonacciBackoff" => Shape::Fibonacci,
                    _ => Shape::Constant,
                };
                let mut b = Build::new(Krate::TokioRetry, shape, span);
                // (`1e309` reads as infinite: the longest duration, not a panic.)
                let min = Duration::try_from_secs_f64(base.max(0.0) / 1e3).unwrap_or(Duration::MAX);
                b.min = Located::written(min, ms.span);
                b.factor = Located::written(base, ms.span);
                b.retries_written = "no .take(n)".into();
                b
            }
            ("FixedInterval", "new") => {
                let d = arg(0, f)?;
                let mut b = Build::new(Krate::TokioRetry, Shape::Constant, span);
                b.min = Located::written(d.dur()?, d.span);
                b.retries_written = "no .take(n)".into();
                b
            }
            ("ExponentialBackoff", "default") if self.uses_backoff_crate => backoff_default(span),
            ("ExponentialBackoffBuilder", "new" | "default") => backoff_default(span),
            ("RetryConfig", "standard" | "adaptive" | "new" | "default") => {
                let mut b = Build::new(Krate::Aws, Shape::Exponential, span);
                b.retries = Located::default_at(AttemptCount::Finite(2), span);
                b.retries_written = "AWS standard mode default 3 attempts".into();
                b.cap = Some(Located::default_at(Duration::from_secs(20), span));
                b.jitter = Located::default_at(Jitter::Full, span);
                b.cap_order = CapOrder::AfterJitter;
                b.budget = true;
                b
            }
            ("RetryConfig", "disabled") => {
                let mut b = Build::new(Krate::Aws, Shape::Exponential, span);
                b.retries = Located::written(AttemptCount::Finite(0), span);
                b.retries_written = "RetryConfig::disabled()".into();
                b
            }
            ("ExponentialBackoffMaker", "new") => {
                let min = arg(0, f)?;
                let max = arg(1, f);
                let jitter = arg(2, f);
                let mut b = Build::new(Krate::Tower, Shape::Exponential, span);
                if let Some(d) = min.dur() {
                    b.min = Located::written(d, min.span);
                }
                if let Some(m) = max.as_ref().and_then(|m| m.dur().map(|d| (d, m.span))) {
                    b.cap = Some(Located::written(m.0, m.1));
                }
                b.jitter = match jitter.as_ref().and_then(L::float) {
                    Some(0.0) => Located::written(Jitter::None, span),
                    Some(_) => Located::written(Jitter::Additive, jitter.as_ref()?.span),
                    None => Located::written(Jitter::Unknown, span),
                };
                b.cap_order = CapOrder::AfterJitter;
                b.retries = Located::default_at(AttemptCount::Unknown, span);
                b
            }
            _ => return None,
        };
        Some(b)
    }
}

fn backoff_default(span: Span) -> Build {
    let mut b = Build::new(Krate::Backoff, Shape::Exponential, span);
    b.min = Located::default_at(Duration::from_millis(500), span);
    b.factor = Located::default_at(1.5, span);
    b.cap = Some(Located::default_at(Duration::from_secs(60), span));
    b.jitter = Located::default_at(Jitter::Proportional { factor: 0.5 }, span);
    b.cap_order = CapOrder::BeforeJitter;
    b.elapsed = Some(Located::default_at(Some(Duration::from_secs(900)), span));
    b.retries_written = "backoff default max_elapsed_time 15 min".into();
    b
}

fn backoff_field(b: &mut Build, name: &str, v: &L) {
    match name {
        "initial_interval" | "current_interval" => {
            if let Some(d) = v.dur() {
                b.min = Located::written(d, v.span);
            }
        }
        "multiplier" => {
            if let Some(x) = v.float() {
                b.factor = Located::written(x, v.span);
            }
        }
        "max_interval" => {
            if let Some(d) = v.dur() {
                b.cap = Some(Located::written(d, v.span));
            }
        }
        "randomization_factor" => {
            if let Some(x) = v.float() {
                b.jitter = Located::written(
                    if x == 0.0 {
                        Jitter::None
                    } else {
                        Jitter::Proportional { factor: x }
                    },
                    v.span,
                );
            }
        }
        "max_elapsed_time" => match &v.v {
            V::Path(p) if p == "None" => {
                b.elapsed = Some(Located::written(None, v.span));
                b.retries = Located::written(AttemptCount::Unbounded, v.span);
                b.retries_written = "max_elapsed_time: None".into();
            }
            V::Some(inner) => {
                if let Some(d) = inner.dur() {
                    b.elapsed = Some(Located::written(Some(d), v.span));
                    b.retries_written = format!("max_elapsed_time {}", crate::duration::human(d));
                    b.retries = Located::written(AttemptCount::Unbounded, v.span);
                }
            }
            _ => {}
        },
        _ => {}
    }
}

/// Apply a builder method; false when the method is not one the crate has
/// (the value is then unknown).
fn apply(b: &mut Build, name: &str, args: &[L], span: Span, text: &str) -> bool {
    const DELAY_SETTERS: &[&str] = &[
        "with_factor",
        "base",
        "with_min_delay",
        "with_delay",
        "with_max_delay",
        "max_delay",
        "retry_bounds",
        "factor",
        "with_initial_backoff",
        "with_max_backoff",
        "with_initial_interval",
        "with_max_interval",
        "with_multiplier",
    ];
    if DELAY_SETTERS.contains(&name)
        && args
            .iter()
            .any(|a| a.float().is_none() && a.dur().is_none())
    {
        b.delay_unknown = Some(span);
    }
    let written = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let a0 = args.first();
    match (b.krate, name) {
        // Passthrough on every builder.
        (_, "clone" | "build" | "make_backoff" | "into" | "unwrap" | "expect" | "to_owned") => {}
        (_, "with_jitter_seed" | "with_retry_mode" | "with_reconnect_mode") => {}
        (Krate::Backon, "with_jitter") => b.jitter = Located::written(Jitter::Additive, span),
        (Krate::Backon, "with_factor") | (Krate::RetryPolicies, "base") => {
            if let Some(x) = a0.and_then(L::float) {
                b.factor = Located::written(x, span);
            }
        }
        (Krate::Backon, "with_min_delay" | "with_delay") => {
            if let Some(d) = a0.and_then(L::dur) {
                b.min = Located::written(d, span);
            }
        }
        (Krate::Backon, "with_max_delay") | (Krate::TokioRetry, "max_delay") => {
            if let Some(d) = a0.and_then(L::dur) {
                b.cap = Some(Located::written(d, span));
            }
        }
        (Krate::Backon, "without_max_delay") => b.cap = None,
        (Krate::Backon, "with_max_times") | (Krate::TokioRetry, "take") => {
            b.retries = match a0.and_then(L::int) {
                Some(n) if n >= 0 => Located::written(AttemptCount::Finite(n as u64), span),
                _ => Located::written(AttemptCount::Unknown, span),
            };
            b.retries_written = format!("{} (retries)", written(text));
        }
        (Krate::Backon, "without_max_times") => {
            b.retries = Located::written(AttemptCount::Unbounded, span);
            b.retries_written = written(text);
        }
        (Krate::Backon, "with_total_delay") => match a0.map(|a| &a.v) {
            Some(V::Some(d)) => b.elapsed = Some(Located::written(d.dur(), span)),
            Some(V::Path(p)) if p == "None" => b.elapsed = None,
            _ => b.elapsed = Some(Located::written(None, span)),
        },
        (Krate::RetryPolicies, "retry_bounds") => {
            if let (Some(lo), Some(hi)) = (a0.and_then(L::dur), args.get(1).and_then(L::dur)) {
                b.min = Located::written(lo, span);
                b.cap = Some(Located::written(hi, span));
            }
        }
        (Krate::RetryPolicies, "jitter") => {
            let j = match a0.map(|a| &a.v) {
                Some(V::Path(p)) if p.ends_with("None") => Jitter::None,
                Some(V::Path(p)) if p.ends_with("Full") || p.ends_with("Bounded") => Jitter::Full,
                _ => Jitter::Unknown,
            };
            b.jitter = Located::written(j, span);
        }
        (Krate::RetryPolicies, "build_with_max_retries") => {
            b.retries = match a0.and_then(L::int) {
                Some(n) if n >= 0 => Located::written(AttemptCount::Finite(n as u64), span),
                _ => Located::written(AttemptCount::Unknown, span),
            };
            let shown = match a0.and_then(L::int) {
                Some(n) if !text.contains(&n.to_string()) => format!(" = {n}"),
                _ => String::new(),
            };
            b.retries_written = format!("{}{shown} (retries)", written(text));
        }
        (
            Krate::RetryPolicies,
            "build_with_total_retry_duration" | "build_with_total_retry_duration_and_limit_retries",
        ) => {
            b.elapsed = Some(Located::written(a0.and_then(L::dur), span));
            b.retries = Located::written(AttemptCount::Unbounded, span);
            b.retries_written = written(text);
        }
        (Krate::RetryPolicies, "build_with_total_retry_duration_and_max_retries") => {
            b.elapsed = Some(Located::written(a0.and_then(L::dur), span));
            b.retries = match args.get(1).and_then(L::int) {
                Some(n) if n >= 0 => Located::written(AttemptCount::Finite(n as u64), span),
                _ => Located::written(AttemptCount::Unknown, span),
            };
            b.retries_written = written(text);
        }
        (Krate::TokioRetry, "factor") => {
            if let Some(x) = a0.and_then(L::float) {
                b.min = Located::written(b.min.value.mul_f64(x.max(0.0)), span);
            }
        }
        (Krate::TokioRetry, "map") => {
            let t = text.replace(' ', "");
            let j = if t.contains("jitter") {
                Jitter::Full
            } else {
                Jitter::Unknown
            };
            b.jitter = Located::written(j, span);
        }
        (Krate::Backoff, n) if n.starts_with("with_") => {
            let field = &n[5..];
            if let Some(v) = a0 {
                backoff_field(b, field, v);
            }
        }
        (Krate::Aws, "with_max_attempts") => {
            b.retries = match a0.and_then(L::int) {
                Some(n) if n >= 1 => Located::written(AttemptCount::Finite(n as u64 - 1), span),
                _ => Located::written(AttemptCount::Unknown, span),
            };
            b.retries_written = format!("{} (attempts)", written(text));
        }
        (Krate::Aws, "with_initial_backoff") => {
            if let Some(d) = a0.and_then(L::dur) {
                b.min = Located::written(d, span);
            }
        }
        (Krate::Aws, "with_max_backoff") => {
            if let Some(d) = a0.and_then(L::dur) {
                b.cap = Some(Located::written(d, span));
            }
        }
        _ => return false,
    }
    true
}

fn lit(l: &Lit) -> V {
    match l {
        Lit::Int(i) => i
            .base10_digits()
            .parse::<i128>()
            .map(V::Int)
            .unwrap_or(V::Unknown),
        Lit::Float(x) => x
            .base10_digits()
            .parse::<f64>()
            .map(V::Float)
            .unwrap_or(V::Unknown),
        Lit::Bool(b) => V::Bool(b.value),
        Lit::Str(s) => V::Str(s.value()),
        _ => V::Unknown,
    }
}

fn binary(op: &syn::BinOp, l: &L, r: &L) -> V {
    use syn::BinOp::*;
    if let (Some(a), Some(b)) = (l.int(), r.int())
        && matches!(l.v, V::Int(_))
        && matches!(r.v, V::Int(_))
    {
        return match op {
            Add(_) => a.checked_add(b).map_or(V::Unknown, V::Int),
            Sub(_) => a.checked_sub(b).map_or(V::Unknown, V::Int),
            Mul(_) => a.checked_mul(b).map_or(V::Unknown, V::Int),
            Div(_) if b != 0 => V::Int(a / b),
            _ => V::Unknown,
        };
    }
    if let (Some(a), Some(b)) = (l.float(), r.float()) {
        return match op {
            Add(_) => V::Float(a + b),
            Sub(_) => V::Float(a - b),
            Mul(_) => V::Float(a * b),
            Div(_) if b != 0.0 => V::Float(a / b),
            _ => V::Unknown,
        };
    }
    match (op, &l.v, &r.v) {
        (Mul(_), V::Dur(d), _) | (Mul(_), _, V::Dur(d)) => {
            let k = l.float().or(r.float()).unwrap_or(-1.0);
            if (0.0..1e9).contains(&k) {
                V::Dur(d.mul_f64(k))
            } else {
                V::Unknown
            }
        }
        (Add(_), V::Dur(a), V::Dur(b)) => V::Dur(a.saturating_add(*b)),
        _ => V::Unknown,
    }
}

fn same(a: &L, b: &L) -> bool {
    match (&a.v, &b.v) {
        (V::Int(x), V::Int(y)) => x == y,
        (V::Float(x), V::Float(y)) => x == y,
        (V::Dur(x), V::Dur(y)) => x == y,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::Str(x), V::Str(y)) => x == y,
        (V::Path(x), V::Path(y)) => x == y,
        (V::B(x), V::B(y)) => x.origin == y.origin,
        _ => false,
    }
}

pub fn pat_ident(p: &Pat) -> Option<String> {
    match p {
        Pat::Ident(i) => Some(i.ident.to_string()),
        Pat::Type(t) => pat_ident(&t.pat),
        _ => None,
    }
}

/// Read a parsed file into `facts`.
pub fn read_file<'a>(file: &'a syn::File, spans: &'a Spans<'a>, facts: &mut Facts) {
    // A test module in a file of its own (`#[cfg(test)] mod tests;` in the
    // parent): its `#[test]` functions sit at the top of the file.
    if is_test_only(&file.attrs) || file.items.iter().any(is_test_fn) {
        return;
    }
    // A crate of test support (`test_util`, `test_raftstore`,
    // `foo-test-utils`): its waits and retries serve tests.
    if facts
        .rust
        .crate_dir
        .as_deref()
        .and_then(|d| d.rsplit('/').next())
        .is_some_and(is_test_crate)
    {
        return;
    }
    let mut c = Collector {
        ix: Index::default(),
        spans,
    };
    c.items(&file.items);
    let ix = c.ix;
    let text = spans.source();
    let ev = Eval {
        ix: &ix,
        spans,
        steps: Cell::new(0),
        total: Cell::new(0),
        depth: Cell::new(0),
        resolving: Default::default(),
        uses_backoff_crate: text.contains("backoff::") && !text.contains("tower::retry::backoff"),
    };
    super::eval::sites(&ev, facts);
    loops::read(&ev, &ix.bodies, &ix.macro_rules, facts);
}

// ---------------------------------------------------------------------------
// Sites: where policies are used, and what becomes a policy.

/// How a builder is used: retried with a predicate or not.
#[derive(Default, Clone)]
struct Uses {
    any: bool,
    without_when: bool,
    with_when: bool,
    /// Some use sets `.adjust(..)` (backon: the delay is changed by a
    /// function of the error, e.g. to honour `Retry-After`)...
    adjust: bool,
    /// ...and some does not.
    without_adjust: bool,
    spans: Vec<Span>,
    keys: Vec<IdempotencyKey>,
}

pub fn policy_of(b: &Build, system: System, span: Span) -> RetryPolicy {
    let mut p = RetryPolicy::new(system, span, b.attempts());
    p.delay = b.delay();
    p.jitter = b.jitter.clone();
    p.cap_order = b.cap_order;
    if let Some(e) = &b.elapsed {
        p.overall_timeout = Some(Located {
            value: match e.value {
                Some(d) => Timeout::after(d),
                None => Timeout::Disabled,
            },
            span: e.span,
            provenance: e.provenance,
        });
    }
    if b.budget {
        p.budget = Some(Located::default_at(Budget::Quota, b.origin));
    }
    p
}

/// reqwest-retry's default conditions.
fn reqwest_retry_default(span: Span) -> Located<RetryOn> {
    let c = |c| Located::default_at(c, span);
    Located::default_at(
        RetryOn::Listed {
            conditions: vec![
                c(Condition::Status { from: 500, to: 599 }),
                c(Condition::status(408)),
                c(Condition::status(429)),
                c(Condition::Transport("timeout".into())),
                c(Condition::Transport("connect".into())),
                c(Condition::Transport("reset".into())),
            ],
        },
        span,
    )
}

/// Find the retry crates' uses and builders in every production function.
pub fn sites(ev: &Eval<'_, '_>, facts: &mut Facts) {
    let ix = ev.ix;
    // Builders by origin, and how each is used.
    let mut builds: Vec<(Build, Uses, Option<String>)> = Vec::new();
    let mut middleware: Vec<(usize, Span, String)> = Vec::new(); // policy index, site, fn
    for (fname, impl_ty, block, fspan) in &ix.bodies {
        let frame = Frame {
            impl_ty: impl_ty.map(str::to_string),
            fn_name: Some(fname.clone()),
            ..Frame::default()
        };
        let mut finder = SiteFinder {
            ev,
            frame,
            found: Vec::new(),
            covered: Vec::new(),
        };
        finder.visit_block(block);
        for site in finder.found {
            match site {
                Site::Middleware {
                    span,
                    ctor,
                    policy,
                    custom,
                } => {
                    ev.reset();
                    let mut p = match &policy {
                        Some(b) if b.krate == Krate::RetryPolicies => {
                            policy_of(b, System::RustCrate("reqwest-retry".into()), span)
                        }
                        _ => {
                            let mut p = RetryPolicy::new(
                                System::RustCrate("reqwest-retry".into()),
                                span,
                                Located::written(
                                    Attempts {
                                        count: AttemptCount::Unknown,
                                        written_as: "a retry policy the linter cannot read".into(),
                                    },
                                    span,
                                ),
                            );
                            p.delay = Located::written(Delay::Unknown, span);
                            p
                        }
                    };
                    p.name = Some(format!("RetryTransientMiddleware in {fname}"));
                    p.retry_on = if custom {
                        Located::written(RetryOn::Unknown, span)
                    } else {
                        reqwest_retry_default(ctor)
                    };
                    p.methods = Located::default_at(Methods::All, span);
                    p.per_try_timeout = Some(client_timeout(ev, *fspan, span));
                    facts.policies.push(p);
                    middleware.push((facts.policies.len() - 1, span, fname.clone()));
                }
                Site::Use {
                    build,
                    when,
                    adjust,
                    span,
                    scope,
                } => {
                    let i = match builds.iter().position(|(b, _, _)| b.origin == build.origin) {
                        Some(i) => {
                            // The use's builder is the more complete one.
                            builds[i].0 = *build;
                            i
                        }
                        None => {
                            builds.push((*build, Uses::default(), Some(fname.clone())));
                            builds.len() - 1
                        }
                    };
                    let u = &mut builds[i].1;
                    u.any = true;
                    u.with_when |= when;
                    u.without_when |= !when;
                    u.adjust |= adjust;
                    u.without_adjust |= !adjust;
                    u.spans.push(span);
                    if let Some(scope) = scope {
                        u.keys.extend(loops::keys(ev.spans, scope));
                    }
                }
                Site::Builder(b) => {
                    if !builds.iter().any(|(x, _, _)| x.origin == b.origin) {
                        builds.push((*b, Uses::default(), Some(fname.clone())));
                    }
                }
                Site::AwsLoad { span } => {
                    let mut b = Build::new(Krate::Aws, Shape::Exponential, span);
                    b.retries = Located::default_at(AttemptCount::Finite(2), span);
                    let called = ev.spans.slice(span).split('(').next().unwrap_or("").trim();
                    b.retries_written = format!("{called} with no retry_config");
                    b.cap = Some(Located::default_at(Duration::from_secs(20), span));
                    b.jitter = Located::default_at(Jitter::Full, span);
                    b.cap_order = CapOrder::AfterJitter;
                    b.budget = true;
                    let mut p = policy_of(&b, System::AwsSdk, span);
                    p.name = Some(format!("SDK config loaded in {fname}"));
                    p.retry_on = Located::default_at(RetryOn::Unknown, span);
                    p.methods = Located::default_at(Methods::Unknown, span);
                    p.per_try_timeout = Some(Located::default_at(Timeout::Disabled, span));
                    facts.policies.push(p);
                }
            }
        }
    }
    for (b, uses, fname) in builds {
        let system = match b.krate {
            Krate::Aws => System::AwsSdk,
            k => System::RustCrate(k.name().into()),
        };
        // reqwest-retry policies and tower backoffs only matter where they
        // are used; their uses made their own policies above.
        if matches!(b.krate, Krate::RetryPolicies | Krate::Tower) {
            continue;
        }
        let mut p = policy_of(&b, system, b.origin);
        p.name = fname.map(|f| format!("{} in {f}", b.krate.name()));
        p.idempotency = uses.keys.clone();
        p.retry_on = if !uses.any {
            Located::default_at(RetryOn::Unknown, b.origin)
        } else if uses.without_when {
            let at = uses.spans.first().copied().unwrap_or(b.origin);
            Located::default_at(RetryOn::AllErrors, at)
        } else {
            Located::written(
                RetryOn::Listed {
                    conditions: vec![Located::written(Condition::Predicate, b.origin)],
                },
                b.origin,
            )
        };
        if b.krate == Krate::Aws {
            p.per_try_timeout = Some(Located::default_at(Timeout::Disabled, b.origin));
        }
        // Every use adjusts the delay with a function: the builder's delay
        // and jitter are not what is waited.
        if uses.adjust && !uses.without_adjust {
            let at = uses.spans.first().copied().unwrap_or(b.origin);
            p.delay = Located::written(Delay::Custom, at);
            p.jitter = Located::written(Jitter::Unknown, at);
        }
        facts.policies.push(p);
    }
    // Retry middlewares layered in one function: the client built with the
    // first is used inside the second's client (uv's auth middleware).
    layered(ev, &middleware, facts);
    super::eval::tower_policies(ev, facts);
}

/// A per-attempt timeout for an HTTP client: the function or file sets
/// `.timeout(..)`/`.read_timeout(..)` on a client builder, or none is set
/// (reqwest's default is no timeout).
fn client_timeout(ev: &Eval<'_, '_>, _fspan: Span, span: Span) -> Located<Timeout> {
    let text = ev.spans.source();
    for needle in [".timeout(", ".read_timeout("] {
        if let Some(i) = text.find(needle) {
            let s = Span::new(i + 1, i + needle.len() - 1);
            return Located::written(Timeout::Unknown, s);
        }
    }
    Located::default_at(Timeout::Disabled, span)
}

fn layered(ev: &Eval<'_, '_>, mw: &[(usize, Span, String)], facts: &mut Facts) {
    let text = ev.spans.source();
    for (i, (pa, sa, fa)) in mw.iter().enumerate() {
        for (pb, sb, fb) in mw.iter().skip(i + 1) {
            if fa != fb {
                continue;
            }
            // The first is built into a `let NAME = ...` whose NAME is used
            // after the second.
            let Some(name) = let_name_before(text, sa.start) else {
                continue;
            };
            let after = &text[sb.end.min(text.len())..];
            let end_of_fn = ix_fn_end(ev, *sb).unwrap_or(text.len());
            let after = &after[..end_of_fn.saturating_sub(sb.end).min(after.len())];
            if !contains_word(after, &name) {
                continue;
            }
            // Both layers are `RetryTransientMiddleware in <fn>`: name each
            // by the client it is applied to, so that a path through both
            // tells them apart.
            let outer = let_name_before(text, sb.start)
                .filter(|n| *n != name)
                .unwrap_or_else(|| "the outer client".to_string());
            for (p, on) in [(*pa, name.clone()), (*pb, outer)] {
                if let Some(p) = facts.policies.get_mut(p)
                    && p.name.as_deref() == Some(&format!("RetryTransientMiddleware in {fa}"))
                {
                    p.name = Some(format!("RetryTransientMiddleware on {on} in {fa}"));
                }
            }
            facts.edges.push(CallEdge {
                client: None,
                caller: None,
                callee: format!("client built in {fa}()"),
                span: *sb,
                policies: vec![*pb, *pa],
                via: format!(
                    "retry middleware on the client, and again on `{name}` used inside it"
                ),
            });
        }
    }
}

fn ix_fn_end(ev: &Eval<'_, '_>, s: Span) -> Option<usize> {
    ev.ix
        .bodies
        .iter()
        .filter(|(_, _, _, sp)| sp.start <= s.start && s.end <= sp.end)
        .map(|(_, _, _, sp)| sp.end)
        .min()
}

/// The name bound by the innermost `let NAME =` that starts before `at`
/// on a line of lesser indentation than `at`'s.
fn let_name_before(text: &str, at: usize) -> Option<String> {
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

enum Site {
    Middleware {
        span: Span,
        /// The constructor's path (`RetryTransientMiddleware::new_with_policy`).
        ctor: Span,
        policy: Option<Box<Build>>,
        custom: bool,
    },
    Use {
        build: Box<Build>,
        when: bool,
        adjust: bool,
        span: Span,
        /// The retried operation (closure or function), for keys minted in
        /// it.
        scope: Option<Span>,
    },
    Builder(Box<Build>),
    AwsLoad {
        span: Span,
    },
}

struct SiteFinder<'e, 'a, 's> {
    ev: &'e Eval<'a, 's>,
    frame: Frame,
    found: Vec<Site>,
    covered: Vec<Span>,
}

impl<'a> SiteFinder<'_, 'a, '_> {
    fn eval_b(&mut self, e: &'a Expr) -> Option<Box<Build>> {
        self.ev.reset();
        let mut f = self.frame.clone();
        match self.ev.eval(e, &mut f).v {
            V::B(b) => Some(b),
            _ => None,
        }
    }

    /// Method names of a chain from the outside in, with the receiver at
    /// the root.
    fn chain(e: &'a Expr) -> (Vec<&'a syn::ExprMethodCall>, &'a Expr) {
        let mut v = Vec::new();
        let mut cur = e;
        loop {
            match cur {
                Expr::MethodCall(m) => {
                    v.push(m);
                    cur = &m.receiver;
                }
                Expr::Await(a) => cur = &a.base,
                Expr::Try(t) => cur = &t.expr,
                _ => break,
            }
        }
        (v, cur)
    }
}

impl<'a> Visit<'a> for SiteFinder<'_, 'a, '_> {
    fn visit_item(&mut self, _: &'a Item) {}

    fn visit_local(&mut self, l: &'a syn::Local) {
        syn::visit::visit_local(self, l);
        // Keep locals for later expressions of the same body.
        if let Some(init) = &l.init
            && let Some(name) = pat_ident(&l.pat)
        {
            self.ev.reset();
            let mut f = self.frame.clone();
            let v = self.ev.eval(&init.expr, &mut f);
            self.frame.locals.insert(name, v);
        }
    }

    fn visit_expr(&mut self, e: &'a Expr) {
        // Assignments update locals (`builder = builder.jitter(..)`).
        if let Expr::Assign(a) = e {
            syn::visit::visit_expr(self, e);
            if let Expr::Path(p) = &*a.left
                && let Some(id) = p.path.get_ident()
            {
                self.ev.reset();
                let mut f = self.frame.clone();
                let v = self.ev.eval(&a.right, &mut f);
                self.frame.locals.insert(id.to_string(), v);
            }
            return;
        }
        // Only calls can be sites. A node's span costs a walk over its
        // tokens (syn joins the first and last), so it is not taken for
        // every expression: that made reading a file quadratic in its
        // nesting.
        if !matches!(e, Expr::Call(_) | Expr::MethodCall(_)) {
            syn::visit::visit_expr(self, e);
            return;
        }
        let span = self.ev.sp(e);
        let inside = self
            .covered
            .iter()
            .any(|c| c.start <= span.start && span.end <= c.end);
        match e {
            Expr::Call(c) => {
                if let Expr::Path(p) = &*c.func {
                    let segs = path_segs(&p.path);
                    let last = segs.last().map(String::as_str).unwrap_or("");
                    let owner = if segs.len() >= 2 {
                        segs[segs.len() - 2].as_str()
                    } else {
                        ""
                    };
                    if owner == "RetryTransientMiddleware" && last.starts_with("new_with_policy") {
                        let policy = c.args.first().and_then(|a| self.eval_b(a));
                        let custom = c.args.len() > 1
                            && !self
                                .ev
                                .spans
                                .text(&c.args[1])
                                .contains("DefaultRetryableStrategy");
                        self.found.push(Site::Middleware {
                            span,
                            ctor: self.ev.sp(&*c.func),
                            policy,
                            custom,
                        });
                        self.covered.push(span);
                    } else if matches!(owner, "Retry" | "RetryIf") && last == "spawn" {
                        if let Some(b) = c.args.first().and_then(|a| self.eval_b(a)) {
                            self.found.push(Site::Use {
                                build: b,
                                when: owner == "RetryIf",
                                adjust: false,
                                span,
                                scope: c.args.iter().nth(1).map(|a| self.ev.sp(a)),
                            });
                        }
                        self.covered.push(span);
                    } else if matches!(last, "retry" | "retry_notify")
                        && (owner == "backoff"
                            || owner == "future"
                            || (owner.is_empty() && self.ev.uses_backoff_crate))
                    {
                        if let Some(b) = c.args.first().and_then(|a| self.eval_b(a)) {
                            let op = c
                                .args
                                .iter()
                                .nth(1)
                                .map(|a| self.ev.spans.text(a))
                                .unwrap_or("");
                            let when = op.contains("permanent") || op.contains("Permanent");
                            self.found.push(Site::Use {
                                build: b,
                                when,
                                adjust: false,
                                span,
                                scope: c.args.iter().nth(1).map(|a| self.ev.sp(a)),
                            });
                        }
                        self.covered.push(span);
                    } else if !inside
                        && owner == "aws_config"
                        && matches!(
                            last,
                            "load_defaults" | "load_from_env" | "from_env" | "defaults"
                        )
                    {
                        // The chain around it is checked in visit_expr of
                        // the method call; a bare load is a default.
                        let fn_text = self
                            .frame
                            .fn_name
                            .as_ref()
                            .and_then(|n| {
                                self.ev.ix.bodies.iter().find(|(b, _, _, s)| {
                                    b == n && s.start <= span.start && span.end <= s.end
                                })
                            })
                            .map(|(_, _, _, s)| self.ev.spans.slice(*s))
                            .unwrap_or("");
                        if !fn_text.contains(".retry_config(") {
                            self.found.push(Site::AwsLoad { span });
                        }
                        self.covered.push(span);
                    } else if !inside && let Some(b) = self.eval_b(e) {
                        self.found.push(Site::Builder(b));
                        self.covered.push(span);
                    }
                }
            }
            Expr::MethodCall(_) if !inside => {
                let (chain, _root) = Self::chain(e);
                // backon: `<fn>.retry(builder)[.when(..)]...`
                if let Some(pos) = chain
                    .iter()
                    .position(|c| c.method == "retry" && c.args.len() == 1)
                {
                    let rc = chain[pos];
                    if let Some(b) = self.eval_b(&rc.args[0])
                        && b.krate == Krate::Backon
                    {
                        let outer = &chain[..pos];
                        let when = outer.iter().any(|c| c.method == "when");
                        let adjust = outer.iter().any(|c| c.method == "adjust");
                        self.found.push(Site::Use {
                            build: b,
                            when,
                            adjust,
                            span: self.ev.sp(rc),
                            scope: Some(self.ev.sp(&*rc.receiver)),
                        });
                        self.covered.push(span);
                    }
                } else if let Some(b) = self.eval_b(e) {
                    self.found.push(Site::Builder(b));
                    self.covered.push(span);
                }
            }
            _ => {}
        }
        syn::visit::visit_expr(self, e);
    }
}

/// `impl Policy<..> for T` (tower): one policy per constructor call of `T`
/// in the file, with the counter and statuses its `retry` fn checks.
pub fn tower_policies(ev: &Eval<'_, '_>, facts: &mut Facts) {
    for (ty, retry_fn, impl_span) in &ev.ix.tower_policies {
        let body = ev.spans.text(&retry_fn.block);
        // The retry limit: `self.<counter> < self.<limit>` (or `>=`).
        let limit_field = limit_field(body);
        // Statuses: StatusCode names in the retry fn and the helpers of the
        // type it calls, each with the span where it is named.
        let mut regions = vec![ev.sp(&retry_fn.block)];
        let mut text = body.to_string();
        for (name, impl_ty, block, _) in &ev.ix.bodies {
            if impl_ty.is_some_and(|t| t == ty)
                && (body.contains(&format!("Self::{name}("))
                    || body.contains(&format!("self.{name}(")))
            {
                text.push_str(ev.spans.text(*block));
                regions.push(ev.sp(*block));
            }
        }
        let source = ev.spans.source();
        let mut found: Vec<(u16, Span)> = Vec::new();
        for r in &regions {
            let region = ev.spans.slice(*r);
            for (code, at) in status_names(region) {
                if !found.iter().any(|(c, _)| *c == code) {
                    let start = r.start + at;
                    let len = source[start..]
                        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                        .unwrap_or(0);
                    found.push((code, Span::new(start, start + len)));
                }
            }
        }
        found.sort_by_key(|(_, s)| s.start);
        let errors_retried =
            text.replace(' ', "").contains("Err(") && !text.contains("Err(_) => None");
        let mut conditions: Vec<Located<Condition>> = found
            .iter()
            .map(|(c, s)| Located::written(Condition::status(*c), *s))
            .collect();
        if errors_retried {
            conditions.push(Located::written(
                Condition::Transport("error".into()),
                *impl_span,
            ));
        }
        let retry_on_span = match (found.first(), found.last()) {
            (Some((_, a)), Some((_, b))) => a.cover(*b),
            _ => *impl_span,
        };
        // Constructor calls: `Self::new(..)`, `T::new(..)`, `T { .. }`.
        for (fname, impl_ty, block, _) in &ev.ix.bodies {
            if fname == "new" && impl_ty.is_some_and(|t| t == ty) {
                continue;
            }
            let mut calls = CtorCalls {
                ty,
                impl_ty: *impl_ty,
                found: Vec::new(),
            };
            calls.visit_block(block);
            for call in calls.found {
                ev.reset();
                let mut f = Frame {
                    impl_ty: impl_ty.map(str::to_string),
                    ..Frame::default()
                };
                let v = ev.eval(call, &mut f);
                let span = ev.sp(call);
                let V::Struct(fields) = v.v else {
                    continue;
                };
                let retries = limit_field
                    .as_ref()
                    .and_then(|lf| fields.iter().find(|(n, _)| n == lf))
                    .map(|(_, v)| v.clone());
                let backoff = fields.iter().find_map(|(_, v)| match &v.v {
                    V::B(b) if b.krate == Krate::Tower => Some((**b).clone()),
                    _ => None,
                });
                let mut b = backoff.unwrap_or_else(|| {
                    let mut b = Build::new(Krate::Tower, Shape::Exponential, span);
                    b.jitter = Located::written(Jitter::Unknown, span);
                    b
                });
                match (&retries, &limit_field) {
                    (Some(r), Some(lf)) => {
                        b.retries = match r.int() {
                            Some(n) if n >= 0 => {
                                Located::written(AttemptCount::Finite(n as u64), r.span)
                            }
                            _ => Located::written(AttemptCount::Unknown, r.span),
                        };
                        b.retries_written = format!(
                            "{lf} {} (retries)",
                            r.int().map_or("?".to_string(), |n| n.to_string())
                        );
                    }
                    _ => {
                        b.retries = Located::written(AttemptCount::Unknown, span);
                        b.retries_written = "a retry limit the linter cannot read".into();
                    }
                }
                let mut p = policy_of(&b, System::RustCrate("tower".into()), span);
                p.name = Some(format!("{ty}::{fname}"));
                p.retry_on = Located::written(
                    RetryOn::Listed {
                        conditions: conditions.clone(),
                    },
                    retry_on_span,
                );
                // A tower Policy sees every request; this one does not look
                // at the method unless its text does.
                p.methods = if text.contains(".method()") && text.contains("Method::") {
                    let names: Vec<String> =
                        ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "POST", "PATCH"]
                            .iter()
                            .filter(|m| contains_word(&text, &format!("Method::{m}")))
                            .map(|m| m.to_string())
                            .collect();
                    let set = if names.is_empty() {
                        Methods::Unknown
                    } else {
                        Methods::Set(names)
                    };
                    Located::written(set, *impl_span)
                } else {
                    Located::default_at(Methods::All, *impl_span)
                };
                p.per_try_timeout = Some(Located::default_at(Timeout::Disabled, span));
                facts.policies.push(p);
            }
        }
    }
}

struct CtorCalls<'t, 'a> {
    ty: &'t str,
    impl_ty: Option<&'a str>,
    found: Vec<&'a Expr>,
}

impl<'a> Visit<'a> for CtorCalls<'_, 'a> {
    fn visit_item(&mut self, _: &'a Item) {}
    fn visit_expr(&mut self, e: &'a Expr) {
        if let Expr::Call(c) = e
            && let Expr::Path(p) = &*c.func
        {
            let segs = path_segs(&p.path);
            if segs.len() == 2 {
                let owner_is_ty =
                    segs[0] == self.ty || (segs[0] == "Self" && self.impl_ty == Some(self.ty));
                if owner_is_ty && segs[1] == "new" {
                    self.found.push(e);
                    return;
                }
            }
        }
        syn::visit::visit_expr(self, e);
    }
}

fn limit_field(body: &str) -> Option<String> {
    let t: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    for op in [" < self.", " <= self.", " >= self.", " > self."] {
        if let Some(i) = t.find(op) {
            let rest = &t[i + op.len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                return Some(name);
            }
        }
    }
    None
}

/// HTTP statuses named in code (`StatusCode::SERVICE_UNAVAILABLE` and the
/// like), with the offset of each first mention.
pub fn status_names(text: &str) -> Vec<(u16, usize)> {
    const NAMES: &[(&str, u16)] = &[
        ("REQUEST_TIMEOUT", 408),
        ("CONFLICT", 409),
        ("TOO_MANY_REQUESTS", 429),
        ("INTERNAL_SERVER_ERROR", 500),
        ("BAD_GATEWAY", 502),
        ("SERVICE_UNAVAILABLE", 503),
        ("GATEWAY_TIMEOUT", 504),
        ("BAD_REQUEST", 400),
        ("UNAUTHORIZED", 401),
        ("FORBIDDEN", 403),
        ("NOT_FOUND", 404),
    ];
    let mut out: Vec<(u16, usize)> = Vec::new();
    for (n, c) in NAMES {
        let needle = format!("StatusCode::{n}");
        if let Some(i) = text.find(&needle) {
            out.push((*c, i));
        }
    }
    out.sort_by_key(|(_, i)| *i);
    out
}

/// Macro facts for the link step and macro policies of this file.
pub fn macro_fact(def: MacroDef, facts: &mut Facts) {
    facts.rust.macro_defs.push(def);
}

pub fn macro_call(call: MacroCall, facts: &mut Facts) {
    facts.rust.macro_calls.push(call);
}
