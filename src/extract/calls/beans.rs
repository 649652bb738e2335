//! `@Bean` methods that build an HTTP client, read lexically (issue 17),
//! and the members of a properties type their base URL is read from:
//! Polar Bookshop's order service (ThomasVitale/polar-bookshop, and its
//! copy yeongseoksong/cloud-native-spring 838e7ee,
//! `order-service/.../config/ClientConfig.java`):
//!
//! ```java
//! @Bean
//! WebClient webClient(ClientProperties clientProperties, WebClient.Builder b) {
//!     return b.baseUrl(clientProperties.catalogServiceUri().toString()).build();
//! }
//! ```
//!
//! The bean's file names no target: the member `catalogServiceUri` of
//! `ClientProperties`, a `@ConfigurationProperties` type declared in
//! another file, holds it. Each base URL given to the builder
//! (`baseUrl(..)` of `WebClient.Builder`/`RestClient.Builder`, `rootUri(..)`
//! of `RestTemplateBuilder`) that is a chain of member reads on a
//! parameter or field of a declared type (`props.catalogServiceUri()`,
//! `properties.getPricingServiceUrl()`, `props.orders().baseUrl()`,
//! `this.props.url`) is recorded with the type's simple name and the
//! member path as Spring binds it (a getter `getX` is the property `x`;
//! Spring Boot `JavaBeanBinder` binds a class through its getters and
//! setters, `ValueObjectBinder` a record through its components). The
//! link step (`link::client_beans`) finds the type in another file of
//! the build unit and gives the bean the member's placeholder.
//!
//! Every quantity is bounded: [`MAX_BEANS`] methods per file,
//! [`MAX_PATH`] members per chain.

use super::lex::Lit;
use crate::model::java_annotations::ClientBeanRef;
use crate::source::Span;

/// The client types whose `@Bean` methods are read.
pub const CLIENT_TYPES: &[&str] = &["WebClient", "RestClient", "RestTemplate"];

/// Spring Boot's customizers of the auto-configured builders, and the
/// client type each builder builds: a `@Bean RestClientCustomizer` whose
/// lambda sets `baseUrl(..)` gives that base URL to every client the
/// program builds from the injected `RestClient.Builder`
/// (spring-boot `RestClientAutoConfiguration#restClientBuilder` applies
/// every `RestClientCustomizer` bean; `WebClientAutoConfiguration`,
/// `RestTemplateAutoConfiguration` likewise). Read as a bean of that
/// client type. The program's own builder bean (`@Bean RestClient.Builder`)
/// is the builder injected instead (the auto-configured one is
/// `@ConditionalOnMissingBean`), read the same way.
const CUSTOMIZERS: &[(&str, &str)] = &[
    ("RestClientCustomizer", "RestClient"),
    ("WebClientCustomizer", "WebClient"),
    ("RestTemplateCustomizer", "RestTemplate"),
    ("RestClient.Builder", "RestClient"),
    ("WebClient.Builder", "WebClient"),
    ("RestTemplateBuilder", "RestTemplate"),
    // Spring Framework 7's HTTP service registry: the configurer of the
    // groups' builders (`forEachClient((group, builder) ->
    // builder.baseUrl(..))`), `RestClient` the groups' default type.
    ("RestClientHttpServiceGroupConfigurer", "RestClient"),
    ("WebClientHttpServiceGroupConfigurer", "WebClient"),
];

/// At most this many `@Bean` methods are read in one file.
pub const MAX_BEANS: usize = 64;

/// At most this many members are followed in one chain.
const MAX_PATH: usize = 6;

/// The builder methods that set a client's base URL.
const BASE_URL_SETTERS: &[&str] = &["baseUrl(", "rootUri("];

/// A `@Bean` method returning one of [`CLIENT_TYPES`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BeanMethod {
    pub ty: &'static str,
    /// A customizer of the injected builder, or the builder bean itself
    /// ([`CUSTOMIZERS`]): what it sets, every client built from the
    /// injected builder has.
    pub configures: bool,
    /// The parameter list, parentheses included.
    pub params: Span,
    /// The body, braces included.
    pub body: Span,
}

/// The base URLs of this file's client beans that are members of a
/// properties type (see the module's documentation). `lits` are the
/// file's string literals ([`super::lex::lex`]).
pub fn property_refs(text: &str, lits: &[Lit]) -> Vec<ClientBeanRef> {
    if !text.contains("@Bean") || !CLIENT_TYPES.iter().any(|t| text.contains(t)) {
        return Vec::new();
    }
    let code = super::clients::blank(text, lits);
    let mut out = Vec::new();
    for bean in bean_methods(&code) {
        for setter in BASE_URL_SETTERS {
            let body = &code[bean.body.start..bean.body.end];
            for (i, _) in body.match_indices(setter).take(MAX_BEANS) {
                let open = bean.body.start + i + setter.len() - 1;
                let Some(close) = matching(&code, open, b'(', b')') else {
                    continue;
                };
                if let Some(r) = member_chain(&code, open + 1, close) {
                    out.push(r);
                }
            }
        }
        if out.len() >= MAX_BEANS {
            break;
        }
    }
    out
}

