//! Knative Serving (`serving.knative.dev/v1` `Service`, `Configuration`,
//! `Route`): the revision's request timeout and the retries the Knative
//! ingress adds in front of the container. Everything of the system is in
//! this folder: what it is ([`SPEC`]), its defaults, and its reader
//! ([`read`]).

pub mod read;

use super::SystemSpec;
use crate::model::Layer;

// system: Knative
pub static SPEC: SystemSpec = SystemSpec::plain("Knative Serving", Layer::Proxy);

/// The Knative reader's documents: Serving resources, offered last.
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "knative",
    needles: read::NEEDLES,
    read: |ctx, facts| read::extract(ctx.root(), facts),
    order: 110,
}];

/// The request timeout of a revision whose `timeoutSeconds` is not
/// written: knative/serving `config/core/configmaps/defaults.yaml`,
/// `revision-timeout-seconds: "300"`, and `pkg/apis/config/defaults.go`,
/// `DefaultRevisionTimeoutSeconds = 5 * 60` (v1.x).
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 300;

/// The time a revision may take to begin its response when
/// `responseStartTimeoutSeconds` is not written: none of its own. knative/serving
/// v1.23 `pkg/apis/config/defaults.go` sets
/// `DefaultRevisionResponseStartTimeoutSeconds = 5 * 60` (the revision
/// timeout's default), and `pkg/apis/serving/v1/revision_defaults.go`
/// (`SetDefaults`) copies it onto a revision only when it is below the
/// revision's `timeoutSeconds` and not 0: by default the queue-proxy sets no
/// response-start timer (`pkg/queue/sharedmain/handlers.go`), so
/// `timeoutSeconds` alone bounds the request.
pub const DEFAULT_RESPONSE_START_TIMEOUT_SECONDS: Option<u64> = None;

/// The idle timeout of a revision whose `idleTimeoutSeconds` is not
/// written: none. knative/serving v1.23 `pkg/apis/config/defaults.go`,
/// `DefaultRevisionIdleTimeoutSeconds = 0`, and `revision_defaults.go`
/// skips a zero default ("a zero value ... skips timer setup at the QP
/// side"). When set, the queue-proxy's timeout handler
/// (`pkg/http/handler/timeout.go`, `tryIdleTimeoutAndWriteError`) measures
/// it from the last write, or from the request's start when nothing was
/// written yet, so it also bounds the wait for the first byte.
pub const DEFAULT_IDLE_TIMEOUT_SECONDS: Option<u64> = None;

/// The largest `timeoutSeconds` the webhook accepts by default:
/// `max-revision-timeout-seconds: "600"` (same files,
/// `DefaultMaxRevisionTimeoutSeconds = 10 * 60`).
pub const DEFAULT_MAX_TIMEOUT_SECONDS: u64 = 600;

/// Attempts the Knative ingress makes per request: one. knative/serving
/// `pkg/reconciler/route/resources/ingress.go` (`makeIngressRule`) sets no
/// `Retries` on the KIngress path, and net-istio
/// `pkg/reconciler/ingress/resources/virtual_service.go`
/// (`makeVirtualServiceRoute`) writes `Retries: &HTTPRetry{}` on every
/// route, "Override default istio behaviour of retrying twice": Istio's
/// own default of 2 retries does not apply to Knative's routes.
pub const INGRESS_ATTEMPTS: u64 = 1;
