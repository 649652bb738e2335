//! Python retry libraries and hand-written retry loops: what each system
//! is (label, layer, fix texts) and its defaults, each constant with the
//! upstream source it was checked against. The reader is [`extract`].

pub mod extract;
pub mod link;

use super::{Fixes, SystemSpec};
use crate::model::Layer;
use std::time::Duration;

// ---------------------------------------------------------------------------
// tenacity (https://github.com/jd/tenacity, `tenacity/__init__.py`,
// `BaseRetrying.__init__`, 8.x and 9.x): `stop=stop_never`,
// `wait=wait_none()`, `retry=retry_if_exception_type()` (every
// `Exception`), `reraise=False`. A bare `@retry` retries every exception
// at once, for ever.

/// `tenacity/wait.py` `wait_exponential(multiplier=1, max=_utils.MAX_WAIT,
/// exp_base=2, min=0)`: the wait before retry n is `multiplier x
/// exp_base^(n-1)` clamped to `[min, max]`; `wait_random_exponential` takes
/// a uniform wait between `min` and that (full jitter).
pub const TENACITY_EXP_MULTIPLIER: f64 = 1.0;
pub const TENACITY_EXP_BASE: f64 = 2.0;
/// `wait_exponential_jitter(initial=1, max=_utils.MAX_WAIT, exp_base=2,
/// jitter=1)`: `initial x exp_base^(n-1) + uniform(0, jitter)`.
pub const TENACITY_EXP_JITTER_INITIAL: f64 = 1.0;
/// `wait_random(min=0, max=1)`.
pub const TENACITY_RANDOM_MAX: f64 = 1.0;

// ---------------------------------------------------------------------------
// backoff (https://github.com/litl/backoff, `backoff/_decorator.py`
// `on_exception(wait_gen, exception, *, max_tries=None, max_time=None,
// jitter=full_jitter, giveup=lambda e: False, ...)`, 2.2.1): no limit
// unless `max_tries` or `max_time`; full jitter by default.

/// `backoff/_wait_gen.py` `expo(base=2, factor=1, max_value=None)`: yields
/// `factor x base^n` for n = 0, 1, ... (the first wait is `factor`).
pub const BACKOFF_EXPO_BASE: f64 = 2.0;
pub const BACKOFF_EXPO_FACTOR: f64 = 1.0;
/// `constant(interval=1)`.
pub const BACKOFF_CONSTANT_INTERVAL: f64 = 1.0;
/// `fibo(max_value=None)`: 1, 1, 2, 3, 5 ... seconds, held at
/// `max_value` (litl/backoff 2.2.1 `backoff/_wait_gen.py`: `a = 1; b = 1`,
/// yield `a`, then `a, b = b, a + b`).
pub const BACKOFF_FIBO_START: f64 = 1.0;

// ---------------------------------------------------------------------------
// urllib3 `Retry` (https://github.com/urllib3/urllib3,
// `src/urllib3/util/retry.py`, 1.26 and 2.x): `Retry(total=10,
// connect=None, read=None, redirect=None, status=None, ...,
// backoff_factor=0, ...)`; `Retry.DEFAULT = Retry(3)`;
// `get_backoff_time()` is 0 for the first retry, then `backoff_factor x
// 2^(n-1)` (plus `random() x backoff_jitter` in 2.x), at most
// `DEFAULT_BACKOFF_MAX` (`BACKOFF_MAX` in 1.x) = 120 s.

/// `Retry(total=10)`: retries, so 11 attempts.
pub const URLLIB3_TOTAL: u64 = 10;
/// `DEFAULT_BACKOFF_MAX = 120` (1.x: `BACKOFF_MAX = 120`).
pub const URLLIB3_BACKOFF_MAX: Duration = Duration::from_secs(120);
/// `DEFAULT_ALLOWED_METHODS` (1.x: `DEFAULT_METHOD_WHITELIST`): POST and
/// PATCH are not retried after the request was sent.
pub const URLLIB3_ALLOWED_METHODS: &[&str] = &["HEAD", "GET", "PUT", "DELETE", "OPTIONS", "TRACE"];
/// `RETRY_AFTER_STATUS_CODES`: retried when the response has `Retry-After`
/// (`respect_retry_after_header=True`).
pub const URLLIB3_RETRY_AFTER_STATUSES: &[u16] = &[413, 429, 503];

// requests (https://github.com/psf/requests, `src/requests/adapters.py`):
// `DEFAULT_RETRIES = 0`; `HTTPAdapter()` uses `Retry(0, read=False)`, and
// `HTTPAdapter(max_retries=n)` uses `Retry.from_int(n)` = `Retry(n)` (no
// backoff, no status retried). `requests.get(url)` without `timeout=`
// waits for ever.

