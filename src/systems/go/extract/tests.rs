use super::*;
use crate::model::{AttemptCount, Delay, Jitter, Provenance, System, Timeout};
use std::time::Duration;

fn read(src: &str) -> Facts {
    let mut f = Facts::default();
    extract(src, &mut f);
    f
}

#[test]
fn retryablehttp_defaults_and_fields() {
    let f = read(
        r#"package main
import (
    "time"
    rh "github.com/hashicorp/go-retryablehttp"
)
func main() {
    c := rh.NewClient()
    c.RetryMax = 2
    c.RetryWaitMax = 5 * time.Second
    c.HTTPClient.Timeout = 3 * time.Second
    c.Get("http://orders:8080/x")
}
"#,
    );
    assert_eq!(f.policies.len(), 1);
    let p = &f.policies[0];
    assert_eq!(p.system, System::GoLib("go-retryablehttp".into()));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(5))
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(3))
    );
    let d = p.server_delay.as_ref().unwrap();
    assert!(!d.value.capped && !d.value.jittered);
    assert_eq!(f.edges.len(), 1);
    assert_eq!(f.edges[0].callee, "orders");
    assert_eq!(f.edges[0].policies, vec![0]);
}

#[test]
fn retryablehttp_linear_jitter_ignores_retry_after() {
    let f = read(
        r#"package main
import "github.com/hashicorp/go-retryablehttp"
func main() {
    c := retryablehttp.NewClient()
    c.Backoff = retryablehttp.LinearJitterBackoff
}
func custom(policy retryablehttp.CheckRetry) {
    c := retryablehttp.NewClient()
    c.Backoff = retryablehttp.LinearJitterBackoff
    c.CheckRetry = policy
}
"#,
    );
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    // The default CheckRetry retries 429 and 503, whose `Retry-After`
    // `LinearJitterBackoff` never reads.
    let d = p.server_delay.as_ref().expect("read");
    assert!(d.value.ignored.is_some());
    assert!(matches!(p.jitter.value, Jitter::Proportional { .. }));
    // A CheckRetry not known here may not retry them.
    assert!(f.policies[1].server_delay.is_none());
}

#[test]
fn cenkalti_v4_and_v5() {
    let f = read(
        r#"package main
import (
    "time"
    "github.com/cenkalti/backoff/v4"
)
func run() error {
    b := backoff.NewExponentialBackOff()
    b.MaxElapsedTime = 0
    b.InitialInterval = 2 * time.Second
    return backoff.Retry(op, backoff.WithMaxRetries(b, 3))
}
func forever() error {
    return backoff.Retry(op, backoff.NewConstantBackOff(time.Second))
}
"#,
    );
    assert_eq!(f.policies.len(), 2);
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(4));
    assert!(
        matches!(f.policies[0].delay.value, Delay::Exponential { base, .. } if base == Duration::from_secs(2))
    );
    assert_eq!(f.policies[1].attempts.value.count, AttemptCount::Unbounded);
    assert_eq!(
        f.policies[1].overall_timeout.as_ref().unwrap().value,
        Timeout::Disabled
    );
    let f = read(
        r#"package main
import "github.com/cenkalti/backoff/v5"
func run(ctx context.Context) error {
    _, err := backoff.Retry(ctx, op, backoff.WithMaxTries(4))
    return err
}
"#,
    );
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(4));
    // v5's elapsed-time default depends on the module version, which no
    // `go.mod` gives a file read alone (`tests_shapes` gives one).
    assert_eq!(
        f.policies[0].overall_timeout.as_ref().unwrap().value,
        Timeout::Unknown
    );
}

