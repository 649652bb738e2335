//! ingress-nginx: the retry policy the controller writes into nginx for
//! each `Ingress` it serves (`networking.k8s.io/v1`, `v1beta1`,
//! `extensions/v1beta1`), from its `nginx.ingress.kubernetes.io/*`
//! annotations over the controller ConfigMap over the controller's
//! defaults, and the controller ConfigMap's own retry settings.
//!
//! Defaults (kubernetes/ingress-nginx `internal/ingress/controller/config/
//! config.go` `NewDefault`, annotations in `internal/ingress/annotations/
//! proxy/main.go`, template function `buildNextUpstream`):
//! `proxy-next-upstream` `error timeout`, `proxy-next-upstream-tries` 3
//! (every try, the first included; 0 = no limit), `proxy-next-upstream-timeout`
//! 0 (no limit), `proxy-connect-timeout` 5, `proxy-read-timeout` and
//! `proxy-send-timeout` 60, all integer seconds; ConfigMap
//! `retry-non-idempotent` false, which appends `non_idempotent` when true
//! (as does `non_idempotent` in `proxy-next-upstream`). An annotation whose
//! value does not parse is dropped by the controller and the default
//! applies. Peers are picked by the Lua balancer, which asks for one more
//! try each time (`set_more_tries(1)`), so the tries do not depend on the
//! number of endpoints.
//!
//! A `configuration-snippet` lands in every location after the
//! controller's directives: its `proxy_next_upstream` values add to the
//! controller's, and a repeated tries or timeout directive makes nginx
//! refuse the configuration.
//!
//! A ConfigMap in another file cannot be seen here: its settings apply to
//! Ingresses at link time ([`apply_configmap`], chosen by
//! `link::ingress_configmaps`); one in the same file applies at once.

use super::extract as nginx;
use crate::diag::{invalid_setting, unknown_setting};
use crate::extract::{DocCtx, Facts};
use crate::model::*;
use crate::source::Span;
use crate::yaml::Yaml;
use std::time::Duration;

mod policy;

use policy::build;
pub use policy::{apply_configmap, is_configmap_policy};

/// Substrings that make a YAML file worth parsing for this extractor.
pub const NEEDLES: &[&str] = &[
    "nginx.ingress.kubernetes.io",
    "Ingress",
    "ingress-nginx",
    "nginx-ingress",
    "nginx-configuration",
];

pub const PREFIX: &str = "nginx.ingress.kubernetes.io/";

/// The service name the controller has on the call-path graph.
pub const CONTROLLER: &str = "ingress-nginx";

pub const INGRESS_APIS: &[&str] = &[
    "networking.k8s.io/v1",
    "networking.k8s.io/v1beta1",
    "extensions/v1beta1",
];

/// The `proxy-next-upstream` values the controller accepts
/// (`validUpstreamAnnotation`).
pub const NEXT_UPSTREAM_VALUES: &[&str] = &[
    "error",
    "timeout",
    "invalid_header",
    "http_500",
    "http_502",
    "http_503",
    "http_504",
    "http_403",
    "http_404",
    "http_429",
    "non_idempotent",
    "off",
];

const NEXT_UPSTREAM: &str = "proxy-next-upstream";
const TRIES: &str = "proxy-next-upstream-tries";
const WINDOW: &str = "proxy-next-upstream-timeout";
const CONNECT: &str = "proxy-connect-timeout";
const READ: &str = "proxy-read-timeout";
const SEND: &str = "proxy-send-timeout";
const RETRY_NON_IDEMPOTENT: &str = "retry-non-idempotent";

/// The retry and timeout annotations.
const ANNOTATION_KEYS: &[&str] = &[NEXT_UPSTREAM, TRIES, WINDOW, CONNECT, READ, SEND];
/// The retry and timeout keys of the controller ConfigMap.
const CONFIGMAP_KEYS: &[&str] = &[
    NEXT_UPSTREAM,
    TRIES,
    WINDOW,
    CONNECT,
    READ,
    SEND,
    RETRY_NON_IDEMPOTENT,
];

pub const DEFAULT_NEXT_UPSTREAM: &str = "error timeout";
pub const DEFAULT_TRIES: i64 = 3;
pub const DEFAULT_CONNECT: u64 = 5;
pub const DEFAULT_READ: u64 = 60;

/// One setting: its value and the span of its `key: value` entry.
#[derive(Clone, Debug)]
struct Set<T> {
    value: T,
    span: Span,
    key_span: Span,
}

