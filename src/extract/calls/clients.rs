//! Clients of a Java interface built in a file, read lexically: a Spring
//! HTTP interface client (`HttpServiceProxyFactory ... .createClient(
//! InventoryClient.class)`, spring-framework `HttpServiceProxyFactory`)
//! and an OpenFeign client (`Feign.builder() ... .target(
//! InventoryClient.class, url)`), each with the call targets sent
//! through it: the literal or `@Value` field given to the builder's
//! `baseUrl(..)` before it (Spring `RestClient.Builder`/`WebClient.Builder`
//! `baseUrl`), or the URL given to Feign's `target`. The link step
//! (`link::client_interfaces`) puts the interface's retry annotations
//! on the calls to those targets.
//!
//! One pass over the text with comments and string contents blanked;
//! every quantity is bounded by the text's length and [`MAX_USES`].

use super::lex::Lit;
use crate::model::java_annotations::ClientUse;
use crate::source::Span;
use std::collections::HashMap;

/// At most this many clients are read from one file.
const MAX_USES: usize = 64;

/// The clients of interfaces built in `text`, whose string literals are
/// `lits` (from [`super::lex::lex`]).
pub fn client_uses(text: &str, lits: &[Lit]) -> Vec<ClientUse> {
    if !builds_clients(text) {
        return Vec::new();
    }
    let code = blank(text, lits);
    let fields = value_fields(text, lits);
    // Where each `baseUrl(` argument starts, in text order.
    let bases: Vec<usize> = find_all(&code, "baseUrl(")
        .map(|i| i + "baseUrl(".len())
        .collect();
    let mut out: Vec<ClientUse> = imported_services(&code);
    let mut last_factory = 0;
    for (at, call) in find_all(&code, "createClient(")
        .map(|i| (i, "createClient("))
        .chain(find_all(&code, ".target(").map(|i| (i, ".target(")))
        .collect::<std::collections::BTreeMap<_, _>>()
    {
        if out.len() >= MAX_USES {
            break;
        }
        let args = at + call.len();
        let Some(interface) = class_literal(&code[args..]) else {
            continue;
        };
        let mut targets = Vec::new();
        if call == ".target(" {
            // `.target(X.class, url)`: the second argument.
            if let Some(comma) = code[args..].find([',', ')'])
                && code[args + comma..].starts_with(',')
            {
                targets.extend(argument(text, lits, &fields, args + comma + 1));
            }
        } else if let Some(&base) = bases.iter().rev().find(|&&b| b < at && b >= last_factory) {
            targets.extend(argument(text, lits, &fields, base));
        }
        last_factory = at;
        let builder = if targets.is_empty() && call == "createClient(" {
            injected_builder(&code, at)
        } else {
            None
        };
        out.push(ClientUse {
            interface,
            span: Span::new(at + usize::from(call.starts_with('.')), args - 1),
            targets,
            builder,
        });
    }
    out
}

/// The builders Spring Boot auto-configures (and applies the program's
/// customizers to), and the client each builds.
const INJECTED_BUILDERS: &[(&str, &str)] = &[
    ("RestClient.Builder", "RestClient"),
    ("WebClient.Builder", "WebClient"),
    ("RestTemplateBuilder", "RestTemplate"),
];

/// The client type whose injected builder the client built at `at` comes
/// from: a parameter of that builder type declared after the last
/// `@Bean` before `at` (the method's own) and used before `at`
/// (`builder.build()`). `code` has comments and strings blanked.
fn injected_builder(code: &str, at: usize) -> Option<String> {
    let start = code[..at].rfind("@Bean")?;
    let region = &code[start..at];
    for (decl, client) in INJECTED_BUILDERS {
        for (p, _) in region.match_indices(decl).take(8) {
            let rest = &region[p + decl.len()..];
            let after = rest.trim_start();
            if after.len() == rest.len() {
                continue;
            }
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$'))
                .collect();
            if name.is_empty() {
                continue;
            }
            let used = &after[name.len()..];
            if used.match_indices(&name).any(|(i, _)| {
                used[i + name.len()..].starts_with('.')
                    && !used[..i]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            }) {
                return Some((*client).to_string());
            }
        }
    }
    None
}

