use super::tree::{Node, T, Written};
use super::*;

/// Files in memory, by path.
struct Mem(Vec<(PathBuf, String)>);

impl Loader for Mem {
    fn load(&mut self, path: &Path) -> Option<usize> {
        self.0.iter().position(|(p, _)| p == path)
    }
    fn text(&self, file: usize) -> &str {
        &self.0[file].1
    }
}

fn mem(files: &[(&str, &str)]) -> Mem {
    Mem(files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.to_string()))
        .collect())
}

fn render(b: &Build, l: &Mem) -> Written {
    let mut w = Written::default();
    for r in &b.resources {
        w.document(&r.node, &|i| Some(l.text(i))).unwrap();
    }
    w
}

const VS: &str = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: orders\nspec:\n  http:\n  - timeout: 20s\n    retries:\n      attempts: 2\n";

#[test]
fn a_json6902_patch_changes_the_value_and_the_output_points_at_the_patch() {
    let k = "resources:\n- ../base\nnamePrefix: prod-\npatches:\n- target:\n    kind: VirtualService\n    name: orders\n  patch: |-\n    - op: replace\n      path: /spec/http/0/retries/attempts\n      value: 7\n";
    let mut l = mem(&[
        ("o/kustomization.yaml", k),
        ("base/kustomization.yaml", "resources:\n- vs.yaml\n"),
        ("base/vs.yaml", VS),
    ]);
    let b = build(Path::new("o"), 0, &mut l);
    assert_eq!(b.resources.len(), 1);
    let w = render(&b, &l);
    assert!(w.text.contains("name: prod-orders"), "{}", w.text);
    let at = w.text.find("attempts: 7").unwrap() + "attempts: ".len();
    let (f, s) = w.origin(Span::new(at, at + 1)).unwrap();
    assert_eq!(f, 0);
    assert_eq!(&k[s.start..s.end], "7");
    // The timeout is still the base's.
    let at = w.text.find("20s").unwrap();
    let (f, s) = w.origin(Span::new(at, at + 3)).unwrap();
    assert_eq!((f, &VS[s.start..s.end]), (2, "20s"));
    assert_eq!(b.writers.len(), 1);
    assert_eq!(b.writers[0].file, 0);
}

#[test]
fn a_strategic_merge_patch_replaces_a_custom_resources_list_and_merges_containers_by_name() {
    let patch = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: orders\nspec:\n  http:\n  - retries:\n      attempts: 4\n";
    let dep = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: orders\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n        image: x:1\n      - name: b\n        image: y:1\n";
    let dpatch = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: orders\nspec:\n  template:\n    spec:\n      containers:\n      - name: b\n        image: y:2\n";
    let mut l = mem(&[
        (
            "o/kustomization.yaml",
            "resources:\n- vs.yaml\n- dep.yaml\npatchesStrategicMerge:\n- p.yaml\n- d.yaml\nimages:\n- name: x\n  newTag: \"9\"\n",
        ),
        ("o/vs.yaml", VS),
        ("o/p.yaml", patch),
        ("o/dep.yaml", dep),
        ("o/d.yaml", dpatch),
    ]);
    let b = build(Path::new("o"), 0, &mut l);
    let w = render(&b, &l);
    // The route list was replaced: no timeout any more.
    assert!(!w.text.contains("timeout"), "{}", w.text);
    assert!(w.text.contains("attempts: 4"));
    // Containers merged by name: a kept (retagged), b patched.
    assert!(w.text.contains("image: x:9"), "{}", w.text);
    assert!(w.text.contains("image: y:2"), "{}", w.text);
    assert_eq!(b.writers.iter().map(|x| x.file).collect::<Vec<_>>(), [2, 4]);
}

#[test]
fn components_and_generators_and_cycles() {
    let mut l = mem(&[
        (
            "o/kustomization.yaml",
            "resources:\n- ../o\ncomponents:\n- ../c\nconfigMapGenerator:\n- name: env\n  literals:\n  - MAX_RETRIES=5\n",
        ),
        (
            "c/kustomization.yaml",
            "kind: Component\nresources:\n- vs.yaml\n",
        ),
        ("c/vs.yaml", VS),
    ]);
    let b = build(Path::new("o"), 0, &mut l);
    let kinds: Vec<_> = b
        .resources
        .iter()
        .map(|r| r.node.get("kind").and_then(Node::str).unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["ConfigMap", "VirtualService"]);
    let w = render(&b, &l);
    assert!(w.text.contains("MAX_RETRIES: \"5\""), "{}", w.text);
}

