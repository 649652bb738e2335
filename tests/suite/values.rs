//! Numbers read from a name another file gives (issues 20 and 21,
//! `link::values`): each case under `testdata/values/` is scanned whole,
//! and the policy's attempts and wait are those the other file gives
//! (unknown on main: the name is not bound in the file that reads it).

use crate::common;

use retrylint::model::{AttemptCount, Delay, RetryPolicy, Timeout};
use std::path::Path;
use std::time::Duration;

/// The one policy of the scan of `case`, and the codes of its findings.
fn policy(case: &str) -> (RetryPolicy, Vec<&'static str>) {
    let (scan, findings) = common::run(&Path::new("testdata/values").join(case), &[]);
    let mut policies: Vec<RetryPolicy> = scan
        .files
        .iter()
        .flat_map(|f| f.facts.policies.iter().cloned())
        .collect();
    assert_eq!(policies.len(), 1, "{policies:#?}");
    let mut codes: Vec<&'static str> = findings.iter().map(|f| f.rule.code).collect();
    codes.sort();
    (policies.remove(0), codes)
}

#[test]
fn a_python_constant_imported_from_a_module_of_the_project() {
    let (p, codes) = policy("python-imported-constant");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(8));
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(2)
        }
    );
    assert!(codes.contains(&"RL206"), "{codes:?}");
    // The findings name the lines the values come from.
    assert_eq!(
        p.settings_from,
        [
            "testdata/values/python-imported-constant/app/config.py:3",
            "testdata/values/python-imported-constant/app/config.py:4"
        ]
    );
}

#[test]
fn a_django_setting_from_the_settings_module() {
    // `int(os.environ.get("ORDER_SYNC_RETRIES", 6))`: the fallback, as
    // `os.getenv`'s is read elsewhere; `max_retries` counts retries.
    let (p, codes) = policy("python-django-settings");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(7));
    assert!(codes.contains(&"RL206"), "{codes:?}");
}

#[test]
fn a_class_attribute_names_the_line_of_the_constant_it_reads() {
    // `retry_kwargs = {"max_retries": max_retries}` reads the class
    // attribute `max_retries = int(getenv(.., DEFAULT_RETRY_LIMIT))`: the
    // findings name both constants' lines (packit-service named only the
    // backoff's).
    let (p, _) = policy("python-class-attribute-constant");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(7));
    let mut from = p.settings_from.clone();
    from.sort_by_key(|s| s.line);
    assert_eq!(
        from,
        [
            "testdata/values/python-class-attribute-constant/app/constants.py:1",
            "testdata/values/python-class-attribute-constant/app/constants.py:2"
        ]
    );
}

#[test]
fn a_django_setting_from_the_module_the_entry_point_names() {
    // `manage.py` sets `DJANGO_SETTINGS_MODULE` to `shop.settings.prod`:
    // its 6 retries, not `dev.py`'s 1.
    let (p, codes) = policy("python-django-settings-module");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(7));
    assert!(codes.contains(&"RL206"), "{codes:?}");
    assert_eq!(
        p.settings_from,
        ["testdata/values/python-django-settings-module/shop/shop/settings/prod.py:1"]
    );
}

#[test]
fn a_django_setting_two_settings_modules_disagree_on_stays_unknown() {
    let (p, codes) = policy("python-django-settings-ambiguous");
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
    assert!(!codes.contains(&"RL206"), "{codes:?}");
}

#[test]
fn a_go_constant_of_another_file_of_the_package() {
    let (p, codes) = policy("go-package-const");
    // go-retryablehttp: `RetryMax` retries after the first attempt.
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(8));
    match p.delay.value {
        Delay::Exponential { base, cap, .. } => {
            assert_eq!(base, Duration::from_millis(200));
            assert_eq!(cap, Some(Duration::from_secs(5)));
        }
        d => panic!("{d:?}"),
    }
    assert!(codes.contains(&"RL206"), "{codes:?}");
}

#[test]
fn a_go_field_given_its_default_by_a_struct_tag() {
    let (p, codes) = policy("go-tag-default");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(7));
    match p.delay.value {
        Delay::Exponential { base, .. } => assert_eq!(base, Duration::from_millis(1500)),
        d => panic!("{d:?}"),
    }
    assert!(codes.contains(&"RL206"), "{codes:?}");
}

/// cenkalti/backoff v5's `Retry` gives up after `DefaultMaxElapsedTime`,
/// 15 minutes in v5.0.3 (60 s was read on main, for every v5).
#[test]
fn a_go_module_version_gives_the_backoff_v5_elapsed_default() {
    let (p, _) = policy("go-backoff-v5-version");
    let t = p.overall_timeout.expect("the elapsed-time limit").value;
    assert_eq!(t, Timeout::after(Duration::from_secs(15 * 60)));
}

/// A v5 release whose source was not read (v5.0.0) leaves the default
/// unknown: not guessed.
#[test]
fn a_go_module_version_not_read_leaves_the_backoff_v5_elapsed_default_unknown() {
    let (p, _) = policy("go-backoff-v5-old-version");
    let t = p.overall_timeout.expect("the elapsed-time limit").value;
    assert_eq!(t, Timeout::Unknown);
}

/// Dramatiq: an actor that does not set `max_retries` or `min_backoff`
/// takes the broker's `Retries(max_retries=3, min_backoff=1000)` of
/// another module (main used Dramatiq's defaults, 20 retries from 15 s).
#[test]
fn a_dramatiq_actor_takes_the_broker_retries_options() {
    let (p, _) = policy("python-dramatiq-broker-retries");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    match p.delay.value {
        Delay::Exponential { base, cap, .. } => {
            assert_eq!(base, Duration::from_secs(1));
            assert_eq!(cap, Some(Duration::from_secs(60)));
        }
        d => panic!("{d:?}"),
    }
}

/// A sarama config built by a function of another file of the package
/// (`cfg := newConfig()`, `newConfig` in config.go): its
/// `Producer.Retry.Max` and `Backoff` are the producer's (main read
/// sarama's defaults, 4 attempts 100 ms apart), and the findings name
/// config.go's lines.
#[test]
fn a_sarama_config_built_in_another_file_of_the_package() {
    let (p, codes) = policy("go-sarama-config-function");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(11));
    assert!(p.attempts.is_written());
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_millis(500)
        }
    );
    assert!(codes.contains(&"RL206"), "{codes:?}");
    let mut from = p.settings_from.clone();
    from.sort_by_key(|s| s.line);
    assert_eq!(
        from,
        [
            "testdata/values/go-sarama-config-function/config.go:13",
            "testdata/values/go-sarama-config-function/config.go:14"
        ]
    );
}
