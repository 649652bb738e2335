//! What a call of the graph speaks (issue 17): the protocol its reader
//! stated, its target, its placeholder's value, the callee's Services.

use super::*;

/// What a call speaks: what its reader `stated`, else its target as
/// written (a scheme, a well-known port), else the value its placeholder
/// resolved to, else what the callee's Kubernetes Services say. A call
/// stated HTTP (an Istio `http` route) may be gRPC, which is HTTP/2:
/// those say which.
pub(super) fn protocol(
    b: &Builder<'_>,
    entries: &HashMap<(String, String), Protocol>,
    (file, span, via): (FileId, Span, &str),
    to: ServiceId,
    stated: Option<Protocol>,
) -> Protocol {
    let text = b.files[file]
        .source
        .text
        .get(span.start..span.end)
        .unwrap_or("");
    let found = || {
        Protocol::of_target(text)
            .or_else(|| value_protocol(entries, via))
            .or_else(|| b.protocols.get(&to).copied().flatten())
            .unwrap_or_default()
    };
    match stated {
        Some(Protocol::Http) if found() == Protocol::Grpc => Protocol::Grpc,
        Some(p) => p,
        None => found(),
    }
}

/// What a placeholder target's value speaks (`${CATALOG_SERVICE_URL:..}`
/// is not the call): the environment entry it is joined to (``= env `X`
/// of `svc` ``, that entry's own call), else the value a configuration
/// file gives it (`` = `http://payment-service:8080` ``).
fn value_protocol(entries: &HashMap<(String, String), Protocol>, via: &str) -> Option<Protocol> {
    if let Some((name, var)) = super::routes::joined_entry(via) {
        return entries.get(&(name.to_string(), var.to_string())).copied();
    }
    let (_, rest) = via.split_once("` = `")?;
    Protocol::of_target(rest.split('`').next()?)
}

/// The protocol of each environment entry's own call, by (service,
/// variable): the one its reader gave it, else its value's.
pub(super) fn entry_protocols(files: &[ScannedFile]) -> HashMap<(String, String), Protocol> {
    let mut out = HashMap::new();
    for f in files {
        for e in &f.facts.edges {
            let (Some(caller), Some(var)) = (&e.caller, super::routes::env_var(&e.via)) else {
                continue;
            };
            let value = f.source.text.get(e.span.start..e.span.end).unwrap_or("");
            if let Some(p) = e.protocol.or_else(|| Protocol::of_target(value)) {
                out.insert((caller.clone(), var.to_string()), p);
            }
        }
    }
    out
}
