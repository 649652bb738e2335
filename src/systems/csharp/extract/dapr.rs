//! Dapr service invocation from .NET (issue 19): the app id a call names
//! is the service it reaches through the sidecars.
//!
//! - `DaprClient.CreateInvokeHttpClient("basket-api")` (also on a
//!   `daprClient` instance) makes an `HttpClient` whose requests the
//!   sidecar sends to that app: the call is the edge (its requests are the
//!   client's methods, as an `AddGrpcClient` registration is).
//! - `daprClient.InvokeMethodAsync(..)`, `InvokeMethodAsync<T>(..)`,
//!   `InvokeMethodWithResponseAsync`, `InvokeMethodGrpcAsync` and
//!   `CreateInvokeMethodRequest(..)`: the app id is the first string
//!   argument (after an optional `HttpMethod`), or the `appId:` one.
//!
//! Dapr's own retry of an invocation is no layer here (a `Resiliency`
//! policy for the target is, `systems/dapr/`, put on the call by the
//! graph): without one, the sidecar repeats a call only
//! when the remote sidecar could not be reached (gRPC `Unavailable` or
//! `Unauthenticated`, 3 times 1 s apart); any other failure, the app's
//! included, is final (`backoff.Permanent`): dapr/dapr d8450742ce
//! `pkg/messaging/direct_messaging.go` `invokeWithRetry`, with
//! `pkg/retry/retry.go` `DefaultLinearRetryCount = 3`,
//! `DefaultLinearBackoffInterval = time.Second`. The request never reached
//! the app, so the app sees one attempt. The client the SDK makes is not
//! one of the `IHttpClientFactory`'s, so no handler of the program applies.

use super::calls::string;
use super::{Ctx, args, method, span};
use crate::model::calls::Protocol;
use crate::model::{CallEdge, Facts};
use crate::systems::csharp::extract::Kind as _;

/// The methods that name an app id to invoke.
const INVOKE: &[&str] = &[
    "CreateInvokeHttpClient",
    "InvokeMethodAsync",
    "InvokeMethodWithResponseAsync",
    "InvokeMethodGrpcAsync",
    "CreateInvokeMethodRequest",
];

/// How the via of a Dapr invocation begins (the Dapr folder's: its
/// `Resiliency` policies go on these calls).
pub const VIA: &str = crate::systems::dapr::INVOKE_VIA;

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    for &n in &ctx.nodes {
        if n.kind_str() != "invocation_expression" {
            continue;
        }
        let Some((m, Some(recv))) = method(ctx, n) else {
            continue;
        };
        if !INVOKE.contains(&m) {
            continue;
        }
        // On a Dapr client: the type, or a name that says it
        // (`_daprClient`, `dapr`).
        let r = ctx.text(recv);
        if !r.to_ascii_lowercase().contains("dapr") {
            continue;
        }
        let a = args(ctx, n);
        let app = a
            .iter()
            .find(|(k, _)| *k == Some("appId"))
            .or_else(|| {
                a.iter()
                    .filter(|(k, _)| k.is_none())
                    .find(|(_, v)| !ctx.text(*v).contains("HttpMethod"))
            })
            .map(|(_, v)| *v);
        let Some(app) = app.and_then(|v| string(ctx, v, 0)) else {
            continue;
        };
        let app = app.trim();
        // An app id is a name (`basket-api`; `orders.shop` another
        // namespace's), never a URL or a template.
        if app.is_empty()
            || app.len() > 253
            || !app
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
        {
            continue;
        }
        let protocol = if m == "InvokeMethodGrpcAsync" {
            Protocol::Grpc
        } else {
            Protocol::Http
        };
        facts.edges.push(CallEdge {
            caller: None,
            callee: crate::model::calls::short_host(app),
            span: span(n),
            policies: Vec::new(),
            via: format!("{VIA} `{m}` in C#"),
            client: None,
            protocol: Some(protocol),
        });
    }
}
