//! Calls through a gateway's routes (issue 17): a gateway that forwards
//! `/catalog/**` to one service and `/orders/**` to another is two
//! different paths, not one node every caller reaches all of. A call
//! whose target names a path (`http://api-gateway:8989/catalog`, the
//! order service's catalog client on
//! sivaprasadreddy/spring-boot-microservices-course 0e759ec) goes on only
//! through the routes whose `Path` patterns it can match; a call that
//! names none (a base URL without a path) may take any of them. So
//! order-service -> api-gateway -> catalog-service is no cycle through
//! api-gateway -> order-service.
//!
//! Paths are followed edge to edge: what comes after an edge is the
//! callee's edges its path allows ([`Graph::next`]). A path visits a
//! service once: where a cycle is still there, the step that would
//! return is cut (`back_moves`, `shape::find_cycles`), and the cycle is
//! reported once (RL401, where it retries).

use super::*;

/// How far into a target's text a path is looked for.
const MAX_TEXT: usize = 2048;

/// The path a call's target names: `/catalog` of
/// `http://api-gateway:8989/catalog`, `/api/x` of `"https://h/api/x?q"`,
/// as written in the text at the call (a URL literal, an environment
/// entry's value). `None` where it names none (`http://h:80`, `/`) or is
/// no URL.
pub(super) fn path_of_target(text: &str) -> Option<String> {
    let text = text.get(..text.len().min(MAX_TEXT)).unwrap_or(text);
    let (_, rest) = text.split_once("://")?;
    let at = rest.find('/')?;
    let host = &rest[..at];
    if host.is_empty() || host.contains(['}', '"', '\'', ' ', '$']) {
        return None;
    }
    let path: String = rest[at..]
        .chars()
        .take_while(|c| !matches!(c, '?' | '#' | '"' | '\'' | '`' | ' ' | '\n' | '\r' | '}'))
        .collect();
    let path = path.trim_end_matches('/');
    (!path.is_empty()).then(|| path.to_string())
}

/// Whether a request whose path starts with `path` (`None`: unknown) may
/// take a route of `patterns` (empty: every request). A pattern's literal
/// head (`/catalog/` of `/catalog/**`) and the path must agree as far as
/// both go: the path may be a base URL's, the request's own being longer.
pub(super) fn allows(path: Option<&str>, patterns: &[String]) -> bool {
    let Some(path) = path else {
        return true;
    };
    if patterns.is_empty() {
        return true;
    }
    patterns.iter().any(|p| {
        match p.find(['*', '{', '?']) {
            Some(cut) => {
                let head = &p[..cut];
                path.starts_with(head) || head.starts_with(path)
            }
            // An exact pattern: the path, or a path the request extends.
            None => {
                let p = p.trim_end_matches('/');
                path == p || p.starts_with(&format!("{path}/"))
            }
        }
    })
}

/// The path each environment entry's value names, by (service, variable):
/// an edge joined to an entry (its `via` says ``env `X` of `svc` ``) takes
/// it, wherever its own proof is (the placeholder in code).
pub(super) fn entry_paths(files: &[ScannedFile]) -> HashMap<(String, String), String> {
    let mut out = HashMap::new();
    for f in files {
        for e in &f.facts.edges {
            let (Some(caller), Some(var)) = (&e.caller, env_var(&e.via)) else {
                continue;
            };
            if let Some(p) = f
                .source
                .text
                .get(e.span.start..e.span.end)
                .and_then(path_of_target)
            {
                out.insert((caller.clone(), var.to_string()), p);
            }
        }
    }
    out
}

/// The variable of an environment entry's own edge (``env `X` ``).
pub(super) fn env_var(via: &str) -> Option<&str> {
    let (_, rest) = via.split_once("env `")?;
    let (name, rest) = rest.split_once('`')?;
    (!name.is_empty() && !name.contains(' ') && !rest.starts_with(" of `")).then_some(name)
}

/// The (service, variable) of an edge joined to an environment entry
/// (``... env `X` of `svc` (file:line)``).
pub(super) fn joined_entry(via: &str) -> Option<(&str, &str)> {
    let (_, rest) = via.split_once("env `")?;
    let (var, rest) = rest.split_once("` of `")?;
    let (name, _) = rest.split_once('`')?;
    Some((name, var))
}

