//! Positive evidence that what a loop re-attempts reaches another machine
//! (fifteenth pass, `docs/loop-review.md`).
//!
//! Until the fourteenth pass an attempt the reader could not classify
//! counted as remote, so a desktop or system program's local work
//! (clipboard, displays, registry, a PTY, `waitpid`, IPC) read as retries.
//! Now a loop is a retry only when something says the attempt leaves the
//! process, from the one table of [`super::network`]:
//!
//! - a path or type of a network, RPC, storage or messaging crate in the
//!   loop (`reqwest::get`, `tonic::Request`, `TcpStream::connect`), or a
//!   name the file imports from one (`use sqlx::PgPool;` .. `PgPool`);
//! - a call on a client, connection, session, stub or channel
//!   (`self.pd_client.get_region(..)`, `conn.query(..)`);
//! - an attempted call named for a remote operation (`connect_once`,
//!   `fetch_block`, `send_request`, `upload_part`);
//! - a URL of a remote host in the loop (`"https://.."`, `"redis://.."`),
//!   or a value named for one handed to a call (`url`, `endpoint`, `host`);
//! - a failure only a remote call has (`Code::Unavailable`,
//!   `StatusCode::..`, `ErrorKind::ConnectionRefused`, `e.is_connect()`);
//! - a value made before the loop, or a parameter, with such evidence and
//!   used in it (`let client = Client::connect(url)`; `db: &PgPool`);
//! - a function of this file the attempt calls (`self.sync_once()`,
//!   `Self::load(..)`), two calls deep, whose body has such evidence;
//! - a retry helper: the function says it retries and each pass calls an
//!   operation its caller hands it (`fn retry(f: impl FnMut() -> ..)`).
//!
//! Without any, the loop is not taken (`loops_not_taken`: the attempt
//! and "nothing says it leaves the process").

use super::network::{self, word_in};
use super::remote_text::{flatten, host_port};
use super::*;

/// Functions of this file followed from an attempt, at most.
const CALLEE_BUDGET: usize = 16;

/// What the evidence search sees of the file and the loop's function.
pub(super) struct Cx<'c, 'b> {
    pub spans: &'c Spans<'c>,
    pub bodies: &'c [(String, Option<&'b str>, &'b Block, Span)],
    /// Names the file imports from a listed crate, with the crate.
    pub imports: &'c [(String, String)],
    pub fname: &'c str,
    /// The loop's function, signature included.
    pub fn_span: Span,
    /// Where the function's body starts.
    pub fn_start: usize,
    /// The file's module is named for inter-process communication
    /// (`ipc.rs`): only a network crate or a URL counts.
    pub ipc_module: bool,
}

