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
    let definitions = UNREAD_KINDS
        .iter()
        .any(|k| memchr::memmem::find(text.as_bytes(), k.as_bytes()).is_some());
    if !definitions && readers.is_none() {
        return None;
    }
    let docs = documents(text)?;
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
        return None;
    }
    let mut out = text.as_bytes().to_vec();
    for ((r, _), u) in docs.iter().zip(unread_docs) {
        if u {
            blank_range(&mut out, r.start, r.end);
        }
    }
    String::from_utf8(out).ok()
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

/// Blank `out[start..end]`: newlines stay, the first other character
/// becomes `~` (a null document), every other byte a space.
fn blank_range(out: &mut [u8], start: usize, end: usize) {
    let mut null = false;
    for b in &mut out[start..end] {
        if *b == b'\n' {
            continue;
        }
        let keep_null = !null && !b.is_ascii_whitespace();
        *b = if keep_null { b'~' } else { b' ' };
        null |= keep_null;
    }
}

#[cfg(test)]
#[path = "unread_docs_tests.rs"]
pub(super) mod tests;
