use super::*;
use crate::extract::{Facts, Syntax};
use crate::model::Timeout;
use crate::systems::extract;
use std::path::Path;
use std::time::Duration;

fn props(text: &str) -> Vec<Vec<Prop>> {
    documents("application.properties", text)
}

fn value_of(resolved: &[Prop], key: &str) -> String {
    resolved
        .iter()
        .find(|p| p.key() == key)
        .map(|p| p.value.clone())
        .unwrap_or_default()
}

#[test]
fn keys_defaults_nesting_and_what_stays_unresolved() {
    let docs = props(
        "a=${my.timeout}\nb=${missing:250ms}\nc=${missing}\nd=${outer.${inner}:x}\ne=pre-${my-timeout}-post\nf=${loop}\nloop=${f}\nmy.timeout=3000\ninner=key\nouter.key=nested\n",
    );
    let r = resolve(&docs[0], &sources(&docs, 0, &[]));
    assert_eq!(value_of(&r, "a"), "3000");
    assert_eq!(value_of(&r, "b"), "250ms");
    assert_eq!(value_of(&r, "c"), "${missing}");
    assert_eq!(value_of(&r, "d"), "nested");
    // `my-timeout` is one segment, another name than `my.timeout`.
    assert_eq!(value_of(&r, "e"), "pre-${my-timeout}-post");
    // A cycle stays unresolved.
    assert!(value_of(&r, "f").contains("${"));
}

#[test]
fn a_resolved_value_points_at_its_placeholder() {
    let text = "x=${my.timeout}\nmy.timeout=3000\n";
    let docs = props(text);
    let r = resolve(&docs[0], &sources(&docs, 0, &[]));
    let p = r.iter().find(|p| p.key() == "x").unwrap();
    let s = p.sub_span(0..p.value.len());
    assert_eq!(&text[s.start..s.end], "${my.timeout}");
}

#[test]
fn profiles_of_one_file_are_kept_apart() {
    let text = "spring:\n  cloud:\n    gateway:\n      routes:\n        - id: a\n          uri: http://orders\n          metadata:\n            response-timeout: ${my.timeout}\n          filters:\n            - Retry=2\n---\nspring.config.activate.on-profile: prod\nmy.timeout: 3000\n---\nspring.config.activate.on-profile: prod\nspring:\n  cloud:\n    gateway:\n      routes:\n        - id: b\n          uri: http://orders\n          metadata:\n            response-timeout: ${my.timeout}\n          filters:\n            - Retry=2\n";
    let facts = extract(Path::new("application.yml"), text, Syntax::Yaml);
    assert!(facts.diagnostics.is_empty(), "{:?}", facts.diagnostics);
    let timeout = |route: &str| {
        facts
            .policies
            .iter()
            .find(|p| p.name.as_deref() == Some(&format!("route {route}")))
            .and_then(|p| p.per_try_timeout.as_ref())
            .map(|t| t.value)
    };
    // The plain document does not see the prod document's key.
    assert_eq!(timeout("a"), Some(Timeout::Unknown));
    assert_eq!(
        timeout("b"),
        Some(Timeout::after(Duration::from_millis(3000)))
    );
}

#[test]
fn file_profiles_by_name() {
    assert_eq!(file_profile("application.yml"), Some(None));
    assert_eq!(
        file_profile("application-prod.properties"),
        Some(Some("prod".into()))
    );
    assert_eq!(file_profile("application-.yml"), None);
    assert_eq!(file_profile("bootstrap.yml"), None);
    assert_eq!(file_profile("applications.txt"), None);
}

#[test]
fn never_panics_on_odd_placeholders() {
    for v in [
        "${",
        "${}",
        "}${",
        "${a:${b:${c}}}",
        "${${${",
        "$${x}}",
        "${é:ü}",
        "${a:}",
    ] {
        let text = format!("x={v}\na=1\n");
        let docs = props(&text);
        let r = resolve(&docs[0], &sources(&docs, 0, &[]));
        for p in &r {
            let _ = p.sub_span(0..p.value.len());
        }
    }
    let _ = Facts::default();
}

#[test]
fn placeholders_that_multiply_do_not_stall() {
    let mut text = String::from("k0=xxxxxxxxxxxxxxxx\n");
    for i in 1..40 {
        let prev = i - 1;
        text.push_str(&format!(
            "k{i}=${{k{prev}}}${{k{prev}}}${{k{prev}}}${{k{prev}}}\n"
        ));
    }
    let refs: String = (0..20_000).map(|_| "${k39}").collect();
    text.push_str(&format!("x={refs}\n"));
    let docs = props(&text);
    let start = std::time::Instant::now();
    let r = resolve(&docs[0], &sources(&docs, 0, &[]));
    // A stall check, not a speed test: unbounded expansion is 4^39 copies
    // and would never end; the bounded one takes about a second in a debug
    // build on a loaded machine, so a minute fails only on a real stall.
    assert!(start.elapsed() < std::time::Duration::from_secs(60));
    assert!(r.iter().all(|p| p.value.len() <= 2 * MAX_VALUE + 200_000));
}
