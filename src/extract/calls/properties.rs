//! Base URLs bound to a `@ConfigurationProperties` class or record, read
//! lexically (issue 17): each field or record component whose type holds
//! an address (`String`, `URI`, `URL`) and whose name says so is a call
//! target written as the placeholder of its property, and a field whose
//! type is a class or record declared in the same file is followed into
//! it, its name a segment of the path:
//!
//! ```java
//! @ConfigurationProperties(prefix = "clients")
//! public record Clients(Service orders, String auditUrl) {
//!     public record Service(URI baseUrl, Duration timeout) {}
//! }
//! ```
//!
//! gives `${clients.orders.baseUrl}` and `${clients.auditUrl}`. Spring
//! Boot binds a nested member by its name under the prefix (relaxed:
//! `clients.orders.base-url`, `CLIENTS_ORDERS_BASEURL`), a class through
//! its fields (JavaBean binding) and a record through its constructor's
//! components (spring-boot 3.x `org/springframework/boot/context/properties/bind/
//! JavaBeanBinder.java` and `ValueObjectBinder.java`; the reference's
//! "Type-safe Configuration Properties", "JavaBean Properties Binding"
//! and "Constructor Binding"). The link step resolves each placeholder
//! like any other (`link::spring_calls`, `link::spring_env`).
//!
//! A map or list of addresses (`Map<String, URI> services`, `List<String>
//! peerUrls`) gives `${prefix.services.*}`: one call per key or index the
//! unit's configuration sets under it (expanded by `link::spring_calls`).
//!
//! Not followed: static fields (never bound), a member whose type is
//! declared in another file, collections and maps of nested types
//! (`List<Service>`, `Map<String, Service>`). A `@ConfigurationProperties`
//! on a `@Bean` method binds the returned type, usually declared
//! elsewhere: recorded here ([`bean_bound`]), its members read from the
//! type's file by the link step ([`bound_members`], `link::bean_bound`).
//!
//! Every quantity is bounded: [`MAX_DEPTH`] levels of nesting,
//! [`MAX_TYPES`] declared types, [`MAX_TARGETS`] targets per file.

use super::lex::Lit;
use crate::source::Span;

/// Nested members are followed this many levels below the annotated type.
const MAX_DEPTH: usize = 4;
/// At most this many classes and records of a file are read.
const MAX_TYPES: usize = 64;
/// At most this many targets from one file.
const MAX_TARGETS: usize = 64;

/// A member bound by Spring: a field or a record component.
#[derive(Debug)]
struct Member {
    /// The type's simple name, without generics or package.
    ty: String,
    /// Whether the type has type arguments (`List<X>`, `Map<K, V>`).
    generic: bool,
    /// The simple names of its type arguments (`Map<String, URI>`:
    /// `String`, `URI`).
    args: Vec<String>,
    name: String,
    span: Span,
    /// Where the member's initializer starts (after its `=`), if it has one.
    init: Option<usize>,
}

/// A class or record declared in the file.
#[derive(Debug)]
struct TypeDecl {
    name: String,
    /// Where the declaration's keyword starts.
    at: usize,
    members: Vec<Member>,
}

/// The address members of every `@ConfigurationProperties` type of the
/// file whose string literals are `lits`: each a span (the member's name)
/// and its property as a placeholder, `${prefix.path}`.
pub fn configuration_properties(text: &str, lits: &[Lit]) -> Vec<(Span, String)> {
    typed(text, lits)
        .into_iter()
        .map(|(s, p, _)| (s, p))
        .collect()
}

/// [`configuration_properties`] with the simple name of the annotated
/// type each placeholder is bound through (`ClientProperties`), as a
/// `@Bean` method of another file names it (`link::client_beans`).
pub fn typed(text: &str, lits: &[Lit]) -> Vec<(Span, String, String)> {
    if !text.contains("@ConfigurationProperties") {
        return Vec::new();
    }
    let code = super::clients::blank(text, lits);
    read(text, &code, lits)
}