#[test]
fn retry_go_go_retry_client_go() {
    let f = read(
        r#"package main
import (
    "time"
    "github.com/avast/retry-go/v4"
    goretry "github.com/sethvargo/go-retry"
    "k8s.io/client-go/util/retry"
    "k8s.io/apimachinery/pkg/util/wait"
)
func a() error {
    return retry.Do(op, retry.Attempts(3), retry.Delay(time.Second))
}
func b(ctx context.Context) error {
    bo := goretry.NewExponential(time.Second)
    bo = goretry.WithMaxRetries(5, bo)
    return goretry.Do(ctx, bo, op)
}
"#,
    );
    assert_eq!(f.policies.len(), 2);
    assert_eq!(f.policies[0].system, System::GoLib("retry-go".into()));
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(f.policies[1].attempts.value.count, AttemptCount::Finite(6));
    let f = read(
        r#"package main
import (
    "time"
    "k8s.io/client-go/util/retry"
    "k8s.io/apimachinery/pkg/util/wait"
)
func a() error {
    return retry.RetryOnConflict(retry.DefaultRetry, func() error { return nil })
}
func b() error {
    return retry.OnError(wait.Backoff{Steps: 10, Duration: time.Second, Factor: 2}, isTransient, op)
}
"#,
    );
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(
        f.policies[0].delay.value,
        Delay::Fixed {
            delay: Duration::from_millis(10)
        }
    );
    // `DefaultRetry`'s `Jitter: 0.1` goes through `wait.Jitter`: up to
    // 10% added, never taken off.
    assert_eq!(f.policies[0].jitter.value, Jitter::Added { factor: 0.1 });
    assert_eq!(f.policies[1].attempts.value.count, AttemptCount::Finite(10));
    assert_eq!(f.policies[1].jitter.value, Jitter::None);
}

#[test]
fn loop_with_retry_after_and_http_calls() {
    let f = read(
        r#"package main
import (
    "net/http"
    "strconv"
    "time"
)
func get() error {
    for i := 0; i < 5; i++ {
        resp, err := http.Get("http://billing:9000/invoices")
        if err == nil && resp.StatusCode < 300 {
            return nil
        }
        s, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
        time.Sleep(time.Duration(s) * time.Second)
    }
    return nil
}
"#,
    );
    assert_eq!(f.policies.len(), 1);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(p.per_try_timeout.as_ref().unwrap().value, Timeout::Disabled);
    let d = p.server_delay.as_ref().unwrap();
    assert!(!d.value.capped);
    assert_eq!(f.edges[0].callee, "billing");
}

#[test]
fn default_names_of_packages() {
    assert_eq!(
        default_name("github.com/hashicorp/go-retryablehttp"),
        "retryablehttp"
    );
    assert_eq!(default_name("github.com/avast/retry-go/v4"), "retry");
    assert_eq!(default_name("github.com/cenkalti/backoff/v5"), "backoff");
    assert_eq!(default_name("github.com/satori/go.uuid"), "uuid");
}

#[test]
fn aws_sdk_go_v2_retryers() {
    let f = read(
        r#"package main
import (
    "time"
    "github.com/aws/aws-sdk-go-v2/aws"
    "github.com/aws/aws-sdk-go-v2/aws/retry"
    "github.com/aws/aws-sdk-go-v2/config"
)
func a(ctx context.Context) {
    cfg, _ := config.LoadDefaultConfig(ctx, config.WithRetryMaxAttempts(8), config.WithRetryMode(aws.RetryModeAdaptive))
    _ = cfg
}
func b() aws.Retryer {
    return retry.AddWithMaxBackoffDelay(retry.AddWithMaxAttempts(retry.NewStandard(), 5), 30*time.Second)
}
func c() aws.Retryer {
    return retry.NewStandard(func(o *retry.StandardOptions) {
        o.MaxAttempts = 2
    })
}
func d(ctx context.Context) {
    cfg, _ := config.LoadDefaultConfig(ctx, config.WithRegion("eu-west-1"))
    _ = cfg
}
"#,
    );
    let n: Vec<AttemptCount> = f.policies.iter().map(|p| p.attempts.value.count).collect();
    assert_eq!(
        n,
        vec![
            AttemptCount::Finite(8),
            AttemptCount::Finite(5),
            AttemptCount::Finite(2),
            // `d`: no retry option, the SDK's standard mode by default.
            AttemptCount::Finite(3)
        ]
    );
    assert_eq!(f.policies[3].attempts.provenance, Provenance::Default);
    assert!(matches!(
        f.policies[1].delay.value,
        Delay::Exponential { cap: Some(c), .. } if c == Duration::from_secs(30)
    ));
    assert_eq!(f.policies[0].system, System::AwsSdk);
}