// httpx (https://github.com/encode/httpx): `HTTPTransport(retries=n)`
// passes `retries` to httpcore's connection pool, which retries only
// `ConnectError`/`ConnectTimeout` (https://github.com/encode/httpcore,
// `httpcore/_async/connection.py`, 1.x: `RETRIES_BACKOFF_FACTOR = 0.5  #
// 0s, 0.5s, 1s, 2s, 4s, etc.`, `exponential_backoff`), no jitter.

/// httpcore's `RETRIES_BACKOFF_FACTOR`.
pub const HTTPX_CONNECT_BACKOFF: Duration = Duration::from_millis(500);

// ---------------------------------------------------------------------------
// botocore (https://github.com/boto/botocore): `Config(retries={...})`.
// `botocore/args.py` `_compute_retry_max_attempts`: `max_attempts` in a
// `Config` counts retries (total attempts = `max_attempts + 1`) while
// `total_max_attempts` (and `max_attempts` in `~/.aws/config` or
// `AWS_MAX_ATTEMPTS`) counts attempts.

/// Legacy mode (the default mode): 5 attempts, the first included
/// (`botocore/data/_retry.json` `"max_attempts": 5`; boto3
/// `docs/source/guide/retries.rst` "A default value of 5 for maximum
/// attempts (including the initial request)"), `base: rand`, growth 2.
pub const BOTOCORE_LEGACY_ATTEMPTS: u64 = 5;
/// Standard and adaptive modes: `botocore/retries/standard.py`
/// `DEFAULT_MAX_ATTEMPTS = 3`; `ExponentialBackoff`: `min(random() x
/// 2^(attempt-1), 20)` (full jitter from 1 s, capped at 20 s), with a retry
/// quota (`RetryQuotaChecker`).
pub const BOTOCORE_STANDARD_ATTEMPTS: u64 = 3;
pub const BOTOCORE_MAX_BACKOFF: Duration = Duration::from_secs(20);
/// `botocore/endpoint.py` `DEFAULT_TIMEOUT = 60` (connect and read).
pub const BOTOCORE_TIMEOUT: Duration = Duration::from_secs(60);

// ---------------------------------------------------------------------------
// Celery (https://github.com/celery/celery, `celery/app/task.py`
// `max_retries = 3`, `default_retry_delay = 3 * 60`; `celery/app/base.py`
// task options `retry_backoff=False`, `retry_backoff_max=600`,
// `retry_jitter=True`; `celery/app/autoretry.py`). Only tasks with
// `autoretry_for` retry by themselves.

/// `Task.max_retries = 3`: retries, so 4 attempts.
pub const CELERY_MAX_RETRIES: u64 = 3;
/// `Task.default_retry_delay = 3 * 60`.
pub const CELERY_RETRY_DELAY: Duration = Duration::from_secs(180);
/// `retry_backoff_max = 600`.
pub const CELERY_BACKOFF_MAX: Duration = Duration::from_secs(600);

// Dramatiq (https://github.com/Bogdanp/dramatiq,
// `dramatiq/middleware/retries.py` at
// 9f138cc71d88538b4db1a44dc7716385cb966a8b: `Retries.__init__(*,
// max_retries: int = 20, ..)`, `DEFAULT_MIN_BACKOFF = 15000`,
// `DEFAULT_MAX_BACKOFF = 86400000 * 7`, an actor's `max_backoff` held at
// it; `dramatiq/common.py` at 7d036f4afb5ef3d7cfe8f14e7e43dd4bd393399f
// `compute_backoff(attempts, *, factor, jitter=True, max_backoff, ..)`:
// `factor * 2 ** attempts`, `attempts` from 0; its jitter, as of
// 848b35f2f960457ff54a72f9edb3af0de754f72f (2.0.0 on), multiplies by
// `uniform(1, 2)`: see `extract/libs/dramatiq.rs`).

/// `max_retries = 20`: retries, so 21 attempts.
pub const DRAMATIQ_MAX_RETRIES: u64 = 20;
/// `DEFAULT_MIN_BACKOFF = 15000` (ms).
pub const DRAMATIQ_MIN_BACKOFF: Duration = Duration::from_secs(15);
/// `DEFAULT_MAX_BACKOFF = 86400000 * 7` (ms): seven days.
pub const DRAMATIQ_MAX_BACKOFF: Duration = Duration::from_secs(7 * 86_400);

