//! A definition a template closes (issue 27): a Helm chart's generated
//! definitions are often wrapped whole in a condition,
//! `{{- if .Values.crds.enabled }}`, `---`, one `CustomResourceDefinition`,
//! `{{- end }}`. The closing `{{- end }}` is in the definition's document,
//! so it is a templated document: it is parsed as written, to count it
//! among the documents that do not parse (`report_templates`), and it
//! fails only at that last line, after megabytes of schema
//! (envoyproxy/gateway's `charts/gateway-crds-helm/templates/generated/`:
//! 2.56 MB of the 5.6 MB of YAML its cold scan parsed whole).
//!
//! Such a document is blanked but for its first root key line and its
//! closing template lines: at a template line at column 0 the parser is
//! in the root mapping after a key's value whether that value was one line
//! or a schema (every column-0 line of a definition is a plain `key:`
//! line, `unread_docs::unread`), so the kept lines fail as the whole did,
//! and the document is counted as before. The kept lines are parsed alone
//! first; a document whose kept lines parse is left as it is. A document
//! whose schema holds an error fails either way: one error a document.

use crate::source::Span;
use std::ops::Range;

/// The lines kept of a definition closed by template lines: its first
/// root key line, and the template lines that close it, byte offsets in
/// the text.
pub(super) struct Head {
    key: Range<usize>,
    tail: usize,
}

impl Head {
    /// The document `doc` (at `r` of the text) written onto `out` with
    /// every byte but newlines, the key line and the tail blanked.
    pub(super) fn write(&self, bytes: &[u8], r: Range<usize>, out: &mut Vec<u8>) {
        let blank = |s: &[u8], out: &mut Vec<u8>| {
            out.extend(s.iter().map(|&b| if b == b'\n' { b'\n' } else { b' ' }));
        };
        blank(&bytes[r.start..self.key.start], out);
        out.extend_from_slice(&bytes[self.key.clone()]);
        blank(&bytes[self.key.end..self.tail], out);
        out.extend_from_slice(&bytes[self.tail..r.end]);
    }

    /// The text the document fails as: its opening line (`marker`, the
    /// text from the previous document's end to its own start, empty for
    /// the stream's first), its first root key line and its closing lines
    /// to `end`, without the blanks between (which the parser would walk
    /// one by one: 1.4 MB of them in envoyproxy/gateway's
    /// `gateway.envoyproxy.io_envoyproxies.yaml`). The parser is in the
    /// same state at the closing lines either way (blank lines change
    /// none), as [`closed_definition`] checked by parsing them alone.
    pub(super) fn kept(&self, text: &str, marker: Range<usize>, end: usize) -> String {
        format!(
            "{}{}\n{}",
            &text[marker],
            &text[self.key.clone()],
            &text[self.tail..end]
        )
    }
}

/// Whether `line` (its end trimmed) is one closing template line a
/// definition may end with: `{{` at column 0, `}}` at its end, and
/// nothing between that could open or close a quoted scalar, a flow
/// collection, a comment or a key (`{{- end }}`, `{{- end -}}`).
fn template_line(line: &str) -> bool {
    let line = line.trim_end_matches([' ', '\t', '\r']);
    line.len() >= 4
        && line.starts_with("{{")
        && line.ends_with("}}")
        && !line[2..line.len() - 2].contains([
            '{', '}', '"', '\'', '[', ']', '#', ':', '|', '>', '&', '*', '!',
        ])
}

