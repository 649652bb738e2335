//! Hand-written retry loops, `macro_rules!` retry macros and their call
//! sites, idempotency keys minted inside a retry, and URL literals.
//!
//! A loop (`loop`, `while`, `for`) is a retry loop when its body handles an
//! `Err` (a match arm, `is_ok()`/`is_err()`, `if let Ok`) and either sleeps
//! or goes round again, and leaves on success. Its bound is a counter
//! compared to a limit (with the check-before-increment off-by-one taken
//! into account), a range, or nothing (unbounded). Its delay is the
//! `sleep(..)` in its body: fixed, growing (a variable multiplied in the
//! loop) or randomised (`rand`, `jitter`).
//!
//! A `macro_rules!` macro whose arm contains such a loop is a retry macro:
//! its arms become templates in which the macro's parameters stand for the
//! attempts and the delay, instantiated at each call site with the call's
//! arguments (the spans of the policy are the arguments'). Calls in other
//! files are resolved after extraction ([`super::link_macros`]).

use super::eval::{self, Eval, contains_word, pat_ident};
use super::{MacroCall, MacroDef, Spans};
use crate::extract::Facts;
pub use crate::model::rust_macros::{AttemptsT, DelayT, LoopT, MacroArg, MacroArm, Num};
use crate::model::*;
use crate::source::Span;
use proc_macro2::{Delimiter, TokenStream, TokenTree};
use std::time::Duration;
use syn::visit::Visit;
use syn::{Block, Expr, Item, Stmt};

/// The prefix macro parameters get when a macro body is read as code.
const PARAM: &str = "__rl_p_";

impl MacroArm {
    fn params(&self) -> &[String] {
        match self {
            MacroArm::Loop { params, .. }
            | MacroArm::Forward { params, .. }
            | MacroArm::Other { params } => params,
        }
    }
}

/// Loops, macros, keys and URLs of every production function.
pub fn read(
    ev: &Eval<'_, '_>,
    bodies: &[(String, Option<&str>, &Block, Span)],
    macros: &[&syn::ItemMacro],
    facts: &mut Facts,
) {
    let spans = ev.spans;
    // Retry macros defined here.
    let mut defs: Vec<MacroDef> = Vec::new();
    for m in macros {
        let Some(name) = &m.ident else { continue };
        let arms = macro_arms(ev, &m.mac.tokens);
        if arms.iter().any(|a| matches!(a, MacroArm::Loop { .. })) {
            defs.push(MacroDef {
                name: name.to_string(),
                arms,
                span: spans.node(&m.mac),
            });
        }
    }
    // A retry macro's own forwarding arm (`retry!($f) => retry!($f, 5,
    // 100)`) is a call site with literal arguments in this file.
    for d in &defs {
        for arm in &d.arms {
            if let MacroArm::Forward { target, args, .. } = arm
                && *target == d.name
                && args
                    .iter()
                    .filter(|a| a.param.is_none())
                    .all(|a| a.int.is_some())
            {
                let call = MacroCall {
                    name: d.name.clone(),
                    span: cover(args).unwrap_or(d.span),
                    args: args.clone(),
                    within: None,
                };
                if let Some(mut p) = instantiate(d, &call) {
                    p.name = Some(format!("{}! default arm", d.name));
                    facts.policies.push(p);
                }
            }
        }
    }
    for (fname, _, block, _) in bodies {
        let mut w = LoopFinder {
            ev,
            fname,
            out: Vec::new(),
            calls: Vec::new(),
            inside: Vec::new(),
        };
        w.visit_block(block);
        for p in w.out {
            facts.policies.push(p);
        }
        for call in w.calls {
            match defs.iter().find(|d| d.name == call.name) {
                Some(d) => {
                    if let Some(p) = instantiate(d, &call) {
                        facts.policies.push(p);
                    }
                }
                None => facts.rust.macro_calls.push(call),
            }
        }
        urls(spans, block, facts);
    }
    // URL constants (`const LEDGER_URL: &str = "http://ledger:8080";`) are
    // calls too, wherever they are used.
    let mut consts: Vec<(&String, &&Expr)> = ev.ix.consts.iter().collect();
    consts.sort_by_key(|(name, _)| name.as_str());
    for (_, expr) in consts {
        if let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(l),
            ..
        }) = expr
        {
            url_edge(spans, l, facts);
        }
    }
    for d in defs {
        eval::macro_fact(d, facts);
    }
}

fn cover(args: &[MacroArg]) -> Option<Span> {
    let first = args.first()?.span;
    Some(args.iter().fold(first, |a, b| a.cover(b.span)))
}

/// The arms of a `macro_rules!` body: `(matcher) => {body}` separated by
/// `;`.
fn macro_arms(ev: &Eval<'_, '_>, tokens: &TokenStream) -> Vec<MacroArm> {
    let tts: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let mut arms = Vec::new();
    let mut i = 0;
    while i + 3 < tts.len() + 1 {
        let (
            Some(TokenTree::Group(m)),
            Some(TokenTree::Punct(eq)),
            Some(TokenTree::Punct(gt)),
            Some(TokenTree::Group(body)),
        ) = (tts.get(i), tts.get(i + 1), tts.get(i + 2), tts.get(i + 3))
        else {
            break;
        };
        if eq.as_char() != '=' || gt.as_char() != '>' {
            break;
        }
        let params = matcher_params(&m.stream());
        let subst = substitute(body.stream());
        arms.push(arm(ev, params, subst));
        i += 4;
        if matches!(tts.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ';') {
            i += 1;
        }
    }
    arms
}