#[derive(Clone, Debug, Default)]
struct Settings {
    next_upstream: Option<Set<Vec<(String, Span)>>>,
    tries: Option<Set<i64>>,
    window: Option<Set<u64>>,
    connect: Option<Set<u64>>,
    read: Option<Set<u64>>,
    non_idempotent: Option<Set<bool>>,
    /// `proxy_next_upstream` values of a `configuration-snippet`, which
    /// nginx adds to the ones the controller writes in the location.
    snippet: Option<Set<Vec<(String, Span)>>>,
}

impl Settings {
    fn any_retry(&self) -> bool {
        self.next_upstream.is_some()
            || self.tries.is_some()
            || self.window.is_some()
            || self.non_idempotent.is_some()
    }

    /// The first retry setting written, for findings about defaults.
    fn first_retry_key(&self) -> Option<Span> {
        [
            self.next_upstream.as_ref().map(|s| s.key_span),
            self.tries.as_ref().map(|s| s.key_span),
            self.window.as_ref().map(|s| s.key_span),
            self.non_idempotent.as_ref().map(|s| s.key_span),
        ]
        .into_iter()
        .flatten()
        .min_by_key(|s| s.start)
    }
}

pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let api = root
        .get("apiVersion")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    match root.get("kind").and_then(|v| v.as_str()) {
        Some("Ingress") if INGRESS_APIS.contains(&api) => ingress(ctx, root, facts),
        Some("ConfigMap") if api == "v1" && is_controller_configmap(root) => {
            configmap(root, facts);
            true
        }
        _ => false,
    }
}

/// A ConfigMap whose name or labels say it configures the ingress-nginx
/// controller.
fn is_controller_configmap(root: Yaml<'_>) -> bool {
    let name = root
        .path(&["metadata", "name"])
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let named = name.contains("ingress-nginx")
        || name.contains("nginx-ingress")
        || name == "nginx-configuration"
        || (name.contains("nginx") && name.contains("controller"));
    let labelled = root
        .path(&["metadata", "labels"])
        .map(|l| l.entries())
        .unwrap_or_default()
        .iter()
        .any(|e| e.value.as_str().is_some_and(|v| v == "ingress-nginx"));
    named || labelled
}

/// The controller ConfigMap: a policy of its own when it sets retries.
fn configmap(root: Yaml<'_>, facts: &mut Facts) {
    let Some(data) = root.get("data") else { return };
    let settings = read(
        data,
        "",
        CONFIGMAP_KEYS,
        "the ingress-nginx ConfigMap",
        facts,
    );
    if !settings.any_retry() {
        return;
    }
    let name = root
        .path(&["metadata", "name"])
        .and_then(|v| v.as_str())
        .unwrap_or("ingress-nginx");
    let anchor = settings.first_retry_key().unwrap_or(data.span());
    let policy = build(
        &settings,
        &Settings::default(),
        format!("ConfigMap {name}"),
        anchor,
    );
    facts.policies.push(policy);
}

fn ingress(ctx: &DocCtx<'_>, root: Yaml<'_>, facts: &mut Facts) -> bool {
    let annotations = root
        .path(&["metadata", "annotations"])
        .filter(|a| a.is_map());
    let entries = annotations.map(|a| a.entries()).unwrap_or_default();
    let ours = entries.iter().any(|e| e.key.starts_with(PREFIX));
    let nginx_inc = entries.iter().any(|e| e.key.starts_with("nginx.org/"));
    let class = entries
        .iter()
        .find(|e| e.key == "kubernetes.io/ingress.class")
        .and_then(|e| e.value.as_str())
        .or_else(|| {
            root.path(&["spec", "ingressClassName"])
                .and_then(|v| v.as_str())
        })
        .unwrap_or("");
    if !(ours || (class.contains("nginx") && !nginx_inc)) {
        return false;
    }
    let name = root
        .path(&["metadata", "name"])
        .and_then(|v| v.as_str())
        .unwrap_or("unnamed")
        .to_string();
    let name_span = root
        .path(&["metadata", "name"])
        .map(|v| v.span())
        .unwrap_or(root.span());
    let settings = match annotations {
        Some(a) => read(
            a,
            PREFIX,
            ANNOTATION_KEYS,
            "an ingress-nginx Ingress",
            facts,
        ),
        None => Settings::default(),
    };
    // A redirect answers every request of the Ingress: nothing is proxied.
    if let Some(redirect) = entries.iter().find(|e| {
        e.key == format!("{PREFIX}temporal-redirect")
            || e.key == format!("{PREFIX}permanent-redirect")
    }) {
        let redirect_key = redirect.key.trim_start_matches(PREFIX).to_string();
        for e in &entries {
            let Some(k) = e.key.strip_prefix(PREFIX) else {
                continue;
            };
            if [NEXT_UPSTREAM, TRIES, WINDOW].contains(&k) {
                facts.diagnostics.push(
                    unknown_setting::no_effect(
                        e.key_span,
                        e.key,
                        &format!("`{redirect_key}` answers every request of this Ingress with a redirect, so nothing is proxied or retried"),
                        "remove the retry annotations, or the redirect once it is no longer needed",
                    )
                    .with_related(redirect.key_span, "the redirect"),
                );
            }
        }
        return true;
    }
    let mut settings = settings;
    if let Some(e) = entries
        .iter()
        .find(|e| e.key == format!("{PREFIX}configuration-snippet"))
    {
        settings.snippet = snippet(ctx.text, e, facts);
    }
    let inherited = same_file_configmap(ctx);
    let anchor = settings.first_retry_key().unwrap_or(name_span);
    let mut policy = build(&settings, &inherited, name.clone(), anchor);
    let backends = backends(root);
    policy.scope.callee = backends
        .first()
        .map(|b| Located::written(b.service.clone(), b.span));
    let idx = facts.policies.len();
    facts.policies.push(policy);
    for (b, routes) in services(&backends) {
        facts.route_paths.extend(routes);
        // The controller is the caller of every backend it proxies to.
        facts.edges.push(CallEdge {
            client: None,
            caller: Some(CONTROLLER.to_string()),
            callee: b.service.clone(),
            span: b.span,
            policies: vec![idx],
            via: format!("ingress-nginx Ingress `{name}`"),
            protocol: None,
        });
    }
    true
}

