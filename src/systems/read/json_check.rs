//! A `.json` file is read by its consumers with a strict JSON parser (gRPC
//! clients parse a service config with their JSON library and reject it
//! whole; kubectl and Envoy refuse the file), while the YAML reader every
//! document extractor uses also takes what JSON does not: bare words
//! (`fall`), single quotes, trailing commas, comments. A `.json` file is
//! therefore checked as JSON first; one that is not JSON is reported
//! (RL903) where the parse stopped, and its settings, which no consumer
//! applies, are not read. `.NET` `appsettings*.json` are JSON with comments
//! on purpose and never come here ([`super::Syntax::Jsonc`]).

use super::Facts;
use crate::diag::unparsable_file;
use crate::source::{LineIndex, Span};
use std::path::Path;

/// Where and why a text is not JSON.
#[derive(Debug)]
pub struct Stop {
    pub span: Span,
    pub reason: String,
}

/// Where and why `text` is not JSON; `None` for valid JSON and for what
/// this check cannot judge: a templated file (`{{ }}`, read as before) and
/// nesting deeper than serde_json follows (valid JSON).
pub fn check(text: &str) -> Option<Stop> {
    if !super::template_regions(text).is_empty() {
        return None;
    }
    // (`Value`, not `IgnoredAny`: serde_json's skipping path says
    // "expected value" where the full parse says "trailing comma".)
    let err = serde_json::from_str::<serde_json::Value>(text).err()?;
    let full = err.to_string();
    if full.contains("recursion limit exceeded") {
        return None;
    }
    let reason = full
        .rsplit_once(" at line ")
        .map_or(full.as_str(), |(r, _)| r);
    // serde_json counts lines at `\n` and columns in bytes, 1-based; the
    // column of an error at the end of a line or of the text may be 0.
    let lines = LineIndex::lf_only(text);
    let start = lines
        .line_start(err.line().saturating_sub(1))
        .min(text.len());
    let mut at = (start + err.column().saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut end = at + text[at..].chars().next().map_or(0, char::len_utf8);
    // A bare word (`fall`, `UNAVAILABLE`, `True`): point at all of it.
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.';
    let bytes = text.as_bytes();
    let bare = bytes
        .get(at)
        .is_some_and(|&b| word(b) && !b.is_ascii_digit() && b != b'-');
    let reason = if bare || reason == "expected ident" {
        while at > start && bytes.get(at - 1).is_some_and(|&b| word(b)) {
            at -= 1;
        }
        end = at;
        while bytes.get(end).is_some_and(|&b| word(b)) {
            end += 1;
        }
        format!(
            "`{}` is a bare word where JSON wants a value (`true`, `false`, `null`, a number or a quoted string)",
            &text[at..end]
        )
    } else {
        reason.to_string()
    };
    Some(Stop {
        span: Span::new(at, end),
        reason,
    })
}

/// A gRPC service config by its name (`*service_config*.json`).
fn is_service_config(path: &Path) -> bool {
    path.file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .is_some_and(|n| n.contains("service_config"))
}

/// A `.json` file that is not JSON: reported (RL903) when it is one of
/// ours (a service config by name, a file some extractor reads, or one
/// that looks like a format we read), with nothing of it read, since no
/// consumer applies it. `read` is what the YAML reading found in it.
pub fn rejected(path: &Path, text: &str, stop: Stop, read: Facts, facts: &mut Facts) {
    let grpc = is_service_config(path)
        || read.extractors.contains(&"grpc")
        || ["methodConfig", "methodconfig", "MethodConfig"]
            .iter()
            .any(|n| text.contains(n));
    if !grpc && read.extractors.is_empty() && !super::looks_supported(text) {
        return;
    }
    let lines = LineIndex::lf_only(text);
    let line = lines.line_text(text, lines.line_of(stop.span.start));
    let help = if grpc {
        "fix the JSON: a gRPC client rejects a service config that is not strict JSON and then calls without its retries and timeouts"
    } else {
        "fix the JSON: JSON readers (kubectl, Envoy, gRPC) refuse the file, so none of its settings apply"
    };
    facts.diagnostics.push(unparsable_file::syntax(
        stop.span,
        &format!("not valid JSON: {}", stop.reason),
        line,
        help,
    ));
    for e in read.extractors {
        facts.claimed_by(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_json_and_templates_pass() {
        assert!(check(r#"{"methodConfig": [{"name": [{}]}]}"#).is_none());
        assert!(check("{\"a\": {{ .Values.a }}}").is_none());
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(check(&deep).is_none());
    }

    #[test]
    fn the_stop_is_pointed_at() {
        let text = "{\n  \"waitForReady\": fall,\n  \"b\": 1\n}\n";
        let stop = check(text).unwrap();
        assert_eq!(&text[stop.span.start..stop.span.end], "fall", "{stop:?}");
        assert!(stop.reason.contains("`fall` is a bare word"), "{stop:?}");
        let text = "{\"codes\": [UNAVAILABLE]}";
        let stop = check(text).unwrap();
        assert_eq!(
            &text[stop.span.start..stop.span.end],
            "UNAVAILABLE",
            "{stop:?}"
        );
        let text = "{\n  \"a\": [1, 2,],\n}";
        let stop = check(text).unwrap();
        assert_eq!(&text[stop.span.start..stop.span.end], "]", "{stop:?}");
        assert_eq!(stop.reason, "trailing comma");
        // At the end of the text.
        let stop = check("{\"a\": [").unwrap();
        assert!(stop.span.end <= 7);
        // The finding, with the line it stops in.
        let mut facts = Facts::default();
        let text = "{\"methodConfig\": [1,]}";
        let stop = check(text).unwrap();
        rejected(
            Path::new("a_service_config.json"),
            text,
            stop,
            Facts::default(),
            &mut facts,
        );
        assert_eq!(facts.diagnostics[0].code, "RL903");
        assert!(facts.diagnostics[0].help.contains("gRPC client"));
    }
}