fn matcher_params(ts: &TokenStream) -> Vec<String> {
    let mut out = Vec::new();
    let tts: Vec<TokenTree> = ts.clone().into_iter().collect();
    for (k, t) in tts.iter().enumerate() {
        match t {
            TokenTree::Punct(p) if p.as_char() == '$' => {
                if let Some(TokenTree::Ident(id)) = tts.get(k + 1) {
                    out.push(id.to_string());
                }
            }
            TokenTree::Group(g) => out.extend(matcher_params(&g.stream())),
            _ => {}
        }
    }
    out
}

/// Replace `$name` by the identifier `__rl_p_name`, keeping spans.
fn substitute(ts: TokenStream) -> TokenStream {
    let tts: Vec<TokenTree> = ts.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::new();
    let mut k = 0;
    while k < tts.len() {
        match &tts[k] {
            TokenTree::Punct(p) if p.as_char() == '$' => {
                if let Some(TokenTree::Ident(id)) = tts.get(k + 1) {
                    out.push(TokenTree::Ident(proc_macro2::Ident::new(
                        &format!("{PARAM}{id}"),
                        id.span(),
                    )));
                    k += 2;
                    continue;
                }
                out.push(tts[k].clone());
            }
            TokenTree::Group(g) => {
                let mut ng = proc_macro2::Group::new(g.delimiter(), substitute(g.stream()));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            t => out.push(t.clone()),
        }
        k += 1;
    }
    out.into_iter().collect()
}

fn arm(ev: &Eval<'_, '_>, params: Vec<String>, body: TokenStream) -> MacroArm {
    let wrapped: TokenStream = std::iter::once(TokenTree::Group(proc_macro2::Group::new(
        Delimiter::Brace,
        body,
    )))
    .collect();
    let Ok(block) = syn::parse2::<Block>(wrapped) else {
        return MacroArm::Other { params };
    };
    // A forwarding arm: the body is one macro call.
    if let [Stmt::Macro(m)] = block.stmts.as_slice() {
        return forward(ev, params, &m.mac);
    }
    if let [Stmt::Expr(Expr::Macro(m), _)] = block.stmts.as_slice() {
        return forward(ev, params, &m.mac);
    }
    let w = LoopFinder {
        ev,
        fname: "",
        out: Vec::new(),
        calls: Vec::new(),
        inside: Vec::new(),
    };
    let mut found = None;
    for_each_loop(&block, &mut |lp, before| {
        if found.is_none() {
            found = w.analyze(lp, before);
        }
    });
    match found {
        Some(body) => MacroArm::Loop { params, body },
        None => MacroArm::Other { params },
    }
}

fn forward(ev: &Eval<'_, '_>, params: Vec<String>, mac: &syn::Macro) -> MacroArm {
    let target = mac
        .path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    MacroArm::Forward {
        params,
        target,
        args: split_args(ev.spans, &mac.tokens),
    }
}

/// Split macro tokens at top-level commas.
fn split_args(spans: &Spans<'_>, ts: &TokenStream) -> Vec<MacroArg> {
    let mut out = Vec::new();
    let mut cur: Vec<TokenTree> = Vec::new();
    let flush = |cur: &mut Vec<TokenTree>, out: &mut Vec<MacroArg>| {
        if cur.is_empty() {
            return;
        }
        let first = spans.of(cur[0].span());
        let last = spans.of(cur[cur.len() - 1].span());
        let span = first.cover(last);
        let int = match cur.as_slice() {
            [TokenTree::Literal(l)] => {
                let t = l.to_string().replace('_', "");
                let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
                digits.parse::<i128>().ok()
            }
            _ => None,
        };
        let param = match cur.as_slice() {
            [TokenTree::Ident(id)] => id.to_string().strip_prefix(PARAM).map(str::to_string),
            _ => None,
        };
        out.push(MacroArg { span, int, param });
        cur.clear();
    };
    for t in ts.clone() {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => flush(&mut cur, &mut out),
            _ => cur.push(t),
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// The policy a retry macro makes at one call site.
pub fn instantiate(def: &MacroDef, call: &MacroCall) -> Option<RetryPolicy> {
    let mut call = call.clone();
    let mut depth = 0;
    loop {
        let arm = def
            .arms
            .iter()
            .find(|a| a.params().len() == call.args.len())?;
        match arm {
            MacroArm::Loop { params, body } => {
                return Some(loop_policy(body, params, &call, &def.name));
            }
            MacroArm::Forward {
                params,
                target,
                args,
            } if *target == def.name && depth < 4 => {
                // Substitute this call's arguments for the arm's params.
                let args = args
                    .iter()
                    .map(|a| match &a.param {
                        Some(p) => params
                            .iter()
                            .position(|x| x == p)
                            .and_then(|i| call.args.get(i).cloned())
                            .unwrap_or(a.clone()),
                        None => a.clone(),
                    })
                    .collect();
                call.args = args;
                depth += 1;
            }
            _ => return None,
        }
    }
}

fn num_at(n: &Num, params: &[String], call: &MacroCall) -> Option<(i128, Span)> {
    match n {
        Num::Const(v) => Some((*v, call.span)),
        Num::Param(p) => {
            let i = params.iter().position(|x| x == p)?;
            let a = call.args.get(i)?;
            Some((a.int?, a.span))
        }
        Num::Unknown => None,
    }
}

fn loop_policy(t: &LoopT, params: &[String], call: &MacroCall, name: &str) -> RetryPolicy {
    let attempts = match &t.attempts {
        AttemptsT::Count {
            value,
            offset,
            span,
        } => match (value, num_at(value, params, call)) {
            (Num::Param(p), Some((v, s))) => {
                let n = (v + offset).max(1) as u64;
                Located::written(
                    Attempts {
                        count: AttemptCount::Finite(n),
                        written_as: format!("{name}! with ${p} = {v}"),
                    },
                    s,
                )
            }
            (_, Some((v, _))) => Located::written(
                Attempts {
                    count: AttemptCount::Finite((v + offset).max(1) as u64),
                    written_as: format!("{name}!"),
                },
                *span,
            ),
            _ => Located::written(
                Attempts {
                    count: AttemptCount::Unknown,
                    written_as: format!("{name}!"),
                },
                call.span,
            ),
        },
        AttemptsT::Unbounded { .. } => Located::written(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: format!("{name}! has no attempt limit"),
            },
            call.span,
        ),
        AttemptsT::Unknown { .. } => Located::written(
            Attempts {
                count: AttemptCount::Unknown,
                written_as: format!("{name}!"),
            },
            call.span,
        ),
    };
    let mut p = RetryPolicy::new(System::RustLoop, call.span, attempts);
    p.name = Some(match &call.within {
        Some(f) => format!("{name}! in {f}"),
        None => format!("{name}!"),
    });
    p.delay = match &t.delay {
        DelayT::None => Located::written(Delay::None, call.span),
        DelayT::Fixed { value, unit, .. } => match num_at(value, params, call) {
            Some((v, s)) if v >= 0 => Located::written(
                Delay::Fixed {
                    delay: Duration::from_secs_f64((v as f64 * unit).min(1e12)),
                },
                s,
            ),
            _ => Located::written(Delay::Unknown, call.span),
        },
        DelayT::Exponential {
            base,
            multiplier,
            cap,
            ..
        } => Located::written(
            Delay::Exponential {
                base: *base,
                multiplier: *multiplier,
                cap: *cap,
            },
            call.span,
        ),
        DelayT::Custom { .. } => Located::written(Delay::Custom, call.span),
    };
    let opaque = matches!(t.delay, DelayT::Custom { .. });
    p.jitter = Located::written(
        if t.randomised || opaque {
            Jitter::Unknown
        } else {
            Jitter::None
        },
        call.span,
    );
    p.retry_on = if t.predicate {
        Located::written(
            RetryOn::Listed {
                conditions: vec![Located::written(Condition::Predicate, call.span)],
            },
            call.span,
        )
    } else {
        // The loop goes round again on any `Err`: written, not a default.
        Located::written(RetryOn::AllErrors, call.span)
    };
    p
}

/// Call `f` for every loop expression in `block` (not inside closures of
/// other loops), with the statements before it in its block.
fn for_each_loop<'a>(block: &'a Block, f: &mut dyn FnMut(&'a Expr, &[&'a Stmt])) {
    struct W<'a, 'f> {
        f: &'f mut dyn FnMut(&'a Expr, &[&'a Stmt]),
        before: Vec<&'a Stmt>,
    }
    impl<'a> Visit<'a> for W<'a, '_> {
        fn visit_item(&mut self, _: &'a Item) {}
        fn visit_block(&mut self, b: &'a Block) {
            let saved = std::mem::take(&mut self.before);
            for s in &b.stmts {
                self.visit_stmt(s);
                self.before.push(s);
            }
            self.before = saved;
        }
        fn visit_expr(&mut self, e: &'a Expr) {
            if matches!(e, Expr::Loop(_) | Expr::While(_) | Expr::ForLoop(_)) {
                let before = self.before.clone();
                (self.f)(e, &before);
            }
            syn::visit::visit_expr(self, e);
        }
    }
    W {
        f,
        before: Vec::new(),
    }
    .visit_block(block);
}

struct LoopFinder<'e, 'a, 's, 'b> {
    ev: &'e Eval<'a, 's>,
    fname: &'b str,
    out: Vec<RetryPolicy>,
    calls: Vec<MacroCall>,
    /// Spans of retry loops already read (inner loops are not retries of
    /// their own).
    inside: Vec<Span>,
}

/// Words that make an error check a predicate rather than "any error".
const PREDICATE_WORDS: &[&str] = &[
    "retryable",
    "transient",
    "temporary",
    "is_timeout",
    "is_connect",
    ".kind()",
    "status()",
    "should_retry",
];

impl<'b> LoopFinder<'_, '_, '_, 'b> {
    /// Read one loop; `None` when it is not a retry loop.
    fn analyze(&self, e: &Expr, before: &[&Stmt]) -> Option<LoopT> {
        let spans = self.ev.spans;
        let (body, head_span, range, cond): (&Block, Span, Option<&Expr>, Option<&Expr>) = match e {
            Expr::Loop(l) => (
                &l.body,
                l.label.as_ref().map_or(spans.node(&l.loop_token), |x| {
                    spans.node(&x.name).cover(spans.node(&l.loop_token))
                }),
                None,
                None,
            ),
            Expr::While(w) => (
                &w.body,
                spans.node(&w.while_token).cover(spans.node(&*w.cond)),
                None,
                Some(&*w.cond),
            ),
            Expr::ForLoop(f) => (
                &f.body,
                spans.node(&f.for_token).cover(spans.node(&*f.expr)),
                Some(&*f.expr),
                None,
            ),
            _ => return None,
        };
        // From the head (and a loop's label) to the closing brace, without
        // turning the loop into tokens again.
        let span = head_span.cover(spans.block(body));
        let t: String = spans
            .text(body)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let compact = t.replace(' ', "");
        let handles_err = compact.contains("Err(")
            || compact.contains(".is_ok()")
            || compact.contains(".is_err()")
            || compact.contains("ifletOk(");
        let sleeps = compact.contains("sleep(");
        let again = compact.contains("continue");
        let leaves =
            compact.contains("break") || compact.contains("return") || compact.contains("Ok(");
        // Without a sleep, only an async loop that says it retries is a
        // retry loop: compare-and-swap loops, parsers and `EINTR` loops go
        // round again at once on purpose.
        let whole = spans.slice(span).to_ascii_lowercase();
        let says_retry = ["retry", "retries", "attempt", "tries", "backoff"]
            .iter()
            .any(|w| whole.contains(w));
        let retries_io = again && says_retry && compact.contains(".await");
        if !(handles_err && (sleeps || retries_io) && leaves)
            || compact.contains("compare_exchange")
        {
            return None;
        }
        // `for x in items` is iteration over work, not a retry.
        if let Some(r) = range
            && !matches!(r, Expr::Range(_))
        {
            return None;
        }
        // A guard on the error is a predicate; a guard on the attempt
        // counter is the bound.
        let counter_names: Vec<String> = counters(&t).into_iter().map(|(n, _)| n).collect();
        let guard_on_error = ["Err(e)if", "Err(refe)if", "Err(err)if", "Err(error)if"]
            .iter()
            .any(|g| {
                compact.match_indices(g).any(|(i, _)| {
                    let after = &compact[i + g.len()..];
                    !counter_names.iter().any(|n| after.starts_with(n.as_str()))
                })
            });
        let predicate = PREDICATE_WORDS
            .iter()
            .any(|w| compact.contains(&w.replace(' ', "")))
            || guard_on_error;
        let attempts = self.bound(body, before, head_span, range, cond);
        let (delay, randomised) = self.delay(body, before);
        Some(LoopT {
            attempts,
            delay,
            randomised,
            predicate,
            span,
            has_timeout: compact.contains("timeout("),
        })
    }

    fn num(&self, e: &Expr) -> Num {
        if let Expr::Path(p) = e
            && let Some(id) = p.path.get_ident()
            && let Some(name) = id.to_string().strip_prefix(PARAM)
        {
            return Num::Param(name.to_string());
        }
        if let Expr::Paren(p) = e {
            return self.num(&p.expr);
        }
        if let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) = e
        {
            return i.base10_digits().parse().map_or(Num::Unknown, Num::Const);
        }
        // A constant of the file.
        if let Expr::Path(p) = e
            && let Some(id) = p.path.segments.last()
        {
            let name = id.ident.to_string();
            if let Some(c) = self.ev.ix_const(&name)
                && let Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(i),
                    ..
                }) = c
            {
                return i.base10_digits().parse().map_or(Num::Unknown, Num::Const);
            }
        }
        Num::Unknown
    }

    fn counter_init(&self, before: &[&Stmt], name: &str) -> i128 {
        for s in before.iter().rev() {
            if let Stmt::Local(l) = s
                && pat_ident(&l.pat).as_deref() == Some(name)
                && let Some(init) = &l.init
                && let Num::Const(v) = self.num(&init.expr)
            {
                return v;
            }
        }
        0
    }

    fn bound(
        &self,
        body: &Block,
        before: &[&Stmt],
        head: Span,
        range: Option<&Expr>,
        cond: Option<&Expr>,
    ) -> AttemptsT {
        let spans = self.ev.spans;
        if let Some(Expr::Range(r)) = range {
            let lo = r
                .start
                .as_deref()
                .map(|e| self.num(e))
                .unwrap_or(Num::Const(0));
            let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
            let Some(hi) = r.end.as_deref() else {
                return AttemptsT::Unbounded { span: head };
            };
            let hi_n = self.num(hi);
            let span = spans.node(r);
            return match (lo, hi_n) {
                (Num::Const(a), Num::Const(b)) => AttemptsT::Count {
                    value: Num::Const(b - a + i128::from(inclusive)),
                    offset: 0,
                    span,
                },
                (Num::Const(a), Num::Param(p)) => AttemptsT::Count {
                    value: Num::Param(p),
                    offset: i128::from(inclusive) - a,
                    span,
                },
                _ => AttemptsT::Unknown { span },
            };
        }
        // Counters incremented in the body.
        let body_text = spans.block_text(body);
        let incremented = |name: &str| {
            let t = body_text.replace(' ', "");
            t.contains(&format!("{name}+=1")) || t.contains(&format!("{name}={name}+1"))
        };
        let inc_at = |name: &str| -> Option<usize> {
            let b = spans.block(body);
            let t = spans.slice(b);
            t.find(&format!("{name} += 1"))
                .or_else(|| t.find(&format!("{name}+=1")))
                .map(|i| b.start + i)
        };
        // `while counter < limit`
        if let Some(c) = cond
            && let Some((name, op, limit, span)) = compare(c)
            && incremented(&name)
        {
            let c0 = self.counter_init(before, &name);
            let value = self.num(limit);
            let offset = match op {
                Cmp::Lt => -c0,
                Cmp::Le => 1 - c0,
                _ => {
                    return AttemptsT::Unknown {
                        span: spans.node(c),
                    };
                }
            };
            return AttemptsT::Count {
                value,
                offset,
                span: spans.node(span),
            };
        }
        if let Some(c) = cond
            && !matches!(
                c,
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Bool(_),
                    ..
                })
            )
        {
            return AttemptsT::Unknown {
                span: spans.node(c),
            };
        }
        // `if counter > limit { break/return }` inside the body.
        let mut found: Option<AttemptsT> = None;
        struct Ifs<'x> {
            out: Vec<&'x Expr>,
        }
        impl<'x> Visit<'x> for Ifs<'x> {
            fn visit_item(&mut self, _: &'x Item) {}
            fn visit_expr_closure(&mut self, _: &'x syn::ExprClosure) {}
            fn visit_expr_if(&mut self, i: &'x syn::ExprIf) {
                let then = &i.then_branch;
                let leaves = then
                    .stmts
                    .iter()
                    .any(|s| matches!(s, Stmt::Expr(Expr::Break(_) | Expr::Return(_), _)));
                let then_ok = leaves
                    || then.stmts.iter().any(|s| matches!(s, Stmt::Expr(Expr::Macro(m), _) if m.mac.path.is_ident("bail") || m.mac.path.is_ident("panic")));
                if then_ok {
                    self.out.push(&i.cond);
                }
                syn::visit::visit_expr_if(self, i);
            }
        }
        let mut ifs = Ifs { out: Vec::new() };
        ifs.visit_block(body);
        for c in ifs.out {
            let mut conds = vec![c];
            if let Expr::Binary(b) = c
                && matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_))
            {
                conds = vec![&b.left, &b.right];
            }
            for c in conds {
                let Some((name, op, limit, cmp_span)) = compare(c) else {
                    continue;
                };
                if !incremented(&name) {
                    continue;
                }
                let c0 = self.counter_init(before, &name);
                let check_at = spans.node(cmp_span).start;
                let inc_before = inc_at(&name).is_some_and(|i| i < check_at);
                // Attempt k (0-based) sees counter c0 + k (or + k + 1 when
                // incremented before the check) and stops after it when the
                // comparison holds.
                let shift = i128::from(inc_before);
                let first = match op {
                    Cmp::Gt => 1 - c0 - shift,
                    Cmp::Ge | Cmp::Eq => -c0 - shift,
                    _ => continue,
                };
                // Attempts = first k that stops + 1.
                found = Some(AttemptsT::Count {
                    value: self.num(limit),
                    offset: first + 1,
                    span: spans.node(cmp_span),
                });
                break;
            }
            if found.is_some() {
                break;
            }
        }
        // A match guard: `Err(e) if attempt >= 4 => return Err(e)`.
        if found.is_none() {
            found = self.guard_bound(body, before);
        }
        if found.is_none() && delegates(body_text) {
            return AttemptsT::Unknown { span: head };
        }
        found.unwrap_or(AttemptsT::Unbounded { span: head })
    }

    fn guard_bound(&self, body: &Block, before: &[&Stmt]) -> Option<AttemptsT> {
        let spans = self.ev.spans;
        let b = spans.block(body);
        let text = spans.slice(b);
        for (name, _) in counters(text) {
            for (op, cmp) in [(">=", Cmp::Ge), (">", Cmp::Gt), ("==", Cmp::Eq)] {
                let needle = format!("if {name} {op} ");
                let Some(i) = text.find(&needle) else {
                    continue;
                };
                let rest = &text[i + needle.len()..];
                let limit: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !rest[limit.len()..].trim_start().starts_with("=>") {
                    continue;
                }
                let value = match limit.parse::<i128>() {
                    Ok(n) => Num::Const(n),
                    Err(_) => match self.ev.ix_const(&limit) {
                        Some(Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Int(n),
                            ..
                        })) => n.base10_digits().parse().map_or(Num::Unknown, Num::Const),
                        _ if limit.starts_with(PARAM) => {
                            Num::Param(limit[PARAM.len()..].to_string())
                        }
                        _ => Num::Unknown,
                    },
                };
                let c0 = self.counter_init(before, &name);
                let inc_before = text.find(&format!("{name} += 1")).is_some_and(|k| k < i);
                let shift = i128::from(inc_before);
                let first = match cmp {
                    Cmp::Gt => 1 - c0 - shift,
                    _ => -c0 - shift,
                };
                let at = b.start + i + 3;
                return Some(AttemptsT::Count {
                    value,
                    offset: first + 1,
                    span: Span::new(at, at + needle.len() - 4 + limit.len()),
                });
            }
        }
        None
    }

    fn delay(&self, body: &Block, before: &[&Stmt]) -> (DelayT, bool) {
        let spans = self.ev.spans;
        struct Sleeps<'x> {
            out: Vec<&'x Expr>,
        }
        impl<'x> Visit<'x> for Sleeps<'x> {
            fn visit_item(&mut self, _: &'x Item) {}
            fn visit_expr_call(&mut self, c: &'x syn::ExprCall) {
                if let Expr::Path(p) = &*c.func
                    && p.path.segments.last().is_some_and(|s| s.ident == "sleep")
                    && let Some(a) = c.args.first()
                {
                    self.out.push(a);
                }
                syn::visit::visit_expr_call(self, c);
            }
        }
        let mut s = Sleeps { out: Vec::new() };
        s.visit_block(body);
        let Some(arg) = s.out.first() else {
            // A delay computed elsewhere (`state.sleep_backoff(b)`).
            let t = spans.block_text(body);
            if t.contains("sleep") || delegates(t) {
                return (
                    DelayT::Custom {
                        span: spans.block(body),
                    },
                    false,
                );
            }
            return (DelayT::None, false);
        };
        let arg_text = spans.text(*arg);
        let body_text = spans.block_text(body);
        let rand_words = ["rand", "jitter", "random", "fastrand"];
        let randomised = rand_words.iter().any(|w| arg_text.contains(w));
        let span = spans.node(*arg);
        // Duration::from_*(x)
        if let Expr::Call(c) = arg
            && let Expr::Path(p) = &*c.func
            && p.path.segments.len() >= 2
            && p.path
                .segments
                .iter()
                .rev()
                .nth(1)
                .is_some_and(|s| s.ident == "Duration")
            && let Some(x) = c.args.first()
        {
            let unit = match p
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .as_deref()
            {
                Some("from_secs") => 1.0,
                Some("from_millis") => 1e-3,
                Some("from_micros") => 1e-6,
                Some("from_nanos") => 1e-9,
                _ => 0.0,
            };
            let n = self.num(x);
            if unit > 0.0 && !matches!(n, Num::Unknown) {
                return (
                    DelayT::Fixed {
                        value: n,
                        unit,
                        span,
                    },
                    randomised,
                );
            }
            return (
                DelayT::Custom { span },
                randomised || body_text.contains("rand"),
            );
        }
        // A variable: fixed unless the loop grows it.
        if let Expr::Path(p) = arg
            && let Some(id) = p.path.get_ident()
        {
            let name = id.to_string();
            let bt = body_text.replace(' ', "");
            let grows =
                bt.contains(&format!("{name}*=")) || bt.contains(&format!("{name}={name}*"));
            let var_rand = randomised
                || bt
                    .lines()
                    .any(|l| l.contains(&name) && rand_words.iter().any(|w| l.contains(w)));
            for st in before.iter().rev() {
                if let Stmt::Local(l) = st
                    && pat_ident(&l.pat).as_deref() == Some(&name)
                    && let Some(init) = &l.init
                {
                    let v = self.ev.eval_pub(&init.expr, &mut ());
                    if let Some(d) = v {
                        if grows {
                            let mult = multiplier_in(&bt, &name).unwrap_or(2.0);
                            return (
                                DelayT::Exponential {
                                    base: d,
                                    multiplier: mult,
                                    cap: None,
                                    span,
                                },
                                var_rand,
                            );
                        }
                        return (
                            DelayT::Fixed {
                                value: Num::Const((d.as_secs_f64() * 1e9) as i128),
                                unit: 1e-9,
                                span,
                            },
                            var_rand,
                        );
                    }
                }
            }
            return (DelayT::Custom { span }, var_rand);
        }
        (
            DelayT::Custom { span },
            randomised || body_text.contains("rand"),
        )
    }
}

