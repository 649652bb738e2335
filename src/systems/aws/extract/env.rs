//! AWS SDK settings in the environment: `AWS_MAX_ATTEMPTS`,
//! `AWS_RETRY_MODE` and `AWS_PROFILE` entries of Kubernetes containers,
//! docker-compose services (read again by the link step with the
//! project's `.env` and each service's `env_file`), the `ENV` instructions
//! of a Dockerfile's final stage, and plain `.env` files.
//!
//! A variable that is set but whose value this file cannot give (compose
//! `- AWS_PROFILE` or `AWS_PROFILE:` passed through from the shell that
//! runs compose, `${AWS_PROFILE}` with no default, a Kubernetes
//! `valueFrom`, a Dockerfile `ENV AWS_PROFILE=$PROFILE` from a build
//! argument) is kept as set with an unknown value: the SDK reads it, so
//! the settings below it (a Dockerfile's, a `.env`'s, a profile's) do not
//! apply, and the link step says so instead of guessing
//! (`systems::aws::link`).

use super::*;
use crate::extract::compose_env::{ComposeEnv, interpolate};

/// The variables read here.
const VARS: &[&str] = &["AWS_RETRY_MODE", "AWS_MAX_ATTEMPTS", "AWS_PROFILE"];

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
                        Some(&workload),
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
            let kind = AwsSharedKind::Env {
                caller: svc.key.to_string(),
                context: build_context(svc.value),
            };
            found |= env_policy_of(
                kind,
                svc.key,
                Some(svc.key),
                compose_env(env, None),
                svc.key_span,
                facts,
            );
        }
    }
    found
}

/// A compose file's services read again with what docker compose gives
/// them (the link step's second reading, `link::compose_env`): values
/// interpolated from the project's `.env`, bare `- AWS_PROFILE` entries
/// taken from it, and each service's `env_file` entries under its
/// `environment`. The file's environment entries are replaced; its
/// policies (read from the file as written) are left as they are.
pub fn compose_again(text: &str, env: &ComposeEnv, facts: &mut Facts) {
    let file = crate::yaml::parse(text);
    let mut again = Facts::default();
    for d in &file.documents {
        let root = file.root(d);
        let Some(services) = root.get("services").filter(|s| s.is_map()) else {
            continue;
        };
        for svc in services.entries() {
            let mut entries = Vec::new();
            // `env_file` first: `environment` overrides it (later wins).
            for (path, span) in crate::extract::workload::env_file_paths(svc.value) {
                for (k, v) in env.env_files.get(&path).into_iter().flatten() {
                    if VARS.contains(&k.as_str()) {
                        entries.push((k.clone(), Some(v.clone()), span, span));
                    }
                }
            }
            if let Some(e) = svc.value.get("environment") {
                entries.extend(compose_env(e, Some(env)));
            }
            let kind = AwsSharedKind::Env {
                caller: svc.key.to_string(),
                context: build_context(svc.value),
            };
            if let Some(e) = shared_of(kind, &entries) {
                again.aws_shared.push(e);
            }
        }
    }
    facts
        .aws_shared
        .retain(|e| !matches!(e.kind, AwsSharedKind::Env { .. }));
    facts.aws_shared.extend(again.aws_shared);
}

/// A compose service's build context as written (`build: ./worker`,
/// `build: {context: ./worker}`), when it is a folder of this tree (not a
/// Git URL).
fn build_context(service: Yaml<'_>) -> Option<String> {
    let b = service.get("build")?;
    let c = b
        .as_str()
        .or_else(|| b.get("context").and_then(|c| c.as_str()))?;
    (!c.contains("://") && !c.starts_with("git@") && !c.contains('$')).then(|| c.to_string())
}

/// (name, value text or `None` when passed through unknown, value span,
/// whole entry span) of env entries.
type EnvEntry = (String, Option<String>, Span, Span);

/// Whether a value is filled in where the file is deployed (`${X}`,
/// Helm's `{{ .. }}`, Kubernetes' `$(X)`).
fn placeholder(v: &str) -> bool {
    v.contains("${") || v.contains("{{") || v.contains("$(")
}

