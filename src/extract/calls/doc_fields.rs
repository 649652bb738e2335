//! `@Value` address fields that only document the API (issue 17): an
//! OpenAPI description's server and OAuth endpoints
//! (sivaprasadreddy/spring-boot-microservices-course 0e759ec,
//! `catalog-service/.../config/OpenAPI3Configuration.java`):
//!
//! ```java
//! @Value("${swagger.api-gateway-url}") String apiGatewayUrl;
//! ... .servers(List.of(new Server().url(apiGatewayUrl)))
//! ... .authorizationUrl(issuerUri + "/protocol/openid-connect/auth")
//! ```
//!
//! The program never calls those addresses: they are written into the
//! document a browser reads (swagger-core `io.swagger.v3.oas.models`
//! `servers.Server#url`, `security.OAuthFlow#authorizationUrl`,
//! `#tokenUrl`, `#refreshUrl`, `SecurityScheme#openIdConnectUrl`,
//! `ExternalDocumentation#url`, `info.License#url`, `info.Contact#url`).
//! A field (or parameter) injected with `@Value` whose every use in the
//! file is an argument of one of those setters is no call target; one
//! use elsewhere (a client's base URL, an assignment) keeps it.
//!
//! Lexical and bounded: [`MAX_FIELDS`] fields, [`MAX_USES`] uses each,
//! [`MAX_BACK`] bytes looked back for a use's call.

use super::lex::Lit;
use std::collections::HashSet;

/// At most this many `@Value` fields are followed in one file.
const MAX_FIELDS: usize = 64;
/// At most this many uses of one field are looked at.
const MAX_USES: usize = 64;
/// How far before a use its enclosing call is looked for.
const MAX_BACK: usize = 2048;

/// OpenAPI model setters that take an address only to document it.
const DOC_SETTERS: &[&str] = &[
    "authorizationUrl",
    "tokenUrl",
    "refreshUrl",
    "openIdConnectUrl",
    "termsOfService",
];

/// OpenAPI model types whose `url(..)` documents an address.
const DOC_TYPES: &[&str] = &["Server", "ExternalDocumentation", "License", "Contact"];

/// Setters of an RFC 9457 (7807) problem's identifiers: Spring's
/// `ProblemDetail#setType`/`#setInstance` and `ErrorResponse.Builder#type`
/// /`#instance` (spring-framework `org/springframework/http/
/// ProblemDetail.java`, `web/ErrorResponse.java`), Zalando problem's
/// `ProblemBuilder#withType`/`#withInstance`.
const PROBLEM_SETTERS: &[&str] = &[
    "setType",
    "setInstance",
    "type",
    "instance",
    "withType",
    "withInstance",
];

/// The start offsets of the `@Value` literals whose field only feeds
/// documentation setters, and of the URI literals built only as a
/// problem's `type` or `instance` ([`problem_identifiers`]).
pub fn documentation_only(text: &str, lits: &[Lit]) -> HashSet<usize> {
    let mut out = problem_identifiers(text, lits);
    if !text.contains("@Value")
        || !DOC_SETTERS
            .iter()
            .chain(DOC_TYPES)
            .any(|w| text.contains(w))
    {
        return out;
    }
    let code = super::clients::blank(text, lits);
    for lit in lits
        .iter()
        .filter(|l| l.within.last().map(String::as_str) == Some("@Value"))
        .take(MAX_FIELDS)
    {
        let Some((name, decl)) = declared_name(&code, lit.span.end) else {
            continue;
        };
        let uses: Vec<usize> = super::beans::word_positions(&code, &name)
            .into_iter()
            .filter(|&at| at != decl)
            .take(MAX_USES)
            .collect();
        if !uses.is_empty() && uses.iter().all(|&at| documents(&code, at)) {
            out.insert(lit.span.start);
        }
    }
    out
}

