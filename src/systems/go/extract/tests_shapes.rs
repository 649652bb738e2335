//! Shapes of stop 46: a wait that doubles from a first value not known in
//! the file, what a cenkalti/backoff operation decides itself, and
//! cenkalti/backoff v5's elapsed-time default by the module's version.

use super::*;
use crate::model::{AttemptCount, Delay, Provenance, RetryOn, Timeout};
use std::time::Duration;

fn read(src: &str) -> Facts {
    let mut f = Facts::default();
    extract(src, &mut f);
    f
}

/// argo-cd's `retryTransport`: `backoff := t.backoff` then `backoff *= 2`
/// under a cap is a growing delay of unknown start, not the fixed cap.
#[test]
fn doubling_wait_from_a_field_grows() {
    let f = read(
        r#"package t
import "time"
const waitMax = 10 * time.Second
func (t *tr) Do(c *Client) error {
	var err error
	wait := t.wait
	for i := 0; i < 5; i++ {
		if err = c.Send(); err == nil {
			return nil
		}
		if wait > waitMax {
			wait = waitMax
		}
		time.Sleep(wait)
		wait *= 2
	}
	return err
}
"#,
    );
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    assert_eq!(
        f.policies[0].delay.value,
        Delay::Growing {
            multiplier: 2.0,
            cap: Some(Duration::from_secs(10))
        }
    );
}

const VOLUME: &str = r#"package docker
import (
	"context"
	"github.com/cenkalti/backoff/v5"
)
func (e *engine) drop(ctx context.Context) {
	_, _ = backoff.Retry(ctx, func() (any, error) {
		err := e.client.VolumeRemove(ctx, "v")
		if err == nil || !isInUse(err) {
			return nil, nil
		}
		return nil, err
	}, backoff.WithMaxTries(5))
}
"#;

/// woodpecker's volume removal: success for every error but "in use".
#[test]
fn an_operation_that_returns_success_for_other_errors_is_a_predicate() {
    let f = read(VOLUME);
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    match &f.policies[0].retry_on.value {
        RetryOn::Listed { conditions } => {
            assert_eq!(conditions.len(), 1);
            assert_eq!(conditions[0].value, crate::model::Condition::Predicate);
        }
        other => panic!("{other:?}"),
    }
}

/// traefik's middleware: every failure is an error the operation makes.
#[test]
fn an_operation_failing_with_its_own_errors_only_is_not_known() {
    let f = read(
        r#"package retry
import (
	"fmt"
	"github.com/cenkalti/backoff/v4"
)
func (r *retry) serve(w *writer) {
	op := func() error {
		r.next.Serve(w)
		if w.written {
			return nil
		}
		return fmt.Errorf("attempt failed")
	}
	_ = backoff.Retry(op, backoff.NewExponentialBackOff())
}
"#,
    );
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    assert_eq!(f.policies[0].retry_on.value, RetryOn::Unknown);
}

/// v5's `Retry` elapsed-time default: 15 minutes from v5.0.3 (the module
/// version given as the link step gives it), unknown before and when no
/// version is given, the module then recorded as wanted.
#[test]
fn backoff_v5_elapsed_default_follows_the_module_version() {
    let elapsed = |f: &Facts| f.policies[0].overall_timeout.as_ref().map(|t| t.value);
    let key = "go.mod github.com/cenkalti/backoff/v5".to_string();
    let given = |v: f64| {
        crate::extract::values::with_given([(key.clone(), (v, false))].into(), || read(VOLUME))
    };
    assert_eq!(
        elapsed(&given(5_000_003.0)),
        Some(Timeout::after(Duration::from_secs(15 * 60)))
    );
    assert_eq!(elapsed(&given(5_000_000.0)), Some(Timeout::Unknown));
    let (f, wants) = crate::extract::values::collect(|| read(VOLUME));
    assert_eq!(elapsed(&f), Some(Timeout::Unknown));
    assert!(wants.iter().any(|w| w.key() == key), "{wants:?}");
}

/// goharbor/harbor c50c7ddd6e: a backoff doubled in the `for` clause's
/// update grows from the initializer's value; a wait of the counter plus
/// a constant grows by a step each pass.
#[test]
fn waits_growing_in_the_for_clause_and_with_the_counter() {
    let f = read(
        r#"package t
import "time"
func (t *tr) copy() error {
	var err error
	for i, backoff := 1, 2*time.Second; i <= 5; i, backoff = i+1, backoff*2 {
		if err = t.send(); err == nil {
			return nil
		}
		time.Sleep(backoff)
	}
	return err
}
func (w *wk) ping() error {
	var err error
	for count := 1; count <= 10; count++ {
		if _, err = w.conn.Do("ping"); err == nil {
			return nil
		}
		time.Sleep(time.Duration(count+4) * time.Second)
	}
	return err
}
"#,
    );
    assert_eq!(f.policies.len(), 2, "{:?}", f.policies);
    assert_eq!(
        f.policies[0].delay.value,
        Delay::Exponential {
            base: Duration::from_secs(2),
            multiplier: 2.0,
            cap: None
        }
    );
    assert_eq!(
        f.policies[1].delay.value,
        Delay::Linear {
            base: Duration::from_secs(1),
            cap: None
        }
    );
}

