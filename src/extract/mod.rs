//! Extraction: one file in, [`Facts`] out. Pure functions of one file,
//! run in parallel; an extractor never panics and never looks at another
//! file. Problems become [`Diagnostic`]s (RL901/RL902/RL903).
//!
//! Classification is by path and name first, then by a cheap content sniff
//! ([`classify`]): a file no extractor wants costs one read and a few
//! substring searches.

pub mod istio;
pub mod java;
pub mod resilience4j;
pub mod spring;
pub mod workload;

use crate::model::{CallEdge, RetryPolicy, ServiceDecl, TimeoutSetting};
use crate::rules::Diagnostic;
use crate::rules::settings::unparsable_file;
use crate::source::Span;
use crate::yaml::{self, Document, YamlFile};
use memchr::memmem;
use serde::Serialize;
use std::path::Path;

/// Everything one file says about retries and timeouts.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Facts {
    pub policies: Vec<RetryPolicy>,
    pub timeouts: Vec<TimeoutSetting>,
    pub edges: Vec<CallEdge>,
    pub services: Vec<ServiceDecl>,
    #[serde(skip)]
    pub diagnostics: Vec<Diagnostic>,
    /// The extractors that found something they read in this file.
    pub extractors: Vec<&'static str>,
}

impl Facts {
    pub fn is_empty(&self) -> bool {
        self.policies.is_empty()
            && self.timeouts.is_empty()
            && self.edges.is_empty()
            && self.services.is_empty()
            && self.diagnostics.is_empty()
    }

    pub fn claimed_by(&mut self, extractor: &'static str) {
        if !self.extractors.contains(&extractor) {
            self.extractors.push(extractor);
        }
    }
}

/// The syntax a file is read with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Syntax {
    Yaml,
    Json,
    /// Java source, read with tree-sitter.
    Java,
}

/// A YAML-document extractor: claims a document it recognises and adds
/// what it reads to `facts`. Returns whether it claimed the document.
pub type DocExtractor = fn(&DocCtx<'_>, &mut Facts) -> bool;

/// What a document extractor sees.
pub struct DocCtx<'a> {
    pub path: &'a Path,
    pub text: &'a str,
    pub file: &'a YamlFile,
    pub doc: &'a Document,
}

impl<'a> DocCtx<'a> {
    pub fn root(&self) -> yaml::Yaml<'a> {
        self.file.root(self.doc)
    }
}

/// The YAML/JSON document extractors, in the order they are offered a
/// document, with the substrings that make a file worth parsing for them.
pub const DOC_EXTRACTORS: &[(&str, &[&str], DocExtractor)] = &[
    ("istio", &["networking.istio.io"], istio::extract),
    (
        "resilience4j",
        &["resilience4j"],
        resilience4j::extract_yaml,
    ),
    ("workload", workload::NEEDLES, workload::extract),
];

/// Decide how to read a file from its path and first bytes, or `None` when
/// no extractor wants it.
pub fn classify(path: &Path, bytes: &[u8]) -> Option<Syntax> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    if ext == "java" {
        return java::wants(bytes).then_some(Syntax::Java);
    }
    let syntax = match ext {
        "yml" | "yaml" => Syntax::Yaml,
        "json" => Syntax::Json,
        _ => return None,
    };
    if syntax == Syntax::Yaml && workload::is_compose(&name) {
        return Some(syntax);
    }
    let wanted = DOC_EXTRACTORS.iter().any(|(_, needles, _)| {
        needles
            .iter()
            .any(|n| memmem::find(bytes, n.as_bytes()).is_some())
    });
    wanted.then_some(syntax)
}

/// Whether a file's name alone says it is a supported format (used for
/// files too large to read).
pub fn supported_by_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    // Not `.java`: a Java file that large is generated code, which has no
    // retry settings worth a finding.
    name.ends_with(".yml") || name.ends_with(".yaml") || name.ends_with(".json")
}

/// Read one file's facts. Never panics on any input.
pub fn extract(path: &Path, text: &str, syntax: Syntax) -> Facts {
    let mut facts = Facts::default();
    match syntax {
        Syntax::Yaml | Syntax::Json => extract_yaml_stream(path, text, &mut facts),
        Syntax::Java => java::extract(text, &mut facts),
    }
    facts
}