fn k8s_env(container: Yaml<'_>) -> Vec<EnvEntry> {
    let mut out = Vec::new();
    for e in container.get("env").map(|l| l.items()).unwrap_or_default() {
        let Some(name) = e.get("name").and_then(|n| n.as_str()) else {
            continue;
        };
        if let Some(v) = e.get("value") {
            let text = v.as_str().unwrap_or("");
            let known = (!placeholder(text)).then(|| text.to_string());
            out.push((name.to_string(), known, v.span(), e.span()));
        } else if let Some(v) = e.get("valueFrom") {
            // A ConfigMap's or Secret's key: set, not known here.
            out.push((name.to_string(), None, v.span(), e.span()));
        }
    }
    out
}

/// A compose `environment` (map or list); with `vars`, interpolated and
/// bare entries filled from the project's `.env`.
fn compose_env(env: Yaml<'_>, vars: Option<&ComposeEnv>) -> Vec<EnvEntry> {
    let value = |v: &str| -> Option<String> {
        match vars {
            Some(e) if v.contains('$') => interpolate(v, &e.vars),
            _ => Some(v.to_string()),
        }
        .filter(|v| !placeholder(v))
    };
    let bare = |k: &str| vars.and_then(|e| e.vars.get(k).cloned());
    let mut out = Vec::new();
    if env.is_map() {
        for e in env.entries() {
            let v = if e.value.is_null() {
                // `AWS_PROFILE:` with no value: the shell's (or `.env`'s).
                bare(e.key)
            } else {
                value(e.value.as_str().unwrap_or(""))
            };
            out.push((e.key.to_string(), v, e.value.span(), e.span()));
        }
        return out;
    }
    for item in env.items() {
        let Some(text) = item.as_str() else {
            continue;
        };
        let span = item.span();
        let Some((k, v)) = text.split_once('=') else {
            // `- AWS_PROFILE`: passed through from the shell (or `.env`).
            let k = text.trim();
            out.push((k.to_string(), bare(k), span, span));
            continue;
        };
        // Point at the value when the scalar is written as is.
        let exact = !item.is_quoted() && span.len() == text.len();
        let vspan = if exact {
            Span::new(span.start + k.len() + 1, span.end)
        } else {
            span
        };
        out.push((k.trim().to_string(), value(v), vspan, span));
    }
    out
}

/// Whether a file is a Dockerfile by its name (`Dockerfile`,
/// `Dockerfile.prod`, `api.Dockerfile`).
pub fn is_dockerfile_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "dockerfile" || n.starts_with("dockerfile.") || n.ends_with(".dockerfile")
}

/// Whether a file is a plain `.env` file (only `.env` itself: the name
/// python-dotenv's `load_dotenv()` and godotenv's `Load()` read; `.env.example`
/// and the like are templates).
pub fn is_dotenv_name(name: &str) -> bool {
    name == ".env"
}

/// The `ENV` instructions of a Dockerfile's final stage (and of the stages
/// it is built `FROM`): the image's environment. A value from a build
/// argument or another variable (`$X`, `${X}`) is unknown.
pub fn extract_dockerfile(text: &str, facts: &mut Facts) {
    let lines = logical_lines(text);
    // Each stage: its name, the stage it is built from, its ENV entries.
    let mut stages: Vec<(Option<String>, Option<usize>, Vec<EnvEntry>)> = Vec::new();
    for (line, offs) in &lines {
        let l = line.trim_start();
        let (word, rest) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
        match word.to_ascii_uppercase().as_str() {
            "FROM" => {
                let parts: Vec<&str> = rest
                    .split_whitespace()
                    .filter(|p| !p.starts_with("--"))
                    .collect();
                let base = parts.first().map(|b| b.to_ascii_lowercase());
                let name = match parts.as_slice() {
                    [_, as_, n, ..] if as_.eq_ignore_ascii_case("as") => {
                        Some(n.to_ascii_lowercase())
                    }
                    _ => None,
                };
                let from =
                    base.and_then(|b| stages.iter().position(|s| s.0.as_deref() == Some(&b)));
                stages.push((name, from, Vec::new()));
                if stages.len() > 64 {
                    return;
                }
            }
            "ENV" => {
                let Some(stage) = stages.last_mut() else {
                    continue;
                };
                let rest = rest.trim_start();
                // `rest` is a tail of `line`.
                let start = line.len() - rest.len();
                for (k, v, a, b) in env_pairs(rest) {
                    if !VARS.contains(&k.as_str()) {
                        continue;
                    }
                    let range = |(x, y): (usize, usize)| {
                        let from = offs.get(start + x).copied().unwrap_or(0);
                        let to = match y.checked_sub(1).filter(|e| *e >= x) {
                            Some(e) => offs.get(start + e).map_or(from, |o| o + 1),
                            None => from,
                        };
                        Span::new(from, to.max(from))
                    };
                    let (vspan, espan) = (range(a), range(b));
                    let known = (!v.contains('$')).then_some(v);
                    stage.2.push((k, known, vspan, espan));
                }
            }
            _ => {}
        }
    }
    // The final stage's environment: its own entries over its bases'.
    let mut entries: Vec<EnvEntry> = Vec::new();
    let mut at = stages.len().checked_sub(1);
    let mut seen = 0;
    while let Some(i) = at {
        let mut own = stages[i].2.clone();
        own.extend(entries);
        entries = own;
        at = stages[i].1.filter(|b| *b < i);
        seen += 1;
        if seen > 64 {
            break;
        }
    }
    let anchor = entries.first().map(|e| e.3);
    if let Some(anchor) = anchor {
        facts.claimed_by("aws");
        env_policy_of(
            AwsSharedKind::Image,
            "Dockerfile",
            None,
            entries,
            anchor,
            facts,
        );
    }
}