/// The first backend of each Service an Ingress names, with the hosts
/// and paths of every rule to that Service (none where one rule leaves
/// either open): what a controller's edge to it carries. Shared with the
/// other controllers' reader (`systems::ingress_classes`).
pub fn services(backends: &[Backend]) -> Vec<(&Backend, Option<crate::model::facts::RoutePaths>)> {
    let mut out: Vec<(&Backend, Option<crate::model::facts::RoutePaths>)> = Vec::new();
    for b in backends {
        if out.iter().any(|(x, _)| x.service == b.service) {
            continue;
        }
        let rules: Vec<&Backend> = backends.iter().filter(|x| x.service == b.service).collect();
        let all = |f: fn(&Backend) -> Option<&String>| -> Vec<String> {
            if rules.iter().any(|r| f(r).is_none()) {
                return Vec::new();
            }
            let mut v: Vec<String> = rules.iter().filter_map(|r| f(r).cloned()).collect();
            v.sort();
            v.dedup();
            v
        };
        let (hosts, paths) = (all(|r| r.host.as_ref()), all(|r| r.path.as_ref()));
        let routes =
            (!hosts.is_empty() || !paths.is_empty()).then_some(crate::model::facts::RoutePaths {
                span: b.span,
                paths,
                hosts,
            });
        out.push((b, routes));
    }
    out
}

/// Settings of a controller ConfigMap in the same file, read quietly (its
/// own document reports its problems).
fn same_file_configmap(ctx: &DocCtx<'_>) -> Settings {
    for doc in &ctx.file.documents {
        let root = ctx.file.root(doc);
        if root.get("kind").and_then(|v| v.as_str()) == Some("ConfigMap")
            && is_controller_configmap(root)
            && let Some(data) = root.get("data")
        {
            let mut scratch = Facts::default();
            return read(data, "", CONFIGMAP_KEYS, "", &mut scratch);
        }
    }
    Settings::default()
}

/// A backend of an Ingress: the Service's name and its span, the rule's
/// host (`None`: any) and the path pattern it takes (`None`: any).
pub struct Backend {
    pub service: String,
    pub span: Span,
    pub host: Option<String>,
    pub path: Option<String>,
}

/// The Services an Ingress sends traffic to, with the span of each name.
pub fn backends(root: Yaml<'_>) -> Vec<Backend> {
    let mut out = Vec::new();
    let mut push = |b: Option<Yaml<'_>>, host: Option<String>, path: Option<String>| {
        let Some(b) = b else { return };
        let name = b
            .path(&["service", "name"])
            .or_else(|| b.get("serviceName"));
        if let Some(n) = name
            && let Some(s) = n.as_str()
        {
            out.push(Backend {
                service: s.to_string(),
                span: n.span(),
                host,
                path,
            });
        }
    };
    let Some(spec) = root.get("spec") else {
        return out;
    };
    push(
        spec.get("defaultBackend").or_else(|| spec.get("backend")),
        None,
        None,
    );
    for rule in spec.get("rules").map(|r| r.items()).unwrap_or_default() {
        // `*.example.com` matches many names: taken as any host.
        let host = rule
            .get("host")
            .and_then(|h| h.as_str())
            .map(|h| h.trim().to_ascii_lowercase())
            .filter(|h| !h.is_empty() && !h.contains('*'));
        for path in rule
            .path(&["http", "paths"])
            .map(|p| p.items())
            .unwrap_or_default()
        {
            let pattern = path_pattern(
                path.get("path").and_then(|p| p.as_str()),
                path.get("pathType").and_then(|p| p.as_str()),
            );
            push(path.get("backend"), host.clone(), pattern);
        }
    }
    out
}

