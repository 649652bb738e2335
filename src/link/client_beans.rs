//! An HTTP client bean built in another file of the program (issue 17,
//! types declared in other files): Polar Bookshop's order service
//! builds its `WebClient` in `ClientConfig` (`@Bean WebClient
//! webClient(..) { return builder.baseUrl(props.catalogServiceUri()..) }`)
//! and `BookClient` takes it by injection and retries every call through
//! it (`webClient.get()..retryWhen(Retry.backoff(3, ..))`). The call's
//! target is in the bean's file, its retry in the client's: neither file
//! alone shows the retried call.
//!
//! A Java file with no call of its own but a client retry policy no call
//! carries (what `graph::layers::sole_client_policy` would put on a call
//! of the file), which declares a field or parameter of a client type
//! (`WebClient`, `RestClient`, `RestTemplate`) and builds none itself,
//! calls what the one `@Bean` method of that type in another file of
//! its build unit calls: those calls are copied into the file at the
//! retry, carrying it. Two beans of the type in the unit (told apart by
//! `@Qualifier`, which is not read) give nothing.
//!
//! A bean whose base URL is a member of a properties type
//! (`baseUrl(clientProperties.catalogServiceUri().toString())`, read by
//! `extract::calls::beans`) is first given the placeholder Spring binds
//! that member by ([`bean_properties`]): the `@ConfigurationProperties`
//! type of that simple name declared in a file of the same build unit,
//! its member path (`${polar.catalogServiceUri}`). The placeholder step
//! then resolves it like any other, from the unit's `application*` files
//! or the workload's environment (`POLAR_CATALOG_SERVICE_URI`), and the
//! bean's call is copied to the file that injects it.

use super::*;
use crate::model::Layer as LayerKind;
use crate::model::calls::IdentityKind;
use crate::source::Span;
use std::collections::HashMap;

use crate::extract::calls::beans::{CLIENT_TYPES, bean_methods, word_positions};

/// A `@Bean` method returning a client type: its unit, file, and the
/// calls (file, index) in its body.
struct Bean {
    unit: String,
    file: usize,
    ty: &'static str,
    edges: Vec<(usize, usize)>,
}

/// Whether `f` is a Java source file.
fn java(f: &ScannedFile) -> bool {
    f.source.path.extension().is_some_and(|e| e == "java")
}

/// The one build unit `f` belongs to.
pub(super) fn unit(f: &ScannedFile) -> Option<String> {
    let mut units = f
        .facts
        .services
        .iter()
        .filter(|s| s.kind == IdentityKind::BuildUnit)
        .map(|s| s.name.clone());
    match (units.next(), units.next()) {
        (Some(u), None) => Some(u),
        _ => None,
    }
}

/// Each client bean's base URL read from a properties type's member
/// becomes the placeholder of that member, as the type's
/// `@ConfigurationProperties` in a file of the same build unit binds it
/// (before the placeholder step, which resolves it). A type declared
/// with that simple name in two files of the unit, or a member that is
/// no address member of it, gives nothing.
pub fn bean_properties(files: &mut [ScannedFile]) {
    if !files.iter().any(|f| !f.facts.java.client_beans.is_empty()) {
        return;
    }
    let members = members_read(files);
    for (id, f) in files.iter_mut().enumerate() {
        let mut add = Vec::new();
        for r in &f.facts.java.client_beans {
            if let Some((_, (_, _, p))) = members.iter().find(|(at, _)| *at == (id, r.span)) {
                add.push(crate::model::UnresolvedCall::new(r.span, p.clone()));
            }
        }
        for call in add {
            if !f.facts.unresolved.iter().any(|c| c.span == call.span) {
                f.facts.unresolved.push(call);
            }
        }
    }
}

/// Each client bean's base URL read from a properties member, (file, span
/// of the read) -> (file, span, placeholder) of the member, as its type's
/// `@ConfigurationProperties` in a file of the same build unit binds it.
/// A type declared with that simple name in two files of the unit, or a
/// member that is no address member of it, gives nothing.
pub(super) type MemberReads = Vec<((usize, Span), (usize, Span, String))>;

pub(super) fn members_read(files: &[ScannedFile]) -> MemberReads {
    use crate::extract::calls::{lex, properties};
    let mut out = Vec::new();
    if !files.iter().any(|f| !f.facts.java.client_beans.is_empty()) {
        return out;
    }
    // (unit, type) -> its address members (file, span, placeholder), and
    // the files declaring it.
    type Members = (Vec<(usize, Span, String)>, Vec<usize>);
    let mut declared: HashMap<(String, String), Members> = HashMap::new();
    for (id, f) in files.iter().enumerate() {
        let text = &f.source.text;
        if !java(f) || !text.contains("@ConfigurationProperties") {
            continue;
        }
        let Some(u) = unit(f) else { continue };
        let lexed = lex::lex(text, lex::Lang::Java);
        for (span, placeholder, ty) in properties::typed(text, &lexed.lits) {
            let e = declared.entry((u.clone(), ty)).or_default();
            if !e.1.contains(&id) {
                e.1.push(id);
            }
            if !e.0.iter().any(|(_, _, p)| *p == placeholder) {
                e.0.push((id, span, placeholder));
            }
        }
    }
    for (id, f) in files.iter().enumerate() {
        if f.facts.java.client_beans.is_empty() {
            continue;
        }
        let Some(u) = unit(f) else { continue };
        for r in &f.facts.java.client_beans {
            let Some((members, in_files)) = declared.get(&(u.clone(), r.props_type.clone())) else {
                continue;
            };
            let suffix = format!(".{}}}", r.path);
            let mut of_path = members
                .iter()
                .filter(|(_, _, p)| p.starts_with("${") && p.ends_with(&suffix));
            if let (1, Some(m), None) = (in_files.len(), of_path.next(), of_path.next()) {
                out.push(((id, r.span), m.clone()));
            }
        }
    }
    out
}

