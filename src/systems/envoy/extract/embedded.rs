//! Envoy configuration carried in another YAML file: a ConfigMap's `data`
//! (`envoy.yaml: |`), a string anywhere in a document that is no
//! Kubernetes object (a block scalar in a Helm chart's values,
//! `envoyConfig: |`), and the JSON patches of an Envoy Gateway
//! `EnvoyPatchPolicy`, whose `value`s are fragments of the xDS resources
//! Envoy Gateway generates. Spans are mapped back into the file.

use super::*;

/// Words that make a string worth parsing as an Envoy configuration.
const WORDS: &[&str] = &[
    "static_resources",
    "staticResources",
    "virtual_hosts",
    "virtualHosts",
];

/// How many nodes of a document are looked at for strings (aliases may
/// repeat nodes), and how many strings are parsed.
const MAX_NODES_SEEN: usize = 100_000;
const MAX_STRINGS: usize = 64;

/// An Envoy configuration carried in a ConfigMap's `data` (`envoy.yaml: |`),
/// read with its spans mapped back to the file.
pub(super) fn config_map(ctx: &DocCtx<'_>, root: Yaml<'_>, facts: &mut Facts) -> bool {
    let mut claimed = false;
    for e in root.get("data").map(|d| d.entries()).unwrap_or_default() {
        claimed |= string(ctx, e.key, e.value, facts);
    }
    claimed
}

/// Every string of a document that holds an Envoy configuration (a
/// multi-line string with a bootstrap's or route configuration's keys).
pub(super) fn embedded_strings(ctx: &DocCtx<'_>, root: Yaml<'_>, facts: &mut Facts) -> bool {
    let mut claimed = false;
    let mut stack = vec![("", root)];
    let (mut seen, mut parsed) = (0usize, 0usize);
    while let Some((key, node)) = stack.pop() {
        seen += 1;
        if seen > MAX_NODES_SEEN || parsed >= MAX_STRINGS {
            break;
        }
        if let Some(text) = node.as_str() {
            if text.contains('\n') && WORDS.iter().any(|w| text.contains(w)) {
                parsed += 1;
                claimed |= string(ctx, key, node, facts);
            }
            continue;
        }
        stack.extend(node.entries().into_iter().rev().map(|e| (e.key, e.value)));
        stack.extend(node.items().into_iter().rev().map(|i| (key, i)));
    }
    claimed
}

/// One string value `node` (under `key`) read as an Envoy configuration.
fn string(ctx: &DocCtx<'_>, key: &str, node: Yaml<'_>, facts: &mut Facts) -> bool {
    let Some(text) = node.as_str() else {
        return false;
    };
    if !WORDS.iter().any(|k| text.contains(k)) {
        return false;
    }
    let inner = crate::yaml::parse(text);
    let mut local = Facts::default();
    let mut read = false;
    for doc in &inner.documents {
        read |= extract_root(inner.root(doc), &mut local);
    }
    if let Some(err) = inner.errors.first() {
        local.diagnostics.push(unparsable_file::unrecognised(
            err.span,
            "Envoy",
            &format!(
                "the Envoy configuration in `{key}` does not parse: {}",
                err.message
            ),
        ));
        read = true;
    }
    if !read {
        return false;
    }
    let value = node.span();
    crate::extract::remap_facts(&mut local, &|s| {
        crate::extract::embedded_span(ctx.text, value, text, s)
    });
    crate::extract::absorb(facts, local);
    true
}

/// An Envoy Gateway `EnvoyPatchPolicy` (`spec.jsonPatches`): each `add` or
/// `replace` whose `value` is a piece of Envoy configuration is read as the
/// piece its `path` (a JSON pointer into the resource of `type`) names: a
/// whole resource (a `RouteConfiguration`, `Listener` or `Cluster`), a
/// virtual host, a route or route action, or a `retry_policy`.
pub(super) fn patch_policy(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let name = root
        .path(&["metadata", "name"])
        .and_then(|n| n.as_str())
        .unwrap_or("EnvoyPatchPolicy");
    let patches = root
        .path(&["spec", "jsonPatches"])
        .map(|p| p.items())
        .unwrap_or_default();
    for patch in patches {
        let Some(op) = patch.get("operation") else {
            continue;
        };
        let verb = op.get("op").and_then(|o| o.as_str()).unwrap_or("");
        if verb != "add" && verb != "replace" {
            continue;
        }
        let Some(value) = op.entry("value") else {
            continue;
        };
        let path = op.get("path").and_then(|p| p.as_str()).unwrap_or("");
        let label = format!("{name} {path}");
        patch_value(value, path, &label, facts);
    }
    true
}

fn patch_value(value: Entry<'_>, path: &str, label: &str, facts: &mut Facts) {
    let last = path.rsplit('/').next().unwrap_or("");
    let clusters = HashMap::new();
    if last == "retry_policy" || last == "retryPolicy" {
        if let Some(parsed) = parse_retry(value, facts) {
            facts.policies.push(unrouted(parsed, label));
        }
        return;
    }
    let v = value.value;
    if !v.is_map() && !v.is_seq() {
        return;
    }
    // Whole resources, or a listener's filters holding a `route_config`.
    let before = (facts.policies.len(), facts.services.len());
    extract_root(v, facts);
    if (facts.policies.len(), facts.services.len()) != before {
        return;
    }
    let items = if v.is_seq() { v.items() } else { vec![v] };
    for (i, item) in items.into_iter().enumerate() {
        if !item.is_map() {
            continue;
        }
        if item.get("routes").is_some()
            || (field(item, "retry_policy").is_some() && item.get("domains").is_some())
        {
            virtual_host(item, i, &clusters, facts);
        } else if item.get("match").is_some()
            || item.get("route").is_some()
            || item.get("cluster").is_some()
            || field(item, "weighted_clusters").is_some()
        {
            route(item, label, None, None, &clusters, facts);
        } else if let Some(rp) = field(item, "retry_policy")
            && let Some(parsed) = parse_retry(rp, facts)
        {
            facts.policies.push(unrouted(parsed, label));
        }
    }
}

/// A retry policy patched in with its route out of sight: every method
/// (unless its `retriable_request_headers` say otherwise), the route's
/// timeout and cluster unknown.
fn unrouted(parsed: Parsed, label: &str) -> RetryPolicy {
    let mut p = parsed.policy;
    p.name = Some(label.to_string());
    p.scope.route = Some(label.to_string());
    p.methods = match parsed.request_methods {
        Some(m) => m,
        None => Located::default_at(Methods::All, p.span),
    };
    p.budget_site = BudgetSite::Unseen;
    p
}
