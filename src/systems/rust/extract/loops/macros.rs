//! Retry macros: `macro_rules!` arms read as loop templates and
//! instantiated at their call sites.

use super::*;

pub(super) fn cover(args: &[MacroArg]) -> Option<Span> {
    let first = args.first()?.span;
    Some(args.iter().fold(first, |a, b| a.cover(b.span)))
}

/// The arms of a `macro_rules!` body: `(matcher) => {body}` separated by
/// `;`.
pub(super) fn macro_arms(ev: &Eval<'_, '_>, tokens: &TokenStream) -> Vec<MacroArm> {
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

pub(super) fn matcher_params(ts: &TokenStream) -> Vec<String> {
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
pub(super) fn substitute(ts: TokenStream) -> TokenStream {
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

pub(super) fn arm(ev: &Eval<'_, '_>, params: Vec<String>, body: TokenStream) -> MacroArm {
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
        impl_ty: None,
        fn_start: usize::MAX,
        fn_span: Span::new(0, 0),
        bodies: &[],
        imports: &[],
        out: Vec::new(),
        calls: Vec::new(),
        inside: Vec::new(),
        not_taken: Vec::new(),
        under_timeout: 0,
    };
    let mut found = None;
    for_each_loop(&block, &mut |lp, before| {
        if found.is_none() {
            found = w.analyze(lp, before).ok();
        }
    });
    match found {
        Some(body) => MacroArm::Loop { params, body },
        None => MacroArm::Other { params },
    }
}

pub(super) fn forward(ev: &Eval<'_, '_>, params: Vec<String>, mac: &syn::Macro) -> MacroArm {
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
pub(super) fn split_args(spans: &Spans<'_>, ts: &TokenStream) -> Vec<MacroArg> {
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

/// The macro parameters an arm's loop takes its attempts or its delay
/// from (`$n`, `$ms`): what a call site decides.
fn call_params(t: &LoopT) -> Vec<&str> {
    let mut out = Vec::new();
    if let AttemptsT::Count {
        value: Num::Param(p),
        ..
    } = &t.attempts
    {
        out.push(p.as_str());
    }
    if let DelayT::Fixed {
        value: Num::Param(p),
        ..
    } = &t.delay
    {
        out.push(p.as_str());
    }
    out
}

/// The policies of a retry macro's arms whose loop takes nothing from its
/// call sites (no attempts or delay from a parameter: ockam's `retry!`):
/// every expansion retries the same way, so the retry is reported once, at
/// the loop in the definition, as a compiler reports a macro's code once.
/// An arm whose attempts or delay are parameters is reported at each call
/// site with the call's values ([`instantiate`]).
pub(super) fn at_definition(def: &MacroDef) -> Vec<RetryPolicy> {
    def.arms
        .iter()
        .filter_map(|a| match a {
            MacroArm::Loop { params, body } if call_params(body).is_empty() => {
                let here = MacroCall {
                    name: def.name.clone(),
                    span: body.span,
                    args: Vec::new(),
                    within: None,
                };
                Some(loop_policy(body, params, &here, &def.name))
            }
            _ => None,
        })
        .collect()
}

/// The policy a retry macro makes at one call site, when the call decides
/// some of it: an arm whose loop takes its attempts or its delay from a
/// parameter the call hands it (else the definition's own report,
/// [`at_definition`] or a literal forwarding arm, stands for every call).
pub fn instantiate(def: &MacroDef, call: &MacroCall) -> Option<RetryPolicy> {
    let mut call = call.clone();
    // Which arguments are the call's own (not a forwarding arm's literals).
    let mut own = vec![true; call.args.len()];
    let mut depth = 0;
    loop {
        let arm = def
            .arms
            .iter()
            .find(|a| a.params().len() == call.args.len())?;
        match arm {
            MacroArm::Loop { params, body } => {
                let decided = call_params(body).iter().any(|p| {
                    params
                        .iter()
                        .position(|x| x == p)
                        .is_some_and(|i| own.get(i).copied().unwrap_or(false))
                });
                return decided.then(|| loop_policy(body, params, &call, &def.name));
            }
            MacroArm::Forward {
                params,
                target,
                args,
            } if *target == def.name && depth < 4 => {
                // Substitute this call's arguments for the arm's params.
                let at = |a: &MacroArg| {
                    a.param
                        .as_ref()
                        .and_then(|p| params.iter().position(|x| x == p))
                        .filter(|i| *i < call.args.len())
                };
                let next_own = args
                    .iter()
                    .map(|a| at(a).is_some_and(|i| own.get(i).copied().unwrap_or(false)))
                    .collect();
                let args = args
                    .iter()
                    .map(|a| at(a).map_or(a.clone(), |i| call.args[i].clone()))
                    .collect();
                call.args = args;
                own = next_own;
                depth += 1;
            }
            _ => return None,
        }
    }
}

pub(super) fn num_at(n: &Num, params: &[String], call: &MacroCall) -> Option<(i128, Span)> {
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

pub(super) fn loop_policy(
    t: &LoopT,
    params: &[String],
    call: &MacroCall,
    name: &str,
) -> RetryPolicy {
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
    // The statuses the arm's loop sends round, at the call (the arm's own
    // spans are the definition's, perhaps in another file).
    let at_call = LoopT {
        statuses: t
            .statuses
            .iter()
            .map(|(a, b, _)| (*a, *b, call.span))
            .collect(),
        ..t.clone()
    };
    super::policy::with_statuses(&mut p, &at_call);
    p
}

/// Call `f` for every loop expression in `block` (not inside closures of
/// other loops), with the statements before it in its block.
pub(super) fn for_each_loop<'a>(block: &'a Block, f: &mut dyn FnMut(&'a Expr, &[&'a Stmt])) {
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

#[cfg(test)]
mod tests {
    use crate::extract::Facts;
    use crate::model::*;
    use crate::systems::rust::extract::{extract, link_macros};
    use std::path::Path;

    fn scan(files: &[(&str, &str)]) -> Vec<ScannedFile> {
        let mut out: Vec<ScannedFile> = files
            .iter()
            .map(|(path, text)| {
                let mut facts = Facts::default();
                extract(Path::new(path), text, &mut facts);
                ScannedFile {
                    source: crate::source::SourceFile::new(*path, text.to_string()),
                    facts,
                    syntax: Some(Syntax::Rust),
                }
            })
            .collect();
        link_macros(&mut out);
        out
    }

    /// A retry macro whose loop takes nothing from its calls is one policy,
    /// at its loop, in the file that defines it: its calls, in that file or
    /// in another, add none. One whose attempts a call hands in is read at
    /// each call with the call's value.
    #[test]
    fn a_macro_that_takes_nothing_from_its_calls_is_one_policy_at_its_definition() {
        let def = "#[macro_export]\nmacro_rules! again {\n ($f:expr) => {{ let mut i = 0; loop { let r = $f; if r.is_ok() { break r; } else if i >= 3 { break r; } else { i += 1; std::thread::sleep(std::time::Duration::from_millis(100)); } } }};\n}\nfn h() -> R { again!(connect()) }\n";
        let call =
            "fn g() -> R { crate::again!(connect()) }\nfn k() -> R { crate::again!(other()) }\n";
        let files = scan(&[("a/src/m.rs", def), ("a/src/g.rs", call)]);
        assert_eq!(files[0].facts.policies.len(), 1);
        let p = &files[0].facts.policies[0];
        assert!(def[p.span.start..p.span.end].starts_with("loop {"));
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
        assert!(files[1].facts.policies.is_empty());
        // The count handed in: at each call, none at the definition.
        let def = def
            .replace("($f:expr)", "($f:expr, $n:expr)")
            .replace("i >= 3", "i >= $n");
        let call = "fn g() -> R { crate::again!(connect(), 2) }\nfn k() -> R { crate::again!(other(), 5) }\n";
        let files = scan(&[("a/src/m.rs", &def), ("a/src/g.rs", call)]);
        assert!(files[0].facts.policies.is_empty());
        let counts: Vec<_> = files[1]
            .facts
            .policies
            .iter()
            .map(|p| p.attempts.value.count)
            .collect();
        assert_eq!(counts, [AttemptCount::Finite(3), AttemptCount::Finite(6)]);
    }
}
