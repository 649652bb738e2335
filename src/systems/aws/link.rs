//! AWS SDK clients built in code joined to the shared configuration they
//! read at start (issues 20 and 21): the `AWS_MAX_ATTEMPTS`,
//! `AWS_RETRY_MODE` and `AWS_PROFILE` of the workload that runs them (a
//! Kubernetes container's `env`, a compose service's `environment`, with
//! the compose `.env` already interpolated by `link::compose_env`), and
//! the profiles of a `.aws/config`-style file above them in the tree.
//!
//! Precedence, the same in botocore and aws-sdk-go-v2: what the code
//! writes (a `Config(retries=..)`, `config.WithRetryMaxAttempts`), then the
//! environment, then the profile (botocore 1.43.67 `configprovider.py`
//! `BOTOCORE_DEFAUT_SESSION_VARIABLES` `'max_attempts': ('max_attempts',
//! 'AWS_MAX_ATTEMPTS', None, int)`, `'retry_mode': ('retry_mode',
//! 'AWS_RETRY_MODE', _DEFAULT_RETRY_MODE, None)` with
//! `_DEFAULT_RETRY_MODE = 'legacy'` unless `AWS_NEW_RETRIES_2026` is set
//! (not modelled, as in `systems::aws::extract`): instance variable, environment,
//! config file, default; `args.py` `_compute_retry_max_attempts` reads
//! them only when the `Config` sets no count; aws-sdk-go-v2
//! `config/resolve.go` `resolveRetryMaxAttempts` / `resolveRetryMode`
//! take the first of the configs in order: the `LoadOptions`, then
//! `EnvConfig`, then `SharedConfig` (`config/config.go`
//! `defaultLoaders`)). The profile is the one the code
//! names (`Session(profile_name=)`, `config.WithSharedConfigProfile`),
//! else `AWS_PROFILE`, else `default`. With neither mode nor count set
//! anywhere, botocore runs legacy mode (5 attempts) and aws-sdk-go-v2
//! standard mode (3 attempts): the readers' defaults, left as they are.
//!
//! Which workload runs a file: the file's build unit (or the program it
//! declares) named as the workload, the compose service, or one of the
//! images the workload runs. Two workloads of that name whose settings
//! differ (overlays for two environments) set nothing here. A profile
//! applies to the files below the folder that holds its `.aws/` folder
//! (or the file itself, for a `shared_config`-style name), the nearest
//! such folder first.

use crate::model::calls::IdentityKind;
use crate::model::*;
use std::path::Path;

/// One source of settings: its file, the entry.
type Source<'a> = (usize, &'a AwsShared);

/// The resolved settings a client reads, each with where it was written.
#[derive(Default)]
struct Resolved {
    mode: Option<(String, SettingPlace)>,
    attempts: Option<(u64, String, SettingPlace)>,
}

