//! AWS SDK settings in the environment: `AWS_MAX_ATTEMPTS` and
//! `AWS_RETRY_MODE` entries of Kubernetes containers and docker-compose
//! services.

use super::*;

/// `AWS_MAX_ATTEMPTS` / `AWS_RETRY_MODE` in the containers of a Kubernetes
/// workload or the services of a docker-compose file.
pub fn extract_env_doc(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    if !root.is_map() {
        return false;
    }
    let mut found = false;
    if root.get("kind").is_some() {
        let workload = root
            .path(&["metadata", "name"])
            .and_then(|n| n.as_str())
            .unwrap_or("unnamed")
            .to_string();
        let spec = root.get("spec");
        let pod = spec.and_then(|s| {
            s.path(&["template", "spec"])
                .or_else(|| s.path(&["jobTemplate", "spec", "template", "spec"]))
                .or_else(|| s.get("containers").map(|_| s))
        });
        if let Some(pod) = pod {
            for list in ["initContainers", "containers"] {
                for c in pod.get(list).map(|l| l.items()).unwrap_or_default() {
                    let cname = c
                        .get("name")
                        .and_then(|n| n.as_str())
                        .unwrap_or("container");
                    let env = k8s_env(c);
                    found |= env_policy(
                        &format!("{workload}/{cname}"),
                        &workload,
                        env,
                        c.span(),
                        facts,
                    );
                }
            }
        }
    } else if let Some(services) = root.get("services").filter(|s| s.is_map()) {
        for svc in services.entries() {
            let Some(env) = svc.value.get("environment") else {
                continue;
            };
            found |= env_policy(svc.key, svc.key, compose_env(env), svc.key_span, facts);
        }
    }
    found
}

/// (name, value text, value span, whole entry span) of env entries.
type EnvEntry = (String, String, Span, Span);

fn k8s_env(container: Yaml<'_>) -> Vec<EnvEntry> {
    let mut out = Vec::new();
    for e in container.get("env").map(|l| l.items()).unwrap_or_default() {
        let Some(name) = e.get("name").and_then(|n| n.as_str()) else {
            continue;
        };
        // `valueFrom` cannot be read from here.
        if let Some(v) = e.get("value") {
            out.push((
                name.to_string(),
                v.as_str().unwrap_or("").to_string(),
                v.span(),
                e.span(),
            ));
        }
    }
    out
}

fn compose_env(env: Yaml<'_>) -> Vec<EnvEntry> {
    let mut out = Vec::new();
    if env.is_map() {
        for e in env.entries() {
            out.push((
                e.key.to_string(),
                e.value.as_str().unwrap_or("").to_string(),
                e.value.span(),
                e.span(),
            ));
        }
        return out;
    }
    for item in env.items() {
        let Some(text) = item.as_str() else {
            continue;
        };
        let Some((k, v)) = text.split_once('=') else {
            continue;
        };
        // Point at the value when the scalar is written as is.
        let span = item.span();
        let exact = !item.is_quoted() && span.len() == text.len();
        let vspan = if exact {
            Span::new(span.start + k.len() + 1, span.end)
        } else {
            span
        };
        out.push((k.trim().to_string(), v.to_string(), vspan, span));
    }
    out
}

fn env_policy(
    name: &str,
    caller: &str,
    env: Vec<EnvEntry>,
    anchor: Span,
    facts: &mut Facts,
) -> bool {
    let get = |k: &str| {
        env.iter()
            .rev()
            .find(|(n, ..)| n == k)
            .map(|(n, v, vs, s)| Setting {
                key: n.clone(),
                value: v.trim().to_string(),
                raw: v.trim().to_string(),
                value_span: *vs,
                span: *s,
                botocore_differs: false,
            })
    };
    let mode = get("AWS_RETRY_MODE");
    let attempts = get("AWS_MAX_ATTEMPTS");
    let profile = get("AWS_PROFILE");
    if mode.is_none() && attempts.is_none() && profile.is_none() {
        return false;
    }
    // A value filled in at deploy time cannot be checked.
    let placeholder = |s: &Option<Setting>| {
        s.as_ref().is_some_and(|s| {
            s.value.contains("${") || s.value.contains("{{") || s.value.contains("$(")
        })
    };
    if placeholder(&mode) || placeholder(&attempts) || placeholder(&profile) {
        return true;
    }
    if let Some(e) = shared_entry(
        AwsSharedKind::Env {
            caller: caller.to_string(),
        },
        mode.as_ref(),
        attempts.as_ref(),
        profile
            .as_ref()
            .filter(|p| !p.value.is_empty())
            .map(|p| Located::written(p.value.clone(), p.span)),
    ) {
        facts.aws_shared.push(e);
    }
    if mode.is_none() && attempts.is_none() {
        return true;
    }
    if let Some(mut p) = policy(name, mode, attempts, anchor, facts) {
        p.scope.caller = Some(caller.to_string());
        facts.policies.push(p);
    }
    true
}
