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
//! - Fibonacci strategies (backon `fibonacci.rs` tests `test_fibonacci_*`:
//!   1 s, 1 s, 2 s, 3 s held at `max_delay`; tokio-retry
//!   `fibonacci_backoff.rs` and retry `Fibonacci`: `curr` and `next` start
//!   at the base) are [`Delay::Fibonacci`] from base, base.
//! - retry 2.2.0 (github.com/jimmycuadra/retry at f3c92f3,
//!   `src/delay/mod.rs`): `Exponential::from_millis(b)` waits b ms then
//!   doubles (factor 2.0 since 2.0; `from_millis_with_base_factor` keeps
//!   the old factor b), no cap; `Fixed`, `Fibonacci`, `NoDelay` (0 ms);
//!   every iterator is endless until `.take(n)` (n retries: `src/lib.rs`
//!   `retry_with_index` gives up when the iterator ends);
//!   `src/delay/random.rs`: `jitter(d)` is `d x rand[0, 1)` (full),
//!   `Range::from_millis_exclusive(lo, hi)` uniform in `[lo, hi)`;
//!   `src/opresult.rs`: a `Result`'s `Err` converts to `Retry` (every
//!   error goes round), `OperationResult::Err` gives up.
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

mod aws_profile;
mod builders;
mod by_hand;
mod interp;
mod sites;
mod tower;
mod words;
use builders::*;
pub use sites::*;
pub use tower::*;
pub use words::*;

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
    /// The `retry` crate (`retry::retry(delays, op)`).
    Retry,
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
            Krate::Retry => "retry",
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
    /// The `retry` crate's `Exponential::from_millis(b)`: the factor its
    /// releases before 2.0 multiplied by (the base itself); see
    /// [`Build::versioned`].
    pub factor_before_2: Option<Located<f64>>,
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
            factor_before_2: None,
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
            // backon `fibonacci.rs` (min, min, 2 min, .. up to max_delay),
            // tokio-retry and retry `FibonacciBackoff`/`Fibonacci` (`curr`
            // and `next` both start at the base): base, base, 2 base, ...
            Shape::Fibonacci => Delay::Fibonacci {
                first: self.min.value,
                second: self.min.value,
                cap: self.cap.as_ref().map(|c| c.value),
            },
            Shape::Exponential => {
                let multiplier = self.factor.value;
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
pub fn is_test_crate(name: &str) -> bool {
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
    /// While an evaluation must leave the frame as it found it
    /// ([`Frame::set_local`]): each local it set, with the value replaced.
    undo: Option<Vec<(String, Option<L>)>>,
}

impl Frame {
    /// Binds a local, logged for undoing when an undo log is open.
    fn set_local(&mut self, name: String, v: L) {
        match &mut self.undo {
            Some(log) => {
                let old = self.locals.insert(name.clone(), v);
                log.push((name, old));
            }
            None => {
                self.locals.insert(name, v);
            }
        }
    }

    /// Undoes every local set since the undo log was opened, last first,
    /// and closes it.
    fn roll_back(&mut self) {
        for (name, old) in self.undo.take().unwrap_or_default().into_iter().rev() {
            match old {
                Some(v) => {
                    self.locals.insert(name, v);
                }
                None => {
                    self.locals.remove(&name);
                }
            }
        }
    }
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
    /// The file names the `retry` crate (`use retry::..`, `retry::retry(..)`):
    /// `Fixed`, `Exponential`, `NoDelay` are its delay iterators.
    pub uses_retry_crate: bool,
    /// The file's module is named for inter-process communication
    /// (`ipc.rs`, `ipc/windows.rs`): its connections, sessions and
    /// channels are to processes on this host.
    pub ipc_module: bool,
    /// Whether the file's reqwest client waits for ever
    /// ([`Eval::client_waits`]), found on the first retry that asks.
    pub(super) client_waits: std::cell::OnceCell<bool>,
}

fn path_segs(p: &syn::Path) -> Vec<String> {
    p.segments.iter().map(|s| s.ident.to_string()).collect()
}

fn last2(segs: &[String]) -> String {
    let n = segs.len();
    segs[n.saturating_sub(2)..].join("::")
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

/// Read a parsed file into `facts`. `ipc_module`: the file's module is
/// named for inter-process communication (`src/ipc.rs`, `src/ipc/pipe.rs`,
/// [`super::ipc_module`]).
pub fn read_file<'a>(
    file: &'a syn::File,
    spans: &'a Spans<'a>,
    facts: &mut Facts,
    ipc_module: bool,
) {
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
    // Constants declared inside a function (`const MAX_RETRY: usize = 5;`
    // before its loop), where the file has no item of that name and no
    // other function declares it differently.
    let mut local: HashMap<String, Option<&Expr>> = HashMap::new();
    for (_, _, block, _) in &c.ix.bodies {
        for st in &block.stmts {
            if let Stmt::Item(Item::Const(k)) = st {
                local
                    .entry(k.ident.to_string())
                    .and_modify(|e| {
                        if e.is_some_and(|x| spans.text(x) != spans.text(&*k.expr)) {
                            *e = None;
                        }
                    })
                    .or_insert(Some(&*k.expr));
            }
        }
    }
    for (name, e) in local {
        if let Some(e) = e {
            c.ix.consts.entry(name).or_insert(e);
        }
    }
    let ix = c.ix;
    let text = spans.source();
    let ev = Eval {
        ix: &ix,
        spans,
        steps: Cell::new(0),
        total: Cell::new(0),
        depth: Cell::new(0),
        resolving: Default::default(),
        uses_backoff_crate: names_crate(text, "backoff"),
        uses_retry_crate: names_crate(text, "retry"),
        ipc_module,
        client_waits: Default::default(),
    };
    super::eval::sites(&ev, facts);
    loops::read(&ev, &ix.bodies, &ix.macro_rules, facts);
}

/// Whether the file names the external crate `krate` by a path that starts
/// at it (`use backoff::..`, `backoff::future::retry`, `::backoff::..`), not
/// a module of that name inside another path (`crate::common::backoff::`,
/// `tower::retry::backoff::`) nor a module the file declares itself
/// (`mod backoff;`). Found on vector, whose own `common::backoff` type is
/// also called `ExponentialBackoff`.
fn names_crate(text: &str, krate: &str) -> bool {
    let bytes = text.as_bytes();
    // memmem: the searches run over every parsed file (std's `find` was
    // 2% of a cold scan of qdrant).
    let own_module = memchr::memmem::find_iter(bytes, b"mod ").any(|i| {
        let rest = &text[i + 4..];
        rest.starts_with(krate)
            && rest[krate.len()..].trim_start().starts_with([';', '{'])
            && (i == 0 || !is_ident_byte(bytes[i - 1]))
    });
    if own_module {
        return false;
    }
    let needle = format!("{krate}::");
    memchr::memmem::find_iter(bytes, needle.as_bytes()).any(|i| {
        let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
        let line = text[line_start..i].trim_start();
        if line.starts_with("//") || line.starts_with('*') || line.contains("//") {
            return false; // a comment's words are not a path
        }
        let before = &text[..i];
        let before = before.strip_suffix("::").unwrap_or(before);
        // `::backoff::` at a path's start is the crate; `a::backoff::` is not.
        let led_by_colons = before.len() < i;
        match before.as_bytes().last() {
            None => true,
            Some(&b) if is_ident_byte(b) => false,
            Some(_) if led_by_colons => !before.ends_with(['>', ')']),
            Some(_) => true,
        }
    })
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[cfg(test)]
mod names_crate_tests {
    use super::names_crate;

    #[test]
    fn only_paths_that_start_at_the_crate() {
        for yes in [
            "use backoff::ExponentialBackoff;",
            "use backoff::{retry, ExponentialBackoff};",
            "fn f() { backoff::future::retry(b, op) }",
            "let b = ::backoff::ExponentialBackoff::default();",
            "use {backoff::ExponentialBackoff, std::time::Duration};",
        ] {
            assert!(names_crate(yes, "backoff"), "{yes}");
        }
        for no in [
            "use crate::common::backoff::ExponentialBackoff;",
            "use tower::retry::backoff::ExponentialBackoffMaker;",
            "use super::backoff::ExponentialBackoff;",
            "let b = my_backoff::ExponentialBackoff::default();",
            "mod backoff;\nuse backoff::ExponentialBackoff;",
            "mod backoff {}\nfn f() { backoff::x() }",
            "// nothing here",
            "// `use backoff::..` in a comment",
            "/* a block comment\n * names backoff::ExponentialBackoff */",
        ] {
            assert!(!names_crate(no, "backoff"), "{no}");
        }
    }
}
