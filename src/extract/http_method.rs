//! The HTTP method of the call a hand-written retry repeats, read from the
//! call's text (issue 28): `client.post(url)`, `HttpMethod.POST`,
//! `Method::POST`, `requests.post(..)`, `.method("PATCH")`,
//! `new HttpPost(..)`. Only the methods that are not idempotent are looked
//! for: a GET adds nothing to what RL103 knows of a loop (`Methods::Unknown`
//! already keeps it quiet), and `.get(` is every map's lookup.
//!
//! Pure text, bounded by the span it is given; language-neutral so that
//! every loop reader (Java, Rust, Python) can call it on the statement
//! it retries.

use crate::model::{Located, Methods};
use crate::source::Span;

/// The longest text read (a retried block is small; a huge one is read
/// in part).
const MAX_TEXT: usize = 64 * 1024;

/// Receivers that make `.post(` an HTTP call rather than, say, an Android
/// `Handler.post(Runnable)`: the words a client variable or builder is
/// named with.
const CLIENT_WORDS: &[&str] = &[
    "client", "http", "request", "session", "rest", "web", "api", "builder", "agent", "requests",
    "httpx", "axios", "reqwest", "ureq", "okhttp", "conn",
];

/// Non-idempotent methods written in `text[span]`, at the first place one
/// is written, or `None` when none is.
pub fn of_call(text: &str, span: Span) -> Option<Located<Methods>> {
    let start = span.start.min(text.len());
    let mut end = span.end.min(text.len()).min(start + MAX_TEXT);
    while end > start && !text.is_char_boundary(end) {
        end -= 1;
    }
    let body = text.get(start..end)?;
    let mut found: Vec<String> = Vec::new();
    let mut first: Option<Span> = None;
    for method in ["POST", "PATCH"] {
        if let Some((at, len)) = find_method(body, method) {
            found.push(method.to_string());
            let s = Span::new(start + at, start + at + len);
            first = Some(first.map_or(s, |f: Span| if s.start < f.start { s } else { f }));
        }
    }
    let first = first?;
    Some(Located::written(Methods::Set(found), first))
}

/// Where `method` (upper case) is named as the method of an HTTP call in
/// `body`: (offset, length of the text that names it).
fn find_method(body: &str, method: &str) -> Option<(usize, usize)> {
    let lower = method.to_ascii_lowercase();
    let title = format!("{}{}", &method[..1], &lower[1..]);
    // Constants and enum values: `HttpMethod.POST`, `Method::POST`,
    // `HttpMethod::Post`, `Method.POST`.
    for pat in [
        format!("Method.{method}"),
        format!("Method::{method}"),
        format!("Method::{title}"),
        format!("\"{method}\""),
        format!("new Http{title}("),
        format!(".{method}("),
        // Go: `http.MethodPost`.
        format!("http.Method{title}"),
    ] {
        if let Some(at) = find_word(body, &pat) {
            // A quoted method only as the argument of a method setter.
            if pat.starts_with('"') && !quoted_method_argument(body, at) {
                continue;
            }
            return Some((at, pat.len()));
        }
    }
    // `postForObject(`, `postForEntity(`, `patchForObject(` (Spring
    // RestTemplate), `.post(`/`.patch(` on a client-like receiver.
    // Go's `client.Post(` / `http.Post(` / `http.PostForm(`.
    for pat in [
        format!(".{lower}For"),
        format!(".{lower}("),
        format!(".{title}("),
        format!(".{title}Form("),
    ] {
        let mut from = 0;
        while let Some(k) = body[from..].find(&pat) {
            let at = from + k;
            from = at + pat.len();
            if pat.ends_with("For") || client_receiver(&body[..at]) {
                return Some((at + 1, pat.len() - 1));
            }
        }
    }
    None
}

/// `pat` in `body` not preceded by an identifier character (so that
/// `HttpMethod.POST` matches `Method.POST` but `XPOST` does not match
/// `"POST"`'s neighbours).
fn find_word(body: &str, pat: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(k) = body[from..].find(pat) {
        let at = from + k;
        let end = at + pat.len();
        let after_ok = pat.ends_with('(')
            || pat.ends_with('"')
            || !body[end..]
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if after_ok {
            return Some(at);
        }
        from = end;
    }
    None
}

