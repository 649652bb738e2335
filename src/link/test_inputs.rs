//! Configuration in a fixture folder (`testdata/`, `fixtures/`, ..:
//! [`crate::extract::test_code::fixture_folder`]) is a test's input or its
//! expected output, not a deployment: its settings are checked like any
//! file's, but its calls, services, mesh installs and mesh-wide defaults
//! are kept off the call graph, and its routes and limits join no other
//! file (issue 17, "test code is not the service").
//! kumahq/kuma 348b652's `testdata/*.golden.yaml` (the Envoy configuration
//! its MeshRetry plugin tests expect) made a chain of 12 attempts at a
//! `backend` nothing deploys; istio/istio 86c9f01's
//! `operator/cmd/mesh/testdata/manifest-generate/input/*.yaml` (an
//! operator test's inputs, one with `tag: 1.1.4`) made Istio's default
//! before 1.24 the default of every sample's routes. Decided on the path
//! relative to the scan root, so a fixture scanned as the root itself is
//! read as deployed; not done when test code is read (`test-code =
//! "read"`).

use crate::model::ScannedFile;

/// Mark the fixture folders' files ([`crate::model::Facts::test_input`]),
/// before the link steps (which join no such file to another); the marks,
/// to be put back by [`not_deployed`] (a step that reads a file again
/// makes its facts anew).
pub fn mark(files: &mut [ScannedFile], relative: impl Fn(&ScannedFile) -> String) -> Vec<bool> {
    files
        .iter_mut()
        .map(|f| {
            use crate::extract::test_code::fixture_folder;
            // Most paths name no fixture folder even as walked (the root's
            // path, then the part below it): only those are made relative.
            let fixture = f
                .source
                .path
                .to_str()
                .is_none_or(|p| cfg!(windows) || fixture_folder(p).is_some())
                && fixture_folder(&relative(f)).is_some();
            f.facts.test_input = fixture;
            fixture
        })
        .collect()
}

/// Take the graph's facts off the files [`mark`] marked (`marks`, by
/// index); the number of files whose facts changed.
pub fn not_deployed(files: &mut [ScannedFile], marks: &[bool]) -> usize {
    let mut n = 0;
    for (f, &fixture) in files.iter_mut().zip(marks) {
        if !fixture {
            continue;
        }
        let g = &mut f.facts;
        g.test_input = true;
        if g.edges.is_empty()
            && g.unresolved.is_empty()
            && g.services.is_empty()
            && g.mesh.is_none()
            && g.namespaces.is_empty()
            && g.gateway_classes.is_empty()
            && g.mesh_defaults.is_empty()
        {
            continue;
        }
        g.edges.clear();
        g.unresolved.clear();
        g.services.clear();
        g.mesh = None;
        g.namespaces.clear();
        g.gateway_classes.clear();
        // A `defaultHttpRetryPolicy` stays among the file's policies, where
        // its own findings are.
        g.mesh_defaults.clear();
        n += 1;
    }
    n
}
