//! The guarantees of SECURITY.md, each backed by a test here:
//!
//! 1. no network access: no networking crate is linked, the process makes
//!    no socket call (strace), and it gives the same answer in a network
//!    namespace with no interface (`unshare -n`);
//! 2. nothing from the scanned tree is executed: the only `execve` is the
//!    binary's own, and with `--changed-since` the repository's fsmonitor
//!    hook is not run;
//! 3. nothing is written but the files asked for (strace: no file opened
//!    for writing, created, renamed or removed except those);
//! 4. untrusted text is escaped in every output;
//! 5. paths outside the scanned roots never appear in any output.
//!
//! The strace-based checks need `strace` able to trace here, the hook check
//! `git`, the namespace check `unshare -n`: without them those trials are
//! reported as ignored, and fail under `CI=true` (tests/common/needs.rs).
//! A trace that lacks the binary's own `execve` fails: strace did not
//! attach, and the trace would prove nothing.

mod common;

use common::needs::Need;
use std::process::ExitCode;

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn main() -> ExitCode {
    let trials = vec![
        trial!(&[], no_network_access_no_networking_crate_is_linked),
        trial!(&[Need::Strace], no_network_access_no_socket_call),
        trial!(
            &[Need::NetworkNamespace],
            no_network_access_the_same_answer_without_a_network
        ),
        #[cfg(unix)]
        trial!(&[], a_trace_without_the_binarys_execve_fails),
        trial!(&[Need::Strace], nothing_from_the_scanned_tree_is_executed),
        #[cfg(unix)]
        trial!(
            &[Need::Git],
            changed_since_does_not_run_the_repositorys_hooks
        ),
        trial!(&[Need::Strace], nothing_is_written_but_the_files_asked_for),
        #[cfg(unix)]
        trial!(
            &[],
            a_cache_folder_planted_as_a_symlink_is_not_written_through
        ),
        trial!(&[], untrusted_text_is_escaped_in_every_output),
        #[cfg(unix)]
        trial!(&[], paths_outside_the_scanned_roots_never_appear),
    ];
    common::needs::run(include_str!("guarantees.rs"), trials)
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("retrylint")
}

/// A tree with findings of several formats, executable files and a value
/// crafted against every output.
fn hostile_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(
        p.join("application.yml"),
        "resilience4j:\n  retry:\n    instances:\n      payments:\n        maxAttempts: 3\n        waitDuration: 100ms\n",
    )
    .unwrap();
    // `retryOn` is echoed in RL902's message: ESC sequences, a bidi
    // override, a workflow command after a newline, HTML.
    std::fs::write(
        p.join("vs.yaml"),
        "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: r\nspec:\n  hosts: [r]\n  http:\n  - route:\n    - destination: {host: r}\n    retries:\n      attempts: 2\n      perTryTimeout: 1s\n      retryOn: \"5xx,\\e[2J\\e]0;pwned\\a\\u202Eevil\\n::error file=x::injected\\r\\n::set-output name=a::b,<script>alert(1)</script>\"\n",
    )
    .unwrap();
    std::fs::write(
        p.join("nginx.conf"),
        "http { server { location / { proxy_pass http://a; proxy_next_upstream_tries -1; } } }\n",
    )
    .unwrap();
    // A file name is untrusted text too.
    std::fs::write(
        p.join("evil\u{1b}[2J\n::error::named <b>.yml"),
        "resilience4j:\n  retry:\n    instances:\n      named:\n        waitDuration: 100ms\n",
    )
    .unwrap();
    for (name, body) in [
        (
            "build.rs",
            "fn main() { std::process::Command::new(\"touch\").arg(\"/tmp/pwned\"); }\n",
        ),
        ("run.sh", "#!/bin/sh\ntouch ran\n"),
    ] {
        std::fs::write(p.join(name), body).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(p.join(name), std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    dir
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("retrylint")
        .unwrap()
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run the binary under strace, tracing `calls` and `execve`; returns the
/// trace. Fails unless the binary's own `execve` is in it: without it
/// strace traced nothing, and an empty trace would prove nothing.
fn strace(dir: &Path, calls: &str, args: &[&str]) -> String {
    strace_with(Path::new("strace"), dir, calls, args)
}

fn strace_with(program: &Path, dir: &Path, calls: &str, args: &[&str]) -> String {
    // One log per call: trials run in parallel threads of one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let log = dir
        .join("..")
        .join(format!("strace-{}-{n}.log", std::process::id()));
    let traced = if calls.split(',').any(|c| c == "execve") {
        calls.to_string()
    } else {
        format!("{calls},execve")
    };
    let status = std::process::Command::new(program)
        .args(["-f", "-qq", "-e"])
        .arg(format!("trace={traced}"))
        .arg("-o")
        .arg(&log)
        .arg(bin())
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.code().is_some_and(|c| c <= 1), "{status:?}");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    std::fs::remove_file(&log).ok();
    let own = format!("execve(\"{}\"", bin().display());
    assert!(
        text.lines().any(|l| l.contains(&own) && l.ends_with("= 0")),
        "strace did not trace the binary (no successful `{own}` in the trace):\n{text}"
    );
    text
}

/// An strace that runs nothing and traces nothing (as when it cannot
/// attach) must not make a guarantee pass on its empty trace.
#[cfg(unix)]
fn a_trace_without_the_binarys_execve_fails() {
    use std::os::unix::fs::PermissionsExt;
    let dir = hostile_tree();
    let fake = dir
        .path()
        .join("..")
        .join(format!("fake-strace-{}", std::process::id()));
    std::fs::write(
        &fake,
        "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = -o ] && : > \"$2\"; shift; done\nexit 0\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let traced = std::panic::catch_unwind(|| {
        strace_with(&fake, dir.path(), "network", &["check", "--no-config", "."])
    });
    std::fs::remove_file(&fake).ok();
    let panic = traced.expect_err("an empty trace was accepted");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        message.contains("strace did not trace the binary"),
        "{message}"
    );
}

