//! Extraction: one file in, [`Facts`] out. Pure functions of one file,
//! run in parallel; an extractor never panics and never looks at another
//! file. Problems become [`Diagnostic`]s (RL901/RL902/RL903).
//!
//! Classification is by path and name first, then by a cheap content sniff
//! ([`classify`]): a file no extractor wants costs one read and a few
//! substring searches.

pub mod aws;
pub mod build;
pub mod dotnet;
pub mod envoy;
pub mod gatewayapi;
pub mod grpc;
pub mod ingress_nginx;
pub mod istio;
pub mod java;
pub mod json_check;
pub mod linkerd;
pub mod nginx;
pub mod properties;
pub mod resilience4j;
pub mod rust;
pub mod spring;
pub mod spring_boot_retry;
pub mod spring_cloud_gateway;
pub mod spring_cloud_gateway_mvc;
pub mod spring_placeholders;
pub mod workload;

use crate::diag::unparsable_file;
use crate::source::Span;
use crate::yaml::{self, Document, YamlFile};
use memchr::memmem;
use std::path::Path;

pub use crate::model::Facts;

pub use crate::model::Syntax;

/// A YAML-document extractor: claims a document it recognises and adds
/// what it reads to `facts`. Returns whether it claimed the document.
pub type DocExtractor = fn(&DocCtx<'_>, &mut Facts) -> bool;

/// What a document extractor sees.
pub struct DocCtx<'a> {
    pub path: &'a Path,
    pub text: &'a str,
    pub file: &'a YamlFile,
    pub doc: &'a Document,
    /// Spring properties of other files that this one's placeholders may
    /// refer to (see [`spring_placeholders`]); empty on the first read.
    pub outer: &'a [spring::Prop],
}

impl<'a> DocCtx<'a> {
    pub fn root(&self) -> yaml::Yaml<'a> {
        self.file.root(self.doc)
    }
}

/// The YAML/JSON document extractors, in the order they are offered a
/// document, with the substrings that make a file worth parsing for them.
pub const DOC_EXTRACTORS: &[(&str, &[&str], DocExtractor)] = &[
    (
        "istio",
        &["networking.istio.io", "defaultHttpRetryPolicy"],
        istio::extract,
    ),
    ("spring", SPRING_NEEDLES, spring::extract_yaml),
    (
        "envoy",
        &[
            "static_resources",
            "staticResources",
            "dynamic_resources",
            "virtual_hosts",
            "virtualHosts",
            "route_config",
            "circuit_breakers",
            "cluster_manager",
        ],
        envoy::extract,
    ),
    (
        "gatewayapi",
        &["gateway.networking.k8s.io", "policy.linkerd.io"],
        gatewayapi::extract,
    ),
    ("linkerd", &["linkerd.io"], linkerd::extract),
    ("workload", workload::NEEDLES, workload::extract),
    (
        "ingress-nginx",
        ingress_nginx::NEEDLES,
        ingress_nginx::extract,
    ),
    (
        "grpc",
        &["methodConfig", "methodconfig", "MethodConfig"],
        grpc::extract_doc,
    ),
    ("dotnet", dotnet::NEEDLES, dotnet::extract_doc),
    ("aws", aws::ENV_NEEDLES, aws::extract_env_doc),
];

/// Substrings that make a YAML or `.properties` file worth reading as
/// Spring configuration: Resilience4j, any `retry`/`Retry` setting (Spring
/// Cloud Gateway, Config client, Rabbit, Kafka), the Config client's
/// `fail-fast`, and Spring Cloud Stream bindings.
pub const SPRING_NEEDLES: &[&str] = &[
    "resilience4j",
    "etry",
    "fail-fast",
    "failFast",
    "fail_fast",
    "bindings",
];

