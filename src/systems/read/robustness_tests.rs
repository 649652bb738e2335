use super::*;

/// Every fixture of the proxy and mesh formats, cut at many points and
/// with bytes swapped, is read without a panic.
#[test]
fn truncated_and_mangled_inputs_do_not_panic() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/rules");
    let mut texts = Vec::new();
    for rule in std::fs::read_dir(&root).unwrap().flatten() {
        for kind in ["err", "ok"] {
            let Ok(dir) = std::fs::read_dir(rule.path().join(kind)) else {
                continue;
            };
            for f in dir.flatten() {
                let name = f.file_name().to_string_lossy().to_string();
                if ["envoy-", "gatewayapi-", "linkerd-", "istio-", "yaml-"]
                    .iter()
                    .any(|p| name.starts_with(p))
                    && let Ok(t) = std::fs::read_to_string(f.path())
                {
                    texts.push(t);
                }
            }
        }
    }
    assert!(texts.len() > 40);
    for t in &texts {
        let step = (t.len() / 25).max(1);
        for cut in (0..t.len()).step_by(step) {
            if let Some(prefix) = t.get(..cut) {
                let _ = extract(Path::new("x.yaml"), prefix, Syntax::Yaml);
            }
        }
        for (a, b) in [(":", "{"), ("-", "["), ("s", ""), ("1", "-1"), ("  ", " ")] {
            let _ = extract(Path::new("x.yaml"), &t.replacen(a, b, 3), Syntax::Yaml);
        }
    }
}