/// The trace without the lines of `execve` calls.
fn without_execve(trace: &str) -> String {
    trace
        .lines()
        .filter(|l| !l.contains("execve("))
        .collect::<Vec<_>>()
        .join("\n")
}

const ALL_FORMATS: &[&str] = &[
    "--format",
    "pretty",
    "--format",
    "concise=out.concise",
    "--format",
    "json=out.json",
    "--format",
    "sarif=out.sarif",
    "--format",
    "github=out.github",
    "--format",
    "markdown=out.md",
];

fn no_network_access_no_networking_crate_is_linked() {
    // No networking crate in the build.
    let lock =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock")).unwrap();
    for krate in [
        "tokio",
        "mio",
        "socket2",
        "hyper",
        "reqwest",
        "ureq",
        "curl",
        "h2",
        "rustls",
        "native-tls",
        "openssl",
        "attohttpc",
        "isahc",
    ] {
        assert!(
            !lock.contains(&format!("\nname = \"{krate}\"\n")),
            "`{krate}` is linked"
        );
    }
}

fn no_network_access_no_socket_call() {
    let dir = hostile_tree();
    let trace = strace(dir.path(), "network", &["check", "--no-config", "."]);
    let calls = without_execve(&trace);
    assert!(calls.trim().is_empty(), "network syscalls:\n{calls}");
}

fn no_network_access_the_same_answer_without_a_network() {
    let dir = hostile_tree();
    let (code, out, _) = run(
        dir.path(),
        &["check", "--no-config", "--format", "json", "."],
    );
    let o = std::process::Command::new("unshare")
        .arg("-n")
        .arg(bin())
        .args(["check", "--no-config", "--format", "json", "."])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(code));
    let strip = |s: &str| -> serde_json::Value {
        let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
        v.as_object_mut().unwrap().remove("elapsed_ms");
        v["findings"].clone()
    };
    let findings = strip(&out);
    assert!(!findings.as_array().unwrap().is_empty(), "{out}");
    assert_eq!(strip(&String::from_utf8_lossy(&o.stdout)), findings);
}

fn nothing_from_the_scanned_tree_is_executed() {
    let dir = hostile_tree();
    let trace = strace(
        dir.path(),
        "execve,execveat",
        &["check", "--no-config", "."],
    );
    let execs: Vec<&str> = trace.lines().filter(|l| l.contains("execve")).collect();
    assert_eq!(execs.len(), 1, "{trace}");
    assert!(execs[0].contains(&*bin().to_string_lossy()), "{trace}");
    assert!(!dir.path().join("ran").exists());
}

#[cfg(unix)]
fn changed_since_does_not_run_the_repositorys_hooks() {
    let dir = hostile_tree();
    let p = dir.path();
    let marker = p.join("hook-ran");
    let hook = p.join("hook.sh");
    std::fs::write(&hook, format!("#!/bin/sh\ntouch '{}'\n", marker.display())).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let git = |args: &[&str]| {
        let s = std::process::Command::new("git")
            .args(["-c", "core.fsmonitor=false"])
            .args(args)
            .current_dir(p)
            .output()
            .unwrap();
        assert!(s.status.success(), "{s:?}");
    };
    git(&["init", "-q"]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "add", "."]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-qm",
        "x",
    ]);
    // A repository that names programs for git to run.
    git(&["config", "core.fsmonitor", &hook.to_string_lossy()]);
    git(&["config", "diff.external", &hook.to_string_lossy()]);
    std::fs::write(p.join("application.yml"), "a: 1\n").unwrap();
    let (code, _, err) = run(p, &["check", "--no-config", "--changed-since", "HEAD", "."]);
    assert!(code <= 1, "{err}");
    assert!(!marker.exists(), "the repository's hook ran: {err}");
}