/// The Spring keys of the `@Value` literals among `documented`
/// (`${swagger.api-gateway-url}` -> `swagger.api-gateway-url`).
pub fn doc_keys(text: &str, lits: &[Lit], documented: &HashSet<usize>) -> Vec<String> {
    let mut out: Vec<String> = lits
        .iter()
        .filter(|l| {
            documented.contains(&l.span.start)
                && l.within.last().map(String::as_str) == Some("@Value")
        })
        .filter_map(|l| {
            let s = text.get(l.content.start..l.content.end)?.trim();
            let key = s.strip_prefix("${")?.split([':', '}']).next()?;
            (!key.is_empty()).then(|| key.to_string())
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// URI literals that name a problem type (issue 17; the course's
/// `GlobalExceptionHandler.java`: `private static final URI NOT_FOUND_TYPE =
/// URI.create("https://api.bookstore.com/errors/not-found")`, then
/// `problemDetail.setType(NOT_FOUND_TYPE)`): an identifier a client
/// reads, never requested by the service. A literal given to
/// `URI.create`/`new URI` directly inside a problem setter, or assigned to
/// a name whose every use in the file is an argument of one, is no call
/// target; one other use (a request, a field handed on) keeps it.
fn problem_identifiers(text: &str, lits: &[Lit]) -> HashSet<usize> {
    let mut out = HashSet::new();
    if !PROBLEM_SETTERS.iter().any(|w| text.contains(w)) {
        return out;
    }
    let mut code: Option<String> = None;
    for lit in lits.iter().take(MAX_FIELDS * 4) {
        let n = lit.within.len();
        let Some(call) = lit.within.last() else {
            continue;
        };
        let call = call.trim();
        if !matches!(call, "URI.create" | "new URI" | "java.net.URI.create") {
            continue;
        }
        let setter = n
            .checked_sub(2)
            .and_then(|i| lit.within.get(i))
            .map(|w| crate::extract::calls::lex::trailing(w, |c| c.is_alphanumeric() || c == '_'));
        if setter.is_some_and(|m| PROBLEM_SETTERS.contains(&m)) {
            out.insert(lit.span.start);
            continue;
        }
        if n > 1 {
            continue;
        }
        let code = code.get_or_insert_with(|| super::clients::blank(text, lits));
        // `NAME = URI.create(`: the name assigned.
        let before = code.get(..lit.span.start).unwrap_or("");
        let Some(open) = before.rfind(call) else {
            continue;
        };
        let Some(lhs) = before[..open].trim_end().strip_suffix('=') else {
            continue;
        };
        let lhs = lhs.trim_end();
        let name = crate::extract::calls::lex::trailing(lhs, |c| {
            c.is_alphanumeric() || c == '_' || c == '$'
        });
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let decl = lhs.len() - name.len();
        let uses: Vec<usize> = super::beans::word_positions(code, name)
            .into_iter()
            .filter(|&at| at != decl)
            .take(MAX_USES)
            .collect();
        if !uses.is_empty()
            && uses
                .iter()
                .all(|&at| enclosing_call(code, at).is_some_and(|m| PROBLEM_SETTERS.contains(&m)))
        {
            out.insert(lit.span.start);
        }
    }
    out
}

/// The method whose argument list holds offset `at` (the name before the
/// nearest unclosed `(` within [`MAX_BACK`] bytes and the statement).
fn enclosing_call(code: &str, at: usize) -> Option<&str> {
    let b = code.as_bytes();
    let from = at.saturating_sub(MAX_BACK);
    let mut depth = 0usize;
    let mut i = at;
    while i > from {
        i -= 1;
        match b[i] {
            b')' => depth += 1,
            b'(' if depth > 0 => depth -= 1,
            b'(' => {
                let before = code[..i].trim_end();
                return Some(crate::extract::calls::lex::trailing(before, |c| {
                    c.is_alphanumeric() || c == '_'
                }));
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

/// The name declared after an `@Value(..)` whose literal ends at `end`
/// (`@Value("${k}") String name;`, a parameter `String name,`), and where.
fn declared_name(code: &str, end: usize) -> Option<(String, usize)> {
    let rest = code.get(end..)?;
    let close = rest.find(')')?;
    let after = &rest[close + 1..];
    let stop = after.find([';', '=', ',', ')', '{'])?;
    let decl = after[..stop].trim_end();
    let name: String =
        crate::extract::calls::lex::trailing(decl, |c| c.is_alphanumeric() || c == '_' || c == '$')
            .to_string();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some((name.clone(), end + close + 1 + decl.len() - name.len()))
}

/// Whether the use at `at` is inside the argument of a documentation
/// setter.
fn documents(code: &str, at: usize) -> bool {
    let b = code.as_bytes();
    let from = at.saturating_sub(MAX_BACK);
    let mut depth = 0usize;
    let mut i = at;
    while i > from {
        i -= 1;
        match b[i] {
            b')' => depth += 1,
            b'(' if depth > 0 => depth -= 1,
            b'(' => {
                let before = code[..i].trim_end();
                let method: String = crate::extract::calls::lex::trailing(before, |c| {
                    c.is_alphanumeric() || c == '_'
                })
                .to_string();
                if DOC_SETTERS.contains(&method.as_str()) {
                    return true;
                }
                if method == "url" {
                    let recv = before[..before.len() - method.len()].trim_end();
                    let recv = recv.strip_suffix('.').unwrap_or(recv).trim_end();
                    return DOC_TYPES
                        .iter()
                        .any(|t| recv.ends_with(&format!("new {t}()")));
                }
                return false;
            }
            b';' | b'{' | b'}' => return false,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::calls::lex::{Lang, lex};

    fn doc_only(text: &str) -> usize {
        let lexed = lex(text, Lang::Java);
        documentation_only(text, &lexed.lits).len()
    }

    /// The course's OpenAPI configurations (0e759ec, catalog-service and
    /// order-service `OpenAPI3Configuration.java`).
    #[test]
    fn openapi_servers_and_oauth_flows_document() {
        let text = "class O {\n  @Value(\"${spring.security.oauth2.resourceserver.jwt.issuer-uri}\")\n  String issuerUri;\n  @Value(\"${swagger.api-gateway-url}\")\n  String apiGatewayUrl;\n  @Bean OpenAPI o() {\n    return new OpenAPI().servers(List.of(new Server().url(apiGatewayUrl)))\n      .flows(new OAuthFlows().authorizationCode(new OAuthFlow()\n        .authorizationUrl(issuerUri + \"/auth\")\n        .tokenUrl(issuerUri + \"/token\")));\n  }\n}\n";
        assert_eq!(doc_only(text), 2);
    }

    /// The course's problem types (0e759ec, `GlobalExceptionHandler.java`
    /// of catalog-service and order-service): a URI named once and given
    /// only to `setType`, or built inside it, is no call; one requested,
    /// or handed to anything else, is.
    #[test]
    fn problem_types_are_no_calls() {
        let text = "class H {\n  private static final URI NOT_FOUND_TYPE = URI.create(\"https://api.bookstore.com/errors/not-found\");\n  ProblemDetail f() {\n    ProblemDetail p = ProblemDetail.forStatus(404);\n    p.setType(NOT_FOUND_TYPE);\n    p.setInstance(URI.create(\"https://api.bookstore.com/i/1\"));\n    return ErrorResponse.builder(e, p).type(NOT_FOUND_TYPE).build().getBody();\n  }\n}\n";
        assert_eq!(doc_only(text), 2);
        for text in [
            "class H {\n  static final URI T = URI.create(\"https://pricing/api\");\n  void f() { p.setType(T); rest.getForObject(T, String.class); }\n}\n",
            "class H {\n  static final URI T = URI.create(\"https://pricing/api\");\n}\n",
            "class H {\n  void f() { client.send(HttpRequest.newBuilder(URI.create(\"https://pricing/api\")).build()); p.setType(null); }\n}\n",
        ] {
            assert_eq!(doc_only(text), 0, "{text}");
        }
    }

    /// A field also used as a client's base URL, or assigned, is a call;
    /// a `url(..)` of another type documents nothing.
    #[test]
    fn other_uses_keep_the_field() {
        for text in [
            "class O {\n  @Value(\"${a.url}\") String aUrl;\n  Server s = new Server().url(aUrl);\n  RestClient c = RestClient.builder().baseUrl(aUrl).build();\n}\n",
            "class O {\n  @Value(\"${a.url}\") String aUrl;\n  void f() { this.x = aUrl; }\n}\n",
            "class O {\n  @Value(\"${a.url}\") String aUrl;\n  void f() { req.url(aUrl); new Server(); }\n}\n",
            "class O {\n  @Value(\"${a.url}\") String aUrl;\n  Server s = new Server();\n}\n",
        ] {
            assert_eq!(doc_only(text), 0, "{text}");
        }
    }
}
