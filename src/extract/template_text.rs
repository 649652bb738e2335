//! Templated configuration outside Helm (issue 22, item 3): a YAML or
//! nginx file named with a template suffix (`*.j2`, `*.jinja2`,
//! `*.tmpl`, `*.gotmpl`, `*.tpl`, `*.template`) is read as the file it
//! renders to. What a template fills in cannot be known: each Jinja2 or Go
//! template action (`{{ .. }}`, `{% .. %}`, `{# .. #}`) and each envsubst
//! variable (`${VAR}`; in YAML also `$VAR`) is masked to text of the same
//! length (a block tag alone on its line to blanks, anything else to an
//! opaque word), so every byte offset stays, the rest of the file is read
//! and checked, and a setting on a line that holds a masked part is not
//! checked (its value is the template's). A Jinja `{% if %}` is read as
//! one rendering, its first branch: the `{% elif %}`/`{% else %}`
//! branches are blanked (goharbor/harbor c50c7ddd6e's nginx upstreams
//! hold one `server` per rendering, `{% if internal_tls.enabled %}
//! server core:8443; {% else %} server core:8080; {% endif %}`; read
//! together they were two servers, so two tries). A loop's body is read
//! once.

use crate::source::Span;

/// Template suffixes, longest first (`nginx.conf.j2` -> `nginx.conf`).
const SUFFIXES: &[&str] = &[
    ".jinja2",
    ".gotmpl",
    ".template",
    ".jinja",
    ".tmpl",
    ".tpl",
    ".j2",
];

/// The name a template renders to (lowercased name in, without its
/// template suffix), `None` when the name has no template suffix or
/// nothing before it.
pub fn rendered_name(lower: &str) -> Option<String> {
    let inner = SUFFIXES
        .iter()
        .find_map(|s| lower.strip_suffix(s).map(|i| (i, *s)))
        .filter(|(inner, _)| !inner.is_empty() && !inner.ends_with('.'))?;
    match inner {
        // A Go template named only `vs.tpl` renders YAML, as operators
        // and charts write them.
        (i, ".tpl" | ".tmpl" | ".gotmpl") if !i.contains('.') => Some(format!("{i}.yaml")),
        (i, _) => Some(i.to_string()),
    }
}

/// The character a masked part is written with: a plain scalar in YAML,
/// a word in nginx.
const OPAQUE: u8 = b'_';

/// Whether a name read from masked text holds a masked value (a name
/// only the template knows: no service, no callee).
pub fn is_opaque(s: &str) -> bool {
    s.contains("___")
}

/// A name read from masked text with each masked part written back as the
/// template wrote it (`{{ .Values.name }}/http[0]`): a run of the mask
/// as long as a part, in the parts' order.
pub fn restore(name: &str, text: &str, parts: &[Span]) -> String {
    if !is_opaque(name) {
        return name.to_string();
    }
    let mut out = String::new();
    let mut rest = name;
    let mut next = 0;
    while let Some(i) = rest.find('_') {
        let run = rest[i..].bytes().take_while(|&c| c == OPAQUE).count();
        let part = parts[next.min(parts.len())..]
            .iter()
            .position(|p| p.len() == run)
            .map(|k| next + k);
        out.push_str(&rest[..i]);
        match part.and_then(|k| text.get(parts[k].start..parts[k].end).map(|t| (k, t))) {
            Some((k, t)) if run >= 3 => {
                out.push_str(t);
                next = k + 1;
            }
            _ => out.push_str(&rest[i..i + run]),
        }
        rest = &rest[i + run..];
    }
    out.push_str(rest);
    out
}

