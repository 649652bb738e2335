//! Unit tests of the nginx extractor.

use super::*;
use crate::extract::Syntax;
use crate::systems::extract as extract_file;

fn facts(text: &str) -> Facts {
    extract_file(Path::new("nginx.conf"), text, Syntax::Nginx)
}

fn slice(text: &str, span: Span) -> &str {
    &text[span.start..span.end]
}

#[test]
fn times_follow_ngx_parse_time() {
    assert_eq!(parse_time("30s").unwrap(), Duration::from_secs(30));
    assert_eq!(parse_time("30").unwrap(), Duration::from_secs(30));
    assert_eq!(parse_time("1m30s").unwrap(), Duration::from_secs(90));
    assert_eq!(parse_time("500ms").unwrap(), Duration::from_millis(500));
    assert_eq!(parse_time("1h 30m").unwrap(), Duration::from_secs(5400));
    assert_eq!(parse_time("1d").unwrap(), Duration::from_secs(86400));
    assert!(parse_time("1.5s").is_err());
    assert!(parse_time("5s1m").is_err());
    assert!(parse_time("10x").is_err());
    assert!(parse_time("").is_err());
    assert!(parse_time("-1s").is_err());
}

#[test]
fn inner_blocks_replace_outer_settings() {
    let text = "http {\n  proxy_next_upstream error timeout http_502;\n  proxy_next_upstream_tries 3;\n  upstream b { server 10.0.0.1; server 10.0.0.2; server 10.0.0.3; }\n  server {\n    location /a { proxy_pass http://b; }\n    location /p {\n      proxy_next_upstream error non_idempotent;\n      proxy_pass http://b;\n    }\n  }\n}\n";
    let f = facts(text);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    assert_eq!(f.policies.len(), 2);
    let a = &f.policies[0];
    assert_eq!(a.name.as_deref(), Some("location /a"));
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(slice(text, a.attempts.span), "proxy_next_upstream_tries 3");
    let RetryOn::Listed { conditions } = &a.retry_on.value else {
        panic!()
    };
    assert_eq!(conditions.len(), 3);
    assert_eq!(conditions[2].value, Condition::status(502));
    assert_eq!(a.methods.value, Methods::IdempotentOnly);
    let p = &f.policies[1];
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    // The location's list replaces the http one: no 502.
    assert_eq!(conditions.len(), 1);
    assert_eq!(p.methods.value, non_idempotent_methods());
    assert_eq!(slice(text, p.methods.span), "non_idempotent");
    assert_eq!(f.edges.len(), 2);
    assert_eq!(f.edges[0].callee, "b");
    assert!(p.platform_backoff);
}

#[test]
fn tries_are_bounded_by_the_servers() {
    let text = "upstream two { server 127.0.0.1:1; server 127.0.0.2:1; server 127.0.0.3:1 down; server 127.0.0.4:1 backup; }\nupstream named { server app:80; }\nserver {\n  proxy_next_upstream_tries 10;\n  location /a { proxy_pass http://two; }\n  location /b { proxy_pass http://named; }\n  location /c { proxy_pass http://127.0.0.1:8080; }\n}\n";
    let f = facts(text);
    let counts: Vec<_> = f.policies.iter().map(|p| p.attempts.value.count).collect();
    // 2 live + 1 backup; a host name may resolve to 10 addresses; one address.
    assert_eq!(
        counts,
        [
            AttemptCount::Finite(3),
            AttemptCount::Finite(10),
            AttemptCount::Finite(1)
        ]
    );
}

#[test]
fn defaults_are_one_try_per_server() {
    let text = "upstream b { server a1:80; server a2:80; }\nserver { location / { proxy_pass http://b/x; } location /one { fastcgi_pass php:9000; } }\n";
    let f = facts(text);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
    assert!(p.attempts.is_default());
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(120))
    );
    assert!(p.per_try_timeout.as_ref().unwrap().is_default());
    assert!(p.overall_timeout.is_none());
    let callees: Vec<_> = f.edges.iter().map(|e| e.callee.as_str()).collect();
    assert_eq!(callees, ["a1", "a2", "php"]);
    assert_eq!(f.policies[1].attempts.value.count, AttemptCount::Finite(1));
}

#[test]
fn tries_zero_with_names_is_unbounded() {
    let text = "location / { proxy_next_upstream_tries 0; proxy_pass http://app; }\nlocation /t { proxy_next_upstream_tries 0; proxy_next_upstream_timeout 10s; proxy_pass http://$host; }\n";
    let f = facts(text);
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Unbounded);
    assert_eq!(
        f.policies[0].overall_timeout.as_ref().unwrap().value,
        Timeout::Disabled
    );
    assert_eq!(
        f.policies[1].overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(10))
    );
    assert!(f.edges.len() == 1, "no edge for a variable target");
}

