//! A second Deployment a Service selects beside the one named after it
//! (a canary, a fixed build: `payment-fix` with `payment`'s pod labels):
//! one service with two workloads, so the second joins the first's node
//! instead of standing alone with no edge (issue 17, stop 43).

use crate::model::ServiceDecl;
use crate::model::calls::short_host;

type Named = (String, Option<String>);

/// For a Service `svc` whose selector picks the workloads `picked` (of
/// more than one name): each picked workload not named as the Service,
/// joined to the one that is, if one is; else nothing. A workload a
/// Service of its own is named after (in `services`) keeps its node.
pub(super) fn joins(
    svc: &ServiceDecl,
    picked: &[&&ServiceDecl],
    services: &std::collections::BTreeSet<String>,
) -> Vec<(Named, Named)> {
    let host = short_host(&svc.name);
    let Some(main) = picked.iter().find(|w| short_host(&w.name) == host) else {
        return Vec::new();
    };
    let target = (host.clone(), main.placement.namespace.clone());
    picked
        .iter()
        .filter(|w| short_host(&w.name) != host && !services.contains(&short_host(&w.name)))
        .map(|w| {
            (
                (short_host(&w.name), w.placement.namespace.clone()),
                target.clone(),
            )
        })
        .collect()
}
