//! Waits that look like retries, read from evidence around the loop
//! rather than from its shape (thirteenth pass, `docs/loop-review.md`).
//!
//! The shape of a retry (a failure goes round, success leaves) is also the
//! shape of a wait: for a node to come up, a transaction to be confirmed,
//! a local server to listen. Two features of the loop's function told the
//! two apart on the reviewed Rust loop findings (198: the eleventh and
//! twelfth passes, meilisearch's, and the thirteenth pass's held-out set;
//! none of the 67 right ones has either, 41 of the 131 wrong ones do):
//!
//! - the function is named for waiting: a word of its name is `wait`,
//!   `poll`, `ready` or `readiness`, or it ends in `confirm`/`confirmation`
//!   (`wait_for_node`, `submit_tx_and_wait`, `send_and_confirm`), and no
//!   pass opens a connection (`wait_for_db` connecting again is a retry);
//! - the function names a loopback host (`"127.0.0.1"`, `"localhost"`,
//!   `"[::1]"`, `Ipv4Addr::LOCALHOST`, a libpq `host=localhost` or
//!   `host=/socket/dir`) before the loop ends: what it
//!   reaches runs on this machine, a process the program started (a dev
//!   server, a local node, a debugger's mux).
//!
//! A shrinking list of candidates tried at once (`while !candidates
//! .is_empty()` whose body takes from the list or hands it `&mut` to the
//! call that picks the next one) is fallback, not a retry of one call.

/// The word of a function's name that says it waits, if one does.
pub(super) fn named_for_waiting(fname: &str) -> Option<&'static str> {
    let lower = fname.to_ascii_lowercase();
    let words: Vec<&str> = lower.split('_').filter(|w| !w.is_empty()).collect();
    for w in &words {
        match *w {
            "wait" | "waits" | "waiting" => return Some("wait"),
            "poll" | "polling" => return Some("poll"),
            "ready" | "readiness" => return Some("ready"),
            _ => {}
        }
    }
    match words.last() {
        Some(&("confirm" | "confirmation" | "confirmed")) => Some("confirm"),
        _ => None,
    }
}

/// A body (no whitespace) that opens a connection (`Pool::connect(url)`,
/// `.connect().await`, `connect_with(..)`): what fails there is the remote
/// end, and making it again is a retry, even in a function named for
/// waiting.
pub(super) fn connects(body_compact: &str) -> bool {
    body_compact.contains("connect(") || body_compact.contains("connect_with(")
}

/// Loopback hosts written in code (lower case, no whitespace).
const LOOPBACK: &[&str] = &[
    "\"127.0.0.1",
    "//127.0.0.1",
    "\"localhost",
    "//localhost",
    "\"[::1]",
    "//[::1]",
    "@localhost",
    "@127.0.0.1",
    "\"::1\"",
    "ipv4addr::localhost",
    "ipv6addr::localhost",
    // A libpq key/value connection string (`"host=localhost port=6432
    // .."`); a host that starts with `/` is a Unix-domain socket's
    // directory (tokio-postgres `Config`, key `host`: "if the host starts
    // with a `/` character it is treated as the path to the directory
    // containing Unix domain sockets", as libpq reads it).
    "host=localhost",
    "host=127.0.0.1",
    "host=/",
];

/// The loopback host the text names, if any (`text` is the function's
/// source up to the loop's end).
pub(super) fn loopback(text: &str) -> Option<&'static str> {
    let compact: String = text
        .split_whitespace()
        .collect::<String>()
        .to_ascii_lowercase();
    LOOPBACK
        .iter()
        .find(|h| compact.contains(*h))
        .map(|h| {
            h.trim_start_matches(['"', '@'])
                .trim_start_matches("//")
                .trim_end_matches('"')
                .trim_start_matches("ipv4addr::")
                .trim_start_matches("ipv6addr::")
        })
        .or_else(|| in_literal(text))
}

/// `127.0.0.1` inside a string literal, wherever in it (a format string
/// `"{protocol}:127.0.0.1:{port}"`), as a whole address.
fn in_literal(text: &str) -> Option<&'static str> {
    const ADDR: &str = "127.0.0.1";
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit() || c == '.');
    crate::systems::rust::extract::literals::in_strings(text)
        .any(|(i, _, inside)| {
            inside
                && text[i..].starts_with(ADDR)
                && !digit(text[..i].chars().next_back())
                && !digit(text[i + ADDR.len()..].chars().next())
        })
        .then_some(ADDR)
}

