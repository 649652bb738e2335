//! Go retry libraries and hand-written retry loops: what each system is
//! (label, layer, fix texts) and its defaults, each constant with the
//! upstream source it was checked against. The reader is [`extract`].

pub mod extract;

use super::{Fixes, SystemSpec};
use crate::model::Layer;
use std::time::Duration;

// ---------------------------------------------------------------------------
// go-retryablehttp (https://github.com/hashicorp/go-retryablehttp,
// `client.go`, v0.7.8): `NewClient()` sets `RetryWaitMin:
// defaultRetryWaitMin`, `RetryWaitMax: defaultRetryWaitMax`, `RetryMax:
// defaultRetryMax`, `CheckRetry: DefaultRetryPolicy`, `Backoff:
// DefaultBackoff` and `HTTPClient: cleanhttp.DefaultPooledClient()`, an
// `http.Client` without `Timeout` (https://github.com/hashicorp/go-cleanhttp,
// `cleanhttp.go` `DefaultPooledClient`, read in a code search of its
// source, version not pinned).
//
// `baseRetryPolicy` retries every transport error but redirects, scheme,
// header and certificate errors, 429, and status 0 and 500..=599 except
// 501; every method. `DefaultBackoff` returns `min x 2^attempt` up to
// `max`, no jitter, except that on 429 and 503 with a parseable
// `Retry-After` it returns that value as it is: not capped by
// `RetryWaitMax`, no jitter. `RateLimitLinearJitterBackoff` does the same
// before `LinearJitterBackoff` (`min..max` at random x attempt).

/// `defaultRetryMax = 4`: retries, so 5 attempts.
pub const RETRYABLEHTTP_RETRY_MAX: u64 = 4;
/// `defaultRetryWaitMin = 1 * time.Second`.
pub const RETRYABLEHTTP_WAIT_MIN: Duration = Duration::from_secs(1);
/// `defaultRetryWaitMax = 30 * time.Second`.
pub const RETRYABLEHTTP_WAIT_MAX: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------------------
// cenkalti/backoff (https://github.com/cenkalti/backoff): v4 (`v4` branch,
// v4.3.0) `exponential.go`: `DefaultInitialInterval = 500 *
// time.Millisecond`, `DefaultRandomizationFactor = 0.5`,
// `DefaultMultiplier = 1.5`, `DefaultMaxInterval = 60 * time.Second`,
// `DefaultMaxElapsedTime = 15 * time.Minute` (`MaxElapsedTime = 0` never
// stops); `Retry(op, b)` retries every error but `*PermanentError` until
// `b` says `Stop`; `WithMaxRetries(b, n)` stops after n retries;
// `NewConstantBackOff(d)` never stops. v5 (`/v5`, `retry.go` as read in a code search; the stored
// mirror has no v5 branch):
// `Retry(ctx, op, opts...)` with `WithBackOff`, `WithMaxTries` (attempts,
// 0 = none) and `WithMaxElapsedTime` (default `DefaultMaxElapsedTime`);
// `exponential.go` keeps the same interval defaults but no elapsed time.
// `DefaultMaxElapsedTime` by version, each read in its own `retry.go`:
// v5.0.3 `15 * time.Minute` (vendored by kubernetes/kubernetes at
// fde22c3f9aacfd260225a9741de123a41157b7c0,
// `vendor/github.com/cenkalti/backoff/v5/retry.go`, its
// `vendor/modules.txt` naming v5.0.3); v6 and v7 `15 * time.Minute`
// (vendored by grafana/beyla at 0491edcc42c8473c901b2828ad6676af7bebc1a4
// and 6d5950eb4e6e6a27645e93e4156d236c11ed7da7). v5.0.0 to v5.0.2: no
// tagged source was found (a stored `retry.go` with `1 * time.Minute`
// names no repository or version; cenkalti/backoff issue #159, 2025-02,
// quotes 15 minutes at b7359dcd), so their default is left unknown, not
// guessed; so is a v5 whose version no `go.mod` gives.

