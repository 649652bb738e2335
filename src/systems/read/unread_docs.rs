//! Documents no reader reads, left out of the YAML parse (issue 27, item
//! 2: "YAML documents that name a known kind").
//!
//! A Kubernetes `CustomResourceDefinition` holds the OpenAPI schema of a
//! custom resource: every field name and description of, say, Envoy
//! Gateway's `BackendTrafficPolicy` or Istio's `VirtualService`, so it
//! holds the sniff words of the readers that read those resources
//! (`gateway.networking.k8s.io`, `BackendTrafficPolicy`, `ConfigMap`,
//! `networking.istio.io` ...) and its file is parsed, although no reader
//! reads a definition: each reads a document by its root `apiVersion`
//! and `kind` (or by root keys a definition does not have), and a
//! definition's are `apiextensions.k8s.io/...` and
//! `CustomResourceDefinition`. They are large (1-4 MB files of them in
//! envoyproxy/gateway's `charts/` and `test/helm/`, 22 MB of the 37 MB
//! of YAML its sniffs let through; istio's `crd-all.gen.yaml`).
//!
//! Such a document is blanked before the parse, as the source readers'
//! pruning does: every byte but newlines becomes a space and its first
//! character a `~`, so the stream keeps its documents (the definition
//! reads as a null document, which no reader claims), their indices and
//! every byte offset. The test `blanking_changes_no_fact` compares the
//! facts with and without it on every YAML file of the fixtures and the
//! corpus and on generated definitions; `RETRYLINT_NO_DOC_SKIP=1` turns
//! it off (to measure, and as a way out).
//!
//! The document is recognised from its text, conservatively: it is
//! blanked only when its text is a block mapping at column 0 whose lines
//! at column 0 are all plain `key:` lines, with one `apiVersion:` of
//! `apiextensions.k8s.io/` and one `kind: CustomResourceDefinition`
//! among them (at column 0 a line of a block mapping at column 0 is one of
//! its keys: a value's continuation lines, block scalars and flow
//! collections are indented). A document opened by anything but a bare
//! `---` line, a stream with directives or `...` markers, or a templated
//! file (`{{` at column 0) is parsed as before. The one difference: a
//! syntax error inside a definition is no longer reported (RL903).

/// The root kinds no document reader reads.
const UNREAD_KINDS: &[&str] = &["CustomResourceDefinition"];
/// The API group of [`UNREAD_KINDS`] (Kubernetes'
/// `apiextensions.k8s.io/v1`, and `v1beta1` before 1.22).
const UNREAD_API: &str = "apiextensions.k8s.io/";

/// Whether blanking is off (`RETRYLINT_NO_DOC_SKIP=1`).
static OFF: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
    std::env::var_os("RETRYLINT_NO_DOC_SKIP").is_some_and(|v| v == "1")
});

/// Whether the root-key gates are off (`RETRYLINT_NO_ROOT_GATES=1`):
/// only definitions are blanked.
static GATES_OFF: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
    std::env::var_os("RETRYLINT_NO_ROOT_GATES").is_some_and(|v| v == "1")
});

/// `text` with every document no reader reads blanked, or `None` when
/// there is none (or blanking is off): definitions, and the documents
/// whose root no reader of `readers` (the readers the file is offered to)
/// accepts (`gates`; `None`: no gate applies, every document may be read).
pub(super) fn blank_unread(text: &str, readers: Option<&[&str]>) -> Option<String> {
    if *OFF {
        return None;
    }
    blank_docs(text, readers.filter(|_| !*GATES_OFF))
}

/// [`blank_unread`] of definitions only, whatever the environment says.
#[cfg(test)]
pub(super) fn blank(text: &str) -> Option<String> {
    blank_docs(text, None)
}

/// Blank the definitions of `text` and, with `readers`, the documents no
/// reader of them accepts.
pub(super) fn blank_docs(text: &str, readers: Option<&[&str]>) -> Option<String> {
    match stream(text, readers) {
        Blanked::Nothing => None,
        Blanked::All => Some(blanked_text(text, &documents(text)?, None)),
        Blanked::Some(t) => Some(t),
    }
}

/// What blanking leaves of a stream.
pub(super) enum Blanked {
    /// No document is blanked: parse the text as it is.
    Nothing,
    /// Every document is blanked: nothing is left to parse, and the
    /// blanked text is not built.
    All,
    /// The text with some documents blanked.
    Some(String),
}

/// [`blank_unread`], saying when no document is left.
pub(super) fn blank_unread_stream(text: &str, readers: Option<&[&str]>) -> Blanked {
    if *OFF {
        return Blanked::Nothing;
    }
    stream(text, readers.filter(|_| !*GATES_OFF))
}

