//! URLs written as data, not called (issue 17, stop 50): a public site's
//! URL that is
//! - the value of an object's field whose name says no address
//!   (`author.twitter = "https://twitter.com/.."`, `Author { blog: ".." }`),
//! - the value of a map entry whose key says no address
//!   (`Map.of("twitter", "https://..")`, `m.insert("blog", "http://..")`),
//! - an argument written beside prose (`addArticle("Recent Java Updates",
//!   "http://heidloff.net/article/..", "Niklas Heidloff")`),
//!
//! is a record of data (sample rows, a profile's links), not a call:
//! IBM/cloud-native-starter 62f55c43 `authors-java-jee/.../GetAuthor.java:67`,
//! `articles-java-jee/.../ArticlesService.java:82`. Only hosts of a public
//! domain are taken for data (`twitter.com`, `heidloff.net`): a
//! service's own name (`http://orders:8080`, `orders.shop.svc`) in such a
//! place stays a call, as a client's base address in a table may be one.
//! Lexical: a literal's neighbours in the text, no parse.

use super::lex::Lit;
use std::collections::HashSet;

/// Words of a field or key name that say it holds an address a program
/// may call: such a field keeps its URL a call.
const ADDRESS_WORDS: &[&str] = &[
    "url",
    "urls",
    "uri",
    "uris",
    "addr",
    "address",
    "addresses",
    "host",
    "hosts",
    "hostname",
    "endpoint",
    "endpoints",
    "server",
    "servers",
    "base",
    "target",
    "api",
    "upstream",
    "backend",
    "dsn",
    "broker",
    "brokers",
    "proxy",
    "gateway",
    "remote",
    "service",
    "services",
    "svc",
    "connect",
    "connection",
    "registry",
    "issuer",
    "authority",
    "webhook",
    "callback",
    "location",
    "origin",
    "redirect",
    "domain",
    "site",
    "root",
    "client",
];

/// Last labels of names that are no public domain: a cluster's or a
/// private network's (`orders.shop.svc`, `db.internal`, `api.local`).
const PRIVATE_SUFFIXES: &[&str] = &[
    "local",
    "localhost",
    "localdomain",
    "internal",
    "svc",
    "cluster",
    "lan",
    "intranet",
    "corp",
    "home",
    "consul",
    "docker",
];

/// Calls whose string arguments are sent, not recorded: an HTTP client's
/// verbs. A URL beside prose there is still the call's target
/// (`restTemplate.postForObject("https://..", "a body", ..)`).
const SEND_CALLS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "request", "send", "exchange", "execute",
    "fetch", "create", "uri", "url", "newCall", "connect", "open",
];

/// The start offsets of the literals of `lits` that are URLs written as
/// data ([module docs](self)).
pub fn data_urls(text: &str, lits: &[Lit]) -> HashSet<usize> {
    let mut out = HashSet::new();
    for (i, lit) in lits.iter().enumerate() {
        let Some(s) = text.get(lit.content.start..lit.content.end) else {
            continue;
        };
        if !public_url(s) {
            continue;
        }
        if field_value(text, lit) || map_value(text, lits, i) || beside_prose(text, lits, i) {
            out.insert(lit.span.start);
        }
    }
    out
}

/// Whether `s` is an `http(s)` URL of a public domain's host.
fn public_url(s: &str) -> bool {
    let s = s.trim();
    let Some(rest) = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
    else {
        return false;
    };
    let end = rest.find(['/', '?', '#', ':']).unwrap_or(rest.len());
    let host = rest[..end].to_ascii_lowercase();
    if crate::model::calls::ip_literal(&host).is_some() || !host.contains('.') {
        return false;
    }
    let last = host.rsplit('.').next().unwrap_or_default();
    last.len() >= 2
        && last.chars().all(|c| c.is_ascii_alphabetic())
        && !PRIVATE_SUFFIXES.contains(&last)
}

/// Whether a field or key name says data: it has words, none of them an
/// address's.
fn data_name(name: &str) -> bool {
    let w = crate::extract::name_words::name_words(name);
    !w.is_empty() && !w.iter().any(|w| ADDRESS_WORDS.contains(&w.as_str()))
}

/// The identifier ending `before` (trimmed), and the text before it.
pub(super) fn trailing_ident(before: &str) -> (&str, &str) {
    let before = before.trim_end();
    let len = before
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .count();
    let at = before.len() - len;
    (&before[at..], &before[..at])
}

