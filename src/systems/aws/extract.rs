//! AWS SDK retry settings: the shared config and credentials files
//! (`~/.aws/config`-style INI anywhere in the tree) and the
//! `AWS_MAX_ATTEMPTS` / `AWS_RETRY_MODE` environment entries of Kubernetes
//! workloads and docker-compose services.
//!
//! The INI dialect is the one both reference readers accept, and where they
//! differ the difference is reported:
//! - sections: `[default]`, `[profile NAME]`, `[sso-session NAME]`,
//!   `[services NAME]`; names are case-sensitive (`DoNotNormalize` and
//!   `donotnormalize` are two profiles). In a credentials file every
//!   `[NAME]` is a profile. A config-file section without the `profile `
//!   prefix is not a profile, so retry keys in it are ignored;
//! - keys are lower-cased by both (aws-sdk-go-v2 `internal/ini`
//!   `asProperty`; Python's `RawConfigParser.optionxform`); `=` and `:`
//!   both separate key and value there, but the SDKs of the cross-SDK
//!   profile parser (Java, Rust, Kotlin; its test suite
//!   `profile-parser-tests.json`) refuse `:`: reported (RL903);
//! - a key with an empty value followed by indented `key = value` lines is
//!   a nested sub-section (`s3 =`), where a line without `=` or without a
//!   name is refused (botocore `configloader._parse_nested` raises
//!   ConfigParseError): reported; other indented lines continue the value,
//!   and one that continues no property (before the first section, or
//!   first in its section) is refused by the shared parser: reported;
//! - `#` and `;` start a comment line. aws-sdk-go-v2 also cuts a property
//!   line at the first `#` or `;` and strips one pair of surrounding
//!   quotes; botocore (`configloader.raw_config_parse`) does neither, so
//!   `max_attempts = 5 # five` and `retry_mode = "standard"` load in Go and
//!   fail in Python: reported (RL902);
//! - duplicate sections are merged and a later key wins (aws-sdk-go-v2
//!   `internal/ini/parse.go`; botocore's strict `RawConfigParser` refuses
//!   such a file instead, which is not reported here).
//!
//! Retry settings and defaults (AWS SDKs and Tools Reference Guide,
//! "Retry behavior"; botocore `args.py`, `retries/standard.py`,
//! `retries/quota.py`; aws-sdk-go-v2 `aws/retry`):
//! - `max_attempts` counts total attempts, the first included (botocore
//!   stores it as `total_max_attempts`); a whole number of at least 1
//!   (botocore rejects 0, aws-sdk-go-v2 reads 0 as unset);
//! - `retry_mode` is `standard`, `adaptive` or `legacy`, lower case
//!   (botocore checks membership; aws-sdk-go-v2 `aws.ParseRetryMode`
//!   accepts only `standard` and `adaptive`); anything else stops the SDK
//!   from loading the profile;
//! - standard: 3 attempts, delay `random(0, 1) x min(2^(n-1) s, 20 s)`
//!   (full jitter, the 20 s cap applied before the randomisation), a retry
//!   quota of 500 tokens; adaptive: the same plus a client-side rate
//!   limiter; legacy: SDK-specific, botocore's is 5 attempts (DynamoDB 10),
//!   `random(0, 1) x 2^(n-1)` s, no quota;
//! - with neither key the SDK's default applies: standard mode in most
//!   SDKs (aws-sdk-go-v2, the Java, JavaScript and Rust SDKs), while
//!   botocore (boto3, AWS CLI v1) defaults to legacy;
//! - `AWS_NEW_RETRIES_2026=true` opts in to the 2026 retry behaviour, with
//!   other backoff bases, quota costs and service defaults (botocore's
//!   `STANDARD_RETRY_MODE_VERSION` "2.1" path scales the base to 50 ms for
//!   non-throttling errors and gives DynamoDB 4 attempts); the pre-2026
//!   behaviour is modelled here;
//! - standard mode retries 500, 502, 503 and 504, throttling error codes,
//!   `RequestTimeout` and connection errors, for every operation;
//!   operations with an idempotency token get it filled in by the SDK.
//!
//! No message ever includes a value other than a retry setting's: these
//! files hold credentials.

use crate::diag::{invalid_setting, unknown_setting, unparsable_file};
use crate::extract::{DocCtx, Facts};
use crate::model::*;
use crate::source::Span;
use crate::yaml::Yaml;
use std::path::Path;
use std::time::Duration;

