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
use std::path::{Component, Path, PathBuf};

/// One source of settings: its file, the entry.
type Source<'a> = (usize, &'a AwsShared);

/// A setting as resolved for one client: a value and the key that gave
/// it, or a variable that is set where the program runs with a value this
/// scan cannot see (passed through, `valueFrom`, a build argument).
enum Got<T> {
    Known(T, &'static str, SettingPlace),
    Unknown(&'static str, SettingPlace),
}

/// The resolved settings a client reads, each with where it was written.
#[derive(Default)]
struct Resolved {
    mode: Option<Got<String>>,
    attempts: Option<Got<u64>>,
    /// `AWS_PROFILE` set with an unknown value: the profile is not known.
    profile_unknown: Option<SettingPlace>,
}

/// Which SDK a client is of, for its defaults and what it reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sdk {
    /// botocore (boto3): legacy mode by default, 5 attempts.
    Botocore,
    /// aws-sdk-go-v2, the Rust SDK: standard mode by default, 3 attempts.
    Standard,
    /// A Java client whose service fixes its attempts in every mode
    /// (DynamoDB): as [`Sdk::Java`], the mode's count not applied.
    JavaService,
    /// The AWS SDK for Java 2.x: legacy mode by default, 4 attempts; its
    /// count from `AWS_MAX_ATTEMPTS` only.
    Java,
}

/// Join every client that leaves its retries to the shared configuration
/// to the environment and profile that set them.
pub fn shared_config(files: &mut [ScannedFile]) {
    if !files.iter().any(|f| {
        f.facts.aws_shared.iter().any(|e| {
            matches!(
                e.kind,
                AwsSharedKind::Client { .. } | AwsSharedKind::JavaClient { .. }
            )
        })
    }) {
        return;
    }
    let mut changes: Vec<(usize, usize, Sdk, Resolved)> = Vec::new();
    {
        let files_r: &[ScannedFile] = files;
        let all = || {
            files_r
                .iter()
                .enumerate()
                .flat_map(|(i, f)| f.facts.aws_shared.iter().map(move |e| (i, e)))
        };
        let envs: Vec<(Source<'_>, Vec<String>, Option<PathBuf>)> = all()
            .filter_map(|(i, e)| match &e.kind {
                AwsSharedKind::Env { caller, context } => {
                    let dir = files_r[i].source.path.parent().unwrap_or(Path::new(""));
                    let ctx = context.as_ref().map(|c| lexical(&dir.join(c)));
                    Some(((i, e), names_of(&files_r[i], caller), ctx))
                }
                _ => None,
            })
            .collect();
        let of_kind = |k: fn(&AwsSharedKind) -> bool| -> Vec<Source<'_>> {
            all().filter(|(_, e)| k(&e.kind)).collect()
        };
        let profiles = of_kind(|k| matches!(k, AwsSharedKind::Profile(_)));
        let images = of_kind(|k| matches!(k, AwsSharedKind::Image));
        let dotenvs = of_kind(|k| matches!(k, AwsSharedKind::DotEnv));
        let loaders = of_kind(|k| matches!(k, AwsSharedKind::LoadsDotenv));
        for (ci, f) in files_r.iter().enumerate() {
            for c in &f.facts.aws_shared {
                let (policy, sdk) = match c.kind {
                    AwsSharedKind::Client { policy, botocore } => (
                        policy,
                        if botocore {
                            Sdk::Botocore
                        } else {
                            Sdk::Standard
                        },
                    ),
                    // A service whose own default fixes the attempts in
                    // every mode keeps them whatever mode is set.
                    AwsSharedKind::JavaClient {
                        policy,
                        service_attempts: Some(_),
                    } => (policy, Sdk::JavaService),
                    AwsSharedKind::JavaClient { policy, .. } => (policy, Sdk::Java),
                    _ => continue,
                };
                if policy >= f.facts.policies.len() {
                    continue;
                }
                let units = units_of(f);
                let here = &f.source.path;
                // The process environment, first source first: the
                // workload's, the image's, a loaded `.env`.
                let env: Vec<Source<'_>> = [
                    one_env(&envs, &units, here),
                    nearest_below(files_r, &images, here),
                    nearest_below(files_r, &dotenvs, here)
                        .filter(|(d, _)| loaded(files_r, &loaders, *d, ci, &units)),
                ]
                .into_iter()
                .flatten()
                .collect();
                let r = resolve(files_r, c, &env, &profiles, here, sdk);
                if r.mode.is_some() || r.attempts.is_some() || r.profile_unknown.is_some() {
                    changes.push((ci, policy, sdk, r));
                }
            }
        }
    }
    for (ci, i, sdk, r) in changes {
        apply(&mut files[ci].facts.policies[i], sdk, r);
    }
}

/// The first of `sources` that sets a key (its value or unknown).
fn first<'a, T>(
    files: &[ScannedFile],
    sources: &[(Source<'a>, &'static str)],
    get: impl Fn(&'a AwsShared) -> Option<&'a Located<T>>,
    unknown: impl Fn(&T) -> bool,
) -> Option<Got<T>>
where
    T: Clone + 'a,
{
    sources.iter().find_map(|((i, e), key)| {
        let v = get(e)?;
        let at = place(&files[*i], v.span);
        Some(if unknown(&v.value) {
            Got::Unknown(key, at)
        } else {
            Got::Known(v.value.clone(), key, at)
        })
    })
}