/// Counters incremented by one in a loop body (`name += 1`), with where.
fn counters(text: &str) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for (i, _) in text.match_indices("+= 1") {
        let head = text[..i].trim_end();
        let name: String = head
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if !name.is_empty() && !out.iter().any(|(n, _)| *n == name) {
            out.push((name, i));
        }
    }
    out
}

/// Whether a loop leaves its bound and delay to a retry object
/// (`state.should_retry(..)`, `backoff.next()`).
fn delegates(body: &str) -> bool {
    let t = body.replace(' ', "");
    [
        "should_retry(",
        "next_backoff(",
        "backoff.next()",
        "retry_after(",
        "policy.retry(",
    ]
    .iter()
    .any(|w| t.contains(w))
}

fn multiplier_in(compact: &str, name: &str) -> Option<f64> {
    let key = format!("{name}*=");
    let i = compact.find(&key)? + key.len();
    let num: String = compact[i..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    num.parse().ok()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
}

/// `name OP limit` (or `limit OP name`, flipped).
fn compare(e: &Expr) -> Option<(String, Cmp, &Expr, &Expr)> {
    let Expr::Binary(b) = e else { return None };
    let op = match b.op {
        syn::BinOp::Lt(_) => Cmp::Lt,
        syn::BinOp::Le(_) => Cmp::Le,
        syn::BinOp::Gt(_) => Cmp::Gt,
        syn::BinOp::Ge(_) => Cmp::Ge,
        syn::BinOp::Eq(_) => Cmp::Eq,
        _ => return None,
    };
    let ident = |e: &Expr| match e {
        Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
        _ => None,
    };
    if let Some(n) = ident(&b.left)
        && !n.starts_with(PARAM)
        && n.chars().any(|c| c.is_lowercase())
    {
        return Some((n, op, &b.right, e));
    }
    if let Some(n) = ident(&b.right)
        && !n.starts_with(PARAM)
        && n.chars().any(|c| c.is_lowercase())
    {
        let flipped = match op {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
            Cmp::Eq => Cmp::Eq,
        };
        return Some((n, flipped, &b.left, e));
    }
    None
}

const STD_MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "write",
    "writeln",
    "vec",
    "panic",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "matches",
    "todo",
    "unreachable",
    "unimplemented",
    "format_args",
    "concat",
    "stringify",
    "include_str",
    "env",
    "dbg",
    "info",
    "warn",
    "error",
    "debug",
    "trace",
    "json",
    "bail",
    "anyhow",
    "ensure",
];