/// A loop in `go func() { .. }()` that hands nothing back is detached; one
/// that signals a `WaitGroup` is not.
#[test]
fn loops_in_goroutines_nobody_waits_on_are_detached() {
    let src = |done: &str| {
        format!(
            r#"package t
import "time"
func f(c *Client) {{
	go func() {{
		{done}
		for i := 0; i < 60; i++ {{
			if err := c.Send(); err == nil {{
				return
			}}
			time.Sleep(10 * time.Second)
		}}
	}}()
}}
"#
        )
    };
    let f = read(&src(""));
    assert_eq!(f.policies.len(), 1);
    assert!(f.policies[0].scope.detached);
    let f = read(&src("defer wg.Done()"));
    assert_eq!(f.policies.len(), 1);
    assert!(!f.policies[0].scope.detached);
}

/// grafana/loki 65e30f8488 `pkg/storage/chunk/client/aws/s3_storage_client.go`:
/// `opts.RetryMaxAttempts = 0 // We do our own retries` on an S3 client's
/// options leaves the SDK's default (aws-sdk-go-v2 ignores 0); a count
/// other than zero is the client's, and a `Retryer` of its own is read
/// where it is built, not as the loaded configuration's default.
#[test]
fn aws_service_client_options() {
    let file = |body: &str| {
        read(&format!(
            r#"package aws
import (
    "context"
    "github.com/aws/aws-sdk-go-v2/aws"
    v2config "github.com/aws/aws-sdk-go-v2/config"
    "github.com/aws/aws-sdk-go-v2/service/s3"
)
func build(ctx context.Context) (*s3.Client, error) {{
    cfg, err := v2config.LoadDefaultConfig(ctx)
    if err != nil {{
        return nil, err
    }}
    return s3.NewFromConfig(cfg, options()), nil
}}
func options() func(*s3.Options) {{
    return func(opts *s3.Options) {{
        {body}
        opts.UsePathStyle = true
    }}
}}
"#
        ))
    };
    let zero = file("opts.RetryMaxAttempts = 0 // We do our own retries");
    assert_eq!(zero.policies.len(), 1);
    let p = &zero.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(p.attempts.provenance, Provenance::Default);
    assert!(
        p.attempts
            .value
            .written_as
            .contains("`RetryMaxAttempts = 0`"),
        "{}",
        p.attempts.value.written_as
    );
    let five = file("opts.RetryMaxAttempts = 5");
    assert_eq!(
        five.policies[0].attempts.value.count,
        AttemptCount::Finite(5)
    );
    assert_eq!(five.policies[0].attempts.provenance, Provenance::Written);
    let nop = file("opts.Retryer = aws.NopRetryer{}");
    assert!(nop.policies.is_empty(), "{:?}", nop.policies.len());
    let plain = file("");
    assert!(
        !plain.policies[0]
            .attempts
            .value
            .written_as
            .contains("RetryMaxAttempts")
    );
}

/// A `range` naming a key and a value walks a slice, a map or a string:
/// never a count, even where the file gives the ranged field a number as
/// its default (Go ranges over an integer with one name at most), and the
/// pruner blanks such a loop's function whatever its error path does; a
/// `for range n` over the same field stays a counted retry, read the same
/// pruned or not.
#[test]
fn a_range_with_two_names_is_no_count() {
    let src = |head: &str| {
        format!(
            r#"package t
func (s *S) setDefaults() {{
	if s.cfg.Items == 0 {{
		s.cfg.Items = 3
	}}
}}
func (s *S) send() error {{
	var err error
	{head} {{
		if err = s.c.Send(); err != nil {{
			continue
		}}
		return nil
	}}
	return err
}}
"#
        )
    };
    let pairs = src("for _, x := range s.cfg.Items");
    let count = src("for range s.cfg.Items");
    assert!(
        read(&pairs).policies.is_empty(),
        "{:#?}",
        read(&pairs).policies
    );
    assert_eq!(
        read(&count).policies.len(),
        1,
        "{:#?}",
        read(&count).policies
    );
    let send = |t: &str| {
        t.find("func (s *S) send")
            .map(|i| t[i..].find('{').unwrap_or(0) + i + 1)
    };
    let blanked_send = |t: &str| {
        prune::blanked(t).is_some_and(|(_, bodies)| bodies.iter().any(|b| Some(b.start) == send(t)))
    };
    assert!(blanked_send(&pairs));
    assert!(!blanked_send(&count));
    for t in [&pairs, &count] {
        let (mut a, mut b) = (Facts::default(), Facts::default());
        extract_with(t, &mut a, true);
        extract_with(t, &mut b, false);
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
}
