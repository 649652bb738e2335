//! URLs a container is given on its command line (`command`, `args`):
//! `-c=http://recommendation-candidate:8080`, `--upstream=http://orders:8080`,
//! or the URL alone.
//!
//! redhat-scholars/istio-tutorial aea73b3 `diferencia/Deployment.yml` runs
//! a comparing proxy with `args: ["start", "-c=http://recommendation-candidate:8080",
//! "-p=http://recommendation-master:8080", ..]`, two Services of the
//! repository; only `env` entries were read. An argument is as often a
//! listen address or a public URL, so each is a call toward a service
//! the scan declares only ([`URL_VALUE_VIA`]). A shell line (`sh -c
//! "curl .."`) is not read.

use crate::model::CallEdge;
use crate::model::calls::{Protocol, URL_VALUE_VIA};
use crate::yaml::Yaml;

use super::Facts;

/// At most this many arguments of a container are looked at.
const MAX_ARGS: usize = 64;

/// The calls the container `c` of the workload `caller` is given on its
/// command line.
pub fn edges(caller: &str, c: Yaml<'_>, facts: &mut Facts) {
    for list in ["command", "args"] {
        let items = c.get(list).map(|a| a.items()).unwrap_or_default();
        for item in items.into_iter().take(MAX_ARGS) {
            let Some(text) = item.as_str() else {
                continue;
            };
            let (flag, value) = match text.split_once('=') {
                Some((f, v)) if f.starts_with('-') && !f.contains(' ') => (f, v),
                _ => ("", text),
            };
            let v = value.trim().trim_matches(['"', '\'']);
            let lower = v.to_ascii_lowercase();
            if !["http://", "https://", "grpc://"]
                .iter()
                .any(|s| lower.starts_with(s))
            {
                continue;
            }
            let Some(host) = super::workload::host_of(v) else {
                continue;
            };
            let shown = match flag {
                "" => String::new(),
                f => format!(" `{f}`"),
            };
            facts.edges.push(CallEdge {
                client: None,
                caller: Some(caller.to_string()),
                callee: host,
                span: item.span(),
                policies: Vec::new(),
                via: format!("container argument{shown}{URL_VALUE_VIA}"),
                protocol: Protocol::of_target(v),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_given_as_arguments_are_calls_toward_declared_services() {
        let doc = "name: c\nimage: x/c:1\nargs: [start, \"-c=http://orders-candidate:8080\", \"--listen=http://0.0.0.0:8080\", \"sh -c 'curl http://a:1'\"]\ncommand: [\"http://orders-primary:8080/x\"]\n";
        let f = crate::yaml::parse(doc);
        let c = f.root(&f.documents[0]);
        let mut facts = Facts::default();
        edges("comparer", c, &mut facts);
        let calls: Vec<(&str, &str)> = facts
            .edges
            .iter()
            .map(|e| (e.callee.as_str(), e.via.as_str()))
            .collect();
        assert_eq!(
            calls,
            [
                ("orders-primary", "container argument (a URL)"),
                ("orders-candidate", "container argument `-c` (a URL)"),
            ]
        );
    }
}
