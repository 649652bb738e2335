use super::*;

fn ini(name: &str, text: &str) -> Facts {
    let mut f = Facts::default();
    extract_ini(Path::new(name), text, &mut f);
    f
}

fn codes(f: &Facts) -> Vec<&'static str> {
    f.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn classifies_by_place_name_and_content() {
    assert!(is_aws_file(Path::new("home/.aws/config"), b""));
    assert!(is_aws_file(Path::new("x/.aws/credentials"), b""));
    assert!(is_aws_file(
        Path::new("testdata/shared_config"),
        b"[default]\nregion=x\n"
    ));
    assert!(is_aws_file(
        Path::new("ci/aws-config.ini"),
        b"# c\n[profile ci]\n"
    ));
    assert!(!is_aws_file(
        Path::new("testdata/shared_config"),
        b"region=x\n"
    ));
    assert!(!is_aws_file(Path::new("aws_config.py"), b"[default]\n"));
    assert!(!is_aws_file(Path::new("config"), b"[default]\n"));
}

#[test]
fn profiles_modes_and_attempts() {
    let text = "[default]\ns3 =\n  max_attempts = 9\nregion = x\n\n[profile a]\nretry_mode = adaptive\nmax_attempts = 4\n[profile b]\nretry_mode = legacy\n[profile c]\nregion = y\n[profile empty]\n";
    let f = ini("config", text);
    assert_eq!(codes(&f), ["RL901"], "{:?}", f.diagnostics);
    let names: Vec<_> = f.policies.iter().map(|p| p.name.clone().unwrap()).collect();
    assert_eq!(
        names,
        ["profile default", "profile a", "profile b", "profile empty"]
    );
    let d = &f.policies[0];
    assert_eq!(d.attempts.value.count, AttemptCount::Finite(3));
    assert!(d.attempts.is_default());
    assert_eq!(d.budget.as_ref().unwrap().value, Budget::Quota);
    let a = &f.policies[1];
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(4));
    assert!(a.attempts.is_written());
    let s = a.attempts.span;
    assert_eq!(&text[s.start..s.end], "max_attempts = 4");
    let b = &f.policies[2];
    assert_eq!(b.attempts.value.count, AttemptCount::Finite(5));
    assert!(b.budget.is_none());
}

#[test]
fn invalid_values_are_reported_without_a_policy() {
    let f = ini(
        "config",
        "[profile m]\nretry_mode = Standard\n[profile n]\nmax_attempts = invalid\n[profile z]\nmax_attempts = 0\n",
    );
    assert_eq!(codes(&f), ["RL902", "RL902", "RL902"]);
    assert!(f.diagnostics[0].message.contains("did you mean `standard`"));
    assert!(f.policies.is_empty());
}

#[test]
fn go_and_botocore_differences() {
    let text = "[profile q]\nretry_mode = \"standard\"\nmax_attempts = 4 # four\n";
    let f = ini("config", text);
    assert_eq!(codes(&f), ["RL902", "RL902"]);
    // Modelled as aws-sdk-go-v2 reads it.
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(4));
}

#[test]
fn case_sensitive_sections_merged_duplicates_and_lower_cased_keys() {
    let f = ini(
        "config",
        "[profile P]\nMAX_ATTEMPTS = 2\n[profile p]\nmax_attempts = 3\n[profile P]\nmax_attempts = 4\n",
    );
    assert!(f.diagnostics.is_empty());
    let counts: Vec<_> = f
        .policies
        .iter()
        .map(|p| (p.name.clone().unwrap(), p.attempts.value.count))
        .collect();
    assert_eq!(
        counts,
        [
            ("profile P".to_string(), AttemptCount::Finite(4)),
            ("profile p".to_string(), AttemptCount::Finite(3))
        ]
    );
}

#[test]
fn misplaced_and_misspelled_keys() {
    let f = ini(
        "config",
        "[prod]\nretry_mode = standard\n[sso-session s]\nmax_attempts = 2\n[profile x]\nmax-attempts = 3\naws_max_attempts = 3\nmetadata_service_num_attempts = 2\n",
    );
    assert_eq!(
        codes(&f),
        ["RL901", "RL901", "RL901", "RL901"],
        "{:?}",
        f.diagnostics
    );
    assert!(f.diagnostics[0].help.contains("[profile prod]"));
}