/// [`configuration_properties`] over `code`, the text with comments and
/// string contents blanked (`text` keeps the prefix).
fn read(text: &str, code: &str, lits: &[Lit]) -> Vec<(Span, String, String)> {
    let annotations: Vec<&Lit> = lits
        .iter()
        .filter(|l| l.within.last().map(String::as_str) == Some("@ConfigurationProperties"))
        .collect();
    if annotations.is_empty() {
        return Vec::new();
    }
    let types = declared_types(code);
    let mut out: Vec<(Span, String, String)> = Vec::new();
    for lit in annotations {
        let Some(prefix) = text
            .get(lit.content.start..lit.content.end)
            .map(str::trim)
            .filter(|p| !p.is_empty() && !p.contains(['$', '{', ' ']))
        else {
            continue;
        };
        // The type declared right after the annotation; a method (`@Bean`)
        // is no type of this file.
        let Some(open) = code[lit.span.end..]
            .find(['{', ';'])
            .map(|i| i + lit.span.end)
        else {
            continue;
        };
        let Some(root) = types
            .iter()
            .find(|t| t.at > lit.span.end && t.at < open)
            .filter(|_| code[open..].starts_with('{'))
        else {
            continue;
        };
        let mut found = Vec::new();
        walk(text, &types, root, prefix, None, 0, &mut found);
        let room = MAX_TARGETS.saturating_sub(out.len());
        out.extend(
            found
                .into_iter()
                .take(room)
                .map(|(s, p)| (s, p, root.name.clone())),
        );
    }
    out
}

/// The `@Bean` methods of the file annotated `@ConfigurationProperties`
/// with a literal prefix: the type each returns (a simple name, upper
/// case) and the prefix's span. A type declared in this file with the
/// annotation is read by [`configuration_properties`] instead.
pub fn bean_bound(text: &str, lits: &[Lit]) -> Vec<crate::model::java_annotations::BoundBean> {
    if !text.contains("@ConfigurationProperties") || !text.contains("@Bean") {
        return Vec::new();
    }
    let code = super::clients::blank(text, lits);
    let mut out = Vec::new();
    for lit in lits
        .iter()
        .filter(|l| l.within.last().map(String::as_str) == Some("@ConfigurationProperties"))
    {
        if out.len() >= MAX_TYPES {
            break;
        }
        let Some(prefix) = text
            .get(lit.content.start..lit.content.end)
            .map(str::trim)
            .filter(|p| !p.is_empty() && !p.contains(['$', '{', ' ']))
        else {
            continue;
        };
        // The annotation's own `)`, then the declaration up to its `(`
        // (a method) or `{` (a type).
        let Some(close) = code[lit.span.end..].find(')').map(|i| i + lit.span.end + 1) else {
            continue;
        };
        let Some(open) = code[close..].find(['(', '{', ';']).map(|i| i + close) else {
            continue;
        };
        if code.as_bytes()[open] != b'(' {
            continue;
        }
        let head = strip_annotations(&code[close..open]);
        let words: Vec<&str> = head
            .split_whitespace()
            .filter(|w| {
                !matches!(
                    *w,
                    "public" | "protected" | "private" | "static" | "final" | "synchronized"
                )
            })
            .collect();
        let [ty, _name] = words[..] else { continue };
        let ty = ty.split('<').next().unwrap_or(ty);
        let ty = ty.rsplit('.').next().unwrap_or(ty);
        if ty.starts_with(|c: char| c.is_ascii_uppercase())
            && ty
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        {
            out.push(crate::model::java_annotations::BoundBean {
                prefix: prefix.to_string(),
                ty: ty.to_string(),
                span: lit.content,
            });
        }
    }
    out
}

/// `s` without its annotations (`@Bean`, `@Primary`, `@Qualifier(..)`).
fn strip_annotations(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 1..];
        let name_len = tail
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(tail.len());
        let after = &tail[name_len..];
        rest = match after.trim_start().strip_prefix('(') {
            Some(args) => match matching(&format!("({args}"), 0, b'(', b')') {
                Some(c) => &args[c..],
                None => "",
            },
            None => after,
        };
        out.push(' ');
    }
    out.push_str(rest);
    out
}

