//! Extraction: one file in, [`Facts`] out. Pure functions of one file,
//! run in parallel; an extractor never panics and never looks at another
//! file. Problems become [`Diagnostic`](crate::diag::Diagnostic)s (RL901/RL902/RL903).
//!
//! Classification is by path and name first, then by a cheap content sniff
//! ([`classify`]): a file no extractor wants costs one read and a few
//! substring searches.

mod by_name;
mod closed_defs;
pub mod embedded;
mod gates;
pub mod json_check;
mod lines;
mod owners;
mod sniff;
#[cfg(test)]
mod test_support;
mod unread_docs;

pub use by_name::wanted_by_name;
pub use sniff::{Sniffed, classify, classify_sniffed};
#[cfg(test)]
pub(crate) use test_support::{files_under, real_checkout};

pub use unread_docs::{BlankedText, blank_other_kinds, blank_unread_docs};

use super::aws::extract as aws;
use super::dotnet::extract as dotnet;
use super::istio::extract as istio;
use super::java::extract as java;
use super::linkerd::extract as linkerd;
use super::nginx::extract as nginx;
use super::rust::extract as rust;
use super::spring::extract as spring;
use super::spring::properties;
use crate::diag::unparsable_file;
use crate::extract::{
    DocCtx, DocExtractor, DocReader, Facts, Needles, Syntax, build, calls, template_regions,
    workload,
};
use crate::source::Span;
use crate::yaml::{self, YamlFile};
use owners::DOC_OWNERS;
use std::path::Path;

/// The YAML/JSON document extractors, in the order they are offered a
/// document, with the substrings that make a file worth parsing for them:
/// every folder's `DOC_READERS` (the registry) and the workload reader,
/// by their `order`.
pub static DOC_EXTRACTORS: std::sync::LazyLock<Vec<(&str, &[&str], DocExtractor)>> =
    std::sync::LazyLock::new(|| {
        let mut readers: Vec<&DocReader> = super::FOLDER_READERS
            .iter()
            .flat_map(|r| r.iter())
            .chain([&workload::READER, &embedded::READER])
            .collect();
        readers.sort_by_key(|r| r.order);
        readers
            .into_iter()
            .map(|r| (r.name, r.needles, r.read))
            .collect()
    });

pub use super::spring::SPRING_NEEDLES;

/// Document readers that never read a `.json` file: Spring Boot loads
/// `application.properties` and `application.yml`/`.yaml` (its
/// `PropertySourceLoader`s are `PropertiesPropertySourceLoader` and
/// `YamlPropertySourceLoader`, spring-boot
/// `org/springframework/boot/env/`, listed in spring-boot's
/// `META-INF/spring.factories`); JSON reaches it only through the
/// `SPRING_APPLICATION_JSON` variable, not a file. Its sniff word `etry`
/// made every JSON file that says "retry" (an OpenAPI description: qdrant's
/// `docs/redoc/*/openapi.json`, 0.5 MB each) be parsed whole for nothing.
const NOT_FOR_JSON: &[&str] = &["spring"];

/// A Terraform file, parsed once for each of its readers (Cloud Tasks'
/// `google_cloud_tasks_queue`, SQS's `aws_sqs_queue`). Not well-formed
/// HCL (`terraform validate` rejects it) is RL903 and not read, as a
/// block's settings could be read from the wrong block.
fn extract_terraform(text: &str, facts: &mut Facts) {
    let (blocks, problem) = crate::extract::hcl::parse_checked(text);
    if let Some(p) = problem {
        facts
            .diagnostics
            .push(super::cloud_tasks::not_read(text, p.at, &p.reason));
        return;
    }
    super::cloud_tasks::terraform::extract(&blocks, facts);
    super::sqs::terraform::extract(&blocks, facts);
}

/// Whether the document reader `name` reads files of this path (`json`:
/// a `.json` file's): not a `.json` file when it is one of [`NOT_FOR_JSON`].
fn reads_json(name: &str, json: bool) -> bool {
    !(json && NOT_FOR_JSON.contains(&name))
}

/// Whether `path`'s extension is `json` (any case).
fn is_json_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// The needles of the document extractors that read `.json` files.
static JSON_DOC_FINDERS: std::sync::LazyLock<Needles> = std::sync::LazyLock::new(|| {
    Needles::new(
        DOC_EXTRACTORS
            .iter()
            .filter(|(name, _, _)| !NOT_FOR_JSON.contains(name))
            .flat_map(|(_, needles, _)| needles.iter().copied()),
    )
});

