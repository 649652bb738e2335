use super::*;

fn read(text: &str) -> Facts {
    let mut f = Facts::default();
    extract(text, &mut f);
    f
}

const SHOP: &str = r#"vcl 4.1;
import std;

# The catalogue, fetched through the cache.
backend catalog {
    .host = "catalog.shop.svc.cluster.local";
    .port = "8080";
    .first_byte_timeout = 20s;
    .probe = { .url = "/health"; .interval = 5s; }
}

sub vcl_backend_response {
    if (beresp.status == 503 || beresp.status == 502) {
        return (retry);
    }
}

sub vcl_backend_error {
    /* a fetch that failed: once more */
    if (bereq.retries < 1) {
        return (retry);
    }
}
"#;

#[test]
fn retries_on_statuses_and_fetch_errors() {
    let f = read(SHOP);
    // Both sites retry the one fetch: one layer.
    assert_eq!(f.policies.len(), 1);
    let p = &f.policies[0];
    assert_eq!(
        p.name.as_deref(),
        Some("return (retry) in vcl_backend_response and vcl_backend_error")
    );
    assert_eq!(p.system, System::Varnish);
    // max_retries 4 by default: five attempts.
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert!(p.attempts.value.written_as.contains("(the default)"));
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!("{:?}", p.retry_on.value)
    };
    let codes: Vec<_> = conditions.iter().map(|c| c.value.clone()).collect();
    assert_eq!(codes[..2], [Condition::status(503), Condition::status(502)]);
    assert!(
        codes[2..]
            .iter()
            .all(|c| matches!(c, Condition::Transport(_)))
    );
    assert_eq!(p.methods.value, Methods::IdempotentOnly);
    // 3.5 s to connect and 20 s for the first byte.
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_millis(23_500))
    );
    assert_eq!(p.scope.callee.as_ref().unwrap().value, "catalog");
    assert!(p.platform_backoff);
    assert_eq!(f.edges.len(), 1);
    assert_eq!(f.edges[0].callee, "catalog");
    assert_eq!(f.edges[0].policies, vec![0]);
    assert_eq!(f.timeouts.len(), 1);
    assert!(f.diagnostics.is_empty());
}

#[test]
fn max_retries_cached_bodies_and_unconditioned_retries() {
    let f = read(
        r#"backend a { .host = "10.0.0.1"; }
backend b { .host = "orders"; .connect_timeout = 500ms; }
sub vcl_recv { std.cache_req_body(1MB); }
sub vcl_backend_fetch { set bereq.max_retries = 2; }
sub vcl_backend_response { return (retry); }
"#,
    );
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);
    assert_eq!(p.methods.value, Methods::All);
    // Two backends: no one callee, the slowest try (a's defaults: 63.5 s).
    assert!(p.scope.callee.is_none());
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_millis(63_500))
    );
    // An address is no service.
    assert_eq!(f.edges.len(), 1);
}

#[test]
fn no_retry_no_policy_and_strings_comments_ignored() {
    let f = read(
        r#"backend default { .host = "web"; }
sub vcl_backend_response {
    # return (retry);
    set beresp.http.X = "return (retry)";
    set beresp.body = {"return (retry)"};
}
"#,
    );
    assert!(f.policies.is_empty());
    assert_eq!(f.edges.len(), 1);
    let f = read("backend x { .host = \"h\"; .first_byte_timeout = 30; }\n");
    assert_eq!(f.diagnostics.len(), 1);
    assert!(read("").policies.is_empty());
    // Unbalanced text never panics.
    for t in [
        "sub vcl_backend_error { if (",
        "backend x {",
        "sub x { return (",
        "}}})) {",
    ] {
        let _ = read(t);
    }
}

#[test]
fn a_bound_above_max_retries_keeps_max_retries() {
    let f = read(
        "sub vcl_backend_response { if (beresp.status >= 500 && bereq.retries <= 9) { return (retry); } }\n",
    );
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(
        conditions[0].value,
        Condition::Status { from: 500, to: 599 }
    );
}

#[test]
fn inline_c_and_method_conditions() {
    // Financial-Times/pub-varnish's shape: inline C, and retries of GETs
    // answered 5xx, at most twice.
    let f = read(
        r#"vcl 4.0;
backend default { .host = "VARNISH_BACKEND_HOST"; .port = "VARNISH_BACKEND_PORT"; }
sub fix {
    C{
        struct dummy_req { unsigned magic; };
        ((struct dummy_req *)ctx->req)->req_body_status = 5; /* " { */
    }C
    return (synth(503, "Bad request"));
}
sub vcl_backend_response {
    if (((beresp.status == 500) || (beresp.status == 502) || (beresp.status == 503) || (beresp.status == 504)) && (bereq.method == "GET" )) {
        if (bereq.retries < 2 ) {
            return(retry);
        }
    }
}
"#,
    );
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(p.methods.value, Methods::Set(vec!["GET".into()]));
    // A placeholder the start script replaces names no service.
    assert!(f.edges.is_empty());
    assert!(p.scope.callee.is_none());
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(conditions.len(), 4);
}

#[test]
fn two_sites_are_one_layer_bounded_by_the_larger() {
    // Financial-Times/delivery-varnish's shape: 5xx of GETs retried at most
    // twice, and the health checks' 5xx up to max_retries; both count in
    // `bereq.retries`, so a fetch is made at most 5 times, not 3 x 5.
    let f = read(
        r#"backend a { .host = "notifications-push"; }
sub vcl_backend_response {
    if ((beresp.status == 503) && (bereq.method == "GET")) {
        if (bereq.retries < 2) { return (retry); }
    }
    if ((beresp.status == 503) && (bereq.method == "GET")) {
        saintmode.blacklist(7s);
        return (retry);
    }
}
"#,
    );
    assert_eq!(f.policies.len(), 1);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(p.methods.value, Methods::Set(vec!["GET".into()]));
    assert_eq!(
        p.name.as_deref(),
        Some("return (retry) in vcl_backend_response")
    );
}
