//! The text readers of the remote evidence (`remote.rs`): the names a file
//! imports from network crates, a host and port in a literal, a macro's
//! tokens (split from `remote.rs`).

use super::network::{self, word_in};
use proc_macro2::{TokenStream, TokenTree};

/// Names a file imports from a listed crate or network module
/// (`use reqwest::{Client, header};` -> `Client`, `header`), with the
/// crate, read from its `use` declarations' text.
pub(super) fn imports(src: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    // (memmem: the whole file is searched, once per parsed file)
    for at in memchr::memmem::find_iter(src.as_bytes(), b"use ") {
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
        let module = network::NET_MODULES.iter().find(|(m, _)| {
            tree.strip_prefix(m)
                .is_some_and(|rest| rest.starts_with("::"))
        });
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

/// A host and port in a literal: `"db.internal:5432"`, or a template
/// whose host part is named for one (`"{host}:{port}"`, `"{}:{}"` is not
/// enough). Loopback hosts are waits, read before.
pub(super) fn host_port(lower: &str) -> Option<String> {
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

/// A token stream's tokens, groups opened (at most 4096).
pub(super) fn flatten(ts: TokenStream) -> Vec<TokenTree> {
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
    use super::super::remote::params;
    use super::*;
    use crate::source::Span;

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
