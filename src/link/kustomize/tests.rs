use super::*;
use crate::source::SourceFile;

fn file(path: &str, text: &str) -> ScannedFile {
    let syntax = crate::systems::classify(Path::new(path), text.as_bytes());
    let facts = syntax
        .map(|s| crate::systems::extract(Path::new(path), text, s))
        .unwrap_or_default();
    ScannedFile {
        source: SourceFile::new(path, text.to_string()),
        facts,
        syntax,
    }
}

const VS: &str = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: orders\nspec:\n  hosts:\n  - orders\n  http:\n  - route:\n    - destination:\n        host: orders\n    timeout: 20s\n    retries:\n      attempts: 2\n      perTryTimeout: 5s\n";

const PATCH: &str = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: orders\nspec:\n  http:\n  - route:\n    - destination:\n        host: orders\n    retries:\n      attempts: 6\n";

#[test]
fn a_patch_holds_the_policy_it_writes_and_names_the_base() {
    let mut files = vec![
        file("k/base/kustomization.yaml", "resources:\n- vs.yaml\n"),
        file("k/base/vs.yaml", VS),
        file(
            "k/prod/kustomization.yaml",
            "namePrefix: prod-\nresources:\n- ../base\npatches:\n- path: patch.yaml\n",
        ),
        file("k/prod/patch.yaml", PATCH),
    ];
    assert!(files[0].facts.extractors.contains(&kustomize::CLAIM));
    let base_before = files[1].facts.policies.clone();
    kustomize_overlays(&mut files, None, crate::link::Disk::direct());
    // The base is untouched, the kustomizations hold nothing.
    assert_eq!(files[1].facts.policies, base_before);
    assert!(files[2].facts.policies.is_empty());
    // The patch's own reading (a route with no timeout) is replaced by
    // the patched resource: the route lost its timeout (the list was
    // replaced), attempts 6 from the patch.
    let p = &files[3].facts.policies;
    assert_eq!(p.len(), 1, "{p:#?}");
    assert_eq!(
        p[0].name.as_deref(),
        Some("prod-orders/http[0]` with overlay `k/prod")
    );
    let at = p[0].attempts.span;
    assert_eq!(&PATCH[at.start..at.end], "attempts: 6");
    // Nothing of it comes from the base any more (not its timeout).
    assert!(p[0].settings_from.is_empty(), "{:?}", p[0].settings_from);
}

#[test]
fn an_inline_json_patch_points_at_the_kustomization_and_keeps_the_base_timeout() {
    let k = "resources:\n- ../base\npatches:\n- target:\n    kind: VirtualService\n  patch: |-\n    - op: replace\n      path: /spec/http/0/retries/attempts\n      value: 9\n";
    let mut files = vec![
        file("k/base/kustomization.yaml", "resources:\n- vs.yaml\n"),
        file("k/base/vs.yaml", VS),
        file("k/stage/kustomization.yaml", k),
    ];
    kustomize_overlays(&mut files, None, crate::link::Disk::direct());
    let p = &files[2].facts.policies;
    assert_eq!(p.len(), 1, "{p:#?}");
    let at = p[0].attempts.span;
    assert_eq!(&k[at.start..at.end], "9");
    assert!(p[0].overall_timeout.is_some());
    assert!(
        p[0].settings_from
            .iter()
            .any(|s| s.path == "k/base/vs.yaml" && s.line == 12),
        "{:?}",
        p[0].settings_from
    );
}

#[test]
fn a_component_no_kustomization_names_is_not_built_alone() {
    let mut files = vec![
        file("k/base/vs.yaml", VS),
        file(
            "k/c/kustomization.yaml",
            "kind: Component\nresources:\n- ../base/vs.yaml\npatches:\n- target:\n    kind: VirtualService\n  patch: |-\n    - op: replace\n      path: /spec/http/0/retries/attempts\n      value: 9\n",
        ),
    ];
    kustomize_overlays(&mut files, None, crate::link::Disk::direct());
    assert!(files[1].facts.policies.is_empty());
}

#[test]
fn an_overlay_that_changes_no_setting_adds_nothing() {
    let mut files = vec![
        file("k/base/kustomization.yaml", "resources:\n- vs.yaml\n"),
        file("k/base/vs.yaml", VS),
        file(
            "k/dev/kustomization.yaml",
            "namespace: dev\nresources:\n- ../base\npatches:\n- target:\n    kind: VirtualService\n  patch: |-\n    - op: add\n      path: /metadata/labels\n      value: {a: b}\n",
        ),
    ];
    kustomize_overlays(&mut files, None, crate::link::Disk::direct());
    assert!(files[2].facts.policies.is_empty());
    assert_eq!(files[1].facts.policies.len(), 1);
}

