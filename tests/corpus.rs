//! The regression corpus in `../shared/corpus` (real files at their original
//! paths, with INDEX.tsv as ground truth). Without it the tests are reported
//! as ignored, and fail under `CI=true` (tests/common/needs.rs).
//!
//! For each file an extractor covers, the findings must be exactly the ones
//! listed here: a missing one is a missed anti-pattern, an extra one a false
//! alarm. Each entry says why, from INDEX.tsv.

mod common;

use common::needs::Need;
use retrylint::model::*;
use std::collections::BTreeSet;
use std::process::ExitCode;
use std::time::Duration;

// A test crate's root resolves `mod` beside itself, hence the paths.
#[path = "corpus/expected.rs"]
mod expected;
#[path = "corpus/source_code.rs"]
mod source_code;

use expected::*;
use source_code::*;

fn corpus_findings_match_the_ground_truth() {
    let shared = common::shared_dir();
    let corpus = shared.join("corpus");
    let (scan, findings) = common::run(&corpus, &[]);
    assert!(
        !scan.notices.iter().any(|n| n.internal),
        "internal errors: {:?}",
        scan.notices
    );
    let mut failures = Vec::new();
    for (file, expected) in EXPECTED {
        let want: BTreeSet<(String, usize)> =
            expected.iter().map(|(c, l)| (c.to_string(), *l)).collect();
        let got: BTreeSet<(String, usize)> = findings
            .iter()
            .filter(|f| {
                scan.file(f.file)
                    .display_path()
                    .ends_with(&format!("corpus/{file}"))
            })
            .map(|f| {
                let line = scan.file(f.file).line_col(f.span.start).line;
                (f.rule.code.to_string(), line)
            })
            .collect();
        for missing in want.difference(&got) {
            failures.push(format!("{file}: missed {missing:?}"));
        }
        for extra in got.difference(&want) {
            failures.push(format!("{file}: false alarm {extra:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{failures:#?}\n\n{}",
        common::concise(&scan, &findings)
    );
}

fn policies_of<'a>(scan: &'a retrylint::Scan, suffix: &str) -> Vec<&'a RetryPolicy> {
    scan.files
        .iter()
        .filter(|f| f.source.display_path().ends_with(suffix))
        .flat_map(|f| &f.facts.policies)
        .collect()
}

fn named<'a>(ps: &[&'a RetryPolicy], name: &str) -> &'a RetryPolicy {
    ps.iter()
        .find(|p| p.name.as_deref() == Some(name))
        .unwrap_or_else(|| {
            panic!(
                "no policy {name}: {:?}",
                ps.iter().map(|p| &p.name).collect::<Vec<_>>()
            )
        })
}

