//! Kubernetes `Ingress` resources served by a controller other than
//! ingress-nginx (issue 17, stop 44): the controller is a hop between the
//! client and the backends, with its own retries where it has any by
//! default. The class is read from `spec.ingressClassName` or the
//! `kubernetes.io/ingress.class` annotation, by the names the controllers
//! install, or from an `IngressClass` of the same file by its
//! `spec.controller`. An Ingress of a class not known here draws nothing
//! (which controller runs it, and how it retries, is not known).
//!
//! Defaults, each from the controller's own source or documentation:
//! - Kong: a Kong Service (one per Kubernetes Service the Ingress names)
//!   has `retries` 5 unless `konghq.com/retries` sets it (Kong/kong
//!   `kong/db/schema/entities/services.lua`, `retries = { type =
//!   "integer", default = 5 }`, at 0af69f96): up to 6 tries, the next
//!   one at once, on a connection error or timeout. The annotation is read
//!   from a Kubernetes Service of the same file (`extract::kong_policy`).
//! - Contour: retries only where `projectcontour.io/retry-on` is set, with
//!   `num-retries`, `per-try-timeout` and `response-timeout` read as
//!   Contour parses them (`contour.rs`).
//! - Istio (class `istio`): the ingress gateway serves the Ingress as a
//!   route of its own, which takes Istio's default retry policy as every
//!   route that writes none does; the hop is a workload in the Istio mesh
//!   ([`crate::systems::istio`] gives the default).
//! - Traefik: retries only through a `Retry` middleware its routers name
//!   (`traefik.rs`: a `Middleware` of any file, joined by
//!   `link::ingress_links`); an `IngressRoute` is a hop through Traefik
//!   too.
//! - HAProxy, AWS Load Balancer Controller (`alb`), GCE (`gce`,
//!   `gce-internal`): no retry policy is read for them; the hop is drawn
//!   with one try (their retries are not read).
//!
//! An `IngressClass`, a Kubernetes Service's `konghq.com/retries` and a
//! Traefik `Middleware` of another file than the Ingress are joined to it
//! by `link::ingress_links` (stop 46).

mod contour;
pub mod extract;
mod traefik;

use super::{Fixes, SystemSpec};
use crate::model::Layer;

// system: Kong - Kong Gateway proxying an Ingress (Kong Ingress Controller)
pub static KONG: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "set the `konghq.com/retries` annotation on the Kubernetes Service to 1-2",
        explicit: "write the retries you want on the Kubernetes Service (`konghq.com/retries`, `\"0\"` to turn retries off at this hop), so that they are visible and counted",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Kong", Layer::Proxy)
};

// system: Contour - Contour (Envoy) serving an Ingress with `projectcontour.io/` annotations
pub static CONTOUR: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "set `projectcontour.io/num-retries` on the Ingress to 1-2",
        predicate: "set `projectcontour.io/retry-on` to the transient failures only (`connect-failure,refused-stream`, or `gateway-error`)",
        explicit: "write `projectcontour.io/num-retries` beside `projectcontour.io/retry-on` (`\"-1\"` turns retries off), so that the retries are visible and counted",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Contour", Layer::Proxy)
};

// system: Traefik - Traefik's `Retry` middleware on the routers that name it
pub static TRAEFIK: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "set the Retry middleware's `attempts` to 2-3 (the first try included)",
        predicate: "leave `status` out of the Retry middleware, so that only requests that never reached the server are retried",
        jitter: "set the Retry middleware's `initialInterval`: Traefik then waits a randomized, growing interval between tries",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Traefik", Layer::Proxy)
};

/// Tries of a Kong Service whose `retries` is not written: 5 retries
/// (Kong/kong `kong/db/schema/entities/services.lua` at 0af69f96).
pub const KONG_DEFAULT_RETRIES: u64 = 5;

/// The Ingress reader for classes other than ingress-nginx, offered after
/// the ingress-nginx reader.
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "ingress-classes",
    needles: &[
        "Ingress",
        "Middleware",
        "konghq.com/retries",
        // Traefik's dynamic configuration (`http.services.<s>.loadBalancer`).
        "loadBalancer:",
    ],
    read: extract::extract,
    order: 75,
}];
