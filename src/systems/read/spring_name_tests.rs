use super::*;

#[test]
fn spring_boot_files_are_read_by_name() {
    let p = Path::new("src/main/resources/application-prod.yml");
    assert_eq!(classify(p, b"server:\n  port: 8080\n"), Some(Syntax::Yaml));
    assert_eq!(
        classify(Path::new("messages.properties"), b"greeting=hello\n"),
        None
    );
    assert_eq!(
        classify(Path::new("bootstrap.properties"), b"a=b\n"),
        Some(Syntax::Properties)
    );
    // Its service identity is recorded even without retry settings.
    let facts = extract(
        p,
        "spring:\n  application:\n    name: orders\n",
        Syntax::Yaml,
    );
    assert_eq!(facts.services[0].name, "orders");
    // A broken one is worth a finding: its settings went unchecked.
    let facts = extract(p, "spring:\n  application: [\n", Syntax::Yaml);
    assert_eq!(facts.diagnostics[0].code, "RL903");
    let other = extract(Path::new("x.yml"), "retry: [\n", Syntax::Yaml);
    assert!(other.diagnostics.is_empty());
}