#[test]
fn credentials_files_name_profiles_without_prefix() {
    let f = ini(
        ".aws/credentials",
        "[default]\naws_access_key_id = AKID\n[ci]\nmax_attempts = 2\n",
    );
    assert!(f.diagnostics.is_empty());
    assert_eq!(f.policies.len(), 1);
    assert_eq!(f.policies[0].name.as_deref(), Some("profile ci"));
}

#[test]
fn broken_lines_never_show_their_text() {
    let f = ini(
        "config",
        "aws_secret_access_key = SECRETVALUE\n[default]\nSECRETLINE\n[profile x\n",
    );
    assert_eq!(codes(&f), ["RL903", "RL903", "RL903"]);
    for d in &f.diagnostics {
        assert!(!d.message.contains("SECRET") && !d.help.contains("SECRET"));
    }
}

#[test]
fn env_entries_in_kubernetes_and_compose() {
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: orders\nspec:\n  template:\n    spec:\n      containers:\n      - name: app\n        env:\n        - name: AWS_MAX_ATTEMPTS\n          value: \"7\"\n        - name: AWS_SECRET_ACCESS_KEY\n          value: hidden\n---\nservices:\n  billing:\n    environment:\n      - AWS_RETRY_MODE=legacy\n  web:\n    environment:\n      AWS_MAX_ATTEMPTS: nope\n";
    let file = crate::yaml::parse(text);
    let mut facts = Facts::default();
    for doc in &file.documents {
        let ctx = DocCtx {
            path: Path::new("x.yaml"),
            text,
            file: &file,
            doc,
            outer: &[],
        };
        extract_env_doc(&ctx, &mut facts);
    }
    assert_eq!(codes(&facts), ["RL902"]);
    assert!(!facts.diagnostics[0].message.contains("hidden"));
    assert_eq!(facts.policies.len(), 2);
    assert_eq!(
        facts.policies[0].attempts.value.count,
        AttemptCount::Finite(7)
    );
    assert_eq!(facts.policies[0].scope.caller.as_deref(), Some("orders"));
    assert_eq!(
        facts.policies[1].attempts.value.count,
        AttemptCount::Finite(5)
    );
    assert!(facts.policies[1].budget.is_none());
    let s = facts.policies[1].attempts.span;
    assert_eq!(&text[s.start..s.end], "AWS_RETRY_MODE=legacy");
}

#[test]
fn credentials_are_blanked_offsets_kept() {
    let text = "[default]\naws_secret_access_key = s3cr€t\r\nAWS_SESSION_TOKEN: tok\nregion = x\n  aws_access_key_id=AKID\n";
    let r = redact(text);
    assert_eq!(r.len(), text.len());
    assert!(!r.contains("s3cr") && !r.contains("tok") && !r.contains("AKID"));
    assert!(r.contains("region = x") && r.contains("\r\n"));
}

#[test]
fn a_client_without_settings_gets_the_default() {
    let p = default_client_policy("S3Client", Span::new(3, 9));
    assert_eq!(p.system, System::AwsSdk);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert!(p.attempts.is_default());
    assert_eq!(p.budget.as_ref().unwrap().value, Budget::Quota);
}

#[test]
fn never_panics() {
    for t in [
        "[",
        "]",
        "[]\n=\n",
        "=x",
        "[default]\n  =\n\t\n:",
        "\u{feff}[default]\n",
        "[profile é]\nmax_attempts=é",
    ] {
        let _ = ini("config", t);
    }
}

proptest::proptest! {
    #[test]
    fn any_text_is_read_without_panicking(s in "(?s).{0,300}", t in "[\\[\\]=:#; a-z_\n\t\"'é]{0,300}") {
        let _ = ini("config", &s);
        let _ = ini(".aws/credentials", &t);
        let _ = ini("config", &t);
    }
}