/// Decide how to read a file from its path and first bytes, or `None` when
/// no extractor wants it.
pub fn classify(path: &Path, bytes: &[u8]) -> Option<Syntax> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    if let Some(kind) = build::kind_of(&name) {
        return build::wanted(kind, bytes).then_some(Syntax::Build(kind));
    }
    if nginx::claims(path, &name, bytes) {
        return Some(Syntax::Nginx);
    }
    if let Some(s) = sdk_syntax(path, &name, bytes) {
        return Some(s);
    }
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    if ext == "java" {
        return java::wants(bytes).then_some(Syntax::Java);
    }
    let syntax = match ext {
        "yml" | "yaml" => Syntax::Yaml,
        "json" => Syntax::Json,
        "properties" => {
            // Spring Boot's own files by name; any other `.properties` only
            // when it mentions a setting a Spring extractor reads.
            let wanted = properties::is_spring_config_name(&name) || SPRING_FINDERS.any_in(bytes);
            return wanted.then_some(Syntax::Properties);
        }
        "rs" => return rust::wants(bytes).then_some(Syntax::Rust),
        "py" => return crate::systems::python::extract::wants(bytes).then_some(Syntax::Python),
        _ => return None,
    };
    if syntax == Syntax::Yaml && workload::is_compose(&name) {
        return Some(syntax);
    }
    // Spring Boot's own files by name (`application*.yml`): they declare the
    // service identity even without retry settings.
    if syntax == Syntax::Yaml && properties::is_spring_config_name(&name) {
        return Some(syntax);
    }
    let wanted = DOC_FINDERS.any_in(bytes);
    wanted.then_some(syntax)
}

/// A set of words a file is sniffed for, searched in one pass over its
/// bytes (Aho-Corasick; SIMD for short sets), built once per set: most
/// files a walk finds are sniffed and rejected, so this runs on every one
/// of them, warm cache or not.
pub struct Needles(aho_corasick::AhoCorasick);

impl Needles {
    pub fn new<'a>(words: impl IntoIterator<Item = &'a str>) -> Needles {
        Needles(
            aho_corasick::AhoCorasick::builder()
                .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                .build(words)
                .expect("a few short literal needles always build"),
        )
    }

    /// Whether `bytes` holds any of the words.
    pub fn any_in(&self, bytes: &[u8]) -> bool {
        self.0.is_match(bytes)
    }
}

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

/// Files the SDK extractors want by name: AWS shared config and
/// credentials files (INI), .NET `appsettings*.json` (JSON with comments),
/// gRPC `*service_config*.json`.
fn sdk_syntax(path: &Path, name: &str, bytes: &[u8]) -> Option<Syntax> {
    if aws::is_aws_file(path, bytes) {
        return Some(Syntax::Ini);
    }
    if dotnet::is_appsettings(name) {
        return Some(Syntax::Jsonc);
    }
    if name.ends_with(".json") && name.contains("service_config") {
        return Some(Syntax::Json);
    }
    None
}

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
}

#[cfg(test)]
mod spring_name_tests;

/// Read one file's facts. Never panics on any input.
pub fn extract(path: &Path, text: &str, syntax: Syntax) -> Facts {
    extract_with_outer(path, text, syntax, &[])
}

/// [`extract`], with the Spring properties of other files that this file's
/// placeholders may refer to (the link step's second read).
pub fn extract_with_outer(
    path: &Path,
    text: &str,
    syntax: Syntax,
    outer: &[spring::Prop],
) -> Facts {
    let mut facts = Facts::default();
    match syntax {
        Syntax::Yaml => extract_yaml_stream(path, text, outer, &mut facts),
        Syntax::Json => match json_check::check(text) {
            None => extract_yaml_stream(path, text, outer, &mut facts),
            Some(stop) => {
                let mut read = Facts::default();
                extract_yaml_stream(path, text, outer, &mut read);
                json_check::rejected(path, text, stop, read, &mut facts);
            }
        },
        Syntax::Java => java::extract(text, &mut facts),
        Syntax::Ini => aws::extract_ini(path, text, &mut facts),
        Syntax::Jsonc => extract_yaml_stream(path, &yaml::strip_jsonc(text), outer, &mut facts),
        Syntax::Properties => properties::extract(path, text, outer, &mut facts),
        Syntax::Nginx => nginx::extract(text, &mut facts),
        Syntax::Rust => rust::extract(path, text, &mut facts),
        Syntax::Python => crate::systems::python::extract::extract(path, text, &mut facts),
        Syntax::Build(kind) => {
            if let Some(build) = build::extract(kind, text) {
                facts.build = Some(build);
                facts.claimed_by("build");
            }
        }
    }
    facts
}