/// What the code leaves to the shared configuration, resolved from the
/// process environment `env` (first source first) and the profile.
fn resolve(
    files: &[ScannedFile],
    c: &AwsShared,
    env: &[Source<'_>],
    profiles: &[Source<'_>],
    here: &Path,
    sdk: Sdk,
) -> Resolved {
    let mut r = Resolved::default();
    // The profile: the code's, else `AWS_PROFILE`, else `default`; none
    // when `AWS_PROFILE` is set to a value not known here.
    let env_profile = env
        .iter()
        .find_map(|(i, e)| Some((*i, e.profile.as_ref()?)));
    let profile_name = match (&c.profile, env_profile) {
        (Some(p), _) => Some(p.value.as_str()),
        (None, Some((i, p))) if p.value.is_empty() => {
            r.profile_unknown = Some(place(&files[i], p.span));
            None
        }
        (None, Some((_, p))) => Some(p.value.as_str()),
        (None, None) => Some("default"),
    };
    let profile = profile_name.and_then(|n| nearest_profile(files, profiles, here, n));
    let with = |var: &'static str, key: &'static str, sdk_reads_profile: bool| {
        let mut v: Vec<(Source<'_>, &'static str)> = env.iter().map(|s| (*s, var)).collect();
        if sdk_reads_profile {
            v.extend(profile.map(|s| (s, key)));
        }
        v
    };
    if c.mode.is_none() {
        r.mode = first(
            files,
            &with("AWS_RETRY_MODE", "retry_mode", true),
            |e| e.mode.as_ref(),
            String::is_empty,
        );
    }
    // A profile not known here may set what nothing above it sets.
    if let Some(at) = &r.profile_unknown {
        if c.mode.is_none() && r.mode.is_none() {
            r.mode = Some(Got::Unknown("AWS_PROFILE", at.clone()));
        }
        if c.attempts.is_none() && !sdk.java() {
            r.attempts = first(
                files,
                &with("AWS_MAX_ATTEMPTS", "max_attempts", false),
                |e| e.attempts.as_ref(),
                |n| *n == 0,
            )
            .or_else(|| Some(Got::Unknown("AWS_PROFILE", at.clone())));
        }
        return r;
    }
    if c.attempts.is_none() {
        // The Java SDK reads no `max_attempts` from a profile (aws-sdk-java-v2
        // `SdkDefaultRetryStrategy.configure` reads
        // `SdkSystemSetting.AWS_MAX_ATTEMPTS` only, before 2.44.0's
        // `AWS_NEW_RETRIES_2026` gate, pull request #6925).
        r.attempts = first(
            files,
            &with("AWS_MAX_ATTEMPTS", "max_attempts", !sdk.java()),
            |e| e.attempts.as_ref(),
            |n| *n == 0,
        );
    }
    r
}

/// Of the entries of one kind (Dockerfiles, `.env` files), the nearest
/// whose folder holds `here`: `None` when none does, or when two of the
/// nearest folder disagree (`Dockerfile` and `Dockerfile.dev`).
fn nearest_below<'a>(
    files: &[ScannedFile],
    sources: &[Source<'a>],
    here: &Path,
) -> Option<Source<'a>> {
    let dir = |i: usize| files[i].source.path.parent().unwrap_or(Path::new(""));
    let depth = sources
        .iter()
        .filter(|(i, _)| here.starts_with(dir(*i)))
        .map(|(i, _)| dir(*i).components().count())
        .max()?;
    let nearest: Vec<Source<'a>> = sources
        .iter()
        .filter(|(i, _)| here.starts_with(dir(*i)) && dir(*i).components().count() == depth)
        .copied()
        .collect();
    let first = *nearest.first()?;
    nearest
        .iter()
        .all(|(_, e)| same(e, first.1))
        .then_some(first)
}

/// Whether a `.env` (file `d`) is loaded by the program of the client in
/// file `ci`: a file below the `.env`'s folder loads it, and it is the
/// client's file or of the client's program.
fn loaded(
    files: &[ScannedFile],
    loaders: &[Source<'_>],
    d: usize,
    ci: usize,
    units: &[String],
) -> bool {
    let dir = files[d].source.path.parent().unwrap_or(Path::new(""));
    loaders.iter().any(|(l, _)| {
        files[*l].source.path.starts_with(dir)
            && (*l == ci || units_of(&files[*l]).iter().any(|u| units.contains(u)))
    })
}

/// Whether two environments set the same.
fn same(a: &AwsShared, b: &AwsShared) -> bool {
    a.mode.as_ref().map(|m| &m.value) == b.mode.as_ref().map(|m| &m.value)
        && a.attempts.as_ref().map(|m| m.value) == b.attempts.as_ref().map(|m| m.value)
        && a.profile.as_ref().map(|m| &m.value) == b.profile.as_ref().map(|m| &m.value)
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

/// The environment of the workload running `units` (or, for a compose
/// service built from a folder, the file `here` under that folder):
/// `None` when none is known, or when two differ in what they set.
fn one_env<'a>(
    envs: &[(Source<'a>, Vec<String>, Option<PathBuf>)],
    units: &[String],
    here: &Path,
) -> Option<Source<'a>> {
    let here = lexical(here);
    let matching: Vec<Source<'a>> = envs
        .iter()
        .filter(|(_, names, ctx)| {
            names.iter().any(|n| units.contains(n))
                || ctx.as_ref().is_some_and(|c| here.starts_with(c))
        })
        .map(|(s, _, _)| *s)
        .collect();
    let first = *matching.first()?;
    matching
        .iter()
        .all(|(_, e)| same(e, first.1))
        .then_some(first)
}

/// A path with `.` taken out and `..` applied, lexically.
fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
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
fn apply(p: &mut RetryPolicy, sdk: Sdk, r: Resolved) {
    let at = p.attempts.span;
    let dspan = p.delay.span;
    let mut mode: Option<&str> = None;
    match &r.mode {
        Some(Got::Known(m, _, from)) => {
            mode = Some(m.as_str());
            let standard = m != "legacy";
            // The Java SDK caps at 20 s and keeps a token bucket in every
            // mode (aws-sdk-java-v2 `DefaultRetryStrategy.Legacy`
            // `MAX_BACKOFF = 20 s`, `TOKEN_BUCKET_SIZE = 500`).
            let capped = standard || sdk.java();
            if let Delay::Exponential {
                base, multiplier, ..
            } = p.delay.value
            {
                let cap = capped.then_some(STANDARD_MAX_BACKOFF);
                p.delay = Located::included(
                    Delay::Exponential {
                        base,
                        multiplier,
                        cap,
                    },
                    dspan,
                );
            }
            p.budget = capped.then(|| Located::included(Budget::Quota, dspan));
            p.settings_from.push(from.clone());
            if m == "adaptive" {
                p.why.push(
                    "retry mode `adaptive`: the standard mode's retries and quota, and a client-side rate limiter on throttling"
                        .into(),
                );
            }
        }
        Some(Got::Unknown(var, from)) => {
            // Whether the mode has a quota is not known here.
            p.budget_site = BudgetSite::Unseen;
            p.settings_from.push(from.clone());
            p.why.push(format!(
                "`{var}` is set where the program runs, to a value not known here: the retry mode may differ"
            ));
        }
        None => {}
    }
    if let Some(from) = &r.profile_unknown {
        p.settings_from.push(from.clone());
        p.why.push(
            "`AWS_PROFILE` is set where the program runs, to a value not known here: the profile's `retry_mode` and `max_attempts` are not read"
                .into(),
        );
    }
    match &r.attempts {
        // DynamoDB's own strategy sets its count over the mode's, which is
        // where `AWS_MAX_ATTEMPTS` goes (aws-sdk-java-v2
        // `DynamoDbRetryPolicy.resolveRetryStrategy` at 07c0c616:
        // `forRetryMode(mode).toBuilder().maxAttempts(MAX_ATTEMPTS_V20)`).
        Some(Got::Known(_, key, _) | Got::Unknown(key, _)) if sdk == Sdk::JavaService => {
            p.why.push(format!(
                "`{key}` does not apply: the DynamoDB client's own retry strategy sets its attempts over it"
            ));
        }
        Some(Got::Known(n, key, from)) => {
            p.attempts = Located::included(
                Attempts {
                    count: AttemptCount::Finite(*n),
                    written_as: format!("{key}: {n}"),
                },
                at,
            );
            p.settings_from.push(from.clone());
        }
        Some(Got::Unknown(var, from)) => {
            p.attempts = Located::included(
                Attempts {
                    count: AttemptCount::Unknown,
                    written_as: format!("{var} set where the program runs"),
                },
                at,
            );
            p.settings_from.push(from.clone());
        }
        // The mode's default count, when the code writes none.
        None if p.attempts.provenance == Provenance::Default && sdk != Sdk::JavaService => {
            let legacy = mode == Some("legacy") || mode.is_none();
            let n = match sdk {
                Sdk::Botocore if legacy => BOTOCORE_LEGACY_ATTEMPTS,
                Sdk::Java if legacy => JAVA_LEGACY_ATTEMPTS,
                _ => STANDARD_ATTEMPTS,
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

impl Sdk {
    fn java(self) -> bool {
        matches!(self, Sdk::Java | Sdk::JavaService)
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
/// The Java SDK's legacy mode (its default): 4 attempts (aws-sdk-java-v2
/// `core/retries/.../DefaultRetryStrategy.java` `Legacy.MAX_ATTEMPTS = 4`;
/// DynamoDB's 9 in every mode: `Sdk::JavaService`).
const JAVA_LEGACY_ATTEMPTS: u64 = crate::systems::java::AWS_LEGACY_ATTEMPTS;

#[cfg(test)]
mod tests;
