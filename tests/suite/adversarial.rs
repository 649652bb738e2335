//! The adversarial suite (issue 10): hostile trees generated at test time
//! (nothing large is stored). For each one the scan completes, a control
//! file's findings are still reported, and the reason is stated once.

use assert_cmd::Command;
use std::path::Path;

/// A file with two known findings (RL102 on line 4, RL203 on line 6).
const CONTROL: &str = "resilience4j:\n  retry:\n    instances:\n      payments:\n        maxAttempts: 3\n        waitDuration: 100ms\n";
const CONTROL_FINDINGS: &[&str] = &["control.yml:4:7: RL102", "control.yml:6:9: RL203"];

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn run_in(dir: &Path, args: &[&str]) -> Run {
    let out = Command::cargo_bin("retrylint")
        .unwrap()
        .current_dir(dir)
        .args(["check", "--no-config", "--format", "concise"])
        .args(args)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A temporary tree holding the control file.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("control.yml"), CONTROL).unwrap();
    dir
}

/// The scan finished (exit 1: the control file's warnings), the control
/// findings are there, and `reason` is said exactly once across both
/// streams.
fn assert_survived(r: &Run, reason: &str) {
    assert_eq!(r.code, 1, "exit code\n{}{}", r.out, r.err);
    for f in CONTROL_FINDINGS {
        assert!(r.out.contains(f), "missing `{f}`:\n{}{}", r.out, r.err);
    }
    let all = format!("{}{}", r.out, r.err);
    assert_eq!(
        all.matches(reason).count(),
        1,
        "`{reason}` should be said once:\n{all}"
    );
}

#[test]
fn yaml_alias_bomb() {
    let dir = tree();
    let mut text = String::from(
        "apiVersion: networking.istio.io/v1\nkind: VirtualService\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n",
    );
    for i in 1..20 {
        let p = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [{}]\n",
            vec![format!("*a{p}"); 10].join(", ")
        ));
    }
    std::fs::write(dir.path().join("bomb.yaml"), text).unwrap();
    let r = run_in(dir.path(), &["."]);
    assert_survived(&r, "alias bomb");
    assert!(r.out.contains("bomb.yaml:1:1: RL903"), "{}", r.out);
}