/// A rule path as a route pattern: `Exact` the path itself, a prefix
/// (`Prefix`, `ImplementationSpecific`) `path/**`; `/`, none, or a regular
/// expression (`/api(/|$)(.*)`, with `use-regex`) takes any path.
fn path_pattern(path: Option<&str>, kind: Option<&str>) -> Option<String> {
    let p = path?.trim().trim_end_matches('/');
    if p.is_empty() || !p.starts_with('/') || p.contains(['(', '[', '$', '^', '*', '?', '|', '+']) {
        return None;
    }
    Some(match kind {
        Some("Exact") => p.to_string(),
        _ => format!("{p}/**"),
    })
}

/// Whether a plain YAML scalar is not a string to Kubernetes' YAML reader
/// (YAML 1.1): a number or a boolean, which an annotation or ConfigMap
/// value cannot be.
fn not_a_string(v: Yaml<'_>) -> bool {
    if v.is_quoted() {
        return false;
    }
    let Some(s) = v.as_str() else { return false };
    let t = s.trim();
    t.parse::<f64>().is_ok()
        || matches!(
            t.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n"
        )
}

/// Read the retry and timeout keys of `map` (annotations under `prefix`,
/// or ConfigMap data), reporting bad values (RL902) and misspelled or
/// misplaced keys (RL901).
fn read(map: Yaml<'_>, prefix: &str, keys: &[&str], what: &str, facts: &mut Facts) -> Settings {
    let mut s = Settings::default();
    for e in map.entries() {
        let Some(key) = e.key.strip_prefix(prefix) else {
            continue;
        };
        if !keys.contains(&key) {
            let full: Vec<String> = keys.iter().map(|k| format!("{prefix}{k}")).collect();
            let full: Vec<&str> = full.iter().map(String::as_str).collect();
            if prefix.is_empty() {
                // ConfigMap: only near-misses of the retry keys.
                if near_miss(key) {
                    facts.diagnostics.push(unknown_setting::unknown_key(
                        e.key_span,
                        e.key,
                        what,
                        full.iter().copied(),
                    ));
                }
            } else if key == RETRY_NON_IDEMPOTENT {
                facts.diagnostics.push(unknown_setting::wrong_place(
                    e.key_span,
                    e.key,
                    "an ingress-nginx annotation",
                    "a key of the controller ConfigMap",
                    "set `retry-non-idempotent` in the controller ConfigMap, or list `non_idempotent` in `nginx.ingress.kubernetes.io/proxy-next-upstream` to retry POSTs of this Ingress only",
                ));
            } else if near_miss(key) {
                facts.diagnostics.push(unknown_setting::unknown_key(
                    e.key_span,
                    e.key,
                    what,
                    full.iter().copied(),
                ));
            }
            continue;
        }
        if not_a_string(e.value) {
            facts.diagnostics.push(invalid_setting::value(
                e.value.span(),
                e.key,
                e.value.as_str().unwrap_or(""),
                "Kubernetes reads it as a number or boolean and rejects the object: quote it",
            ));
            continue;
        }
        let Some(text) = e.value.as_str() else {
            continue;
        };
        let span = e.span();
        let key_span = e.key_span;
        match key {
            NEXT_UPSTREAM => {
                if let Some(tokens) = tokens(e.value, e.key, facts) {
                    s.next_upstream = Some(Set {
                        value: tokens,
                        span,
                        key_span,
                    });
                }
            }
            TRIES => {
                if let Some(n) = int(e.value, text, e.key, facts) {
                    s.tries = Some(Set {
                        value: n as i64,
                        span,
                        key_span,
                    });
                }
            }
            RETRY_NON_IDEMPOTENT => match text.trim() {
                "true" | "false" => {
                    s.non_idempotent = Some(Set {
                        value: text.trim() == "true",
                        span,
                        key_span,
                    })
                }
                other => facts.diagnostics.push(invalid_setting::value(
                    e.value.span(),
                    e.key,
                    other,
                    "not `true` or `false`",
                )),
            },
            _ => {
                let Some(n) = int(e.value, text, e.key, facts) else {
                    continue;
                };
                let set = Some(Set {
                    value: n,
                    span,
                    key_span,
                });
                match key {
                    WINDOW => s.window = set,
                    CONNECT => s.connect = set,
                    READ => s.read = set,
                    _ => {}
                }
                facts.timeouts.push(TimeoutSetting {
                    system: System::IngressNginx,
                    name: None,
                    what: key.to_string(),
                    timeout: Located::written(
                        if n == 0 && key == WINDOW {
                            Timeout::Disabled
                        } else {
                            Timeout::after(Duration::from_secs(n))
                        },
                        span,
                    ),
                });
            }
        }
    }
    s
}

