//! Spring property placeholders: `response-timeout: ${my.timeout}` and
//! `${key:default}`, resolved as Spring's `PropertySourcesPlaceholderConfigurer`
//! does (the first property source that has the key wins, else the
//! default after the first `:`; nested placeholders are resolved too).
//!
//! A file is read on its own first: a document's placeholders are
//! resolved from the document itself, then the documents of the same
//! profile (`spring.config.activate.on-profile`, or Boot 2.3's
//! `spring.profiles`), then the documents without a profile. After every
//! file is read, [`link`] reads again each `application*` file whose
//! placeholders it could not all resolve, with the keys of the other
//! `application*` files of its folder (`application-prod.yml` sees
//! `application-prod.properties` and `application.yml`; `application.yml`
//! sees only the files without a profile). A placeholder that nothing
//! resolves stays in the value, which every Spring extractor takes as
//! unknown, never as invalid.

use crate::keys::normalise_key;
use crate::model::ScannedFile;
use crate::source::Span;
use crate::systems::spring::extract::{Prop, split_key_ranges};

/// How deep placeholders may nest or refer to each other (Spring fails on
/// a cycle; here it stays unresolved).
const MAX_DEPTH: usize = 8;

/// A resolved value is at most this long (a chain of placeholders that
/// doubles at each step stays small).
const MAX_VALUE: usize = 64 * 1024;

/// How much text the lookups of one document may read in all.
const BUDGET: usize = 4 << 20;

/// More documents than this in one file: each document is resolved from
/// itself only (resolution across documents is quadratic in them).
pub const MAX_DOCUMENTS: usize = 64;

/// A property name in relaxed form: `my.Some-Value[0]` -> `my.somevalue.[0]`.
fn normalised_name(name: &str) -> String {
    split_key_ranges(name.trim())
        .into_iter()
        .map(|r| normalise_key(&name.trim()[r]))
        .collect::<Vec<_>>()
        .join(".")
}

fn prop_name(p: &Prop) -> String {
    (0..p.segments.len())
        .map(|i| p.normalised(i))
        .collect::<Vec<_>>()
        .join(".")
}

/// The profile a document is active in, if it says.
pub fn profile(props: &[Prop]) -> Option<String> {
    props.iter().find_map(|p| {
        let name = prop_name(p);
        (name == "spring.config.activate.onprofile" || name == "spring.profiles")
            .then(|| p.value.trim().to_string())
            .filter(|v| !v.is_empty())
    })
}

/// The property sources a document's placeholders are looked up in, in
/// order: the document, the documents of its profile, the documents
/// without one, then `outer` (other files).
pub fn sources<'p>(docs: &'p [Vec<Prop>], i: usize, outer: &'p [Prop]) -> Vec<&'p [Prop]> {
    let Some(own) = docs.get(i) else {
        return vec![outer];
    };
    let mut out: Vec<&[Prop]> = vec![own];
    if docs.len() <= MAX_DOCUMENTS {
        let profiles: Vec<Option<String>> = docs.iter().map(|d| profile(d)).collect();
        let mine = &profiles[i];
        for want_same in [true, false] {
            for (j, d) in docs.iter().enumerate().rev() {
                // Later documents override earlier ones.
                let same = mine.is_some() && profiles[j] == *mine;
                let plain = profiles[j].is_none();
                if j != i && ((want_same && same) || (!want_same && plain)) {
                    out.push(d);
                }
            }
        }
    }
    out.push(outer);
    out
}

/// `props` with their placeholders resolved from `sources` (first source
/// that has the key wins). Values without `${` are returned unchanged.
pub fn resolve(props: &[Prop], sources: &[&[Prop]]) -> Vec<Prop> {
    if !props.iter().any(|p| p.value.contains("${")) {
        return props.to_vec();
    }
    let index = Index::new(sources);
    let lookup = |key: &str| index.get(key);
    props
        .iter()
        .map(|p| {
            if !p.value.contains("${") {
                return p.clone();
            }
            let mut value = String::new();
            let mut map = Vec::new();
            substitute(p, &lookup, &mut value, &mut map);
            if value == p.value {
                return p.clone();
            }
            Prop {
                value,
                value_map: map,
                ..p.clone()
            }
        })
        .collect()
}

/// `text` with every placeholder in it expanded from `sources` (the first
/// source that has a key wins; `${key:default}` defaults, nested
/// placeholders), or `None` when one is not resolved. The same lookups,
/// bounds and budget as [`resolve`].
pub fn expand_in(text: &str, sources: &[&[Prop]]) -> Option<String> {
    let index = Index::new(sources);
    expand_text(text, &|key: &str| index.get(key), 0)
}

/// One source's keys (relaxed, later duplicates winning), indexed once for
/// many lookups ([`expand_indexed`]): [`expand_in`] indexes its sources
/// on every call, which the link stage's lookups of a few keys in each
/// unit's documents paid per key (issue 27).
#[derive(Clone, Debug, Default)]
pub struct Keys(std::collections::HashMap<String, usize>);

