//! Readiness waits that name no wait (eighteenth pass,
//! `docs/loop-review.md`): a loop whose attempt reaches a socket of this
//! host, and a loop where only a not-ready error goes round.
//!
//! - **A local socket.** A Unix-domain or vsock socket has its peer on this
//!   machine (a daemon, a child process, the agent of a VM this program
//!   started): a pass that fails finds it not listening yet, and no server
//!   is retried. The attempt reaches one when the socket is named (a type:
//!   `UnixStream`, `VsockAddr`, `AddressFamily::Vsock`, `UnixConnector`; an
//!   address: `"unix://.."`, `"vsock://.."`) in the loop, in a value or
//!   closure made before it and used in it (`let address =
//!   format!("unix://{path}")`, `let try_once = || UnixStream::connect(p)`),
//!   or in a function of this file the loop calls, two calls deep
//!   (`connect_helper(&self.uds, ..)` whose body is `UnixStream::connect`),
//!   or in every value the file's struct literals give a field of `self`
//!   the loop uses (`self.client_config`, built with `Config::host_path`),
//!   or when the file's HTTP client is one over a Unix connector (it
//!   imports `hyperlocal` and no TCP or TLS connector). A text that names
//!   TCP too (`TcpStream`, `"tcp://"`, an `http(s)://` URL) may go either
//!   way and is not taken (redis-rs `ConnectionAddr::Unix` beside `Tcp`).
//! - **Only a not-ready error.** When the failures are sorted and the one
//!   kind that goes round is named not ready (`UpcallServerNotReady`,
//!   `NOT_READY`, `is_not_ready()`), each pass asks whether a service has
//!   come up; every other failure leaves (kata-containers dragonball
//!   `handle_request_with_retry`). A remote failure named beside it
//!   (`Unavailable`, `StatusCode`) keeps the loop a retry.

use super::network;
use super::reach::without_strings;
use super::remote::Cx;
use super::*;

/// Functions of this file read for a local socket, at most.
const CALLEE_BUDGET: usize = 16;

/// Type and path words that name a Unix-domain or vsock socket.
const SOCKET_NAMES: &[&str] = &[
    "UnixStream",
    "UnixListener",
    "UnixDatagram",
    "UnixSocketAddr",
    "UnixConnector",
    "UnixClientExt",
    "VsockStream",
    "VsockAddr",
    "VsockListener",
    "VsockConnector",
    "AddressFamily::Vsock",
    "AddressFamily::Unix",
    "AF_UNIX",
    "AF_VSOCK",
    "hyperlocal::",
    "tokio_vsock",
    "vsock::",
];

/// Address schemes of a Unix-domain or vsock socket, as a string starts.
const SOCKET_SCHEMES: &[&str] = &["\"unix:", "\"vsock:", "\"hvsock:", "\"unix+"];

/// What says the text may reach another machine over TCP.
const TCP_NAMES: &[&str] = &[
    "TcpStream",
    "TcpSocket",
    "TcpListener",
    "HttpConnector",
    "HttpsConnector",
];

/// A Unix-domain or vsock socket named in `text` (code or string), when
/// nothing there names TCP.
fn names_socket(text: &str) -> Option<String> {
    let code = without_strings(text);
    let lower = text.to_ascii_lowercase();
    if TCP_NAMES.iter().any(|t| code.contains(t))
        || ["\"tcp://", "\"http://", "\"https://", "\"grpc://"]
            .iter()
            .any(|s| lower.contains(s))
    {
        return None;
    }
    if let Some(n) = SOCKET_NAMES.iter().find(|n| code.contains(*n)) {
        return Some(format!("`{}`", n.trim_end_matches("::")));
    }
    // A Postgres client configuration whose host is a socket directory
    // (rust-postgres `Config::host_path`: "Adds a Unix socket host to the
    // configuration").
    if code.contains("Config") && code.contains(".host_path(") {
        return Some("a Unix-socket host (`Config::host_path`)".into());
    }
    SOCKET_SCHEMES
        .iter()
        .find(|s| lower.contains(*s))
        .map(|s| format!("a `{}` address", s.trim_start_matches('"')))
}