fn nothing_is_written_but_the_files_asked_for() {
    let dir = hostile_tree();
    // A repository: its facts cache is at its root (issue 16, item 14).
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let snapshot = |p: &Path| -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(p)
            .unwrap()
            .flatten()
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap_or_default(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let before = snapshot(dir.path());
    let (code, _, err) = run(dir.path(), &["check", "--no-config", "--no-cache", "."]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        snapshot(dir.path()),
        before,
        "a check without the cache changed the tree"
    );
    // With every output to a file, a baseline and the facts cache (on by
    // default, in `.retrylint-cache/`): exactly those.
    let mut args = vec!["check", "--no-config", "--write-baseline", "base.json"];
    args.extend_from_slice(ALL_FORMATS);
    args.push(".");
    let calls = "openat,open,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,truncate,link,linkat,symlink,symlinkat";
    let asked = [
        "base.json",
        "out.concise",
        "out.json",
        "out.sarif",
        "out.github",
        "out.md",
    ];
    let trace = strace(dir.path(), calls, &args);
    for line in trace.lines() {
        let writes = ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC"]
            .iter()
            .any(|f| line.contains(f))
            || [
                "rename", "unlink", "mkdir", "truncate", "link(", "linkat", "symlink", "creat(",
            ]
            .iter()
            .any(|c| {
                line.split_whitespace()
                    .nth(1)
                    .is_some_and(|w| w.starts_with(c))
            });
        if !writes || line.contains("= -1 ") {
            continue;
        }
        assert!(
            asked.iter().any(|a| line.contains(&format!("\"{a}\"")))
                || line.contains(".retrylint-cache")
                || line.contains("\"/dev/null\""),
            "unexpected write: {line}"
        );
    }
    let after: Vec<String> = snapshot(dir.path()).into_iter().map(|(n, _)| n).collect();
    let mut expected: Vec<String> = before.iter().map(|(n, _)| n.clone()).collect();
    expected.extend(asked.iter().map(|s| s.to_string()));
    expected.push(".retrylint-cache".into());
    expected.sort();
    assert_eq!(after, expected);
}

#[cfg(unix)]
fn a_cache_folder_planted_as_a_symlink_is_not_written_through() {
    let outside = tempfile::tempdir().unwrap();
    let dir = hostile_tree();
    // A repository: its facts cache is at its root (issue 16, item 14).
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join(".retrylint-cache")).unwrap();
    // Inside a real cache folder, a planted link where the temporary file
    // or the .gitignore goes is not written through either.
    let (code, _, err) = run(dir.path(), &["check", "--no-config", "."]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    let other = hostile_tree();
    let cache = other.path().join("c");
    std::fs::create_dir(&cache).unwrap();
    let target = outside.path().join("written");
    std::os::unix::fs::symlink(&target, cache.join(".gitignore")).unwrap();
    let (code, _, err) = run(
        other.path(),
        &["check", "--no-config", "--cache-dir", "c", "."],
    );
    assert_eq!(code, 1, "{err}");
    assert!(!target.exists(), "wrote through a planted link");
}

fn untrusted_text_is_escaped_in_every_output() {
    let dir = hostile_tree();
    let mut args = vec!["check", "--no-config"];
    args.extend_from_slice(ALL_FORMATS);
    args.push(".");
    let (_, pretty, err) = run(dir.path(), &args);
    let (code, _, audit_err) = run(
        dir.path(),
        &["audit", "--no-config", "--quiet", "--out", "rep", "."],
    );
    assert_eq!(code, 0, "{audit_err}");
    let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).unwrap();
    let (html, audit_md) = (read("rep/report.html"), read("rep/report.md"));
    assert!(
        html.contains("injected"),
        "the crafted value is in the audit"
    );
    // The page's own script, once, and no other.
    let ours = format!(
        "<script>{}</script>",
        retrylint::render::audit::html::SCRIPT
    );
    assert_eq!(html.matches(&ours).count(), 1);
    let html = html.replace(&ours, "");
    assert!(
        !html.contains("<script>") && !html.contains("<b>"),
        "HTML not escaped"
    );
    for (name, text) in [("audit html", &html), ("audit md", &audit_md)] {
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{202e}'),
            "{name}"
        );
    }
    assert!(!audit_md.contains("<script>"), "{audit_md}");
    assert!(
        pretty.contains("named"),
        "the crafted file name is in the output"
    );
    let (concise, json, sarif, github, md) = (
        read("out.concise"),
        read("out.json"),
        read("out.sarif"),
        read("out.github"),
        read("out.md"),
    );
    assert!(
        github.contains("RL902"),
        "the crafted value must be echoed:\n{github}"
    );
    // Terminal: no escape, no bidi override, no lone CR, in any text output.
    for (name, text) in [
        ("pretty", &pretty),
        ("stderr", &err),
        ("concise", &concise),
        ("github", &github),
        ("markdown", &md),
    ] {
        for bad in ['\u{1b}', '\u{7}', '\u{202e}', '\u{9b}'] {
            assert!(!text.contains(bad), "{name} carries {bad:?}:\n{text}");
        }
        assert!(
            !text.replace("\r\n", "").contains('\r'),
            "{name} carries a CR"
        );
    }
    // GitHub: one workflow command per finding, nothing smuggled after a
    // newline, and the crafted commands are data.
    for line in github.lines() {
        assert!(
            line.starts_with("::error ")
                || line.starts_with("::warning ")
                || line.starts_with("::notice "),
            "{line}"
        );
    }
    assert!(!github.contains("\n::error file=x::injected"));
    assert!(!github.contains("\n::set-output"));
    assert!(github.contains("%0A::error file=x::injected"), "{github}");
    // Concise: one line per finding.
    assert!(concise.lines().all(|l| l.contains(": RL")), "{concise}");
    // Markdown: HTML escaped, table cells intact.
    assert!(
        !md.contains("<script>") && md.contains("&lt;script&gt;"),
        "{md}"
    );
    for line in md
        .lines()
        .filter(|l| l.starts_with("| error | `") || l.starts_with("| warning | `"))
    {
        assert_eq!(line.matches(" | ").count(), 3, "{line}");
    }
    // JSON and SARIF are JSON: the value survives as data, escaped.
    for doc in [&json, &sarif] {
        let v: serde_json::Value = serde_json::from_str(doc).unwrap();
        assert!(v.to_string().contains("injected"));
        assert!(!doc.contains('\u{1b}'));
    }
}