#[test]
fn hundred_thousand_levels_of_nesting() {
    let dir = tree();
    let n = 100_000;
    let deep = |open: &str, close: &str| format!("{}{}", open.repeat(n), close.repeat(n));
    std::fs::write(
        dir.path().join("deep.yaml"),
        format!(
            "apiVersion: networking.istio.io/v1\nkind: VirtualService\nspec: {}\n",
            deep("[", "]")
        ),
    )
    .unwrap();
    // Block-style YAML nesting, a key per level.
    let block: String = (0..2000)
        .map(|i| format!("{}k:\n", " ".repeat(i)))
        .collect();
    std::fs::write(
        dir.path().join("block.yaml"),
        format!("apiVersion: networking.istio.io/v1\nkind: VirtualService\n{block}"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("service_config.json"),
        format!("{{\"methodConfig\": {}}}", deep("{\"a\":", "}")),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("nginx.conf"),
        format!("http {{ {} }}\n", deep("location / {", "}")),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("lib.rs"),
        format!("fn retry() {{ let x = {}; }}\n", deep("(", ")")),
    )
    .unwrap();
    let r = run_in(dir.path(), &["."]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    for f in CONTROL_FINDINGS {
        assert!(r.out.contains(f), "{}", r.out);
    }
    for file in [
        "deep.yaml",
        "block.yaml",
        "service_config.json",
        "nginx.conf",
        "lib.rs",
    ] {
        let lines: Vec<&str> = r
            .out
            .lines()
            .filter(|l| l.starts_with(&format!("{file}:")))
            .collect();
        assert_eq!(lines.len(), 1, "{file}: one finding\n{}", r.out);
        assert!(lines[0].contains("RL903"), "{}", lines[0]);
    }
}

#[test]
fn a_200_mb_file_is_skipped_with_a_finding_and_the_limit_is_configurable() {
    let dir = tree();
    // Sparse: 200 MB on paper, nothing on disk, and it is never read.
    let f = std::fs::File::create(dir.path().join("huge.yaml")).unwrap();
    f.set_len(200 * 1024 * 1024).unwrap();
    drop(f);
    let r = run_in(dir.path(), &["."]);
    assert_survived(&r, "larger than the 10.0 MiB limit");
    assert!(r.out.contains("huge.yaml:1:1: RL903"), "{}", r.out);
    assert!(r.err.contains("1 over the size limit"), "{}", r.err);
    // A lower limit skips the control file too; a higher one reads it.
    let r = run_in(dir.path(), &["--max-file-size", "50", "."]);
    assert!(r.out.contains("control.yml:1:1: RL903"), "{}", r.out);
    assert!(r.err.contains("2 over the size limit"), "{}", r.err);
}

#[test]
fn invalid_utf8_and_utf16_with_a_bom() {
    let dir = tree();
    let mut bad =
        b"resilience4j:\n  retry:\n    instances:\n      x:\n        waitDuration: 1".to_vec();
    bad.extend_from_slice(&[0xff, 0xfe, 0x80]);
    std::fs::write(dir.path().join("application.yml"), bad).unwrap();
    // The control file again, as UTF-16 LE and BE with byte-order marks:
    // read, with the same lines.
    for (name, le) in [("le.yml", true), ("be.yml", false)] {
        let mut bytes = if le {
            vec![0xFF, 0xFE]
        } else {
            vec![0xFE, 0xFF]
        };
        for u in CONTROL.encode_utf16() {
            bytes.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let r = run_in(dir.path(), &["."]);
    assert_survived(&r, "not valid UTF-8");
    for name in ["le.yml", "be.yml"] {
        for f in CONTROL_FINDINGS {
            let f = f.replace("control.yml", name);
            assert!(r.out.contains(&f), "missing `{f}`:\n{}", r.out);
        }
    }
}

#[test]
fn nul_laden_binary_files_are_skipped_and_counted() {
    let dir = tree();
    let mut bin = b"apiVersion: networking.istio.io/v1\nkind: VirtualService\n".to_vec();
    bin.extend((0..4096u32).map(|i| (i % 7) as u8));
    std::fs::write(dir.path().join("blob.yaml"), &bin).unwrap();
    std::fs::write(dir.path().join("nginx.conf"), [0u8; 100]).unwrap();
    let r = run_in(dir.path(), &["."]);
    assert_survived(&r, "2 binary");
    assert!(!r.out.contains("blob.yaml"), "{}", r.out);
}

#[test]
fn crlf_and_lone_cr_keep_line_numbers() {
    let dir = tree();
    // No `#` comment: nginx ends one at LF only (`ngx_conf_read_token`), so
    // in a lone-CR file a comment runs to the end, for nginx as for us.
    let nginx =
        "http {\n\n  proxy_next_upstream error http_5xx;\n  proxy_next_upstream_tries -1;\n}\n";
    let props = "# c\nresilience4j.retry.instances.a.maxAttempts=3\n\nresilience4j.retry.instances.a.waitDuration=100ms\n";
    for (eol, tag) in [("\r\n", "crlf"), ("\r", "cr")] {
        std::fs::write(
            dir.path().join(format!("{tag}.yml")),
            CONTROL.replace('\n', eol),
        )
        .unwrap();
        let sub = dir.path().join(tag);
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("nginx.conf"), nginx.replace('\n', eol)).unwrap();
        std::fs::write(sub.join("application.properties"), props.replace('\n', eol)).unwrap();
    }
    let lf = dir.path().join("lf");
    std::fs::create_dir(&lf).unwrap();
    std::fs::write(lf.join("nginx.conf"), nginx).unwrap();
    std::fs::write(lf.join("application.properties"), props).unwrap();
    let r = run_in(dir.path(), &["."]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    let positions = |prefix: &str| -> Vec<String> {
        r.out
            .lines()
            .filter_map(|l| l.strip_prefix(prefix))
            .map(|l| l.split(" [").next().unwrap().to_string())
            .collect()
    };
    let control = positions("control.yml:");
    assert_eq!(control.len(), 2, "{}", r.out);
    for tag in ["crlf", "cr"] {
        assert_eq!(
            positions(&format!("{tag}.yml:")),
            control,
            "{tag}\n{}",
            r.out
        );
        for f in ["nginx.conf", "application.properties"] {
            let want = positions(&format!("lf/{f}:"));
            assert!(!want.is_empty(), "{}", r.out);
            assert_eq!(
                positions(&format!("{tag}/{f}:")),
                want,
                "{tag}/{f}\n{}",
                r.out
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn symlink_loops_are_not_followed() {
    let dir = tree();
    std::os::unix::fs::symlink("loop", dir.path().join("loop")).unwrap();
    std::fs::create_dir(dir.path().join("d")).unwrap();
    std::os::unix::fs::symlink("..", dir.path().join("d/up")).unwrap();
    let r = run_in(dir.path(), &["."]);
    assert_survived(&r, "2 symbolic links not followed");
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_root_is_never_followed_nor_read() {
    let outside = tempfile::tempdir().unwrap();
    let secret = "s3cr3t-token-value";
    let secret_file = outside.path().join("application.yml");
    std::fs::write(
        &secret_file,
        format!("resilience4j:\n  retry:\n    instances:\n      {secret}:\n        waitDuration: 100ms\n"),
    )
    .unwrap();
    let dir = tree();
    std::os::unix::fs::symlink(&secret_file, dir.path().join("application.yml")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("linked-dir")).unwrap();
    let r = run_in(dir.path(), &["."]);
    assert_survived(&r, "2 symbolic links not followed");
    let all = format!("{}{}", r.out, r.err);
    let outside_name = outside.path().to_string_lossy();
    assert!(
        !all.contains(secret) && !all.contains(&*outside_name),
        "{all}"
    );
    // Given by name, a link is announced once and still not read.
    let r = run_in(
        dir.path(),
        &["control.yml", "application.yml", "linked-dir"],
    );
    let all = format!("{}{}", r.out, r.err);
    assert!(
        !all.contains(secret) && !all.contains(&*outside_name),
        "{all}"
    );
    assert_eq!(
        all.matches("is a symbolic link: not followed").count(),
        2,
        "{all}"
    );
    for f in CONTROL_FINDINGS {
        assert!(r.out.contains(f), "{all}");
    }
}

#[test]
fn a_file_removed_or_truncated_during_the_scan() {
    let dir = tree();
    std::fs::write(dir.path().join("gone.yml"), CONTROL).unwrap();
    std::fs::write(dir.path().join("short.yml"), CONTROL).unwrap();
    let settings = retrylint::config::Settings::default();
    let roots = [dir.path().to_path_buf()];
    let walk = retrylint::discover::walk(&roots, &[], None).unwrap();
    assert_eq!(walk.files.len(), 3);
    // Between the walk and the read.
    std::fs::remove_file(dir.path().join("gone.yml")).unwrap();
    std::fs::write(dir.path().join("short.yml"), &CONTROL[..40]).unwrap();
    let scan = retrylint::read_walk(walk, &roots, &settings, std::time::Instant::now());
    assert_eq!(scan.notices.len(), 1, "{:?}", scan.notices);
    let n = &scan.notices[0];
    assert!(n.path.as_deref().unwrap().ends_with("gone.yml"), "{n:?}");
    assert!(n.message.starts_with("cannot read"), "{n:?}");
    assert!(!n.internal);
    let retrylint::pipeline::Run { scan, report, .. } =
        retrylint::pipeline::Pipeline::new(&settings).after_scan(scan, |_| true);
    let files: Vec<String> = report
        .findings
        .iter()
        .map(|f| scan.file(f.file).display_path())
        .collect();
    assert!(
        files.iter().any(|f| f.ends_with("control.yml")),
        "{files:?}"
    );
    // The truncated file is read as it is now: a half-written YAML file.
    assert!(!files.iter().any(|f| f.ends_with("gone.yml")));
}

#[cfg(unix)]
#[test]
fn a_file_swapped_for_a_symlink_or_a_fifo_after_the_walk_is_not_read() {
    let outside = tempfile::tempdir().unwrap();
    let secret_file = outside.path().join("secret.yml");
    std::fs::write(&secret_file, CONTROL.replace("payments", "s3cr3t")).unwrap();
    let dir = tree();
    std::fs::write(dir.path().join("swapped.yml"), CONTROL).unwrap();
    std::fs::write(dir.path().join("pipe.yml"), CONTROL).unwrap();
    let roots = [dir.path().to_path_buf()];
    let walk = retrylint::discover::walk(&roots, &[], None).unwrap();
    std::fs::remove_file(dir.path().join("swapped.yml")).unwrap();
    std::os::unix::fs::symlink(&secret_file, dir.path().join("swapped.yml")).unwrap();
    std::fs::remove_file(dir.path().join("pipe.yml")).unwrap();
    let fifo = std::ffi::CString::new(dir.path().join("pipe.yml").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let settings = retrylint::config::Settings::default();
    // A FIFO opened for reading would block forever: this must return.
    let scan = retrylint::read_walk(walk, &roots, &settings, std::time::Instant::now());
    let mut notices: Vec<String> = scan.notices.iter().map(|n| n.message.clone()).collect();
    notices.sort();
    assert_eq!(
        notices,
        [
            "cannot read: it became a symbolic link: not followed",
            "cannot read: not a regular file any more"
        ]
    );
    assert!(scan.files.iter().all(|f| !f.source.text.contains("s3cr3t")));
}

#[cfg(unix)]
#[test]
fn a_file_without_read_permission() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tree();
    let locked = dir.path().join("locked.yml");
    std::fs::write(&locked, CONTROL).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let root = unsafe { libc::geteuid() } == 0;
    let r = if root {
        // Root reads anything: run as `nobody` instead (the tree must be
        // readable for it, and the binary reachable).
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(
            dir.path().join("control.yml"),
            std::fs::Permissions::from_mode(0o644),
        )
        .unwrap();
        let bin = assert_cmd::cargo::cargo_bin("retrylint");
        let copy = dir.path().join("retrylint-bin");
        std::fs::copy(&bin, &copy).unwrap();
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
        let out = std::process::Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&copy)
            .args([
                "check",
                "--no-config",
                "--format",
                "concise",
                "--exclude",
                "retrylint-bin",
                ".",
            ])
            .current_dir(dir.path())
            .output()
            .expect("setpriv (util-linux) is needed to drop privileges");
        Run {
            code: out.status.code().unwrap_or(-1),
            out: String::from_utf8_lossy(&out.stdout).into_owned(),
            err: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    } else {
        run_in(dir.path(), &["."])
    };
    assert_survived(&r, "Permission denied");
    assert!(
        r.err.contains("locked.yml: cannot read: Permission denied"),
        "{}",
        r.err
    );
}

#[test]
fn an_internal_error_is_exit_2_with_a_bug_report_request() {
    let dir = tree();
    std::fs::write(dir.path().join("boom.yml"), CONTROL).unwrap();
    let out = Command::cargo_bin("retrylint")
        .unwrap()
        .current_dir(dir.path())
        .env("RETRYLINT_TEST_PANIC_ON", "boom.yml")
        .args(["check", "--no-config", "--format", "concise", "."])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains("boom.yml: internal error: injected panic"),
        "{stderr}"
    );
    assert!(stderr.contains("this is a bug: please report it with the file that caused it"));
    // The other files are still reported.
    for f in CONTROL_FINDINGS {
        assert!(stdout.contains(f), "{stdout}");
    }
}

#[test]
fn an_internal_error_after_reading_is_exit_2_too() {
    let dir = tree();
    let out = Command::cargo_bin("retrylint")
        .unwrap()
        .current_dir(dir.path())
        .env("RETRYLINT_TEST_PANIC_ON", "@check")
        .args(["check", "--no-config", "."])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("injected panic"), "{stderr}");
    assert!(
        stderr.contains(
            "retrylint: internal error (the message above); this is a bug: please report it"
        ),
        "{stderr}"
    );
}
