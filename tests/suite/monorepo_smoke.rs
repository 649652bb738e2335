//! Smoke test for the benchmark's synthetic monorepo (issue 9): the
//! generator (`examples/gen_monorepo.rs`) writes 1,000 files and the whole
//! pipeline reads them without a notice or an internal error. No timing is
//! asserted here: `scripts/bench.sh` measures.

#[path = "../../examples/gen_monorepo.rs"]
#[allow(dead_code)]
mod gen_monorepo;

use gen_monorepo::{FILES_PER_SERVICE, generate};
use retrylint::config::Settings;

#[test]
fn generated_monorepo_is_scanned_without_errors() {
    let dir = tempfile::tempdir().unwrap();
    let summary = generate(dir.path(), 1000, 7, 2).unwrap();
    assert_eq!(summary.services, 1000 / FILES_PER_SERVICE);
    assert!(summary.files >= 1000, "{summary:?}");

    let settings = Settings::default();
    let scan = retrylint::scan(&[dir.path().to_path_buf()], &settings).unwrap();
    assert!(scan.notices.is_empty(), "{:?}", scan.notices);
    // The `.gitignore`d build folder is not walked.
    assert_eq!(scan.stats.files_seen, summary.files - summary.ignored);
    assert!(
        scan.files
            .iter()
            .all(|f| !f.source.display_path().contains("/build/"))
    );
    // Every format of every service is read.
    for (extractor, per_service) in [
        ("aws", 1),
        ("csharp", 1),
        ("dotnet", 1),
        ("envoy", 1),
        ("grpc", 1),
        ("istio", 1),
        ("nginx", 1),
        ("python", 1),
        ("resilience4j", 2),
        ("rust", 2),
        ("workload", 1),
    ] {
        assert_eq!(
            scan.stats.per_extractor.get(extractor).copied(),
            Some(per_service * summary.services),
            "{extractor}: {:?}",
            scan.stats.per_extractor
        );
    }
    let run = retrylint::pipeline::Pipeline::new(&settings)
        .after_scan(scan, |_| true)
        .report;
    assert!(!run.findings.is_empty());
    // The generated tree is a function of its seed.
    let again = tempfile::tempdir().unwrap();
    assert_eq!(generate(again.path(), 1000, 7, 3).unwrap(), summary);
    let a = std::fs::read(
        dir.path()
            .join("services/svc-00003/src/main/resources/application.yml"),
    );
    let b = std::fs::read(
        again
            .path()
            .join("services/svc-00003/src/main/resources/application.yml"),
    );
    assert_eq!(a.unwrap(), b.unwrap());
}