/// The Redis transport's visibility timeout when `broker_transport_options`
/// sets none: kombu `kombu/transport/redis.py` `Channel.visibility_timeout
/// = 3600   # 1 hour` (celery/kombu@5006e49c5361c5edaa9c02f49b3757553a0fd51f;
/// read from `transport_options` through `from_transport_options`). The
/// SQS transport's `default_visibility_timeout = 1800` applies only to
/// queues kombu creates (an existing queue keeps its own), so no default is
/// taken for SQS.
pub const KOMBU_REDIS_VISIBILITY_TIMEOUT: Duration = Duration::from_secs(3600);

// ---------------------------------------------------------------------------
// google-api-core `Retry` (https://github.com/googleapis/python-api-core,
// `google/api_core/retry/retry_base.py`, 2.29.1): `_BaseRetry.__init__(
// predicate=if_transient_error, initial=_DEFAULT_INITIAL_DELAY,
// maximum=_DEFAULT_MAXIMUM_DELAY, multiplier=_DEFAULT_DELAY_MULTIPLIER,
// timeout=_DEFAULT_DEADLINE, ...)` (`deadline=` is the old name of
// `timeout=`). No attempt limit: it retries until `timeout` has passed
// (`timeout=None`: for ever). `exponential_sleep_generator` yields
// `random.uniform(0.0, max_delay)` with `max_delay` starting at
// `min(initial, maximum)` and multiplied each time up to `maximum`: full
// jitter. `if_transient_error` retries `InternalServerError` (HTTP 500,
// gRPC INTERNAL), `TooManyRequests` (429), `ServiceUnavailable` (503),
// `requests` `ConnectionError` and `ChunkedEncodingError`, and
// `google.auth` `TransportError`.

/// `_DEFAULT_INITIAL_DELAY = 1.0`.
pub const GOOGLE_INITIAL: f64 = 1.0;
/// `_DEFAULT_MAXIMUM_DELAY = 60.0`.
pub const GOOGLE_MAXIMUM: f64 = 60.0;
/// `_DEFAULT_DELAY_MULTIPLIER = 2.0`.
pub const GOOGLE_MULTIPLIER: f64 = 2.0;
/// `_DEFAULT_DEADLINE = 60.0 * 2.0`.
pub const GOOGLE_TIMEOUT: Duration = Duration::from_secs(120);
/// `if_transient_error`'s HTTP statuses.
pub const GOOGLE_TRANSIENT_STATUSES: &[u16] = &[500, 429, 503];

// ---------------------------------------------------------------------------
// aiohttp_retry (https://github.com/inyutin/aiohttp_retry,
// `aiohttp_retry/retry_options.py` and `client.py`, 2.9.1 at 4d336bd):
// `RetryClient(client_session=None, logger=None, retry_options=None, ..)`
// uses `ExponentialRetry()` when no options are given. `attempts` counts
// attempts, the first included (`_is_skip_retry`: `current_attempt ==
// attempts` ends it). A response is retried when its status is >= 500
// (`retry_all_server_errors=True`) or listed in `statuses`; an exception
// only when it is an instance of one listed in `exceptions`, whose default
// is the empty set, so connection errors and timeouts are not retried
// unless listed (the comment "by default on all" in `RetryOptionsBase`
// is not what `_do_request` does). `methods` defaults to every method,
// POST and PATCH included. The wait before retry k (k = 1, 2, ..) is
// `get_timeout(attempt=k)`; no option reads `Retry-After`.

/// `RetryOptionsBase(attempts=3)`: attempts, the first included.
pub const AIOHTTP_RETRY_ATTEMPTS: u64 = 3;
/// `RetryOptionsBase` `methods=None` -> this set.
pub const AIOHTTP_RETRY_METHODS: &[&str] = &[
    "HEAD", "GET", "PUT", "DELETE", "OPTIONS", "TRACE", "POST", "CONNECT", "PATCH",
];
/// `ExponentialRetry(start_timeout=0.1, max_timeout=30.0, factor=2.0)`:
/// `min(start_timeout x factor^k, max_timeout)`, so the first wait is
/// `start_timeout x factor`. `JitterRetry` takes the same and adds
/// `uniform(0, random_interval_size=2.0) ** factor`.
pub const AIOHTTP_RETRY_START: f64 = 0.1;
pub const AIOHTTP_RETRY_MAX: f64 = 30.0;
pub const AIOHTTP_RETRY_FACTOR: f64 = 2.0;
pub const AIOHTTP_RETRY_JITTER_INTERVAL: f64 = 2.0;
/// `RandomRetry(min_timeout=0.1, max_timeout=3.0)`: uniform between them.
pub const AIOHTTP_RETRY_RANDOM_MIN: f64 = 0.1;
pub const AIOHTTP_RETRY_RANDOM_MAX: f64 = 3.0;
/// `FibonacciRetry(multiplier=1.0, max_timeout=3.0)`: `multiplier` x 2,
/// 3, 5, 8 .. (its steps live on the options object, shared by every
/// request made with it), capped at `max_timeout`.
pub const AIOHTTP_RETRY_FIBO_MAX: f64 = 3.0;