impl<'a> Visit<'a> for LoopFinder<'_, '_, '_, '_> {
    fn visit_item(&mut self, _: &'a Item) {}

    fn visit_block(&mut self, b: &'a Block) {
        // Loops with the statements before them in this block.
        let mut before: Vec<&'a Stmt> = Vec::new();
        for s in &b.stmts {
            self.visit_stmt_with(s, &before);
            before.push(s);
        }
    }

    fn visit_macro(&mut self, m: &'a syn::Macro) {
        let name = m
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if STD_MACROS.contains(&name.as_str()) {
            return;
        }
        let lower = name.to_ascii_lowercase();
        let args = split_args(self.ev.spans, &m.tokens);
        // Retry-looking names, or calls with literal counts that a retry
        // macro in another file may take.
        if lower.contains("retry")
            || lower.contains("backoff")
            || (args.len() >= 2 && args.iter().any(|a| a.int.is_some()))
        {
            let span = self.ev.spans.node(m);
            self.calls.push(MacroCall {
                name,
                span,
                args,
                within: (!self.fname.is_empty()).then(|| self.fname.to_string()),
            });
        }
    }
}

impl<'a> LoopFinder<'_, '_, '_, '_> {
    fn visit_stmt_with(&mut self, s: &'a Stmt, before: &[&'a Stmt]) {
        struct Top<'x> {
            loops: Vec<&'x Expr>,
        }
        impl<'x> Visit<'x> for Top<'x> {
            fn visit_item(&mut self, _: &'x Item) {}
            fn visit_block(&mut self, _: &'x Block) {}
            fn visit_expr(&mut self, e: &'x Expr) {
                if matches!(e, Expr::Loop(_) | Expr::While(_) | Expr::ForLoop(_)) {
                    self.loops.push(e);
                    return;
                }
                syn::visit::visit_expr(self, e);
            }
        }
        // Loops directly in this statement (not in nested blocks, which
        // visit_block reaches with their own `before`).
        let mut top = Top { loops: Vec::new() };
        top.visit_stmt(s);
        for e in &top.loops {
            let span = self.ev.spans.node(*e);
            let nested = self
                .inside
                .iter()
                .any(|c| c.start <= span.start && span.end <= c.end);
            if !nested && let Some(t) = self.analyze(e, before) {
                self.inside.push(span);
                let mut p = loop_policy_local(&t);
                p.name = Some(format!("retry loop in {}", self.fname));
                p.idempotency = keys(self.ev.spans, span);
                // Keys minted before the loop, once for every attempt.
                for st in before.iter() {
                    let s = self.ev.spans.node(*st);
                    p.idempotency.extend(
                        keys_used_until(self.ev.spans, s, span.end)
                            .into_iter()
                            .map(|mut k| {
                                k.inside_retry = false;
                                k
                            }),
                    );
                }
                self.out.push(p);
            }
        }
        syn::visit::visit_stmt(self, s);
    }
}

