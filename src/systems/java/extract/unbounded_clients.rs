//! HTTP calls that can wait for ever, inside code a retry runs again (a
//! loop's body, a `@Retryable` method, a Resilience4j or Failsafe
//! lambda): such a try has no per-try limit, so the retries around it
//! have no deadline either (RL304), unless the retry itself caps the
//! elapsed time.
//!
//! Two clients wait for ever unless told otherwise:
//!
//! - `java.net.http`: a request built without `.timeout(..)` waits for
//!   its response for ever. JDK 11+ `java.net.http.HttpRequest.Builder`,
//!   `timeout(Duration)`: "The effect of not setting a timeout is the same
//!   as setting an infinite Duration, i.e. block forever"; the client's
//!   `connectTimeout` bounds only the connect.
//! - Apache HttpClient 4.x (`org.apache.http`): `RequestConfig` has
//!   `connectTimeout`, `socketTimeout` and `connectionRequestTimeout` of
//!   `-1` ("undefined (system default)", httpcomponents-client
//!   `rel/v4.5.9` `httpclient/.../client/config/RequestConfig.java`,
//!   `Builder()`), and the socket's own read timeout is 0, infinite. 5.x
//!   (`org.apache.hc.client5`) is not: its connect timeout is 3 minutes
//!   (`ConnectionConfig.DEFAULT_CONNECT_TIMEOUT`) and its socket timeout
//!   3 minutes (httpcore5 `SocketConfig`, "Default: 3 minutes").
//!
//! Read from the file's text and tree only: a file that calls any method
//! setting a timeout (or hands the client a configuration built elsewhere)
//! is left alone, and a call through a helper method is not followed.

use super::ast::Kind as _;
use super::ast::{self, span};
use super::ctx::Ctx;
use super::{Out, RetryScope};
use crate::extract::Facts;
use crate::model::{Located, Timeout};

/// Which client a call inside a retry goes through, when it waits for
/// ever.
fn waits_for_ever(ctx: &Ctx<'_>, call: tree_sitter::Node<'_>) -> bool {
    let src = ctx.src;
    let name = ctx.name_of(ast::field(call, "name"));
    let args = ast::field(call, "arguments").map_or("", |a| ctx.text(a));
    match name {
        // `client.send(request, HttpResponse.BodyHandlers.ofString())`.
        "send" | "sendAsync" => {
            src.contains("java.net.http")
                && args.contains("BodyHandlers")
                && src.contains("HttpRequest.newBuilder")
                && !sets_timeout(ctx)
        }
        // `client.execute(new HttpGet(url))` on a 4.x client made here.
        "execute" => {
            src.contains("org.apache.http.")
                && !src.contains("org.apache.hc.")
                && [
                    "HttpClients.createDefault(",
                    "HttpClients.createSystem(",
                    "HttpClients.custom(",
                    "HttpClientBuilder.create(",
                    "new DefaultHttpClient(",
                ]
                .iter()
                .any(|w| src.contains(w))
                && !sets_timeout(ctx)
                && !src.contains("RequestConfig")
                && !src.contains("HttpParams")
        }
        _ => false,
    }
}

/// Whether the file calls a method that sets a timeout (`.timeout(..)`,
/// `setConnectTimeout(..)`, `setSoTimeout(..)`); comments do not count.
/// Pruning keeps every body that calls through a timeout name
/// (`prune::calls_timeout`).
fn sets_timeout(ctx: &Ctx<'_>) -> bool {
    ctx.nodes.iter().any(|&n| {
        n.kind_str() == "method_invocation"
            && ctx
                .name_of(ast::field(n, "name"))
                .to_ascii_lowercase()
                .contains("timeout")
    })
}

/// Give each retry whose repeated code makes such a call a try with no
/// limit, and no overall deadline unless it has one.
pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts, out: &Out<'_>) {
    if !(ctx.src.contains("java.net.http") || ctx.src.contains("org.apache.http.")) {
        return;
    }
    for &n in &ctx.nodes {
        if n.kind_str() != "method_invocation" || !waits_for_ever(ctx, n) {
            continue;
        }
        for RetryScope { policy, .. } in out.scopes.iter().filter(|s| ast::within(n, s.body)) {
            let Some(p) = facts.policies.get_mut(*policy) else {
                continue;
            };
            // A loop bounded by a deadline the reader saw but could not
            // count keeps its unknown attempts and is left alone.
            if p.per_try_timeout.is_some()
                || p.attempts.value.count == crate::model::AttemptCount::Unknown
            {
                continue;
            }
            let at = span(n);
            p.per_try_timeout = Some(Located::default_at(Timeout::Disabled, at));
            if p.overall_timeout.is_none() {
                p.overall_timeout = Some(Located::default_at(Timeout::Disabled, at));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::Facts;
    use crate::model::Timeout;

    fn read(text: &str) -> Facts {
        let mut f = Facts::default();
        super::super::extract(text, &mut f);
        f
    }

    #[test]
    fn a_java_net_http_send_in_a_loop_has_no_try_limit() {
        let f = read(include_str!(
            "../../../../testdata/rules/RL304/err/java-http-client-loop-without-timeout.java"
        ));
        let p = &f.policies[0];
        assert_eq!(p.per_try_timeout.as_ref().unwrap().value, Timeout::Disabled);
        assert_eq!(p.overall_timeout.as_ref().unwrap().value, Timeout::Disabled);
        let f = read(include_str!(
            "../../../../testdata/rules/RL304/ok/java-http-client-request-timeout.java"
        ));
        assert!(f.policies[0].per_try_timeout.is_none());
    }

    #[test]
    fn an_apache_client_4_without_request_config_has_no_try_limit() {
        let f = read(include_str!(
            "../../../../testdata/rules/RL304/err/java-apache-httpclient4-retryable.java"
        ));
        let p = &f.policies[0];
        assert_eq!(p.per_try_timeout.as_ref().unwrap().value, Timeout::Disabled);
        let f = read(include_str!(
            "../../../../testdata/rules/RL304/ok/java-apache-httpclient4-request-config.java"
        ));
        assert!(f.policies[0].per_try_timeout.is_none());
    }
}