/// Join every client that leaves its retries to the shared configuration
/// to the environment and profile that set them.
pub fn shared_config(files: &mut [ScannedFile]) {
    if !files.iter().any(|f| {
        f.facts
            .aws_shared
            .iter()
            .any(|e| matches!(e.kind, AwsSharedKind::Client { .. }))
    }) {
        return;
    }
    let mut changes: Vec<(usize, usize, bool, Resolved)> = Vec::new();
    {
        let files_r: &[ScannedFile] = files;
        let envs: Vec<(Source<'_>, Vec<String>)> = files_r
            .iter()
            .enumerate()
            .flat_map(|(i, f)| f.facts.aws_shared.iter().map(move |e| (i, e)))
            .filter_map(|(i, e)| match &e.kind {
                AwsSharedKind::Env { caller } => Some(((i, e), names_of(&files_r[i], caller))),
                _ => None,
            })
            .collect();
        let profiles: Vec<Source<'_>> = files_r
            .iter()
            .enumerate()
            .flat_map(|(i, f)| f.facts.aws_shared.iter().map(move |e| (i, e)))
            .filter(|(_, e)| matches!(e.kind, AwsSharedKind::Profile(_)))
            .collect();
        for (ci, f) in files_r.iter().enumerate() {
            for c in &f.facts.aws_shared {
                let AwsSharedKind::Client { policy, botocore } = c.kind else {
                    continue;
                };
                if policy >= f.facts.policies.len() {
                    continue;
                }
                let units = units_of(f);
                let env = one_env(&envs, &units);
                let profile_name = c
                    .profile
                    .as_ref()
                    .or(env.and_then(|(_, e)| e.profile.as_ref()))
                    .map_or("default", |p| p.value.as_str());
                let profile = nearest_profile(files_r, &profiles, &f.source.path, profile_name);
                let mut r = Resolved::default();
                if c.mode.is_none() {
                    r.mode = [env, profile].into_iter().flatten().find_map(|(i, e)| {
                        let m = e.mode.as_ref()?;
                        Some((m.value.clone(), place(&files_r[i], m.span)))
                    });
                }
                if c.attempts.is_none() {
                    r.attempts = [(env, "AWS_MAX_ATTEMPTS"), (profile, "max_attempts")]
                        .into_iter()
                        .filter_map(|(s, key)| s.map(|s| (s, key)))
                        .find_map(|((i, e), key)| {
                            let a = e.attempts.as_ref()?;
                            Some((a.value, key.to_string(), place(&files_r[i], a.span)))
                        });
                }
                if r.mode.is_some() || r.attempts.is_some() {
                    changes.push((ci, policy, botocore, r));
                }
            }
        }
    }
    for (ci, i, botocore, r) in changes {
        apply(&mut files[ci].facts.policies[i], botocore, r);
    }
}

/// The names a workload's environment is known by: the workload (or
/// compose service) and the images it runs.
fn names_of(f: &ScannedFile, caller: &str) -> Vec<String> {
    let mut out = vec![caller.to_ascii_lowercase()];
    for s in &f.facts.services {
        if s.name == caller && matches!(s.kind, IdentityKind::Workload | IdentityKind::Compose) {
            for image in &s.placement.images {
                let short = image.rsplit('/').next().unwrap_or(image);
                let short = short.split([':', '@']).next().unwrap_or(short);
                out.push(short.to_ascii_lowercase());
            }
        }
    }
    out
}

/// The programs a source file belongs to: the one it declares, else its
/// build unit.
fn units_of(f: &ScannedFile) -> Vec<String> {
    let of = |kinds: &[IdentityKind]| -> Vec<String> {
        f.facts
            .services
            .iter()
            .filter(|s| kinds.contains(&s.kind))
            .map(|s| s.name.to_ascii_lowercase())
            .collect()
    };
    let own = of(&[IdentityKind::Workload, IdentityKind::AppName]);
    if own.is_empty() {
        of(&[IdentityKind::BuildUnit])
    } else {
        own
    }
}

/// The environment of the workload running `units`: `None` when none is
/// known, or when two differ in what they set.
fn one_env<'a>(envs: &[(Source<'a>, Vec<String>)], units: &[String]) -> Option<Source<'a>> {
    let matching: Vec<Source<'a>> = envs
        .iter()
        .filter(|(_, names)| names.iter().any(|n| units.contains(n)))
        .map(|(s, _)| *s)
        .collect();
    let first = *matching.first()?;
    let same = |a: &AwsShared, b: &AwsShared| {
        a.mode.as_ref().map(|m| &m.value) == b.mode.as_ref().map(|m| &m.value)
            && a.attempts.as_ref().map(|m| m.value) == b.attempts.as_ref().map(|m| m.value)
            && a.profile.as_ref().map(|m| &m.value) == b.profile.as_ref().map(|m| &m.value)
    };
    matching
        .iter()
        .all(|(_, e)| same(e, first.1))
        .then_some(first)
}

/// The folder a shared config file serves: the one holding its `.aws/`
/// folder, else its own.
fn home_of(path: &Path) -> &Path {
    let dir = path.parent().unwrap_or(path);
    if dir.file_name().is_some_and(|n| n == ".aws") {
        dir.parent().unwrap_or(dir)
    } else {
        dir
    }
}