#[test]
fn json6902_operations() {
    let f = crate::yaml::parse("a:\n  l: [1, 2]\n  m: {x: 1}\n");
    let mut n = Node::from_yaml(f.root(&f.documents[0]), 0);
    let v = Node::scalar("9", None);
    assert!(tree::json6902(&mut n, "add", "/a/l/-", None, Some(&v)));
    assert!(tree::json6902(&mut n, "add", "/a/l/0", None, Some(&v)));
    assert!(tree::json6902(&mut n, "remove", "/a/m/x", None, None));
    assert!(tree::json6902(&mut n, "copy", "/a/c", Some("/a/l/1"), None));
    assert!(!tree::json6902(
        &mut n,
        "replace",
        "/a/nope",
        None,
        Some(&v)
    ));
    assert!(!tree::json6902(&mut n, "add", "/a/l/9", None, Some(&v)));
    let l: Vec<_> = match &n.path(&["a", "l"]).unwrap().t {
        T::List(l) => l.iter().map(|x| x.str().unwrap().to_string()).collect(),
        _ => panic!(),
    };
    assert_eq!(l, ["9", "1", "2", "9"]);
    assert_eq!(n.path(&["a", "c"]).and_then(Node::str), Some("1"));
    assert!(matches!(&n.path(&["a", "m"]).unwrap().t, T::Map(m) if m.is_empty()));
}

#[test]
fn names_and_remote_resources() {
    assert!(is_kustomization("kustomization"));
    assert!(is_kustomization("kustomization.yml"));
    assert!(!is_kustomization("kustomization.json"));
    let refs = references(
        Path::new("a/b"),
        "resources:\n- ../c\n- https://github.com/x/y\n- github.com/x/y//z\ncomponents:\n- ./d\n",
    );
    assert_eq!(refs, [PathBuf::from("a/c"), PathBuf::from("a/b/d")]);
    assert_eq!(split_image("r:5000/x:1"), ("r:5000/x", ":1"));
    assert_eq!(split_image("r:5000/x"), ("r:5000/x", ""));
    assert!(name_matches("orders", "orders"));
    assert!(name_matches("ord.*|pay", "pay"));
    assert!(name_matches("ord.+s", "orders"));
    assert!(!name_matches("ord.+s", "ords"));
    assert!(!name_matches("orders", "orders-v2"));
    assert!(!name_matches("[a-z]+", "orders"));
}

/// `secretGenerator` gives a Secret whose `stringData` the embedded
/// reader takes (an `application.yml` carried in it), and `envs` files
/// give one key per `KEY=value` line (comments and blank lines skipped),
/// each value pointing into the env file.
#[test]
fn secret_generator_and_env_files() {
    let mut l = mem(&[
        (
            "o/kustomization.yaml",
            "configMapGenerator:\n- name: env\n  envs:\n  - app.env\nsecretGenerator:\n- name: conf\n  files:\n  - application.yml\n",
        ),
        (
            "o/app.env",
            "# retries\nMAX_RETRIES=5\n\nBACKEND_URL=http://orders:8080\n",
        ),
        (
            "o/application.yml",
            "spring:\n  application:\n    name: shop\n",
        ),
    ]);
    let b = build(Path::new("o"), 0, &mut l);
    let kinds: Vec<_> = b
        .resources
        .iter()
        .map(|r| r.node.get("kind").and_then(Node::str).unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["ConfigMap", "Secret"]);
    let env = b.resources[0].node.get("data").unwrap();
    let url = env.get("BACKEND_URL").unwrap();
    assert_eq!(url.str(), Some("http://orders:8080"));
    let (file, span) = url.at.unwrap();
    assert_eq!(&l.text(file)[span.start..span.end], "http://orders:8080");
    assert_eq!(env.get("MAX_RETRIES").and_then(Node::str), Some("5"));
    let secret = b.resources[1].node.get("stringData").unwrap();
    assert!(secret.get("application.yml").is_some());
    let w = render(&b, &l);
    assert!(w.text.contains("kind: Secret"), "{}", w.text);
}