/// `DefaultInitialInterval = 500 * time.Millisecond`.
pub const BACKOFF_INITIAL: Duration = Duration::from_millis(500);
/// `DefaultRandomizationFactor = 0.5`: each wait is uniform in `[d x 0.5,
/// d x 1.5]`.
pub const BACKOFF_RANDOMIZATION: f64 = 0.5;
/// `DefaultMultiplier = 1.5`.
pub const BACKOFF_MULTIPLIER: f64 = 1.5;
/// `DefaultMaxInterval = 60 * time.Second`.
pub const BACKOFF_MAX_INTERVAL: Duration = Duration::from_secs(60);
/// v4 `DefaultMaxElapsedTime = 15 * time.Minute`.
pub const BACKOFF_V4_MAX_ELAPSED: Duration = Duration::from_secs(15 * 60);
/// v5.0.3 `retry.go` `DefaultMaxElapsedTime = 15 * time.Minute`.
pub const BACKOFF_V5_MAX_ELAPSED: Duration = Duration::from_secs(15 * 60);
/// The first v5 release whose `retry.go` was read (v5.0.3, as `major x
/// 1e6 + minor x 1e3 + patch`): later ones are taken to keep its default,
/// as v6 and v7 do.
pub const BACKOFF_V5_MAX_ELAPSED_FROM: f64 = 5_000_003.0;
/// v6 and v7 `retry.go` `DefaultMaxElapsedTime = 15 * time.Minute`.
pub const BACKOFF_V6_MAX_ELAPSED: Duration = Duration::from_secs(15 * 60);

// ---------------------------------------------------------------------------
// avast/retry-go (https://github.com/avast/retry-go, `options.go`, v4.6 and
// v5.0.0): `attempts: uint(10)`, `delay: 100 * time.Millisecond`,
// `maxJitter: 100 * time.Millisecond`, `retryIf: IsRecoverable` (every
// error but `Unrecoverable(err)`), `delayType: CombineDelay(BackOffDelay,
// RandomDelay)`: `delay << (n-1)` plus a random wait below `maxJitter`, no
// cap unless `MaxDelay`. `Attempts(0)` and `UntilSucceeded()` never stop.

/// `attempts: uint(10)` (attempts, the first included).
pub const RETRY_GO_ATTEMPTS: u64 = 10;
/// `delay: 100 * time.Millisecond`.
pub const RETRY_GO_DELAY: Duration = Duration::from_millis(100);

// ---------------------------------------------------------------------------
// sethvargo/go-retry (https://github.com/sethvargo/go-retry, v0.3.0):
// `retry.Do(ctx, b, f)` retries only errors wrapped by
// `RetryableError(err)`, until `b` stops; `NewExponential(base)` doubles
// from `base` (`backoff_exponential.go`), `NewConstant(d)`,
// `NewFibonacci(base)`; none stops or jitters by itself: `WithMaxRetries`,
// `WithMaxDuration`, `WithCappedDuration`, `WithJitter`,
// `WithJitterPercent` (`backoff.go`) wrap it.

// ---------------------------------------------------------------------------
// client-go (https://github.com/kubernetes/client-go, `util/retry/util.go`
// at 32ce75a7, 2026-07-24): `retry.OnError(backoff, retriable, fn)` and
// `RetryOnConflict(backoff, fn)` run `wait.ExponentialBackoff`, which
// tries `Steps` times, waiting `Duration x Factor^n` (up to `Cap`), each
// wait plus up to `Jitter x` itself at random
// (https://github.com/kubernetes/apimachinery at eed236ce, 2026-07-23,
// v0.36 line: `pkg/util/wait/backoff.go` `delay()` adds jitter only when
// `jitter > 0`, so a `wait.Backoff` without `Jitter` (Go's zero value)
// has none; `wait.go` `Jitter(d, f)` returns `d + rand x f x d`,
// modelled as a proportional jitter of `Jitter / 2` around the mean;
// `Factor` 0 keeps the duration, `Cap` 0 is no cap; `ExponentialBackoff`
// and `ExponentialBackoffWithContext` loop `for backoff.Steps > 0`, so
// without `Steps` the condition never runs).

