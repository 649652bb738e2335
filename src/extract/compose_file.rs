//! Docker Compose files named otherwise (issue 17).

/// Whether a YAML file is a docker-compose file: by its name, or by its
/// shape when it is named otherwise (`docker compose -f apps.yml`;
/// sivaprasadreddy/spring-boot-microservices-course 0e759ec
/// `deployment/docker-compose/apps.yml`): a top-level `services:` mapping
/// (Compose specification, `services` is a map of service names; GitLab
/// CI's top-level `services:` is a list), some service with an `image:`
/// or `build:`, and no Kubernetes `apiVersion:`/`kind:` at the top.
pub fn is_compose_file(name: &str, text: &[u8]) -> bool {
    if super::workload::is_compose(name) {
        return true;
    }
    let n = name.to_ascii_lowercase();
    if !(n.ends_with(".yml") || n.ends_with(".yaml")) {
        return false;
    }
    // The word first, by a vector search over the bytes: most YAML files
    // lack it, and `str::contains` after a UTF-8 check of the whole text
    // was 80 M instructions of envoyproxy/gateway's cold scan (two
    // calls per YAML file: the sniff and the read).
    // Only a `services:` line at column 0 makes one (`services` below is
    // set by no other line), so a nested `services:` (Helm values, Envoy
    // Gateway's test inputs) no longer walks the file's lines: 185 YAML
    // files of envoyproxy/gateway (1.3 MB) say `services:`, 119 (0.5 MB)
    // at column 0; the walk was 90 M instructions of its cold scan.
    if !text.starts_with(b"services:") && memchr::memmem::find(text, b"\nservices:").is_none() {
        return false;
    }
    let Ok(text) = std::str::from_utf8(text) else {
        return false;
    };
    let mut services = false;
    let mut in_services = false;
    let mut mapping = false;
    let mut built = false;
    for line in text.lines().take(20_000) {
        // An indented line outside `services:` says nothing (a blank or
        // comment one neither): passed over before its comment is looked
        // for. envoyproxy/gateway's 1,500 translator test files have a
        // root `services:` beside long indented `gateways:` and `xdsIR:`
        // trees, and this walk was 46 M instructions of its cold scan.
        if !in_services && line.starts_with([' ', '\t']) {
            continue;
        }
        let body = line.split(" #").next().unwrap_or(line).trim_end();
        if body.is_empty() || body.trim_start().starts_with('#') {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            if body.starts_with("apiVersion:")
                || body.starts_with("kind:")
                || (body == "---" && services)
            {
                return false;
            }
            in_services = body == "services:";
            services |= in_services;
            continue;
        }
        if in_services {
            let t = body.trim_start();
            if !mapping && !t.starts_with('-') {
                mapping = true;
            }
            if t.starts_with("image:") || t.starts_with("build:") {
                built = true;
            }
        }
    }
    services && mapping && built
}

#[cfg(test)]
mod tests {
    use super::is_compose_file;

    #[test]
    fn compose_files_by_name_or_shape() {
        let apps = "name: bookstore\nservices:\n  catalog-service:\n    image: sivaprabu/bookstore-catalog-service\n    environment:\n      - DB_URL=jdbc:postgresql://catalog-db:5432/postgres\n";
        assert!(is_compose_file("apps.yml", apps.as_bytes()));
        assert!(is_compose_file("docker-compose.yml", b""));
        // GitLab CI: `services` is a list; Kubernetes; a nested key.
        let gitlab = "image: maven:3\nservices:\n  - postgres:15\nbuild:\n  script: mvn\n";
        assert!(!is_compose_file(".gitlab-ci.yml", gitlab.as_bytes()));
        let k8s = "apiVersion: v1\nkind: List\nservices:\n  a:\n    image: x\n";
        assert!(!is_compose_file("list.yaml", k8s.as_bytes()));
        let nested = "jobs:\n  build:\n    services:\n      db:\n        image: postgres\n";
        assert!(!is_compose_file("ci.yml", nested.as_bytes()));
        assert!(!is_compose_file("apps.json", apps.as_bytes()));
        // At the start of the text, after CRLF line ends, and with a
        // comment after it: still a Compose file.
        let first = "services:\n  web:\n    image: nginx\n";
        assert!(is_compose_file("apps.yml", first.as_bytes()));
        let crlf = "name: x\r\nservices:  # the apps\r\n  web:\r\n    build: .\r\n";
        assert!(is_compose_file("apps.yml", crlf.as_bytes()));
        // Indented only (a Helm values file): not one.
        let values = "gateway:\n  services:\n    web:\n      image: nginx\n";
        assert!(!is_compose_file("values.yaml", values.as_bytes()));
    }
}
