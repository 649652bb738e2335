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
//! `@Qualifier`, which is not read) give nothing. Not joined yet: a bean
//! whose body names no target itself (Polar Bookshop's reads
//! `clientProperties.catalogServiceUri()`): its file holds no fact and is
//! not kept by the scan, and the member's call is in the properties
//! record's file.

use super::*;
use crate::model::Layer as LayerKind;
use crate::model::calls::IdentityKind;
use crate::source::Span;

/// The client types whose beans are joined.
const CLIENT_TYPES: &[&str] = &["WebClient", "RestClient", "RestTemplate"];

/// At most this many `@Bean` methods are read in one file.
const MAX_BEANS: usize = 64;

/// A `@Bean` method returning a client type: its unit, file, and the
/// calls (file, index) in its body.
struct Bean {
    unit: String,
    file: usize,
    ty: &'static str,
    edges: Vec<(usize, usize)>,
}

pub fn client_beans(files: &mut [ScannedFile]) {
    let java = |f: &ScannedFile| f.source.path.extension().is_some_and(|e| e == "java");
    let unit = |f: &ScannedFile| -> Option<String> {
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
    };
    let mut beans: Vec<Bean> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        if !java(f) || f.facts.edges.is_empty() || !f.source.text.contains("@Bean") {
            continue;
        }
        let Some(u) = unit(f) else { continue };
        for (ty, body) in bean_methods(&f.source.text) {
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
        || bean_methods(text).iter().any(|(t, _)| *t == ty)
}

/// Byte offsets where `word` starts as a whole identifier.
fn word_positions(text: &str, word: &str) -> Vec<usize> {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word)
        .map(|(i, _)| i)
        .filter(|&i| {
            !text[..i].chars().next_back().is_some_and(ident)
                && !text[i + word.len()..].chars().next().is_some_and(ident)
        })
        .take(256)
        .collect()
}

/// `@Bean` methods returning a client type: the type and the span of the
/// method's body.
fn bean_methods(text: &str) -> Vec<(&'static str, Span)> {
    let mut out = Vec::new();
    for at in word_positions(text, "Bean").into_iter().take(MAX_BEANS) {
        if !text[..at].ends_with('@') {
            continue;
        }
        let mut rest = &text[at + 4..];
        // `@Bean(name = "x")`
        if rest.trim_start().starts_with('(') {
            let open = at + 4 + (rest.len() - rest.trim_start().len());
            let Some(close) = matching(text, open, b'(', b')') else {
                continue;
            };
            rest = &text[close + 1..];
        }
        // Annotations and modifiers, then `Type name(`.
        let mut words: Vec<&str> = Vec::new();
        let mut pos = text.len() - rest.len();
        while words.len() < 12 {
            let r = &text[pos..];
            let t = r.trim_start();
            pos += r.len() - t.len();
            if let Some(a) = t.strip_prefix('@') {
                let n = a
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                    .unwrap_or(a.len());
                pos += 1 + n;
                let r2 = &text[pos..];
                if r2.trim_start().starts_with('(') {
                    let open = pos + (r2.len() - r2.trim_start().len());
                    match matching(text, open, b'(', b')') {
                        Some(c) => pos = c + 1,
                        None => break,
                    }
                }
                continue;
            }
            let n = t
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$'))
                .unwrap_or(t.len());
            if n == 0 {
                break;
            }
            words.push(&t[..n]);
            pos += n;
            let next = text[pos..].trim_start();
            if next.starts_with('(') {
                break;
            }
        }
        let [.., ty, _name] = words[..] else { continue };
        let ty = ty.rsplit('.').next().unwrap_or(ty);
        let Some(&known) = CLIENT_TYPES.iter().find(|t| **t == ty) else {
            continue;
        };
        let r = &text[pos..];
        let open = pos + (r.len() - r.trim_start().len());
        let Some(close) = matching(text, open, b'(', b')') else {
            continue;
        };
        let Some(brace) = text[close..].find(['{', ';']).map(|i| close + i) else {
            continue;
        };
        if text.as_bytes()[brace] != b'{' {
            continue;
        }
        if let Some(end) = matching(text, brace, b'{', b'}') {
            out.push((known, Span::new(brace, end + 1)));
        }
    }
    out
}

/// The offset of the bracket closing the one at `open`, skipping string
/// and character literals and comments; bounded by the text.
fn matching(text: &str, open: usize, o: u8, c: u8) -> Option<usize> {
    let b = text.as_bytes();
    if b.get(open) != Some(&o) {
        return None;
    }
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            x if x == o => depth += 1,
            x if x == c => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bean_methods_and_injections() {
        let config = "@Configuration\nclass C {\n  @Bean\n  @Primary\n  public WebClient webClient(Props p, WebClient.Builder b) {\n    return b.baseUrl(\"http://x\").build(); // }\n  }\n  @Bean(name = \"t\") RestTemplate rest() { return new RestTemplate(); }\n  @Bean Other other() { return null; }\n}\n";
        let got: Vec<(&str, &str)> = bean_methods(config)
            .into_iter()
            .map(|(t, s)| (t, &config[s.start..s.start + 8]))
            .collect();
        assert_eq!(
            got,
            [("WebClient", "{\n    re"), ("RestTemplate", "{ return")]
        );
        assert!(builds(config, "WebClient"));
        let user = "class B {\n  private final WebClient webClient;\n  B(WebClient webClient) { this.webClient = webClient; }\n}\n";
        assert!(injects(user, "WebClient"));
        assert!(!builds(user, "WebClient"));
        assert!(!injects("WebClient.Builder b", "WebClient"));
        assert!(!injects("import x.WebClient;", "WebClient"));
    }
}