#[cfg(unix)]
fn paths_outside_the_scanned_roots_never_appear() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("application.yml"),
        "resilience4j:\n  retry:\n    instances:\n      h1dd3n-instance:\n        waitDuration: 100ms\n",
    )
    .unwrap();
    let dir = hostile_tree();
    let scanned = dir.path().join("scanned");
    std::fs::create_dir(&scanned).unwrap();
    std::fs::copy(dir.path().join("nginx.conf"), scanned.join("nginx.conf")).unwrap();
    std::os::unix::fs::symlink(outside.path(), scanned.join("dir-link")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("application.yml"),
        scanned.join("application.yml"),
    )
    .unwrap();
    // A file next to the root, outside it.
    let mut args = vec!["check", "--no-config"];
    args.extend_from_slice(ALL_FORMATS);
    args.push("scanned");
    let (code, pretty, err) = run(dir.path(), &args);
    assert_eq!(code, 1, "{err}");
    let outside_name = outside.path().to_string_lossy().into_owned();
    let parent = dir.path().to_string_lossy().into_owned();
    for f in [
        "out.concise",
        "out.json",
        "out.sarif",
        "out.github",
        "out.md",
    ] {
        let mut text = std::fs::read_to_string(dir.path().join(f)).unwrap();
        if f == "out.sarif" {
            // SARIF names the project root (here the working directory)
            // as `SRCROOT`, the base of every relative URI, by design.
            let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
            let base = v["runs"][0]
                .as_object_mut()
                .unwrap()
                .remove("originalUriBaseIds")
                .unwrap();
            assert!(base.to_string().contains(&parent));
            text = v.to_string();
        }
        for text in [&text, &pretty, &err] {
            assert!(!text.contains(&outside_name), "{f}: {text}");
            assert!(!text.contains("h1dd3n"), "{f}: {text}");
            // Sibling files of the root are not read.
            assert!(
                !text.contains("vs.yaml") && !text.contains("application.yml:"),
                "{f}: {text}"
            );
            // Paths are shown relative to the working directory.
            assert!(!text.contains(&parent), "{f}: {text}");
        }
    }
    assert!(
        std::fs::read_to_string(dir.path().join("out.concise"))
            .unwrap()
            .contains("scanned/nginx.conf:")
    );
}
