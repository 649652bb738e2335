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
