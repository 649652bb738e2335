//! Sites: where policies are used, and what becomes a policy.

use super::*;

// ---------------------------------------------------------------------------
// Sites: where policies are used, and what becomes a policy.

/// How a builder is used: retried with a predicate or not.
#[derive(Default, Clone)]
pub(super) struct Uses {
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
    /// The code each use retries.
    scopes: Vec<Span>,
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
pub(super) fn reqwest_retry_default(span: Span) -> Located<RetryOn> {
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
    let mut replaced_fields = HashMap::new();
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
            replaced_fields,
        };
        finder.visit_block(block);
        replaced_fields = finder.replaced_fields;
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
                    let t = client_timeout(ev, *fspan, span);
                    // A try that can wait for ever (reqwest's client has no
                    // timeout unless `.timeout(..)` sets one) leaves the
                    // retries without a deadline, unless the policy caps the
                    // elapsed time (`build_with_total_retry_duration`).
                    if t.value == Timeout::Disabled && p.overall_timeout.is_none() {
                        p.overall_timeout = Some(Located::default_at(Timeout::Disabled, t.span));
                    }
                    p.per_try_timeout = Some(t);
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
                        u.scopes.push(scope);
                        u.keys.extend(loops::keys(ev.spans, scope));
                    }
                }
                Site::Builder(b) => {
                    if !builds.iter().any(|(x, _, _)| x.origin == b.origin) {
                        builds.push((*b, Uses::default(), Some(fname.clone())));
                    }
                }
                Site::AwsLoad { span, profile } => {
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
                    // aws-config reads `AWS_MAX_ATTEMPTS`/`AWS_RETRY_MODE`,
                    // then the profile's `max_attempts`/`retry_mode`, field
                    // by field, over `RetryConfig::standard()` (smithy-rs
                    // `aws/rust-runtime/aws-config/src/default_provider/retry_config.rs`
                    // `try_retry_config`, commit 82877bc): joined by
                    // `systems::aws::link`.
                    facts.aws_shared.push(crate::model::AwsShared {
                        kind: crate::model::AwsSharedKind::Client {
                            policy: facts.policies.len() - 1,
                            botocore: false,
                        },
                        mode: None,
                        attempts: None,
                        profile: profile.map(|(n, at)| Located::written(n, at)),
                    });
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
        let b = super::by_hand::bounded(ev, b);
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
        // A reqwest call the retry repeats, through a client with no
        // timeout (RL304).
        for scope in &uses.scopes {
            super::super::clients::unbounded_try(ev, *scope, &mut p);
        }
        // Every use adjusts the delay with a function: the builder's delay
        // and jitter are not what is waited.
        if uses.adjust && !uses.without_adjust {
            let at = uses.spans.first().copied().unwrap_or(b.origin);
            p.delay = Located::written(Delay::Custom, at);
            p.jitter = Located::written(Jitter::Unknown, at);
        }
        facts
            .versioned
            .extend(b.versioned(&p, facts.policies.len()));
        facts.policies.push(p);
    }
    // Retry middlewares layered in one function: the client built with the
    // first is used inside the second's client (uv's auth middleware).
    layered(ev, &middleware, facts);
    tower_policies(ev, facts);
}

/// A per-attempt timeout for an HTTP client: the function or file sets
/// `.timeout(..)`/`.read_timeout(..)` on a client builder, or none is set:
/// reqwest's default is no timeout (github.com/seanmonstar/reqwest at 009304c,
/// src/async_impl/client.rs,
/// `ClientBuilder::new`: `timeout: None`, `read_timeout: None`; the doc of
/// `ClientBuilder::timeout`: "Default is no timeout").
pub(super) fn client_timeout(ev: &Eval<'_, '_>, _fspan: Span, span: Span) -> Located<Timeout> {
    let text = ev.spans.source();
    for needle in [".timeout(", ".read_timeout("] {
        // Not in a line comment ("unless `.timeout(..)` sets one").
        let code = |i: &usize| {
            let line = text[..*i].rsplit('\n').next().unwrap_or("");
            let line = line.trim_start();
            // `"http://.."` before it is not a comment.
            !(line.starts_with("//") || line.contains(" //"))
        };
        if let Some((i, _)) = text.match_indices(needle).find(|(i, _)| code(i)) {
            let s = Span::new(i + 1, i + needle.len() - 1);
            return Located::written(Timeout::Unknown, s);
        }
    }
    Located::default_at(Timeout::Disabled, span)
}

pub(super) fn layered(ev: &Eval<'_, '_>, mw: &[(usize, Span, String)], facts: &mut Facts) {
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
                protocol: None,
            });
        }
    }
}

pub(super) fn ix_fn_end(ev: &Eval<'_, '_>, s: Span) -> Option<usize> {
    ev.ix
        .bodies
        .iter()
        .filter(|(_, _, _, sp)| sp.start <= s.start && s.end <= sp.end)
        .map(|(_, _, _, sp)| sp.end)
        .min()
}

pub(super) enum Site {
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
        /// `.profile_name("dev")` on the loader: the name and its span.
        profile: Option<(String, Span)>,
    },
}

