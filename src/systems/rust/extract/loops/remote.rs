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
                && let Some(w) = callee_evidence(cx, &n, 2, &mut budget)
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
/// the functions of this file it calls, `depth` calls deep).
fn callee_evidence(cx: &Cx<'_, '_>, name: &str, depth: u32, budget: &mut usize) -> Option<String> {
    if depth == 0 || (name == cx.fname && depth == 2) {
        return None;
    }
    for (n, _, block, _) in cx.bodies.iter().filter(|(n, ..)| n == name).take(4) {
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
                && let Some(w) = callee_evidence(cx, &m, depth - 1, budget)
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
fn params(src: &str, fn_span: Span, fn_start: usize) -> Vec<(String, String)> {
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

/// Names a file imports from a listed crate or network module
/// (`use reqwest::{Client, header};` -> `Client`, `header`), with the
/// crate, read from its `use` declarations' text.
pub(super) fn imports(src: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = src[from..].find("use ") {
        let at = from + i;
        from = at + 4;
        // At the start of a line, after `pub`/`pub(crate)` at most.
        let line_start = src[..at].rfind('\n').map_or(0, |k| k + 1);
        let head = src[line_start..at].trim();
        if !(head.is_empty() || head.starts_with("pub")) {
            continue;
        }
        let Some(end) = src[at..].find(';') else {
            break;
        };
        let tree = src[at + 4..at + end].trim().trim_start_matches("::");
        let first: String = tree
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let module = network::NET_MODULES
            .iter()
            .find(|(m, _)| tree.starts_with(&format!("{m}::")));
        if !network::is_crate(&first) && module.is_none() {
            continue;
        }
        for id in tree
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
        {
            let keep = match module {
                Some((_, names)) => names.contains(&id),
                None => !matches!(id, "self" | "super" | "crate" | "as") && id != first,
            };
            if keep && out.len() < 256 && !out.iter().any(|(n, _)| n == id) {
                out.push((id.to_string(), first.clone()));
            }
        }
    }
    out
}

/// Looks for evidence in what it visits; with `call_words`, a call
/// anywhere named for a remote operation counts too (the body of a
/// function the attempt calls, what made a value the loop uses).
struct Finder<'x, 'c, 'b> {
    cx: &'x Cx<'c, 'b>,
    call_words: bool,
    found: Option<String>,
}

impl<'x, 'c, 'b> Finder<'x, 'c, 'b> {
    fn new(cx: &'x Cx<'c, 'b>, call_words: bool) -> Self {
        Finder {
            cx,
            call_words,
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
        }) {
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

/// A host and port in a literal: `"db.internal:5432"`, or a template
/// whose host part is named for one (`"{host}:{port}"`, `"{}:{}"` is not
/// enough). Loopback hosts are waits, read before.
fn host_port(lower: &str) -> Option<String> {
    let t = lower.trim_matches('"');
    let (h, p) = t.rsplit_once(':')?;
    let port_ok = (!p.is_empty() && p.len() <= 5 && p.chars().all(|c| c.is_ascii_digit()))
        || (p.starts_with('{') && p.ends_with('}'));
    let host_ok = if let Some(name) = h.strip_prefix('{').and_then(|x| x.strip_suffix('}')) {
        word_in(
            name,
            &["host", "hostname", "addr", "address", "ip", "server"],
        )
        .is_some()
    } else {
        !h.is_empty()
            && h.len() <= 253
            && h.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && h.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
            && !matches!(h, "localhost")
            && p.chars().all(|c| c.is_ascii_digit())
    };
    (port_ok && host_ok).then(|| t.chars().take(48).collect())
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
            let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
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
            if network::REMOTE_ERRORS.contains(&method.as_str())
                || network::remote_failure_name(&method)
            {
                self.set(format!("a remote failure (`.{method}()`)"));
            }
            let mut names = Vec::new();
            chain_names(&m.receiver, &mut names);
            if let Some((n, w)) = names
                .iter()
                .find_map(|n| word_in(n, network::CLIENT_WORDS).map(|w| (n, w)))
            {
                self.set(format!(
                    "a call on a client (`{n}.{method}(..)`, the word `{w}`)"
                ));
            }
            if self.call_words
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
        let mut names = Vec::new();
        chain_names(a, &mut names);
        if let Some((n, w)) = names
            .iter()
            .find_map(|n| word_in(n, network::ADDRESS_WORDS).map(|w| (n, w)))
        {
            self.set(format!("`{n}` handed to a call (the word `{w}`)"));
        }
    }
}

/// A token stream's tokens, groups opened (at most 4096).
fn flatten(ts: TokenStream) -> Vec<TokenTree> {
    let mut out = Vec::new();
    let mut stack = vec![ts.into_iter()];
    while let Some(it) = stack.last_mut() {
        match it.next() {
            Some(TokenTree::Group(g)) if out.len() < 4096 && stack.len() < 32 => {
                stack.push(g.stream().into_iter());
            }
            Some(t) if out.len() < 4096 => out.push(t),
            Some(_) => {}
            None => {
                stack.pop();
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_from_network_crates_params_and_host_ports_are_read() {
        let src = "use sqlx::{PgPool, postgres::PgRow as Row};\nuse std::net::{SocketAddr, TcpStream};\nuse std::fs;\n";
        let names: Vec<String> = imports(src).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["PgPool", "postgres", "PgRow", "Row", "TcpStream"]);
        let f = "fn retry<F: FnMut() -> u8>(mut f: F, n: u32) {}";
        let p = params(f, Span::new(0, f.len()), f.len() - 2);
        assert_eq!(p[0], ("f".to_string(), "F".to_string()));
        assert_eq!(p[1].0, "n");
        assert!(host_port("\"db.internal:5432\"").is_some());
        assert!(host_port("{host}:{port}").is_some());
        assert!(host_port("{}:{}").is_none());
        assert!(host_port("localhost:8080").is_none());
        assert!(host_port("error: 404").is_none());
    }
}
