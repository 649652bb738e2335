//! A program another program references as a project (issue 19, left item
//! 2; duncan-G/ThePlot's gRPC server references its content-generation
//! worker to send through the worker's `ContentGenerationWorkPublisher`):
//! a file of the referenced program that declares a type a source file of
//! the referencing program names runs in that program too, its own unit
//! kept; the referenced program's other files (its start-up, its hosted
//! workers) run in itself only. A library's files are given to the
//! programs that reference it whole (`link::shared_projects`); a program
//! is not a library, so only what is used of it is.

use crate::model::ScannedFile;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Source files read per referencing program, at most.
const MAX_SOURCES: usize = 5_000;
/// How deep a program's folder is walked for its sources.
const MAX_DEPTH: usize = 12;
/// A source file larger than this is not searched.
const MAX_SOURCE: u64 = 1 << 20;
/// Types a file may declare before the rest are ignored.
const MAX_TYPES: usize = 64;
/// Entries of one folder listed, at most.
const MAX_ENTRIES: usize = 4_096;

/// The projects found above the C# files, by folder: (unit name, whether
/// a program, the units it references) (`link::shared_projects`).
pub(super) type Dirs = BTreeMap<PathBuf, Option<(String, bool, Vec<String>)>>;

/// Each program's folder: from the `*.csproj` files of the scan and the
/// projects the C# files were found in (`dirs`, by folder).
pub(super) fn project_dirs(
    files: &[ScannedFile],
    cwd: Option<&Path>,
    dirs: &Dirs,
) -> BTreeMap<String, PathBuf> {
    let mut out: BTreeMap<String, PathBuf> = BTreeMap::new();
    for (dir, p) in dirs {
        if let Some((name, _, _)) = p {
            out.entry(name.clone()).or_insert_with(|| dir.clone());
        }
    }
    for f in files {
        let path = &f.source.path;
        let Some(stem) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".csproj"))
        else {
            continue;
        };
        let Some(dir) = path.parent() else { continue };
        let dir = match cwd {
            Some(c) if dir.is_relative() => c.join(dir),
            _ => dir.to_path_buf(),
        };
        out.entry(super::project_name(stem)).or_insert(dir);
    }
    out
}

/// What the link stage sees of the disk: the walk's view of it where the
/// walk covers a path (a file `.gitignore` or `--exclude` left out reads
/// as absent, as it does for the readers), the disk elsewhere
/// (`link::Disk`, which implements it; the C# steps sit below the link
/// stage and name it through this).
pub trait Look {
    /// The names of at most `max` entries of folder `dir`.
    fn list(&self, dir: &Path, max: usize) -> Option<Vec<String>>;
    /// Whether `path` is a folder.
    fn is_dir(&self, path: &Path) -> bool;
    /// Whether `path` is a regular file.
    fn is_file(&self, path: &Path) -> bool;
    /// The text of the regular file `path`, when at most `max` bytes.
    fn read(&self, path: &Path, max: u64) -> Option<String>;
}

/// The files of referenced programs (by index) and the referencing
/// programs each also runs in. A referencing program's sources are the
/// `*.cs` files the walk saw under its folder ([`sources`]): the text of
/// a file the scan kept is the one read, the others (no call, no retry:
/// not kept) are read through `look`.
pub(super) fn used_by_programs(
    files: &[ScannedFile],
    cwd: Option<&Path>,
    file_unit: &[Option<String>],
    programs: &BTreeSet<String>,
    used_by: &BTreeMap<String, BTreeSet<String>>,
    dirs: &BTreeMap<String, PathBuf>,
    look: &dyn Look,
) -> Vec<(usize, BTreeSet<String>)> {
    // Referencing program -> (file index, the types it declares).
    let mut wanted: BTreeMap<&str, Vec<(usize, Vec<String>)>> = BTreeMap::new();
    for (i, u) in file_unit.iter().enumerate() {
        let Some(u) = u.as_deref().filter(|u| programs.contains(*u)) else {
            continue;
        };
        let f = &files[i];
        if f.facts.edges.is_empty() && f.facts.unresolved.is_empty() && f.facts.policies.is_empty()
        {
            continue;
        }
        let users: Vec<&str> = used_by
            .get(u)
            .into_iter()
            .flatten()
            .filter(|q| programs.contains(*q) && q.as_str() != u && !is_test(q))
            .map(String::as_str)
            .collect();
        if users.is_empty() {
            continue;
        }
        let types = declared_types(&code_only(&f.source.text));
        if types.is_empty() {
            continue;
        }
        for q in users {
            wanted.entry(q).or_default().push((i, types.clone()));
        }
    }
    if wanted.is_empty() {
        return Vec::new();
    }
    // The kept C# files' texts, by their paths as the walk gave them.
    let kept: BTreeMap<PathBuf, &str> = files
        .iter()
        .filter(|f| f.source.path.extension().is_some_and(|e| e == "cs"))
        .map(|f| {
            let p = match cwd {
                Some(c) if f.source.path.is_relative() => c.join(&f.source.path),
                _ => f.source.path.clone(),
            };
            (p, f.source.text.as_str())
        })
        .collect();
    let mut out: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for (q, candidates) in wanted {
        let Some(dir) = dirs.get(q) else { continue };
        let mut left = candidates;
        for path in sources(dir, look) {
            let text = match kept.get(&path) {
                Some(t) => code_only(t),
                None => match look.read(&path, MAX_SOURCE) {
                    Some(t) => code_only(&t),
                    None => continue,
                },
            };
            left.retain(|(i, types)| {
                if types.iter().any(|t| names(&text, t)) {
                    out.entry(*i).or_default().insert(q.to_string());
                    false
                } else {
                    true
                }
            });
            if left.is_empty() {
                break;
            }
        }
    }
    out.into_iter().collect()
}