#[test]
fn off_and_bad_values() {
    let text = "location / {\n  proxy_next_upstream error http_502 htp_503 OFF;\n  proxy_next_upstream_tries three;\n  proxy_read_timeout 1.5s;\n  proxy_read_timout 5s;\n  grpc_next_upstream error;\n  memcached_next_upstream http_502;\n  proxy_pass http://a;\n}\n";
    let f = facts(text);
    let codes: Vec<(&str, &str)> = f
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), slice(text, d.span)))
        .collect();
    assert_eq!(
        codes,
        [
            ("RL902", "htp_503"),
            ("RL902", "three"),
            ("RL902", "1.5s"),
            ("RL901", "proxy_read_timout"),
            ("RL902", "http_502"),
        ]
    );
    assert!(f.diagnostics[0].help.contains("http_503"));
    assert_eq!(f.policies[0].retry_on.value, RetryOn::Nothing);
    assert!(!f.policies[0].retries());
}

#[test]
fn fragments_includes_if_and_stream() {
    let text = "# conf.d fragment\nproxy_next_upstream_tries 2;\nlocation /x {\n  include snippets/retry.conf;\n  if ($request_method = POST) { proxy_pass http://api:8080; }\n}\nstream { upstream s { server 1.2.3.4:5; } server { proxy_next_upstream on; proxy_pass s; } }\n";
    let f = facts(text);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    assert_eq!(f.policies.len(), 1);
    let p = &f.policies[0];
    assert_eq!(p.name.as_deref(), Some("location /x"));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
    assert_eq!(f.includes.len(), 1);
    assert_eq!(f.includes[0].pattern, "snippets/retry.conf");
    assert_eq!(f.includes[0].context, "location /x");
    assert_eq!(f.edges[0].callee, "api");
}

#[test]
fn syntax_errors_are_one_rl903() {
    for text in [
        "http { server { listen 80; }",
        "location / { proxy_pass http://a }",
        "a \"unterminated;",
        "proxy_pass http://{{ .Values.host }};",
    ] {
        let f = facts(text);
        assert_eq!(f.diagnostics.len(), 1, "{text}");
        assert_eq!(f.diagnostics[0].code, "RL903");
        assert!(f.policies.is_empty());
    }
    let f = facts(&"location / {".repeat(100_000));
    assert_eq!(f.diagnostics[0].code, "RL903");
    assert!(f.diagnostics[0].message.contains("deeper"));
    let f = facts(&"{".repeat(100_000));
    assert_eq!(f.diagnostics[0].code, "RL903");
}

#[test]
fn invalid_bytes_and_garbage_never_panic() {
    let lossy = String::from_utf8_lossy(&[0xff, b'{', 0xfe, b';', b'"', 0xc3]).to_string();
    for text in [
        lossy.as_str(),
        "\u{0};;;",
        "proxy_pass;",
        "proxy_next_upstream;",
        "upstream { server; }",
        "location / { proxy_pass unix:; }",
        "location / { proxy_pass http://[::1; }",
        "proxy_pass http://:;",
        "proxy_read_timeout 99999999999999999999999y;",
    ] {
        let _ = facts(text);
    }
}

#[test]
fn classification() {
    let yes = |p: &str, body: &str| {
        let path = Path::new(p);
        let name = path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_ascii_lowercase();
        claims(path, &name, body.as_bytes())
    };
    assert!(yes("x/nginx.conf", ""));
    assert!(yes("etc/nginx/conf.d/app.conf", "server { listen 80; }"));
    assert!(yes(
        "deploy/app.conf",
        "location / { proxy_pass http://a; }"
    ));
    assert!(yes("sites-enabled/default", "server { listen 80; }"));
    assert!(!yes(
        "etc/supervisor/conf.d/app.conf",
        "[program:x]\ncommand=y\n"
    ));
    assert!(!yes(
        "etc/httpd/conf.d/a.conf",
        "<VirtualHost *:80>\nProxyPass / http://a/\n</VirtualHost>\n"
    ));
    assert!(!yes("redis.conf", "bind 127.0.0.1\nport 6379\n"));
    assert!(!yes(
        "docker/nginx/php-fpm.conf",
        "[www]\n; listen on a port;\nlisten = 127.0.0.1:9000\ninclude=/etc/fpm.d/*.conf\n"
    ));
    assert!(!yes("deploy/app.yaml", "proxy_pass http://a;"));
}