/// A plain `.env` file's `AWS_*` entries.
pub fn extract_dotenv(text: &str, facts: &mut Facts) {
    let mut entries = Vec::new();
    let mut pos = 0;
    for line in text.split_inclusive('\n').take(10_000) {
        let start = pos;
        pos += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let t = body.trim_start();
        let lead = body.len() - t.len();
        let t2 = t.strip_prefix("export ").unwrap_or(t);
        let lead = lead + (t.len() - t2.len());
        let Some((k, v)) = t2.split_once('=') else {
            continue;
        };
        let k = k.trim();
        if !VARS.contains(&k) {
            continue;
        }
        let vstart = start + lead + t2.len() - v.len();
        let vtrim = v.trim();
        let value = vtrim
            .strip_prefix('"')
            .and_then(|x| x.strip_suffix('"'))
            .or_else(|| vtrim.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')))
            .unwrap_or_else(|| vtrim.split(" #").next().unwrap_or(vtrim).trim());
        let known = (!value.contains('$')).then(|| value.to_string());
        let vspan = Span::new(vstart, start + body.len());
        entries.push((
            k.to_string(),
            known,
            vspan,
            Span::new(start + lead, start + body.len()),
        ));
    }
    if let Some(anchor) = entries.first().map(|e| e.3) {
        facts.claimed_by("aws");
        env_policy_of(AwsSharedKind::DotEnv, ".env", None, entries, anchor, facts);
    }
}

/// A Dockerfile's logical lines (continuations with `\` joined, comment
/// lines dropped), each with the byte offset in `text` of each of its
/// bytes.
fn logical_lines(text: &str) -> Vec<(String, Vec<usize>)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut offs: Vec<usize> = Vec::new();
    let mut pos = 0;
    for line in text.split_inclusive('\n').take(100_000) {
        let start = pos;
        pos += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        if body.trim_start().starts_with('#') {
            continue;
        }
        let (part, more) = match body.trim_end().strip_suffix('\\') {
            Some(p) => (p, true),
            None => (body, false),
        };
        cur.push_str(part);
        offs.extend((0..part.len()).map(|i| start + i));
        if more {
            cur.push(' ');
            offs.push(start + part.len());
            continue;
        }
        out.push((std::mem::take(&mut cur), std::mem::take(&mut offs)));
    }
    if !cur.is_empty() {
        out.push((cur, offs));
    }
    out
}

/// The pairs of an `ENV` instruction: `K=V K2="v w"`, or the legacy
/// `K V W` (the rest of the line is the value). Each pair: key, value
/// (quotes removed), the value's and the pair's byte ranges in `s`.
#[allow(clippy::type_complexity)]
fn env_pairs(s: &str) -> Vec<(String, String, (usize, usize), (usize, usize))> {
    let s = s.trim_end();
    let b = s.as_bytes();
    let mut out = Vec::new();
    let first_ws = s.find(char::is_whitespace).unwrap_or(s.len());
    if !s[..first_ws].contains('=') {
        // Legacy form: `ENV KEY value with spaces`.
        let k = &s[..first_ws];
        let v = s[first_ws..].trim_start();
        let vs = s.len() - v.len();
        out.push((k.to_string(), unquote(v), (vs, s.len()), (0, s.len())));
        return out;
    }
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let ks = i;
        while i < b.len() && b[i] != b'=' && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() || b[i] != b'=' {
            break;
        }
        let k = &s[ks..i];
        i += 1;
        let vs = i;
        let mut quote: Option<u8> = None;
        while i < b.len() {
            match (quote, b[i]) {
                (None, b'"' | b'\'') => quote = Some(b[i]),
                (Some(q), c) if c == q => quote = None,
                (None, b'\\') => i += 1,
                (None, c) if c.is_ascii_whitespace() => break,
                _ => {}
            }
            i += 1;
        }
        let i2 = i.min(b.len());
        out.push((k.to_string(), unquote(&s[vs..i2]), (vs, i2), (ks, i2)));
        if out.len() > 256 {
            break;
        }
    }
    out
}

