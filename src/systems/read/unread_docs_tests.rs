use super::blank;
use crate::extract::{Facts, template_regions};
use std::path::{Path, PathBuf};

/// A file's facts as `extract_yaml_stream` reads them, with or without
/// the unread documents blanked (in a templated text, as
/// `blank_templated` blanks it).
fn facts(path: &Path, text: &str, blanking: bool) -> Facts {
    let templates = template_regions(text);
    let blanked = match (blanking, templates.is_empty()) {
        (false, _) => None,
        (true, true) => blank(text),
        (true, false) => super::blank_templated(path, text),
    };
    let file = crate::yaml::parse(blanked.as_deref().unwrap_or(text));
    let mut facts = Facts::default();
    let wanted = super::super::wanted_readers(path, text);
    super::super::extract_parsed_stream(path, text, &file, templates, &wanted, &[], &mut facts);
    facts
}

/// Whether blanking `text` changes no fact; whether it blanked anything.
fn same_facts(path: &Path, text: &str) -> bool {
    let (a, b) = (facts(path, text, true), facts(path, text, false));
    assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", path.display());
    blank(text).is_some() || super::blank_templated(path, text).is_some()
}

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: virtualservices.networking.istio.io
spec:
  group: networking.istio.io
  names:
    kind: VirtualService
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        properties:
          retries:
            description: \"Retry policy for HTTP requests: attempts, perTryTimeout, retryOn (gateway.networking.k8s.io, BackendTrafficPolicy, ConfigMap).\"
            properties:
              attempts:
                type: integer
";

const VIRTUAL_SERVICE: &str = "apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews
spec:
  hosts: [reviews]
  http:
  - route:
    - destination:
        host: reviews
    retries:
      attempts: 5
      perTryTimeout: 2s
    timeout: 3s
";

#[test]
fn a_definition_is_blanked_and_the_other_documents_read_as_before() {
    let p = Path::new("deploy/all.yaml");
    for text in [
        format!("{CRD}---\n{VIRTUAL_SERVICE}"),
        format!("---\n{CRD}---\n{VIRTUAL_SERVICE}---\n{CRD}"),
        format!("# Source: crds/all.yaml\n{CRD}\n---\n\n{VIRTUAL_SERVICE}"),
        format!("{VIRTUAL_SERVICE}---\n{CRD}").replace('\n', "\r\n"),
        format!("{VIRTUAL_SERVICE}---   \n{CRD}---\n"),
        CRD.to_string(),
    ] {
        assert!(same_facts(p, &text), "nothing blanked in\n{text}");
        let out = blank(&text).unwrap();
        // Same length, same lines: every offset stays.
        assert_eq!(out.len(), text.len());
        assert_eq!(
            out.match_indices('\n').collect::<Vec<_>>(),
            text.match_indices('\n').collect::<Vec<_>>()
        );
        assert!(!out.contains("CustomResourceDefinition"), "{out}");
        // As many documents as before.
        let (a, b) = (crate::yaml::parse(&out), crate::yaml::parse(&text));
        assert_eq!(a.documents.len(), b.documents.len());
        assert!(a.errors.is_empty() && b.errors.is_empty());
    }
    let read = facts(p, &format!("{CRD}---\n{VIRTUAL_SERVICE}"), true);
    assert_eq!(read.policies.len(), 1, "{read:?}");
}

#[test]
fn only_a_definition_at_column_0_in_plain_keys_is_blanked() {
    let indented: String = CRD.lines().map(|l| format!("  {l}\n")).collect();
    let flow = "{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition}\n";
    let quoted_key = CRD.replace("metadata:", "\"metadata\":");
    let merged = CRD.replace("metadata:", "<<: *base\nmetadata:");
    let two_kinds = format!("{CRD}kind: ConfigMap\n");
    let not_apiextensions = CRD.replace("apiextensions.k8s.io/v1", "example.com/v1");
    let compact_seq = format!("{CRD}items:\n- a\n");
    for text in [
        indented,
        flow.to_string(),
        quoted_key,
        merged,
        two_kinds,
        not_apiextensions,
        compact_seq,
        format!("%YAML 1.2\n---\n{CRD}"),
        format!("{CRD}...\n---\n{VIRTUAL_SERVICE}"),
        format!("--- !crd\n{CRD}"),
        format!("{{{{- if .Values.crds }}}}\n{CRD}{{{{- end }}}}\n"),
        VIRTUAL_SERVICE.to_string(),
    ] {
        assert_eq!(blank(&text), None, "{text}");
        same_facts(Path::new("x.yaml"), &text);
    }
    // A later document may be blanked even when an earlier one is not.
    let mixed = format!("--- !crd\n{CRD}---\n{CRD}");
    let out = blank(&mixed).unwrap();
    assert!(out.contains("CustomResourceDefinition"));
    assert_eq!(out.matches("CustomResourceDefinition").count(), 1);
}