/// Every document extractor's needles.
static DOC_FINDERS: std::sync::LazyLock<Needles> = std::sync::LazyLock::new(|| {
    Needles::new(
        DOC_EXTRACTORS
            .iter()
            .flat_map(|(_, needles, _)| needles.iter().copied()),
    )
});

static SPRING_FINDERS: std::sync::LazyLock<Needles> =
    std::sync::LazyLock::new(|| Needles::new(SPRING_NEEDLES.iter().copied()));

/// Whether a file's name alone says it is a supported format (used for
/// files too large to read).
pub fn supported_by_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".yml")
        || name.ends_with(".yaml")
        || name.ends_with(".json")
        || aws::is_aws_path(path)
        || (name.ends_with(".properties") && properties::is_spring_config_name(&name))
        || name == "nginx.conf"
        || name.ends_with(".rs")
        || name.ends_with(".py")
        || name.ends_with(".cs")
        || name.ends_with(".go")
}

#[cfg(test)]
mod spring_name_tests;

/// Read one file's facts. Never panics on any input.
pub fn extract(path: &Path, text: &str, syntax: Syntax) -> Facts {
    extract_with_outer(path, text, syntax, &[])
}

/// [`extract`] of a text [`classify_sniffed`] gave `syntax` and `sniffed`
/// (the same path and text): what the sniff found out is not asked again.
pub fn extract_sniffed(path: &Path, text: &str, syntax: Syntax, sniffed: Sniffed) -> Facts {
    read_file(path, text, syntax, &[], Gates::On, sniffed)
}

/// [`extract`], with the Spring properties of other files that this file's
/// placeholders may refer to (the link step's second read).
pub fn extract_with_outer(
    path: &Path,
    text: &str,
    syntax: Syntax,
    outer: &[spring::Prop],
) -> Facts {
    read_file(path, text, syntax, outer, Gates::On, Sniffed::default())
}

/// [`extract`] of a template's text as Helm renders it (`link::helm`):
/// every document is parsed, none left out by the root-key gates, so a
/// document that does not parse once rendered is reported (RL903, counted
/// by the caller) whichever reader would read it. Its errors first, then
/// what the readers take: a gate decides what a reader reads, never
/// whether a template renders to YAML. Definitions are still blanked.
pub fn extract_rendered(path: &Path, text: &str) -> Facts {
    read_file(
        path,
        text,
        Syntax::Yaml,
        &[],
        Gates::Off,
        Sniffed::default(),
    )
}

/// [`extract`] of a Kustomize overlay's output (`link::kustomize`), of
/// which only the retry policies, timeouts and workload identities are
/// used, never the diagnostics: the documents no wanted reader's gate
/// accepts are blanked also when the text is templated (a scalar holding
/// `{{ .Name }}`, as kubeflow/manifests' Istio and Knative resources do),
/// where [`extract`] parses it whole to count its errors. A reader reads
/// the same documents either way (`gates`), parsed alike (`unread_docs`).
pub fn extract_overlay(path: &Path, text: &str) -> Facts {
    read_file(
        path,
        text,
        Syntax::Yaml,
        &[],
        Gates::Always,
        Sniffed::default(),
    )
}

/// Which YAML documents are blanked before the parse (`unread_docs`).
#[derive(Clone, Copy, PartialEq)]
enum Gates {
    /// Definitions only (a template's text, whose errors all count; in a
    /// templated text, those that hold no template part).
    Off,
    /// Those no wanted reader's root-key gate accepts (`gates`), in a
    /// text that is not templated (in a templated one, whose errors are
    /// counted, those that hold no template part and that no reader of a
    /// Kustomize resource file accepts).
    On,
    /// As `On`, templated or not (the errors are not used).
    Always,
}

