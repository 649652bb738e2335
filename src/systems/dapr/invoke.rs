//! Dapr service invocation written in Go, Python or Java (issue 19): the
//! app id a call names through the sidecar, read from the file's text (no
//! parse), so that a `Resiliency` target of that app goes on the call as
//! it does on a C# one (`systems/csharp/extract/dapr.rs`).
//!
//! - The `dapr-app-id` header, a string literal followed by the app id as
//!   the next literal (`req.Header.Add("dapr-app-id", "orders")`,
//!   `.header("dapr-app-id", "orders")`, `{'dapr-app-id': 'orders'}`):
//!   the sidecar sends the request to that app (dapr/dapr d8450742ce
//!   `pkg/api/http/directmessaging.go`: `findTargetIDAndMethod` reads the
//!   app id from the `dapr-app-id` header when the path is not
//!   `/v1.0/invoke/..`).
//! - The invocation URL `/v1.0/invoke/<app-id>/method/<method>` inside a
//!   literal (the same file's route, `v1.0/invoke/{id}/method/{method}`).
//! - The SDKs' calls, on a file that names Dapr: Go `InvokeMethod`,
//!   `InvokeMethodWithContent`, `InvokeMethodWithCustomContent`
//!   (dapr/go-sdk `client/invoke.go`: `(ctx, appID, methodName, ..)`),
//!   Python `invoke_method(app_id, method_name, ..)` (dapr/python-sdk
//!   `dapr/clients/grpc/client.py`), Java `invokeMethod(appId, methodName,
//!   ..)` (dapr/java-sdk `DaprClient`): the app id argument when it is
//!   a literal (the second in Go, after the context; else the first, or
//!   the one after `app_id=`).
//!
//! An app id is a name (letters, digits, `-`, `.`, `_`); a template, a
//! variable or a placeholder is no edge. Lines that are comments are not
//! read. Every quantity is bounded: the file's first [`MAX_EDGES`]
//! invocations, literals of at most 253 bytes.

use crate::model::calls::Protocol;
use crate::model::{CallEdge, Facts};
use crate::source::Span;

/// Invocations read of one file, at most.
const MAX_EDGES: usize = 64;
/// Bytes looked at after a header name or an SDK call's name.
const WINDOW: usize = 240;

/// The SDK methods whose first literal argument is the app id.
const SDK: &[&str] = &[
    "InvokeMethodWithCustomContent(",
    "InvokeMethodWithContent(",
    "InvokeMethod(",
    "invoke_method(",
    "invoke_method_async(",
    "invokeMethod(",
];

/// Words that make a file worth looking at for invocations (its reader's
/// gate takes them too, so a file holding only an invocation is read).
pub const NEEDLES: &[&str] = &[
    "dapr-app-id",
    "/v1.0/invoke/",
    "InvokeMethod",
    "invoke_method",
    "invokeMethod",
];

/// Whether a file mentions a Dapr invocation (one search).
pub fn wants(bytes: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<crate::extract::Needles> =
        std::sync::LazyLock::new(|| crate::extract::Needles::new(NEEDLES.iter().copied()));
    FINDER.any_in(bytes)
}

/// The Dapr invocations of `text`, a `lang` file, as call edges.
pub fn extract(text: &str, lang: &str, facts: &mut Facts) {
    if !wants(text.as_bytes()) {
        return;
    }
    let mut found: Vec<(usize, usize, String, &str)> = Vec::new();
    for quote in ["\"dapr-app-id\"", "'dapr-app-id'"] {
        for (at, _) in text.match_indices(quote) {
            let after = at + quote.len();
            // A header given a value: `, "x"`, `: "x"`.
            let rest = text[after..].trim_start();
            let Some(rest) = rest.strip_prefix([',', ':']) else {
                continue;
            };
            let from = text.len() - rest.len();
            if let Some((_, e, app)) = literal(text, from, 64) {
                found.push((at, e, app, "`dapr-app-id` header"));
            }
        }
    }
    for (at, _) in text.match_indices("/v1.0/invoke/") {
        let rest = &text[at + "/v1.0/invoke/".len()..];
        let len = rest.find('/').unwrap_or(0);
        if len == 0 || !rest[len..].starts_with("/method/") {
            continue;
        }
        let app = &rest[..len];
        if is_app_id(app) {
            found.push((at, at + "/v1.0/invoke/".len() + len, app.to_string(), "URL"));
        }
    }
    if text.contains("dapr") || text.contains("Dapr") {
        for name in SDK {
            for (at, _) in text.match_indices(name) {
                // `InvokeMethod(` inside `InvokeMethodWithContent(` is
                // found by its own name.
                let from = at + name.len();
                let end = from + close_of(&text[from..]).unwrap_or(0).min(WINDOW);
                let args = &text[from..end];
                let keyed = ["app_id=", "appId=", "app_id =", "appId ="]
                    .iter()
                    .find_map(|k| args.find(k).map(|i| from + i + k.len()));
                // The app id's place: after the context in Go.
                let place = usize::from(lang == "Go");
                let hit = match keyed {
                    Some(k) => literal(text, k, 8),
                    None => nth_arg(args, place).and_then(|i| literal(text, from + i, 8)),
                };
                if let Some((_, e, app)) = hit {
                    let what = name.trim_end_matches('(');
                    found.push((at, e, app, what));
                }
            }
        }
    }
    found.sort_by_key(|f| f.0);
    found.dedup_by_key(|f| f.0);
    for (start, end, app, what) in found.into_iter().take(MAX_EDGES) {
        if commented(text, start) {
            continue;
        }
        facts.claimed_by("dapr");
        let what = if what.ends_with("header") || what == "URL" {
            what.to_string()
        } else {
            format!("`{what}`")
        };
        facts.edges.push(CallEdge {
            caller: None,
            callee: crate::model::calls::short_host(&app),
            span: Span { start, end },
            policies: Vec::new(),
            via: format!("{} {what} in {lang}", super::INVOKE_VIA),
            client: None,
            protocol: Some(Protocol::Http),
        });
    }
}