pub fn client_beans(files: &mut [ScannedFile]) {
    let mut beans: Vec<Bean> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        if !java(f) || f.facts.edges.is_empty() || !f.source.text.contains("@Bean") {
            continue;
        }
        let Some(u) = unit(f) else { continue };
        for m in bean_methods(&f.source.text) {
            let (ty, body) = (m.ty, m.body);
            let edges: Vec<(usize, usize)> = (0..f.facts.edges.len())
                .filter(|&i| {
                    let s = f.facts.edges[i].span;
                    s.start >= body.start && s.end <= body.end
                })
                .map(|i| (id, i))
                .collect();
            if !edges.is_empty() {
                beans.push(Bean {
                    unit: u.clone(),
                    file: id,
                    ty,
                    edges,
                });
            }
        }
    }
    if beans.is_empty() {
        return;
    }
    for id in 0..files.len() {
        let f = &files[id];
        if !java(f) || !f.facts.edges.is_empty() {
            continue;
        }
        let Some(policy) = sole_unused_client_policy(f) else {
            continue;
        };
        let Some(u) = unit(f) else { continue };
        let text = &f.source.text;
        let mut found: Vec<&Bean> = Vec::new();
        for ty in CLIENT_TYPES {
            if !injects(text, ty) || builds(text, ty) {
                continue;
            }
            let of_type: Vec<&Bean> = beans
                .iter()
                .filter(|b| b.ty == *ty && b.unit == u && b.file != id)
                .collect();
            if let [one] = of_type[..] {
                found.push(one);
            }
        }
        let [bean] = found[..] else { continue };
        let at = files[id].facts.policies[policy].span;
        let shown = place(&files[bean.file], Span::new(0, 0));
        let copies: Vec<crate::model::CallEdge> = bean
            .edges
            .iter()
            .map(|&(gf, i)| {
                let e = &files[gf].facts.edges[i];
                let mut c = e.clone();
                c.span = at;
                c.policies = vec![policy];
                c.via = format!("`{}` bean ({}): {}", bean.ty, shown.path, e.via);
                c
            })
            .collect();
        files[id].facts.edges.extend(copies);
    }
}

/// The one client retry policy of a file that no call carries (as
/// `graph::layers::sole_client_policy` picks it).
fn sole_unused_client_policy(f: &ScannedFile) -> Option<usize> {
    let mut c = f.facts.policies.iter().enumerate().filter(|(_, p)| {
        matches!(p.system.layer(), LayerKind::Application | LayerKind::Sdk)
            && p.kind != crate::model::PolicyKind::Connect
            && p.retries()
    });
    match (c.next(), c.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// Whether `text` declares a field or parameter of type `ty`
/// (`private final WebClient webClient;`, `(WebClient webClient)`).
fn injects(text: &str, ty: &str) -> bool {
    word_positions(text, ty).into_iter().any(|at| {
        let rest = &text[at + ty.len()..];
        let after = rest.trim_start();
        if after.len() == rest.len() {
            return false;
        }
        let name: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        !name.is_empty()
            && name.chars().next().is_some_and(|c| !c.is_ascii_digit())
            && after[name.len()..]
                .trim_start()
                .starts_with([';', ',', ')', '='])
    })
}

/// Whether `text` builds a client of type `ty` itself.
fn builds(text: &str, ty: &str) -> bool {
    [".builder(", ".create(", ".of("]
        .iter()
        .any(|m| text.contains(&format!("{ty}{m}")))
        || text.contains(&format!("new {ty}("))
        || text.contains(&format!("new {ty}<"))
        || bean_methods(text).iter().any(|m| m.ty == ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn injections_and_builds() {
        let config = "@Configuration\nclass C {\n  @Bean\n  public WebClient webClient(Props p, WebClient.Builder b) {\n    return b.baseUrl(\"http://x\").build();\n  }\n}\n";
        assert!(builds(config, "WebClient"));
        let user = "class B {\n  private final WebClient webClient;\n  B(WebClient webClient) { this.webClient = webClient; }\n}\n";
        assert!(injects(user, "WebClient"));
        assert!(!builds(user, "WebClient"));
        assert!(!injects("WebClient.Builder b", "WebClient"));
        assert!(!injects("import x.WebClient;", "WebClient"));
    }
}
