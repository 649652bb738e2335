//! nginx's `*_next_upstream` retries, and ingress-nginx's annotations and
//! ConfigMap keys for them.

pub mod extract;
pub mod ingress;

use super::{Fixes, SystemSpec};
use crate::model::Layer;

// system: Nginx
pub static NGINX: SystemSpec = SystemSpec {
    timeout_stops_new_attempts: true,
    fixes: Fixes {
        bound: "set `proxy_next_upstream_tries` (or the `grpc_`/`fastcgi_`.. form) to 2-3, or `proxy_next_upstream_timeout`",
        explicit: "write the retry policy you want explicitly (`proxy_next_upstream_tries`, or `proxy_next_upstream off` to turn retries off at this hop), so that it is visible and counted",
        edits: super::edit::FixEdits {
            idempotent_only: Some(idempotent_only),
            drop_conditions: Some(super::edit::drop_listed),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    // nginx `ngx_http_upstream_module`, `server`: `max_fails=1` and
    // `fail_timeout=10s` by default, so a server whose try failed (as
    // `proxy_next_upstream` defines failure) is taken out for 10 s: passive
    // outlier ejection.
    retries_limited_by_default: true,
    // A server of its own that reads this file.
    own_process: true,
    ..SystemSpec::plain("nginx", Layer::Proxy)
};

// system: IngressNginx
pub static INGRESS_NGINX: SystemSpec = SystemSpec {
    timeout_stops_new_attempts: true,
    fixes: Fixes {
        bound: "set the `nginx.ingress.kubernetes.io/proxy-next-upstream-tries` annotation (or the ConfigMap key) to 2-3",
        explicit: "write the retry policy you want explicitly (`nginx.ingress.kubernetes.io/proxy-next-upstream-tries`, `\"1\"` to turn retries off at this hop), so that it is visible and counted",
        edits: super::edit::FixEdits {
            idempotent_only: Some(idempotent_only),
            drop_conditions: Some(super::edit::drop_listed),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("ingress-nginx", Layer::Proxy)
};

/// ingress-nginx Ingress annotations and ConfigMaps (nginx's own files
/// are read by syntax, not as documents).
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "ingress-nginx",
    needles: ingress::NEEDLES,
    read: ingress::extract,
    order: 70,
}];

/// The word of `*_next_upstream` (and of the ingress-nginx annotation's
/// value) that makes nginx pass POST, LOCK and PATCH requests on: nginx
/// `ngx_http_upstream_module`, `proxy_next_upstream`: "non_idempotent:
/// normally, requests with a non-idempotent method (POST, LOCK, PATCH) are
/// not passed to the next server if a request has been sent".
pub const NON_IDEMPOTENT: &str = "non_idempotent";

/// Remove `non_idempotent` from the directive (or annotation): nginx then
/// retries only idempotent requests.
fn idempotent_only(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    let s = site.policy.methods.span;
    let written = site.text.get(s.start..s.end)?;
    let at = s.start + written.find(NON_IDEMPOTENT)?;
    let word = crate::source::Span::new(at, at + NON_IDEMPOTENT.len());
    Some(vec![super::edit::remove_word(
        site.file,
        site.text,
        word,
        NON_IDEMPOTENT,
    )?])
}
