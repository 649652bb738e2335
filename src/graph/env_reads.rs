//! Whether a service's own code or configuration reads an environment
//! variable its workload is handed with a whole ConfigMap (`envFrom`) or
//! a compose service with a whole `env_file`:
//! the call such a variable names is an edge only where it is read
//! (issue 17; bank-of-anthos hands `service-api-config`, the addresses of
//! five services, to the ledger writer, which reads one of them).
//!
//! A variable is read when a file of the service (program source, a
//! `.properties`, build or configuration file that is no Kubernetes
//! object) names it as a word (`os.environ.get("CONTACTS_API_ADDR")`,
//! `@Value("http://${BALANCES_API_ADDR}/balances")`), or names the
//! property Spring binds it to (`order.destinations.orderServiceUrl` for
//! `ORDER_DESTINATIONS_ORDERSERVICEURL`: Spring Boot's relaxed binding
//! compares names without `.`, `-`, `_` and case, github.com/spring-
//! projects/spring-boot/wiki/Relaxed-Binding-2.0, "Environment Variables";
//! `SystemEnvironmentPropertySource` in spring-core), or the variable is a
//! `SPRING_*` one and the service is a Spring Boot program (Boot reads its
//! own `spring.*` properties, `spring.datasource.url` from
//! `SPRING_DATASOURCE_URL`, whatever the code says).

use super::identity::Builder;
use crate::model::ScannedFile;
use crate::model::Syntax;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What the scan shows of one service's reads.
#[derive(Default)]
pub(super) struct Reads {
    /// Whether any program source of the service is in the scan.
    pub has_code: bool,
    /// The variables asked about that a file of the service reads.
    pub read: BTreeSet<String>,
}

/// For each service that is handed variables with a whole ConfigMap, which
/// of those (`wanted`) its files read.
pub(super) fn reads(
    b: &Builder<'_>,
    wanted: &BTreeMap<String, BTreeSet<String>>,
) -> HashMap<String, Reads> {
    let mut out: HashMap<String, Reads> = HashMap::new();
    if wanted.is_empty() {
        return out;
    }
    for (id, f) in b.files.iter().enumerate() {
        if !counts(f) {
            continue;
        }
        let Some(owner) = b.file_owner(id) else {
            continue;
        };
        let Some(keys) = wanted.get(&owner) else {
            continue;
        };
        let r = out.entry(owner).or_default();
        r.has_code |= f.syntax.is_some_and(|s| s.is_source());
        let text = f.source.text.as_str();
        let spring_boot = text.contains("org.springframework.boot");
        let mut relaxed: Option<BTreeSet<String>> = None;
        for k in keys {
            if r.read.contains(k) {
                continue;
            }
            let hit = has_word(text, k)
                || (spring_boot && k.starts_with("SPRING_"))
                || relaxed
                    .get_or_insert_with(|| property_names(text))
                    .contains(&squash(k));
            if hit {
                r.read.insert(k.clone());
            }
        }
    }
    out
}

/// Files that say what a program reads: its source, `.properties`,
/// build files, and configuration files that are no Kubernetes object
/// (the manifests that hand the variables over say nothing of their use).
fn counts(f: &ScannedFile) -> bool {
    match f.syntax {
        Some(s) if s.is_source() => true,
        Some(Syntax::Properties | Syntax::Build(_) | Syntax::Jsonc) => true,
        Some(Syntax::Yaml | Syntax::Json) => {
            let t = &f.source.text;
            !(t.starts_with("kind:") || t.contains("\nkind:") || t.contains("\"kind\""))
        }
        _ => false,
    }
}

/// Whether `word` occurs in `text` with no letter, digit or `_` on either
/// side.
fn has_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

/// A name without `.`, `-`, `_`, lower-cased: how Spring Boot compares a
/// property with an environment variable.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '.' | '-' | '_'))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The dotted names in a text (`order.destinations.orderServiceUrl`),
/// squashed; at most this many.
fn property_names(text: &str) -> BTreeSet<String> {
    const MAX: usize = 100_000;
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')))
        .filter(|w| w.contains('.') && w.len() > 2)
        .take(MAX)
        .map(squash)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_spring_names() {
        assert!(has_word(
            "@Value(\"http://${BALANCES_API_ADDR}/balances\")",
            "BALANCES_API_ADDR"
        ));
        assert!(!has_word("MY_BALANCES_API_ADDR", "BALANCES_API_ADDR"));
        assert!(!has_word("BALANCES_API_ADDR_2", "BALANCES_API_ADDR"));
        let names = property_names("@Value(\"${order.destinations.orderServiceUrl}\")");
        assert!(names.contains(&squash("ORDER_DESTINATIONS_ORDERSERVICEURL")));
        let names = property_names("orders.base-url: http://x");
        assert!(names.contains(&squash("ORDERS_BASEURL")));
        assert!(!names.contains(&squash("PAYMENTS_URL")));
    }
}
