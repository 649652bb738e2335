//! What a loop re-attempts, and whether that can leave the process.
//!
//! A loop is a retry of a remote operation only when what it attempts
//! again can reach another machine. The attempts are the expressions whose
//! result the body tests for failure (the scrutinee of a `match` with an
//! `Ok`/`Err` arm, of `if let Ok/Err(..) =`, `while let Err(..) =`, a
//! let-else, the receiver of `.is_ok()`/`.is_err()`; a plain local in
//! those places is followed to its `let` in the body). Each attempt is
//! peeled down to its call (`.await`, `?`, `.map_err(..)`, `.context(..)`
//! are the call's) and read:
//!
//! - known local work: the file system (`std::fs`, `tokio::fs`, `fs::..`,
//!   `File::open`), spawning or signalling a local process (`Command`,
//!   `kill`, `send_signal`), binding or accepting on a local socket
//!   (`bind`, `accept`: they wait for a port to free or a peer to come),
//!   a Unix-domain socket (an address or stream named `unix`: the same
//!   host), parsing (`parse`, `from_str`), a call named for the file
//!   system (`fs_rename`, `sys.fs_file_try_lock`: a project's file-system
//!   trait);
//! - anything else (an awaited call on a client, a connection, a stub, a
//!   request builder, a network crate, or a helper whose body is not read)
//!   can leave the process.
//!
//! A loop whose every attempt is known local work is not a retry of a
//! remote operation: it hammers no server, so a delay with jitter, a limit
//! or a predicate is not due (a cgroup directory removed again until its
//! tasks leave, a port bound again until the old process frees it). A
//! process whose program is a network client (`curl`, `kubectl`, `git`..)
//! is not local work.

use super::*;
use syn::Pat;

/// The call a loop attempts, when every attempt of the body is known local
/// work (`fs::remove_dir`, `.bind(..)`); `None` when one may leave the
/// process or no attempt was found.
pub(super) fn local_attempt(
    spans: &Spans<'_>,
    body: &Block,
    cond: Option<&Expr>,
) -> Option<String> {
    let mut f = Attempts {
        found: Vec::new(),
        lets: Vec::new(),
    };
    if let Some(c) = cond {
        f.visit_expr(c);
    }
    f.visit_block(body);
    if f.found.is_empty() || f.found.len() > 64 {
        return None;
    }
    let mut first = None;
    for a in &f.found {
        let a = resolve(a, &f.lets);
        let op = operation(a);
        let what = local(spans, op)?;
        first.get_or_insert(what);
    }
    first
}

/// The calls the body tests for failure (each peeled to its call and a
/// tested local followed to its `let`), at most 64; empty when none is
/// found ([`super::remote`] reads what they reach).
pub(super) fn attempt_ops<'a>(body: &'a Block, cond: Option<&'a Expr>) -> Vec<&'a Expr> {
    let mut f = Attempts {
        found: Vec::new(),
        lets: Vec::new(),
    };
    if let Some(c) = cond {
        f.visit_expr(c);
    }
    f.visit_block(body);
    f.found
        .iter()
        .take(64)
        .map(|a| operation(resolve(a, &f.lets)))
        .collect()
}

struct Attempts<'a> {
    found: Vec<&'a Expr>,
    /// `let name = init;` in the body, to follow a tested local to its call.
    lets: Vec<(String, &'a Expr)>,
}

fn result_variant(p: &Pat) -> bool {
    super::shape::pat_variant(p).is_some_and(|(n, _)| n == "Ok" || n == "Err")
}