/// Whether the quoted method at `at` is passed to a method setter:
/// `.method("POST")`, `setRequestMethod("POST")`, `request("POST", ..)`.
fn quoted_method_argument(body: &str, at: usize) -> bool {
    let before = body[..at].trim_end();
    // Go's `http.NewRequestWithContext(ctx, "POST", ..)`: the method after
    // a context argument.
    let before = match before.strip_suffix(',') {
        Some(b) => match b.rfind('(') {
            Some(open)
                if b[open + 1..]
                    .trim()
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_') =>
            {
                &b[..=open]
            }
            _ => return false,
        },
        None => before,
    };
    let Some(before) = before.strip_suffix('(') else {
        return false;
    };
    let name: String =
        crate::extract::calls::lex::trailing(before, |c| c.is_alphanumeric() || c == '_')
            .to_string();
    let name = name.to_ascii_lowercase();
    name == "method"
        || name.ends_with("requestmethod")
        || name == "request"
        || name == "fetch"
        || name.starts_with("newrequest")
}

/// Whether the expression before a `.post(` looks like an HTTP client:
/// its last identifier or call chain on the same line names one.
fn client_receiver(before: &str) -> bool {
    let line = before.rsplit(['\n', ';', '{']).next().unwrap_or(before);
    let line = line.to_ascii_lowercase();
    CLIENT_WORDS.iter().any(|w| line.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn methods(text: &str) -> Option<Vec<String>> {
        of_call(text, Span::new(0, text.len())).map(|m| match m.value {
            Methods::Set(v) => v,
            _ => Vec::new(),
        })
    }

    #[test]
    fn reads_the_method_of_common_clients() {
        let post = Some(vec!["POST".to_string()]);
        assert_eq!(methods("let r = client.post(url).send().await;"), post);
        assert_eq!(
            methods("rest.exchange(u, HttpMethod.POST, e, T.class)"),
            post
        );
        assert_eq!(methods("Request::builder().method(Method::POST)"), post);
        assert_eq!(methods("r = requests.post(url, json=body)"), post);
        assert_eq!(methods("conn.setRequestMethod(\"POST\");"), post);
        assert_eq!(methods("restTemplate.postForEntity(u, b, T.class)"), post);
        assert_eq!(
            methods("HttpRequest.newBuilder(u).POST(body).build()"),
            post
        );
        assert_eq!(methods("http.execute(new HttpPost(uri))"), post);
        assert_eq!(
            methods("webClient.patch().uri(u).retrieve()"),
            Some(vec!["PATCH".to_string()])
        );
        // Go (issue 28, GitHub 2023).
        assert_eq!(
            methods("req, err := http.NewRequest(http.MethodPost, u, b)"),
            post
        );
        assert_eq!(methods("http.NewRequest(\"POST\", u, b)"), post);
        assert_eq!(
            methods("http.NewRequestWithContext(ctx, \"POST\", u, b)"),
            post
        );
        assert_eq!(
            methods("resp, err := client.Post(u, \"application/json\", b)"),
            post
        );
    }

    #[test]
    fn ignores_what_is_not_an_http_post() {
        assert_eq!(methods("handler.post(runnable);"), None);
        assert_eq!(methods("map.get(key); client.get(url)"), None);
        assert_eq!(methods("log(\"POST failed\")"), None);
        assert_eq!(methods("let m = Method::POSTAL;"), None);
        assert_eq!(methods("m := http.MethodPostfix"), None);
        assert_eq!(methods("fmt.Println(x, \"POST\")"), None);
        assert_eq!(methods(""), None);
    }

    #[test]
    fn spans_stay_inside_the_text() {
        let t = "é client.post(x)";
        let m = of_call(t, Span::new(0, 1000)).unwrap();
        assert!(m.span.end <= t.len() && t.is_char_boundary(m.span.start));
        assert!(of_call(t, Span::new(1, 2)).is_none());
    }
}