impl Keys {
    pub fn new(props: &[Prop]) -> Self {
        Keys(
            props
                .iter()
                .enumerate()
                .map(|(i, p)| (prop_name(p), i))
                .collect(),
        )
    }
}

/// [`expand_in`] with the one source `props`, whose keys are `keys`
/// ([`Keys::new`] of the same `props`): the same lookups, bounds and
/// budget.
pub fn expand_indexed(text: &str, props: &[Prop], keys: &Keys) -> Option<String> {
    let spent = std::cell::Cell::new(0usize);
    let lookup = |key: &str| -> Option<&str> {
        if spent.get() > BUDGET {
            return None;
        }
        let found = keys
            .0
            .get(&normalised_name(key))
            .and_then(|&i| props.get(i))
            .map(|p| p.value.as_str());
        spent.set(spent.get() + key.len() + found.map_or(0, str::len) + 1);
        found
    };
    expand_text(text, &lookup, 0)
}

/// Each source's keys, indexed once (later duplicates win), looked up
/// first source first. Every lookup is paid for by the text it reads, so
/// that placeholders that refer to each other many times over cannot
/// stall the scan ([`BUDGET`]).
struct Index<'s> {
    maps: Vec<std::collections::HashMap<String, &'s str>>,
    spent: std::cell::Cell<usize>,
}

impl<'s> Index<'s> {
    fn new(sources: &[&'s [Prop]]) -> Self {
        Index {
            maps: sources
                .iter()
                .map(|src| {
                    src.iter()
                        .map(|p| (prop_name(p), p.value.as_str()))
                        .collect()
                })
                .collect(),
            spent: std::cell::Cell::new(0),
        }
    }

    fn get(&self, key: &str) -> Option<&'s str> {
        if self.spent.get() > BUDGET {
            return None;
        }
        let want = normalised_name(key);
        let found = self.maps.iter().find_map(|m| m.get(&want).copied());
        self.spent
            .set(self.spent.get() + key.len() + found.map_or(0, str::len) + 1);
        found
    }
}

/// Write `p.value` with its placeholders replaced into `out`, and for each
/// byte the source span it stands for: its own for verbatim text, the
/// whole placeholder's for a substituted value.
fn substitute<'s>(
    p: &Prop,
    lookup: &dyn Fn(&str) -> Option<&'s str>,
    out: &mut String,
    map: &mut Vec<Span>,
) {
    let v = p.value.as_str();
    let mut i = 0;
    while i < v.len() {
        if let Some(end) = v[i..].starts_with("${").then(|| closing(v, i)).flatten() {
            let span = p.sub_span(i..end);
            match expand(&v[i + 2..end - 1], lookup, 0) {
                Some(text) if out.len() + text.len() <= MAX_VALUE => {
                    out.push_str(&text);
                    map.extend(std::iter::repeat_n(span, text.len()));
                }
                _ => {
                    for k in i..end {
                        map.push(p.sub_span(k..k + 1));
                    }
                    out.push_str(&v[i..end]);
                }
            }
            i = end;
            continue;
        }
        let c = v[i..].chars().next().unwrap_or(' ');
        let n = c.len_utf8();
        map.extend(std::iter::repeat_n(p.sub_span(i..i + n), n));
        out.push(c);
        i += n;
    }
}

/// The end (after `}`) of the placeholder that starts at `start` (`${`),
/// nested braces skipped: as Spring Framework's
/// `PropertyPlaceholderHelper.findPlaceholderEndIndex`, every `{` nests
/// (its "simple prefix"), so `${url:#{null}}` ends at the last `}`.
fn closing(v: &str, start: usize) -> Option<usize> {
    let b = v.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    while i < b.len() {
        if b[i] == b'{' {
            depth += 1;
            i += 1;
            continue;
        }
        if b[i] == b'}' {
            depth -= 1;
            if depth == 0 {
                return Some(i + 1);
            }
        }
        i += 1;
    }
    None
}

/// The value of a placeholder's inside (`key` or `key:default`), or
/// `None` when nothing resolves it.
fn expand<'s>(
    inner: &str,
    lookup: &dyn Fn(&str) -> Option<&'s str>,
    depth: usize,
) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    // The key ends at the first `:` outside a nested placeholder.
    let b = inner.as_bytes();
    let mut nest = 0usize;
    let mut colon = None;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'{' if i > 0 && b[i - 1] == b'$' => nest += 1,
            b'}' => nest = nest.saturating_sub(1),
            b':' if nest == 0 => {
                colon = Some(i);
                break;
            }
            _ => {}
        }
    }
    let (key, default) = match colon {
        Some(c) => (&inner[..c], Some(&inner[c + 1..])),
        None => (inner, None),
    };
    let key = expand_text(key, lookup, depth + 1)?;
    match lookup(&key) {
        Some(found) => expand_text(found, lookup, depth + 1),
        None => default.and_then(|d| expand_text(d, lookup, depth + 1)),
    }
}