fn corpus_values_are_read_as_the_systems_read_them() {
    let shared = common::shared_dir();
    let (scan, _) = common::run(&shared.join("corpus"), &[]);

    let demo = policies_of(
        &scan,
        "resilience4j-spring-boot2-demo/src/main/resources/application.yml",
    );
    let a = named(&demo, "backendA");
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        a.delay.value,
        Delay::Fixed {
            delay: Duration::from_millis(100)
        }
    );
    assert_eq!(a.delay.provenance, Provenance::Inherited);
    let RetryOn::Listed { conditions } = &a.retry_on.value else {
        panic!("retryExceptions are listed")
    };
    assert_eq!(conditions.len(), 3);

    let th = policies_of(
        &scan,
        "springboot-resilience4j/src/main/resources/application.yml",
    );
    let exp = named(&th, "intervalFunctionExponentialExample");
    // 2.x ignores `maxRetryAttempts: 6` (no build file tells the version);
    // the 1.x reading is kept for a build that says 1.x.
    assert_eq!(exp.attempts.value.count, AttemptCount::Finite(3));
    let file = scan
        .files
        .iter()
        .find(|f| {
            f.source
                .display_path()
                .ends_with("springboot-resilience4j/src/main/resources/application.yml")
        })
        .unwrap();
    let older: Vec<u64> = file
        .facts
        .versioned
        .iter()
        .flat_map(|v| &v.older)
        .filter_map(|c| match c {
            retrylint::model::versions::Change::Attempts { attempts, .. } => {
                attempts.value.count.finite()
            }
            _ => None,
        })
        .collect();
    assert!(older.contains(&6), "{older:?}");
    assert_eq!(
        exp.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: None
        }
    );
    assert_eq!(exp.jitter.value, Jitter::None);
    let rnd = named(&th, "intervalFunctionRandomExample");
    assert_eq!(rnd.jitter.value, Jitter::Proportional { factor: 0.5 });
    assert_eq!(named(&th, "basic").retry_on.value, RetryOn::AllErrors);

    let vs = policies_of(&scan, "virtual-service-recommendation-v2_retry.yml");
    assert_eq!(vs.len(), 1);
    assert_eq!(vs[0].attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        vs[0].per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(2))
    );
    assert!(vs[0].platform_backoff);
    let off = policies_of(&scan, "virtual-service-no-retries.yml");
    assert_eq!(off.len(), 3, "attempts: 0 is a policy of one attempt");
    assert!(off.iter().all(|p| !p.retries()));

    // Envoy Gateway's proto-JSON routes, read with their real numbers.
    let eg = policies_of(&scan, "xds-ir/retry.routes.yaml");
    let first = named(&eg, "first-route");
    assert_eq!(first.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        first.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(200),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(2))
        }
    );
    assert!(first.platform_backoff);
    let RetryOn::Listed { conditions } = &first.retry_on.value else {
        panic!("retryOn is listed")
    };
    assert!(conditions.iter().any(|c| c.value == Condition::status(500)));
    assert_eq!(
        first.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(15))
    );
    assert_eq!(first.budget_site, BudgetSite::Unseen);
    let second = named(&eg, "second-route-defaults");
    assert_eq!(second.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        second.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(25),
            multiplier: 2.0,
            cap: Some(Duration::from_millis(250))
        }
    );
    assert!(second.delay.is_default());
    let third = named(&eg, "third-route-only-triggers");
    assert_eq!(third.attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(third.methods.value, Methods::All);

    // The Envoy docs example: a retry policy that retries nothing.
    let docs = policies_of(&scan, "retry-combined-hosts-priorities.yaml");
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].retry_on.value, RetryOn::Nothing);
    assert!(!docs[0].retries());

    // christian-posta: no retry policy; the cluster endpoint is the callee.
    let cp = scan
        .files
        .iter()
        .find(|f| {
            f.source
                .display_path()
                .ends_with("circuit-breaker/conf/envoy.yaml")
        })
        .expect("read");
    assert!(cp.facts.policies.is_empty());
    assert_eq!(cp.facts.edges.len(), 1);
    assert_eq!(cp.facts.edges[0].callee, "172.17.0.4");

    // The ServiceProfile's budget and routes.
    let sp = policies_of(&scan, "web-service-profile-with-retry-budget.yml");
    assert_eq!(sp.len(), 2);
    for p in &sp {
        assert_eq!(
            p.budget.as_ref().unwrap().value,
            Budget::Ratio {
                ratio: 0.001,
                min_per_second: Some(10.0)
            }
        );
        assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
        assert_eq!(p.methods.value, Methods::Set(vec!["GET".into()]));
        assert_eq!(p.overall_timeout.as_ref().unwrap().value, Timeout::Disabled);
    }

    // nilesh93: the DestinationRule's host is a service identity.
    let nl = scan
        .files
        .iter()
        .find(|f| {
            f.source
                .display_path()
                .ends_with("05-resilliency/all-together.yaml")
        })
        .expect("read");
    assert!(
        nl.facts
            .services
            .iter()
            .any(|s| s.source == "DestinationRule host" && s.name == "nginx-test")
    );
    // getsentry/self-hosted nginx.conf: six proxy_pass locations, each
    // inheriting the http-level settings.
    let sentry = policies_of(&scan, "getsentry/self-hosted/nginx.conf");
    assert_eq!(sentry.len(), 6);
    for p in &sentry {
        assert_eq!(p.system, System::Nginx);
        // tries 2 is kept: `relay`/`web` may resolve to several addresses.
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
        assert!(p.attempts.is_written());
        assert_eq!(
            p.methods.value,
            retrylint::systems::nginx::extract::non_idempotent_methods(),
            "non_idempotent"
        );
        let RetryOn::Listed { conditions } = &p.retry_on.value else {
            panic!("proxy_next_upstream lists conditions")
        };
        let values: Vec<&Condition> = conditions.iter().map(|c| &c.value).collect();
        assert_eq!(
            values,
            [
                &Condition::Transport("error".into()),
                &Condition::Transport("timeout".into()),
                &Condition::Transport("invalid_header".into()),
                &Condition::status(502),
                &Condition::status(503),
            ]
        );
        // connect 60s (default) + read 30s.
        assert_eq!(
            p.per_try_timeout.as_ref().unwrap().value,
            Timeout::after(Duration::from_secs(90))
        );
        // No proxy_next_upstream_timeout; bounded by tries x per try.
        assert!(p.overall_timeout.is_none());
        assert!(p.platform_backoff);
        assert_eq!(p.delay.value, Delay::None);
    }
    let store = named(&sentry, "location /api/store/");
    assert_eq!(store.scope.callee.as_ref().unwrap().value, "relay");
    let edges: Vec<&CallEdge> = scan
        .files
        .iter()
        .filter(|f| {
            f.source
                .display_path()
                .ends_with("getsentry/self-hosted/nginx.conf")
        })
        .flat_map(|f| &f.facts.edges)
        .collect();
    let callees: Vec<&str> = edges.iter().map(|e| e.callee.as_str()).collect();
    assert_eq!(callees, ["relay", "relay", "relay", "web", "web", "web"]);

    // flackdl/cwwed ingress.yml: controller defaults under the annotation.
    let cwwed = policies_of(&scan, "flackdl/cwwed/configs/ingress.yml");
    assert_eq!(cwwed.len(), 1, "ingress-dev only redirects");
    let ing = cwwed[0];
    assert_eq!(ing.system, System::IngressNginx);
    assert_eq!(ing.attempts.value.count, AttemptCount::Finite(3));
    assert!(ing.attempts.is_default());
    assert!(ing.overall_timeout.is_none(), "timeout 0: no limit");
    assert_eq!(
        ing.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(65))
    );
    assert_eq!(ing.methods.value, Methods::IdempotentOnly);
    let RetryOn::Listed { conditions } = &ing.retry_on.value else {
        panic!("the annotation lists conditions")
    };
    assert_eq!(conditions.len(), 3);
    assert_eq!(conditions[2].value, Condition::status(502));
    assert_eq!(ing.scope.callee.as_ref().unwrap().value, "cwwed-alpha");
}

