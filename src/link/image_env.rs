//! A variable an nginx template's pass is filled with (`envsubst`,
//! `proxy_pass http://${CATALOGUE_HOST}:8080/`), set by the image the
//! template is built into: the `ENV` of the nearest Dockerfile at or
//! above the template's folder (inside the scanned roots), final stage
//! (`ENV CATALOGUE_HOST=catalogue`, instana/robot-shop's web). That value
//! is the target's default ([`crate::model::UnresolvedCall::if_unset`]):
//! the workload's own entry (compose `environment`, a Kubernetes `env`)
//! wins over it, as the container's environment does over the image's.

use super::Disk;
use crate::model::ScannedFile;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The largest Dockerfile read.
const MAX_DOCKERFILE: u64 = 256 * 1024;
/// Folders walked up from a template, at most.
const MAX_UP: usize = 8;

pub(super) fn image_env(
    files: &mut [ScannedFile],
    roots: &[PathBuf],
    cwd: Option<&Path>,
    disk: Disk<'_>,
) {
    let absolute = |p: &Path| match cwd {
        Some(c) if p.is_relative() => c.join(p),
        _ => p.to_path_buf(),
    };
    let roots: Vec<PathBuf> = roots.iter().map(|r| absolute(r)).collect();
    let mut read: HashMap<PathBuf, Option<Vec<(String, String)>>> = HashMap::new();
    for f in files.iter_mut() {
        if f.syntax != Some(crate::model::Syntax::Nginx)
            || !f
                .facts
                .unresolved
                .iter()
                .any(|u| u.if_unset.is_none() && u.written.starts_with("env "))
        {
            continue;
        }
        let path = absolute(&f.source.path);
        let Some(env) = path
            .ancestors()
            .skip(1)
            .take(MAX_UP)
            .take_while(|d| roots.iter().any(|r| d.starts_with(r)))
            .map(|d| d.join("Dockerfile"))
            .find(|d| disk.is_file(d))
            .and_then(|d| {
                read.entry(d.clone())
                    .or_insert_with(|| disk.read(&d, MAX_DOCKERFILE).map(|t| final_env(&t)))
                    .clone()
            })
        else {
            continue;
        };
        for u in &mut f.facts.unresolved {
            let Some(var) = u.written.strip_prefix("env ") else {
                continue;
            };
            if u.if_unset.is_none()
                && let Some((_, v)) = env.iter().find(|(k, _)| k == var)
            {
                u.if_unset = crate::extract::workload::host_of(v);
            }
        }
    }
}

/// The `ENV` entries of a Dockerfile's final stage whose value is
/// written (no `$`): `ENV K=V K2="V 2"` and the legacy `ENV K V`.
fn final_env(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut line = String::new();
    for raw in text.lines().take(10_000) {
        let t = raw.trim();
        if t.starts_with('#') && line.is_empty() {
            continue;
        }
        if let Some(cont) = t.strip_suffix('\\') {
            line.push_str(cont);
            line.push(' ');
            continue;
        }
        line.push_str(t);
        let l = std::mem::take(&mut line);
        let (word, rest) = l.split_once(char::is_whitespace).unwrap_or((&l, ""));
        match word.to_ascii_uppercase().as_str() {
            "FROM" => out.clear(),
            "ENV" => {
                let rest = rest.trim();
                let first = rest.split_whitespace().next().unwrap_or("");
                if !first.contains('=') {
                    if let Some((k, v)) = rest.split_once(char::is_whitespace) {
                        push(&mut out, k, v.trim());
                    }
                    continue;
                }
                for (k, v) in pairs(rest) {
                    push(&mut out, &k, &v);
                }
            }
            _ => {}
        }
        if out.len() > 256 {
            break;
        }
    }
    out
}

fn push(out: &mut Vec<(String, String)>, k: &str, v: &str) {
    let v = v.trim_matches(['"', '\'']);
    out.retain(|(x, _)| x != k);
    if !v.contains('$') {
        out.push((k.to_string(), v.to_string()));
    }
}

/// `K=V K2="V 2"`: the pairs, quotes kept off.
fn pairs(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while let Some((k, after)) = rest.split_once('=') {
        let (v, next) = match after.strip_prefix('"') {
            Some(q) => match q.split_once('"') {
                Some((v, n)) => (v, n),
                None => (q, ""),
            },
            None => after.split_once(char::is_whitespace).unwrap_or((after, "")),
        };
        out.push((k.trim().to_string(), v.to_string()));
        rest = next.trim_start();
        if out.len() > 64 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_stage_entries() {
        let d = "FROM alpine AS build\nENV A=1\nFROM nginx:1.21\nENV CATALOGUE_HOST=catalogue \\\n    USER_HOST=\"user\" \\\n    KEY=$X\nENV LEGACY legacy-host\n";
        assert_eq!(
            final_env(d),
            [
                ("CATALOGUE_HOST".to_string(), "catalogue".to_string()),
                ("USER_HOST".to_string(), "user".to_string()),
                ("LEGACY".to_string(), "legacy-host".to_string()),
            ]
        );
    }
}