/// A resource file's `CustomResourceDefinition` documents (no reader reads
/// one) are not parsed for each build: kubeflow/manifests' overlays
/// parsed megabytes of definitions again for every overlay, and the link
/// stage overran its time budget. The loader gives the resource text with
/// them blanked, offsets kept, so the build holds the other documents only.
#[test]
fn definitions_are_blanked_before_a_build_parses_its_resources() {
    let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: things.acme.io\nspec:\n  group: acme.io\n";
    let text = format!("{crd}---\n{VS}");
    let files = vec![
        file("k/base/kustomization.yaml", "resources:\n- all.yaml\n"),
        file("k/base/all.yaml", &text),
    ];
    let mut l = loader(&files);
    let b = kustomize::build(Path::new("k/base"), 0, &mut l);
    let kinds: Vec<&str> = b
        .resources
        .iter()
        .filter_map(|r| r.node.get("kind").and_then(|k| k.str()))
        .collect();
    assert_eq!(kinds, ["VirtualService"]);
    // The text itself is unchanged for everything else.
    assert_eq!(l.text(1), text);
    assert_ne!(l.resource_text(1), text);
    assert_eq!(l.resource_text(1).len(), text.len());
}

fn loader(files: &[ScannedFile]) -> Files<'_> {
    Files {
        files,
        by_path: (0..files.len())
            .map(|i| (normal(&files[i].source.path), i))
            .collect(),
        extra: Vec::new(),
        missing: Default::default(),
        blanked: HashMap::new(),
        parsed: HashMap::new(),
        built: HashMap::new(),
        reads: Vec::new(),
        loaded: Default::default(),
        disk: super::super::Disk::direct(),
    }
}

/// A templated resource file (kubeflow's `kserve_kubeflow.yaml`: 3.7 MB
/// of definitions and `{{ .Name }}` in a ConfigMap) is parsed whole for
/// a build, as the scan parsed it: the build takes the scan's parse,
/// and builds what its own parse builds.
#[test]
fn a_templated_resource_file_is_built_from_the_scans_parse() {
    let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  t: \"{{ .Name }}\"\n";
    let text = format!("{cm}---\n{VS}");
    let mut files = vec![
        file("k/base/kustomization.yaml", "resources:\n- all.yaml\n"),
        file("k/base/all.yaml", &text),
    ];
    let kept = files[1].facts.parse.0.clone().expect("kept");
    let l = loader(&files);
    assert!(Arc::ptr_eq(&l.resource_parse(1), &kept));
    let mut l = loader(&files);
    let with = kustomize::build(Path::new("k/base"), 0, &mut l);
    drop(l);
    files[1].facts.parse = Default::default();
    let mut l = loader(&files);
    let without = kustomize::build(Path::new("k/base"), 0, &mut l);
    assert_eq!(with.resources.len(), 2);
    for (a, b) in with.resources.iter().zip(&without.resources) {
        assert_eq!(a.node, b.node);
    }
}

/// Overlays share the trees of the base they include: one overlay's
/// patch, prefix and namespace change its own copy, never the base the
/// next overlay builds on.
#[test]
fn an_overlay_changes_its_copy_of_a_shared_base_only() {
    let files = vec![
        file("k/base/kustomization.yaml", "resources:\n- vs.yaml\n"),
        file("k/base/vs.yaml", VS),
        file(
            "k/prod/kustomization.yaml",
            "namePrefix: prod-\nnamespace: prod\nresources:\n- ../base\npatches:\n- path: patch.yaml\n",
        ),
        file("k/prod/patch.yaml", PATCH),
        file("k/dev/kustomization.yaml", "resources:\n- ../base\n"),
    ];
    let mut l = loader(&files);
    let prod = kustomize::build(Path::new("k/prod"), 2, &mut l);
    let dev = kustomize::build(Path::new("k/dev"), 4, &mut l);
    let attempts = |b: &kustomize::Build| {
        let n = &b.resources[0].node;
        let http = n.path(&["spec", "http"]).map(|h| format!("{h:?}"));
        (
            n.path(&["metadata", "name"])
                .and_then(|x| x.str())
                .map(String::from),
            http.is_some_and(|h| h.contains("\"6\"")),
        )
    };
    assert_eq!(attempts(&prod), (Some("prod-orders".into()), true));
    assert_eq!(attempts(&dev), (Some("orders".into()), false));
    assert!(
        dev.resources[0]
            .node
            .path(&["metadata", "namespace"])
            .is_none()
    );
}