/// A test project (`Shop.Api.Tests`) runs nothing of what it references.
fn is_test(unit: &str) -> bool {
    let last = unit.rsplit('_').next().unwrap_or(unit);
    last.ends_with("Tests") || last == "Test"
}

/// The types a C# file declares: the name after `class`, `record`,
/// `struct`, `interface` or `enum`.
pub(super) fn declared_types(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut words = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty());
    while let Some(w) = words.next() {
        if !matches!(w, "class" | "record" | "struct" | "interface" | "enum") {
            continue;
        }
        // `record struct X`, `record class X`.
        let mut name = words.next();
        if w == "record" && matches!(name, Some("struct" | "class")) {
            name = words.next();
        }
        if let Some(n) = name.filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase()))
            && n != "Program"
            && !out.iter().any(|x| x == n)
        {
            out.push(n.to_string());
            if out.len() >= MAX_TYPES {
                break;
            }
        }
    }
    out
}

/// Whether C# `text` declares a type named `name`.
pub(super) fn declares(text: &str, name: &str) -> bool {
    names(text, name) && declared_types(&code_only(text)).iter().any(|t| t == name)
}

/// The value of the string constant `name` that C# `text` declares in
/// type `class` (`const string Orders = "orders";`, or `static readonly
/// string`), if one.
pub(super) fn constant(text: &str, class: &str, name: &str) -> Option<String> {
    let code = code_only(text);
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    // The type's body: from the `{` after `class X` to its match.
    let body = code.match_indices(class).find_map(|(at, _)| {
        let before = code[..at].trim_end();
        let kw = before.rsplit(|c: char| !ident(c)).next()?;
        if !matches!(kw, "class" | "struct" | "record" | "interface")
            || code[at + class.len()..].starts_with(ident)
        {
            return None;
        }
        let open = at + code[at..].find('{')?;
        let mut depth = 0usize;
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(open..open + i);
                    }
                }
                _ => {}
            }
        }
        None
    })?;
    let inner = &code[body.clone()];
    inner.match_indices(name).find_map(|(at, _)| {
        let abs = body.start + at;
        if code[..abs].ends_with(ident) || code[abs + name.len()..].starts_with(ident) {
            return None;
        }
        // `const string` / `static readonly string` before, on the same
        // declaration.
        let head = &code[..abs];
        let decl = &head[head.rfind([';', '{', '}']).map_or(0, |i| i + 1)..];
        let words: Vec<&str> = decl.split_whitespace().collect();
        if words.last() != Some(&"string")
            || !words.iter().any(|w| *w == "const" || *w == "readonly")
        {
            return None;
        }
        let rest = code[abs + name.len()..].trim_start();
        let rest = rest.strip_prefix('=')?;
        // The literal itself is blanked in `code`: read it from `text`.
        let from = code.len() - rest.len();
        let lit = text.get(from..)?.trim_start().strip_prefix('"')?;
        let end = lit.find(['"', '\\', '\n'])?;
        (lit.as_bytes()[end] == b'"').then(|| lit[..end].to_string())
    })
}

/// Whether `text` names `word` as a whole identifier.
pub(super) fn names(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(ident)
            && !text[at + word.len()..].chars().next().is_some_and(ident)
    })
}

/// The `*.cs` files under a program's folder (not `bin`, `obj`, nor a
/// folder holding another project), as `look` lists them, sorted.
pub(super) fn sources(dir: &Path, look: &dyn Look) -> Vec<PathBuf> {
    let mut todo: Vec<(PathBuf, usize)> = vec![(dir.to_path_buf(), 0)];
    let mut files: Vec<PathBuf> = Vec::new();
    while let Some((d, depth)) = todo.pop() {
        if depth > MAX_DEPTH || files.len() >= MAX_SOURCES {
            continue;
        }
        let Some(entries) = look.list(&d, MAX_ENTRIES) else {
            continue;
        };
        // A nested project is its own, not this one's.
        if depth > 0 && entries.iter().any(|e| e.ends_with(".csproj")) {
            continue;
        }
        for name in entries {
            let p = d.join(&name);
            if name.ends_with(".cs") {
                if look.is_file(&p) {
                    files.push(p);
                }
            } else if !matches!(name.as_str(), "bin" | "obj" | ".git" | "node_modules")
                && look.is_dir(&p)
            {
                todo.push((p, depth + 1));
            }
        }
    }
    files.sort();
    files.truncate(MAX_SOURCES);
    files
}