/// `text` with its template parts masked (same length), and their spans.
/// `dollar_words`: also mask `$VAR` (not in nginx, whose own variables are
/// written so).
pub fn mask(text: &str, dollar_words: bool) -> (String, Vec<Span>) {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut spans = Vec::new();
    let mut i = 0;
    while i + 1 < b.len() {
        let close: Option<&[u8]> = match (b[i], b[i + 1]) {
            (b'{', b'{') => Some(b"}}"),
            (b'{', b'%') => Some(b"%}"),
            (b'{', b'#') => Some(b"#}"),
            (b'$', b'{') => Some(b"}"),
            _ => None,
        };
        let end = match close {
            Some(c) => memchr::memmem::find(&b[i + 2..], c).map(|e| i + 2 + e + c.len()),
            None if dollar_words
                && b[i] == b'$'
                && (b[i + 1].is_ascii_alphabetic() || b[i + 1] == b'_') =>
            {
                let n = b[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                    .count();
                Some(i + 1 + n)
            }
            None => None,
        };
        let Some(end) = end else {
            i += 1;
            continue;
        };
        let line_start = b[..i]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        let line_end = b[end..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |p| end + p);
        let alone = b[line_start..i].iter().all(u8::is_ascii_whitespace)
            && b[end..line_end].iter().all(u8::is_ascii_whitespace);
        // A tag alone on its line is control (`{% if %}`, `{{- end }}`,
        // `{{ define }}`) or a block only the template knows (`{{ include
        // .. | nindent 4 }}`): blanks. Inline, a value: an opaque word.
        let block = b[i] == b'{';
        for (k, c) in out[i..end].iter_mut().enumerate() {
            // Newlines inside a tag stay, so lines keep their numbers.
            if b[i + k] == b'\n' {
                continue;
            }
            *c = if block && alone { b' ' } else { OPAQUE };
        }
        spans.push(Span::new(i, end));
        i = end;
    }
    for (from, to) in other_branches(text, &spans) {
        for (k, c) in out[from..to].iter_mut().enumerate() {
            if b[from + k] != b'\n' {
                *c = b' ';
            }
        }
    }
    // Only ASCII bytes were written over whole characters.
    (
        String::from_utf8(out).unwrap_or_else(|_| text.to_string()),
        spans,
    )
}

/// The byte ranges of the branches after the first of each Jinja `{% if
/// %}` (from its first `{% elif %}`/`{% else %}` to its `{% endif %}`),
/// given the spans of the template's parts. Blocks are matched by their
/// `end..` tags; a `for`'s `{% else %}` is its own; tags that do not
/// match leave every branch read (nothing returned).
fn other_branches(text: &str, parts: &[Span]) -> Vec<(usize, usize)> {
    // (keyword, whether an `if`'s other branch started, where).
    let mut stack: Vec<(&str, Option<usize>)> = Vec::new();
    let mut out = Vec::new();
    for p in parts {
        let Some(tag) = text.get(p.start..p.end) else {
            continue;
        };
        let Some(inner) = tag.strip_prefix("{%").and_then(|t| t.strip_suffix("%}")) else {
            continue;
        };
        let inner = inner.trim_matches(|c: char| c == '-' || c == '+' || c.is_whitespace());
        let word = inner.split_whitespace().next().unwrap_or("");
        match word {
            "if" | "for" | "macro" | "block" | "with" | "filter" | "call" | "raw"
            | "autoescape" | "trans" => stack.push((word, None)),
            // `{% set x %}..{% endset %}`; `{% set x = 1 %}` has no end.
            "set" if !inner.contains('=') => stack.push((word, None)),
            "elif" | "else" => match stack.last_mut() {
                Some(("if", other)) => {
                    if other.is_none() {
                        *other = Some(p.start);
                    }
                }
                Some(("for", _)) => {}
                _ => return Vec::new(),
            },
            w if w.starts_with("end") => match stack.pop() {
                Some((k, other)) if w[3..] == *k => {
                    if let Some(from) = other {
                        out.push((from, p.start));
                    }
                }
                _ => return Vec::new(),
            },
            _ => {}
        }
        if stack.len() > 64 {
            return Vec::new();
        }
    }
    if !stack.is_empty() {
        return Vec::new();
    }
    // Nested ranges inside an outer one are covered by it.
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(
            rendered_name("nginx.conf.j2").as_deref(),
            Some("nginx.conf")
        );
        assert_eq!(
            rendered_name("envoy.yaml.tmpl").as_deref(),
            Some("envoy.yaml")
        );
        assert_eq!(rendered_name("vs.yaml.gotmpl").as_deref(), Some("vs.yaml"));
        assert_eq!(
            rendered_name("default.conf.template").as_deref(),
            Some("default.conf")
        );
        assert_eq!(rendered_name("x.yaml"), None);
        assert_eq!(rendered_name(".j2"), None);
        assert_eq!(rendered_name("vs.tpl").as_deref(), Some("vs.yaml"));
        assert_eq!(rendered_name("hosts.j2").as_deref(), Some("hosts"));
    }

    #[test]
    fn masks_keep_every_offset() {
        let t = "{% if a %}\nattempts: {{ n }}\nhost: ${HOST}:$PORT\n{# c #}\n";
        let (m, spans) = mask(t, true);
        assert_eq!(m.len(), t.len());
        assert_eq!(
            m,
            "          \nattempts: _______\nhost: _______:_____\n       \n"
        );
        assert_eq!(spans.len(), 5);
        let (m, _) = mask("  {{- define \"x\" }}\na: 1\n{{ end }}\n", true);
        assert_eq!(m, "                   \na: 1\n         \n");
        let (m, _) = mask("proxy_next_upstream_tries ${TRIES};\nset $a 1;\n", false);
        assert_eq!(m, "proxy_next_upstream_tries ________;\nset $a 1;\n");
        let t = "name: {{ .n }}-v2\n";
        let (m, parts) = mask(t, true);
        let name = &m[6..m.len() - 1];
        assert_eq!(restore(name, t, &parts), "{{ .n }}-v2");
        // One rendering of an `if`: its first branch.
        let t = "upstream core {\n{% if tls %}\n  server core:8443;\n{% elif x %}\n  server b;\n{%- else %}\n  server core:8080;\n{% endif %}\n}\n";
        let (m, _) = mask(t, false);
        assert_eq!(m.len(), t.len());
        assert!(m.contains("server core:8443;"), "{m}");
        assert!(!m.contains("server b;") && !m.contains("8080"), "{m}");
        assert_eq!(m.lines().count(), t.lines().count());
        // A `for`'s `else` and an unmatched tag leave every branch.
        let t = "{% for s in xs %}\nserver {{ s }};\n{% else %}\nserver a;\n{% endfor %}\n";
        assert!(mask(t, false).0.contains("server a;"));
        let t = "{% if a %}\nserver a;\n{% else %}\nserver b;\n";
        assert!(mask(t, false).0.contains("server b;"));
        // Unclosed: left alone; multi-byte text kept.
        let (m, s) = mask("a: {{ é\nb: ü\n", true);
        assert_eq!((m.as_str(), s.len()), ("a: {{ é\nb: ü\n", 0));
    }
}