/// A templated ConfigMap, as KServe's `inferenceservice-config` (its
/// strings hold `{{ .Name }}`).
const TEMPLATED: &str = "apiVersion: v1
kind: ConfigMap
metadata:
  name: c
data:
  t: \"{{ .Name }}-{{ .Namespace }}\"
";

/// A ServiceAccount: no reader reads one.
const UNREAD: &str = "apiVersion: v1
kind: ServiceAccount
metadata:
  name: s
";

/// In a templated text the documents that hold no template part and that
/// no reader reads are blanked, and no fact changes: the count of the
/// documents that did not parse (`report_templates`) included, as a
/// document that holds one is parsed as written.
#[test]
fn a_templated_text_keeps_its_templated_and_read_documents_only() {
    // A definition whose template part does not parse.
    let broken = CRD.replace(
        "  group: networking.istio.io\n",
        "  group: \"{{ .Values.group }}\" trailing\n",
    );
    let templated_unread = format!("{UNREAD}  namespace: \"{{{{ .Release.Namespace }}}}\"\n");
    let p = Path::new("deploy/all.yaml");
    let text = format!(
        "{CRD}---\n{TEMPLATED}---\n{broken}---\n{VIRTUAL_SERVICE}---\n{UNREAD}---\n{templated_unread}---\n{CRD}"
    );
    assert_eq!(crate::yaml::parse(&text).errors.len(), 1);
    let out = super::blank_templated(p, &text).expect("blanked");
    assert_eq!(out.len(), text.len());
    assert_eq!(out.matches("CustomResourceDefinition").count(), 1, "{out}");
    assert_eq!(out.matches("ServiceAccount").count(), 1, "{out}");
    assert!(out.contains("{{ .Values.group }}") && out.contains("{{ .Name }}"));
    assert!(out.contains("kind: VirtualService"));
    assert!(same_facts(p, &text));
    let mut read = Facts::default();
    super::super::extract_yaml_stream(
        p,
        &text,
        &[],
        super::super::Gates::On,
        super::super::Sniffed::default(),
        &mut read,
    );
    assert_eq!(read.policies.len(), 1, "{read:?}");
    assert!(
        read.diagnostics
            .iter()
            .any(|d| d.message.contains("1 of 7 documents did not parse")),
        "{:?}",
        read.diagnostics
    );
    // A template part in a comment keeps its definition too.
    let commented = format!("{CRD}---\n{CRD}# {{{{ a comment }}}}\n");
    let out = super::blank_templated(p, &commented).expect("blanked");
    assert_eq!(out.matches("CustomResourceDefinition").count(), 1, "{out}");
    assert_eq!(super::blank_templated(p, VIRTUAL_SERVICE), None);
    // In a Compose file the workload reader reads every document: only
    // definitions are blanked.
    let compose = Path::new("docker-compose.yml");
    let out = super::blank_templated(compose, &text).expect("blanked");
    assert_eq!(out.matches("ServiceAccount").count(), 2, "{out}");
    assert_eq!(out.matches("CustomResourceDefinition").count(), 1, "{out}");
}

/// Every YAML/JSON file under `roots` (the gates' tests use it too).
pub(in crate::systems::read) fn yaml_files(roots: &[PathBuf]) -> Vec<PathBuf> {
    crate::systems::read::files_under(roots, |p| {
        p.extension()
            .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
    })
}

/// The ways a stream is blanked: definitions only, with the gates of the
/// readers the scan offers it to, for a Kustomize build, a templated
/// text's (`blank_templated_stream`) and every document; each must parse
/// as the blanked text parses whole.
fn skipping_parses_as_before(path: &Path, text: &str) -> usize {
    let wanted = super::super::wanted_readers(path, text);
    let readers = super::super::gated_readers(path, text, &wanted);
    // Every document opened by a bare `---` (as each way blanks only those).
    let every = super::documents(text).map(|d| d.iter().map(|(_, bare)| *bare).collect::<Vec<_>>());
    let ways = [
        blanked(text, None),
        readers.and_then(|r| blanked(text, Some(&r))),
        super::blank_unread_docs(text),
        match super::blank_templated_stream(text, &template_regions(text), true) {
            super::Blanked::Some(b) => Some(b),
            _ => None,
        },
        every.map(|u| super::blanked_text(text, &super::documents(text).unwrap(), Some(&u), &[])),
    ];
    let mut skipped = 0;
    for b in ways.into_iter().flatten() {
        assert_eq!(
            counted(&b, b.parse()),
            counted(&b, crate::yaml::parse(&b.text)),
            "{}",
            path.display()
        );
        skipped += b.nulls.len();
    }
    skipped
}

