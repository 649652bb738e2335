//! Retry loops whose calls go to this machine: the URLs of the HTTP calls
//! in the loop name a loopback host (`f"http://127.0.0.1:{port}/health"`,
//! `http://localhost:{port}`, through names, `+` joins and a `@property`
//! of the class that returns the address). What answers there is a process
//! the program runs beside itself (a child server it started and polls
//! until it listens, a test server), not a service others share: its
//! retries add load to no one else (prefect `SubprocessASGIServer.start`,
//! `hosted_api_server`).

use super::super::calls::http_call;
use super::super::eval;
use super::super::{Args, Ctx, callee};
use tree_sitter::Node;

/// Calls read per loop.
const MAX_CALLS: usize = 256;

/// Methods of an HTTP client that send a request with the URL first.
const SENDS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "options", "request", "stream",
];

/// Whether every URL the calls of `body` send to that can be read names
/// this machine, and at least one does. A direct HTTP call whose URL
/// cannot be read may go anywhere: then not.
pub(super) fn only_this_machine(ctx: &Ctx<'_>, body: Node<'_>) -> bool {
    let mut local = false;
    for c in ctx
        .subtree(body)
        .iter()
        .filter(|c| c.kind() == "call")
        .take(MAX_CALLS)
    {
        let direct = http_call(ctx, *c);
        let url = match &direct {
            Some(h) => h.url,
            None => {
                let (full, last) = callee(ctx, *c);
                if !full.contains('.') || !SENDS.contains(&last) {
                    continue;
                }
                let args = Args::of(ctx, *c);
                let at = usize::from(last == "request");
                args.kw("url").or_else(|| args.positional.get(at).copied())
            }
        };
        let text = url.and_then(|u| eval::string(ctx, u));
        match text.as_deref().and_then(host).as_deref() {
            Some(h) if loopback(h) => local = true,
            Some(_) => return false,
            // A URL not read: a direct HTTP call may go anywhere; another
            // `.get(..)` (a mapping's) is no call.
            None if direct.is_some() => return false,
            None => {}
        }
    }
    local
}

/// The host of a URL with a scheme (`http://user@host:port/path`), in
/// lower case; `None` without a scheme or when the host is not known.
fn host(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let h = if authority.starts_with('[') {
        authority.split_inclusive(']').next()?
    } else {
        authority.split(':').next()?
    };
    (!h.is_empty() && !h.contains(eval::UNKNOWN)).then(|| h.to_ascii_lowercase())
}

/// `localhost` or a loopback or unspecified address.
fn loopback(host: &str) -> bool {
    host == "localhost" || host.ends_with(".localhost") || crate::model::calls::this_machine(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_urls() {
        assert_eq!(
            host("http://127.0.0.1:\u{0}/api").as_deref(),
            Some("127.0.0.1")
        );
        assert_eq!(host("http://localhost/x").as_deref(), Some("localhost"));
        assert_eq!(host("http://[::1]:80/").as_deref(), Some("[::1]"));
        assert_eq!(
            host("https://u:p@Api.Example.com:443").as_deref(),
            Some("api.example.com")
        );
        assert_eq!(host("http://\u{0}:80/x"), None);
        assert_eq!(host("/health"), None);
        assert!(loopback("127.0.0.1") && loopback("[::1]") && loopback("localhost"));
        assert!(!loopback("api.example.com"));
    }
}
