//! tower `Policy` implementations, and retry-macro facts.

use super::*;

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
        let errors_retried = crate::systems::rust::extract::squash(&text).contains("Err(")
            && !text.contains("Err(_) => None");
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

pub(super) struct CtorCalls<'t, 'a> {
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

pub(super) fn limit_field(body: &str) -> Option<String> {
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