/// The argument between `start` and `end`, when it is a chain of member
/// reads on a variable of a declared type: `props.a().getB()` (with
/// conversions after it, `.toString()`), as a [`ClientBeanRef`].
fn member_chain(code: &str, start: usize, end: usize) -> Option<ClientBeanRef> {
    let arg = &code[start..end];
    let lead = arg.len() - arg.trim_start().len();
    let mut pos = start + lead;
    let ident = |at: usize| -> &str {
        let rest = &code[at..end];
        let n = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(rest.len());
        &rest[..n]
    };
    let mut root = ident(pos);
    if root == "this" && code[pos + 4..end].starts_with('.') {
        pos += 5;
        root = ident(pos);
    }
    if root.is_empty() || !root.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None;
    }
    let root_at = pos;
    pos += root.len();
    let mut path: Vec<String> = Vec::new();
    let mut last_end = pos;
    while path.len() < MAX_PATH && code[pos..end].starts_with('.') {
        let name = ident(pos + 1);
        if name.is_empty() || conversion(name) {
            break;
        }
        pos += 1 + name.len();
        let called = code[pos..end].starts_with("()");
        if called {
            pos += 2;
        } else if code[pos..end].starts_with('(') {
            // A method with arguments: not a member read.
            return None;
        }
        path.push(property_name(name, called));
        last_end = pos;
    }
    if path.is_empty() {
        return None;
    }
    // Nothing but conversions may follow (`.toString()`, `.toURI()`).
    let mut rest = &code[pos..end];
    while let Some(r) = rest.strip_prefix('.') {
        let name = ident(end - r.len());
        if !conversion(name) {
            return None;
        }
        rest = r[name.len()..].strip_prefix("()")?;
    }
    if !rest.trim().is_empty() {
        return None;
    }
    let props_type = declared_type(code, root)?;
    Some(ClientBeanRef {
        props_type,
        path: path.join("."),
        span: Span::new(root_at, last_end),
    })
}

/// A method that converts an address, not a member read.
fn conversion(name: &str) -> bool {
    matches!(
        name,
        "toString" | "toASCIIString" | "toURI" | "toURL" | "toExternalForm" | "trim" | "strip"
    )
}

/// The property a member read binds: `getCatalogUrl()` is
/// `catalogUrl`, a record accessor or field its own name.
fn property_name(name: &str, called: bool) -> String {
    if called
        && let Some(rest) = name.strip_prefix("get")
        && rest.starts_with(|c: char| c.is_ascii_uppercase())
    {
        let mut c = rest.chars();
        let first = c.next().map(|f| f.to_ascii_lowercase());
        return first.into_iter().chain(c).collect();
    }
    name.to_string()
}

/// The simple type of the variable `name` as a field or parameter of
/// `code` declares it (`ClientProperties name` followed by `,`, `;`,
/// `)` or `=`); `None` for client and builder types, or when two
/// declarations disagree.
fn declared_type(code: &str, name: &str) -> Option<String> {
    let mut found: Option<String> = None;
    for at in word_positions(code, name) {
        let after = code[at + name.len()..].trim_start();
        if !after.starts_with([',', ';', ')', '=']) || after.starts_with("==") {
            continue;
        }
        let before = code[..at].trim_end();
        if before.len() == code[..at].len() {
            continue;
        }
        let ty: String = crate::extract::calls::lex::trailing(before, |c| {
            c.is_alphanumeric() || c == '_' || c == '$' || c == '.'
        })
        .to_string();
        let simple = ty.rsplit('.').next().unwrap_or(&ty).to_string();
        if !simple.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        match &found {
            Some(f) if *f != simple => return None,
            _ => found = Some(simple),
        }
    }
    found.filter(|t| !CLIENT_TYPES.contains(&t.as_str()) && !t.ends_with("Builder"))
}

/// Byte offsets where `word` starts as a whole identifier.
pub fn word_positions(text: &str, word: &str) -> Vec<usize> {
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

/// `@Bean` methods returning a client type: the type, and the spans of
/// the method's parameters (with their parentheses) and body.
pub fn bean_methods(text: &str) -> Vec<BeanMethod> {
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
        let full = ty;
        let ty = ty.rsplit('.').next().unwrap_or(ty);
        let configurer = CUSTOMIZERS
            .iter()
            .find(|(c, _)| *c == ty || *c == full)
            .map(|(_, client)| *client);
        let Some(known) = CLIENT_TYPES
            .iter()
            .find(|t| **t == ty)
            .copied()
            .or(configurer)
        else {
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
            out.push(BeanMethod {
                ty: known,
                configures: configurer.is_some() && !CLIENT_TYPES.contains(&ty),
                params: Span::new(open, close + 1),
                body: Span::new(brace, end + 1),
            });
        }
    }
    out
}

/// The offset of the bracket closing the one at `open`, skipping string
/// and character literals and comments; bounded by the text.
pub fn matching(text: &str, open: usize, o: u8, c: u8) -> Option<usize> {
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
mod tests;
