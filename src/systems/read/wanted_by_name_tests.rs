use super::*;

/// Every file `classify` claims is wanted by name: checked on the
/// fixtures and the test trees, so that a new format's name rule
/// cannot be missed here.
#[test]
fn classify_never_claims_a_file_not_wanted_by_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut stack = vec![root];
    let mut claimed = 0;
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(bytes) = std::fs::read(&p)
                && classify(&p, &bytes).is_some()
            {
                claimed += 1;
                assert!(wanted_by_name(&p), "{}", p.display());
            }
        }
    }
    assert!(claimed > 100, "{claimed}");
    for (p, want) in [
        ("docs/readme.md", false),
        ("img/a.png", false),
        ("Cargo.lock", true),
        ("Cargo.toml", false),
        ("svc/pom.xml", true),
        ("gradle/libs.versions.toml", true),
        ("src/Main.java", true),
        ("src/Main.kt", false),
        ("etc/nginx/sites-enabled/default", true),
        ("etc/nginx/snippets/proxy_params", true),
        ("nginx/snippets/retry_params", true),
        ("home/.aws/config", true),
        ("ci/aws-config.ini", true),
        ("deploy/nginx.conf", true),
        ("a/appsettings.Production.json", true),
    ] {
        assert_eq!(wanted_by_name(Path::new(p)), want, "{p}");
    }
}