pub(super) struct SiteFinder<'e, 'a, 's> {
    ev: &'e Eval<'a, 's>,
    frame: Frame,
    found: Vec<Site>,
    covered: Vec<Span>,
    /// [`replaced`] of each struct field the file's literals set (`true`:
    /// as `self.field`), asked once per file: it scans the whole text.
    replaced_fields: HashMap<String, bool>,
}

impl<'a> SiteFinder<'_, 'a, '_> {
    fn eval_b(&mut self, e: &'a Expr) -> Option<Box<Build>> {
        match self.eval_here(e).v {
            V::B(b) => Some(b),
            _ => None,
        }
    }

    /// `e` evaluated in the function's frame, which is left as it was:
    /// the locals the evaluation binds (a block's `let`s) are undone after
    /// it, not bound in a copy of the frame (a copy of every local per
    /// call in the function was most of the evaluator's allocations).
    fn eval_here(&mut self, e: &'a Expr) -> L {
        self.ev.reset();
        self.frame.undo = Some(Vec::new());
        let v = self.ev.eval(e, &mut self.frame);
        self.frame.roll_back();
        v
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
        // A builder bound here and replaced later in the function
        // (`backoff = make_backoff(..)`) is not the one used.
        if let Some(init) = &l.init
            && let Some(name) = pat_ident(&l.pat)
        {
            let at = self.ev.sp(&*init.expr);
            let end = ix_fn_end(self.ev, at).unwrap_or(self.ev.spans.source().len());
            let after = self.ev.spans.source().get(at.end..end).unwrap_or("");
            // Or extended in a branch (`if self.with_jitter {
            // retry_builder.with_jitter() } else { retry_builder }`): the
            // later expression is the builder used, read there.
            if replaced(after, &name, false) || extended(after, &name) {
                self.covered.push(at);
            }
        }
        syn::visit::visit_local(self, l);
        // Keep locals for later expressions of the same body.
        if let Some(init) = &l.init
            && let Some(name) = pat_ident(&l.pat)
        {
            let v = self.eval_here(&init.expr);
            self.frame.locals.insert(name, v);
        }
    }

    fn visit_expr(&mut self, e: &'a Expr) {
        // A builder that initialises a struct field the file assigns again
        // (`backoff: ExponentialBackoff::default()`, then `self.backoff =
        // set_backoff(..)` when the work starts) is not the one used.
        if let Expr::Struct(st) = e {
            // The base of a struct update (`..ExponentialBackoff::default()`)
            // is part of this value, not a builder of its own.
            if let Some(rest) = &st.rest {
                let at = self.ev.sp(&**rest);
                self.covered.push(at);
            }
            for f in &st.fields {
                if let syn::Member::Named(m) = &f.member
                    && *self
                        .replaced_fields
                        .entry(m.to_string())
                        .or_insert_with_key(|m| replaced(self.ev.spans.source(), m, true))
                {
                    let at = self.ev.sp(&f.expr);
                    self.covered.push(at);
                }
            }
        }
        // Assignments update locals (`builder = builder.jitter(..)`).
        if let Expr::Assign(a) = e {
            syn::visit::visit_expr(self, e);
            if let Expr::Path(p) = &*a.left
                && let Some(id) = p.path.get_ident()
            {
                let v = self.eval_here(&a.right);
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
                    } else if matches!(owner, "Retry" | "RetryIf")
                        && matches!(last, "spawn" | "spawn_notify")
                    {
                        if let Some(b) = c.args.first().and_then(|a| self.eval_b(a)) {
                            // `RetryIf`'s condition, unless it says yes to
                            // everything; tokio-retry2's action sorting its
                            // failures into `RetryError::permanent`.
                            let when = if owner == "RetryIf" {
                                !c.args.iter().nth(2).is_some_and(always_true)
                            } else {
                                let op = c
                                    .args
                                    .iter()
                                    .nth(1)
                                    .map(|a| self.ev.spans.text(a))
                                    .unwrap_or("");
                                sorts_permanent(self.ev, op)
                            };
                            self.found.push(Site::Use {
                                build: b,
                                when,
                                adjust: false,
                                span,
                                scope: c.args.iter().nth(1).map(|a| self.ev.sp(a)),
                            });
                        }
                        self.covered.push(span);
                    } else if matches!(last, "retry" | "retry_with_index")
                        && (owner == "retry" || (owner.is_empty() && self.ev.uses_retry_crate))
                        && !self.ev.uses_backoff_crate
                    {
                        // The `retry` crate: a `Result`'s error goes round
                        // (`Into<OperationResult>` makes it `Retry`);
                        // `OperationResult::Err` gives up (retry 2.2.0
                        // `src/opresult.rs`, `src/lib.rs`).
                        if let Some(b) = c.args.first().and_then(|a| self.eval_b(a)) {
                            let op = c
                                .args
                                .iter()
                                .nth(1)
                                .map(|a| self.ev.spans.text(a))
                                .unwrap_or("");
                            let when = gives_up(self.ev, op, "OperationResult::Err");
                            self.found.push(Site::Use {
                                build: b,
                                when,
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
                            let when = sorts_permanent(self.ev, op);
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
                            let profile =
                                super::aws_profile::profile_name(self.ev.spans.source(), span.end);
                            self.found.push(Site::AwsLoad { span, profile });
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
                        let when = outer.iter().any(|c| {
                            c.method == "when" && !c.args.first().is_some_and(always_true)
                        });
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