mod env;
mod ini;

pub use env::{compose_again, extract_env_doc, is_dockerfile_name, is_dotenv_name};
use ini::*;

/// Substrings that make a YAML file worth parsing for the env extractor.
pub const ENV_NEEDLES: &[&str] = &["AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE", "AWS_PROFILE"];

pub const RETRY_MODES: &[&str] = &["standard", "adaptive", "legacy"];
const RETRY_KEYS: &[&str] = &["retry_mode", "max_attempts"];

/// Shared-config keys that are not retry settings, so that a near-miss
/// check never mistakes one of them for a misspelled retry key.
const OTHER_KEYS: &[&str] = &[
    "region",
    "output",
    "aws_access_key_id",
    "aws_secret_access_key",
    "aws_session_token",
    "role_arn",
    "source_profile",
    "credential_source",
    "credential_process",
    "external_id",
    "mfa_serial",
    "role_session_name",
    "duration_seconds",
    "web_identity_token_file",
    "sso_session",
    "sso_start_url",
    "sso_region",
    "sso_account_id",
    "sso_role_name",
    "sso_registration_scopes",
    "ca_bundle",
    "defaults_mode",
    "endpoint_url",
    "ignore_configured_endpoint_urls",
    "metadata_service_timeout",
    "metadata_service_num_attempts",
    "parameter_validation",
    "tcp_keepalive",
    "max_concurrent_requests",
    "max_queue_size",
    "max_bandwidth",
    "multipart_threshold",
    "multipart_chunksize",
    "cli_pager",
    "cli_timestamp_format",
    "cli_binary_format",
    "cli_auto_prompt",
    "s3",
    "services",
];

/// Whether a path is an AWS config or credentials file by its place
/// (`.aws/config`, `.aws/credentials`).
pub fn is_aws_path(path: &Path) -> bool {
    // Compared as bytes, ASCII case ignored (as the lowercased names
    // were), the name first: asked of every file the scan reads.
    let is = |n: Option<&std::ffi::OsStr>, w: &str| {
        n.is_some_and(|n| n.as_encoded_bytes().eq_ignore_ascii_case(w.as_bytes()))
    };
    let name = path.file_name();
    (is(name, "config") || is(name, "credentials"))
        && is(path.parent().and_then(|p| p.file_name()), ".aws")
}

/// Whether a file is an AWS shared config or credentials file: by its
/// place, or by a name such as `shared_config` / `aws_config` /
/// `aws-credentials` and a `[default]` or `[profile ...]` line.
pub fn is_aws_file(path: &Path, bytes: &[u8]) -> bool {
    if is_aws_path(path) {
        return true;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    // A Dockerfile or a plain `.env` that sets an SDK variable: the
    // environment of the programs below it (`env::extract_dockerfile`).
    if is_dockerfile_name(&name) || is_dotenv_name(&name) {
        return sets_env_var(bytes);
    }
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    const NOT_INI: &[&str] = &[
        "yml",
        "yaml",
        "json",
        "py",
        "go",
        "java",
        "rs",
        "js",
        "ts",
        "rb",
        "md",
        "toml",
        "xml",
        "properties",
        "sh",
        "tf",
        "kt",
        "cs",
        "php",
        "html",
    ];
    if NOT_INI.contains(&ext) {
        return false;
    }
    let named = name.starts_with("shared_config")
        || name.starts_with("shared_credentials")
        || (name.contains("aws") && (name.contains("config") || name.contains("credentials")));
    named && sniff(bytes)
}

/// Whether a text names one of the SDK's retry variables.
fn sets_env_var(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(256 * 1024)];
    ENV_NEEDLES
        .iter()
        .any(|n| head.windows(n.len()).any(|w| w == n.as_bytes()))
}

/// A line that is `[default]` or starts with `[profile `.
fn sniff(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(64 * 1024)];
    head.split(|b| *b == b'\n').any(|l| {
        let l = l.strip_suffix(b"\r").unwrap_or(l);
        l.starts_with(b"[default]") || l.starts_with(b"[profile ")
    })
}

fn is_credentials(path: &Path) -> bool {
    path.file_name()
        .map(|n| {
            n.to_string_lossy()
                .to_ascii_lowercase()
                .contains("credentials")
        })
        .unwrap_or(false)
}

/// Whether a key holds a secret (or an identifier worth hiding).
fn is_secret_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    k.contains("secret")
        || k.contains("token")
        || k.contains("password")
        || k == "aws_access_key_id"
        || k == "credential_process"
}

