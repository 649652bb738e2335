//! Root-key gates: which YAML documents a document reader can read,
//! decided from the document's root keys before it is parsed (issue 27,
//! item 2: "YAML documents that name a known kind").
//!
//! A file is parsed when its text holds one of a reader's sniff words
//! (`DocReader::needles`), anywhere: envoyproxy/gateway's 1,455
//! `internal/gatewayapi/testdata` files say `gateway.networking.k8s.io`
//! and `kind: Deployment` inside lists under roots like `gateways:` and
//! `xdsIR:`, so they were parsed for the Gateway API and workload readers,
//! which read only a document whose *root* `apiVersion` names their group.
//! Each gate below says, from a document's root keys and its root
//! `apiVersion` and `kind` values, whether its reader may read the
//! document (or use it for another document of the file); it mirrors the
//! early returns of the reader it names, and a reader with no gate here
//! reads every document. A document that no reader wanted for the file
//! accepts is blanked before the parse (`unread_docs`: same offsets, a
//! null document).
//!
//! The root keys are read from the text, conservatively ([`head`]): only
//! a block mapping at column 0 whose column-0 lines are plain `key:` lines
//! (or a compact sequence's `- ` items under a key with no value on its
//! line), with at most one `apiVersion` and one `kind`, each a plain or
//! simply quoted one-line scalar. Anything else (flow or quoted keys,
//! merge keys, anchors, aliases, tags, block scalars or continuation lines
//! for those two values) is [`Head::Unknown`], and an unknown document is
//! always parsed. `gates_change_no_fact` (tests) reads every YAML file of
//! the fixtures and the corpus with and without gates, and
//! `a_rejected_document_gives_no_fact` runs each gated reader alone on
//! every document its gate rejects. `RETRYLINT_NO_ROOT_GATES=1` turns the
//! gates off (definitions are still blanked).
//!
//! The one behaviour change, as for definitions: a syntax error inside a
//! document no reader reads is no longer an RL903 (the document is not
//! parsed). The fixture `RL903/err/yaml-alias-bomb.yaml` now holds a
//! Resilience4j key beside its alias bomb, so that a reader reads it.

use crate::keys::normalise_key;

/// What the text says of a document's root.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Head<'a> {
    /// Nothing but blanks and comments: a null document already.
    Empty,
    /// Not read from the text (see the module's comment): always parsed.
    Unknown,
    Map(Root<'a>),
}

/// A block mapping's root keys, its `apiVersion` and its `kind`.
#[derive(Debug, PartialEq, Eq, Default)]
pub(super) struct Root<'a> {
    pub keys: Vec<&'a str>,
    pub api: Option<&'a str>,
    pub kind: Option<&'a str>,
}

impl Root<'_> {
    fn has(&self, key: &str) -> bool {
        self.keys.contains(&key)
    }
    /// `root.get("apiVersion").is_some() && root.get("kind").is_some()`:
    /// a Kubernetes object.
    fn is_object(&self) -> bool {
        self.has("apiVersion") && self.has("kind")
    }
    /// `root.get("apiVersion").and_then(as_str).unwrap_or("")`.
    fn api(&self) -> &str {
        self.api.unwrap_or("")
    }
    fn kind_is(&self, kinds: &[&str]) -> bool {
        self.kind.is_some_and(|k| kinds.contains(&k))
    }
}

/// The readers that read a document of a file together with the file's
/// other documents: Spring resolves a document's `${...}` placeholders
/// from the other documents of its file (`spring::extract::extract_yaml`).
/// When one of these reads any document of a file, no document of it is
/// blanked.
const WHOLE_FILE: &[&str] = &["spring"];

/// The first segments of the properties Spring's readers read
/// (`resilience4j.*`: `resilience4j::extract::blocks::group` and
/// `check_sections`; `spring.*`: `spring::cloud_gateway::gateway_base`,
/// `spring::boot_retry`, `spring::extract::application_name`;
/// `feign.client.config`: `spring::boot_retry::openfeign`), relaxed
/// (`keys::normalise_key`, as `Prop::normalised` compares them).
const SPRING_ROOTS: &[&str] = &["spring", "resilience4j", "feign"];