/// `WithRetryMode` writes the mode, and with it the mode's attempts and
/// quota, as a profile's `retry_mode` does.
#[test]
fn aws_retry_mode_is_written() {
    let f = read(
        r#"package main
import (
    "github.com/aws/aws-sdk-go-v2/aws"
    "github.com/aws/aws-sdk-go-v2/config"
)
func a(ctx context.Context) {
    cfg, _ := config.LoadDefaultConfig(ctx, config.WithRetryMode(aws.RetryModeAdaptive))
    _ = cfg
}
func b(ctx context.Context) {
    cfg, _ := config.LoadDefaultConfig(ctx, config.WithRetryMode("standard"))
    _ = cfg
}
func c(ctx context.Context, m aws.RetryMode) {
    cfg, _ := config.LoadDefaultConfig(ctx, config.WithRetryMode(m))
    _ = cfg
}
"#,
    );
    let p: Vec<(Provenance, &str)> = f
        .policies
        .iter()
        .map(|p| (p.attempts.provenance, p.attempts.value.written_as.as_str()))
        .collect();
    assert_eq!(p.len(), 3, "{p:?}");
    assert_eq!(p[0].0, Provenance::Written);
    assert!(p[0].1.contains("WithRetryMode(adaptive)"), "{p:?}");
    assert!(f.policies[0].why.iter().any(|w| w.contains("rate limiter")));
    assert_eq!(p[1].0, Provenance::Written);
    assert!(p[1].1.contains("WithRetryMode(standard)"), "{p:?}");
    assert_eq!(
        f.policies[1].budget.as_ref().map(|b| b.provenance),
        Some(Provenance::Written)
    );
    // A mode not known here: the attempts stay the default.
    assert_eq!(p[2].0, Provenance::Default);
}

/// Struct fields filled from the environment (open-telemetry/opentelemetry-demo
/// checkout): `mustMapEnv(&svc.addr, "X")` with a helper of the file storing
/// `os.Getenv(key)` through its pointer, `svc.addr = os.Getenv("X")`, then
/// the field dialed through a helper's parameter or joined into a URL in a
/// method whose receiver is named otherwise.
#[test]
fn struct_fields_from_the_environment_are_env_targets() {
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/graph/go-struct-field-env/checkout/main.go"),
    )
    .unwrap();
    for prune in [true, false] {
        let mut f = Facts::default();
        extract_with(&src, &mut f, prune);
        let mut written: Vec<&str> = f.unresolved.iter().map(|u| u.written.as_str()).collect();
        written.sort();
        assert_eq!(
            written,
            ["env KAFKA_ADDR", "env PAYMENT_ADDR", "env SHIPPING_ADDR"],
            "prune {prune}"
        );
        // The dial's service config goes with the call through the helper.
        let payment = f
            .unresolved
            .iter()
            .find(|u| u.written == "env PAYMENT_ADDR")
            .unwrap();
        assert_eq!(payment.policies.len(), 1, "prune {prune}");
    }
}

/// A field set from the environment, or a helper's caller, inside a body
/// the pruned parse blanks (no reader word in it): the file is read whole
/// and the target is the same either way.
#[test]
fn env_fields_and_helper_callers_in_blanked_bodies_are_read() {
    let src = r#"package main

import (
	"net/http"
	"os"
)

type client struct{ addr string }

func main() {
	c := &client{}
	c.addr = os.Getenv("ORDERS_ADDR")
	println("starting the client now, with its address taken from the environment")
	dial(os.Getenv("USERS_ADDR"))
}

func dial(target string) {
	http.Get(target)
}

func (c *client) get() {
	http.Get("http://" + c.addr + "/x")
}
"#;
    for prune in [true, false] {
        let mut f = Facts::default();
        extract_with(src, &mut f, prune);
        let mut written: Vec<&str> = f.unresolved.iter().map(|u| u.written.as_str()).collect();
        written.sort();
        assert_eq!(
            written,
            ["env ORDERS_ADDR", "env USERS_ADDR"],
            "prune {prune}"
        );
    }
}

