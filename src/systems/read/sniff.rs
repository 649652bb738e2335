//! Which reader a file is for, from its path and first bytes
//! ([`classify`]): a file no extractor wants costs one read and a few
//! substring searches. What the sniff finds out on the way that the read
//! would ask again is handed on with the text ([`Sniffed`]).

use super::{DOC_FINDERS, JSON_DOC_FINDERS, SPRING_FINDERS};
use super::{aws, calls, dotnet, java, nginx, properties, rust};
use crate::extract::{Needles, Syntax, build, workload};
use std::path::Path;

/// Decide how to read a file from its path and first bytes, or `None` when
/// no extractor wants it.
pub fn classify(path: &Path, bytes: &[u8]) -> Option<Syntax> {
    classify_sniffed(path, bytes).map(|(syntax, _)| syntax)
}

/// What [`classify`] found out on the way that reading the same text
/// would ask again ([`extract_sniffed`](super::extract_sniffed)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sniffed {
    /// Whether a YAML file is a Compose file (`workload::is_compose_file`
    /// of its name and text), `None` when not asked: a search of the
    /// whole text for a `services:` line, and a walk of its lines when
    /// there is one (envoyproxy/gateway's translator test files).
    pub(super) compose: Option<bool>,
}

/// [`classify`], with what it found out on the way ([`Sniffed`]).
pub fn classify_sniffed(path: &Path, bytes: &[u8]) -> Option<(Syntax, Sniffed)> {
    let mut sniffed = Sniffed::default();
    classify_noting(path, bytes, &mut sniffed).map(|syntax| (syntax, sniffed))
}

/// [`classify`], noting in `sniffed` what it found out.
fn classify_noting(path: &Path, bytes: &[u8], sniffed: &mut Sniffed) -> Option<Syntax> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    if let Some(kind) = build::kind_of(&name) {
        return build::wanted(kind, bytes).then_some(Syntax::Build(kind));
    }
    if nginx::claims(path, &name, bytes) {
        return Some(Syntax::Nginx);
    }
    // A template (`nginx.conf.j2`, `envoy.yaml.tmpl`) is read as the file
    // it renders to (its text masked: nothing noted of this one).
    if let Some(inner) = crate::extract::template_text::rendered_name(&name) {
        return classify(&path.with_file_name(inner), bytes);
    }
    if let Some(s) = sdk_syntax(path, &name, bytes) {
        return Some(s);
    }
    // A kustomization, by name: its overlay is built by `link::kustomize`.
    if crate::extract::kustomize::is_kustomization(&name) {
        return Some(Syntax::Yaml);
    }
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    if ext == "java" {
        return (java::wants(bytes)
            || calls::wants(bytes)
            || super::super::dapr::invoke::wants(bytes))
        .then_some(Syntax::Java);
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
        "rs" => return RUST_FINDERS.any_in(bytes).then_some(Syntax::Rust),
        // A Dapr invocation (`dapr::invoke`) is read in any of them.
        "py" => {
            return (super::super::python::extract::wants(bytes)
                || super::super::dapr::invoke::wants(bytes))
            .then_some(Syntax::Python);
        }
        // Every C# file: the link stage needs each one's names and
        // constants (`csharp::source`); only those that mention what the
        // reader reads are parsed (`csharp::extract::wants`).
        "cs" => return Some(Syntax::CSharp),
        "go" => {
            return (super::super::go::extract::wants(bytes)
                || super::super::dapr::invoke::wants(bytes))
            .then_some(Syntax::Go);
        }
        "vcl" => return super::super::varnish::extract::claims(&name).then_some(Syntax::Vcl),
        "xml" => {
            return super::super::cloud_tasks::xml::claims(&name, bytes)
                .then_some(Syntax::QueueXml);
        }
        // One claim for every Terraform reader: Cloud Tasks queues and
        // SQS queues (`extract_terraform`).
        "tf" => {
            return (super::super::cloud_tasks::terraform::claims(&name, bytes)
                || super::super::sqs::terraform::claims(&name, bytes))
            .then_some(Syntax::Terraform);
        }
        _ => return None,
    };
    if syntax == Syntax::Yaml {
        let compose = workload::is_compose_file(&name, bytes);
        sniffed.compose = Some(compose);
        if compose {
            return Some(syntax);
        }
    }
    // A Helm chart's own files, by name: its templates are rendered with
    // them (`link::helm`).
    if syntax == Syntax::Yaml && crate::extract::helm::is_chart_file(&name) {
        return Some(syntax);
    }
    // Spring Boot's own files by name (`application*.yml`): they declare the
    // service identity even without retry settings.
    if syntax == Syntax::Yaml && properties::is_spring_config_name(&name) {
        return Some(syntax);
    }
    let finders = match syntax {
        Syntax::Json => &*JSON_DOC_FINDERS,
        _ => &*DOC_FINDERS,
    };
    finders.any_in(bytes).then_some(syntax)
}

/// What makes a `.rs` file worth reading: a word of the Rust reader
/// ([`rust::wants`]) or of the call lexer ([`calls::wants`]), in one
/// automaton (one pass over a file with neither, not two).
static RUST_FINDERS: std::sync::LazyLock<Needles> =
    std::sync::LazyLock::new(|| Needles::new(rust::NEEDLES.iter().chain(calls::NEEDLES).copied()));

/// Files the SDK extractors want by name: AWS shared config and
/// credentials files (INI), .NET `appsettings*.json` and YARP's proxy
/// configuration in a JSON file of its own (JSON with comments),
/// gRPC `*service_config*.json`.
fn sdk_syntax(path: &Path, name: &str, bytes: &[u8]) -> Option<Syntax> {
    if aws::is_aws_file(path, bytes) {
        return Some(Syntax::Ini);
    }
    if dotnet::is_appsettings(name)
        || super::super::csharp::yarp::config::is_proxy_json(name, bytes)
    {
        return Some(Syntax::Jsonc);
    }
    if name.ends_with(".json") && name.contains("service_config") {
        return Some(Syntax::Json);
    }
    None
}