/// [`extract_with_outer`], its YAML documents blanked as `gates` says,
/// knowing what the sniff of this path and text found out (`sniffed`).
fn read_file(
    path: &Path,
    text: &str,
    syntax: Syntax,
    outer: &[spring::Prop],
    gated: Gates,
    sniffed: Sniffed,
) -> Facts {
    let lower = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if let Some(inner) = crate::extract::template_text::rendered_name(&lower) {
        let mut facts = extract_template(&path.with_file_name(inner), text, syntax, outer);
        // A template `envsubst` fills: passes to `${NAME}`.
        if syntax == Syntax::Nginx && nginx::envsubst::is_template(&lower) {
            nginx::envsubst::targets(text, &mut facts);
        }
        return facts;
    }
    let mut facts = Facts::default();
    match syntax {
        Syntax::Yaml => {
            let kept = extract_yaml_stream(path, text, outer, gated, sniffed, &mut facts);
            facts.parse = crate::model::facts::KeptParse(kept.map(std::sync::Arc::new));
        }
        Syntax::Json => match json_check::check(text) {
            None => {
                extract_yaml_stream(path, text, outer, gated, sniffed, &mut facts);
            }
            Some(stop) => {
                let mut read = Facts::default();
                extract_yaml_stream(path, text, outer, gated, sniffed, &mut read);
                json_check::rejected(path, text, stop, read, &mut facts);
            }
        },
        // A source file without retry words is read for its call sites
        // only (`calls`, lexically); one with them by its language's reader.
        Syntax::Java if !java::wants(text.as_bytes()) => {
            calls::extract(text, calls::lex::Lang::Java, &mut facts)
        }
        Syntax::Java => java::extract_at(path, text, &mut facts),
        Syntax::Rust if !rust::wants(text.as_bytes()) => {
            facts.rust.crate_dir = rust::crate_dir(path);
            if !rust::cargo_target_outside_src(path) {
                calls::extract(text, calls::lex::Lang::Rust, &mut facts);
            }
        }
        Syntax::Ini => aws::extract_ini(path, text, &mut facts),
        Syntax::Jsonc => {
            let text = yaml::strip_jsonc(text);
            extract_yaml_stream(path, &text, outer, gated, Sniffed::default(), &mut facts);
        }
        Syntax::Properties => properties::extract(path, text, outer, &mut facts),
        Syntax::Nginx => nginx::extract(text, &mut facts),
        Syntax::Rust => rust::extract(path, text, &mut facts),
        // Names read as numbers that another file may give
        // (`link::values`).
        Syntax::Python => {
            let ((), wants) = crate::extract::values::collect(|| {
                super::python::extract::extract(text, &mut facts)
            });
            facts.value_wants = wants;
        }
        Syntax::CSharp => {
            let ((), wants) = crate::extract::values::collect(|| {
                super::csharp::extract::extract(text, &mut facts)
            });
            facts.value_wants = wants;
        }
        Syntax::Go => {
            let ((), wants) =
                crate::extract::values::collect(|| super::go::extract::extract(text, &mut facts));
            facts.value_wants = wants;
        }
        Syntax::Vcl => super::varnish::extract::extract(text, &mut facts),
        Syntax::QueueXml => super::cloud_tasks::xml::extract(text, &mut facts),
        Syntax::Terraform => extract_terraform(text, &mut facts),
        Syntax::Build(kind) => {
            if let Some(build) = build::extract(kind, text) {
                facts.build = Some(build);
                facts.claimed_by("build");
            }
        }
    }
    // Dapr service invocations by app id, in the languages whose readers
    // make no such edge themselves (C#'s does, `csharp::extract::dapr`).
    let lang = match syntax {
        Syntax::Go => Some("Go"),
        Syntax::Python => Some("Python"),
        Syntax::Java => Some("Java"),
        _ => None,
    };
    if let Some(lang) = lang {
        super::dapr::invoke::extract(text, lang, &mut facts);
    }
    facts
}