/// Whether the reader `name` may read a document with this root (`true`
/// for a reader with no gate).
pub(super) fn accepts(name: &str, r: &Root<'_>) -> bool {
    use crate::systems::{gateway_api, istio, knative, linkerd};
    match name {
        // istio::extract::read_document: its API group, else mesh_config
        // (a ConfigMap's `data.mesh`, an IstioOperator's
        // `spec.meshConfig`, or with no `kind` a root `meshConfig` or
        // `defaultHttpRetryPolicy`), else istio::compat::old_default (an
        // istiod Deployment's env, an IstioOperator, the istiod chart's
        // values: a root `pilot` or `meshConfig`).
        "istio" => {
            r.api().starts_with(istio::extract::API_GROUP)
                || r.kind_is(&["ConfigMap", "IstioOperator", "Deployment"])
                || (!r.has("kind")
                    && (r.has("meshConfig") || r.has("defaultHttpRetryPolicy") || r.has("pilot")))
        }
        // spring::extract::extract_yaml: not a Kubernetes object, and its
        // properties are read only under SPRING_ROOTS.
        "spring" => {
            !r.is_object()
                && r.keys.iter().any(|k| {
                    let first = k.split('.').next().unwrap_or(k);
                    SPRING_ROOTS.contains(&normalise_key(first).as_str())
                })
        }
        // envoy::extract::extract: a ConfigMap, an EnvoyPatchPolicy, or
        // anything that is not a Kubernetes object (walked whole).
        "envoy" => !r.is_object() || r.kind_is(&["ConfigMap", "EnvoyPatchPolicy"]),
        // gateway_api::extract::extract.
        "gatewayapi" => {
            r.api().starts_with(gateway_api::extract::API_GROUP)
                || r.api().starts_with("policy.linkerd.io/")
        }
        // envoy_gateway::extract::extract (a BackendTrafficPolicy) and
        // envoy_gateway::security (a SecurityPolicy).
        "envoygateway" => {
            r.api().starts_with("gateway.envoyproxy.io/")
                && r.kind_is(&["BackendTrafficPolicy", "SecurityPolicy"])
        }
        // linkerd::extract::extract: a ServiceProfile of its group, or an
        // annotated `v1` Service.
        "linkerd" => {
            r.api().starts_with(linkerd::extract::API_GROUP)
                || r.api().starts_with("split.smi-spec.io/")
                || r.kind_is(&["Service"])
        }
        // extract::workload::extract outside a Compose file (whose
        // documents are all offered: see `read::extract_yaml_stream`):
        // `apiVersion` and a `kind` it reads (a workload of its list, a
        // `Service` or a `Namespace`; RBAC objects, service accounts,
        // webhooks ... it returns on).
        "workload" => {
            r.is_object()
                && (r.kind_is(crate::extract::workload::WORKLOADS)
                    || r.kind_is(&["Service", "Namespace"]))
        }
        // nginx::ingress::extract: an Ingress or a controller ConfigMap
        // (also read for an Ingress of the same file).
        "ingress-nginx" => r.kind_is(&["Ingress", "ConfigMap"]),
        // ingress_classes::extract: an Ingress, an IngressClass, a Service
        // (Kong's `konghq.com/retries`), a Traefik Middleware or
        // IngressRoute, or Traefik's dynamic configuration (no `kind`, a
        // root `http`).
        "ingress-classes" => {
            r.kind_is(&[
                "Ingress",
                "IngressClass",
                "Service",
                "Middleware",
                "IngressRoute",
            ]) || (!r.has("kind") && r.has("http"))
        }
        // knative::read::extract.
        "knative" => r.api().starts_with(knative::read::API_GROUP),
        // dapr::read::extract: a `Resiliency` of its group.
        "dapr" => r.api().starts_with("dapr.io/") && r.kind_is(&["Resiliency"]),
        // dapr::run::extract: a multi-app run file (`version`, `apps`).
        "dapr-run" => !r.has("kind") && r.has("apps") && r.has("version"),
        // read::embedded::read: the values of a ConfigMap's `data` or a
        // Secret's `stringData`.
        "embedded" => r.kind_is(&["ConfigMap", "Secret"]),
        _ => true,
    }
}

/// The readers [`accepts`] has a gate for (every other accepts every
/// document).
pub(super) fn has_gate(name: &str) -> bool {
    matches!(
        name,
        "istio"
            | "spring"
            | "envoy"
            | "gatewayapi"
            | "envoygateway"
            | "linkerd"
            | "workload"
            | "ingress-nginx"
            | "ingress-classes"
            | "knative"
            | "dapr"
            | "dapr-run"
            | "embedded"
    )
}