fn the_corpus_scan_completes_without_internal_errors() {
    let shared = common::shared_dir();
    let out = assert_cmd::Command::cargo_bin("retrylint")
        .unwrap()
        .args(["check", "--format", "json"])
        .arg(shared.join("corpus"))
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    assert!(
        code == 0 || code == 1,
        "exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let _: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
}

fn corpus_sdk_configs_are_read_as_the_sdks_read_them() {
    let shared = common::shared_dir();
    let corpus = shared.join("corpus");
    let (scan, findings) = common::run(&corpus, &[]);

    // AWS: max_attempts counts total attempts; modes and their budgets.
    let aws = policies_of(&scan, "aws-sdk-go-v2/config/testdata/shared_config");
    let std = named(&aws, "profile retrywithstandard");
    assert_eq!(std.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(std.budget.as_ref().unwrap().value, Budget::Quota);
    let adaptive = named(&aws, "profile retrywithadaptive");
    assert_eq!(adaptive.attempts.value.count, AttemptCount::Finite(4));
    let unset = named(&aws, "profile retryunset");
    assert_eq!(unset.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(unset.attempts.provenance, Provenance::Default);
    assert!(
        aws.iter()
            .all(|p| p.name.as_deref() != Some("profile retrywithinvalidmode"))
    );
    assert_eq!(
        aws.len(),
        4,
        "{:?}",
        aws.iter().map(|p| &p.name).collect::<Vec<_>>()
    );
    // No finding anywhere prints a credential from the file.
    let text =
        std::fs::read_to_string(corpus.join("aws/aws-sdk-go-v2/config/testdata/shared_config"))
            .unwrap();
    let secrets: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once('='))
        .filter(|(k, _)| {
            let k = k.trim().to_ascii_lowercase();
            k.starts_with("aws_") && (k.contains("key") || k.contains("token"))
        })
        .map(|(_, v)| v.trim())
        .filter(|v| v.len() > 3)
        // `secret` is also part of the key names, which may be shown.
        .filter(|v| !"aws_secret_access_key aws_session_token".contains(&v.to_ascii_lowercase()))
        .collect();
    assert!(secrets.len() > 10);
    for f in &findings {
        for s in &secrets {
            assert!(
                !f.message.contains(s) && !f.help.contains(s),
                "a finding prints a credential: {}",
                f.message
            );
        }
    }
    // Nor does a rendered snippet, or the text kept for rendering.
    let pretty = common::pretty(&scan, &findings);
    let kept = scan
        .files
        .iter()
        .find(|f| f.source.display_path().ends_with("testdata/shared_config"))
        .map(|f| f.source.text.clone())
        .unwrap();
    for s in &secrets {
        assert!(!pretty.contains(s), "a snippet shows a credential: {s}");
        assert!(!kept.contains(s), "the kept text holds a credential: {s}");
    }

    // gRPC: total attempts, A6 back-off with 0.8-1.2 jitter, throttling.
    let retrying = policies_of(&scan, "retrying/retrying_service_config.json");
    let p = named(&retrying, "helloworld.Greeter/SayHello");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(500),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(30))
        }
    );
    assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.2 });
    assert!(p.budget.is_none());
    let hedging = policies_of(&scan, "hedging/hedging_service_config.json");
    let h = named(&hedging, "helloworld.Greeter/SayHello");
    assert_eq!(h.kind, PolicyKind::Hedge);
    assert_eq!(h.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        h.budget.as_ref().unwrap().value,
        Budget::TokenBucket {
            max_tokens: 10.0,
            token_ratio: 0.1
        }
    );
    let pubsub = policies_of(&scan, "pubsub/v1/pubsub_grpc_service_config.json");
    assert!(
        pubsub
            .iter()
            .all(|p| p.attempts.value.count == AttemptCount::Finite(5))
    );
    let publish = named(&pubsub, "google.pubsub.v1.Publisher/Publish");
    assert_eq!(
        publish.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(60))
    );
    let RetryOn::Listed { conditions } = &publish.retry_on.value else {
        panic!("codes are listed")
    };
    assert_eq!(conditions.len(), 7);
    let streaming = named(&pubsub, "google.pubsub.v1.Subscriber/StreamingPull");
    assert_eq!(
        streaming.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(1800))
    );

    // .NET: MaxRetryAttempts counts retries; the misspelled `Backoff` does
    // not bind, so BackoffType stays Exponential; the standard timeouts.
    let dotnet = policies_of(&scan, "http-resilience/appsettings.json");
    let d = named(&dotnet, "RetryOptions");
    assert_eq!(d.system, System::DotnetStandard);
    assert_eq!(d.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        d.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(2),
            multiplier: 2.0,
            cap: None
        }
    );
    assert_eq!(d.jitter.value, Jitter::None);
    assert_eq!(
        d.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(10))
    );
    assert_eq!(
        d.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(30))
    );
    assert_eq!(d.methods.value, Methods::All);
}