/// The path an edge's call names: the environment entry's it is joined
/// to, else its target's text.
pub(super) fn path_of_edge(
    files: &[ScannedFile],
    entries: &HashMap<(String, String), String>,
    file: FileId,
    span: Span,
    via: &str,
) -> Option<String> {
    if let Some((name, var)) = joined_entry(via) {
        return entries.get(&(name.to_string(), var.to_string())).cloned();
    }
    files
        .get(file)?
        .source
        .text
        .get(span.start..span.end)
        .and_then(path_of_target)
}

/// A route whose `uri` the workload's environment sets is the call that
/// entry's own edge shows too (`CATALOG_SERVICE_URL` of api-gateway, and
/// its route `uri: ${CATALOG_SERVICE_URL:..}`): the entry's edge takes
/// the route's patterns, so that it does not stand for a call every
/// request may take.
pub(super) fn share_routes(edges: &mut [Edge]) {
    let mut routed: HashMap<(ServiceId, ServiceId, String), Vec<String>> = HashMap::new();
    for e in edges.iter().filter(|e| !e.route.is_empty()) {
        if let Some((_, var)) = joined_entry(&e.via) {
            routed
                .entry((e.from, e.to, var.to_string()))
                .or_default()
                .extend(e.route.iter().cloned());
        }
    }
    if routed.is_empty() {
        return;
    }
    for e in edges.iter_mut().filter(|e| e.route.is_empty()) {
        if let Some(var) = env_var(&e.via)
            && let Some(r) = routed.get(&(e.from, e.to, var.to_string()))
        {
            e.route = r.clone();
        }
    }
}

/// The paths a client sends through a call joined to an environment
/// entry, by (caller, callee, variable): the entry's own edge is the same
/// call and takes them ([`share_paths`]).
pub(super) type Narrowed = HashMap<(ServiceId, ServiceId, String), Vec<String>>;

/// The request paths the client at a call's span sends (an HTTP
/// interface's methods), in one file's facts.
pub(super) fn sent_paths(f: &ScannedFile, span: Span) -> Vec<String> {
    f.facts
        .client_paths
        .iter()
        .find(|r| r.span == span)
        .map(|r| r.paths.clone())
        .unwrap_or_default()
}

/// A method's path under its base URL's (`/catalog` + `/api/products`).
pub(super) fn join(base: Option<&str>, path: &str) -> String {
    format!(
        "{}/{}",
        base.unwrap_or("").trim_end_matches('/'),
        path.trim_start_matches('/')
    )
}

/// An environment entry's own edge (``env `X` ``) whose call a client
/// sends several paths through (`narrowed`) is one edge per path, as the
/// client's are: it does not stand for a call every request may take.
pub(super) fn share_paths(edges: &mut Vec<Edge>, narrowed: &Narrowed) {
    if narrowed.is_empty() {
        return;
    }
    let mut out = Vec::with_capacity(edges.len());
    for e in std::mem::take(edges) {
        let paths = env_var(&e.via)
            .filter(|_| e.path.is_none())
            .and_then(|var| narrowed.get(&(e.from, e.to, var.to_string())));
        match paths {
            Some(paths) => {
                let mut seen: Vec<&String> = Vec::new();
                for p in paths {
                    if !seen.contains(&p) {
                        seen.push(p);
                        let mut copy = e.clone();
                        copy.path = Some(p.clone());
                        out.push(copy);
                    }
                }
            }
            None => out.push(e),
        }
    }
    *edges = out;
}

/// A route's `Path` patterns at a call's span, in one file's facts.
pub(super) fn route_of(f: &ScannedFile, span: Span) -> Vec<String> {
    f.facts
        .route_paths
        .iter()
        .find(|r| r.span == span)
        .map(|r| r.paths.clone())
        .unwrap_or_default()
}

/// A route's hosts at a call's span (an Ingress rule's `host`), in one
/// file's facts, as service names ([`short_host`]).
pub(super) fn hosts_of(f: &ScannedFile, span: Span) -> Vec<String> {
    f.facts
        .route_paths
        .iter()
        .find(|r| r.span == span)
        .map(|r| r.hosts.iter().map(|h| short_host(h)).collect())
        .unwrap_or_default()
}

