//! Docker Compose services (issue 17): each service is a service
//! identity (its name, its image, its fixed network addresses), its
//! `environment` and `env_file` entries that name a host are its calls,
//! read again by the link step with the variables docker compose gives
//! the file (`.env`, `env_file`).

use super::Facts;
use super::workload::{COMPOSE_VIA, image_name, push_edge};
use crate::model::ServiceDecl;
use crate::model::calls::IdentityKind;
use crate::yaml::Yaml;

/// A compose file's services and calls as written (no `.env` yet).
pub(super) fn compose(root: Yaml<'_>, facts: &mut Facts) -> bool {
    compose_with(root, facts, None)
}

/// The `env_file` paths of a compose file's services, as written.
pub fn compose_env_files(text: &str) -> Vec<String> {
    let file = crate::yaml::parse(text);
    let mut out = Vec::new();
    for d in &file.documents {
        let Some(services) = file.root(d).get("services") else {
            continue;
        };
        for s in services.entries() {
            out.extend(env_file_paths(s.value).into_iter().map(|(p, _)| p));
        }
    }
    out
}

/// A service's `env_file` entries (a string, a list of strings, or of
/// `{path: ..}` maps) with the span each is written at.
pub fn env_file_paths(service: Yaml<'_>) -> Vec<(String, crate::source::Span)> {
    let Some(e) = service.get("env_file") else {
        return Vec::new();
    };
    let one = |y: Yaml<'_>| {
        y.as_str()
            .or_else(|| y.get("path").and_then(|p| p.as_str()))
            .map(|p| (p.to_string(), y.span()))
    };
    match one(e) {
        Some(p) => vec![p],
        None => e.items().into_iter().filter_map(one).collect(),
    }
}

/// A compose file's calls again, with the variables docker compose gives
/// it (`.env`, `env_file`): the link step's second reading.
pub fn compose_edges(text: &str, env: &super::compose_env::ComposeEnv, facts: &mut Facts) {
    let file = crate::yaml::parse(text);
    for d in &file.documents {
        compose_with(file.root(d), facts, Some(env));
    }
}