/// `commonLabels` select (a Service's selector and a Deployment's pod
/// labels change together); `labels` without `includeSelectors` only
/// labels, with `includeTemplates` the pod template too (kustomize's
/// labels.md examples).
#[test]
fn common_labels_change_selectors_and_labels_only_where_asked() {
    let dep = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: orders\nspec:\n  selector:\n    matchLabels:\n      app: orders\n  template:\n    metadata:\n      labels:\n        app: orders\n";
    let svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: orders\nspec:\n  selector:\n    app: orders\n";
    let k = "resources:\n- dep.yaml\n- svc.yaml\ncommonLabels:\n  tier: backend\nlabels:\n- pairs:\n    owner: alice\n- pairs:\n    team: a\n  includeTemplates: true\n";
    let mut l = mem(&[
        ("o/kustomization.yaml", k),
        ("o/dep.yaml", dep),
        ("o/svc.yaml", svc),
    ]);
    let b = build(Path::new("o"), 0, &mut l);
    let get = |kind: &str, path: &[&str]| -> Vec<String> {
        let r = b
            .resources
            .iter()
            .find(|r| r.node.get("kind").and_then(Node::str) == Some(kind))
            .unwrap();
        match r.node.path(path).map(|n| &n.t) {
            Some(T::Map(m)) => m.iter().map(|(k, _)| k.name.clone()).collect(),
            _ => Vec::new(),
        }
    };
    assert_eq!(get("Service", &["spec", "selector"]), ["app", "tier"]);
    assert_eq!(
        get("Deployment", &["spec", "selector", "matchLabels"]),
        ["app", "tier"]
    );
    assert_eq!(
        get("Deployment", &["spec", "template", "metadata", "labels"]),
        ["app", "tier", "team"]
    );
    assert_eq!(
        get("Deployment", &["metadata", "labels"]),
        ["tier", "owner", "team"]
    );
    // The added label's value points at the kustomization.
    let w = render(&b, &l);
    let at = w.text.find("backend").unwrap();
    let (f, s) = w.origin(Span::new(at, at + 7)).unwrap();
    assert_eq!((f, &k[s.start..s.end]), (0, "backend"));
}

/// [`Mem`] keeping each included kustomization's build, counting reuses.
struct Keeping {
    mem: Mem,
    kept: std::collections::HashMap<usize, Built>,
    reused: std::cell::Cell<usize>,
}

impl Loader for Keeping {
    fn load(&mut self, path: &Path) -> Option<usize> {
        self.mem.load(path)
    }
    fn text(&self, file: usize) -> &str {
        self.mem.text(file)
    }
    fn built(&self, file: usize) -> Option<&Built> {
        let k = self.kept.get(&file);
        self.reused
            .set(self.reused.get() + usize::from(k.is_some()));
        k
    }
    fn keep(&mut self, file: usize, built: Built) {
        self.kept.insert(file, built);
    }
}

/// Everything a build gives that the link step reads.
fn outline(b: &Build, l: &Mem) -> String {
    format!(
        "{}\n{:?}\n{:?}\n{:?}",
        render(b, l).text,
        b.writers,
        b.kustomizations,
        b.resources
            .iter()
            .map(|r| (r.file, &r.first_name))
            .collect::<Vec<_>>()
    )
}

/// Overlays that include one base (kubeflow/manifests builds its bases
/// once per overlay) get from a kept build exactly what building it again
/// gives: resources, patches' writers, kustomizations in order, also
/// where one base is reached twice in one build, and where a cycle cuts
/// an inclusion (never kept: what it gives depends on the stack).
#[test]
fn a_kept_build_gives_what_building_again_gives() {
    let patch = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: orders\nspec:\n  http:\n  - retries:\n      attempts: 4\n";
    let files = [
        (
            "o1/kustomization.yaml",
            "resources:\n- ../mid\nnamespace: one\n",
        ),
        (
            "o2/kustomization.yaml",
            "resources:\n- ../mid\n- ../base\nnamePrefix: two-\n",
        ),
        (
            "mid/kustomization.yaml",
            "resources:\n- ../base\npatches:\n- path: p.yaml\nnameSuffix: -m\n",
        ),
        ("mid/p.yaml", patch),
        ("base/kustomization.yaml", "resources:\n- vs.yaml\n"),
        ("base/vs.yaml", VS),
        ("c1/kustomization.yaml", "resources:\n- ../c2\n- vs.yaml\n"),
        ("c1/vs.yaml", VS),
        ("c2/kustomization.yaml", "resources:\n- ../c1\n- ../base\n"),
        ("c3/kustomization.yaml", "resources:\n- ../c2\n"),
    ];
    let roots = [
        ("o1", 0),
        ("o2", 1),
        ("o1", 0),
        ("c1", 6),
        ("c3", 9),
        ("c2", 8),
    ];
    let mut keeping = Keeping {
        mem: mem(&files),
        kept: Default::default(),
        reused: Default::default(),
    };
    for (dir, k) in roots {
        let kept = build(Path::new(dir), k, &mut keeping);
        let mut fresh = mem(&files);
        let again = build(Path::new(dir), k, &mut fresh);
        assert_eq!(
            outline(&kept, &keeping.mem),
            outline(&again, &fresh),
            "{dir}"
        );
    }
    assert!(keeping.reused.get() >= 3, "{}", keeping.reused.get());
    // The cycle c1 -> c2 -> c1 is cut: neither is kept from inside it.
    assert!(!keeping.kept.contains_key(&6));
}