/// A loop in a function: its values are its own.
fn loop_policy_local(t: &LoopT) -> RetryPolicy {
    let attempts = match &t.attempts {
        AttemptsT::Count {
            value: Num::Const(v),
            offset,
            span,
        } => Located::written(
            Attempts {
                count: AttemptCount::Finite((v + offset).max(1) as u64),
                written_as: format!("a loop bounded at {} attempts", (v + offset).max(1)),
            },
            *span,
        ),
        AttemptsT::Unbounded { span } => Located::written(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: "a loop with no attempt limit".into(),
            },
            *span,
        ),
        AttemptsT::Count { span, .. } | AttemptsT::Unknown { span } => Located::written(
            Attempts {
                count: AttemptCount::Unknown,
                written_as: "a loop bound the linter cannot read".into(),
            },
            *span,
        ),
    };
    let mut p = RetryPolicy::new(System::RustLoop, t.span, attempts);
    p.delay = match &t.delay {
        DelayT::None => Located::written(Delay::None, t.span),
        DelayT::Fixed {
            value: Num::Const(v),
            unit,
            span,
        } => Located::written(
            Delay::Fixed {
                delay: Duration::from_secs_f64((*v as f64 * unit).clamp(0.0, 1e12)),
            },
            *span,
        ),
        DelayT::Fixed { span, .. } => Located::written(Delay::Unknown, *span),
        DelayT::Exponential {
            base,
            multiplier,
            cap,
            span,
        } => Located::written(
            Delay::Exponential {
                base: *base,
                multiplier: *multiplier,
                cap: *cap,
            },
            *span,
        ),
        DelayT::Custom { span } => Located::written(Delay::Custom, *span),
    };
    let dspan = p.delay.span;
    let opaque = matches!(t.delay, DelayT::Custom { .. });
    p.jitter = Located::written(
        if t.randomised || opaque {
            Jitter::Unknown
        } else {
            Jitter::None
        },
        dspan,
    );
    p.retry_on = if t.predicate {
        Located::written(
            RetryOn::Listed {
                conditions: vec![Located::written(Condition::Predicate, t.span)],
            },
            t.span,
        )
    } else {
        Located::written(RetryOn::AllErrors, t.span)
    };
    if t.has_timeout {
        p.per_try_timeout = Some(Located::written(Timeout::Unknown, t.span));
    }
    p
}