/// A sarama consumer (or client) calls its brokers: a Kafka edge with no
/// retry policy of its own (a partition consumer's fetch retried every
/// `Consumer.Retry.Backoff` for ever is a poll, not a retry of a request
/// anyone waits for: docs/go-review.md, seventh pass).
#[test]
fn sarama_consumers_call_their_brokers() {
    let f = read(
        r#"package notify

import "github.com/IBM/sarama"

func Consume() error {
	cfg := sarama.NewConfig()
	c, err := sarama.NewConsumer([]string{"kafka-0.kafka:9092"}, cfg)
	if err != nil {
		return err
	}
	g, err := sarama.NewConsumerGroup([]string{"kafka-1.kafka:9092"}, "notify", cfg)
	_ = g
	_ = c
	return err
}
"#,
    );
    assert!(f.policies.is_empty(), "{:#?}", f.policies);
    let edges: Vec<(&str, bool, Option<crate::model::calls::Protocol>)> = f
        .edges
        .iter()
        .map(|e| (e.callee.as_str(), e.policies.is_empty(), e.protocol))
        .collect();
    assert_eq!(
        edges,
        [
            ("kafka-0", true, Some(crate::model::calls::Protocol::Kafka)),
            ("kafka-1", true, Some(crate::model::calls::Protocol::Kafka)),
        ]
    );
}

/// What the index walk records and the ids it compares are what the tree
/// says, on every Go file of the fixtures and the shared corpus: each
/// node's parent is `Node::parent`, the calls and import specs are the
/// nodes of those kinds in order, a kind id matches exactly where the
/// kind's name does, and a field by id is the field by name.
#[test]
fn the_index_and_ids_agree_with_the_tree() {
    let mut roots = vec![std::path::PathBuf::from("testdata")];
    let shared = std::path::PathBuf::from("../shared/corpus");
    if shared.is_dir() {
        roots.push(shared);
    }
    let files =
        crate::systems::read::files_under(&roots, |p| p.extension().is_some_and(|x| x == "go"));
    assert!(files.len() >= 15, "{}", files.len());
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let mut facts = Facts::default();
        let Some(tree) = crate::extract::tree_sitter::parse_source(
            tree_sitter_go::LANGUAGE.into(),
            &text,
            "Go",
            "build",
            NAME,
            &mut facts,
        ) else {
            continue;
        };
        let ctx = Ctx::new(&text, tree.root_node());
        assert_eq!(ctx.parents.len(), ctx.nodes.len());
        // The cursor walk finds the nodes asking each node for its named
        // children would, in the same order.
        let mut by_children = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            by_children.push(n);
            let mut c = n.walk();
            let from = stack.len();
            stack.extend(n.named_children(&mut c));
            stack[from..].reverse();
        }
        assert_eq!(ctx.nodes, by_children, "{}", f.display());
        for (i, &n) in ctx.nodes.iter().enumerate() {
            let parent = ctx.nodes.get(ctx.parents[i] as usize).copied();
            assert_eq!(
                parent,
                if i == 0 { None } else { n.parent() },
                "{}",
                f.display()
            );
            for (id, name) in [
                (KINDS.call_expression, "call_expression"),
                (KINDS.selector_expression, "selector_expression"),
                (KINDS.identifier, "identifier"),
                (KINDS.import_spec, "import_spec"),
                (KINDS.for_statement, "for_statement"),
                (KINDS.binds[0], "short_var_declaration"),
                (KINDS.binds[1], "assignment_statement"),
                (KINDS.binds[2], "var_spec"),
                (KINDS.binds[3], "const_spec"),
                (KINDS.functions[0], "function_declaration"),
                (KINDS.functions[1], "method_declaration"),
                (KINDS.functions[2], "func_literal"),
            ] {
                assert_eq!(
                    n.kind_id() == id,
                    n.kind() == name,
                    "{}: {}",
                    f.display(),
                    n.kind()
                );
            }
            for (name, _) in &KINDS.fields {
                assert_eq!(
                    field(n, name),
                    n.child_by_field_name(name),
                    "{}",
                    f.display()
                );
            }
            checked += 1;
        }
        let of = |kind: &str| -> Vec<Node<'_>> {
            ctx.nodes
                .iter()
                .copied()
                .filter(|n| n.kind() == kind)
                .collect()
        };
        assert_eq!(ctx.calls, of("call_expression"), "{}", f.display());
        assert_eq!(ctx.import_specs, of("import_spec"), "{}", f.display());
    }
    assert!(checked > 5_000, "{checked}");
}