/// Text with every placeholder in it expanded; `None` if one is not.
fn expand_text<'s>(
    text: &str,
    lookup: &dyn Fn(&str) -> Option<&'s str>,
    depth: usize,
) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut out = String::new();
    let mut i = 0;
    while i < text.len() {
        if text[i..].starts_with("${")
            && let Some(end) = closing(text, i)
        {
            out.push_str(&expand(&text[i + 2..end - 1], lookup, depth + 1)?);
            i = end;
        } else {
            let c = text[i..].chars().next()?;
            out.push(c);
            i += c.len_utf8();
        }
        if out.len() > MAX_VALUE {
            return None;
        }
    }
    Some(out)
}

/// The profile an `application*` file is for by its name
/// (`application-prod.yml` -> `prod`), and whether it is one at all.
pub fn file_profile(name: &str) -> Option<Option<String>> {
    let lower = name.to_ascii_lowercase();
    let stem = [".yml", ".yaml", ".properties"]
        .iter()
        .find_map(|ext| lower.strip_suffix(ext))?;
    let rest = stem.strip_prefix("application")?;
    if rest.is_empty() {
        return Some(None);
    }
    rest.strip_prefix('-')
        .filter(|p| !p.is_empty())
        .map(|p| Some(p.to_string()))
}

/// A file's documents as properties (YAML or `.properties`).
pub fn documents(name: &str, text: &str) -> Vec<Vec<Prop>> {
    if name.to_ascii_lowercase().ends_with(".properties") {
        return crate::systems::spring::properties::parse(text, true).documents;
    }
    let file = crate::yaml::parse(text);
    file.documents
        .iter()
        .map(|d| {
            let root = file.root(d);
            if root.is_map() {
                crate::systems::spring::extract::flatten_yaml(root)
            } else {
                Vec::new()
            }
        })
        .collect()
}

/// The largest sibling file read from disk for its keys.
const MAX_SIBLING: u64 = 1 << 20;

/// Read again every `application*` file whose placeholders its own
/// documents leave unresolved, with the keys of the other `application*`
/// files of its folder (see the module docs). Those files are taken from
/// the scan, or read from disk when the scan kept nothing of them (a file
/// of plain keys has no facts); symbolic links are not followed.
pub fn link(files: &mut [ScannedFile]) {
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};
    let wanted: Vec<usize> = (0..files.len())
        .filter(|&i| {
            let f = &files[i];
            f.facts.extractors.contains(&"spring")
                && f.source.text.contains("${")
                && f.source
                    .path
                    .file_name()
                    .is_some_and(|n| file_profile(&n.to_string_lossy()).is_some())
        })
        .collect();
    if wanted.is_empty() {
        return;
    }
    let scanned: HashMap<PathBuf, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.source.path.clone(), i))
        .collect();
    let mut loaded: HashMap<PathBuf, Vec<Vec<Prop>>> = HashMap::new();
    for f in wanted {
        let path = files[f].source.path.clone();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let Some(mine) = file_profile(&name) else {
            continue;
        };
        let dir = path.parent().unwrap_or(Path::new(""));
        let listed = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        // The other files this one sees: its profile's and the plain ones.
        let mut others: Vec<(String, Option<String>)> = std::fs::read_dir(listed)
            .into_iter()
            .flatten()
            .flatten()
            .take(10_000)
            .filter_map(|e| {
                let n = e.file_name().to_string_lossy().to_string();
                let p = file_profile(&n)?;
                (n != name && (p.is_none() || p == mine)).then_some((n, p))
            })
            .collect();
        // Lowest precedence first (a later key wins a lookup): plain files
        // before the profile's, YAML before `.properties`.
        others.sort_by_key(|(n, p)| {
            (
                p.is_some(),
                n.to_ascii_lowercase().ends_with(".properties"),
                n.clone(),
            )
        });
        let mut outer: Vec<Prop> = Vec::new();
        for (n, _) in &others {
            let sibling = dir.join(n);
            let docs =
                loaded
                    .entry(sibling.clone())
                    .or_insert_with(|| match scanned.get(&sibling) {
                        Some(&i) => documents(n, &files[i].source.text),
                        None => read_sibling(&sibling)
                            .map(|t| documents(n, &t))
                            .unwrap_or_default(),
                    });
            for d in docs.iter() {
                let p = profile(d);
                if p.is_none() || p == mine {
                    outer.extend(d.iter().cloned());
                }
            }
        }
        if outer.is_empty() {
            continue;
        }
        let file = &files[f];
        let Some(syntax) = crate::systems::classify(&file.source.path, file.source.text.as_bytes())
        else {
            continue;
        };
        let facts = crate::systems::extract_with_outer(
            &file.source.path,
            &file.source.text,
            syntax,
            &outer,
        );
        files[f].facts = facts;
    }
}

/// A sibling file's text: a regular file (no symbolic link) of at most
/// [`MAX_SIBLING`] bytes, UTF-8.
fn read_sibling(path: &std::path::Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_SIBLING {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

#[cfg(test)]
mod tests;