/// C# text with its comments and its string and character literals
/// blanked (each byte of them a space, newlines kept): a type named only
/// in a comment or a string (`// see WorkPublisher`, `"WorkPublisher"`)
/// is not a use of it, nor `class` in a comment a declaration. Regular
/// (`".."`, escapes), verbatim (`@".."`, `""` inside), raw (`"""..."""`)
/// and interpolated strings (`$".."`: the holes blanked too).
pub(super) fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == b'/' && next == Some(b'/') {
            let end = b[i..]
                .iter()
                .position(|&x| x == b'\n')
                .map_or(b.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if c == b'/' && next == Some(b'*') {
            let end = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
            blank(&mut out, i, end);
            i = end;
        } else if c == b'\'' {
            // A character literal: '\'', 'x', '\u0041'.
            let mut j = i + 1;
            while j < b.len() && b[j] != b'\'' && b[j] != b'\n' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            blank(&mut out, i, end);
            i = end;
        } else if c == b'"'
            || (matches!(c, b'@' | b'$') && matches!(next, Some(b'"' | b'@' | b'$')))
        {
            let mut j = i;
            let mut verbatim = false;
            while j < b.len() && matches!(b[j], b'@' | b'$') {
                verbatim |= b[j] == b'@';
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                i += 1;
                continue;
            }
            let quotes = b[j..].iter().take_while(|&&x| x == b'"').count();
            let end = if quotes >= 3 {
                // Raw: ends at as many quotes as it opened with.
                let close = "\"".repeat(quotes);
                text[j + quotes..]
                    .find(&close)
                    .map_or(b.len(), |n| j + quotes + n + quotes)
            } else if quotes == 2 {
                // The empty string.
                j + 2
            } else {
                let mut k = j + 1;
                loop {
                    match b.get(k) {
                        None => break b.len(),
                        Some(b'\\') if !verbatim => k += 2,
                        Some(b'"') if verbatim && b.get(k + 1) == Some(&b'"') => k += 2,
                        Some(b'"') => break k + 1,
                        Some(b'\n') if !verbatim => break k,
                        Some(_) => k += 1,
                    }
                }
            };
            blank(&mut out, i, end);
            i = end;
        } else {
            i += 1;
        }
    }
    // Every range blanked begins and ends at an ASCII byte: whole
    // characters became spaces, still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_types_and_whole_names() {
        let t = "public sealed class WorkPublisher(ServiceBusClient c) { }\n\
                 internal record struct Item(string Id);\npartial class Program {}";
        assert_eq!(declared_types(t), ["WorkPublisher", "Item"]);
        assert!(names(
            "app.MapPost(\"/w\", (WorkPublisher p) => 1)",
            "WorkPublisher"
        ));
        assert!(!names("IWorkPublisher p", "WorkPublisher"));
        assert!(!names("WorkPublishers", "WorkPublisher"));
    }

    #[test]
    fn string_constants_of_a_type() {
        let t = "namespace N;\n// class Queues { const string Orders = \"no\"; }\n\
                 public static class Queues\n{\n    public const string Orders = \"orders\";\n\
                 internal static readonly string Billing = \"billing\";\n    public string Other = \"x\";\n}\n\
                 class Other { const string Orders = \"other-orders\"; }";
        assert_eq!(constant(t, "Queues", "Orders").as_deref(), Some("orders"));
        assert_eq!(constant(t, "Queues", "Billing").as_deref(), Some("billing"));
        assert_eq!(
            constant(t, "Other", "Orders").as_deref(),
            Some("other-orders")
        );
        assert_eq!(constant(t, "Queues", "Other"), None, "not a constant");
        assert_eq!(constant(t, "Missing", "Orders"), None);
        assert!(declares(t, "Queues") && !declares(t, "Orders"));
    }

    /// A type named only in a comment or a string is not used, nor is
    /// `class X` in a comment a declaration; the code around is kept.
    #[test]
    fn comments_and_strings_are_not_code() {
        let t = "// uses WorkPublisher\n/* class Hidden { } */\nvar s = \"WorkPublisher\";\n\
                 var v = @\"a \"\"WorkPublisher\"\" b\";\nvar r = \"\"\"\n WorkPublisher \"\n\"\"\";\n\
                 var i = $\"{x} WorkPublisher\"; var c = '\\'';\nclass Shown { Used u; } // é";
        let code = code_only(t);
        assert_eq!(code.len(), t.len());
        assert_eq!(code.lines().count(), t.lines().count());
        assert!(!names(&code, "WorkPublisher"), "{code}");
        assert_eq!(declared_types(&code), ["Shown"]);
        assert!(names(&code, "Used"), "{code}");
        // Strings that end where they should: the code after them stays.
        let t = "var a = \"x\\\"y\"; Used b; var e = \"\"; Used2 c;";
        let code = code_only(t);
        assert!(names(&code, "Used") && names(&code, "Used2"), "{code}");
    }
}
