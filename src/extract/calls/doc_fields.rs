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

/// The start offsets of the `@Value` literals whose field only feeds
/// documentation setters.
pub fn documentation_only(text: &str, lits: &[Lit]) -> HashSet<usize> {
    let mut out = HashSet::new();
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