/// The paths a loader read from disk and found missing, sorted.
fn loaded(l: &Files<'_>) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut read: Vec<PathBuf> = l.extra.iter().map(|(p, _)| p.clone()).collect();
    let mut missing: Vec<PathBuf> = l.missing.iter().cloned().collect();
    read.sort();
    missing.sort();
    (read, missing)
}

/// Whether a build gives the overlay step nothing to read: no writer, no
/// kustomization that moves identities.
fn dropped(b: &kustomize::Build, l: &Files<'_>) -> bool {
    b.writers.is_empty()
        && !b
            .kustomizations
            .iter()
            .any(|&k| kustomize::moves_identities(l.text(k)))
}

/// An overlay that only lists resources (the generated tree's 200
/// kustomizations) is told quiet without a build, having read what the
/// build reads; a patch, a generator or a moved identity anywhere in the
/// kustomizations it includes makes it built (a generator's build is
/// dropped too, but reads files of its own: built, to read them).
#[test]
fn an_overlay_that_only_lists_resources_is_quiet_without_a_build() {
    let base = || {
        file(
            "k/base/kustomization.yaml",
            "resources:\n- vs.yaml\n- deployment.yaml\n",
        )
    };
    let cases = [
        ("resources:\n- ../base\n- extra.yaml\n", true, true),
        ("bases:\n- ../base\ncomponents:\n- ../none\n", true, true),
        ("resources:\n- ../dev\n", true, true),
        (
            "resources:\n- ../base\npatches:\n- path: patch.yaml\n",
            false,
            false,
        ),
        ("namePrefix: a-\nresources:\n- ../base\n", false, false),
        (
            "resources:\n- ../base\nconfigMapGenerator:\n- name: c\n",
            false,
            true,
        ),
        (
            "resources:\n- ../base\ncomponents:\n- ../patching\n",
            false,
            false,
        ),
        ("resources:\n- ../labelled\n", false, false),
    ];
    for (text, want, drop) in cases {
        let files = vec![
            base(),
            file("k/base/vs.yaml", VS),
            file("k/dev/kustomization.yaml", text),
            file("k/dev/patch.yaml", PATCH),
            file(
                "k/patching/kustomization.yaml",
                "kind: Component\npatches:\n- path: ../dev/patch.yaml\n",
            ),
            file(
                "k/labelled/kustomization.yaml",
                "commonLabels:\n  a: b\nresources:\n- ../base\n",
            ),
        ];
        let mut l = loader(&files);
        let quiet = quiet::quiet(Path::new("k/dev"), 2, &mut l);
        assert_eq!(quiet, want, "{text}");
        let mut built = loader(&files);
        let b = kustomize::build(Path::new("k/dev"), 2, &mut built);
        assert_eq!(dropped(&b, &built), drop, "{text}");
        if quiet {
            assert_eq!(loaded(&l), loaded(&built), "{text}");
        }
    }
}

/// Every kustomization of the fixtures: quiet only where its build would
/// be dropped, having read the files its build reads.
#[test]
fn quiet_overlays_of_the_fixtures_are_the_dropped_builds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = (0, 0);
    for group in ["testdata/graph", "testdata/templates"] {
        for fixture in std::fs::read_dir(root.join(group)).unwrap() {
            let fixture = fixture.unwrap().path();
            let mut paths = Vec::new();
            let mut dirs = vec![fixture.clone()];
            while let Some(d) = dirs.pop() {
                for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                    let p = e.path();
                    if p.is_dir() {
                        dirs.push(p);
                    } else {
                        paths.push(p);
                    }
                }
            }
            paths.sort();
            let files: Vec<ScannedFile> = paths
                .iter()
                .filter_map(|p| {
                    let text = std::fs::read_to_string(p).ok()?;
                    Some(file(p.to_str()?, &text))
                })
                .collect();
            for (i, f) in files.iter().enumerate() {
                let name = f.source.path.file_name().unwrap().to_string_lossy();
                if !kustomize::is_kustomization(&name.to_lowercase()) {
                    continue;
                }
                let dir = f.source.path.parent().unwrap();
                let mut l = loader(&files);
                let quiet = quiet::quiet(dir, i, &mut l);
                let mut built = loader(&files);
                let b = kustomize::build(dir, i, &mut built);
                let what = f.source.path.display();
                if quiet {
                    assert!(dropped(&b, &built), "{what}");
                    assert_eq!(loaded(&l), loaded(&built), "{what}");
                    seen.0 += 1;
                } else {
                    seen.1 += 1;
                }
            }
        }
    }
    // Both answers occur (bases list resources only; overlays patch).
    assert!(seen.0 > 0 && seen.1 > 0, "{seen:?}");
}