/// Why the loop's attempt reaches another machine, or (`Err`) why nothing
/// says so.
pub(super) fn evidence(
    cx: &Cx<'_, '_>,
    the_loop: &Expr,
    body: &Block,
    cond: Option<&Expr>,
    before: &[&Stmt],
) -> Result<String, String> {
    let spans = cx.spans;
    // In a module named for inter-process communication (`ipc.rs`,
    // `ipc/windows.rs`), a `connect`, a `conn` or a `session` is the
    // program's own other process: only a network crate's path or name or
    // a URL says the attempt leaves the host.
    if cx.ipc_module {
        let mut f = Finder::new(cx, false);
        f.names = false;
        f.visit_expr(the_loop);
        return f.found.ok_or_else(|| {
            "local work: the file's module is named for inter-process communication (the word `ipc`), so its connections, sessions and sockets reach processes on this host, and nothing in the loop names a network crate or a URL".to_string()
        });
    }
    // The loop itself: crate paths, clients, failures, URLs.
    let mut f = Finder::new(cx, false);
    f.visit_expr(the_loop);
    if let Some(w) = f.found {
        return Ok(w);
    }
    let mut ops = super::reach::attempt_ops(body, cond);
    if ops.is_empty() {
        ops = calls_in(body);
    }
    let loop_text = spans.text(the_loop);
    let says_retry = super::walks::retry_vocabulary(cx.fname, loop_text);
    let params = params(spans.source(), cx.fn_span, cx.fn_start);
    let mut budget = CALLEE_BUDGET;
    for op in &ops {
        if let Some(w) = attempt_evidence(cx, op, &params, says_retry) {
            return Ok(w);
        }
        for c in calls_in_expr(op) {
            if let Some(n) = call_name(c)
                && let Some(w) = callee_evidence(cx, &n, call_owner(c).as_deref(), 2, &mut budget)
            {
                return Ok(format!("the attempt calls `{n}` of this file, which {w}"));
            }
        }
    }
    // A value made before the loop, or a parameter, used in it.
    for s in before.iter().rev().take(32) {
        let Stmt::Local(l) = s else { continue };
        let (Some(name), Some(init)) = (pat_ident(&l.pat), &l.init) else {
            continue;
        };
        if !contains_word(loop_text, &name) {
            continue;
        }
        if let Some(w) = word_in(&name, network::CLIENT_WORDS) {
            return Ok(format!("the loop uses `{name}`, a client (the word `{w}`)"));
        }
        let mut f = Finder::new(cx, true);
        f.visit_expr(&init.expr);
        if let Some(w) = f.found {
            return Ok(format!("the loop uses `{name}`, made before it by {w}"));
        }
    }
    for (name, ty) in &params {
        if !contains_word(loop_text, name) {
            continue;
        }
        if let Some(w) =
            word_in(name, network::CLIENT_WORDS).or_else(|| word_in(name, network::ADDRESS_WORDS))
        {
            return Ok(format!(
                "the loop uses the parameter `{name}` (the word `{w}`)"
            ));
        }
        if let Some(w) = type_evidence(cx, ty)
            .or_else(|| type_words(ty).map(|w| format!("a client type (the word `{w}`)")))
        {
            return Ok(format!("the loop uses the parameter `{name}: {ty}`, {w}"));
        }
    }
    let what = ops
        .first()
        .map(|o| {
            let t: String = spans.text(*o).split_whitespace().collect();
            let t = t.split('(').next().unwrap_or(&t).to_string();
            format!("`{t}(..)`")
        })
        .unwrap_or_else(|| "what each pass does".into());
    Err(format!(
        "no evidence that the attempt leaves the process: nothing in {what} or the loop names a network, RPC, storage or messaging crate, a client or connection, a remote operation, a URL or a remote failure, so it is not taken as a retry of a remote operation"
    ))
}

/// Evidence in one attempt: its name, a remote method on what it is
/// called on, a parameter the caller handed (a retry helper), or a call
/// or value inside it (`timeout(d, self.connect())`).
fn attempt_evidence(
    cx: &Cx<'_, '_>,
    op: &Expr,
    params: &[(String, String)],
    says_retry: bool,
) -> Option<String> {
    // Known local work (`UnixStream::connect`, `ipc_connect`) says nothing.
    if super::reach::local(cx.spans, op).is_some() {
        return None;
    }
    let name = call_name(op);
    if let Some(n) = &name {
        if let Some(w) = word_in(n, network::REMOTE_CALL_WORDS) {
            return Some(format!(
                "the attempt is named for a remote operation (`{n}`, the word `{w}`)"
            ));
        }
        if network::REMOTE_CALLS.contains(&n.as_str()) {
            return Some(format!("the attempt resolves a name (`{n}`)"));
        }
    }
    if let Expr::MethodCall(m) = op {
        let method = m.method.to_string();
        let mut names = Vec::new();
        chain_names(&m.receiver, &mut names);
        let sender = names.first().is_some_and(|r| network::in_process_sender(r));
        let remote_word = network::words(&method)
            .into_iter()
            .find(|w| network::REMOTE_METHODS.contains(&w.as_str()));
        if remote_word.is_some() && !sender {
            return Some(format!(
                "the attempt is a remote operation (`.{method}(..)`)"
            ));
        }
        // What it is called on was handed in as a client
        // (`c: &Client`, `store: &ObjectStore`).
        if let Some(root) = names.last()
            && let Some((p, ty)) = params.iter().find(|(p, _)| p == root)
            && let Some(w) = type_words(ty)
        {
            return Some(format!(
                "the attempt is called on `{p}: {ty}` (the word `{w}`)"
            ));
        }
    }
    // A retry helper: each pass calls what its caller handed it.
    if let Expr::Call(c) = op
        && let Expr::Path(p) = &*c.func
        && let Some(id) = p.path.get_ident()
        && params.iter().any(|(n, _)| id == n)
        && says_retry
    {
        return Some(format!(
            "a retry helper: each pass calls `{id}`, the operation its caller hands it"
        ));
    }
    let mut f = Finder::new(cx, true);
    f.visit_expr(op);
    f.found.map(|w| format!("the attempt holds {w}"))
}