fn unquote(v: &str) -> String {
    let v = v.trim();
    for q in ['"', '\''] {
        if let Some(x) = v.strip_prefix(q).and_then(|x| x.strip_suffix(q)) {
            return x.to_string();
        }
    }
    v.to_string()
}

fn env_policy(
    name: &str,
    caller: Option<&str>,
    env: Vec<EnvEntry>,
    anchor: Span,
    facts: &mut Facts,
) -> bool {
    let kind = AwsSharedKind::Env {
        caller: caller.unwrap_or(name).to_string(),
        context: None,
    };
    env_policy_of(kind, name, caller, env, anchor, facts)
}

/// What one environment says: its entry for the link step, and, when it
/// writes a retry setting whose value is known, its own policy (checked
/// like a profile's).
fn env_policy_of(
    kind: AwsSharedKind,
    name: &str,
    caller: Option<&str>,
    env: Vec<EnvEntry>,
    anchor: Span,
    facts: &mut Facts,
) -> bool {
    if !env.iter().any(|(n, ..)| VARS.contains(&n.as_str())) {
        return false;
    }
    let e = shared_of(kind, &env);
    let mode_unknown = e
        .as_ref()
        .and_then(|e| e.mode.as_ref())
        .is_some_and(|m| m.value.is_empty());
    let attempts_unknown = e
        .as_ref()
        .and_then(|e| e.attempts.as_ref())
        .is_some_and(|a| a.value == 0);
    let setting = |k: &str| setting_of(&env, k);
    let (mode, attempts) = (setting("AWS_RETRY_MODE"), setting("AWS_MAX_ATTEMPTS"));
    facts.aws_shared.extend(e);
    if mode_unknown || attempts_unknown || (mode.is_none() && attempts.is_none()) {
        return true;
    }
    if let Some(mut p) = policy(name, mode, attempts, anchor, facts) {
        p.scope.caller = caller.map(str::to_string);
        facts.policies.push(p);
    }
    true
}

/// The last entry of `key` with a known value, as a [`Setting`].
fn setting_of(env: &[EnvEntry], key: &str) -> Option<Setting> {
    let (n, v, vs, s) = env.iter().rev().find(|(n, ..)| n == key)?;
    let v = v.as_ref()?;
    Some(Setting {
        key: n.clone(),
        value: v.trim().to_string(),
        raw: v.trim().to_string(),
        value_span: *vs,
        span: *s,
        botocore_differs: false,
    })
}

/// The entry for the link step: each variable's last entry, valid values
/// only (an invalid one is reported by [`policy`] and makes the SDK
/// refuse to start, so it sets nothing here), a passed-through one as set
/// and unknown (empty mode or profile, 0 attempts). `None` when nothing is
/// left.
fn shared_of(kind: AwsSharedKind, env: &[EnvEntry]) -> Option<AwsShared> {
    let last = |k: &str| env.iter().rev().find(|(n, ..)| n == k);
    let mode = last("AWS_RETRY_MODE").and_then(|(_, v, _, s)| match v {
        None => Some(Located::written(String::new(), *s)),
        Some(v) => {
            let v = v.trim();
            RETRY_MODES
                .contains(&v)
                .then(|| Located::written(v.to_string(), *s))
        }
    });
    let attempts = last("AWS_MAX_ATTEMPTS").and_then(|(_, v, _, s)| match v {
        None => Some(Located::written(0, *s)),
        Some(v) => {
            let n = v.trim().parse::<u64>().ok().filter(|n| *n >= 1)?;
            Some(Located::written(n, *s))
        }
    });
    let profile = last("AWS_PROFILE")
        .map(|(_, v, _, s)| Located::written(v.as_deref().unwrap_or("").trim().to_string(), *s));
    (mode.is_some() || attempts.is_some() || profile.is_some()).then_some(AwsShared {
        kind,
        mode,
        attempts,
        profile,
    })
}