/// The profile `name` of the nearest shared config file above `here`.
fn nearest_profile<'a>(
    files: &[ScannedFile],
    profiles: &[Source<'a>],
    here: &Path,
    name: &str,
) -> Option<Source<'a>> {
    profiles
        .iter()
        .filter(|(_, e)| matches!(&e.kind, AwsSharedKind::Profile(n) if n == name))
        .filter(|(i, _)| here.starts_with(home_of(&files[*i].source.path)))
        .max_by_key(|(i, _)| home_of(&files[*i].source.path).components().count())
        .copied()
}

fn place(f: &ScannedFile, span: crate::source::Span) -> SettingPlace {
    SettingPlace {
        path: f.source.display_path(),
        line: f.source.line_col(span.start).line,
    }
}

/// The client's policy with the shared configuration's mode and count, as
/// the SDK reads them (`Included`: written in another file, in force at
/// the client).
fn apply(p: &mut RetryPolicy, botocore: bool, r: Resolved) {
    let at = p.attempts.span;
    if let Some((mode, from)) = &r.mode {
        let standard = mode != "legacy";
        let dspan = p.delay.span;
        if let Delay::Exponential {
            base, multiplier, ..
        } = p.delay.value
        {
            let cap = standard.then_some(STANDARD_MAX_BACKOFF);
            p.delay = Located::included(
                Delay::Exponential {
                    base,
                    multiplier,
                    cap,
                },
                dspan,
            );
        }
        p.budget = standard.then(|| Located::included(Budget::Quota, dspan));
        p.settings_from.push(from.clone());
        if mode == "adaptive" {
            p.why.push(
                "retry mode `adaptive`: the standard mode's retries and quota, and a client-side rate limiter on throttling"
                    .into(),
            );
        }
    }
    let mode = r.mode.as_ref().map(|(m, _)| m.as_str());
    match &r.attempts {
        Some((n, key, from)) => {
            p.attempts = Located::included(
                Attempts {
                    count: AttemptCount::Finite(*n),
                    written_as: format!("{key}: {n}"),
                },
                at,
            );
            p.settings_from.push(from.clone());
        }
        // The mode's default count, when the code writes none.
        None if p.attempts.provenance == Provenance::Default => {
            let legacy = mode == Some("legacy") || (mode.is_none() && botocore);
            let n = if legacy && botocore {
                BOTOCORE_LEGACY_ATTEMPTS
            } else {
                STANDARD_ATTEMPTS
            };
            if let Some(m) = mode {
                p.attempts = Located::included(
                    Attempts {
                        count: AttemptCount::Finite(n),
                        written_as: format!("retry_mode: {m} without max_attempts: {n} attempts"),
                    },
                    at,
                );
            }
        }
        None => {}
    }
    if let Some(name) = &mut p.name
        && let Some(base) = name.strip_suffix(" with botocore's defaults")
    {
        *name = format!("{base} with the shared configuration's retry settings");
    }
}

/// Standard and adaptive modes: 3 attempts, waits capped at 20 s
/// (botocore 1.43.67 `retries/standard.py` `DEFAULT_MAX_ATTEMPTS = 3`,
/// `ExponentialBackoff._MAX_BACKOFF = 20`; aws-sdk-go-v2 `aws/retry/standard.go`
/// `DefaultMaxAttempts = 3`, `DefaultMaxBackoff = 20 * time.Second`).
const STANDARD_ATTEMPTS: u64 = 3;
const STANDARD_MAX_BACKOFF: std::time::Duration = std::time::Duration::from_secs(20);
/// botocore's legacy mode: 5 attempts (`botocore/data/_retry.json`
/// `"max_attempts": 5`), the value the Python reader uses too.
const BOTOCORE_LEGACY_ATTEMPTS: u64 = crate::systems::python::BOTOCORE_LEGACY_ATTEMPTS;

#[cfg(test)]
mod tests;
