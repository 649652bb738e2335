//! Whether a hand-written retry loop calls into its own file: the
//! graph's fallback (a file that builds one client policy calls through
//! it, `layers::sole_client_policy`) takes a loop only then. A loop whose
//! body calls only other packages' functions (`profiler.Start(..)`, the
//! logger, `time.Sleep`) retries none of the file's calls
//! (GoogleCloudPlatform/microservices-demo's `initProfiling` beside the
//! gRPC dials); one that calls a method of the file (`self._publish(..)`
//! in `except`, instana/robot-shop's payment) may retry the call that
//! method makes.

use crate::model::ScannedFile;
use crate::source::Span;

/// Names looked up, at most.
const MAX_NAMES: usize = 64;

/// Words written before `(` that call nothing (`if(ok)`, `while(true)`).
const KEYWORDS: &[&str] = &[
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "return",
    "synchronized",
    "match",
    "elif",
    "not",
    "and",
    "or",
    "in",
    "await",
    "yield",
];

/// Whether the loop at `body` calls a function or method the file
/// declares (`def name(`, `func name(`, `func (r T) name(`, `fn name(`,
/// or `name(..) {` / `name(..) throws` outside the loop).
pub(super) fn calls_into_file(f: &ScannedFile, body: Span) -> bool {
    let text = f.source.text.as_str();
    let Some(inside) = text.get(body.start..body.end) else {
        return true;
    };
    let mut names: Vec<&str> = Vec::new();
    for (i, _) in inside.match_indices('(') {
        let before = &inside[..i];
        let start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |k| k + 1);
        let name = &before[start..];
        if name.is_empty()
            || name.starts_with(|c: char| c.is_ascii_digit())
            || KEYWORDS.contains(&name)
            || names.contains(&name)
        {
            continue;
        }
        names.push(name);
        if names.len() >= MAX_NAMES {
            break;
        }
    }
    names.iter().any(|n| declared(text, n, body))
}

/// Whether `text` declares `name` outside `body`.
fn declared(text: &str, name: &str, body: Span) -> bool {
    let call = format!("{name}(");
    text.match_indices(&call).any(|(at, _)| {
        if body.start <= at && at < body.end {
            return false;
        }
        // A whole word.
        if text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            return false;
        }
        let line = text[..at].rsplit('\n').next().unwrap_or("");
        let head = line.trim();
        if ["def", "func", "fn"].iter().any(|k| head.ends_with(k))
            || (head.starts_with("func (") && head.ends_with(')'))
        {
            return true;
        }
        // `name(args) {` or `name(args) throws ..`: a method's head, not
        // a condition or a statement (`if ready(x) {`).
        let words = head.split(|c: char| !(c.is_alphanumeric() || c == '_'));
        if head.contains(['=', '(', '.'])
            || words.into_iter().any(|w| {
                matches!(
                    w,
                    "if" | "for" | "while" | "switch" | "return" | "go" | "defer" | "else"
                )
            })
        {
            return false;
        }
        let rest = &text[at + call.len()..];
        let mut depth = 1usize;
        for (k, c) in rest.char_indices().take(512) {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        let after = rest[k + 1..].trim_start();
                        return after.starts_with('{') || after.starts_with("throws");
                    }
                }
                _ => {}
            }
        }
        false
    })
}