/// Whether `text` may build a client of an interface (cheap).
pub fn builds_clients(text: &str) -> bool {
    text.contains("createClient(")
        || text.contains(".target(")
        || text.contains("@ImportHttpServices")
}

/// The interfaces Spring Framework 7's HTTP service registry makes clients
/// of (`@ImportHttpServices({A.class, B.class})`, `(group = "x", types =
/// A.class)`): each built from its group's builder, `RestClient` unless
/// `clientType = .. WEB_CLIENT` (spring-framework `ImportHttpServices`,
/// `HttpServiceGroup.ClientType`), which the program's group configurer
/// bean configures (`link::client_interfaces`).
fn imported_services(code: &str) -> Vec<ClientUse> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("@ImportHttpServices").take(8) {
        let rest = &code[at + "@ImportHttpServices".len()..];
        let open = at + "@ImportHttpServices".len() + (rest.len() - rest.trim_start().len());
        if code.as_bytes().get(open) != Some(&b'(') {
            continue;
        }
        let Some(close) = super::beans::matching(code, open, b'(', b')') else {
            continue;
        };
        let args = &code[open + 1..close];
        let builder = if args.contains("WEB_CLIENT") {
            "WebClient"
        } else {
            "RestClient"
        };
        for (i, _) in args.match_indices(".class").take(MAX_USES) {
            let start = args[..i]
                .rfind(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.')))
                .map_or(0, |j| j + 1);
            if let Some(interface) = class_literal(&args[start..]) {
                let s = open + 1 + start;
                out.push(ClientUse {
                    interface,
                    span: Span::new(s, open + 1 + i + ".class".len()),
                    targets: Vec::new(),
                    builder: Some(builder.to_string()),
                });
            }
        }
    }
    out
}

/// `X.class` (or `pkg.X.class`) at the start of `s`, after blanks: `X`.
fn class_literal(s: &str) -> Option<String> {
    let s = s.trim_start();
    let name: &str = &s[..s
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.')))
        .unwrap_or(s.len())];
    let name = name.strip_suffix(".class")?;
    let simple = name.rsplit('.').next().unwrap_or(name);
    (!simple.is_empty() && simple.chars().next().is_some_and(char::is_uppercase))
        .then(|| simple.to_string())
}

/// The call target an argument starting at byte `at` names: a string
/// literal there, or the `@Value` literal of the field named there
/// (`inventoryServiceUrl`, `this.inventoryServiceUrl`).
fn argument(text: &str, lits: &[Lit], fields: &HashMap<String, Span>, at: usize) -> Option<Span> {
    let rest = text.get(at..)?;
    let skip = rest.len() - rest.trim_start().len();
    let start = at + skip;
    if let Some(l) = lits.iter().find(|l| l.span.start == start) {
        return Some(l.span);
    }
    let rest = &text[start..];
    let rest = rest.strip_prefix("this.").unwrap_or(rest);
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$'))
        .collect();
    // A field read alone, not a call on it (`props.url()`).
    let after = rest[name.len()..].trim_start();
    if name.is_empty() || !after.starts_with([')', ',']) {
        return None;
    }
    fields.get(&name).copied()
}

/// Fields and constructor parameters bound by `@Value("${key}")`: their
/// name -> the literal's span.
pub fn value_fields(text: &str, lits: &[Lit]) -> HashMap<String, Span> {
    let mut out = HashMap::new();
    for lit in lits {
        if lit.within.last().map(String::as_str) != Some("@Value") {
            continue;
        }
        if !text
            .get(lit.content.start..lit.content.end)
            .is_some_and(|s| s.starts_with("${"))
        {
            continue;
        }
        // The declaration after the annotation: the last identifier before
        // its `;`, `,`, `=` or `)` (a field or a constructor parameter).
        let rest = &text[lit.span.end..];
        let rest = rest.trim_start().strip_prefix(')').unwrap_or(rest);
        let end = rest
            .find([';', ',', '=', ')', '{'])
            .unwrap_or(rest.len())
            .min(200);
        let name = rest[..end]
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .rfind(|w| !w.is_empty());
        if let Some(name) = name {
            out.insert(name.to_string(), lit.span);
        }
    }
    out
}

