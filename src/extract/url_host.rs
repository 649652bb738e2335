//! The service host of a URL or gRPC target that a source reader has
//! evaluated, shared by the readers that evaluate strings (Python, Go):
//! `unknown` is the reader's marker for a part it could not evaluate.

/// The host of an HTTP(S) URL whose scheme and host are known.
pub fn url_host(url: &str, unknown: &str) -> Option<String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))?;
    host_of(rest, unknown)
}

/// The host of `host[:port][/...]` (a gRPC target, its `dns:///`,
/// `passthrough:///` or `xds:///` scheme removed), when it is known and
/// not local; a port that is not known is still the same host. A Unix
/// domain socket (`unix:/run/app.sock`, `unix:///run/app.sock`,
/// `unix-abstract:name`, gRPC's name-resolution doc) or a VM socket
/// (`vsock:cid:port`) is this machine: no host.
pub fn host_of(rest: &str, unknown: &str) -> Option<String> {
    if local_socket(rest) {
        return None;
    }
    let rest = ["dns:///", "passthrough:///", "xds:///"]
        .iter()
        .find_map(|s| rest.strip_prefix(s))
        .unwrap_or(rest);
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let bare = host.rsplit_once(':').map_or(host, |(h, _)| h);
    if bare.is_empty()
        || bare.contains(unknown)
        || bare.contains(['{', '}', ' ', '%', '$', '<'])
        || matches!(
            bare,
            "localhost" | "127.0.0.1" | "0.0.0.0" | "[::1]" | "::1"
        )
        || bare.starts_with("example.")
        || bare.ends_with(".example.com")
        || bare.ends_with(".example.org")
    {
        return None;
    }
    let host = match host.rsplit_once(':') {
        Some((h, p)) if p.contains(unknown) => h,
        _ => host,
    };
    Some(host.to_string())
}

/// Whether a gRPC target is a socket of this machine (`unix:`,
/// `unix-abstract:`, `vsock:`): no call to another service.
pub fn local_socket(target: &str) -> bool {
    ["unix:", "unix-abstract:", "vsock:"]
        .iter()
        .any(|s| target.starts_with(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_urls_and_targets() {
        let u = "\u{1}";
        assert_eq!(
            url_host("http://orders:8080/x", u).as_deref(),
            Some("orders:8080")
        );
        assert_eq!(url_host("https://pay/x?y", u).as_deref(), Some("pay"));
        assert_eq!(url_host("ftp://pay", u), None);
        assert_eq!(
            host_of("dns:///inventory:50051", u).as_deref(),
            Some("inventory:50051")
        );
        assert_eq!(host_of("ledger:\u{1}/x", u).as_deref(), Some("ledger"));
        // Unix and VM sockets are this machine (dapr's pluggable
        // components dial `"unix://" + socket`: it was a host `unix`).
        assert_eq!(host_of("unix:///var/run/dapr.sock", u), None);
        assert_eq!(host_of("unix:\u{1}", u), None);
        assert_eq!(host_of("unix-abstract:dapr", u), None);
        assert_eq!(host_of("vsock:3:8080", u), None);
        assert_eq!(
            host_of("passthrough:///orders:9090", u).as_deref(),
            Some("orders:9090")
        );
        assert_eq!(host_of("xds:///orders", u).as_deref(), Some("orders"));
        assert_eq!(host_of("\u{1}:8080", u), None);
        assert_eq!(host_of("localhost:8080", u), None);
        assert_eq!(host_of("api.example.com", u), None);
    }
}