/// A parse as its stream's reading uses it: whole, or with each error's
/// span and message left out where the errors are only counted (a
/// templated text's, `BlankedText::counting`): then the documents, nodes
/// and spans, and the number of errors and their documents, must agree.
fn counted(b: &super::BlankedText, mut f: crate::yaml::YamlFile) -> crate::yaml::YamlFile {
    if b.counting {
        for e in &mut f.errors {
            e.span = crate::source::Span::default();
            e.message.clear();
        }
    }
    f
}

fn blanked(text: &str, readers: Option<&[&str]>) -> Option<super::BlankedText> {
    match super::stream(text, readers) {
        super::Blanked::Some(b) => Some(b),
        super::Blanked::All => Some(super::blanked_text(
            text,
            &super::documents(text)?,
            None,
            &[],
        )),
        super::Blanked::Nothing => None,
    }
}

/// `yaml::parse_skipping` gives what the whole parse of the blanked text
/// gives (nodes, documents, spans, errors) on every YAML and JSON file
/// of the fixtures and the corpus, alone and between definitions, in
/// each way a stream is blanked; and on streams made to end and break
/// around a blanked document in every way the parser could tell apart.
#[test]
fn blanked_documents_parse_as_before_without_their_blanks() {
    let roots = crate::extract::fixture_roots();
    let files = yaml_files(&roots);
    assert!(files.len() > 100, "{}", files.len());
    let mut skipped = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        skipped += skipping_parses_as_before(f, &text);
        skipped += skipping_parses_as_before(f, &format!("{CRD}---\n{text}"));
        skipped += skipping_parses_as_before(f, &format!("{text}\n---\n{CRD}---\n{text}"));
    }
    let p = Path::new("x.yaml");
    for kept in [
        "a: 1\n",
        "a: 1\n# x\n  \n",
        "a: 1\n  \n\n",
        "a: |\n  x\n\n",
        "a: |+\n  x\n\n\n",
        "a: >-\n  x\n  y\n",
        "- a\n- b\n\n",
        "a: [1,\n  2]\n  \n",
        "a: [1,\n  2\n",
        "a: \"open\n",
        "a: 'x'\n",
        "plain\n  continued\n",
        "a: &x 1\nb: *x\n",
        "a: *nowhere\n",
        "\u{feff}a: 1\n",
        "a: 1\r\n",
        "",
    ] {
        for text in [
            format!("{kept}---\n{CRD}"),
            format!("{CRD}---\n{kept}"),
            format!("---\n{CRD}---\n{kept}---\n{CRD}---\n{kept}"),
            format!("{kept}---   \n{CRD}---\n{kept}"),
            format!("{kept}---\n{CRD}").replace('\n', "\r\n"),
        ] {
            skipped += skipping_parses_as_before(p, &text);
        }
    }
    assert!(skipped > 1000, "{skipped}");
    println!("{} files, {skipped} blanked documents skipped", files.len());
}

/// The documents of root kind `kind` in a parse, each with its index and
/// its tree (every node's kind and span), as a reader of that kind sees
/// them.
fn of_kind(f: &crate::yaml::YamlFile, kind: &str) -> Vec<String> {
    fn dump(n: crate::yaml::Yaml<'_>, out: &mut String) {
        out.push_str(&format!("{:?}", n.span()));
        if n.is_map() {
            for e in n.entries() {
                out.push_str(&format!("{{{}@{:?}:", e.key, e.key_span));
                dump(e.value, out);
                out.push('}');
            }
        } else if n.is_seq() {
            for i in n.items() {
                out.push('[');
                dump(i, out);
                out.push(']');
            }
        } else {
            out.push_str(&format!("{:?}", n.as_str()));
        }
    }
    f.documents
        .iter()
        .filter(|d| f.root(d).get("kind").and_then(|k| k.as_str()) == Some(kind))
        .map(|d| {
            let mut out = format!("{} {:?} ", d.index, d.span);
            dump(f.root(d), &mut out);
            out
        })
        .collect()
}

/// Whether blanking every document but the ConfigMaps keeps every
/// ConfigMap as the whole parse reads it; whether it blanked one.
fn configmaps_kept(path: &Path, text: &str) -> bool {
    let Some(b) = super::blank_other_kinds(text, &["ConfigMap"]) else {
        return false;
    };
    let whole = crate::yaml::parse(text);
    assert_eq!(
        of_kind(&b.parse(), "ConfigMap"),
        of_kind(&whole, "ConfigMap"),
        "{}",
        path.display()
    );
    true
}

