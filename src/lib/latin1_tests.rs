//! Files that are not UTF-8: Latin-1 properties, nginx bytes, build files.

use super::*;

#[test]
fn a_build_file_that_is_not_utf8_is_not_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = b"<project><name>caf".to_vec();
    bytes.push(0xE9);
    bytes.extend_from_slice(b"</name><artifactId>resilience4j-retry</artifactId></project>\n");
    std::fs::write(dir.path().join("pom.xml"), bytes).unwrap();
    let scan = scan(&[dir.path().to_path_buf()], &Settings::default()).unwrap();
    assert!(scan.files.is_empty(), "{:?}", scan.files);
}

#[test]
fn latin1_properties_are_read_not_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("application.properties");
    // `é` in ISO-8859-1 is the single byte 0xE9: not valid UTF-8.
    let mut bytes = b"# caf".to_vec();
    bytes.push(0xE9);
    bytes.extend_from_slice(
        b"\nresilience4j.retry.instances.a.maxAttempts=4\nresilience4j.retry.instances.a.waitDuration=1s\n",
    );
    std::fs::write(&path, bytes).unwrap();
    let scan = scan(&[dir.path().to_path_buf()], &Settings::default()).unwrap();
    assert_eq!(scan.files.len(), 1);
    let f = &scan.files[0];
    assert!(f.facts.diagnostics.is_empty(), "{:?}", f.facts.diagnostics);
    assert!(f.source.text.contains("café"));
    assert_eq!(
        f.facts.policies[0].attempts.value.count,
        model::AttemptCount::Finite(4)
    );
}

#[test]
fn latin1_nginx_is_read_with_byte_exact_spans() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nginx.conf");
    // nginxinc/crossplane tests/configs/non-unicode: `ö` as the
    // Latin-1 byte 0xF6 in a comment and in a string; an invalid
    // two-byte lead (0xC3 before a space) too.
    let mut bytes =
        b"http {\n  upstream a { server a1:80; server a2:80; }\n  server {\n    # M".to_vec();
    bytes.extend_from_slice(&[0xF6, b'l', b'l', b'n', b' ', 0xC3, b' ', b'\n']);
    bytes.extend_from_slice(b"    location / {\n      return 200 \"M");
    bytes.push(0xF6);
    bytes.extend_from_slice(b"lln\";\n    }\n    location /b {\n      proxy_next_upstream error timeout non_idempotent;\n      proxy_pass http://a;\n    }\n  }\n}\n");
    std::fs::write(&path, &bytes).unwrap();
    let scan = scan(&[dir.path().to_path_buf()], &Settings::default()).unwrap();
    assert_eq!(scan.files.len(), 1, "{:?}", scan.notices);
    let f = &scan.files[0];
    assert!(f.facts.diagnostics.is_empty(), "{:?}", f.facts.diagnostics);
    assert_eq!(f.source.text.len(), bytes.len());
    let p = &f.facts.policies[0];
    let want = b"error timeout non_idempotent";
    let at = bytes.windows(want.len()).position(|w| w == want).unwrap();
    let model::RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!("{p:?}")
    };
    let span = conditions[0].span;
    assert_eq!((span.start, span.end), (at, at + 5), "{p:?}");
    assert_eq!(
        &bytes[p.methods.span.start..p.methods.span.end],
        b"non_idempotent"
    );
    // A YAML file is UTF-8 by definition: still refused as before.
    let yaml = dir.path().join("application.yml");
    std::fs::write(&yaml, b"# caf\xE9\nresilience4j:\n  retry: {}\n").unwrap();
    let scan = super::scan(&[yaml], &Settings::default()).unwrap();
    assert_eq!(scan.files[0].facts.diagnostics[0].code, "RL903");
}