/// The address members of the class or record `ty` declared in `text`
/// (the file of a type a `@Bean` method binds), as placeholders under
/// `prefix`, each with the member's span in `text`.
pub fn bound_members(text: &str, ty: &str, prefix: &str) -> Vec<(Span, String)> {
    let lexed = super::lex::lex(text, super::lex::Lang::Java);
    let code = super::clients::blank(text, &lexed.lits);
    let types = declared_types(&code);
    let Some(root) = types.iter().find(|t| t.name == ty) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    walk(text, &types, root, prefix, None, 0, &mut found);
    found
}

/// A member's string default as written in `text` (`String url =
/// "http://.."`).
fn default_of(text: &str, m: &Member) -> Option<String> {
    let rest = text.get(m.init?..)?.trim_start();
    let body = rest.strip_prefix('"')?;
    body.find('"').map(|end| body[..end].to_string())
}

/// How many members of the file's types name the type `name`: a type
/// reached by several is shown at the member that reaches it.
fn uses(types: &[TypeDecl], name: &str) -> usize {
    types
        .iter()
        .flat_map(|t| &t.members)
        .filter(|m| !m.generic && m.ty == name)
        .count()
}

fn walk(
    text: &str,
    types: &[TypeDecl],
    t: &TypeDecl,
    path: &str,
    shown_at: Option<Span>,
    depth: usize,
    out: &mut Vec<(Span, String)>,
) {
    for m in &t.members {
        if out.len() >= MAX_TARGETS {
            return;
        }
        let key = format!("{path}.{}", m.name);
        if !m.generic && matches!(m.ty.as_str(), "String" | "URI" | "URL") {
            if super::url_key(&m.name)
                && default_of(text, m).is_none_or(|d| address_default(&m.name, &d))
            {
                out.push((shown_at.unwrap_or(m.span), format!("${{{key}}}")));
            }
            continue;
        }
        if m.generic {
            if collection_of_addresses(m) {
                out.push((shown_at.unwrap_or(m.span), format!("${{{key}.*}}")));
            }
            continue;
        }
        if depth >= MAX_DEPTH {
            continue;
        }
        if let Some(inner) = types.iter().find(|x| x.name == m.ty) {
            let at = shown_at.or_else(|| (uses(types, &inner.name) > 1).then_some(m.span));
            walk(text, types, inner, &key, at, depth + 1, out);
        }
    }
}

/// Whether a member is a map or a list of addresses: `Map<String, URI>`,
/// `List<URL>`, or of `String` with an address name (`serviceUrls`,
/// `endpoints`). Spring binds a map's entries under
/// `member.<key>` and a list's under `member[i]` (spring-boot 3.x
/// `MapBinder`, `IndexedElementsBinder`): the placeholder
/// `${prefix.member.*}` stands for each, expanded by the link step over
/// the keys the unit's configuration sets.
fn collection_of_addresses(m: &Member) -> bool {
    let value = match (m.ty.as_str(), &m.args[..]) {
        ("Map" | "HashMap" | "LinkedHashMap" | "TreeMap" | "SortedMap", [k, v])
            if k == "String" =>
        {
            v
        }
        ("List" | "Set" | "Collection" | "ArrayList" | "LinkedHashSet", [v]) => v,
        _ => return false,
    };
    match value.as_str() {
        "URI" | "URL" => true,
        "String" => {
            let n = &m.name;
            super::url_key(n) || n.strip_suffix('s').is_some_and(super::url_key)
        }
        _ => false,
    }
}