fn corpus_properties_are_read_as_java_reads_them() {
    let shared = common::shared_dir();
    let (scan, _) = common::run(&shared.join("corpus"), &[]);
    let suffix = "resilience4j-commons-configuration/src/test/resources/resilience.properties";
    let ps = policies_of(&scan, suffix);
    assert_eq!(ps.len(), 3, "configs.default, backendA, backendB");

    let b = named(&ps, "backendB");
    assert_eq!(b.attempts.value.count, AttemptCount::Finite(5));
    // Flat 10s: default's interval (PT10S); backendB's exponential x2
    // capped at PT10S would give the same delays.
    assert_eq!(
        b.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(10)
        }
    );
    for k in 1..5 {
        assert_eq!(b.delay.value.nominal(k), Some(Duration::from_secs(10)));
    }
    assert_eq!(b.jitter.value, Jitter::None);
    let RetryOn::Listed { conditions } = &b.retry_on.value else {
        panic!("backendB lists exceptions and predicates")
    };
    assert!(conditions.iter().any(|c| c.value == Condition::Predicate));
    assert!(
        conditions
            .iter()
            .any(|c| c.value == Condition::Exception("java.io.IOException".into()))
    );

    // backendA: baseConfig=default, everything inherited.
    let a = named(&ps, "backendA");
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(a.attempts.provenance, Provenance::Inherited);
    let RetryOn::Listed { conditions } = &a.retry_on.value else {
        panic!("backendA inherits retryExceptions")
    };
    assert_eq!(conditions.len(), 2);

    // TimeLimiter L110-117: default PT10S, backendA PT5S, backendB PT15S.
    let file = scan
        .files
        .iter()
        .find(|f| f.source.display_path().ends_with(suffix))
        .unwrap();
    let limits: Vec<(String, Timeout)> = file
        .facts
        .timeouts
        .iter()
        .map(|t| (t.name.clone().unwrap(), t.timeout.value))
        .collect();
    assert_eq!(
        limits,
        [
            (
                "configs.default".into(),
                Timeout::after(Duration::from_secs(10))
            ),
            ("backendA".into(), Timeout::after(Duration::from_secs(5))),
            ("backendB".into(), Timeout::after(Duration::from_secs(15))),
        ]
    );

    // The mixed-case ISO-8601 values of the circuit breakers (L43 `PT10s`,
    // L57 `PT5s`) parse as Java's Duration.parse reads them.
    let props = retrylint::systems::spring::properties::parse(&file.source.text, false);
    let value = |key: &str| {
        props.documents[0]
            .iter()
            .find(|p| p.key() == key)
            .map(|p| {
                (
                    p.value.clone(),
                    file.source.line_col(p.value_span.start).line,
                )
            })
            .unwrap()
    };
    for (key, line, secs) in [
        (
            "resilience4j.circuitbreaker.configs.shared.waitDurationInOpenState",
            43,
            10,
        ),
        (
            "resilience4j.circuitbreaker.instances.backendB.waitDurationInOpenState",
            57,
            5,
        ),
    ] {
        let (v, l) = value(key);
        assert_eq!(l, line);
        assert_eq!(
            retrylint::duration::parse_spring(&v, Duration::from_millis(1)).unwrap(),
            Duration::from_secs(secs)
        );
    }
    let (list, _) = value("resilience4j.retry.configs.default.retryExceptions");
    assert_eq!(
        list,
        "java.util.concurrent.TimeoutException, java.io.IOException"
    );
}