/// The names called in `text` (`name(`), outside strings, at most 64.
pub(super) fn called_names(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut start = None;
    for (i, &c) in b.iter().enumerate() {
        if c.is_ascii_alphanumeric() || c == b'_' {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take()
            && c == b'('
            && out.len() < 64
        {
            out.push(&text[s..i]);
        }
    }
    out
}

/// A function of this file named `name` whose text (or that of one it
/// calls, `depth` deep) names a local socket.
fn callee_socket(cx: &Cx<'_, '_>, name: &str, depth: u32, budget: &mut usize) -> Option<String> {
    if depth == 0 || name == cx.fname {
        return None;
    }
    for (n, _, block, _) in cx.bodies.iter().filter(|(n, ..)| n == name).take(4) {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let text = cx.spans.block_text(block);
        if let Some(w) = names_socket(text) {
            return Some(format!("`{n}` of this file, which names {w}"));
        }
        let code = without_strings(text);
        for m in called_names(&code) {
            if m != n.as_str()
                && let Some(w) = callee_socket(cx, m, depth - 1, budget)
            {
                return Some(format!("`{n}` of this file, which calls {w}"));
            }
        }
    }
    None
}

/// How the loop's attempt reaches a Unix-domain or vsock socket of this
/// host, if it does.
pub(super) fn local_socket(cx: &Cx<'_, '_>, the_loop: &Expr, before: &[&Stmt]) -> Option<String> {
    let spans = cx.spans;
    let loop_text = spans.text(the_loop);
    if let Some(w) = names_socket(loop_text) {
        return Some(format!("the loop names {w}"));
    }
    // A value or closure made before the loop and used in it.
    for s in before.iter().rev().take(32) {
        let Stmt::Local(l) = s else { continue };
        let (Some(name), Some(init)) = (pat_ident(&l.pat), &l.init) else {
            continue;
        };
        if contains_word(loop_text, &name)
            && let Some(w) = names_socket(spans.text(&*init.expr))
        {
            return Some(format!("the loop uses `{name}`, made before it with {w}"));
        }
    }
    // A function of this file the loop calls.
    let code = without_strings(loop_text);
    let mut budget = CALLEE_BUDGET;
    for n in called_names(&code) {
        if let Some(w) = callee_socket(cx, n, 2, &mut budget) {
            return Some(format!("the loop calls {w}"));
        }
    }
    // The file's HTTP client goes over a Unix connector.
    // (the plain search first: most files never name it)
    memchr::memmem::find(spans.source().as_bytes(), b"hyperlocal")?;
    let file = without_strings(spans.source());
    if file.contains("hyperlocal") && !TCP_NAMES.iter().any(|t| file.contains(t)) {
        return Some(
            "the file's HTTP client is one over a Unix-domain socket (`hyperlocal`)".into(),
        );
    }
    None
}

impl LoopFinder<'_, '_, '_, '_, '_> {
    /// A field of `self` the loop uses (`self.client_config.connect(..)`)
    /// whose every value in the file's struct literals names a local
    /// socket: the server type holds a client of a process on this host.
    pub(super) fn field_socket(&self, the_loop: &Expr) -> Option<String> {
        let ty = self.impl_ty?;
        let code = without_strings(self.ev.spans.text(the_loop));
        let mut seen: Vec<&str> = Vec::new();
        for (i, _) in code.match_indices("self.").take(64) {
            let field: &str = code[i + 5..]
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("");
            if field.is_empty() || seen.contains(&field) {
                continue;
            }
            seen.push(field);
            let inits = self.ev.field_inits(ty, field);
            if inits.is_empty() {
                continue;
            }
            let words: Option<Vec<String>> = inits
                .iter()
                .map(|e| names_socket(self.ev.spans.text(*e)))
                .collect();
            if let Some(w) = words.and_then(|w| w.into_iter().next()) {
                return Some(format!(
                    "the loop uses `self.{field}`, which this file builds with {w}"
                ));
            }
        }
        None
    }
}

/// The not-ready error that alone goes round, when the failures are
/// sorted and no remote failure is named beside it.
pub(super) fn only_not_ready(spans: &Spans<'_>, the_loop: &Expr) -> Option<String> {
    let code = without_strings(spans.text(the_loop));
    let idents = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .take(4096);
    let mut found = None;
    for id in idents {
        if network::REMOTE_ERRORS.contains(&id) || network::remote_failure_name(id) {
            return None;
        }
        let w = network::words(id);
        if found.is_none() && w.windows(2).any(|p| p[0] == "not" && p[1] == "ready") {
            found = Some(id.to_string());
        }
    }
    found
}

/// Words after "local" in a message that name a peer on this host.
const LOCAL_PEERS: &[&str] = &[
    "node", "server", "daemon", "agent", "process", "instance", "socket", "proxy", "service",
];

/// A string of the loop that names its peer local ("failed to connect to
/// local nym-node": nymtech/nym `throughput_tester`, sixteenth pass): the
/// program's own words say the peer runs on this host.
pub(super) fn names_local_peer(spans: &Spans<'_>, the_loop: &Expr) -> Option<String> {
    let lower = spans.text(the_loop).to_ascii_lowercase();
    lower.match_indices("local ").take(64).find_map(|(i, _)| {
        // (inside a string: an odd number of quotes before it)
        let inside = lower[..i].matches('"').count() % 2 == 1;
        let word: String = lower[i + 6..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
            .take(64)
            .collect();
        let peer = LOCAL_PEERS.iter().any(|p| {
            word == *p || word.ends_with(&format!("-{p}")) || word.ends_with(&format!("_{p}"))
        });
        (inside && peer).then(|| format!("local {word}"))
    })
}

/// A match that leaves only on a success in one state (`Ok(status) if
/// status.current_state == ServiceState::Stopped => break`) beside a
/// catch-all that goes round: a success in another state goes round as a
/// failure does, so each pass asks for a state (mullvad/mullvadvpn-app
/// `stop_and_delete_service`, sixteenth pass). A test of a response's
/// status (`resp.status() == 200`) is no state: it is a retry's success.
pub(super) fn polls_state(spans: &Spans<'_>, body: &Block) -> Option<String> {
    body.stmts.iter().take(64).find_map(|s| {
        let Stmt::Expr(Expr::Match(m), _) = s else {
            return None;
        };
        let catch_all = m.arms.iter().any(|a| matches!(a.pat, syn::Pat::Wild(_)));
        if !catch_all {
            return None;
        }
        m.arms.iter().find_map(|a| {
            let syn::Pat::Guard(g) = &a.pat else {
                return None;
            };
            let ok = matches!(&*g.pat, syn::Pat::TupleStruct(t) if t.path.is_ident("Ok"));
            let guard: String = spans.text(&*g.guard).split_whitespace().collect();
            let state = network::words(&guard).iter().any(|w| w == "state");
            (ok && state && guard.contains("==") && super::shape::leaves(&a.body)).then_some(guard)
        })
    })
}
