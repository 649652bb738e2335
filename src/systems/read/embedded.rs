//! Configuration files carried in a Kubernetes ConfigMap's `data` or a
//! Secret's `stringData`: a key named like a file a reader takes
//! (`nginx.conf`, `*.conf`, `*service_config*.json`, `application.yml`,
//! `application.properties`) is read as that file, by the reader
//! [`super::classify`] picks for the key as a file name, and its spans are
//! mapped back into the manifest (`extract::embedded_span`,
//! `extract::remap_facts`). An Envoy configuration in a ConfigMap is read
//! by the Envoy reader itself (by content, whatever the key).

use crate::extract::{DocCtx, DocReader, Facts, Syntax};
use std::path::Path;

pub static READER: DocReader = DocReader {
    name: "embedded",
    needles: &["ConfigMap", "stringData"],
    read,
    // After every system's reader: the Envoy reader claims its ConfigMaps.
    order: 900,
};

/// How deep a file embedded in a file embedded in ... is read.
const MAX_DEPTH: usize = 2;

/// The words that make the Envoy reader take a ConfigMap value itself.
const ENVOY_WORDS: &[&str] = &["static_resources", "virtual_hosts", "virtualHosts"];

fn read(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let key = match root.get("kind").and_then(|k| k.as_str()) {
        Some("ConfigMap") => "data",
        Some("Secret") => "stringData",
        _ => return false,
    };
    // A file embedded in a file embedded in ... is read a bounded number
    // of levels deep: the path carries the keys read so far.
    if ctx.path.components().count() > 64
        || ctx.path.to_string_lossy().matches("#embedded/").count() >= MAX_DEPTH
    {
        return false;
    }
    let mut claimed = false;
    for e in root.get(key).map(|d| d.entries()).unwrap_or_default() {
        let Some(text) = e.value.as_str() else {
            continue;
        };
        let name = e.key.to_ascii_lowercase();
        if name.contains('/') || name.contains('\\') {
            continue;
        }
        let Some(syntax) = super::classify(Path::new(&name), text.as_bytes()) else {
            continue;
        };
        let yaml_like = matches!(syntax, Syntax::Yaml | Syntax::Json | Syntax::Jsonc);
        if yaml_like && ENVOY_WORDS.iter().any(|w| text.contains(w)) {
            continue;
        }
        if !matches!(
            syntax,
            Syntax::Nginx | Syntax::Yaml | Syntax::Json | Syntax::Properties
        ) {
            continue;
        }
        let inner_path = ctx.path.join(format!("#embedded/{name}"));
        let mut local = super::extract(&inner_path, text, syntax);
        if local.is_empty() && local.extractors.is_empty() {
            continue;
        }
        let value = e.value.span();
        crate::extract::remap_facts(&mut local, &|s| {
            crate::extract::embedded_span(ctx.text, value, text, s)
        });
        for d in &mut local.diagnostics {
            d.message = format!("in `{}`: {}", e.key, d.message);
        }
        crate::extract::absorb(facts, local);
        claimed = true;
    }
    claimed
}
