//! The test suites of the projects that own a format, run through
//! retrylint's readers: every input they refuse must give a finding, every
//! input they accept none (a misreading of valid input is a false alarm,
//! of invalid input a broken file that passes). The copies and their
//! origins are in `testdata/formats/`.

use crate::common;

use retrylint::extract::Syntax;
use retrylint::systems::extract;
use std::path::Path;

/// The AWS SDKs' cross-SDK profile-parser suite: each input as
/// `.aws/config` and `.aws/credentials`.
#[test]
fn aws_profile_parser_suite() {
    let dir = common::root().join("testdata/formats/aws-profile-parser");
    let text = std::fs::read_to_string(dir.join("profile-parser-tests.json")).unwrap();
    let suite: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut failures = Vec::new();
    let mut refused = 0;
    for case in suite["tests"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let mut diagnostics = Vec::new();
        for (key, path) in [
            ("configFile", "home/.aws/config"),
            ("credentialsFile", "home/.aws/credentials"),
        ] {
            if let Some(input) = case["input"][key].as_str() {
                let facts = extract(Path::new(path), input, Syntax::Ini);
                diagnostics.extend(
                    facts
                        .diagnostics
                        .iter()
                        .map(|d| format!("{path}: {} {}", d.code, d.message)),
                );
            }
        }
        match case.get("errorContaining").and_then(|e| e.as_str()) {
            Some(error) => {
                refused += 1;
                if diagnostics.is_empty() {
                    failures.push(format!("{name}: the SDKs refuse it ({error}), no finding"));
                }
            }
            None if !diagnostics.is_empty() => {
                failures.push(format!("{name}: valid, yet {diagnostics:?}"))
            }
            None => {}
        }
    }
    assert_eq!(refused, 10, "the suite's refused inputs");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// botocore's own refused nested config: `bad_syntax @ s3v4` under `s3 =`
/// (`configloader._parse_nested` splits at `=`; ConfigParseError).
#[test]
fn botocore_nested_bad_config() {
    let path = common::root().join("testdata/formats/aws-profile-parser/aws_config_nested_bad");
    let text = std::fs::read_to_string(&path).unwrap();
    let facts = extract(Path::new("home/.aws/config"), &text, Syntax::Ini);
    let codes: Vec<_> = facts.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["RL903"], "{:?}", facts.diagnostics);
    let d = &facts.diagnostics[0];
    assert_eq!(&text[d.span.start..d.span.end], "bad_syntax @ s3v4");
    // The credentials never show, even in the message.
    assert!(!d.message.contains("bad_syntax"), "{}", d.message);
}

/// RL403 on a policy whose retry conditions are written and whose tries
/// are the default says which is which (issue 16, item 8), for the
/// ingress-nginx annotation and for nginx's `proxy_next_upstream`.
#[test]
fn implicit_tries_with_written_conditions_say_so() {
    for (fixture, written) in [
        (
            "testdata/rules/RL403/err/ingressnginx-conditions-written-tries-default.yaml",
            "`error timeout http_502`",
        ),
        (
            "testdata/rules/RL403/err/nginx-conditions-written-tries-default.conf",
            "`error timeout http_503`",
        ),
    ] {
        let (_, findings) = common::run(Path::new(fixture), &["RL403"]);
        assert_eq!(findings.len(), 1, "{fixture}: {findings:?}");
        let m = &findings[0].message;
        assert!(!m.contains("nothing here asks for it"), "{fixture}: {m}");
        assert!(
            m.contains(written) && m.contains("how many times is not written"),
            "{fixture}: {m}"
        );
    }
}
