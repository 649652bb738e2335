use super::*;
use std::path::Path;

fn read(name: &str, text: &str) -> Facts {
    let clean = crate::yaml::strip_jsonc(text);
    let file = crate::yaml::parse(&clean);
    assert!(file.errors.is_empty(), "{:?}", file.errors);
    let mut facts = Facts::default();
    for doc in &file.documents {
        let ctx = DocCtx {
            path: Path::new(name),
            text: &clean,
            file: &file,
            doc,
            outer: &[],
        };
        extract_doc(&ctx, &mut facts);
    }
    facts
}

fn codes(f: &Facts) -> Vec<&'static str> {
    f.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn the_standard_hedging_handler() {
    let f = read(
        "appsettings.json",
        r#"{ "A": { "Hedging": {} , "Endpoint": { "Timeout": { "Timeout": "00:00:03" } } },
                 "B": { "Hedging": { "MaxHedgedAttempts": 11, "Delay": "-00:00:00.001", "Dealy": 1 } } }"#,
    );
    let a = f
        .policies
        .iter()
        .find(|p| p.name.as_deref() == Some("A"))
        .unwrap();
    assert_eq!(a.kind, PolicyKind::Hedge);
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(2));
    assert!(a.attempts.is_default());
    assert_eq!(a.hedge_delay(), Some(Duration::from_secs(2)));
    assert_eq!(
        a.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(3))
    );
    assert_eq!(
        a.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(30))
    );
    assert_eq!(a.methods.value, Methods::All);
    let b = f
        .policies
        .iter()
        .find(|p| p.name.as_deref() == Some("B"))
        .unwrap();
    // Copies only on failure, at once; 11 is out of range.
    assert_eq!(b.hedge_delay(), Some(Duration::ZERO));
    assert_eq!(b.attempts.value.count, AttemptCount::Unknown);
    assert_eq!(codes(&f), ["RL901", "RL902"]);
}

#[test]
fn retry_delays_that_outlast_the_total_timeout_fail_validation() {
    // 6 retries without jitter: 2+4+8+16+32+64 s = 126 s > 30 s.
    let f = read(
        "appsettings.json",
        r#"{ "A": { "Retry": { "MaxRetryAttempts": 6, "UseJitter": false } },
                 "B": { "Retry": { "MaxRetryAttempts": 6 } },
                 "C": { "Retry": { "MaxRetryAttempts": 2, "UseJitter": false } } }"#,
    );
    assert_eq!(codes(&f), ["RL902"]);
    let m = &f.diagnostics[0].message;
    assert!(
        m.contains("`MaxRetryAttempts` value `6`") && m.contains("`2m6s`"),
        "{m}"
    );
}

#[test]
fn timespans() {
    let s = Duration::from_secs;
    assert_eq!(parse_timespan("00:00:02").unwrap(), s(2));
    assert_eq!(parse_timespan("2.00:00:00").unwrap(), s(2 * 86_400));
    assert_eq!(parse_timespan("00:02").unwrap(), s(120));
    assert_eq!(parse_timespan("2").unwrap(), s(2 * 86_400));
    assert_eq!(
        parse_timespan("00:00:00.5").unwrap(),
        Duration::from_millis(500)
    );
    assert_eq!(parse_timespan("-00:00:00").unwrap(), Duration::ZERO);
    for bad in [
        "2s",
        "",
        "24:00:00",
        "00:60:00",
        "1:2:3:4",
        "00:00:01.12345678",
        "-00:00:01",
    ] {
        assert!(parse_timespan(bad).is_err(), "{bad}");
    }
}

#[test]
fn standard_handler_defaults_and_misspelling() {
    let f = read(
        "appsettings.json",
        r#"{
  // comment
  "RetryOptions": {
    "Retry": {
      "Backoff": "Linear",
      "UseJitter": false,
      "MaxRetryAttempts": 3,
    }
  }
}"#,
    );
    assert_eq!(codes(&f), ["RL901"]);
    assert!(f.diagnostics[0].help.contains("BackoffType"));
    let p = &f.policies[0];
    assert_eq!(p.system, System::DotnetStandard);
    assert_eq!(p.name.as_deref(), Some("RetryOptions"));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(2),
            multiplier: 2.0,
            cap: None
        }
    );
    assert!(p.delay.is_default());
    assert_eq!(p.jitter.value, Jitter::None);
    assert!(p.jitter.is_written());
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(10))
    );
    assert_eq!(
        p.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(30))
    );
    assert_eq!(p.methods.value, Methods::All);
}

#[test]
fn keys_are_case_insensitive_and_values_validated() {
    let f = read(
        "appsettings.Production.json",
        r#"{"Http": {"retry": {"maxretryattempts": "5", "backofftype": "constant",
               "delay": "2s", "usejitter": "yes"},
               "attempttimeout": {"timeout": "00:01:00"},
               "TotalRequestTimeout": {"Timeout": "00:00:30"}}}"#,
    );
    assert_eq!(
        codes(&f),
        ["RL902", "RL902", "RL902"],
        "{:?}",
        f.diagnostics
    );
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(2)
        }
    );
}

#[test]
fn polly_defaults() {
    let f = read(
        "appsettings.json",
        r#"{"Resilience": {"Orders": {"MaxRetryAttempts": 2147483647, "Delay": "00:00:00"}}}"#,
    );
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    let p = &f.policies[0];
    assert_eq!(p.system, System::Polly);
    assert_eq!(p.name.as_deref(), Some("Resilience:Orders"));
    assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
    assert_eq!(p.delay.value, Delay::None);
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);
    let f = read("appsettings.json", r#"{"R": {"UseJitter": true}}"#);
    let p = &f.policies[0];
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(2)
        }
    );
    assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.25 });
}

#[test]
fn only_appsettings_files_and_retry_shaped_sections() {
    let f = read("config.json", r#"{"A": {"MaxRetryAttempts": 3}}"#);
    assert!(f.policies.is_empty());
    let f = read(
        "appsettings.json",
        r#"{"Logging": {"LogLevel": {"Default": "Information"}}, "Retry": {"Count": 3}}"#,
    );
    assert!(f.policies.is_empty() && f.diagnostics.is_empty());
    // An application's own options class with a Polly-like key.
    let f = read(
        "appsettings.json",
        r#"{"Mailer": {"MaxRetryAttempts": 3, "SmtpHost": "mail", "Retry": {"MaxRetryAttempts": 2, "QueueName": "q"}}}"#,
    );
    assert!(
        f.policies.is_empty() && f.diagnostics.is_empty(),
        "{:?}",
        f.diagnostics
    );
}

proptest::proptest! {
    #[test]
    fn timespans_never_panic(s in "[-0-9.:a-z ]{0,40}") {
        let _ = parse_timespan(&s);
    }
}