/// A word of a type's names that names a client (`&Client`,
/// `Arc<ObjectStore>`, `&PgPool`).
fn type_words(ty: &str) -> Option<String> {
    ty.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .find_map(|id| word_in(id, network::CLIENT_WORDS))
}

/// The evidence in a function of this file named `name` (its body, and
/// the functions of this file it calls, `depth` calls deep). A call
/// through a type (`ServerOptions::new()`) is that type's function: only
/// a body of its `impl` here, not another type's `fn new`.
fn callee_evidence(
    cx: &Cx<'_, '_>,
    name: &str,
    owner: Option<&str>,
    depth: u32,
    budget: &mut usize,
) -> Option<String> {
    if depth == 0 || (name == cx.fname && depth == 2) {
        return None;
    }
    let of_owner = |ty: &Option<&str>| owner.is_none_or(|o| *ty == Some(o));
    for (n, _, block, _) in cx
        .bodies
        .iter()
        .filter(|(n, ty, ..)| n == name && of_owner(ty))
        .take(4)
    {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        // A body no reader needed was blanked before the parse: read it
        // from the file's text.
        let parsed;
        let block: &Block = if block.stmts.is_empty() {
            match syn::parse_str::<Block>(cx.spans.slice(cx.spans.block(block))) {
                Ok(b) => {
                    parsed = b;
                    &parsed
                }
                Err(_) => continue,
            }
        } else {
            block
        };
        let mut f = Finder::new(cx, true);
        f.visit_block(block);
        if let Some(w) = f.found {
            return Some(format!("has {w}"));
        }
        for c in calls_in(block) {
            if let Some(m) = call_name(c)
                && m != *n
                && let Some(w) =
                    callee_evidence(cx, &m, call_owner(c).as_deref(), depth - 1, budget)
            {
                return Some(format!("calls `{m}`, which {w}"));
            }
        }
    }
    None
}