// ---------------------------------------------------------------------------
// The OpenAI and Anthropic Python SDKs (both generated by Stainless, one
// retry loop): openai/openai-python `src/openai/_constants.py` at
// 04448952820aa3029e61907c1785a7293c3ddbc2 and
// anthropics/anthropic-sdk-python `src/anthropic/_constants.py` at
// 1316de75b9487c6aa581f86a0102b33aa5edeb70: `DEFAULT_MAX_RETRIES = 2`,
// `DEFAULT_TIMEOUT = Timeout(timeout=600, connect=5.0)`,
// `INITIAL_RETRY_DELAY = 0.5`, `MAX_RETRY_DELAY = 8.0`. openai-python
// `src/openai/_base_client.py` at 000f030ac625401e5206af89bcdcbdabac4c995f:
// `request` tries `max_retries + 1` times, on a timeout, a connection
// error and what `_should_retry` accepts (408, 409, 429, >= 500, or
// `x-should-retry: true`); `_calculate_retry_timeout` waits `min(0.5 x
// 2^n, 8) x (1 - 0.25 x random())`, or the server's `Retry-After` when
// it is at most `MAX_RETRY_AFTER_DELAY`; a non-GET request keeps one
// `Idempotency-Key` for all its attempts.

/// `DEFAULT_MAX_RETRIES = 2`: retries, so 3 attempts.
pub const LLM_SDK_MAX_RETRIES: u64 = 2;
/// `INITIAL_RETRY_DELAY = 0.5`.
pub const LLM_SDK_INITIAL_DELAY: Duration = Duration::from_millis(500);
/// `MAX_RETRY_DELAY = 8.0`.
pub const LLM_SDK_MAX_DELAY: Duration = Duration::from_secs(8);
/// `DEFAULT_TIMEOUT`: 600 s (read), 5 s to connect.
pub const LLM_SDK_TIMEOUT: Duration = Duration::from_secs(600);
/// `_should_retry`: 408, 429 and every 5xx (and 409, a lock timeout:
/// `libs::llm` states it rather than lists it).
pub const LLM_SDK_RETRY_STATUSES: &[(u16, u16)] = &[(408, 408), (429, 429), (500, 599)];
/// The clients' `base_url` when none is given (openai-python
/// `_client.py`: `https://api.openai.com/v1`; anthropic-sdk-python
/// `_client.py`: `https://api.anthropic.com`).
pub const OPENAI_API_HOST: &str = "api.openai.com";
pub const ANTHROPIC_API_HOST: &str = "api.anthropic.com";

// ---------------------------------------------------------------------------
// Descriptors.

pub static TENACITY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "use `wait=wait_random_exponential(multiplier=.., max=..)` (full jitter) instead of a fixed or plain exponential wait",
        bound: "add `stop=stop_after_attempt(3)` (or `| stop_after_delay(..)`): a bare `@retry` retries for ever",
        predicate: "pass `retry=retry_if_exception_type((ConnectionError, Timeout))`: the default retries every exception",
        explicit: "write `stop=`, `wait=` and `retry=` explicitly",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("tenacity", Layer::Application)
};

pub static BACKOFF: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "keep the default `jitter=backoff.full_jitter` (do not pass `jitter=None`)",
        bound: "pass `max_tries=` or `max_time=`: without them `backoff` retries for ever",
        predicate: "name the transient exceptions (not `Exception`), or pass `giveup=` for the permanent ones",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("backoff", Layer::Application)
};

pub static URLLIB3: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `backoff_factor` (its default 0 waits nothing) and `backoff_jitter` (urllib3 2)",
        bound: "give `Retry` a small `total` (3 to 5)",
        predicate: "set `status_forcelist` to transient statuses (502, 503, 504, 429) only",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("urllib3 Retry", Layer::Application)
};

pub static CELERY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `retry_backoff=True` and keep `retry_jitter=True`",
        bound: "set `max_retries` to a small number (not `None`)",
        predicate: "list transient exceptions in `autoretry_for`, not `Exception`",
        ..Fixes::GENERIC
    },
    // A task runs on a worker, after the caller handed it over; when its
    // last retry fails it is dropped: celery `celery/app/task.py`
    // `Task.retry`: `if max_retries is not None and retries > max_retries:
    // if exc: raise_with_context(exc); raise self.MaxRetriesExceededError(..)`:
    // the task fails (state FAILURE) and is not sent again.
    background: true,
    ..SystemSpec::plain("Celery", Layer::Application)
};