fn extract_yaml_stream(path: &Path, text: &str, outer: &[spring::Prop], facts: &mut Facts) {
    let file = yaml::parse(text);
    let lines = crate::source::LineIndex::new(text);
    let templates = template_regions(text);
    let templated = !templates.is_empty();
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
    // Which extractors the file's text is worth offering documents to,
    // decided once per file (not once per document).
    let compose = path
        .file_name()
        .is_some_and(|n| workload::is_compose(&n.to_string_lossy()));
    let spring_named = spring_config_name(path);
    let wanted: Vec<bool> = DOC_EXTRACTORS
        .iter()
        .map(|(name, needles, _)| {
            needles.iter().any(|n| text.contains(n))
                || (compose && *name == "workload")
                || (spring_named && *name == "spring")
        })
        .collect();
    for doc in &file.documents {
        let ctx = DocCtx {
            path,
            text,
            file: &file,
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
        report_templates(text, &lines, &templates, &file, facts);
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

/// Template expressions in a file: Helm/Go `{{ ... }}` and `#{...}`
/// (Octopus, Azure DevOps token replacement). Byte ranges, in order.
pub fn template_regions(text: &str) -> Vec<Span> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'{' && b[i + 1] == b'{' {
            if let Some(end) = memmem::find(&b[i + 2..], b"}}") {
                out.push(Span::new(i, i + 2 + end + 2));
                i += 2 + end + 2;
                continue;
            }
            break;
        }
        if b[i] == b'#' && b[i + 1] == b'{' {
            // A `#{...}` on one line.
            let rest = &b[i + 2..];
            let line_end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
            if let Some(end) = memchr::memchr(b'}', &rest[..line_end]) {
                out.push(Span::new(i, i + 2 + end + 1));
                i += 2 + end + 1;
                continue;
            }
        }
        i += 1;
    }
    out
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

/// Map a span inside a block scalar's text (the ConfigMap's `mesh: |`)
/// back to the file: line by line, adding the block's indentation.
pub fn embedded_span(file: &str, value: Span, inner: &str, s: Span) -> Span {
    let Some(block) = file.get(value.start..value.end.min(file.len())) else {
        return value;
    };
    // The parser's span starts at the `|`/`>` indicator or at the content.
    let first = match block.find('\n') {
        Some(i) if block.starts_with(['|', '>']) => {
            let body = &block[i + 1..];
            let lead = body
                .lines()
                .find(|l| !l.trim().is_empty())
                .map_or(0, |l| l.len() - l.trim_start().len());
            value.start + i + 1 + lead
        }
        _ => value.start,
    };
    let line_start = file[..first].rfind('\n').map_or(0, |i| i + 1);
    let indent = first - line_start;
    let mut starts = Vec::new();
    let mut at = line_start;
    for l in file[line_start..value.end.min(file.len())].split_inclusive('\n') {
        starts.push(at);
        at += l.len();
    }
    let point = |off: usize| -> usize {
        let off = off.min(inner.len());
        let line = inner[..off].matches('\n').count();
        let col = off - inner[..off].rfind('\n').map_or(0, |i| i + 1);
        starts
            .get(line)
            .map_or(value.start, |st| (st + indent + col).min(value.end))
    };
    Span::new(point(s.start), point(s.end).max(point(s.start)))
}

/// Move every span of `facts` with `f` (facts read from text embedded in
/// another file, such as a ConfigMap's value).
pub fn remap_facts(facts: &mut Facts, f: &impl Fn(Span) -> Span) {
    fn loc<T>(l: &mut crate::model::Located<T>, f: &impl Fn(Span) -> Span) {
        l.span = f(l.span);
    }
    for p in &mut facts.policies {
        p.span = f(p.span);
        loc(&mut p.attempts, f);
        loc(&mut p.delay, f);
        loc(&mut p.jitter, f);
        loc(&mut p.retry_on, f);
        loc(&mut p.methods, f);
        if let crate::model::RetryOn::Listed { conditions } = &mut p.retry_on.value {
            for c in conditions {
                loc(c, f);
            }
        }
        for t in [&mut p.per_try_timeout, &mut p.overall_timeout]
            .into_iter()
            .flatten()
        {
            loc(t, f);
        }
        if let Some(b) = &mut p.budget {
            loc(b, f);
        }
        if let Some(c) = &mut p.scope.callee {
            loc(c, f);
        }
        if let crate::model::BudgetSite::Block { span, .. } = &mut p.budget_site {
            *span = f(*span);
        }
        for k in &mut p.idempotency {
            k.span = f(k.span);
        }
    }
    for t in &mut facts.timeouts {
        loc(&mut t.timeout, f);
    }
    for e in &mut facts.edges {
        e.span = f(e.span);
    }
    for s in &mut facts.services {
        s.span = f(s.span);
    }
    for d in &mut facts.diagnostics {
        d.span = f(d.span);
        for r in &mut d.related {
            r.0 = f(r.0);
        }
    }
}

/// Report every key of `map` that is not in `known` (RL901, with a
/// did-you-mean). `what` names the block for the message.
pub fn check_yaml_keys(map: yaml::Yaml<'_>, known: &[&str], what: &str, facts: &mut Facts) {
    for e in map.entries() {
        if !known.contains(&e.key) {
            facts
                .diagnostics
                .push(crate::diag::unknown_setting::unknown_key(
                    e.key_span,
                    e.key,
                    what,
                    known.iter().copied(),
                ));
        }
    }
}

/// Parse a Go-style duration value, reporting RL902 when it does not parse.
pub fn go_duration(v: yaml::Yaml<'_>, key: &str, facts: &mut Facts) -> Option<std::time::Duration> {
    let text = v.as_str().unwrap_or("");
    match crate::duration::parse_go(text) {
        Ok(d) => Some(d),
        Err(e) => {
            facts
                .diagnostics
                .push(crate::diag::invalid_setting::value(v.span(), key, text, &e));
            None
        }
    }
}

pub use crate::model::calls::short_host;

#[cfg(test)]
mod template_tests;

#[cfg(test)]
mod robustness_tests;

/// Whether [`classify`] could claim a file with this path, whatever its
/// content: a superset of what it claims, decided from the name alone, so
/// that a file no extractor can want (`.md`, `.png`, `.lock`, `.java`,
/// `.txt`, ...) is not even read.
pub fn wanted_by_name(path: &Path) -> bool {
    let Some(name) = path.file_name() else {
        return false;
    };
    // No allocation: this runs for every file of the tree.
    let name = name.as_encoded_bytes();
    let ends = |suffix: &[u8]| {
        name.len() >= suffix.len() && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
    };
    let has = |needle: &[u8]| {
        name.windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
    };
    let starts = |prefix: &[u8]| {
        name.len() >= prefix.len() && name[..prefix.len()].eq_ignore_ascii_case(prefix)
    };
    if [
        ".yml",
        ".yaml",
        ".json",
        ".properties",
        ".rs",
        ".java",
        ".py",
        ".conf",
        ".nginx",
    ]
    .iter()
    .any(|e| ends(e.as_bytes()))
        || ends(b".conf.template")
        // Build files, for library versions (`build::kind_of`).
        || name.eq_ignore_ascii_case(b"pom.xml")
        || name.eq_ignore_ascii_case(b"build.gradle")
        || name.eq_ignore_ascii_case(b"build.gradle.kts")
        || name.eq_ignore_ascii_case(b"cargo.lock")
        || name.eq_ignore_ascii_case(b"directory.packages.props")
        || ends(b".versions.toml")
        || ends(b".csproj")
        || ends(b".conf.tmpl")
        || starts(b"shared_config")
        || starts(b"shared_credentials")
        || (has(b"aws") && (has(b"config") || has(b"credentials")))
        || ((name.eq_ignore_ascii_case(b"config") || name.eq_ignore_ascii_case(b"credentials"))
            && aws::is_aws_path(path))
    {
        return true;
    }
    // nginx reads any file it is told to: the files of `sites-available`,
    // `sites-enabled` and `snippets` (Debian's layout) often have no
    // extension (`sites-available/default`, `snippets/proxy_params`).
    path.parent()
        .is_some_and(|p| p.components().any(|c| nginx::any_name_dir(c.as_os_str())))
}

#[cfg(test)]
mod wanted_by_name_tests;