/// `DefaultRetry = wait.Backoff{Steps: 5, Duration: 10 * time.Millisecond,
/// Factor: 1.0, Jitter: 0.1}`.
pub const CLIENT_GO_DEFAULT_RETRY: (u64, Duration, f64, f64) =
    (5, Duration::from_millis(10), 1.0, 0.1);
/// `DefaultBackoff = wait.Backoff{Steps: 4, Duration: 10 *
/// time.Millisecond, Factor: 5.0, Jitter: 0.1}`.
pub const CLIENT_GO_DEFAULT_BACKOFF: (u64, Duration, f64, f64) =
    (4, Duration::from_millis(10), 5.0, 0.1);

// ---------------------------------------------------------------------------
// IBM/sarama (https://github.com/IBM/sarama at bd98b3ae, 2026-08-18),
// `config.go` `NewConfig()`: `c.Producer.Retry.Max = 3`,
// `c.Producer.Retry.Backoff = 100 * time.Millisecond`, `c.Net.DialTimeout
// = 30 * time.Second`, `c.Net.ReadTimeout = 30 * time.Second`,
// `c.Net.WriteTimeout = 30 * time.Second`, `c.Producer.Timeout = 10 *
// time.Second` (how long the broker waits for the replicas' acks),
// `c.Metadata.Retry.Max = 3`, `c.Metadata.Retry.Backoff = 250 *
// time.Millisecond`, `c.Consumer.Retry.Backoff = 2 * time.Second`
// (`Consumer.Retry.Max` 0: a partition consumer retries for ever).
// `async_producer.go` `backoff(retries)`: `Producer.Retry.BackoffFunc`
// when set, else `Producer.Retry.Backoff` as it is, no jitter; a message
// is retried on a connection error and on the answers
// `ErrInvalidMessage`, `ErrUnknownTopicOrPartition`,
// `ErrLeaderNotAvailable`, `ErrNotLeaderForPartition`,
// `ErrRequestTimedOut`, `ErrNotEnoughReplicas`,
// `ErrNotEnoughReplicasAfterAppend`, `ErrKafkaStorageError`; `broker.go`
// `write` sets a write deadline of `Net.WriteTimeout` and `readFull` a
// read deadline of `Net.ReadTimeout` on each request (`Net.DialTimeout`
// bounds only opening a connection). `c.Producer.Idempotent` is false by
// default: a retried batch the broker already appended is appended again
// (the idempotent producer's sequence numbers, `async_producer.go`, are
// what lets the broker drop it); with `RequiredAcks = NoResponse`
// `handleSuccess` gets no response and takes the batch as sent. A `nil`
// config is `NewConfig()` (`client.go` `NewClient`).

/// `c.Producer.Retry.Max = 3`: retries, so 4 attempts.
pub const SARAMA_PRODUCER_RETRY_MAX: u64 = 3;
/// `c.Producer.Retry.Backoff = 100 * time.Millisecond`.
pub const SARAMA_PRODUCER_RETRY_BACKOFF: Duration = Duration::from_millis(100);
/// `c.Net.ReadTimeout = 30 * time.Second`.
pub const SARAMA_NET_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// `c.Net.WriteTimeout = 30 * time.Second`.
pub const SARAMA_NET_WRITE_TIMEOUT: Duration = Duration::from_secs(30);

