//! Dapr resiliency (`resiliency.dapr.io`, `dapr.io/v1alpha1` `Resiliency`):
//! the retry and timeout policies a Dapr sidecar applies to the service
//! invocations its app makes, per target app id (`targets.apps.<id>`).
//! Everything of the system is here: what it is ([`SPEC`]), its defaults
//! with their sources, and its reader ([`read`]). The calls themselves are
//! read by the language readers (C#: `systems/csharp/extract/dapr.rs`;
//! Go, Python and Java: [`invoke`], from the text),
//! whose edges begin with [`INVOKE_VIA`]: the graph puts a policy of this
//! system on such a call to the app it names (`SystemSpec::invoked_via`).
//!
//! Sources: dapr/dapr d8450742ce (`pkg/resiliency/resiliency.go`,
//! `pkg/resiliency/policy.go`, `pkg/messaging/direct_messaging.go`,
//! `pkg/api/http/directmessaging.go`,
//! `pkg/apis/resiliency/v1alpha1/types.go`) and dapr/kit 867d7d9f
//! (`retry/retry.go`, whose `DefaultConfig` every retry policy starts
//! from: `decodePolicies` calls `retry.DefaultConfig()` then decodes the
//! written keys over it).

pub mod invoke;
pub mod read;
pub mod run;

use super::{Fixes, SystemSpec};
use crate::model::Layer;
use std::time::Duration;

/// How the `via` of a Dapr service invocation begins, whatever language
/// made it.
pub const INVOKE_VIA: &str = "Dapr service invocation";

// system: DaprResiliency - a Dapr `Resiliency` policy on service invocation by app id.
pub static SPEC: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "use `policy: exponential` (Dapr randomizes each exponential interval by half), or spread the callers another way: a `constant` policy waits exactly `duration` on every retry",
        bound: "write `maxRetries` (a missing or negative `maxRetries` retries for ever)",
        predicate: "add `matching.httpStatusCodes` (and `gRPCStatusCodes`) listing the transient codes: without it every failed response is retried, 4xx included",
        ..Fixes::GENERIC
    },
    invoked_via: Some(INVOKE_VIA),
    ..SystemSpec::plain("Dapr resiliency", Layer::Mesh)
};

/// The Dapr readers' documents: `Resiliency` resources, and the
/// multi-app run file that names each program's app id.
pub const DOC_READERS: &[crate::extract::DocReader] = &[
    crate::extract::DocReader {
        name: "dapr",
        needles: read::NEEDLES,
        read: |ctx, facts| read::extract(ctx.root(), facts),
        order: 120,
    },
    crate::extract::DocReader {
        name: "dapr-run",
        needles: run::NEEDLES,
        read: |ctx, facts| run::extract(ctx.root(), facts),
        order: 121,
    },
];

/// `maxRetries` when a retry policy does not write it: -1, no limit.
/// dapr/kit 867d7d9f `retry/retry.go` `DefaultConfig`: `MaxRetries: -1`;
/// `NewBackOff` wraps the backoff in `backoff.WithMaxRetries` only when
/// `MaxRetries >= 0`.
pub const DEFAULT_MAX_RETRIES: i64 = -1;

/// `policy` when not written: constant. dapr/kit 867d7d9f `retry/retry.go`
/// `DefaultConfig`: `Policy: PolicyConstant`.
pub const DEFAULT_POLICY_CONSTANT: bool = true;

/// The constant policy's wait when `duration` is not written: 5 s.
/// dapr/kit 867d7d9f `retry/retry.go` `DefaultConfig`: `Duration: 5 *
/// time.Second`; `NewBackOff` makes `backoff.NewConstantBackOff(c.Duration)`
/// (no randomization).
pub const DEFAULT_DURATION: Duration = Duration::from_secs(5);

/// The exponential policy's first interval: 500 ms, not writable in a
/// `Resiliency` (the CRD's `Retry` has `policy`, `duration`,
/// `maxInterval`, `maxRetries`, `matching` only: dapr/dapr d8450742ce
/// `pkg/apis/resiliency/v1alpha1/types.go`). dapr/kit 867d7d9f
/// `DefaultConfig`: `InitialInterval: backoff.DefaultInitialInterval`
/// (cenkalti/backoff v4 `exponential.go`: 500 ms).
pub const EXPONENTIAL_INITIAL: Duration = Duration::from_millis(500);

/// The exponential policy's multiplier: 1.5 (`backoff.DefaultMultiplier`,
/// cenkalti/backoff v4 `exponential.go`), not writable.
pub const EXPONENTIAL_MULTIPLIER: f64 = 1.5;

/// The exponential policy's randomization: each interval drawn in
/// [d x 0.5, d x 1.5] (`backoff.DefaultRandomizationFactor = 0.5`,
/// cenkalti/backoff v4 `exponential.go`), not writable.
pub const EXPONENTIAL_RANDOMIZATION: f64 = 0.5;

/// The exponential policy's `maxInterval` when not written: 60 s
/// (`backoff.DefaultMaxInterval`, cenkalti/backoff v4).
pub const DEFAULT_MAX_INTERVAL: Duration = Duration::from_secs(60);

/// The exponential policy stops retrying after 15 minutes
/// (`backoff.DefaultMaxElapsedTime`, cenkalti/backoff v4, kept by
/// dapr/kit's `DefaultConfig` and not writable); the constant policy has
/// no such bound (`backoff.ConstantBackOff`).
pub const EXPONENTIAL_MAX_ELAPSED: Duration = Duration::from_secs(15 * 60);

/// The retry policy every app target without one of its own takes:
/// `DefaultAppRetryPolicy`, else `DefaultRetryPolicy`. dapr/dapr
/// d8450742ce `pkg/resiliency/resiliency.go`: `EndpointPolicy` falls back
/// to `getDefaultPolicy(EndpointPolicy{})` when `targets.apps` has no
/// entry for the app, `DefaultRetryTemplate = "Default%sRetryPolicy"` with
/// the level `App`, then the top-level name.
pub const DEFAULT_RETRY_NAMES: [&str; 2] = ["DefaultAppRetryPolicy", "DefaultRetryPolicy"];

/// The same for timeouts (`DefaultTimeoutTemplate = "Default%sTimeoutPolicy"`).
pub const DEFAULT_TIMEOUT_NAMES: [&str; 2] = ["DefaultAppTimeoutPolicy", "DefaultTimeoutPolicy"];

// Without a `Resiliency` entry for the target, the sidecar's built-in
// `DaprBuiltInServiceRetries` (constant, 3 retries, 1 s) runs, but
// `invokeWithRetry` (dapr/dapr d8450742ce
// `pkg/messaging/direct_messaging.go`) retries only gRPC `Unavailable`
// and `Unauthenticated` from the remote sidecar and makes every other
// failure `backoff.Permanent`: the app is reached once, so it is no layer
// (`systems/csharp/extract/dapr.rs`). With a target's policy the runner
// of `pkg/resiliency/policy.go` (`NewRunnerWithOptions`) puts the
// `timeout` around each attempt (inside the retry), and the HTTP API
// (`pkg/api/http/directmessaging.go`) makes any response outside
// 200-399 an error the policy retries unless `matching` narrows it.