#[test]
fn large_flat_files_stay_linear() {
    let mut text = String::from("proxy_next_upstream_tries 2;\n");
    for i in 0..20_000 {
        text.push_str(&format!(
            "upstream u{i} {{ server 10.0.0.1; server 10.0.0.2; }}\nlocation /{i} {{ proxy_pass http://u{i}; }}\nproxy_set_header X-{i} a;\n"
        ));
    }
    let start = std::time::Instant::now();
    let f = facts(&text);
    assert_eq!(f.policies.len(), 20_000);
    assert_eq!(
        f.policies[19_999].attempts.value.count,
        AttemptCount::Finite(2)
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn a_snippet_with_top_level_settings_is_read_as_a_location() {
    let text = "# snippets/api.conf, included inside a location\nproxy_next_upstream error timeout non_idempotent;\nproxy_next_upstream_tries 3;\nproxy_pass http://api;\n";
    let f = facts(text);
    assert!(f.diagnostics.is_empty());
    let p = &f.policies[0];
    assert_eq!(p.name.as_deref(), Some("proxy_pass http://api"));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(p.methods.value, non_idempotent_methods());
    assert!(p.scope.route.is_none());
}

#[test]
fn unbuffered_requests_are_not_passed_on_once_sent() {
    let text = "upstream g { server g1:50051; server g2:50051; }\nserver {\n  location /g { grpc_next_upstream error timeout http_502 non_idempotent; grpc_pass grpc://g; }\n  location /u { proxy_request_buffering off; proxy_next_upstream error timeout http_404 non_idempotent; proxy_pass http://g; }\n  location /b { proxy_next_upstream error timeout http_404 non_idempotent; proxy_pass http://g; }\n}\n";
    let f = facts(text);
    // `http_502` and `non_idempotent` of grpc_next_upstream do nothing.
    assert_eq!(f.diagnostics.len(), 2, "{:?}", f.diagnostics);
    assert!(f.diagnostics.iter().all(|d| d.code == "RL901"));
    for p in &f.policies[..2] {
        assert_eq!(p.methods.value, Methods::IdempotentOnly);
        let RetryOn::Listed { conditions } = &p.retry_on.value else {
            panic!()
        };
        assert_eq!(conditions.len(), 2, "error and timeout only");
    }
    assert_eq!(f.policies[2].methods.value, non_idempotent_methods());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Any text built from nginx's own punctuation and a few directives:
    /// no panic, and every span is inside the text on char boundaries.
    #[test]
    fn any_input_is_read_without_panic(
        parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "{", "}", ";", " ", "\n", "#", "\"", "'", "\\", "$", "${", "é",
                "location /", "proxy_pass http://a", "upstream a", "server 10.0.0.1",
                "proxy_next_upstream", " error", " non_idempotent", " off",
                "proxy_next_upstream_tries", " 0", " 3", "proxy_read_timeout", " 1m30s",
                "include x.conf", "content_by_lua_block", "[[", "]]", "--", "grpc_pass a",
            ]),
            0..60,
        )
    ) {
        let text: String = parts.concat();
        let f = facts(&text);
        let ok = |s: Span| s.start <= s.end && s.end <= text.len()
            && text.is_char_boundary(s.start) && text.is_char_boundary(s.end);
        for d in &f.diagnostics {
            proptest::prop_assert!(ok(d.span), "{:?} in {:?}", d, text);
        }
        for p in &f.policies {
            proptest::prop_assert!(ok(p.span) && ok(p.attempts.span) && ok(p.retry_on.span));
        }
        for e in &f.edges {
            proptest::prop_assert!(ok(e.span));
        }
    }
}

#[test]
fn duplicates_add_up_for_masks_and_stop_nginx_otherwise() {
    let text = "location / {\n  proxy_next_upstream error;\n  proxy_next_upstream http_502;\n  proxy_next_upstream_tries 2;\n  proxy_next_upstream_tries 5;\n  proxy_pass http://a;\n}\n";
    let f = facts(text);
    assert_eq!(f.diagnostics.len(), 1);
    assert_eq!(
        slice(text, f.diagnostics[0].span),
        "proxy_next_upstream_tries 5"
    );
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(conditions.len(), 2);
}

#[test]
fn path_variables_keep_the_host() {
    let text = "upstream backend { server 10.0.0.1; server 10.0.0.2; }\nlocation / { proxy_pass http://backend$request_uri; }\nlocation ~ ^/(.*)$ { proxy_pass http://api:80/$1; }\nlocation /v { proxy_pass http://$upstream_host; }\n";
    let f = facts(text);
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(2));
    assert_eq!(
        f.policies[0].scope.callee.as_ref().unwrap().value,
        "backend"
    );
    assert_eq!(f.policies[1].scope.callee.as_ref().unwrap().value, "api");
    assert!(f.policies[2].scope.callee.is_none());
}