/// A template outside Helm (`extract::template_text`): read as the file it
/// renders to (`path`) with its template parts masked; a setting on a
/// line holding one is not checked, and what was not checked or did not
/// parse is one RL903 at `info`.
fn extract_template(path: &Path, text: &str, syntax: Syntax, outer: &[spring::Prop]) -> Facts {
    let (masked, parts) = crate::extract::template_text::mask(text, syntax != Syntax::Nginx);
    // Every document parsed, so that each part that does not parse is
    // counted (`extract_rendered`).
    let mut facts = read_file(path, &masked, syntax, outer, Gates::Off, Sniffed::default());
    if parts.is_empty() {
        return facts;
    }
    // Names as the template wrote them; a name only the template knows
    // names no service and no callee.
    use crate::extract::template_text::{is_opaque, restore};
    for n in facts
        .policies
        .iter_mut()
        .map(|p| &mut p.name)
        .chain(facts.timeouts.iter_mut().map(|t| &mut t.name))
        .flatten()
    {
        *n = restore(n, text, &parts);
    }
    facts.services.retain(|d| !is_opaque(&d.name));
    for d in &mut facts.services {
        d.hosts.retain(|h| !is_opaque(h));
    }
    facts
        .edges
        .retain(|e| !is_opaque(&e.callee) && !e.caller.as_deref().is_some_and(is_opaque));
    let lines = crate::source::LineIndex::new(text);
    let line = |o: usize| lines.line_of(o.min(text.len()));
    let templated: std::collections::HashSet<usize> = parts
        .iter()
        .flat_map(|s| line(s.start)..=line(s.end.saturating_sub(1).max(s.start)))
        .collect();
    let (mut skipped, mut unparsed) = (0, 0);
    facts.diagnostics.retain(|d| {
        if d.code == unparsable_file::CODE {
            unparsed += 1;
            return false;
        }
        let on = (line(d.span.start)..=line(d.span.end.max(d.span.start)))
            .any(|l| templated.contains(&l));
        skipped += usize::from(on);
        !on
    });
    // A helpers file (Helm renders no manifest from `templates/_*`, nor
    // from a `.tpl`: its `define`s are text for other templates) that
    // names no retry or timeout setting hides none in a part that does
    // not parse (kube-prometheus-stack's `_helpers.tpl`, prometheus-community
    // helm-charts cf408a2).
    if unparsed > 0 && helpers_file(path) && !names_settings(text) {
        unparsed = 0;
    }
    if skipped == 0 && unparsed == 0 {
        return facts;
    }
    let mut said = Vec::new();
    if unparsed > 0 {
        said.push(format!(
            "{unparsed} part{} did not parse with the template's parts unknown",
            if unparsed == 1 { "" } else { "s" }
        ));
    }
    if skipped > 0 {
        said.push(format!(
            "{skipped} setting{} set by the template",
            if skipped == 1 { " is" } else { "s are" }
        ));
    }
    let first = parts[0];
    let excerpt: String = text
        .get(first.start..first.end)
        .unwrap_or("")
        .chars()
        .take(40)
        .collect();
    facts.diagnostics.push(unparsable_file::templated(
        first,
        &format!(
            "{} (first template part `{excerpt}`); they were not checked",
            said.join(" and ")
        ),
    ));
    facts
}

/// A template file of helpers: a `.tpl`, or a name beginning with `_`
/// (helm.sh/docs/chart_template_guide/named_templates: "files whose name
/// begins with an underscore are assumed to not have a manifest inside").
fn helpers_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('_') || n.to_ascii_lowercase().ends_with(".tpl"))
}

/// Whether a text names a retry or timeout setting by a word every
/// reader's keys share.
fn names_settings(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    [
        "retr",
        "timeout",
        "backoff",
        "attempt",
        "next-upstream",
        "next_upstream",
    ]
    .iter()
    .any(|w| t.contains(w))
}

/// Read a YAML stream's documents into `facts`; the parse of a templated
/// text the scan read whole (`Gates::On`) is handed back.
fn extract_yaml_stream(
    path: &Path,
    text: &str,
    outer: &[spring::Prop],
    gated: Gates,
    sniffed: Sniffed,
    facts: &mut Facts,
) -> Option<YamlFile> {
    let templates = template_regions(text);
    let plain = templates.is_empty() || gated == Gates::Always;
    // Once per file: it walks the text's lines (a 4 MB stream of
    // definitions in envoyproxy/gateway's `test/helm` says `services:`),
    // and not again when the sniff has (`Sniffed::compose`).
    let compose = sniffed.compose.unwrap_or_else(|| compose_file(path, text));
    let wanted = readers_wanted(path, text, compose);
    // A templated file's parse errors are counted (`report_templates`):
    // it is parsed as written, but for its documents with no template
    // part that no reader reads (`blank_templated_stream`).
    let blanked = if plain {
        let readers = readers_gated(compose, &wanted).filter(|_| gated != Gates::Off);
        unread_docs::blank_unread_stream(text, readers.as_deref())
    } else {
        // Blanked for a Kustomize build of its parse (`KeptParse`): by
        // every reader a resource file is read for.
        let gates = gated == Gates::On && !compose;
        unread_docs::blank_templated_stream(text, &templates, gates)
    };
    let file = match &blanked {
        unread_docs::Blanked::Nothing => yaml::parse(text),
        unread_docs::Blanked::Some(b) => b.parse(),
        // Every document blanked: null documents, which no reader reads
        // (`gates_tests` compares the facts with the parse of the blanked
        // text on every fixture and real checkout): nothing to parse.
        unread_docs::Blanked::All => YamlFile::default(),
    };
    // A templated text read by the scan and parsed whole is handed back,
    // for a Kustomize build of it (`KeptParse`); one with documents
    // blanked is not (the loader parses it whole): blanked, its overlays
    // drop under the bound on their output (`tree::MAX_OUTPUT`) that
    // they passed before, and are built (kubeflow/manifests' top
    // overlay holds KServe's 3.4 MB of definitions).
    let whole = !templates.is_empty()
        && gated == Gates::On
        && matches!(blanked, unread_docs::Blanked::Nothing);
    extract_parsed_stream(path, text, &file, templates, &wanted, outer, facts);
    whole.then_some(file)
}