/// The name of a call: a method's, or a path's last segment.
fn call_name(e: &Expr) -> Option<String> {
    match e {
        Expr::MethodCall(m) => Some(m.method.to_string()),
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// The type a path call goes through (`named_pipe::ServerOptions::new()`
/// -> `ServerOptions`); none for `Self::..`, a method or a free function.
fn call_owner(e: &Expr) -> Option<String> {
    let Expr::Call(c) = e else { return None };
    let Expr::Path(p) = &*c.func else { return None };
    let n = p.path.segments.len();
    let owner = p
        .path
        .segments
        .iter()
        .nth(n.checked_sub(2)?)?
        .ident
        .to_string();
    (owner != "Self" && owner.starts_with(|c: char| c.is_ascii_uppercase())).then_some(owner)
}

/// Every call in a block (not in closures or items), at most 64.
fn calls_in(b: &Block) -> Vec<&Expr> {
    let mut c = Calls(Vec::new());
    c.visit_block(b);
    c.0
}

/// Every call in an expression, itself included (at most 64).
fn calls_in_expr(e: &Expr) -> Vec<&Expr> {
    let mut c = Calls(Vec::new());
    c.visit_expr(e);
    c.0
}

struct Calls<'a>(Vec<&'a Expr>);

impl<'a> Visit<'a> for Calls<'a> {
    fn visit_item(&mut self, _: &'a Item) {}
    fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    fn visit_expr(&mut self, e: &'a Expr) {
        if self.0.len() < 64 && matches!(e, Expr::Call(_) | Expr::MethodCall(_)) {
            self.0.push(e);
        }
        syn::visit::visit_expr(self, e);
    }
}

/// The parameters of the function (`name: type`), read from its
/// signature's text.
pub(super) fn params(src: &str, fn_span: Span, fn_start: usize) -> Vec<(String, String)> {
    let Some(sig) = src.get(fn_span.start..fn_start.max(fn_span.start)) else {
        return Vec::new();
    };
    // The parameter list: the first `(` outside the generics
    // (`fn retry<F: FnMut() -> T>(mut f: F)`).
    let mut angle = 0i32;
    let mut open = None;
    let b = sig.as_bytes();
    for (i, c) in sig.char_indices() {
        match c {
            '<' => angle += 1,
            '>' if i > 0 && b[i - 1] != b'-' => angle -= 1,
            '(' if angle <= 0 => {
                open = Some(i);
                break;
            }
            _ => {}
        }
    }
    let Some(open) = open else {
        return Vec::new();
    };
    let mut depth = 0i32;
    let mut parts = Vec::new();
    let mut cur = String::new();
    for c in sig[open + 1..].chars() {
        match c {
            '(' | '<' | '[' | '{' => depth += 1,
            ')' | '>' | ']' | '}' if depth > 0 => depth -= 1,
            ')' => break,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    parts
        .iter()
        .take(32)
        .filter_map(|p| {
            let (n, t) = p.split_once(':')?;
            let n = n.trim().trim_start_matches("mut ").trim();
            (!n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_')).then(|| {
                (
                    n.to_string(),
                    t.split_whitespace().collect::<Vec<_>>().join(" "),
                )
            })
        })
        .collect()
}

/// Evidence in a parameter's type: a listed crate's path or a name
/// imported from one (`&reqwest::Client`, `&PgPool`).
fn type_evidence(cx: &Cx<'_, '_>, ty: &str) -> Option<String> {
    let idents: Vec<&str> = ty
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    idents.iter().find_map(|id| {
        if network::is_crate(id) && ty.contains(&format!("{id}::")) {
            return Some(format!("a type of the crate `{id}`"));
        }
        cx.imports
            .iter()
            .find(|(n, _)| n == id)
            .map(|(n, k)| format!("`{n}` imported from `{k}`"))
    })
}

/// Looks for evidence in what it visits; with `call_words`, a call
/// anywhere named for a remote operation counts too (the body of a
/// function the attempt calls, what made a value the loop uses).
struct Finder<'x, 'c, 'b> {
    cx: &'x Cx<'c, 'b>,
    call_words: bool,
    /// Names count (a client's receiver or argument, a value named for an
    /// address, a call through a client's module, a failure named for a
    /// remote refusal: a local socket is refused too); off, only crate
    /// paths, imported names, URLs and network programs do.
    names: bool,
    found: Option<String>,
}

impl<'x, 'c, 'b> Finder<'x, 'c, 'b> {
    fn new(cx: &'x Cx<'c, 'b>, call_words: bool) -> Self {
        Finder {
            cx,
            call_words,
            names: true,
            found: None,
        }
    }

    fn set(&mut self, w: String) {
        if self.found.is_none() {
            self.found = Some(w);
        }
    }

    fn path_segments(&mut self, segs: &[String]) {
        let Some(first) = segs.first() else { return };
        let joined = segs.join("::");
        if segs.len() >= 2 && network::is_crate(first) {
            return self.set(format!("a path of the crate `{first}` (`{joined}`)"));
        }
        for (m, names) in network::NET_MODULES {
            if joined.starts_with(&format!("{m}::"))
                && segs.iter().any(|s| names.contains(&s.as_str()))
            {
                return self.set(format!("a network type (`{joined}`)"));
            }
        }
        if let Some((n, k)) = self.cx.imports.iter().find(|(n, _)| n == first) {
            return self.set(format!("`{n}` (imported from `{k}`)"));
        }
        if let Some(s) = segs.iter().find(|s| {
            network::REMOTE_ERRORS.contains(&s.as_str()) || network::remote_failure_name(s)
        }) && self.names
        {
            self.set(format!("a remote failure (`{joined}`, `{s}`)"));
        }
    }

    fn url(&mut self, v: &str) {
        let lower = v.to_ascii_lowercase();
        if let Some(hp) = host_port(&lower) {
            return self.set(format!("a host and port (`{hp}`)"));
        }
        for s in network::SCHEMES {
            let s = format!("{s}://");
            // (the scheme starts the literal or follows a non-letter)
            let at = lower
                .match_indices(&s)
                .find(|(i, _)| *i == 0 || !lower.as_bytes()[i - 1].is_ascii_alphanumeric());
            if let Some((i, _)) = at {
                let host = lower[i + s.len()..]
                    .split(['/', '?', '#', '"'])
                    .next()
                    .unwrap_or("");
                let host = host.rsplit('@').next().unwrap_or(host);
                let bare = host.rsplit_once(':').map_or(host, |(h, _)| h);
                if !matches!(bare, "localhost" | "127.0.0.1" | "0.0.0.0" | "[::1]") {
                    let shown: String = v.chars().take(48).collect();
                    return self.set(format!("a URL (`{shown}`)"));
                }
            }
        }
    }
}

/// The names along a receiver chain (`self.inner.pd_client` -> inner,
/// pd_client; `self.client().get()` -> client, get).
fn chain_names(e: &Expr, out: &mut Vec<String>) {
    let mut cur = e;
    for _ in 0..16 {
        match cur {
            Expr::Field(f) => {
                if let syn::Member::Named(n) = &f.member {
                    out.push(n.to_string());
                }
                cur = &f.base;
            }
            Expr::MethodCall(m) => {
                out.push(m.method.to_string());
                cur = &m.receiver;
            }
            Expr::Path(p) => {
                if let Some(s) = p.path.segments.last() {
                    out.push(s.ident.to_string());
                }
                break;
            }
            Expr::Paren(p) => cur = &p.expr,
            Expr::Reference(r) => cur = &r.expr,
            Expr::Await(a) => cur = &a.base,
            Expr::Try(t) => cur = &t.expr,
            Expr::Call(c) => {
                if let Expr::Path(p) = &*c.func
                    && let Some(s) = p.path.segments.last()
                {
                    out.push(s.ident.to_string());
                }
                break;
            }
            _ => break,
        }
    }
}

impl<'a> Visit<'a> for Finder<'_, '_, '_> {
    fn visit_item(&mut self, _: &'a Item) {}

    fn visit_path(&mut self, p: &'a syn::Path) {
        if self.found.is_none() {
            let segs = super::segments(p);
            self.path_segments(&segs);
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_lit_str(&mut self, l: &'a syn::LitStr) {
        if self.found.is_none() {
            self.url(&l.value());
        }
    }

    fn visit_macro(&mut self, m: &'a syn::Macro) {
        if self.found.is_some() {
            return;
        }
        // Macro arguments are tokens: URLs in their string literals, and
        // a listed crate's path or an imported name.
        let toks: Vec<TokenTree> = flatten(m.tokens.clone());
        for (i, t) in toks.iter().enumerate().take(4096) {
            match t {
                TokenTree::Literal(l) => self.url(&l.to_string()),
                TokenTree::Ident(id) => {
                    let id = id.to_string();
                    let path_next =
                        matches!(toks.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                    if path_next && network::is_crate(&id) {
                        self.set(format!("a path of the crate `{id}`"));
                    } else if let Some((n, k)) = self.cx.imports.iter().find(|(n, _)| *n == id) {
                        self.set(format!("`{n}` (imported from `{k}`)"));
                    }
                }
                _ => {}
            }
            if self.found.is_some() {
                return;
            }
        }
    }

    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        if self.found.is_none() {
            let method = m.method.to_string();
            if self.names
                && (network::REMOTE_ERRORS.contains(&method.as_str())
                    || network::remote_failure_name(&method))
            {
                self.set(format!("a remote failure (`.{method}()`)"));
            }
            let mut names = Vec::new();
            chain_names(&m.receiver, &mut names);
            if !self.names {
                names.clear();
            }
            if let Some((n, w)) = names
                .iter()
                .find_map(|n| word_in(n, network::CLIENT_WORDS).map(|w| (n, w)))
            {
                self.set(format!(
                    "a call on a client (`{n}.{method}(..)`, the word `{w}`)"
                ));
            }
            if self.call_words
                && self.names
                && let Some(w) = word_in(&method, network::REMOTE_CALL_WORDS)
            {
                self.set(format!(
                    "a remote operation (`.{method}(..)`, the word `{w}`)"
                ));
            }
            for a in &m.args {
                self.address_arg(a);
            }
        }
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
        if self.found.is_none() {
            if self.call_words
                && self.names
                && let Expr::Path(p) = &*c.func
                && let Some(n) = p.path.segments.last().map(|s| s.ident.to_string())
                && let Some(w) = word_in(&n, network::REMOTE_CALL_WORDS)
            {
                self.set(format!("a remote operation (`{n}(..)`, the word `{w}`)"));
            }
            for a in &c.args {
                self.address_arg(a);
            }
            // A call through a client's module or type of another crate
            // (`cluster_client::launch()`, `RpcClient::new(..)`; not this
            // crate's `crate::service::client::..`, often a local helper's).
            if let Expr::Path(p) = &*c.func
                && self.names
                && !p.path.segments.first().is_some_and(|s| {
                    matches!(s.ident.to_string().as_str(), "crate" | "super" | "self")
                })
            {
                let n = p.path.segments.len();
                if let Some((seg, w)) =
                    p.path
                        .segments
                        .iter()
                        .take(n.saturating_sub(1))
                        .find_map(|s| {
                            let id = s.ident.to_string();
                            word_in(&id, network::CLIENT_WORDS).map(|w| (id, w))
                        })
                {
                    self.set(format!("a call through `{seg}` (the word `{w}`)"));
                }
            }
            // A process whose program is a network client (`rsync`,
            // `curl`): what it runs reaches another machine.
            if let Expr::Path(p) = &*c.func
                && p.path.segments.last().is_some_and(|s| s.ident == "new")
                && p.path.segments.iter().any(|s| s.ident == "Command")
                && let Some(Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(l),
                    ..
                })) = c.args.first()
            {
                let prog = l.value();
                let base = prog.rsplit('/').next().unwrap_or(&prog).to_string();
                if super::reach::NETWORK_PROGRAMS.contains(&base.as_str()) {
                    self.set(format!("a network program (`Command::new(\"{base}\")`)"));
                }
            }
        }
        syn::visit::visit_expr_call(self, c);
    }
}

impl Finder<'_, '_, '_> {
    /// A value named for a remote end handed to a call (`connect(&url)`,
    /// `get(self.endpoint.clone())`).
    fn address_arg(&mut self, a: &Expr) {
        if !self.names {
            return;
        }
        let mut names = Vec::new();
        chain_names(a, &mut names);
        if let Some((n, w)) = names
            .iter()
            .find_map(|n| word_in(n, network::ADDRESS_WORDS).map(|w| (n, w)))
        {
            return self.set(format!("`{n}` handed to a call (the word `{w}`)"));
        }
        // A connection handed to a call (`new_acquired(client.clone(),
        // ..)`, `run(&mut conn)`): the callee talks through it. The value
        // itself, not a property of it (`session_id`).
        // (`client`, `&client`, `client.clone()`; not `session.handle()`.)
        let bare = match names.as_slice() {
            [_] => true,
            [m, _] => m == "clone",
            _ => false,
        };
        if bare
            && let Some(root) = names.last()
            && !network::in_process_sender(root)
            && let Some(w) = word_in(root, network::HANDLE_WORDS)
            && word_in(root, network::PROPERTY_WORDS).is_none()
        {
            self.set(format!(
                "`{root}`, a connection, handed to a call (the word `{w}`)"
            ));
        }
    }
}