fn extract_yaml_stream(path: &Path, text: &str, facts: &mut Facts) {
    let file = yaml::parse(text);
    let lines = crate::source::LineIndex::new(text);
    let templated = text.contains("{{") && text.contains("}}");
    for err in &file.errors {
        let reason = if templated {
            format!(
                "templated file (Helm/Go template) did not parse as YAML: {}",
                err.message
            )
        } else {
            err.message.clone()
        };
        let line = lines.line_text(text, lines.line_of(err.span.start.min(text.len())));
        facts.diagnostics.push(unparsable_file::yaml_document(
            err.span,
            err.document,
            &reason,
            line,
            file.documents.len(),
        ));
        if templated {
            // One finding for a templated file is enough.
            break;
        }
    }
    for doc in &file.documents {
        let ctx = DocCtx {
            path,
            text,
            file: &file,
            doc,
        };
        let compose = path
            .file_name()
            .is_some_and(|n| workload::is_compose(&n.to_string_lossy()));
        for (name, needles, extractor) in DOC_EXTRACTORS {
            let sniffed = needles.iter().any(|n| text.contains(n));
            let wanted = sniffed || (compose && *name == "workload");
            if !wanted {
                continue;
            }
            // Several extractors may read one document (a Deployment gives
            // a service identity, its env URLs and its AWS settings).
            if extractor(&ctx, facts) {
                facts.claimed_by(name);
            }
        }
    }
    // A file that parsed but that no extractor recognised is not ours: its
    // parse errors alone are not worth a finding unless some document was.
    if facts.extractors.is_empty() && !file.errors.is_empty() && !looks_supported(text) {
        facts.diagnostics.clear();
    }
}

/// Whether the text looks like one of the formats we read even though it
/// did not parse (so a parse error is worth reporting).
fn looks_supported(text: &str) -> bool {
    (text.contains("apiVersion") && text.contains("kind")) || text.contains("resilience4j")
}

/// Span of a whole YAML entry (key to end of value), or of the value when
/// there is no key.
pub fn entry_span(e: &yaml::Entry<'_>) -> Span {
    e.span()
}

/// Report every key of `map` that is not in `known` (RL901, with a
/// did-you-mean). `what` names the block for the message.
pub fn check_yaml_keys(map: yaml::Yaml<'_>, known: &[&str], what: &str, facts: &mut Facts) {
    for e in map.entries() {
        if !known.contains(&e.key) {
            facts
                .diagnostics
                .push(crate::rules::settings::unknown_setting::unknown_key(
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
                .push(crate::rules::settings::invalid_setting::value(
                    v.span(),
                    key,
                    text,
                    &e,
                ));
            None
        }
    }
}

/// A host as a service name: `orders.shop.svc.cluster.local:8080` and
/// `http://orders:8080/x` are `orders`; external names stay whole.
pub fn short_host(host: &str) -> String {
    let h = host.trim();
    let h = h.split_once("://").map_or(h, |(_, rest)| rest);
    let h = h.split(['/', '?']).next().unwrap_or(h);
    let h = h.rsplit_once('@').map_or(h, |(_, rest)| rest);
    let h = match h.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => h,
    };
    let h = h.trim_end_matches('.');
    let labels: Vec<&str> = h.split('.').collect();
    const TLDS: &[&str] = &[
        "com",
        "org",
        "net",
        "io",
        "dev",
        "cloud",
        "app",
        "co",
        "uk",
        "de",
        "internal",
        "local",
        "aws",
        "amazonaws",
    ];
    let in_cluster = labels.contains(&"svc") || (labels.len() == 2 && !TLDS.contains(&labels[1]));
    if in_cluster {
        labels[0].to_string()
    } else {
        h.to_string()
    }
}

#[cfg(test)]
mod host_tests {
    use super::short_host;

    #[test]
    fn hosts_normalise_to_service_names() {
        assert_eq!(short_host("orders.shop.svc.cluster.local:8080"), "orders");
        assert_eq!(short_host("http://payments:8080/api"), "payments");
        assert_eq!(short_host("reviews.prod"), "reviews");
        assert_eq!(short_host("orders"), "orders");
        assert_eq!(short_host("api.stripe.com"), "api.stripe.com");
        assert_eq!(
            short_host("dynamodb.us-east-1.amazonaws.com"),
            "dynamodb.us-east-1.amazonaws.com"
        );
    }
}