/// Idempotency keys minted inside `scope` (a loop or retry closure) and
/// used as a key-like header or field.
pub fn keys(spans: &Spans<'_>, scope: Span) -> Vec<IdempotencyKey> {
    keys_used_until(spans, scope, scope.end)
}

/// Keys minted in `scope` and used as a key up to `used_until`.
pub fn keys_used_until(spans: &Spans<'_>, scope: Span, used_until: usize) -> Vec<IdempotencyKey> {
    const MAKERS: &[&str] = &[
        "Uuid::new_v4()",
        "Uuid::now_v7()",
        "Ulid::new()",
        "nanoid!(",
        "rand::random",
        "thread_rng()",
        "rand::rng()",
    ];
    const KEYISH: &[&str] = &[
        "idempot",
        "requestid",
        "request_id",
        "request-id",
        "dedup",
        "idemkey",
    ];
    let text = spans.source();
    let region = spans.slice(scope);
    let mut out = Vec::new();
    for m in MAKERS {
        let mut from = 0;
        while let Some(i) = region[from..].find(m) {
            let at = scope.start + from + i;
            from += i + m.len();
            // The statement around it.
            let s = text[..at].rfind([';', '{']).map_or(0, |k| k + 1);
            let e = text[at..].find(';').map_or(text.len(), |k| at + k);
            let stmt = &text[s..e];
            let lower = stmt.to_ascii_lowercase();
            let mut keyish = KEYISH.iter().any(|k| lower.contains(k));
            // `let key = Uuid::new_v4();` then `.header("Idempotency-Key", key)`.
            if !keyish
                && let Some(name) = stmt.trim_start().strip_prefix("let ").map(|r| {
                    r.trim_start_matches("mut ")
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect::<String>()
                })
                && !name.is_empty()
            {
                let rest = &text[e..used_until.max(e).min(text.len())];
                keyish = rest.split([';', '\n']).any(|l| {
                    contains_word(l, &name)
                        && KEYISH.iter().any(|k| l.to_ascii_lowercase().contains(k))
                });
            }
            if keyish {
                out.push(IdempotencyKey {
                    span: Span::new(at, at + m.len()),
                    created_by: m.trim_end_matches('(').to_string(),
                    inside_retry: true,
                });
            }
        }
    }
    out
}