/// The string literal that begins at `from` after at most `skip` bytes of
/// blanks: its span and text, when the text is an app id.
fn literal(text: &str, from: usize, skip: usize) -> Option<(usize, usize, String)> {
    let rest = text.get(from..)?;
    let lead = rest.len() - rest.trim_start().len();
    if lead > skip {
        return None;
    }
    let s = from + lead;
    let q = text[s..]
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\''))?;
    let body = &text[s + 1..];
    let len = body.find([q, '\n'])?;
    if !body[len..].starts_with(q) {
        return None;
    }
    let app = &body[..len];
    is_app_id(app).then(|| (s, s + len + 2, app.to_string()))
}

/// The offset in `args` (a call's arguments) of its `n`th argument
/// (0-based), counting commas outside brackets and quotes.
fn nth_arg(args: &str, n: usize) -> Option<usize> {
    if n == 0 {
        return Some(0);
    }
    let (mut depth, mut quote, mut seen) = (0usize, None, 0usize);
    for (i, c) in args.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                seen += 1;
                if seen == n {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The offset of the `)` that closes a call whose arguments begin `args`.
fn close_of(args: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in args.char_indices().take(WINDOW * 4) {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Whether `s` is an app id: a name, not a template or a URL.
fn is_app_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
        && s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
}

/// Whether the line holding `at` is a comment (`//`, `#`, `*`) up to it.
fn commented(text: &str, at: usize) -> bool {
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    let t = line.trim_start();
    t.starts_with("//") || t.starts_with('#') || t.starts_with('*') || t.starts_with("/*")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edges(text: &str, lang: &str) -> Vec<(String, String)> {
        let mut f = Facts::default();
        extract(text, lang, &mut f);
        f.edges.into_iter().map(|e| (e.callee, e.via)).collect()
    }

    #[test]
    fn the_header_the_url_and_the_sdks_name_the_app() {
        let go = "req.Header.Add(\"dapr-app-id\", \"order-processor\")\n";
        assert_eq!(
            edges(go, "Go"),
            [(
                "order-processor".to_string(),
                "Dapr service invocation `dapr-app-id` header in Go".to_string()
            )]
        );
        let py = "headers = {'dapr-app-id': 'orders', 'content-type': 'application/json'}\n";
        assert_eq!(edges(py, "Python")[0].0, "orders");
        let url = "url = f\"{host}:{port}/v1.0/invoke/job-service/method/scheduleJob\"\n";
        assert_eq!(edges(url, "Python")[0].0, "job-service");
        let sdk = "import \"github.com/dapr/go-sdk/client\"\n_, err = app.daprClient.InvokeMethodWithContent(context.Background(), \"jobs\", \"get\", \"GET\", c)\n";
        assert_eq!(
            edges(sdk, "Go"),
            [(
                "jobs".to_string(),
                "Dapr service invocation `InvokeMethodWithContent` in Go".to_string()
            )]
        );
        let py_kw = "from dapr.clients import DaprClient\nr = c.invoke_method(method_name='ship', app_id = 'shipping', data=b'')\n";
        assert_eq!(edges(py_kw, "Python")[0].0, "shipping");
    }

    #[test]
    fn templates_variables_comments_and_other_sdks_are_no_edge() {
        // A variable, a template, a URL without `/method/`, a comment.
        let text = "req.Header.Add(\"dapr-app-id\", appID)\nu := \"/v1.0/invoke/%s/method/x\"\nv := \"/v1.0/invoke/orders\"\n// h.Add(\"dapr-app-id\", \"orders\")\n";
        assert!(edges(text, "Go").is_empty());
        // An `InvokeMethod` of a file that never names Dapr.
        assert!(edges("x.InvokeMethod(ctx, \"orders\")\n", "Go").is_empty());
        // The app id a constant, the method a literal: no guess.
        let java = "import io.dapr.client.DaprClient;\nclient.invokeMethod(APP_ID, \"checkout\", order, HttpExtension.POST).block();\n";
        assert!(edges(java, "Java").is_empty());
    }
}