/// The text with the value of every credential key replaced by `*`, byte
/// for byte, so that every offset stays where it was.
pub fn redact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let sep = body.find(['=', ':']);
        match sep {
            Some(i) if is_secret_key(body[..i].trim()) => {
                out.push_str(&body[..=i]);
                for c in body[i + 1..].chars() {
                    if c.is_whitespace() {
                        out.push(c);
                    } else {
                        out.extend(std::iter::repeat_n('*', c.len_utf8()));
                    }
                }
                out.push_str(&line[body.len()..]);
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// A profile after duplicate sections are merged.
struct Profile {
    name: String,
    header: Span,
    /// Every key of every section of the profile (later wins).
    props: Vec<Prop>,
    is_default: bool,
}

/// Read an AWS shared config or credentials file, or the SDK variables
/// of a Dockerfile or a plain `.env` ([`is_aws_file`] claims them as INI:
/// `#` comments).
pub fn extract_ini(path: &Path, text: &str, facts: &mut Facts) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if is_dockerfile_name(&name) {
        return env::extract_dockerfile(text, facts);
    }
    if is_dotenv_name(&name) {
        return env::extract_dotenv(text, facts);
    }
    facts.claimed_by("aws");
    let credentials = is_credentials(path);
    let sections = parse(text, facts);
    let mut profiles: Vec<Profile> = Vec::new();
    for s in &sections {
        let profile_name = if credentials {
            Some(if s.kind.is_empty() {
                s.name.clone()
            } else {
                format!("{} {}", s.kind, s.name)
            })
        } else if s.kind.is_empty() && s.name == "default" {
            Some("default".to_string())
        } else if s.kind == "profile" && !s.name.is_empty() {
            Some(s.name.clone())
        } else {
            None
        };
        let Some(name) = profile_name else {
            for p in s
                .props
                .iter()
                .filter(|p| RETRY_KEYS.contains(&p.key.as_str()))
            {
                let (where_, fix) = if s.kind.is_empty() {
                    (
                        format!(
                            "in `[{}]`: in a config file only `[default]` and `[profile NAME]` sections are profiles",
                            s.name
                        ),
                        format!("rename the section to `[profile {}]`", s.name),
                    )
                } else {
                    (
                        format!(
                            "in a `[{} ...]` section: the SDKs read retry settings only from profiles",
                            s.kind
                        ),
                        "move it to the `[profile NAME]` that the clients use".to_string(),
                    )
                };
                facts.diagnostics.push(unknown_setting::ignored_here(
                    p.key_span, &p.key, &where_, &fix,
                ));
            }
            continue;
        };
        let is_default = name == "default";
        let idx = match profiles.iter().position(|p| p.name == name) {
            Some(i) => i,
            None => {
                profiles.push(Profile {
                    name,
                    header: s.header,
                    props: Vec::new(),
                    is_default,
                });
                profiles.len() - 1
            }
        };
        for p in &s.props {
            let props = &mut profiles[idx].props;
            props.retain(|q| q.key != p.key);
            props.push(p.clone());
        }
    }
    for profile in &profiles {
        check_near_misses(profile, facts);
        let find = |k: &str| profile.props.iter().find(|p| p.key == k);
        let mode = find("retry_mode").map(|p| Setting {
            key: p.key.clone(),
            value: p.value.clone(),
            raw: p.raw.clone(),
            value_span: p.value_span,
            span: p.span(),
            botocore_differs: p.botocore_differs,
        });
        let attempts = find("max_attempts").map(|p| Setting {
            key: p.key.clone(),
            value: p.value.clone(),
            raw: p.raw.clone(),
            value_span: p.value_span,
            span: p.span(),
            botocore_differs: p.botocore_differs,
        });
        if !credentials
            && let Some(e) = shared_entry(
                AwsSharedKind::Profile(profile.name.clone()),
                mode.as_ref(),
                attempts.as_ref(),
                None,
            )
        {
            facts.aws_shared.push(e);
        }
        // The SDK's default shows once per config file, at `[default]`, and
        // at profiles that set nothing at all; other profiles without retry
        // keys behave the same and are not repeated.
        let wants_default = !credentials && (profile.is_default || profile.props.is_empty());
        if mode.is_none() && attempts.is_none() && !wants_default {
            continue;
        }
        let label = if profile.is_default {
            "profile default".to_string()
        } else {
            format!("profile {}", profile.name)
        };
        if let Some(p) = policy(&label, mode, attempts, profile.header, facts) {
            facts.policies.push(p);
        }
    }
}

/// Keys that look like a misspelled retry key (`max-attempts`,
/// `retrymode`, `aws_max_attempts`), and retry keys nested under another
/// key, which the SDKs ignore.
fn check_near_misses(profile: &Profile, facts: &mut Facts) {
    for p in &profile.props {
        for n in &p.nested {
            if RETRY_KEYS.contains(&n.key.as_str()) {
                facts.diagnostics.push(unknown_setting::ignored_here(
                    n.key_span,
                    &n.key,
                    &format!("nested under `{}`: the SDKs read retry settings only at the top of a profile", p.key),
                    &format!("move `{}` out of the `{} =` block, unindented", n.key, p.key),
                ));
            }
        }
        if RETRY_KEYS.contains(&p.key.as_str()) || OTHER_KEYS.contains(&p.key.as_str()) {
            continue;
        }
        if let Some(s) = crate::keys::did_you_mean(&p.key, RETRY_KEYS.iter().copied()) {
            facts.diagnostics.push(unknown_setting::unknown_key(
                p.key_span,
                &p.key,
                &format!("AWS profile `{}`", profile.name),
                [s],
            ));
        }
    }
}

/// A retry setting as read from a file or an environment entry.
struct Setting {
    key: String,
    value: String,
    /// As written (botocore's reading).
    raw: String,
    value_span: Span,
    span: Span,
    botocore_differs: bool,
}

/// The valid settings of a profile or an environment, for the link step
/// (`systems::aws::link`); `None` when it holds none.
fn shared_entry(
    kind: AwsSharedKind,
    mode: Option<&Setting>,
    attempts: Option<&Setting>,
    profile: Option<Located<String>>,
) -> Option<AwsShared> {
    let mode = mode
        .filter(|s| !s.botocore_differs && RETRY_MODES.contains(&s.value.as_str()))
        .map(|s| Located::written(s.value.clone(), s.span));
    let attempts = attempts.filter(|s| !s.botocore_differs).and_then(|s| {
        let n = s.value.trim().parse::<u64>().ok().filter(|n| *n >= 1)?;
        Some(Located::written(n, s.span))
    });
    (mode.is_some() || attempts.is_some() || profile.is_some()).then_some(AwsShared {
        kind,
        mode,
        attempts,
        profile,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Standard,
    Adaptive,
    Legacy,
}

/// Build the policy for one profile or environment; `None` when a value
/// makes the SDKs refuse it.
fn policy(
    name: &str,
    mode: Option<Setting>,
    attempts: Option<Setting>,
    anchor: Span,
    facts: &mut Facts,
) -> Option<RetryPolicy> {
    let mut ok = true;
    for s in mode.iter().chain(attempts.iter()) {
        if s.botocore_differs {
            facts.diagnostics.push(invalid_setting::value(
                s.value_span,
                &s.key,
                &s.raw,
                &format!(
                    "botocore (boto3, the AWS CLI) keeps quotes and inline comments as part of the value and rejects it, while aws-sdk-go-v2 reads `{}`: write the bare value",
                    s.value
                ),
            ));
        }
    }
    let mode_v = match &mode {
        None => None,
        Some(s) => match s.value.as_str() {
            "standard" => Some((Mode::Standard, s)),
            "adaptive" => Some((Mode::Adaptive, s)),
            "legacy" => Some((Mode::Legacy, s)),
            other => {
                let hint = match crate::keys::did_you_mean(other, RETRY_MODES.iter().copied()) {
                    Some(m) => format!(" (did you mean `{m}`? modes are lower case)"),
                    None => String::new(),
                };
                facts.diagnostics.push(invalid_setting::value(
                    s.value_span,
                    &s.key,
                    other,
                    &format!(
                        "not one of `standard`, `adaptive`, `legacy`{hint}: the SDKs refuse to build a client with it"
                    ),
                ));
                ok = false;
                None
            }
        },
    };
    let attempts_v = match &attempts {
        None => None,
        Some(s) => {
            match s.value.trim().parse::<i64>() {
                Ok(n) if n >= 1 => Some((n as u64, s)),
                Ok(n) => {
                    facts.diagnostics.push(invalid_setting::value(
                    s.value_span,
                    &s.key,
                    &s.value,
                    &format!("`{n}` is below 1: botocore rejects it and aws-sdk-go-v2 reads 0 as unset"),
                ));
                    ok = false;
                    None
                }
                Err(_) => {
                    facts.diagnostics.push(invalid_setting::value(
                    s.value_span,
                    &s.key,
                    &s.value,
                    "not a whole number: the SDKs fail to load the profile (aws-sdk-go-v2 `failed to load max_attempts`, botocore `ValueError`)",
                ));
                    ok = false;
                    None
                }
            }
        }
    };
    if !ok {
        return None;
    }
    let mode = mode_v.map(|(m, _)| m).unwrap_or(Mode::Standard);
    let mode_span = mode_v.map(|(_, s)| s.span);
    let attempts = match attempts_v {
        Some((n, s)) => Located::written(
            Attempts {
                count: AttemptCount::Finite(n),
                written_as: format!("{}: {n}", s.key),
            },
            s.span,
        ),
        None => {
            let (n, why) = match (mode, mode_v.is_some()) {
                (Mode::Legacy, _) => (
                    5,
                    "retry_mode: legacy without max_attempts: SDK-specific, botocore makes 5 attempts (DynamoDB 10)".to_string(),
                ),
                (m, true) => (
                    3,
                    format!(
                        "retry_mode: {} without max_attempts: 3 attempts",
                        if m == Mode::Adaptive { "adaptive" } else { "standard" }
                    ),
                ),
                (_, false) => (
                    3,
                    "no `retry_mode` or `max_attempts`: the AWS SDKs' default, standard mode with 3 attempts (botocore and boto3 default to legacy mode, 5 attempts)".to_string(),
                ),
            };
            let at = mode_span.unwrap_or(anchor);
            let located = Attempts {
                count: AttemptCount::Finite(n),
                written_as: why,
            };
            if mode_v.is_some() {
                Located::written(located, at)
            } else {
                Located::default_at(located, at)
            }
        }
    };
    let mut p = RetryPolicy::new(System::AwsSdk, anchor, attempts);
    p.name = Some(name.to_string());
    let delay_span = mode_span.unwrap_or(anchor);
    match mode {
        Mode::Standard | Mode::Adaptive => {
            p.delay = Located::default_at(
                Delay::Exponential {
                    base: Duration::from_secs(1),
                    multiplier: 2.0,
                    cap: Some(Duration::from_secs(20)),
                },
                delay_span,
            );
            p.cap_order = CapOrder::BeforeJitter;
            p.budget = Some(match mode_span {
                Some(s) => Located::written(Budget::Quota, s),
                None => Located::default_at(Budget::Quota, anchor),
            });
        }
        Mode::Legacy => {
            p.delay = Located::default_at(
                Delay::Exponential {
                    base: Duration::from_secs(1),
                    multiplier: 2.0,
                    cap: None,
                },
                delay_span,
            );
        }
    }
    p.jitter = Located::default_at(Jitter::Full, delay_span);
    p.retry_on = Located::default_at(
        RetryOn::Listed {
            conditions: [
                Condition::status(500),
                Condition::Status { from: 502, to: 504 },
                Condition::Token("throttling error codes".into()),
                Condition::Token("RequestTimeout".into()),
                Condition::Transport("connection-error".into()),
            ]
            .into_iter()
            .map(|c| Located::default_at(c, anchor))
            .collect(),
        },
        anchor,
    );
    // Every operation is retried; the SDKs fill in the idempotency token of
    // the operations that define one, which a file cannot show.
    p.methods = Located::default_at(Methods::Unknown, anchor);
    Some(p)
}

/// The policy of an AWS SDK client that code builds with no retry setting
/// (for the Java and Rust extractors): the SDKs' default, with `Default`
/// provenance at `anchor`, so that RL403 reports it like a profile that
/// sets nothing. `name` names the client in messages.
pub fn default_client_policy(name: &str, anchor: Span) -> RetryPolicy {
    let mut ignored = Facts::default();
    match policy(name, None, None, anchor, &mut ignored) {
        Some(p) => p,
        // Unreachable: no setting cannot be an invalid one.
        None => RetryPolicy::new(
            System::AwsSdk,
            anchor,
            Located::default_at(
                Attempts {
                    count: AttemptCount::Finite(3),
                    written_as: "the AWS SDKs' default".into(),
                },
                anchor,
            ),
        ),
    }
}

#[cfg(test)]
mod tests;