fn compose_with(
    root: Yaml<'_>,
    facts: &mut Facts,
    env: Option<&super::compose_env::ComposeEnv>,
) -> bool {
    let Some(services) = root.get("services") else {
        return false;
    };
    // A value as docker compose passes it: interpolated from `.env` where
    // it is known.
    let value = |v: &str| -> String {
        match env {
            Some(e) if v.contains('$') => {
                super::compose_env::interpolate(v, &e.vars).unwrap_or_else(|| v.to_string())
            }
            _ => v.to_string(),
        }
    };
    for s in services.entries() {
        let mut decl = ServiceDecl::new(
            s.key,
            s.key_span,
            IdentityKind::Compose,
            "docker-compose service",
            vec![s.key.to_string()],
        );
        if let Some(name) = s
            .value
            .get("image")
            .and_then(|i| i.as_str())
            .and_then(image_name)
        {
            decl.placement.images.push(name);
        }
        // Its own `entrypoint`: not the image's program.
        decl.placement.own_command = s.value.get("entrypoint").is_some();
        // `build: ..` or `build: {context: ..}`: a local context (not a
        // Git URL), joined to the program built there by the link step.
        decl.placement.build = s
            .value
            .get("build")
            .and_then(|b| {
                b.as_str()
                    .or_else(|| b.get("context").and_then(|c| c.as_str()))
            })
            .map(str::trim)
            .filter(|c| !c.is_empty() && c.len() <= 512 && !c.contains(['$', ':']))
            .map(str::to_string);
        // `build: {context: ., dockerfile: Services/Orders/Dockerfile}`:
        // the Dockerfile's folder, where a .NET solution keeps each
        // project's.
        decl.placement.dockerfile_dir = s
            .value
            .path(&["build", "dockerfile"])
            .and_then(|d| d.as_str())
            .map(str::trim)
            .and_then(|d| d.rsplit_once('/'))
            .map(|(dir, _)| dir.trim_start_matches("./"))
            .filter(|d| {
                !d.is_empty()
                    && d.len() <= 512
                    && !d.starts_with('/')
                    && !d.contains(['$', ':', '\\'])
                    && !d.split('/').any(|p| p == "..")
            })
            .filter(|_| decl.placement.build.is_some())
            .map(str::to_string);
        decl.placement.mounts = bind_mounts(s.value, &value);
        // `networks: {backend: {ipv4_address: 10.5.0.5}}`: the service's
        // fixed address on that network.
        if let Some(nets) = s.value.get("networks") {
            for n in nets.entries().into_iter().take(16) {
                for k in ["ipv4_address", "ipv6_address"] {
                    if let Some(ip) = n
                        .value
                        .get(k)
                        .and_then(|v| v.as_str())
                        .and_then(crate::model::calls::ip_literal)
                    {
                        decl.hosts.push(ip);
                    }
                }
            }
        }
        facts.services.push(decl);
        let written = s.value.get("environment");
        // The service's entries, for a host's port beside it
        // (`env_protocol::from_ports`).
        let first = facts.edges.len();
        let mut pairs: Vec<(String, String)> = Vec::new();
        // `env_file` entries, unless `environment` sets the same variable.
        if let Some(e) = env {
            let set: Vec<String> = written.map_or_else(Vec::new, |w| {
                if w.is_map() {
                    w.entries().into_iter().map(|x| x.key.to_string()).collect()
                } else {
                    w.items()
                        .into_iter()
                        .filter_map(|i| i.as_str())
                        .map(|t| t.split('=').next().unwrap_or("").trim().to_string())
                        .collect()
                }
            });
            for (path, span) in env_file_paths(s.value) {
                for (k, v) in e.env_files.get(&path).into_iter().flatten() {
                    if !set.contains(k) {
                        pairs.push((k.clone(), v.clone()));
                        let before = facts.edges.len();
                        push_edge(s.key, k, v, span, facts);
                        for edge in facts.edges.iter_mut().skip(before) {
                            if super::config_env::is_stand_in(edge) {
                                continue;
                            }
                            let mark = if crate::model::calls::url_value_only(&edge.via) {
                                crate::model::calls::URL_VALUE_VIA
                            } else {
                                ""
                            };
                            edge.via = format!(
                                "env `{k}` from `{path}`{mark}{}",
                                crate::model::calls::WHOLE_FILE_VIA
                            );
                        }
                        mark_compose(facts);
                    }
                }
            }
        }
        let Some(env_entries) = written else {
            super::env_protocol::from_ports(facts, first, &pairs);
            continue;
        };
        if env_entries.is_map() {
            for e in env_entries.entries() {
                if let Some(v) = e.value.as_str() {
                    pairs.push((e.key.to_string(), value(v).to_string()));
                    push_edge(s.key, e.key, &value(v), e.value.span(), facts);
                    mark_compose(facts);
                } else if let Some(v) = env.and_then(|x| x.vars.get(e.key))
                    && e.value.is_null()
                {
                    // `CART_ADDR:` with no value: from `.env`.
                    pairs.push((e.key.to_string(), v.to_string()));
                    push_edge(s.key, e.key, v, e.key_span, facts);
                    mark_compose(facts);
                }
            }
        } else {
            for item in env_entries.items() {
                let Some(text) = item.as_str() else { continue };
                let Some((k, v)) = text.split_once('=') else {
                    // `- CART_ADDR`: the value comes from the shell or `.env`.
                    let k = text.trim();
                    if let Some(v) = env.and_then(|e| e.vars.get(k)) {
                        pairs.push((k.to_string(), v.to_string()));
                        push_edge(s.key, k, v, item.span(), facts);
                        mark_compose(facts);
                    } else if super::calls::url_key(k) {
                        let mut u =
                            crate::model::UnresolvedCall::new(item.span(), format!("env {k}"));
                        u.caller = Some(s.key.to_string());
                        facts.unresolved.push(u);
                    }
                    continue;
                };
                let offset = item.span().start + if item.is_quoted() { 1 } else { 0 } + k.len() + 1;
                let span = crate::source::Span::new(offset, offset + v.len());
                pairs.push((k.trim().to_string(), value(v).to_string()));
                push_edge(s.key, k, &value(v), span, facts);
                mark_compose(facts);
            }
        }
        super::env_protocol::from_ports(facts, first, &pairs);
    }
    // Span exporters its tracing switches leave unbuilt make no call.
    for s in services.entries() {
        let switches = super::tracing::compose_switches(s.value, env, &value);
        super::tracing::drop_off(s.key, &switches, facts);
    }
    true
}

/// At most this many `volumes` entries of one service are read.
const MAX_MOUNTS: usize = 64;

/// A service's bind mounts: the host path of each `volumes` entry that
/// names one, in the short syntax (`./config/nginx.conf:/etc/nginx/nginx.conf:ro`)
/// or the long one (`{type: bind, source: ./config, target: /etc/app}`).
/// A named volume (`data:/var/lib/x`, no `/` or `.` at its start) is no
/// path; a path left with a `$` after `.env` is not known.
fn bind_mounts(service: Yaml<'_>, value: &dyn Fn(&str) -> String) -> Vec<String> {
    let Some(volumes) = service.get("volumes") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for v in volumes.items().into_iter().take(MAX_MOUNTS) {
        let source = match v.as_str() {
            Some(t) => value(t).split(':').next().unwrap_or_default().to_string(),
            None => {
                let bind = v
                    .get("type")
                    .and_then(|t| t.as_str())
                    .is_none_or(|t| t == "bind");
                match v.get("source").and_then(|s| s.as_str()) {
                    Some(s) if bind => value(s),
                    _ => continue,
                }
            }
        };
        let source = source.trim();
        let path = source.starts_with(['.', '/']);
        if path && source.len() <= 512 && !source.contains('$') {
            out.push(source.to_string());
        }
    }
    out
}

/// docker-compose calls do not run in a mesh: say so in `via`.
/// Every edge pushed since the last marked one (one entry may give several:
/// a list of Kafka brokers).
fn mark_compose(facts: &mut Facts) {
    for e in facts.edges.iter_mut().rev() {
        if e.via.starts_with(COMPOSE_VIA) {
            break;
        }
        e.via = format!("{COMPOSE_VIA} {}", e.via);
    }
}