/// Which document readers the file's text is worth offering documents to,
/// decided once per file (not once per document): one of each reader's
/// needles is in the text (and the reader reads files of this path), or
/// the file is a Compose file (the workload reader) or named as Spring
/// Boot's configuration (the Spring reader).
#[cfg(test)]
fn wanted_readers(path: &Path, text: &str) -> Vec<bool> {
    readers_wanted(path, text, compose_file(path, text))
}

/// Whether the file is a Compose file (`workload::is_compose_file`).
fn compose_file(path: &Path, text: &str) -> bool {
    path.file_name()
        .is_some_and(|n| workload::is_compose_file(&n.to_string_lossy(), text.as_bytes()))
}

/// [`wanted_readers`], knowing whether the file is a Compose file.
fn readers_wanted(path: &Path, text: &str, compose: bool) -> Vec<bool> {
    let spring_named = spring_config_name(path);
    // Every .NET `appsettings*.json`: the addresses a program's code reads
    // from its configuration are any of its values (`csharp::connections`).
    let appsettings = path
        .file_name()
        .is_some_and(|n| dotnet::is_appsettings(&n.to_string_lossy().to_ascii_lowercase()));
    let found = DOC_OWNERS.found_in(text.as_bytes());
    // Once per file, not per reader (27 M instructions of gateway's scan).
    let json = is_json_path(path);
    DOC_EXTRACTORS
        .iter()
        .zip(found)
        .map(|((name, _, _), found)| {
            reads_json(name, json) && found
                || (compose && *name == "workload")
                || (spring_named && *name == "spring")
                || (appsettings && *name == "csharp-settings")
        })
        .collect()
}

/// The names of the wanted readers whose root-key gates decide which
/// documents are parsed (`gates`), or `None` when every document may be
/// read: in a Compose file the workload reader reads every document.
#[cfg(test)]
fn gated_readers(path: &Path, text: &str, wanted: &[bool]) -> Option<Vec<&'static str>> {
    readers_gated(compose_file(path, text), wanted)
}

/// [`gated_readers`], knowing whether the file is a Compose file.
fn readers_gated(compose: bool, wanted: &[bool]) -> Option<Vec<&'static str>> {
    (!compose).then(|| {
        DOC_EXTRACTORS
            .iter()
            .zip(wanted)
            .filter(|(_, w)| **w)
            .map(|((name, _, _), _)| *name)
            .collect()
    })
}