/// Whether a member's written default can be an address: a URL, or for a
/// host-like name anything but a key naming the member itself
/// (`private String host = "http.host";`, `url = "http.url"`: the tag
/// names of a tracing library, not addresses). A URL-named member whose
/// default is no URL holds no URL.
fn address_default(name: &str, default: &str) -> bool {
    let d = default.trim();
    if d.is_empty() || d.contains("://") || d.contains("${") {
        return true;
    }
    let own = crate::keys::normalise_key(name);
    let last = d.rsplit('.').next().unwrap_or(d);
    if d.contains('.') && crate::keys::normalise_key(last) == own {
        return false;
    }
    let n = name.to_ascii_lowercase();
    !(n.ends_with("url") || n.ends_with("uri"))
}

/// Every `class X ... {` and `record X(...)` of `code`, with its members.
fn declared_types(code: &str) -> Vec<TypeDecl> {
    let mut out = Vec::new();
    for kw in ["class", "record"] {
        for (at, _) in code.match_indices(kw) {
            if out.len() >= MAX_TYPES {
                break;
            }
            if let Some(t) = declaration(code, at, kw) {
                out.push(t);
            }
        }
    }
    out.sort_by_key(|t| t.at);
    out
}

/// The type declared by the keyword `kw` at `at`, if it is one there.
fn declaration(code: &str, at: usize, kw: &str) -> Option<TypeDecl> {
    let b = code.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    // A whole word, not `Foo.class` nor `recordCount`.
    if (at > 0 && (word(b[at - 1]) || b[at - 1] == b'.' || b[at - 1] == b'@'))
        || b.get(at + kw.len())
            .is_none_or(|&c| !c.is_ascii_whitespace())
    {
        return None;
    }
    let rest = &code[at + kw.len()..];
    let skip = rest.len() - rest.trim_start().len();
    let name: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    let after = at + kw.len() + skip + name.len();
    let members = if kw == "record" {
        // `record X(` (type parameters between are allowed).
        let tail = code[after..].trim_start();
        let tail = if tail.starts_with('<') {
            let close = matching(tail, 0, b'<', b'>')?;
            tail[close + 1..].trim_start()
        } else {
            tail
        };
        if !tail.starts_with('(') {
            return None;
        }
        let open = code.len() - tail.len();
        let close = matching(code, open, b'(', b')')?;
        components(code, open + 1, close)
    } else {
        let open = code[after..].find(['{', ';', '('])? + after;
        if b[open] != b'{' {
            return None;
        }
        fields(code, open)
    };
    Some(TypeDecl { name, at, members })
}

