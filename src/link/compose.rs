//! docker compose files read again with what docker compose gives them
//! (issue 17, item 2): the project's `.env` beside the file for `${VAR}`
//! and bare `- VAR` entries, and each service's `env_file` files
//! (`extract::compose_env`). The file's compose calls and unresolved
//! entries are replaced by the second reading's.

use super::*;
use crate::extract::compose_env::{ComposeEnv, parse_dotenv};
use crate::extract::workload;
use crate::model::calls::{IdentityKind, outside_mesh};

/// The largest `.env` or `env_file` file read.
const MAX_ENV_FILE: u64 = 1 << 20;
/// At most this many `env_file` files per compose file.
const MAX_ENV_FILES: usize = 64;

pub fn compose_env(files: &mut [ScannedFile], cwd: Option<&Path>) {
    for f in files.iter_mut() {
        if !f
            .facts
            .services
            .iter()
            .any(|s| s.kind == IdentityKind::Compose)
        {
            continue;
        }
        let path = match cwd {
            Some(c) if f.source.path.is_relative() => c.join(&f.source.path),
            _ => f.source.path.clone(),
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut env = ComposeEnv::default();
        if let Some(text) = read(&dir.join(".env")) {
            // The shell's environment is not known: `.env` values expand
            // from the entries above them only.
            env.vars = parse_dotenv(&text, &Default::default())
                .into_iter()
                .collect();
        }
        for p in workload::compose_env_files(&f.source.text)
            .into_iter()
            .take(MAX_ENV_FILES)
        {
            if let Some(text) = read(&dir.join(&p)) {
                let entries = parse_dotenv(&text, &env.vars);
                env.env_files.insert(p, entries);
            }
        }
        if env.vars.is_empty() && env.env_files.is_empty() {
            continue;
        }
        let mut again = crate::extract::Facts::default();
        workload::compose_edges(&f.source.text, &env, &mut again);
        f.facts.edges.retain(|e| !outside_mesh(&e.via));
        f.facts.edges.extend(again.edges);
        f.facts.unresolved = again.unresolved;
        // The AWS SDK variables of its services, as compose passes them.
        if f.facts
            .aws_shared
            .iter()
            .any(|e| matches!(e.kind, crate::model::AwsSharedKind::Env { .. }))
            || has_aws_var(&env)
        {
            crate::systems::aws::extract::compose_again(&f.source.text, &env, &mut f.facts);
        }
    }
}

/// Whether an `env_file` sets an AWS SDK variable.
fn has_aws_var(env: &ComposeEnv) -> bool {
    env.env_files
        .values()
        .flatten()
        .any(|(k, _)| crate::systems::aws::extract::ENV_NEEDLES.contains(&k.as_str()))
}

/// A regular file's text (no symbolic link followed), if small enough.
fn read(p: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(p).ok()?;
    if !meta.is_file() || meta.len() > MAX_ENV_FILE {
        return None;
    }
    std::fs::read_to_string(p).ok()
}