/// Each Ingress host (as a service name) with its controller: a call to
/// `http://keycloak.local` reaches the controller that serves that host,
/// and through it the rule's backend. A host two controllers serve is
/// left alone (which one answers is not known).
pub(super) fn ingress_hosts(files: &[ScannedFile]) -> HashMap<String, (String, String)> {
    let mut out: HashMap<String, (String, String)> = HashMap::new();
    let mut twice: Vec<String> = Vec::new();
    for f in files {
        for r in f.facts.route_paths.iter().filter(|r| !r.hosts.is_empty()) {
            let Some(controller) = f
                .facts
                .edges
                .iter()
                .find(|e| e.span == r.span)
                .and_then(|e| e.caller.clone())
            else {
                continue;
            };
            for h in &r.hosts {
                let name = short_host(h);
                match out.get(&name) {
                    Some((_, c)) if *c != controller => twice.push(name),
                    Some(_) => {}
                    None => {
                        out.insert(name.clone(), (name, controller.clone()));
                    }
                }
            }
        }
    }
    for t in twice {
        out.remove(&t);
    }
    out
}

/// Whether a call naming `host` (`None`: the controller's own address)
/// may take a rule of `hosts` (empty: any host).
pub(super) fn allows_host(host: Option<&str>, hosts: &[String]) -> bool {
    match host {
        None => true,
        Some(h) => hosts.is_empty() || hosts.iter().any(|x| x == h),
    }
}

impl Graph {
    /// The edges a path may take after edge `e`: the callee's, those its
    /// route patterns let `e`'s path through, less the step that closes a
    /// cycle.
    pub fn next(&self, e: usize) -> impl Iterator<Item = usize> + '_ {
        let edge = &self.edges[e];
        let out = self.out.get(edge.to).map_or(&[][..], Vec::as_slice);
        out.iter().copied().filter(move |&n| {
            !self.back_moves.contains(&(e, n))
                && allows(edge.path.as_deref(), &self.edges[n].route)
                && allows_host(edge.host.as_deref(), &self.edges[n].route_hosts)
        })
    }

    /// Every edge a path may take after `e`, cycle-closing steps included.
    pub(super) fn all_next(&self, e: usize) -> impl Iterator<Item = usize> + '_ {
        let edge = &self.edges[e];
        let out = self.out.get(edge.to).map_or(&[][..], Vec::as_slice);
        out.iter().copied().filter(move |&n| {
            allows(edge.path.as_deref(), &self.edges[n].route)
                && allows_host(edge.host.as_deref(), &self.edges[n].route_hosts)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_of_targets() {
        assert_eq!(
            path_of_target("http://api-gateway:8989/catalog").as_deref(),
            Some("/catalog")
        );
        assert_eq!(
            path_of_target("\"https://h/api/x/?q=1\"").as_deref(),
            Some("/api/x")
        );
        assert_eq!(
            path_of_target("- ORDERS_URL=http://gw/orders/").as_deref(),
            Some("/orders")
        );
        for t in [
            "http://api-gateway:8989",
            "http://h/",
            "${CATALOG_URL:http://localhost:8081}",
            "orders:8080",
            "${a.url}/api",
        ] {
            assert_eq!(path_of_target(t), None, "{t}");
        }
    }

    #[test]
    fn route_patterns_select() {
        let catalog = vec!["/catalog/**".to_string()];
        let orders = vec!["/orders/**".to_string(), "/orders".to_string()];
        assert!(allows(Some("/catalog"), &catalog));
        assert!(allows(Some("/catalog/api/products/{code}"), &catalog));
        assert!(!allows(Some("/catalogue"), &catalog));
        assert!(!allows(Some("/catalog"), &orders));
        assert!(allows(Some("/orders"), &orders));
        assert!(allows(None, &orders));
        assert!(allows(Some("/x"), &[]));
        // An exact pattern: the path, or a path it extends.
        let exact = vec!["/api/orders".to_string()];
        assert!(allows(Some("/api"), &exact));
        assert!(allows(Some("/api/orders"), &exact));
        assert!(!allows(Some("/api/ordersx"), &exact));
    }

    #[test]
    fn entries_joined_and_own() {
        assert_eq!(env_var("env `ORDERS_URL`"), Some("ORDERS_URL"));
        assert_eq!(
            env_var("docker compose (no mesh) env `ORDERS_URL`"),
            Some("ORDERS_URL")
        );
        let joined = "`${orders.url}` = env `ORDERS_URL` of `orders` (apps.yml:3)";
        assert_eq!(env_var(joined), None);
        assert_eq!(joined_entry(joined), Some(("orders", "ORDERS_URL")));
    }
}
