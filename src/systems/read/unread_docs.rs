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

use crate::source::Span;

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

/// `text` with the documents no reader reads blanked, every byte offset
/// kept (`unread_docs`), or `None` when it has none or is templated: for a
/// link step that parses a file's documents again (Kustomize resources).
/// A document is blanked when no reader could read it wherever it is
/// rendered: every reader with a root-key gate is asked (an overlay may
/// add another reader's sniff words to the stream it renders, never
/// change a document's root `apiVersion` or `kind`), and a reader without
/// one only when the file's own text has its sniff words. So RBAC
/// objects, service accounts and webhooks are not parsed for every
/// overlay of kubeflow/manifests (definitions were already blanked).
/// Only the ungated readers' words are looked for (`UNGATED`): a gated
/// reader is asked whatever the text says, and the one-pass search of
/// every reader's words over each resource file was most of the loader's
/// cost (`wanted_readers`: 308 M of kubeflow's 646 M instructions there).
pub fn blank_unread_docs(text: &str) -> Option<BlankedText> {
    if !crate::extract::template_regions(text).is_empty() {
        return None;
    }
    blank_unread(text, Some(&build_readers(text)))
}

/// The readers a Kustomize resource file's documents are kept for: every
/// gated one, and each ungated one whose words the text has.
fn build_readers(text: &str) -> Vec<&'static str> {
    // Most resource files hold no ungated reader's word: one pass over
    // the text says so, instead of one pass per ungated reader (95 M
    // instructions of kubeflow/manifests' Kustomize step).
    let any = UNGATED_ANY.any_in(text.as_bytes());
    UNGATED
        .iter()
        .filter(|(_, words)| any && words.any_in(text.as_bytes()))
        .map(|(name, _)| *name)
        .chain(
            super::DOC_EXTRACTORS
                .iter()
                .map(|(name, _, _)| *name)
                .filter(|name| super::gates::has_gate(name)),
        )
        .collect()
}