/// A key that looks like a misspelled retry or timeout key.
fn near_miss(key: &str) -> bool {
    key.starts_with("proxy-next-upstream")
        || CONFIGMAP_KEYS
            .iter()
            .any(|k| crate::keys::is_typo_of(key, k))
}

/// The `proxy_next_upstream` values of a `configuration-snippet`, read
/// with the nginx parser. The snippet lands in every location of the
/// Ingress after the controller's own directives: a value list adds up, a
/// second `proxy_next_upstream_tries` or timeout makes nginx refuse the
/// configuration (RL902).
fn snippet(
    file: &str,
    e: &crate::yaml::Entry<'_>,
    facts: &mut Facts,
) -> Option<Set<Vec<(String, Span)>>> {
    let text = e.value.as_str()?;
    let cfg = nginx::parser::parse(text).ok()?;
    let span = e.value.span();
    // The value's text is the file's minus the block indentation: find
    // each word in the file, in order, to point at it.
    let raw = file.get(span.start..span.end).unwrap_or("");
    let mut from = 0;
    let mut locate = |word: &str| -> Span {
        match raw.get(from..).and_then(|r| r.find(word)) {
            Some(i) if !word.is_empty() => {
                let start = from + i;
                from = start + word.len();
                Span::new(span.start + start, span.start + start + word.len())
            }
            _ => span,
        }
    };
    let mut tokens = Vec::new();
    for d in &cfg.directives {
        let name_span = locate(&d.name);
        match d.name.as_str() {
            "proxy_next_upstream" => {
                for a in &d.args {
                    let at = locate(&a.value);
                    let v = a.value.to_ascii_lowercase();
                    if NEXT_UPSTREAM_VALUES.contains(&v.as_str()) {
                        tokens.push((v, at));
                    }
                }
            }
            "proxy_next_upstream_tries"
            | "proxy_next_upstream_timeout"
            | "proxy_connect_timeout"
            | "proxy_read_timeout"
            | "proxy_send_timeout" => {
                facts.diagnostics.push(invalid_setting::value(
                    name_span,
                    e.key,
                    &d.name,
                    &format!(
                        "the controller already writes `{}` in every location, and nginx refuses a duplicate: use the `{}` annotation",
                        d.name,
                        d.name.replace('_', "-")
                    ),
                ));
            }
            _ => {}
        }
    }
    (!tokens.is_empty()).then_some(Set {
        value: tokens,
        span,
        key_span: e.key_span,
    })
}

/// A whole number of seconds or tries, as `strconv.Atoi` reads it; the
/// controller drops anything else and uses the default.
fn int(v: Yaml<'_>, text: &str, key: &str, facts: &mut Facts) -> Option<u64> {
    let t = text.trim();
    match t.parse::<u64>() {
        Ok(n) if t.bytes().all(|b| b.is_ascii_digit()) => Some(n),
        _ => {
            let why = if t.ends_with('s') || t.ends_with('m') {
                "a whole number of seconds without a unit: the controller ignores it and uses its default"
            } else {
                "not a whole number: the controller ignores it and uses its default"
            };
            facts
                .diagnostics
                .push(invalid_setting::value(v.span(), key, t, why));
            None
        }
    }
}

/// The tokens of a `proxy-next-upstream` value with their spans. An
/// unknown token makes the controller drop the whole value.
fn tokens(v: Yaml<'_>, key: &str, facts: &mut Facts) -> Option<Vec<(String, Span)>> {
    let mut out = Vec::new();
    let mut ok = true;
    for (token, span) in v.tokens(' ') {
        if !NEXT_UPSTREAM_VALUES.contains(&token) {
            facts.diagnostics.push(invalid_setting::unknown_token(
                span,
                key,
                token,
                NEXT_UPSTREAM_VALUES.iter().copied(),
            ));
            ok = false;
            continue;
        }
        out.push((token.to_string(), span));
    }
    (ok && !out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests;
