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