// segmentio/kafka-go (https://github.com/segmentio/kafka-go, commit
// 3ce2979, `writer.go`): `Writer.maxAttempts()` is `MaxAttempts` when
// above 0, else 10 (attempts: `writeBatch` loops `attempt <
// maxAttempts`); before attempt n (from 1) it sleeps `backoff(n,
// writeBackoffMin(), writeBackoffMax())` = n x n x min, at most max
// (`dialer.go`), min 100 ms and max 1 s unless set, no jitter; it goes
// round only on `isTemporary(err) || isTransientNetworkError(err)`
// (`error.go`: the Kafka errors whose `Temporary()` is true,
// RequestTimedOut among them, and unexpected EOF, ECONNREFUSED,
// ECONNRESET, EPIPE). `readTimeout()` and `writeTimeout()` are 10 s
// unless set. A `Writer{}`'s `RequiredAcks` is `RequireNone` (no answer
// is waited for); `NewWriter(WriterConfig{..})` makes a 0 `RequireAll`.

/// `Writer.maxAttempts()`'s default: 10 attempts.
pub const KAFKA_GO_MAX_ATTEMPTS: u64 = 10;
/// `Writer.writeBackoffMin()`'s default: the wait before retry n is n x
/// n x this (`dialer.go` `backoff`).
pub const KAFKA_GO_WRITE_BACKOFF_MIN: Duration = Duration::from_millis(100);
/// `Writer.writeBackoffMax()`'s default: the longest wait.
pub const KAFKA_GO_WRITE_BACKOFF_MAX: Duration = Duration::from_secs(1);
/// `Writer.readTimeout()`'s default.
pub const KAFKA_GO_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// `Writer.writeTimeout()`'s default.
pub const KAFKA_GO_WRITE_TIMEOUT: Duration = Duration::from_secs(10);

// jpillora/backoff (https://github.com/jpillora/backoff, commit fab01a9,
// `backoff.go`): `Backoff.Duration()` returns `ForAttempt(n)` for n = 0,
// 1, ..: `Min x Factor^n`, a zero `Min` being 100 ms, a zero `Max` 10 s
// and a zero `Factor` 2; with `Jitter` (false unless set) the value is
// drawn uniformly in `[Min, Min x Factor^n]` and only then held within
// `[Min, Max]`, so the cap is applied after the randomisation.

/// `Backoff.Min`'s default (a zero `Min`).
pub const JPILLORA_MIN: Duration = Duration::from_millis(100);
/// `Backoff.Max`'s default (a zero `Max`).
pub const JPILLORA_MAX: Duration = Duration::from_secs(10);
/// `Backoff.Factor`'s default (a zero `Factor`).
pub const JPILLORA_FACTOR: f64 = 2.0;

// ---------------------------------------------------------------------------
// Descriptors.

pub static RETRYABLEHTTP: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `Backoff = retryablehttp.LinearJitterBackoff` or a custom `Backoff` that adds jitter: `DefaultBackoff` has none",
        bound: "set `RetryMax` to a small number (3 to 5)",
        predicate: "set `CheckRetry` to a policy that retries only transient failures (connection errors, 429, 502, 503, 504)",
        explicit: "set `RetryMax`, `RetryWaitMin`, `RetryWaitMax` and `HTTPClient.Timeout` explicitly",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("go-retryablehttp", Layer::Application)
};

pub static BACKOFF: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "keep `RandomizationFactor` above 0 (its default is 0.5)",
        bound: "wrap the backoff in `backoff.WithMaxRetries(b, n)` or keep `MaxElapsedTime` above 0 (v5: pass `backoff.WithMaxTries(n)`)",
        predicate: "return `backoff.Permanent(err)` for errors a retry cannot fix",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("cenkalti/backoff", Layer::Application)
};

pub static RETRY_GO: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "keep `retry.DelayType(retry.CombineDelay(retry.BackOffDelay, retry.RandomDelay))` with a `retry.MaxJitter` near the delay",
        bound: "pass `retry.Attempts(n)` with a small n (not 0, and no `retry.UntilSucceeded()`)",
        predicate: "pass `retry.RetryIf(..)` naming the transient errors, or wrap the others in `retry.Unrecoverable(err)`",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("retry-go", Layer::Application)
};