/// [`extract_yaml_stream`] with the stream parsed: `file` is `text`'s
/// parse, or that of `text` with the documents no reader reads blanked
/// (`unread_docs`, same offsets); `wanted` is [`wanted_readers`].
fn extract_parsed_stream(
    path: &Path,
    text: &str,
    file: &YamlFile,
    templates: Vec<Span>,
    wanted: &[bool],
    outer: &[spring::Prop],
    facts: &mut Facts,
) {
    let templated = !templates.is_empty();
    // Lines are needed only for errors and templates.
    let lines = if templated || !file.errors.is_empty() {
        crate::source::LineIndex::new(text)
    } else {
        crate::source::LineIndex::default()
    };
    // A templated file's parse errors are summed up once, below.
    for err in file.errors.iter().filter(|_| !templated) {
        let line = lines.line_text(text, lines.line_of(err.span.start.min(text.len())));
        facts.diagnostics.push(unparsable_file::yaml_document(
            err.span,
            err.document,
            &err.message,
            line,
            file.documents.len(),
        ));
    }
    // A chart's `Chart.yaml` and values files are kept for the link step
    // that renders its templates with them.
    if path.file_name().is_some_and(|n| {
        crate::extract::helm::is_chart_file(&n.to_string_lossy().to_ascii_lowercase())
    }) {
        facts.claimed_by(crate::extract::helm::CLAIM);
    }
    if path.file_name().is_some_and(|n| {
        crate::extract::kustomize::is_kustomization(&n.to_string_lossy().to_ascii_lowercase())
    }) {
        facts.claimed_by(crate::extract::kustomize::CLAIM);
    }
    for doc in &file.documents {
        let ctx = DocCtx {
            path,
            text,
            file,
            doc,
            outer,
        };
        for (i, (name, _, extractor)) in DOC_EXTRACTORS.iter().enumerate() {
            if !wanted[i] {
                continue;
            }
            // Several extractors may read one document (a Deployment gives
            // a service identity, its env URLs and its AWS settings).
            if extractor(&ctx, facts) {
                facts.claimed_by(name);
            }
        }
    }
    istio::apply_mesh_defaults(facts);
    linkerd::apply_service_profiles(facts);
    if templated {
        report_templates(text, &lines, &templates, file, facts);
    }
    // A file that parsed but that no extractor recognised is not ours: its
    // parse errors alone are not worth a finding unless some document was.
    if facts.extractors.is_empty()
        && !file.errors.is_empty()
        && !looks_supported(text)
        && !spring_config_name(path)
    {
        facts.diagnostics.clear();
    }
}

/// Whether the file is named as Spring Boot's configuration
/// (`application*`, `bootstrap*`).
fn spring_config_name(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| properties::is_spring_config_name(&n.to_string_lossy()))
}

/// Whether the text looks like one of the formats we read even though it
/// did not parse (so a parse error is worth reporting).
fn looks_supported(text: &str) -> bool {
    (text.contains("apiVersion") && text.contains("kind"))
        || text.contains("resilience4j")
        || text.contains("methodConfig")
        || dotnet::NEEDLES.iter().any(|n| text.contains(n))
        || ["static_resources", "virtual_hosts", "virtualHosts"]
            .iter()
            .any(|k| text.contains(k))
}

/// In a templated file, what a template expression stands for is unknown:
/// a setting on a line with one is not checked (its finding would be about
/// the template, not the value), and what was skipped is reported once.
fn report_templates(
    text: &str,
    lines: &crate::source::LineIndex,
    templates: &[Span],
    file: &YamlFile,
    facts: &mut Facts,
) {
    let templated_lines: std::collections::HashSet<usize> = templates
        .iter()
        .flat_map(|t| lines.line_of(t.start.min(text.len()))..=lines.line_of(t.end.min(text.len())))
        .collect();
    let before = facts.diagnostics.len();
    facts.diagnostics.retain(|d| {
        let first = lines.line_of(d.span.start.min(text.len()));
        let last = lines.line_of(d.span.end.min(text.len()).max(d.span.start.min(text.len())));
        !(first..=last).any(|l| templated_lines.contains(&l))
    });
    let skipped = before - facts.diagnostics.len();
    let failed = file.errors.len();
    if failed == 0 && skipped == 0 {
        return;
    }
    let documents = file.documents.len() + failed;
    let mut parts = Vec::new();
    if failed > 0 {
        parts.push(format!(
            "{failed} of {documents} documents did not parse as YAML"
        ));
    }
    if skipped > 0 {
        parts.push(format!(
            "{skipped} setting{} set by template expressions",
            if skipped == 1 { " is" } else { "s are" }
        ));
    }
    let first = templates[0];
    let excerpt = text
        .get(first.start..first.end)
        .unwrap_or("")
        .chars()
        .take(40)
        .collect::<String>();
    facts.diagnostics.push(unparsable_file::templated(
        first,
        &format!(
            "{} (first template `{excerpt}`); they were not checked",
            parts.join(" and ")
        ),
    ));
}

#[cfg(test)]
mod template_tests;

#[cfg(test)]
mod robustness_tests;

#[cfg(test)]
mod remap_tests;

#[cfg(test)]
mod wanted_by_name_tests;

#[cfg(test)]
mod owners_tests;

#[cfg(test)]
mod overlay_tests;
