//! The evaluator: expressions, blocks, paths, fields, struct literals,
//! calls of the file's own functions and methods, retry crates'
//! constructors.

use super::*;

impl<'a, 's> Eval<'a, 's> {
    pub(super) fn sp<T: syn::spanned::Spanned + std::any::Any>(&self, n: &T) -> Span {
        self.spans.node(n)
    }

    pub(super) fn tick(&self) -> bool {
        let s = self.steps.get() + 1;
        self.steps.set(s);
        let t = self.total.get() + 1;
        self.total.set(t);
        s <= STEP_BUDGET && t <= FILE_BUDGET
    }

    pub fn reset(&self) {
        self.steps.set(0);
    }

    /// `self.<field>` of `ty` as an integer: every struct literal of `ty`
    /// in the file sets it to the same integer (a literal or an integer
    /// constant of the file) and no code of the file assigns it (`.field =`,
    /// `.field += ..`, `&mut ..field`). A literal setting it from anything
    /// else (a parameter, a call) or two that disagree leave it unknown
    /// (shadowsocks-rust `DnsClientCache { retry_count: 1, .. }` in its only
    /// constructor, nineteenth pass).
    pub fn field_int(&self, ty: &str, field: &str) -> Option<i128> {
        let inits = self.ix.inits.get(&(ty.to_string(), field.to_string()))?;
        let int = |e: &Expr| match e {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => i.base10_digits().parse::<i128>().ok(),
            _ => None,
        };
        let mut found = None;
        for init in inits.iter().take(16) {
            let v = match init.expr {
                Expr::Path(p) => p
                    .path
                    .get_ident()
                    .and_then(|id| self.ix_const(&id.to_string()))
                    .and_then(int),
                e => int(e),
            }?;
            if found.is_some_and(|f| f != v) {
                return None;
            }
            found = Some(v);
        }
        let text = self.spans.source();
        let pat = format!(".{field}");
        let assigned = text.match_indices(&pat).take(256).any(|(i, _)| {
            let rest = &text[i + pat.len()..];
            if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                return false;
            }
            let rest = rest.trim_start();
            let op = ["=", "+=", "-=", "*=", "/="]
                .iter()
                .any(|o| rest.starts_with(o) && !rest.starts_with("=="));
            let before = text[..i].trim_end();
            op || before.ends_with("&mut self") || before.ends_with("&mut")
        });
        if assigned { None } else { found }
    }

    /// A constant item of the file.
    /// The values the struct literals of the file give `ty.field`
    /// (`Server { client_config: { .. }, .. }`), at most 16.
    pub fn field_inits(&self, ty: &str, field: &str) -> Vec<&'a Expr> {
        self.ix
            .inits
            .get(&(ty.to_string(), field.to_string()))
            .map(|v| v.iter().take(16).map(|i| i.expr).collect())
            .unwrap_or_default()
    }

    pub fn ix_const(&self, name: &str) -> Option<&'a Expr> {
        self.ix.consts.get(name).copied()
    }

    /// The one expression a function of the file named `name` (the only
    /// one of that name) returns, when its body is that expression alone
    /// (`fn need_retry(&self) -> bool { self.n < self.max }`).
    pub fn own_fn_value(&self, name: &str) -> Option<&'a Expr> {
        let mut defs = self.ix.fns.get(name)?.iter();
        let (Some(d), None) = (defs.next(), defs.next()) else {
            return None;
        };
        match d.block.stmts.as_slice() {
            [Stmt::Expr(e, None)] => Some(e),
            _ => None,
        }
    }

    /// `own_fn_value` for a free function of one parameter
    /// (`fn is_transient(status: StatusCode) -> bool { status == .. }`):
    /// the parameter's name and the expression.
    pub fn own_fn_of_one(&self, name: &str) -> Option<(String, &'a Expr)> {
        let mut defs = self.ix.fns.get(name)?.iter();
        let (Some(d), None) = (defs.next(), defs.next()) else {
            return None;
        };
        let (Some(FnArg::Typed(p)), None) = (d.sig.inputs.first(), d.sig.inputs.iter().nth(1))
        else {
            return None;
        };
        let param = pat_ident(&p.pat)?;
        match d.block.stmts.as_slice() {
            [Stmt::Expr(e, None)] => Some((param, e)),
            _ => None,
        }
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

    pub(super) fn eval(&self, e: &'a Expr, f: &mut Frame) -> L {
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
                    f.set_local(id.to_string(), v);
                }
                L::unknown(span)
            }
            Expr::Call(c) => self.eval_call(c, span, f),
            Expr::MethodCall(m) => self.eval_method(m, span, f),
            Expr::Macro(_) => L::unknown(span),
            _ => L::unknown(span),
        }
    }

    pub(super) fn eval_block(&self, b: &'a Block, f: &mut Frame) -> L {
        let mut last = L::unknown(self.sp(b));
        for (i, s) in b.stmts.iter().enumerate() {
            match s {
                Stmt::Local(l) => {
                    if let Some(init) = &l.init {
                        let v = self.eval(&init.expr, f);
                        if let Some(name) = pat_ident(&l.pat) {
                            f.set_local(name, v);
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

    pub(super) fn eval_path(&self, p: &'a syn::Path, span: Span, f: &mut Frame) -> L {
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
            if name == "NoDelay" && self.uses_retry_crate {
                return L::new(V::B(Box::new(retry_no_delay(span))), span);
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
        if segs.last().is_some_and(|s| s == "NoDelay") && self.uses_retry_crate {
            return L::new(V::B(Box::new(retry_no_delay(span))), span);
        }
        if segs.last().is_some_and(|s| s == "MAX") && segs.iter().any(|s| s == "Duration") {
            return L::new(V::Dur(Duration::MAX), span);
        }
        L::new(V::Path(last2(&segs)), span)
    }

    pub(super) fn nested(&self, run: impl FnOnce(&Self) -> L, span: Span) -> L {
        let d = self.depth.get();
        if d >= MAX_CALL_DEPTH {
            return L::unknown(span);
        }
        self.depth.set(d + 1);
        let v = run(self);
        self.depth.set(d);
        v
    }

    pub(super) fn eval_field(&self, fe: &'a syn::ExprField, span: Span, f: &mut Frame) -> L {
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
    pub(super) fn field_of(&self, ty: &str, field: &str, span: Span) -> L {
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

    pub(super) fn eval_struct(&self, s: &'a syn::ExprStruct, span: Span, f: &mut Frame) -> L {
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

    pub(super) fn eval_call(&self, c: &'a syn::ExprCall, span: Span, f: &mut Frame) -> L {
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

    pub(super) fn find_fn(
        &self,
        name: &str,
        impl_ty: Option<&str>,
        free: bool,
    ) -> Option<FnDef<'a>> {
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

    pub(super) fn call(&self, def: FnDef<'a>, args: Vec<L>, span: Span) -> L {
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

    pub(super) fn eval_method(&self, m: &'a syn::ExprMethodCall, span: Span, f: &mut Frame) -> L {
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
    pub(super) fn constructor(
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
            ("Exponential" | "Fixed" | "Fibonacci" | "Range", _) if self.uses_retry_crate => {
                return self.retry_crate_delays(owner, name, args, span, f);
            }
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