/// segmentio/kafka-go: a writer is a Kafka edge to each broker with its
/// policy (10 attempts by default, `MaxAttempts` written; an `Async`
/// writer detached; a `WriteMessages` inside `retry.Do` adds that retry),
/// a reader an edge with none, brokers from the environment an `env X`
/// call (kafka-go 3ce2979 `writer.go`).
#[test]
fn kafka_go_writers_and_readers_call_their_brokers() {
    let f = read(
        r#"package events

import (
	"context"
	"os"
	"strings"

	"github.com/avast/retry-go"
	kafka "github.com/segmentio/kafka-go"
)

func Run(ctx context.Context, m kafka.Message) error {
	w := &kafka.Writer{Addr: kafka.TCP("kafka-0.kafka:9092"), MaxAttempts: 3, Async: true}
	audit := kafka.NewWriter(kafka.WriterConfig{Brokers: strings.Split(os.Getenv("KAFKA_BROKERS"), ",")})
	r := kafka.NewReader(kafka.ReaderConfig{Brokers: []string{"kafka-1.kafka:9092"}, Topic: "in"})
	_ = r
	_ = audit
	return retry.Do(func() error { return w.WriteMessages(ctx, m) }, retry.Attempts(2))
}
"#,
    );
    let kafka: Vec<&crate::model::RetryPolicy> = f
        .policies
        .iter()
        .filter(|p| p.system == System::GoLib("kafka-go".into()))
        .collect();
    assert_eq!(kafka.len(), 2, "{:#?}", f.policies);
    assert_eq!(kafka[0].attempts.value.count, AttemptCount::Finite(3));
    assert!(kafka[0].scope.detached);
    assert_eq!(kafka[1].attempts.value.count, AttemptCount::Finite(10));
    assert_eq!(kafka[1].attempts.provenance, Provenance::Default);
    assert_eq!(
        kafka[1].per_try_timeout.as_ref().map(|t| t.value),
        Some(Timeout::after(Duration::from_secs(20)))
    );
    let edges: Vec<(&str, usize)> = f
        .edges
        .iter()
        .map(|e| (e.callee.as_str(), e.policies.len()))
        .collect();
    // The writer's own policy and retry-go's around its write.
    assert_eq!(edges, [("kafka-0", 2), ("kafka-1", 0)]);
    assert!(
        f.edges
            .iter()
            .all(|e| e.protocol == Some(crate::model::calls::Protocol::Kafka))
    );
    let envs: Vec<(&str, usize)> = f
        .unresolved
        .iter()
        .map(|u| (u.written.as_str(), u.policies.len()))
        .collect();
    assert_eq!(envs, [("env KAFKA_BROKERS", 1)]);
}

/// kafka-go's wait before retry n is n x n x WriteBackoffMin, at most
/// WriteBackoffMax (100 ms and 1 s unless set; `dialer.go` `backoff`,
/// 3ce2979); fields set on the writer after it is made count (a zero
/// `RequiredAcks` set on a `NewWriter` writer asks no answer), and a
/// constant's value is read, not its name.
#[test]
fn kafka_go_writer_backoff_and_fields_set_later() {
    let f = read(
        r#"package events

import (
	"time"

	kafka "github.com/segmentio/kafka-go"
)

const noAcks = 0

func Writers() (*kafka.Writer, *kafka.Writer, *kafka.Writer) {
	a := &kafka.Writer{Addr: kafka.TCP("kafka-0.kafka:9092")}
	b := kafka.NewWriter(kafka.WriterConfig{Brokers: []string{"kafka-1.kafka:9092"}})
	b.MaxAttempts = 4
	b.WriteBackoffMin = 50 * time.Millisecond
	b.RequiredAcks = noAcks
	c := &kafka.Writer{Addr: kafka.TCP("kafka-2.kafka:9092"), RequiredAcks: kafka.RequireAll}
	c.WriteBackoffMax = 0
	return a, b, c
}
"#,
    );
    let kafka: Vec<&crate::model::RetryPolicy> = f
        .policies
        .iter()
        .filter(|p| p.system == System::GoLib("kafka-go".into()))
        .collect();
    assert_eq!(kafka.len(), 3, "{:#?}", f.policies);
    let ms = Duration::from_millis;
    assert_eq!(
        kafka[0].delay.value,
        Delay::Quadratic {
            base: ms(100),
            cap: Some(ms(1000))
        }
    );
    assert_eq!(kafka[0].delay.provenance, Provenance::Default);
    assert_eq!(kafka[1].attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        kafka[1].delay.value,
        Delay::Quadratic {
            base: ms(50),
            cap: Some(ms(1000))
        }
    );
    assert_eq!(kafka[1].delay.provenance, Provenance::Written);
    let answers = |p: &crate::model::RetryPolicy| {
        format!("{:?}", p.retry_on.value).contains("REQUEST_TIMED_OUT")
    };
    assert!(!answers(kafka[0]));
    assert!(!answers(kafka[1]), "{:?}", kafka[1].retry_on);
    assert!(answers(kafka[2]));
    // A zero WriteBackoffMax is the default 1 s.
    assert_eq!(
        kafka[2].delay.value,
        Delay::Quadratic {
            base: ms(100),
            cap: Some(ms(1000))
        }
    );
}