/// The harness is honest (issue 26): without the shared folder a corpus
/// trial fails under `CI=true` with where to put it, and elsewhere it is
/// reported ignored with that reason; it never passes without having run.
/// Runs this binary again on one trial, with the folder pointed nowhere.
fn without_the_shared_folder_a_trial_fails_in_ci_and_is_ignored_elsewhere() {
    let me = std::env::current_exe().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let nowhere = dir.path().join("no-shared");
    let run = |ci: &str| {
        let out = std::process::Command::new(&me)
            .args(["--exact", "corpus_findings_match_the_ground_truth"])
            .env("RETRYLINT_SHARED", &nowhere)
            .env("CI", ci)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    };
    let (passed, out) = run("true");
    assert!(!passed, "{out}");
    assert!(
        out.contains("this test cannot run under CI=true")
            && out.contains(&format!("{} has no `corpus/` folder", nowhere.display())),
        "{out}"
    );
    let (passed, out) = run("");
    assert!(passed, "{out}");
    assert!(
        out.contains("ignored") && out.contains("0 passed") && out.contains("1 ignored"),
        "{out}"
    );
}

fn main() -> ExitCode {
    let trials = vec![
        trial!(
            &[],
            without_the_shared_folder_a_trial_fails_in_ci_and_is_ignored_elsewhere
        ),
        trial!(&[Need::Shared], corpus_findings_match_the_ground_truth),
        trial!(
            &[Need::Shared],
            corpus_values_are_read_as_the_systems_read_them
        ),
        trial!(
            &[Need::Shared],
            the_corpus_scan_completes_without_internal_errors
        ),
        trial!(
            &[Need::Shared],
            corpus_sdk_configs_are_read_as_the_sdks_read_them
        ),
        trial!(
            &[Need::Shared],
            corpus_properties_are_read_as_java_reads_them
        ),
        trial!(
            &[Need::Shared],
            corpus_rust_sources_are_read_as_the_crates_read_them
        ),
        trial!(
            &[Need::Shared],
            corpus_java_values_are_read_as_the_systems_read_them
        ),
    ];
    // Every file of this binary: a `#[test]` in any of them would never run.
    let source = concat!(
        include_str!("corpus.rs"),
        include_str!("corpus/expected.rs"),
        include_str!("corpus/source_code.rs"),
    );
    common::needs::run(source, trials)
}