/// The [`Head`] of the document at `r` when it is a definition
/// (`unread_docs::unread` of its text before its closing lines) whose only
/// template parts (`templates`, in text order) are template lines at its
/// end (blank lines between them), and whose kept lines fail to parse.
pub(super) fn closed_definition(
    text: &str,
    r: Range<usize>,
    templates: &[Span],
    first: bool,
) -> Option<Head> {
    let bytes = text.as_bytes();
    // The closing lines, from the end up.
    let mut tail = r.end;
    let mut closing = false;
    loop {
        let body = &bytes[r.start..tail];
        let content = body.strip_suffix(b"\n").unwrap_or(body);
        let start = memchr::memrchr(b'\n', content).map_or(0, |i| i + 1);
        let line = std::str::from_utf8(&content[start..]).ok()?;
        if line.trim().is_empty() {
            if start == 0 {
                return None;
            }
        } else if template_line(line) {
            closing = true;
        } else {
            break;
        }
        tail = r.start + start;
        if tail == r.start {
            return None;
        }
    }
    if !closing {
        return None;
    }
    // Every template part of the document is in the closing lines.
    let next = templates.partition_point(|t| t.end <= r.start);
    if templates.get(next).is_none_or(|t| t.start < tail) {
        return None;
    }
    let body = &text[r.start..tail];
    if !super::unread_docs::unread(body, first) {
        return None;
    }
    // The first root key line (a definition's first content line).
    let mut at = r.start;
    let key = super::lines::lines(body).find_map(|line| {
        let here = at;
        at += line.len() + 1;
        let t = line.trim();
        (!t.is_empty() && !t.starts_with('#'))
            .then(|| here..here + line.trim_end_matches('\r').len())
    })?;
    // The kept lines, parsed alone, fail as the whole document does.
    let kept = format!("{}\n{}", &text[key.clone()], &text[tail..r.end]);
    if crate::yaml::parse(&kept).errors.is_empty() {
        return None;
    }
    Some(Head { key, tail })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// A chart's definition under a condition, as Helm charts generate
    /// them; `schema` is its `spec`'s body.
    fn wrapped(schema: &str, end: &str) -> String {
        format!(
            "{{{{- if .Values.crds.enabled }}}}\n---\n# generated\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: backends.example.io\nspec:\n{schema}{end}"
        )
    }

    const SCHEMA: &str = "  group: example.io\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        description: \"retry: the backend's {retries}\"\n        properties:\n          timeout:\n            type: string\n    subresources:\n      status: {}\n";

    /// The parse of `text` and of its blanked text fail alike: as many
    /// documents, as many errors.
    fn same_count(text: &str, blanked: &str) {
        let (a, b) = (crate::yaml::parse(text), crate::yaml::parse(blanked));
        assert_eq!(a.documents.len(), b.documents.len(), "{blanked}");
        assert_eq!(a.errors.len(), b.errors.len(), "{blanked}");
        assert_eq!(text.len(), blanked.len());
    }

    #[test]
    fn a_definition_closed_by_end_keeps_its_first_key_and_its_end() {
        for end in [
            "{{- end }}\n",
            "{{- end }}",
            "{{- end -}}\n\n",
            "{{ end }}\r\n",
        ] {
            let text = wrapped(SCHEMA, end);
            let blanked = super::super::unread_docs::blank_templated(Path::new("crd.yaml"), &text)
                .expect("blanked");
            assert!(blanked.contains("\napiVersion: apiextensions.k8s.io/v1\n"));
            assert!(blanked.contains(end.trim_end()));
            assert!(!blanked.contains("CustomResourceDefinition"), "{blanked}");
            assert!(!blanked.contains("# generated"));
            same_count(&text, &blanked);
        }
    }

    #[test]
    fn a_definition_with_an_error_in_its_schema_still_counts_once() {
        let text = wrapped("  group: [example.io\n  bad: : x\n", "{{- end }}\n");
        if let Some(blanked) =
            super::super::unread_docs::blank_templated(Path::new("crd.yaml"), &text)
        {
            same_count(&text, &blanked);
        }
    }

    #[test]
    fn a_template_inside_the_definition_or_an_indented_end_is_parsed_as_written() {
        let inside = wrapped(
            &SCHEMA.replace("type: string", "type: {{ .Values.kind }}"),
            "{{- end }}\n",
        );
        let indented = wrapped(SCHEMA, "  {{- end }}\n");
        let quoted = wrapped(SCHEMA, "{{- end \"x\" }}\n");
        for text in [inside, indented, quoted] {
            assert_eq!(
                super::super::unread_docs::blank_templated(Path::new("crd.yaml"), &text),
                None,
                "{text}"
            );
        }
    }

    #[test]
    fn a_resource_closed_by_end_is_no_definition() {
        let text = "{{- if .Values.on }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: b\n{{- end }}\n";
        assert_eq!(
            super::super::unread_docs::blank_templated(Path::new("cm.yaml"), text),
            None
        );
    }
}