/// `obj.name = "<url>"` (a member assignment, not a variable's
/// declaration) or `name: "<url>"` as a field of a struct or object
/// literal (after `{`, `,` or `(`), with a data name.
fn field_value(text: &str, lit: &Lit) -> bool {
    let before = text.get(..lit.span.start).unwrap_or_default().trim_end();
    if let Some(b) = before.strip_suffix('=') {
        if b.ends_with(['=', '!', '<', '>', '+', '-', '*', '/', ':']) {
            return false;
        }
        let (name, rest) = trailing_ident(b);
        return rest.trim_end().ends_with('.')
            && !rest.trim_end().ends_with("..")
            && data_name(name);
    }
    if let Some(b) = before.strip_suffix(':') {
        if b.ends_with(':') {
            return false;
        }
        let (name, rest) = trailing_ident(b);
        return rest.trim_end().ends_with(['{', ',', '(']) && !name.is_empty() && data_name(name);
    }
    false
}

/// The value of a map entry whose key literal says data:
/// `Map.of("twitter", "<url>")`, `map.put("blog", "<url>")`,
/// `m.insert("blog", "<url>")`.
fn map_value(text: &str, lits: &[Lit], i: usize) -> bool {
    let lit = &lits[i];
    let Some(call) = lit.within.last() else {
        return false;
    };
    let seg = call.rsplit(['.', ':', ' ']).next().unwrap_or(call);
    if !matches!(
        seg,
        "of" | "put" | "putIfAbsent" | "insert" | "entry" | "SimpleEntry"
    ) {
        return false;
    }
    let Some(key) = i.checked_sub(1).map(|k| &lits[k]) else {
        return false;
    };
    key.within == lit.within
        && only_comma_between(text, key.span.end, lit.span.start)
        && text
            .get(key.content.start..key.content.end)
            .is_some_and(data_name)
}

/// Whether only blanks and one comma stand between two offsets.
fn only_comma_between(text: &str, from: usize, to: usize) -> bool {
    from <= to
        && text.get(from..to).is_some_and(|t| {
            t.trim()
                .strip_prefix(',')
                .is_some_and(|r| r.trim().is_empty())
        })
}

/// An argument whose neighbouring literal argument (of the same call, one
/// comma apart) is prose: words with spaces, no URL, no format hole.
fn beside_prose(text: &str, lits: &[Lit], i: usize) -> bool {
    let lit = &lits[i];
    let Some(call) = lit.within.last() else {
        return false;
    };
    if call.starts_with(['@', '#']) {
        return false;
    }
    let seg = call.rsplit(['.', ':', ' ']).next().unwrap_or(call);
    let lower = seg.to_ascii_lowercase();
    if SEND_CALLS.iter().any(|s| lower == s.to_ascii_lowercase())
        || lower.contains("for")
        || lower.starts_with("get")
        || lower.starts_with("post")
    {
        return false;
    }
    let prose = |o: &Lit| {
        o.within == lit.within
            && text
                .get(o.content.start..o.content.end)
                .is_some_and(is_prose)
    };
    let before = i
        .checked_sub(1)
        .map(|k| &lits[k])
        .is_some_and(|o| prose(o) && only_comma_between(text, o.span.end, lit.span.start));
    let after = lits
        .get(i + 1)
        .is_some_and(|o| prose(o) && only_comma_between(text, lit.span.end, o.span.start));
    before || after
}

/// Words for people: two or more words of letters, no URL, no format
/// hole or placeholder.
fn is_prose(s: &str) -> bool {
    !s.contains("://")
        && !s.contains(['{', '%', '$', '/'])
        && s.split_whitespace()
            .filter(|w| w.chars().any(char::is_alphabetic))
            .count()
            >= 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::calls::lex::{Lang, lex};

    fn data(text: &str, lang: Lang) -> Vec<String> {
        let lexed = lex(text, lang);
        let found = data_urls(text, &lexed.lits);
        let mut v: Vec<String> = lexed
            .lits
            .iter()
            .filter(|l| found.contains(&l.span.start))
            .map(|l| text[l.content.start..l.content.end].to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn public_urls_in_records_and_beside_prose_are_data() {
        let java = r#"
class Authors {
    Author get() {
        Author author = new Author();
        author.name = "Niklas Heidloff";
        author.twitter = "https://twitter.com/nh";
        author.apiUrl = "https://api.example.com/v1";
        author.peer = "http://orders:8080/x";
        return author;
    }
    void samples() {
        addArticle("Recent Java Updates", "http://blog.example.net/java", "Niklas Heidloff");
        restTemplate.postForObject("https://hooks.example.org/x", "a body of words", String.class);
        var links = Map.of("github", "https://github.com/nh", "baseUrl", "https://api.example.org");
        String site = "https://weather.example.com/today";
    }
}
"#;
        assert_eq!(
            data(java, Lang::Java),
            [
                "http://blog.example.net/java",
                "https://github.com/nh",
                "https://twitter.com/nh"
            ]
        );
        let rust = r#"
fn author() -> Author {
    Author { name: "Ann Lee", blog: "https://ann.example.dev", base_url: "https://api.example.dev", peer: "http://orders:8080" }
}
"#;
        assert_eq!(data(rust, Lang::Rust), ["https://ann.example.dev"]);
    }
}