/// The document readers with no root-key gate (`super::gates::has_gate`), each
/// with its sniff words: such a reader may read any document, so a file
/// is offered to it when its text has one of them. No path makes a
/// difference for these: `reads_json` and the Compose and Spring names
/// concern gated readers only (`blank_unread_docs_asks_the_readers_the_scan_would`).
static UNGATED: std::sync::LazyLock<Vec<(&'static str, crate::extract::Needles)>> =
    std::sync::LazyLock::new(|| {
        super::DOC_EXTRACTORS
            .iter()
            .filter(|(name, _, _)| !super::gates::has_gate(name))
            .map(|(name, needles, _)| {
                (*name, crate::extract::Needles::new(needles.iter().copied()))
            })
            .collect()
    });

/// Every word of [`UNGATED`]: a text holds one of them when some
/// ungated reader's words are in it.
static UNGATED_ANY: std::sync::LazyLock<crate::extract::Needles> = std::sync::LazyLock::new(|| {
    crate::extract::Needles::new(
        super::DOC_EXTRACTORS
            .iter()
            .filter(|(name, _, _)| !super::gates::has_gate(name))
            .flat_map(|(_, needles, _)| needles.iter().copied()),
    )
});

/// `text` with every document whose root is not of one of `kinds`
/// blanked (`None` when none is, or when blanking is off): for a link
/// step that reads only resources of those kinds from files no reader
/// kept for it (the ConfigMaps of a workload's folder,
/// `link::configmap_env`: istio's 1 MB golden manifests are mostly
/// definitions). A document is blanked only when its root is read from
/// the text ([`super::gates::head`]) with no `kind` or another one, and,
/// in a templated text, when it holds no template part (it then parses as
/// it would in a text with none, as [`blank_templated_stream`] has it):
/// istio's golden manifests hold `{{` in their injector ConfigMaps, and
/// were parsed whole, definitions and all (334 M instructions of its
/// cold scan).
pub fn blank_other_kinds(text: &str, kinds: &[&str]) -> Option<BlankedText> {
    if *OFF {
        return None;
    }
    let docs = documents(text)?;
    let templated = templated_docs(&docs, &crate::extract::template_regions(text));
    let unread: Vec<bool> = docs
        .iter()
        .enumerate()
        .map(|(i, (r, bare))| {
            *bare
                && !templated[i]
                && match super::gates::head(&text[r.clone()], i == 0) {
                    super::gates::Head::Map(root) => !root.kind.is_some_and(|k| kinds.contains(&k)),
                    _ => false,
                }
        })
        .collect();
    unread
        .iter()
        .any(|u| *u)
        .then(|| blanked_text(text, &docs, Some(&unread), &[]))
}

/// Which of `docs` hold a part of `templates` (in text order).
fn templated_docs(docs: &[(std::ops::Range<usize>, bool)], templates: &[Span]) -> Vec<bool> {
    docs.iter()
        .map(|(r, _)| {
            // The first part that ends after the document starts.
            let next = templates.partition_point(|t| t.end <= r.start);
            templates.get(next).is_some_and(|t| t.start < r.end)
        })
        .collect()
}

/// `text` with every document no reader reads blanked, or `None` when
/// there is none (or blanking is off): definitions, and the documents
/// whose root no reader of `readers` (the readers the file is offered to)
/// accepts (`gates`; `None`: no gate applies, every document may be read).
pub(super) fn blank_unread(text: &str, readers: Option<&[&str]>) -> Option<BlankedText> {
    if *OFF {
        return None;
    }
    match stream(text, readers.filter(|_| !*GATES_OFF)) {
        Blanked::Nothing => None,
        Blanked::All => Some(blanked_text(text, &documents(text)?, None, &[])),
        Blanked::Some(t) => Some(t),
    }
}

/// [`blank_unread`] of definitions only, whatever the environment says.
#[cfg(test)]
pub(super) fn blank(text: &str) -> Option<String> {
    blank_docs(text, None)
}

/// Blank the definitions of `text` and, with `readers`, the documents no
/// reader of them accepts.
#[cfg(test)]
pub(super) fn blank_docs(text: &str, readers: Option<&[&str]>) -> Option<String> {
    match stream(text, readers) {
        Blanked::Nothing => None,
        Blanked::All => Some(blanked_text(text, &documents(text)?, None, &[]).text),
        Blanked::Some(t) => Some(t.text),
    }
}

/// [`blank_templated_stream`] of a templated text as the scan blanks it
/// (gated unless it is a Compose file, whose documents the workload
/// reader all reads), as a text.
#[cfg(test)]
pub(super) fn blank_templated(path: &std::path::Path, text: &str) -> Option<String> {
    let templates = crate::extract::template_regions(text);
    let gates = !super::compose_file(path, text);
    match blank_templated_stream(text, &templates, gates) {
        Blanked::Nothing => None,
        Blanked::All => Some(blanked_text(text, &documents(text)?, None, &[]).text),
        Blanked::Some(t) => Some(t.text),
    }
}

/// A text with documents blanked, and where those documents are: each
/// from its `---` line (or the stream's start) to the next `---` line
/// (or the end), so that the parse need not walk their blanks
/// ([`yaml::parse_skipping`](crate::yaml::parse_skipping)).
pub struct BlankedText {
    pub text: String,
    nulls: Vec<std::ops::Range<usize>>,
    /// Each definition a template closes (`closed_defs`): its range from
    /// its `---` line, and the text it fails as (that line and its kept
    /// lines), parsed instead of its blanks.
    kept: Vec<(std::ops::Range<usize>, String)>,
    /// Whether the parse's errors are only counted (a templated text's,
    /// `blank_templated_stream`): a part that fails is kept
    /// (`yaml::parse_counting`) instead of parsing the whole text again.
    counting: bool,
}

impl BlankedText {
    /// The parse of [`BlankedText::text`], as `yaml::parse` gives it.
    pub fn parse(&self) -> crate::yaml::YamlFile {
        if self.counting {
            crate::yaml::parse_counting(&self.text, &self.nulls, &self.kept)
        } else {
            crate::yaml::parse_skipping(&self.text, &self.nulls)
        }
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
    Some(BlankedText),
}

/// [`blank_unread`], saying when no document is left.
pub(super) fn blank_unread_stream(text: &str, readers: Option<&[&str]>) -> Blanked {
    if *OFF {
        return Blanked::Nothing;
    }
    stream(text, readers.filter(|_| !*GATES_OFF))
}

/// A templated `text` with its documents that hold none of its template
/// parts (`templates`, in text order) blanked when no reader reads them:
/// definitions, and with `gates` those no reader a Kustomize resource
/// file's documents are kept for accepts ([`blank_unread_docs`]'s
/// readers, a superset of those the scan offers the file to). A
/// templated text is parsed as written so that the documents that do not
/// parse are counted (`report_templates`), but a document with no
/// template part parses as it would in a text with none, where it is
/// blanked: the same one difference, its own syntax error is not
/// counted. KServe's `kserve.yaml` in kubeflow/manifests is 3.4 MB of
/// definitions beside a ConfigMap whose strings hold `{{ .Name }}`: ~600 M
/// instructions a parse, twice (`kserve_kubeflow.yaml`). The parse the
/// scan keeps for a Kustomize build (`KeptParse`) is this one, blanked
/// as the loader blanks the resource files it parses itself.
pub(super) fn blank_templated_stream(text: &str, templates: &[Span], gates: bool) -> Blanked {
    if *OFF {
        return Blanked::Nothing;
    }
    let definitions = has_definitions(text);
    let readers = (gates && !*GATES_OFF).then(|| build_readers(text));
    if !definitions && readers.is_none() {
        return Blanked::Nothing;
    }
    let Some(docs) = documents(text) else {
        return Blanked::Nothing;
    };
    let templated = templated_docs(&docs, templates);
    let mut unread_docs: Vec<bool> = docs
        .iter()
        .enumerate()
        .map(|(i, (r, bare))| {
            definitions && *bare && !templated[i] && unread(&text[r.clone()], i == 0)
        })
        .collect();
    if let Some(readers) = readers {
        let gated = super::gates::unread(text, &docs, &unread_docs, &readers);
        for ((u, g), t) in unread_docs.iter_mut().zip(gated).zip(&templated) {
            *u |= g && !t;
        }
    }
    // A definition closed by a template line (`{{- end }}`): all but
    // the lines that make it fail (`closed_defs`).
    let heads: Vec<Option<super::closed_defs::Head>> = docs
        .iter()
        .enumerate()
        .map(|(i, (r, bare))| {
            (definitions && *bare && templated[i] && !unread_docs[i])
                .then(|| super::closed_defs::closed_definition(text, r.clone(), templates, i == 0))
                .flatten()
        })
        .collect();
    match outcome(text, &docs, &unread_docs, &heads) {
        // Its errors are counted, never shown (`report_templates`).
        Blanked::Some(mut t) => {
            t.counting = true;
            Blanked::Some(t)
        }
        other => other,
    }
}

/// Whether `text` names a kind of [`UNREAD_KINDS`] anywhere.
fn has_definitions(text: &str) -> bool {
    UNREAD_KINDS
        .iter()
        .any(|k| memchr::memmem::find(text.as_bytes(), k.as_bytes()).is_some())
}

/// What is left of `text` with the documents `unread_docs` marks blanked.
fn outcome(
    text: &str,
    docs: &[(std::ops::Range<usize>, bool)],
    unread_docs: &[bool],
    heads: &[Option<super::closed_defs::Head>],
) -> Blanked {
    if !unread_docs.iter().any(|u| *u) && heads.iter().all(Option::is_none) {
        return Blanked::Nothing;
    }
    if unread_docs.iter().all(|u| *u) {
        return Blanked::All;
    }
    Blanked::Some(blanked_text(text, docs, Some(unread_docs), heads))
}

fn stream(text: &str, readers: Option<&[&str]>) -> Blanked {
    let definitions = has_definitions(text);
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
    outcome(text, &docs, &unread_docs, &[])
}

/// `text` with the documents `unread` marks (all when `None`) blanked
/// ([`blank_range`]), built from slices of `text` and ASCII: every byte
/// of a blanked document is mapped alone (no line walked), and the
/// result is UTF-8 as `text` is (a document's range starts and ends at a
/// line's start, and a blanked one is ASCII).
fn blanked_text(
    text: &str,
    docs: &[(std::ops::Range<usize>, bool)],
    unread: Option<&[bool]>,
    heads: &[Option<super::closed_defs::Head>],
) -> BlankedText {
    let mut out: Vec<u8> = Vec::with_capacity(text.len());
    let mut nulls = Vec::new();
    let mut kept = Vec::new();
    let mut at = 0;
    for (i, (r, _)) in docs.iter().enumerate() {
        // Its kept lines are parsed: no null document.
        if let Some(head) = heads.get(i).and_then(Option::as_ref) {
            out.extend_from_slice(&text.as_bytes()[at..r.start]);
            head.write(text.as_bytes(), r.clone(), &mut out);
            at = r.end;
            let from = i.checked_sub(1).map_or(0, |p| docs[p].0.end);
            kept.push((from..r.end, head.kept(text, from..r.start, r.end)));
            continue;
        }
        if unread.is_some_and(|u| !u[i]) {
            continue;
        }
        out.extend_from_slice(&text.as_bytes()[at..r.start]);
        blank_range(&text.as_bytes()[r.clone()], &mut out);
        at = r.end;
        // From its `---` line: the previous document ends where that
        // line starts.
        let from = i.checked_sub(1).map_or(0, |p| docs[p].0.end);
        nulls.push(from..r.end);
    }
    out.extend_from_slice(&text.as_bytes()[at..]);
    let text = String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    BlankedText {
        text,
        nulls,
        kept,
        counting: false,
    }
}

/// Each document's text, from the line after a bare `---` (or the
/// stream's start) to the next `---` line, with whether it was opened by
/// a bare `---` (or the stream's start); `None` for a stream with
/// directives (a `%` line before the first `---` line, or before the last
/// line of a stream with none) or `...` markers (left to the parser).
/// Only the lines that start with `---`, `...` or `%` are looked at, each
/// found by a vector search (`memmem`) instead of walking every line:
/// [`documents_by_lines`] is the walk, which the tests compare it with.
pub(super) fn documents(text: &str) -> Option<Vec<(std::ops::Range<usize>, bool)>> {
    use memchr::memmem;
    let bytes = text.as_bytes();
    let line_at = |s: usize| -> &str {
        let end = memchr::memchr(b'\n', &bytes[s..]).map_or(text.len(), |i| s + i);
        &text[s..end]
    };
    // A `...` marker anywhere: the stream is the parser's.
    let dots = text.starts_with("...").then_some(0);
    if dots
        .into_iter()
        .chain(memmem::find_iter(bytes, b"\n...").map(|p| p + 1))
        .any(|s| is_marker(line_at(s), "..."))
    {
        return None;
    }
    // A `%` line before line `s` (a directive of the first document).
    let directive_before =
        |s: usize| (s > 0 && bytes[0] == b'%') || memmem::find(&bytes[..s], b"\n%").is_some();
    let mut docs = Vec::new();
    let mut start = 0;
    let mut opened_bare = true;
    let dashes = text.starts_with("---").then_some(0);
    for s in dashes
        .into_iter()
        .chain(memmem::find_iter(bytes, b"\n---").map(|p| p + 1))
    {
        let line = line_at(s);
        if !is_marker(line, "---") {
            continue;
        }
        if docs.is_empty() && directive_before(s) {
            return None;
        }
        docs.push((start..s, opened_bare));
        opened_bare = line.trim_end_matches(['\r', ' ', '\t']) == "---";
        let end = s + line.len();
        if end == text.len() {
            // The marker was the last line: no document after it.
            return Some(docs);
        }
        start = end + 1;
    }
    // The last line ends the last document (the first, when there is no
    // marker: a `%` line before the last line is a directive).
    let last = memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1);
    if docs.is_empty() && directive_before(last) {
        return None;
    }
    docs.push((start..text.len(), opened_bare));
    Some(docs)
}

/// [`documents`] by walking every line: what it gives, for the tests.
#[cfg(test)]
pub(super) fn documents_by_lines(text: &str) -> Option<Vec<(std::ops::Range<usize>, bool)>> {
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
pub(super) fn unread(doc: &str, first: bool) -> bool {
    let mut kinds = Vec::new();
    let mut apis = Vec::new();
    let mut content = false;
    // `lines` as `split('\n')`: a last empty line is skipped below.
    for line in super::lines::lines(doc) {
        // Past the first key only column-0 lines count: an indented one
        // is skipped before its blanks are walked (a definition's schema
        // is deeply indented, megabytes of it in kubeflow/manifests).
        if content && line.starts_with([' ', '\t']) {
            continue;
        }
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
/// as its bytes (every byte offset kept). Blanks before the `~` stay
/// blanks (as spaces).
fn blank_range(doc: &[u8], out: &mut Vec<u8>) {
    let from = out.len();
    out.extend(doc.iter().map(|&b| if b == b'\n' { b'\n' } else { b' ' }));
    if let Some(p) = doc.iter().position(|b| !b.is_ascii_whitespace()) {
        out[from + p] = b'~';
    }
}

#[cfg(test)]
#[path = "unread_docs_tests.rs"]
pub(super) mod tests;