/// The index of the bracket closing the one at `open`.
fn matching(s: &str, open: usize, o: u8, c: u8) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &ch) in s.as_bytes().iter().enumerate().skip(open) {
        if ch == o {
            depth += 1;
        } else if ch == c {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The instance fields declared in the class body opening at `open`.
fn fields(code: &str, open: usize) -> Vec<Member> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut paren) = (0usize, 0usize);
    let mut start = open + 1;
    // Past the declarator of the current member (its initializer, a
    // method's or nested type's body): read nothing until it ends.
    let mut skip = false;
    for (i, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'{' => {
                if depth == 1 && paren == 0 {
                    skip = true;
                }
                depth += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
                if depth == 1 && paren == 0 {
                    // A body ended: a method, a nested type or an initializer
                    // block, unless an initializer's `;` is still to come.
                    if !initializer_pending(code, start, i) {
                        start = i + 1;
                        skip = false;
                    }
                }
            }
            b'(' => paren += 1,
            b')' => paren = paren.saturating_sub(1),
            b';' | b'=' if depth == 1 && paren == 0 => {
                if !skip && let Some(mut m) = field(code, start, i) {
                    m.init = (c == b'=').then_some(i + 1);
                    out.push(m);
                }
                if c == b'=' {
                    skip = true;
                } else {
                    start = i + 1;
                    skip = false;
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether the member that started at `start` has an `=` before `end` at
/// its own level: an initializer whose `{...}` (an array, an anonymous
/// class, a lambda) ended at `end`, the member's `;` still to come.
fn initializer_pending(code: &str, start: usize, end: usize) -> bool {
    let mut paren = 0usize;
    let mut brace = 0usize;
    for &c in &code.as_bytes()[start..end] {
        match c {
            b'(' => paren += 1,
            b')' => paren = paren.saturating_sub(1),
            b'{' => brace += 1,
            b'}' => brace = brace.saturating_sub(1),
            b'=' if paren == 0 && brace == 0 => return true,
            _ => {}
        }
    }
    false
}

/// A record's components between `start` and `end` (the parentheses'
/// inside).
fn components(code: &str, start: usize, end: usize) -> Vec<Member> {
    let mut out = Vec::new();
    let (mut angle, mut paren) = (0usize, 0usize);
    let mut from = start;
    for (i, &c) in code.as_bytes()[..end].iter().enumerate().skip(start) {
        match c {
            b'<' => angle += 1,
            b'>' => angle = angle.saturating_sub(1),
            b'(' => paren += 1,
            b')' => paren = paren.saturating_sub(1),
            b',' if angle == 0 && paren == 0 => {
                out.extend(field(code, from, i));
                from = i + 1;
            }
            _ => {}
        }
    }
    out.extend(field(code, from, end));
    out
}

/// `[annotations] [modifiers] Type name` between `start` and `end`: the
/// member, unless it is static, a method or not a declaration.
fn field(code: &str, start: usize, end: usize) -> Option<Member> {
    let seg = code.get(start..end)?;
    // Annotations with their arguments blanked, keeping offsets.
    let mut s: Vec<u8> = seg.as_bytes().to_vec();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'@' {
            let mut j = i + 1;
            while j < s.len() && (s[j].is_ascii_alphanumeric() || matches!(s[j], b'_' | b'.')) {
                j += 1;
            }
            let k = j + (s[j..].len() - seg[j..].trim_start().len());
            if s.get(k) == Some(&b'(') {
                j = matching(seg, k, b'(', b')').map_or(s.len(), |c| c + 1);
            }
            for c in &mut s[i..j] {
                *c = b' ';
            }
            i = j;
        } else {
            i += 1;
        }
    }
    let s = String::from_utf8(s).ok()?;
    if s.contains(['(', ')', '{', '}']) {
        return None;
    }
    let trimmed = s.trim_end();
    let name: String = crate::extract::calls::lex::trailing(trimmed, |c| {
        c.is_alphanumeric() || c == '_' || c == '$'
    })
    .to_string();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let name_start = trimmed.len() - name.len();
    let mut is_static = false;
    let mut rest: Vec<&str> = Vec::new();
    for w in trimmed[..name_start].split_whitespace() {
        match w {
            "static" if rest.is_empty() => is_static = true,
            "public" | "private" | "protected" | "final" | "transient" | "volatile"
                if rest.is_empty() => {}
            _ => rest.push(w),
        }
    }
    let ty = rest.join(" ");
    // `return x`, `throw e`: statements, not declarations (never at a
    // class body's level, but cheap to refuse).
    if is_static || ty.is_empty() || matches!(ty.as_str(), "return" | "throw" | "new" | "else") {
        return None;
    }
    let generic = ty.contains('<') || ty.ends_with("[]");
    let base = ty.split('<').next().unwrap_or(&ty).trim();
    let base = base.trim_end_matches("[]").trim();
    if base.is_empty() || base.contains(char::is_whitespace) {
        return None;
    }
    let args: Vec<String> = ty
        .split_once('<')
        .and_then(|(_, r)| r.rsplit_once('>'))
        .map(|(inner, _)| {
            inner
                .split(',')
                .map(|a| {
                    let a = a.trim();
                    a.rsplit('.').next().unwrap_or(a).to_string()
                })
                .take(4)
                .collect()
        })
        .unwrap_or_default();
    Some(Member {
        ty: base.rsplit('.').next().unwrap_or(base).to_string(),
        generic,
        args,
        span: Span::new(start + name_start, start + name_start + name.len()),
        name,
        init: None,
    })
}

#[cfg(test)]
mod tests;