fn stream(text: &str, readers: Option<&[&str]>) -> Blanked {
    let definitions = UNREAD_KINDS
        .iter()
        .any(|k| memchr::memmem::find(text.as_bytes(), k.as_bytes()).is_some());
    if !definitions && readers.is_none() {
        return Blanked::Nothing;
    }
    let Some(docs) = documents(text) else {
        return Blanked::Nothing;
    };
    let mut unread_docs: Vec<bool> = docs
        .iter()
        .enumerate()
        .map(|(i, (r, bare))| definitions && *bare && unread(&text[r.clone()], i == 0))
        .collect();
    if let Some(readers) = readers {
        let gated = super::gates::unread(text, &docs, &unread_docs, readers);
        for (u, g) in unread_docs.iter_mut().zip(gated) {
            *u |= g;
        }
    }
    if !unread_docs.iter().any(|u| *u) {
        return Blanked::Nothing;
    }
    if unread_docs.iter().all(|u| *u) {
        return Blanked::All;
    }
    Blanked::Some(blanked_text(text, &docs, Some(&unread_docs)))
}

/// `text` with the documents `unread` marks (all when `None`) blanked
/// ([`blank_range`]), built from slices of `text` and ASCII (no byte is
/// checked again: a document's range starts and ends at a line's start).
fn blanked_text(
    text: &str,
    docs: &[(std::ops::Range<usize>, bool)],
    unread: Option<&[bool]>,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (i, (r, _)) in docs.iter().enumerate() {
        if unread.is_some_and(|u| !u[i]) {
            continue;
        }
        out.push_str(&text[at..r.start]);
        blank_range(&text[r.clone()], &mut out);
        at = r.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Each document's text, from the line after a bare `---` (or the
/// stream's start) to the next `---` line, with whether it was opened by
/// a bare `---` (or the stream's start); `None` for a stream with
/// directives or `...` markers (left to the parser).
pub(super) fn documents(text: &str) -> Option<Vec<(std::ops::Range<usize>, bool)>> {
    let mut docs = Vec::new();
    let mut start = 0;
    let mut first = true;
    let mut at = 0;
    let bytes = text.as_bytes();
    let mut opened_bare = true;
    while at <= text.len() {
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(text.len(), |i| at + i);
        let line = &text[at..end];
        let marker = is_marker(line, "---");
        if marker || end == text.len() {
            let doc_end = if marker { at } else { text.len() };
            docs.push((start..doc_end, opened_bare));
            first = false;
            opened_bare = line.trim_end_matches(['\r', ' ', '\t']) == "---";
            start = (end + 1).min(text.len());
        }
        if is_marker(line, "...") || (line.starts_with('%') && first) {
            return None;
        }
        at = end + 1;
    }
    Some(docs)
}

/// Whether `line` is the document marker `m` (`---` or `...`) at column
/// 0, followed by nothing or a blank.
fn is_marker(line: &str, m: &str) -> bool {
    line.strip_prefix(m)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '\r']))
}

/// Whether the document `doc` is one no reader reads (see the module's
/// comment for what is required).
fn unread(doc: &str, first: bool) -> bool {
    let mut kinds = Vec::new();
    let mut apis = Vec::new();
    let mut content = false;
    for line in doc.lines() {
        let line = line.trim_end_matches('\r');
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indented = trimmed.len() != line.len();
        if !content && indented {
            // The root is not a block mapping at column 0.
            return false;
        }
        content = true;
        if indented {
            continue;
        }
        if first && line.starts_with('%') {
            return false;
        }
        let Some((key, value)) = line.split_once(':') else {
            return false;
        };
        let plain_key = key.starts_with(|c: char| c.is_ascii_alphabetic())
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'));
        if !plain_key || !(value.is_empty() || value.starts_with([' ', '\t'])) {
            return false;
        }
        match key {
            "kind" => kinds.push(scalar(value)),
            "apiVersion" => apis.push(scalar(value)),
            _ => {}
        }
    }
    matches!(kinds.as_slice(), [k] if UNREAD_KINDS.contains(k))
        && matches!(apis.as_slice(), [a] if a.starts_with(UNREAD_API))
}

/// A plain or quoted one-line scalar value, without a trailing comment.
fn scalar(value: &str) -> &str {
    let v = value.trim();
    let v = match v.find(" #").or_else(|| v.find("\t#")) {
        Some(i) => v[..i].trim_end(),
        None => v,
    };
    v.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .or_else(|| v.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))
        .unwrap_or(v)
}

/// `doc` blanked onto `out`: newlines stay, the first other character
/// becomes `~` (a null document), every other character as many spaces
/// as its bytes (every byte offset kept).
fn blank_range(doc: &str, out: &mut String) {
    let mut null = false;
    let mut rest = doc;
    loop {
        let (line, nl) = match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => (&rest[..i], true),
            None => (rest, false),
        };
        let mut n = line.len();
        if !null && let Some(p) = line.bytes().position(|b| !b.is_ascii_whitespace()) {
            // Blanks before it stay blanks (as spaces).
            push_spaces(out, p);
            out.push('~');
            null = true;
            n -= p + 1;
        }
        push_spaces(out, n);
        if !nl {
            break;
        }
        out.push('\n');
        rest = &rest[line.len() + 1..];
    }
}

fn push_spaces(out: &mut String, n: usize) {
    const SPACES: &str = "                                                                ";
    let mut n = n;
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}

#[cfg(test)]
#[path = "unread_docs_tests.rs"]
pub(super) mod tests;
