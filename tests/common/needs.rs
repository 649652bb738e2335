//! What a test needs from the machine, and what happens without it.
//!
//! A test that needs `../shared`, the SARIF schema, `strace`, `git` or a
//! network namespace is a [`trial`] of a `harness = false` test binary
//! (libtest-mimic). When what it needs is there, it runs. When it is not:
//! under `CI=true` the trial FAILS with a message that says what to install
//! or where to put it; elsewhere it is reported as `ignored (REASON)`. A
//! test never passes without having run.
//!
//! In an ordinary test file (libtest), a test that needs one of these is
//! `#[ignore = "needs ..."]` instead and calls [`Need::missing`] (or
//! `common::shared_dir()`) to fail with the message; `.ci/run` runs it with
//! `--include-ignored`.

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::sync::OnceLock;

/// Something a test needs that the repository does not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// `../shared` (or `$RETRYLINT_SHARED`) with `corpus/` in it.
    Shared,
    /// `../shared/schemas/sarif-schema-2.1.0.json`.
    SarifSchema,
    /// `strace`, able to trace a child process here.
    Strace,
    /// `git`.
    Git,
    /// `unshare -n`: a network namespace with no interface.
    NetworkNamespace,
    /// Headless Chromium (Debian's `chromium`), to render the audit report.
    Chromium,
}

impl Need {
    /// `None` when it is there; otherwise what is missing and how to get it.
    pub fn missing(self) -> Option<String> {
        match self {
            Need::Shared => {
                let p = shared_path();
                (!p.join("corpus").is_dir()).then(|| {
                    format!(
                        "{} has no `corpus/` folder: put the shared folder (corpus/, schemas/) \
                         next to the repository as `../shared`, or set RETRYLINT_SHARED to its path",
                        p.display()
                    )
                })
            }
            Need::SarifSchema => {
                let p = sarif_schema_path();
                (!p.is_file()).then(|| {
                    format!(
                        "{} is absent: put the shared folder next to the repository as `../shared` \
                         (or set RETRYLINT_SHARED), with the OASIS SARIF 2.1.0 schema in \
                         `schemas/sarif-schema-2.1.0.json`",
                        p.display()
                    )
                })
            }
            Need::Strace => {
                static PROBE: OnceLock<Option<String>> = OnceLock::new();
                PROBE
                    .get_or_init(|| {
                        if !runs("strace", &["-V"]) {
                            Some("strace is not installed: install it (`apt-get install strace`)".into())
                        } else if !runs("strace", &["-f", "-qq", "-e", "trace=execve", "-o", "/dev/null", "true"]) {
                            Some("strace cannot trace a process here (ptrace is not permitted): run where ptrace is allowed (a container needs CAP_SYS_PTRACE)".into())
                        } else {
                            None
                        }
                    })
                    .clone()
            }
            Need::Git => (!runs("git", &["--version"]))
                .then(|| "git is not installed: install it (`apt-get install git`)".into()),
            Need::Chromium => (!["chromium", "chromium-browser", "google-chrome"]
                .iter()
                .any(|b| runs(b, &["--version"])))
            .then(|| {
                "no Chromium to render the audit report with: install Debian's `chromium` \
                 (`apt-get install chromium`)"
                    .into()
            }),
            Need::NetworkNamespace => (!runs("unshare", &["-n", "true"])).then(|| {
                "`unshare -n true` failed: install util-linux and run where a network namespace \
                 may be created (as root, or with unprivileged user namespaces allowed)"
                    .into()
            }),
        }
    }
}

fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `$RETRYLINT_SHARED`, or `../shared` next to the repository.
pub fn shared_path() -> PathBuf {
    // A worktree is not next to `shared`: RETRYLINT_SHARED points at it.
    std::env::var_os("RETRYLINT_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| super::root().join("../shared"))
}

pub fn sarif_schema_path() -> PathBuf {
    shared_path().join("schemas/sarif-schema-2.1.0.json")
}

/// `CI` set to anything but empty, `0` or `false` (GitHub and most CI
/// systems set `CI=true`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// A trial that runs `test` when every need is met; see the module doc for
/// what happens when one is not.
pub fn trial(name: &str, needs: &'static [Need], test: fn()) -> Trial {
    Trial::ignorable_test(name, move || {
        let missing: Vec<String> = needs.iter().filter_map(|n| n.missing()).collect();
        if missing.is_empty() {
            test();
            Ok(Completion::Completed)
        } else if in_ci() {
            Err(Failed::from(format!(
                "this test cannot run under CI=true: {}",
                missing.join("; ")
            )))
        } else {
            Ok(Completion::ignored_with(missing.join("; ")))
        }
    })
}

/// `trial!(&[Need::Strace], some_test)`: the trial named after the function.
#[macro_export]
macro_rules! trial {
    ($needs:expr, $test:ident) => {
        $crate::common::needs::trial(stringify!($test), $needs, $test)
    };
}

/// Run the trials with the command line's arguments (filter, `--exact`,
/// `--list`, ...).
///
/// `source` is the test file's own text: a `#[test]` in a `harness = false`
/// binary is silently never run, so one there fails the binary.
pub fn run(source: &str, trials: Vec<Trial>) -> ExitCode {
    let stray = source
        .lines()
        .filter(|l| l.trim_start().starts_with("#[test]"))
        .count();
    if stray > 0 {
        eprintln!(
            "error: this test file has {stray} `#[test]` attribute(s), but it is a `harness = false` \
             binary (libtest-mimic) where `#[test]` functions never run: register each one in its \
             `main` with `trial!(&[needs], name)` instead"
        );
        return ExitCode::FAILURE;
    }
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}