/// The documents of `docs` (each a range of `text`, with whether it was
/// opened by a bare `---` or the stream's start) that no reader of
/// `readers` reads, by their gates; `skip[i]` marks a document blanked
/// already (a definition, `unread_docs`).
pub(super) fn unread(
    text: &str,
    docs: &[(std::ops::Range<usize>, bool)],
    skip: &[bool],
    readers: &[&str],
) -> Vec<bool> {
    let heads: Vec<Head<'_>> = docs
        .iter()
        .enumerate()
        .map(|(i, (range, bare))| match (skip[i], bare) {
            (true, _) => Head::Empty,
            (false, false) => Head::Unknown,
            (false, true) => head(&text[range.clone()], i == 0),
        })
        .collect();
    let whole = readers.iter().any(|name| {
        WHOLE_FILE.contains(name)
            && heads.iter().any(|h| match h {
                Head::Empty => false,
                Head::Unknown => true,
                Head::Map(r) => accepts(name, r),
            })
    });
    heads
        .iter()
        .map(|h| match h {
            Head::Map(r) => !whole && !readers.iter().any(|name| accepts(name, r)),
            _ => false,
        })
        .collect()
}

/// A document's root, read from its text (see the module's comment).
pub(super) fn head(doc: &str, first: bool) -> Head<'_> {
    let mut root = Root::default();
    let mut content = false;
    // Whether a `- ` line at column 0 is an item of the last key's value
    // (a compact sequence: the key had no value on its line).
    let mut items = false;
    // Whether the last key was `apiVersion` or `kind` (whose value may
    // not continue on an indented line).
    let mut scalar_key = false;
    let (mut apis, mut kinds) = (0, 0);
    for line in super::lines::lines(doc) {
        // An indented line under a key that may have one is skipped
        // before its blanks are walked (as the branch below would).
        if content && !scalar_key && line.starts_with([' ', '\t']) {
            continue;
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = line.trim_start_matches([' ', '\t']);
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indented = trimmed.len() != line.len();
        if indented {
            // A root mapping's first line is at column 0, and a one-line
            // scalar of ours has no continuation.
            if !content || scalar_key {
                return Head::Unknown;
            }
            continue;
        }
        content = true;
        if (line == "-" || line.starts_with("- ") || line.starts_with("-\t")) && items {
            continue;
        }
        if first && line.starts_with('%') {
            return Head::Unknown;
        }
        let Some((key, value)) = line.split_once(':') else {
            return Head::Unknown;
        };
        let plain_key = key.starts_with(|c: char| c.is_ascii_alphabetic())
            && key
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'/'));
        if !plain_key || !(value.is_empty() || value.starts_with([' ', '\t'])) {
            return Head::Unknown;
        }
        let value = without_comment(value);
        items = value.is_empty();
        scalar_key = matches!(key, "apiVersion" | "kind");
        if scalar_key {
            let Some(v) = one_line_scalar(value) else {
                return Head::Unknown;
            };
            if key == "kind" {
                kinds += 1;
                root.kind = Some(v);
            } else {
                apis += 1;
                root.api = Some(v);
            }
        }
        root.keys.push(key);
    }
    if !content {
        return Head::Empty;
    }
    if apis > 1 || kinds > 1 {
        return Head::Unknown;
    }
    Head::Map(root)
}

/// A value's text without a trailing comment (` #` or a tab and `#`),
/// trimmed. A `#` inside a quoted value may be cut: the quotes are then
/// unbalanced and [`one_line_scalar`] refuses the value.
fn without_comment(value: &str) -> &str {
    let v = value.trim_matches([' ', '\t']);
    let cut = v
        .char_indices()
        .find(|&(i, c)| c == '#' && i > 0 && v[..i].ends_with([' ', '\t']))
        .map_or(v.len(), |(i, _)| i);
    v[..cut].trim_end_matches([' ', '\t'])
}

/// A one-line scalar as the YAML parser reads it, or `None` when the text
/// is not simply one: empty (the value is on the next lines), an anchor,
/// an alias, a tag, a block scalar, a flow collection, a directive
/// indicator, or quoted with escapes.
fn one_line_scalar(v: &str) -> Option<&str> {
    let first = v.chars().next()?;
    if let Some(inner) = v.strip_prefix('"') {
        let inner = inner.strip_suffix('"')?;
        return (!inner.contains(['"', '\\'])).then_some(inner);
    }
    if let Some(inner) = v.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'')?;
        return (!inner.contains('\'')).then_some(inner);
    }
    let indicator = matches!(
        first,
        '&' | '*' | '!' | '|' | '>' | '[' | '{' | '%' | '@' | '`' | ',' | '?' | '-' | ':'
    );
    // `: ` or ` #` inside a plain scalar is not one scalar.
    (!indicator && !v.contains(": ") && !v.ends_with(':')).then_some(v)
}

#[cfg(test)]
#[path = "gates_tests.rs"]
pub(super) mod tests;