/// `text` with comments and the contents of string literals blanked
/// (same length, so offsets hold).
pub(super) fn blank(text: &str, lits: &[Lit]) -> String {
    let mut b: Vec<u8> = text.as_bytes().to_vec();
    for l in lits {
        for c in b.iter_mut().take(l.content.end).skip(l.content.start) {
            *c = b' ';
        }
    }
    // Comments: `//` to the end of the line and `/* .. */`, outside the
    // literals just blanked (a `"` left is a literal's quote).
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        match (b[i], b.get(i + 1)) {
            (b'"', _) => in_str = !in_str,
            // A char literal (`'"'`, `'\''`) is no string's quote.
            (b'\'', _) if !in_str => {
                let close = b[i + 1..].iter().take(4).position(|&c| c == b'\'');
                i += close.map_or(1, |k| k + 2);
                continue;
            }
            (b'/', Some(b'/')) if !in_str => {
                while i < b.len() && b[i] != b'\n' {
                    b[i] = b' ';
                    i += 1;
                }
                continue;
            }
            (b'/', Some(b'*')) if !in_str => {
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    if b[i] != b'\n' {
                        b[i] = b' ';
                    }
                    i += 1;
                }
                for _ in 0..2 {
                    if i < b.len() {
                        b[i] = b' ';
                        i += 1;
                    }
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    // Only ASCII bytes were replaced by ASCII: still UTF-8 unless a
    // multi-byte character was cut, which the blanking above never does
    // inside a literal's content (whole characters) or a comment (each
    // byte replaced); fall back to the text itself otherwise.
    String::from_utf8(b).unwrap_or_else(|_| text.to_string())
}

fn find_all<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    hay.match_indices(needle).map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(src: &str) -> Vec<(String, Vec<String>)> {
        let lexed = super::super::lex::lex(src, super::super::lex::Lang::Java);
        client_uses(src, &lexed.lits)
            .into_iter()
            .map(|u| {
                (
                    u.interface,
                    u.targets
                        .iter()
                        .map(|t| src[t.start..t.end].to_string())
                        .collect(),
                )
            })
            .collect()
    }

    #[test]
    fn http_interface_through_a_value_field() {
        let src = r#"
@Configuration
class RestClientConfig {
    @Value("${inventory.service.url}")
    private String inventoryServiceUrl;
    @Value("${payment.url}") String paymentUrl;

    @Bean
    InventoryClient inventoryClient() {
        RestClient restClient = RestClient.builder().baseUrl(inventoryServiceUrl).build();
        // createClient(Other.class) in a comment
        return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(restClient))
            .build().createClient(InventoryClient.class);
    }

    @Bean
    PaymentClient paymentClient() {
        WebClient c = WebClient.builder().baseUrl("http://payments:8080").build();
        return factory(c).createClient(com.acme.PaymentClient.class);
    }

    @Bean
    AuditClient auditClient(RestClient shared) {
        return factory(shared).createClient(AuditClient.class);
    }
}"#;
        assert_eq!(
            uses(src),
            vec![
                (
                    "InventoryClient".to_string(),
                    vec![r#""${inventory.service.url}""#.to_string()]
                ),
                (
                    "PaymentClient".to_string(),
                    vec![r#""http://payments:8080""#.to_string()]
                ),
                // No base URL in this method: none guessed.
                ("AuditClient".to_string(), vec![]),
            ]
        );
    }

    #[test]
    fn feign_target() {
        let src = r#"
class C {
    @Value("${inv.url}") String invUrl;
    Inv a() { return Feign.builder().target(Inv.class, "http://inventory"); }
    Inv b() { return Feign.builder().target(Inv.class, invUrl); }
    Inv c() { return Feign.builder().target(Inv.class, props.url()); }
}"#;
        assert_eq!(
            uses(src),
            vec![
                ("Inv".to_string(), vec![r#""http://inventory""#.to_string()]),
                ("Inv".to_string(), vec![r#""${inv.url}""#.to_string()]),
                ("Inv".to_string(), vec![]),
            ]
        );
    }

    #[test]
    fn nothing_without_a_class_literal() {
        assert!(uses(r#"x.target(foo, "http://a"); y.createClient(bar);"#).is_empty());
    }
}