impl<'a> Visit<'a> for Attempts<'a> {
    fn visit_item(&mut self, _: &'a Item) {}
    fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}

    fn visit_local(&mut self, l: &'a syn::Local) {
        if let Some(init) = &l.init {
            if let Some(name) = pat_ident(&l.pat) {
                self.lets.push((name, &init.expr));
            }
            // `let Err(e) = op() else { .. }`, `let Ok(v) = op() else { .. }`.
            if init.diverge.is_some() && result_variant(&l.pat) {
                self.found.push(&init.expr);
            }
        }
        syn::visit::visit_local(self, l);
    }

    fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
        if m.arms.iter().any(|a| result_variant(&a.pat)) {
            self.found.push(&m.expr);
        }
        syn::visit::visit_expr_match(self, m);
    }

    fn visit_expr_let(&mut self, l: &'a syn::ExprLet) {
        if result_variant(&l.pat) {
            self.found.push(&l.expr);
        }
        syn::visit::visit_expr_let(self, l);
    }

    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        if m.args.is_empty() && (m.method == "is_ok" || m.method == "is_err") {
            self.found.push(&m.receiver);
        }
        syn::visit::visit_expr_method_call(self, m);
    }
}

/// A tested local (`match result {..}`) followed to its `let` in the body.
fn resolve<'a>(e: &'a Expr, lets: &[(String, &'a Expr)]) -> &'a Expr {
    let mut cur = peel(e);
    for _ in 0..4 {
        let Expr::Path(p) = cur else { break };
        let Some(id) = p.path.get_ident() else { break };
        let Some((_, init)) = lets.iter().rev().find(|(n, _)| id == n) else {
            break;
        };
        cur = peel(init);
    }
    cur
}

fn peel(e: &Expr) -> &Expr {
    let mut cur = e;
    for _ in 0..16 {
        cur = match cur {
            Expr::Paren(p) => &p.expr,
            Expr::Reference(r) => &r.expr,
            Expr::Await(a) => &a.base,
            Expr::Try(t) => &t.expr,
            _ => break,
        };
    }
    cur
}

/// Methods that only reshape a call's result.
const ADAPTERS: &[&str] = &[
    "map_err",
    "map",
    "context",
    "with_context",
    "wrap_err",
    "or_err",
    "or_err_with",
    "ok",
    "err",
    "as_ref",
    "as_mut",
    "into",
];

/// The call an attempt makes, under the adapters that reshape its result.
fn operation(e: &Expr) -> &Expr {
    let mut cur = peel(e);
    for _ in 0..16 {
        match cur {
            Expr::MethodCall(m) if ADAPTERS.contains(&m.method.to_string().as_str()) => {
                cur = peel(&m.receiver);
            }
            _ => break,
        }
    }
    cur
}

/// Free functions (the last segment of the path) that are local work.
const LOCAL_FNS: &[&str] = &[
    "remove_dir",
    "remove_dir_all",
    "remove_file",
    "rename",
    "create_dir",
    "create_dir_all",
    "hard_link",
    "symlink",
    "canonicalize",
    "bind",
    "accept",
    "kill",
    "parse",
    "from_str",
    "from_slice",
    "from_utf8",
];

/// Methods that are local work whatever they are called on.
const LOCAL_METHODS: &[&str] = &["bind", "accept", "kill", "parse", "duration_since"];

/// Programs that reach the network: a process running one is no local work.
pub(super) const NETWORK_PROGRAMS: &[&str] = &[
    "curl",
    "wget",
    "kubectl",
    "helm",
    "aws",
    "gcloud",
    "az",
    "git",
    "ssh",
    "scp",
    "rsync",
    "docker",
    "podman",
    "psql",
    "mysql",
    "redis-cli",
    "nc",
    "grpcurl",
];

/// Why the call `op` is local work (its text), or `None`.
pub(super) fn local(spans: &Spans<'_>, op: &Expr) -> Option<String> {
    let compact: String = spans.text(op).split_whitespace().collect();
    // Something awaited inside the call (`from_slice(&client.get(u).send()
    // .await?..)`) is attempted with it: not known local.
    if compact.contains(".await") {
        return None;
    }
    let short = |s: &str| {
        let s = s.split('(').next().unwrap_or(s);
        format!("{s}(..)")
    };
    // A Unix-domain socket: the peer is a process on this host.
    let unix = without_strings(&compact)
        .to_ascii_lowercase()
        .contains("unix");
    // A local process, unless its program is a network client.
    if compact.contains("Command::new(") {
        let lower = compact.to_ascii_lowercase();
        let net = NETWORK_PROGRAMS.iter().any(|p| {
            lower.contains(&format!("command::new(\"{p}\""))
                || lower.contains(&format!("command::new(\"/usr/bin/{p}\""))
        });
        return (!net).then(|| "a local process (`Command`)".to_string());
    }
    match op {
        Expr::Call(c) => {
            let Expr::Path(p) = &*c.func else { return None };
            let segs = super::segments(&p.path);
            let last = segs.last()?.as_str();
            let name = segs.join("::");
            let fs = segs.iter().any(|s| s == "fs")
                || (segs.len() >= 2
                    && matches!(segs[segs.len() - 2].as_str(), "File" | "OpenOptions"));
            // An embedded database opened from its directory
            // (`DB::open_cf_descriptors(&opts, &path, cfs)`,
            // `rocksdb::TransactionDB::open(..)`): a store of this host; the
            // open fails while another instance still holds its lock.
            let embedded = segs.iter().any(|s| s == "rocksdb")
                || (segs.len() >= 2
                    && segs[segs.len() - 2].ends_with("DB")
                    && last.starts_with("open"));
            let known = fs
                || embedded
                || LOCAL_FNS.contains(&last)
                || last.starts_with("fs_")
                || last.contains("signal")
                || segs.iter().any(|s| s.starts_with("Unix"))
                // (`ipc::connect(..)`: inter-process, the same host)
                || segs
                    .iter()
                    .any(|s| super::network::words(s).iter().any(|w| w == "ipc"))
                || unix;
            known.then(|| format!("`{name}(..)`"))
        }
        Expr::MethodCall(m) => {
            let method = m.method.to_string();
            // A method named for the file system (`sys.fs_rename(..)`,
            // `fs_file_try_lock(..)`): a project's file-system trait.
            if LOCAL_METHODS.contains(&method.as_str())
                || method.starts_with("fs_")
                || unix
                || super::network::words(&method).iter().any(|w| w == "ipc")
            {
                return Some(format!("`.{method}(..)`"));
            }
            // A chain through a call named for the file system
            // (`sys.fs_metadata(p).and_then(|m| m.modified())`).
            if fs_named_in_chain(&m.receiver) {
                return Some(short(&compact));
            }
            // A chain rooted in a local call (`fs::File::open(p)?.read_to_end(..)`,
            // `tokio::fs::metadata(p).await`).
            let root = chain_root(&m.receiver);
            match root {
                Expr::Call(_) => local(spans, root).map(|_| short(&compact)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A method named for the file system (`fs_*`) in the chain below `e`.
fn fs_named_in_chain(e: &Expr) -> bool {
    let mut cur = peel(e);
    for _ in 0..16 {
        match cur {
            Expr::MethodCall(m) => {
                if m.method.to_string().starts_with("fs_") {
                    return true;
                }
                cur = peel(&m.receiver);
            }
            _ => break,
        }
    }
    false
}

/// The first call of a method chain (`a::b(x).c().d()` -> `a::b(x)`).
fn chain_root(e: &Expr) -> &Expr {
    let mut cur = peel(e);
    for _ in 0..16 {
        match cur {
            Expr::MethodCall(m) => cur = peel(&m.receiver),
            _ => break,
        }
    }
    cur
}

/// The text with what string literals hold left out (`"/unix_time"` names
/// no socket).
pub(super) fn without_strings(t: &str) -> String {
    crate::systems::rust::extract::literals::in_strings(t)
        .filter(|(_, _, inside)| !inside)
        .map(|(_, c, _)| c)
        .collect()
}