/// A viper key's value is the file's `SetDefault` of that key on the same
/// receiver (the package or a `viper.New()` instance); a key with no
/// default, or a default on another receiver, stays unknown.
#[test]
fn viper_keys_read_their_defaults() {
    let f = read(
        r#"package main

import (
	"time"

	rh "github.com/hashicorp/go-retryablehttp"
	"github.com/spf13/viper"
)

func clients() (*rh.Client, *rh.Client, *rh.Client) {
	v := viper.New()
	v.SetDefault("retry.max", 7)
	viper.SetDefault("http.timeout", 3*time.Second)
	viper.SetDefault("other.max", 9)
	a := rh.NewClient()
	a.RetryMax = v.GetInt("retry.max")
	a.HTTPClient.Timeout = viper.GetDuration("http.timeout")
	b := rh.NewClient()
	b.RetryMax = viper.GetInt("retry.max")
	c := rh.NewClient()
	c.RetryMax = v.GetInt("other.max")
	return a, b, c
}
"#,
    );
    let counts: Vec<AttemptCount> = f.policies.iter().map(|p| p.attempts.value.count).collect();
    assert_eq!(
        counts,
        [
            AttemptCount::Finite(8),
            AttemptCount::Unknown,
            AttemptCount::Unknown
        ]
    );
    assert_eq!(
        f.policies[0].per_try_timeout.as_ref().map(|t| t.value),
        Some(Timeout::after(Duration::from_secs(3)))
    );
}

/// A jpillora/backoff counter: its fields, its zero-value defaults (100
/// ms, 10 s, x2, no jitter) and the cap applied after the jitter.
#[test]
fn jpillora_backoff_counters_are_read() {
    let loop_with = |lit: &str| {
        read(&format!(
            "package p\nimport (\n\t\"time\"\n\t\"github.com/jpillora/backoff\"\n)\nfunc f(c *C) error {{\n\tb := &backoff.Backoff{{{lit}}}\n\tvar err error\n\tfor i := 0; i < 4; i++ {{\n\t\tif err = c.Send(); err == nil {{\n\t\t\treturn nil\n\t\t}}\n\t\twait := b.Duration()\n\t\ttime.Sleep(wait)\n\t}}\n\treturn err\n}}\n"
        ))
    };
    let f = loop_with("Min: 200 * time.Millisecond, Max: 2 * time.Second, Jitter: true");
    assert_eq!(f.policies.len(), 1, "{:?}", f.policies);
    let p = &f.policies[0];
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(200),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(2))
        }
    );
    assert_eq!(p.jitter.value, Jitter::Full);
    assert_eq!(p.cap_order, crate::model::CapOrder::AfterJitter);
    let f = loop_with("Factor: 3");
    let p = &f.policies[0];
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(100),
            multiplier: 3.0,
            cap: Some(Duration::from_secs(10))
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
    // A `Max` not known here: the shape is not.
    let f = loop_with("Max: cfg.MaxBackoff, Jitter: true");
    assert_eq!(f.policies[0].delay.value, Delay::Custom);
    assert_eq!(f.policies[0].jitter.value, Jitter::Full);
}

/// The kind names read from the table are `Node::kind`'s, for every node
/// of every Go file of the fixtures (named, anonymous and error nodes).
#[test]
fn kind_names_are_what_the_parser_names() {
    let files = crate::systems::read::files_under(&[std::path::PathBuf::from("testdata")], |p| {
        p.extension().is_some_and(|x| x == "go")
    });
    assert!(files.len() >= 15, "{}", files.len());
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .expect("go");
    let mut seen = 0usize;
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read");
        let tree = parser.parse(&text, None).expect("parsed");
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            assert_eq!(n.kind_name(), n.kind(), "{}", f.display());
            seen += 1;
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
    }
    assert!(seen > 1000, "{seen}");
}