pub static DRAMATIQ: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "keep Dramatiq's jitter (its backoff is jittered by default)",
        bound: "set the actor's `max_retries` to a small number (not `None`)",
        predicate: "pass `throws=` with the exceptions that must not be retried, or `retry_when=`",
        ..Fixes::GENERIC
    },
    // An actor runs on a worker after the sender handed the message to
    // the broker; when its retries run out the message is failed
    // (`message.fail()`, dead-lettered) and not sent again: dramatiq
    // `dramatiq/middleware/retries.py` at
    // 848b35f2f960457ff54a72f9edb3af0de754f72f `after_process_message`.
    background: true,
    ..SystemSpec::plain("Dramatiq", Layer::Application)
};

pub static PYTHON_LOOP: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: super::java::LOOP_BOUND,
        predicate: "catch only transient errors (`requests.ConnectionError`, `requests.Timeout`) in the retried `except`; let the rest propagate",
        ..Fixes::GENERIC
    },
    loop_body: true,
    ..SystemSpec::plain("Python retry loop", Layer::Application)
};

pub static GOOGLE: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "keep a `timeout=` on the `Retry` (its default is 120 s): `timeout=None` retries for ever",
        predicate: "keep the default `predicate=if_transient_error`, or list transient exceptions in `if_exception_type(..)`",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("google-api-core Retry", Layer::Application)
};

pub static AIOHTTP_RETRY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "use `JitterRetry(..)` (or `RandomRetry`) instead of `ExponentialRetry`/`ListRetry`/`FibonacciRetry`",
        bound: "keep `attempts` small (3 to 5)",
        predicate: "pass `retry_all_server_errors=False` and `statuses={502, 503, 504, 429}`",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("aiohttp_retry", Layer::Application)
};

pub static PIKA: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "keep `connection_attempts` small and let the process's supervisor restart it: each attempt can take `stack_timeout` (15 s by default) plus `retry_delay`",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("pika ConnectionParameters", Layer::Sdk)
};

pub static JIRA: SystemSpec = SystemSpec {
    fixes: Fixes {
        explicit: "pass `max_retries=` and `timeout=` to `JIRA(..)`: `timeout=(connect, read)` bounds each try, `max_retries=0` where the code around the calls retries",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("jira client", Layer::Sdk)
};

pub static OPENAI: SystemSpec = SystemSpec {
    fixes: Fixes {
        explicit: "pass `max_retries=` and `timeout=` to `OpenAI(..)`: `max_retries=0` where the code around the call retries",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("OpenAI Python SDK", Layer::Sdk)
};

pub static ANTHROPIC: SystemSpec = SystemSpec {
    fixes: Fixes {
        explicit: "pass `max_retries=` and `timeout=` to `Anthropic(..)`: `max_retries=0` where the code around the call retries",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Anthropic Python SDK", Layer::Sdk)
};

pub static OTHER: SystemSpec = SystemSpec::plain("Python library", Layer::Application);

/// Python is source, read by file: no YAML/JSON document reader.
pub const DOC_READERS: &[crate::extract::DocReader] = &[];

/// The descriptor of the Python library `name`, as the reader names it.
pub fn lib_spec(name: &str) -> &'static SystemSpec {
    match name {
        "tenacity" => &TENACITY,
        "backoff" => &BACKOFF,
        "urllib3" => &URLLIB3,
        "celery" => &CELERY,
        "dramatiq" => &DRAMATIQ,
        "google-api-core" => &GOOGLE,
        "aiohttp_retry" => &AIOHTTP_RETRY,
        "pika" => &PIKA,
        "jira" => &JIRA,
        "openai" => &OPENAI,
        "anthropic" => &ANTHROPIC,
        "loop" => &PYTHON_LOOP,
        _ => &OTHER,
    }
}

/// The label of the Python library `name` in messages.
pub fn lib_label(name: &str) -> String {
    match name {
        "loop" => PYTHON_LOOP.label.to_string(),
        "urllib3" => URLLIB3.label.to_string(),
        "celery" => CELERY.label.to_string(),
        "dramatiq" => DRAMATIQ.label.to_string(),
        "google-api-core" => GOOGLE.label.to_string(),
        "pika" => PIKA.label.to_string(),
        "jira" => JIRA.label.to_string(),
        "openai" => OPENAI.label.to_string(),
        "anthropic" => ANTHROPIC.label.to_string(),
        other => other.to_string(),
    }
}
