//! A reqwest call that can wait for ever, inside code a retry runs again
//! (a hand-written loop, a backon or tokio-retry closure): the try has no
//! limit, so the retries around it have no deadline either (RL304),
//! unless the retry caps its elapsed time.
//!
//! reqwest's client has no timeout unless one is set: seanmonstar/reqwest
//! `src/async_impl/client.rs`, `ClientBuilder::new` leaves `timeout`,
//! `read_timeout` and `connect_timeout` at `None` ("Default is no
//! timeout", `ClientBuilder::timeout`), and `reqwest::get` builds such a
//! client. Read from the file's text: a file that sets any timeout on a
//! builder, or that builds no client (one handed in may have one), is
//! left alone, and a call through a helper function is not followed.

use crate::model::{AttemptCount, Located, RetryPolicy, Timeout};
use crate::source::Span;

/// Methods of a reqwest client or request builder that start a request.
const REQUESTS: &[&str] = &[
    ".get(",
    ".post(",
    ".put(",
    ".patch(",
    ".delete(",
    ".head(",
    ".request(",
];

/// Ways of making a client the file shows.
const CLIENTS: &[&str] = &[
    "Client::new()",
    "Client::builder()",
    "ClientBuilder::new()",
    "reqwest::get(",
];

/// Whether `needle` occurs in `text` outside a line comment (memmem: the
/// text is the whole file).
fn in_code(text: &str, needle: &str) -> bool {
    memchr::memmem::find_iter(text.as_bytes(), needle.as_bytes()).any(|i| {
        let line = text[..i].rsplit('\n').next().unwrap_or("").trim_start();
        !(line.starts_with("//") || line.contains(" //"))
    })
}

/// Whether the file builds a reqwest client and sets no timeout anywhere:
/// its client waits for ever. A question about the whole file, asked
/// once per file ([`super::eval::Eval::client_waits`]), not once per
/// retry in it (each asking searched the whole text six times).
pub fn client_waits_forever(text: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), b"reqwest").is_some()
        && CLIENTS.iter().any(|c| in_code(text, c))
        && !in_code(text, ".timeout(")
        && !in_code(text, ".read_timeout(")
}

impl super::eval::Eval<'_, '_> {
    /// [`client_waits_forever`] of the file, once.
    pub fn client_waits(&self) -> bool {
        *self
            .client_waits
            .get_or_init(|| client_waits_forever(self.spans.source()))
    }
}

/// The first call in `region` of `text` that sends a reqwest request, when
/// the file's client waits for ever: its span.
#[cfg(test)]
fn unbounded_call(text: &str, region: Span) -> Option<Span> {
    if !client_waits_forever(text) {
        return None;
    }
    request_in(text, region)
}

/// The first call in `region` of `text` that sends a reqwest request.
fn request_in(text: &str, region: Span) -> Option<Span> {
    let body = text.get(region.start..region.end)?;
    if let Some(i) = body.find("reqwest::get(") {
        let at = region.start + i;
        return Some(Span::new(at, at + "reqwest::get".len()));
    }
    // String contents masked (a `{base}` in `format!` is no block).
    let body = masked(body);
    for (i, _) in body.match_indices(".send()") {
        // The statement the `.send()` ends: back to the previous `;`, `{`
        // or `}` (an AWS SDK's fluent `.get_object()..send()` is no
        // reqwest request).
        let start = body[..i].rfind([';', '{', '}']).map_or(0, |k| k + 1);
        let stmt = &body[start..i];
        if REQUESTS.iter().any(|r| stmt.contains(r)) {
            let at = region.start + i + 1;
            return Some(Span::new(at, at + "send()".len()));
        }
    }
    None
}

/// `text` with the contents of its string literals blanked, byte for byte.
fn masked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (_, c, inside) in super::literals::in_strings(text) {
        if inside {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// Give `p`, a retry whose repeated code is `region`, a try with no limit
/// (and no overall deadline unless it has one) when that code sends a
/// reqwest request through a client that waits for ever.
pub fn unbounded_try(ev: &super::eval::Eval<'_, '_>, region: Span, p: &mut RetryPolicy) {
    // A bound the reader could not count may be a deadline.
    if p.per_try_timeout.is_some() || p.attempts.value.count == AttemptCount::Unknown {
        return;
    }
    if !ev.client_waits() {
        return;
    }
    let Some(at) = request_in(ev.spans.source(), region) else {
        return;
    };
    p.per_try_timeout = Some(Located::default_at(Timeout::Disabled, at));
    if p.overall_timeout.is_none() {
        p.overall_timeout = Some(Located::default_at(Timeout::Disabled, at));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(text: &str) -> Span {
        Span::new(0, text.len())
    }

    #[test]
    fn a_send_through_a_client_without_timeout() {
        let t = "let c = reqwest::Client::new();\nloop { match c.get(url).send().await { Ok(r) => return Ok(r), Err(_) => sleep(d).await } }";
        let s = unbounded_call(t, region(t)).unwrap();
        assert_eq!(&t[s.start..s.end], "send()");
        let t = "let c = reqwest::Client::builder().timeout(d).build()?;\nc.get(url).send().await";
        assert!(unbounded_call(t, region(t)).is_none());
        // In a comment the timeout is not set.
        let t = "// reqwest needs .timeout(..)\nlet c = reqwest::Client::new();\nc.post(url).send().await";
        assert!(unbounded_call(t, region(t)).is_some());
        // No client built here, or another crate's `.send()`.
        let t = "use reqwest::Client;\nfn f(c: &Client) { c.get(url).send().await }";
        assert!(unbounded_call(t, region(t)).is_none());
        let t = "let _ = reqwest::Client::new();\ns3.get_object().bucket(b).send().await";
        assert!(unbounded_call(t, region(t)).is_none());
        let t = "reqwest::get(url).await";
        assert!(unbounded_call(t, region(t)).is_some());
        // Braces in a string are no statement's end.
        let t = "let c = reqwest::Client::new();\nc.get(format!(\"{base}/x\")).send().await";
        assert!(unbounded_call(t, region(t)).is_some());
    }
}