/// `blank_other_kinds` (the link step's read of a folder's ConfigMaps)
/// leaves every ConfigMap as the whole parse reads it, on every YAML file
/// of the fixtures and the corpus, alone and beside other documents.
#[test]
fn blanking_other_kinds_keeps_every_configmap() {
    let mut roots = vec![PathBuf::from("testdata")];
    if Path::new("../shared/corpus").is_dir() {
        roots.push(PathBuf::from("../shared/corpus"));
    }
    let cm =
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: common\ndata:\n  URL: http://a:8080\n";
    let mut blanked = 0;
    for f in &yaml_files(&roots) {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        blanked += usize::from(configmaps_kept(f, &text));
        blanked += usize::from(configmaps_kept(f, &format!("{CRD}---\n{text}\n---\n{cm}")));
        blanked += usize::from(configmaps_kept(f, &format!("{cm}---\n{text}")));
        // In a templated stream: the documents with a template part are
        // parsed as written.
        let templated = format!("{TEMPLATED}---\n{CRD}---\n{UNREAD}---\n{text}\n---\n{cm}");
        blanked += usize::from(configmaps_kept(f, &templated));
    }
    assert!(blanked > 500, "{blanked}");
}

/// A Kustomize resource file keeps the documents every gated reader and
/// each ungated reader whose words the file has may read: the readers the
/// scan would offer a file of no particular name to (`wanted_readers`),
/// with every gated one, found without the one-pass search of every
/// reader's words.
#[test]
fn blank_unread_docs_asks_the_readers_the_scan_would() {
    use std::collections::BTreeSet;
    let mut roots = vec![PathBuf::from("testdata")];
    if Path::new("../shared/corpus").is_dir() {
        roots.push(PathBuf::from("../shared/corpus"));
    }
    let mut ungated = 0;
    for f in &yaml_files(&roots) {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let wanted = super::super::wanted_readers(Path::new(""), &text);
        let scan: BTreeSet<&str> = super::super::DOC_EXTRACTORS
            .iter()
            .zip(wanted)
            .filter(|((name, _, _), w)| *w || super::super::gates::has_gate(name))
            .map(|((name, _, _), _)| *name)
            .collect();
        let build: BTreeSet<&str> = super::build_readers(&text).into_iter().collect();
        assert_eq!(scan, build, "{}", f.display());
        let gated = super::super::DOC_EXTRACTORS
            .iter()
            .filter(|(name, _, _)| super::super::gates::has_gate(name))
            .count();
        ungated += usize::from(build.len() > gated);
    }
    assert!(ungated > 10, "{ungated}");
}

/// Every YAML and JSON file of the fixtures and the shared corpus, each
/// alone and each after a definition: the same facts with blanking and
/// without.
#[test]
fn blanking_changes_no_fact() {
    let roots = crate::extract::fixture_roots();
    let files = yaml_files(&roots);
    assert!(files.len() > 100, "{}", files.len());
    let mut blanked = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        blanked += usize::from(same_facts(f, &text));
        let joined = format!("{CRD}---\n{text}");
        same_facts(f, &joined);
        // In a templated stream.
        let templated = format!("{TEMPLATED}---\n{CRD}---\n{UNREAD}---\n{text}\n---\n{CRD}");
        same_facts(f, &templated);
    }
    println!("{} files, {blanked} with a definition blanked", files.len());
}

/// The same over a real checkout: `RETRYLINT_DOC_SKIP_DIR=/path cargo test
/// --lib blanking_real -- --ignored`.
#[test]
#[ignore = "needs RETRYLINT_DOC_SKIP_DIR=<a checkout>"]
fn blanking_real() {
    let dir = crate::systems::read::real_checkout("RETRYLINT_DOC_SKIP_DIR");
    let files = yaml_files(&[dir]);
    let mut blanked = 0;
    let mut skipped = 0;
    let mut configmaps = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if crate::systems::classify(f, text.as_bytes()).is_none() {
            continue;
        }
        blanked += usize::from(same_facts(f, &text));
        skipped += skipping_parses_as_before(f, &text);
        configmaps += usize::from(configmaps_kept(f, &text));
    }
    println!(
        "{} files, {blanked} with a definition blanked, facts identical; \
         {skipped} blanked documents skipped, parses identical; \
         {configmaps} files with other kinds than ConfigMaps blanked, ConfigMaps identical",
        files.len()
    );
}