/// URL literals (`"http://payments:8080/api"`) in code (not in comments or
/// doc comments) as call edges.
fn urls(spans: &Spans<'_>, block: &Block, facts: &mut Facts) {
    struct Strs<'s, 'f> {
        spans: &'s Spans<'s>,
        facts: &'f mut Facts,
    }
    impl<'a> Visit<'a> for Strs<'_, '_> {
        fn visit_item(&mut self, _: &'a Item) {}
        fn visit_lit_str(&mut self, l: &'a syn::LitStr) {
            url_edge(self.spans, l, self.facts);
        }
    }
    Strs { spans, facts }.visit_block(block);
}

/// A call edge for a string literal that is an HTTP URL of a real host.
fn url_edge(spans: &Spans<'_>, l: &syn::LitStr, facts: &mut Facts) {
    let v = l.value();
    let Some((_, rest)) = v.split_once("://") else {
        return;
    };
    if !(v.starts_with("http://") || v.starts_with("https://")) {
        return;
    }
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let bare = host.rsplit_once(':').map_or(host, |(h, _)| h);
    if bare.is_empty()
        || matches!(bare, "localhost" | "127.0.0.1" | "0.0.0.0" | "[::1]")
        || bare.starts_with("example.")
        || bare.ends_with(".example.com")
        || bare.contains(['{', '}', ' '])
    {
        return;
    }
    facts.edges.push(CallEdge {
        client: None,
        caller: None,
        callee: crate::extract::short_host(host),
        span: spans.node(l),
        policies: Vec::new(),
        via: "URL literal".into(),
    });
}