/// A local process the function starts before the loop
/// (`command.spawn()`, `Command::new(..).spawn()`, `spawn_into()`), whose
/// program is no network client: what the loop asks next is that process.
/// `text` is the function's source up to the loop.
pub(super) fn spawns_process(text: &str) -> Option<&'static str> {
    let compact: String = text.split_whitespace().collect();
    let lower = compact.to_ascii_lowercase();
    if !lower.contains("command") {
        return None;
    }
    let net = super::reach::NETWORK_PROGRAMS
        .iter()
        .any(|p| lower.contains(&format!("(\"{p}\"")));
    if net {
        return None;
    }
    [".spawn()", ".spawn_into()"]
        .into_iter()
        .find(|w| compact.contains(w))
}

/// `while !list.is_empty()` whose body takes from `list` (`pop`,
/// `pop_front`, `remove`, `swap_remove`, `drain`) or hands it `&mut` to a
/// call: each pass tries another candidate. Returns the list's name.
pub(super) fn candidate_list(cond: &syn::Expr, body_compact: &str) -> Option<String> {
    let syn::Expr::Unary(u) = cond else {
        return None;
    };
    if !matches!(u.op, syn::UnOp::Not(_)) {
        return None;
    }
    let syn::Expr::MethodCall(m) = &*u.expr else {
        return None;
    };
    if m.method != "is_empty" || !m.args.is_empty() {
        return None;
    }
    let syn::Expr::Path(p) = &*m.receiver else {
        return None;
    };
    let name = p.path.get_ident()?.to_string();
    let takes = [
        ".pop()",
        ".pop_front()",
        ".pop_back()",
        ".remove(",
        ".swap_remove(",
        ".drain(",
    ]
    .iter()
    .any(|t| body_compact.contains(&format!("{name}{t}")));
    let handed = body_compact.contains(&format!("&mut{name}"))
        || body_compact.contains(&format!("&mut*{name}"));
    (takes || handed).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_for_waiting_are_words_not_substrings() {
        assert_eq!(named_for_waiting("wait_for_node"), Some("wait"));
        assert_eq!(named_for_waiting("submit_tx_and_wait"), Some("wait"));
        assert_eq!(named_for_waiting("send_and_confirm"), Some("confirm"));
        assert_eq!(named_for_waiting("ensure_ready"), Some("ready"));
        assert_eq!(named_for_waiting("await_leader"), None);
        assert_eq!(named_for_waiting("confirm_order"), None);
        assert_eq!(named_for_waiting("call_until_success"), None);
        assert_eq!(named_for_waiting("already_running"), None);
    }

    #[test]
    fn loopback_hosts_in_literals() {
        assert_eq!(
            loopback("get(\"http://127.0.0.1:9090/x\")"),
            Some("127.0.0.1")
        );
        assert_eq!(
            loopback("connect((\"localhost\", port))"),
            Some("localhost")
        );
        assert_eq!(
            loopback("SocketAddr::from((Ipv4Addr::LOCALHOST, p))"),
            Some("localhost")
        );
        assert_eq!(
            loopback("\"postgresql://u:p@localhost:5432/db\""),
            Some("localhost")
        );
        assert_eq!(loopback("let localhost_port = cfg.port;"), None);
        assert_eq!(
            loopback("format!(\"{protocol}:127.0.0.1:{port}\")"),
            Some("127.0.0.1")
        );
        assert_eq!(loopback("\"10.127.0.0.12\""), None);
        assert_eq!(loopback("client.get(\"https://api.example.com\")"), None);
    }

    #[test]
    fn a_list_the_body_takes_from_is_a_candidate_list() {
        let c: syn::Expr = syn::parse_str("!candidates.is_empty()").unwrap();
        assert_eq!(
            candidate_list(&c, "letr=sample(&mutcandidates).await;"),
            Some("candidates".into())
        );
        assert_eq!(
            candidate_list(&c, "letn=candidates.pop();"),
            Some("candidates".into())
        );
        assert_eq!(candidate_list(&c, "call(&candidates).await"), None);
        let other: syn::Expr = syn::parse_str("errors.len() <= 3").unwrap();
        assert_eq!(candidate_list(&other, "errors.pop()"), None);
    }
}