pub static GO_RETRY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "wrap the backoff in `retry.WithJitterPercent(..)` (or `retry.WithJitter`)",
        bound: "wrap the backoff in `retry.WithMaxRetries(n, b)` or `retry.WithMaxDuration(d, b)`",
        predicate: "wrap only transient errors in `retry.RetryableError(err)`",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("sethvargo/go-retry", Layer::Application)
};

pub static CLIENT_GO: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `Jitter` in the `wait.Backoff` (e.g. `0.1` or more)",
        bound: "set `Steps` in the `wait.Backoff` to a small number",
        predicate: "pass `retry.OnError` a `retriable` func that names the transient errors",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("client-go retry", Layer::Application)
};

pub static SARAMA: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `Producer.Retry.BackoffFunc` to a func that grows the wait and adds jitter: `Producer.Retry.Backoff` is the same wait every time",
        bound: "keep `Producer.Retry.Max` small (its default is 3)",
        explicit: "set `Producer.Retry.Max`, `Producer.Retry.Backoff` (or `BackoffFunc`) and `Net.ReadTimeout` explicitly",
        overload: "keep `Producer.Retry.Max` small and set `Producer.Retry.BackoffFunc` to a growing, jittered wait: sarama has no retry budget, and a broker that answers `REQUEST_TIMED_OUT` is short of time already",
        idempotent: "set `Producer.Idempotent = true` (with `Net.MaxOpenRequests = 1` and `Producer.RequiredAcks = sarama.WaitForAll`): the broker then drops a retried batch it already appended; or set `Producer.Retry.Max = 0` and handle a failed send yourself",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("sarama", Layer::Application)
};

pub static KAFKA_GO: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "keep `MaxAttempts` small (its default is 10 attempts)",
        explicit: "set `MaxAttempts`, `WriteBackoffMin`, `WriteBackoffMax` and `ReadTimeout` on the `kafka.Writer` explicitly",
        idempotent: "set `MaxAttempts: 1` and handle a failed write yourself (kafka-go has no idempotent producer: a retried batch the broker already appended is appended again), or deduplicate on the consumer's side by a key of the message",
        jitter: "the `kafka.Writer` has no jitter setting: set `MaxAttempts: 1` and retry `WriteMessages` with a jittered backoff of your own (cenkalti/backoff's `NewExponentialBackOff()` randomises by default)",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("kafka-go Writer", Layer::Application)
};

pub static GO_LOOP: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: super::java::LOOP_BOUND,
        predicate: "retry only transient errors (a timeout, a refused connection, a 503); return the others at once",
        ..Fixes::GENERIC
    },
    loop_body: true,
    ..SystemSpec::plain("Go retry loop", Layer::Application)
};

pub static OTHER: SystemSpec = SystemSpec::plain("Go library", Layer::Application);

/// Go is source, read by file: no YAML/JSON document reader.
pub const DOC_READERS: &[crate::extract::DocReader] = &[];

/// The descriptor of the Go library `name`, as the reader names it.
pub fn lib_spec(name: &str) -> &'static SystemSpec {
    match name {
        "go-retryablehttp" => &RETRYABLEHTTP,
        "backoff" => &BACKOFF,
        "retry-go" => &RETRY_GO,
        "go-retry" => &GO_RETRY,
        "client-go" => &CLIENT_GO,
        "sarama" => &SARAMA,
        "kafka-go" => &KAFKA_GO,
        "loop" => &GO_LOOP,
        _ => &OTHER,
    }
}

/// The label of the Go library `name` in messages.
pub fn lib_label(name: &str) -> String {
    match lib_spec(name) {
        s if std::ptr::eq(s, &OTHER) => name.to_string(),
        s => s.label.to_string(),
    }
}