/// The documents found by the vector search of marker lines are those
/// found by walking every line: on every fixture and corpus file, and on
/// every stream of up to four lines drawn from markers, directives, near
/// misses and content (with and without a last line break).
#[test]
fn documents_are_found_as_by_walking_every_line() {
    let files = yaml_files(&super::super::gates::tests::fixture_roots());
    assert!(files.len() > 100, "{}", files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        assert_eq!(
            super::documents(&text),
            super::documents_by_lines(&text),
            "{}",
            f.display()
        );
    }
    const LINES: &[&str] = &[
        "---",
        "--- x",
        "---x",
        "---\r",
        "--- #c",
        "...",
        "... ",
        "....",
        "%YAML 1.2",
        " %x",
        "a: 1",
        "",
        "\r",
        "- a",
        "-- -",
    ];
    let (mut some, mut none) = (0, 0);
    let mut streams = vec![String::new()];
    for _ in 0..4 {
        let mut next = Vec::new();
        for s in &streams {
            for l in LINES {
                next.push(if s.is_empty() {
                    (*l).to_string()
                } else {
                    format!("{s}\n{l}")
                });
            }
        }
        for s in &next {
            for t in [s.clone(), format!("{s}\n")] {
                let ours = super::documents(&t);
                assert_eq!(ours, super::documents_by_lines(&t), "{t:?}");
                if ours.is_some() {
                    some += 1;
                } else {
                    none += 1;
                }
            }
        }
        streams = next;
    }
    // Both outcomes were compared, many times over.
    assert!(some > 10_000 && none > 10_000, "{some} {none}");
}

/// A blanked document keeps every byte offset and line break, its first
/// character not an ASCII blank becomes `~`, every other byte a space:
/// on every fixture and corpus file blanked whole (multi-byte characters
/// included).
#[test]
fn a_blanked_document_keeps_every_offset_and_line_break() {
    let files = yaml_files(&super::super::gates::tests::fixture_roots());
    let mut extra = vec!["".to_string(), " \t\r\n\n  é: ü\n---\n\n".to_string()];
    extra.extend(
        files
            .iter()
            .map(|f| std::fs::read_to_string(f).unwrap_or_default()),
    );
    for text in &extra {
        let Some(docs) = super::documents(text) else {
            continue;
        };
        let out = super::blanked_text(text, &docs, None, &[]).text;
        assert_eq!(out.len(), text.len());
        for (r, _) in &docs {
            let (doc, blanked) = (&text.as_bytes()[r.clone()], &out.as_bytes()[r.clone()]);
            let first = doc.iter().position(|b| !b.is_ascii_whitespace());
            for (i, (a, b)) in doc.iter().zip(blanked).enumerate() {
                let want = match a {
                    b'\n' => b'\n',
                    _ if Some(i) == first => b'~',
                    _ => b' ',
                };
                assert_eq!(*b, want, "{i} in {text:?}");
            }
        }
    }
}

/// A definition a template closes (`closed_defs`) is parsed from its kept
/// lines, not its blanks, and a templated text's failed parts are kept
/// (`BlankedText::counting`): as many documents and errors as the whole
/// parse of the text and of its blanked text, in the same documents,
/// whatever comes before and after it.
#[test]
fn a_closed_definition_counts_as_the_whole_parse_without_its_blanks() {
    let closed =
        format!("{{{{- if .Values.crds.enabled }}}}\n---\n# generated\n{CRD}{{{{- end }}}}\n");
    let counts = |f: &crate::yaml::YamlFile| {
        (
            f.documents.len(),
            f.documents.iter().map(|d| d.index).collect::<Vec<_>>(),
            f.errors.iter().map(|e| e.document).collect::<Vec<_>>(),
        )
    };
    let mut kept = 0;
    for text in [
        closed.clone(),
        format!("{closed}---\na: {{{{ .Values.a }}}}\n"),
        format!("a: 1\n---\n{closed}---\n{CRD}---\nb: [1\n---\nc: 2\n"),
        format!("{closed}{closed}"),
        closed.replace('\n', "\r\n"),
    ] {
        let super::Blanked::Some(b) =
            super::blank_templated_stream(&text, &template_regions(&text), true)
        else {
            panic!("nothing blanked: {text}");
        };
        assert!(b.counting);
        kept += b.kept.len();
        let parsed = b.parse();
        assert_eq!(
            counts(&parsed),
            counts(&crate::yaml::parse(&b.text)),
            "{text}"
        );
        assert_eq!(
            counts(&parsed),
            counts(&crate::yaml::parse(&text)),
            "{text}"
        );
        assert!(!parsed.errors.is_empty(), "{text}");
    }
    assert!(kept >= 5, "{kept}");
}
