//! Configuration in a fixture folder (`testdata/`, `fixtures/`, ..:
//! [`crate::extract::test_code::fixture_folder`]) is a test's input or its
//! expected output, not a deployment: its settings are checked like any
//! file's, but its calls, services and mesh installs are kept off the
//! call graph (issue 17, "test code is not the service").
//! kumahq/kuma 348b652's `testdata/*.golden.yaml` (the Envoy configuration
//! its MeshRetry plugin tests expect) made a chain of 12 attempts at a
//! `backend` nothing deploys. Decided on the path relative to the scan
//! root, so a fixture scanned as the root itself is read as deployed; not
//! done when test code is read (`test-code = "read"`). A mesh-wide
//! default (`defaultHttpRetryPolicy`) stays: the graph takes the first one
//! of the scan for the whole of it, and without a fixture's the first may
//! be a test environment's (istio's `tests/integration/base.yaml`, retries
//! off), which is worse.

use crate::model::ScannedFile;

/// Take the graph's facts off the fixture folders' files; the number of
/// files whose facts changed.
pub fn not_deployed(files: &mut [ScannedFile], relative: impl Fn(&ScannedFile) -> String) -> usize {
    let mut n = 0;
    for f in files.iter_mut() {
        let g = &f.facts;
        if g.edges.is_empty()
            && g.unresolved.is_empty()
            && g.services.is_empty()
            && g.mesh.is_none()
            && g.namespaces.is_empty()
            && g.gateway_classes.is_empty()
        {
            continue;
        }
        if crate::extract::test_code::fixture_folder(&relative(f)).is_none() {
            continue;
        }
        let g = &mut f.facts;
        g.edges.clear();
        g.unresolved.clear();
        g.services.clear();
        g.mesh = None;
        g.namespaces.clear();
        g.gateway_classes.clear();
        n += 1;
    }
    n
}
