//! Imports between the crate's top-level modules point one way:
//! source -> syntax -> model -> extract (readers' helpers) -> systems -> link -> scan -> graph
//! -> rules -> report -> pipeline -> render. Each module has a layer in [`LAYERS`]; a
//! module may name only modules of its own layer or below, and no two
//! modules name each other, directly or around a circle.
//!
//! The test reads `src/` as text: `crate::<module>` paths (and, in
//! `lib.rs`, `<module>::` paths), outside comments and string literals.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every top-level module and its layer; `lib` is the crate root (the scan
/// stage: `Scan`, `scan`).
const LAYERS: &[(&str, u8)] = &[
    ("source", 0),
    // Fixes: byte-range edits on a text, and applying them.
    ("fix", 0),
    // Syntax: text readers and grammars.
    ("yaml", 1),
    ("duration", 1),
    ("keys", 1),
    // Time and panic guards, which readers run under.
    ("guard", 1),
    // What extractors report.
    ("diag", 2),
    // The model, and the settings a run reads.
    ("model", 3),
    ("config", 3),
    ("discover", 3),
    // Stage and step timings for benchmarks (`RETRYLINT_TIMINGS`).
    ("timings", 3),
    // What every reader is given and the helpers readers share (document
    // context, sniff words, span remapping, workload and build files).
    ("extract", 4),
    // Systems: the registry, and one folder per system (what it is:
    // defaults, fix texts; its reader: one file in, facts out; its file
    // claims), and the dispatch of a file to its reader.
    ("systems", 5),
    // Joins across files, and the facts cache.
    ("link", 6),
    ("versions", 6),
    ("cache", 6),
    // The scan stage.
    ("lib", 7),
    ("not_read", 7),
    ("changes", 7),
    ("graph", 8),
    // One repository's facts exported, and several joined.
    ("org", 8),
    ("rules", 9),
    ("check", 10),
    // What a path's retries do to the service at its end in an outage.
    ("simulate", 10),
    ("config_file", 10),
    ("suppress", 10),
    ("report", 11),
    // One run, stage by stage, for every command.
    ("pipeline", 11),
    ("render", 12),
    ("cli", 13),
    // The language server (`retrylint server`), which the command line starts.
    ("server", 13),
    ("robustness", 13),
];

/// The text of a Rust file without comments and string or char literals
/// (their place kept as spaces), so that a path in a doc or a test input
/// is not an import.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == b'/' && next == Some(b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && next == Some(b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == b'r'
            && (next == Some(b'"') || next == Some(b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // A raw string: r"..", r#".."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            j += 1;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            i = j + close.len();
            out.push(' ');
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if c == b'\'' && (b.get(i + 2) == Some(&b'\'') || next == Some(b'\\')) {
            // A char literal ('x', '\n', '\''), not a lifetime.
            i += 1;
            if b.get(i) == Some(&b'\\') {
                i += 2;
            }
            while i < b.len() && b[i] != b'\'' {
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else {
            // Multi-byte characters are copied whole.
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + len]);
            i += len;
        }
    }
    out
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first identifier of each entry of a `{a, b::c, d::{e, f}}` group
/// (`s` starts after the opening brace).
fn group_heads(s: &str) -> Vec<&str> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut at_entry = true;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_entry = true,
            c if at_entry && (c.is_ascii_alphanumeric() || c == '_') => {
                heads.push(ident_at(&s[i..]));
                at_entry = false;
            }
            _ => {}
        }
    }
    heads
}

/// The top-level modules named in one file's code.
fn named_modules(code: &str, is_root: bool, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let known = |m: &str| {
        if modules.contains(m) {
            m.to_string()
        } else {
            "lib".to_string()
        }
    };
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            out.extend(group_heads(group).into_iter().map(known));
        } else {
            let id = ident_at(rest);
            // `crate::again!(..)`: a macro, not a module.
            if !id.is_empty() && !rest[id.len()..].starts_with('!') {
                out.insert(known(id));
            }
        }
    }
    if is_root {
        for (i, _) in code.match_indices("::") {
            let before = &code[..i];
            let start = before
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |j| j + 1);
            let id = &before[start..];
            let path_start = !before[..start].ends_with("::");
            if path_start && modules.contains(id) {
                out.insert(id.to_string());
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a source directory is readable") {
        let p = e.expect("a directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Module -> the modules it names, with one file that names each.
fn imports() -> BTreeMap<String, BTreeMap<String, String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|p| p.strip_prefix(&src).ok())
        .filter_map(|rel| rel.components().next())
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .filter(|m| m != "lib" && m != "main")
        .collect();
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for path in &files {
        let rel = path.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        // main.rs is the binary, a crate of its own.
        if top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        for m in named_modules(&code_only(&text), top == "lib", &modules) {
            if m != top {
                edges
                    .entry(top.clone())
                    .or_default()
                    .entry(m)
                    .or_insert_with(|| rel.display().to_string());
            }
        }
        edges.entry(top).or_default();
    }
    edges
}

#[test]
fn every_module_has_a_layer() {
    let layers: BTreeMap<&str, u8> = LAYERS.iter().copied().collect();
    let missing: Vec<String> = imports()
        .into_keys()
        .filter(|m| !layers.contains_key(m.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "modules without a layer: {missing:?}; add each to LAYERS in tests/suite/layering.rs"
    );
}

#[test]
fn imports_point_down() {
    let layers: BTreeMap<&str, u8> = LAYERS.iter().copied().collect();
    let mut wrong = Vec::new();
    for (from, tos) in imports() {
        let Some(&lf) = layers.get(from.as_str()) else {
            continue;
        };
        for (to, file) in tos {
            if let Some(&lt) = layers.get(to.as_str())
                && lt > lf
            {
                wrong.push(format!(
                    "{file}: `{from}` (layer {lf}) names `{to}` (layer {lt})"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that point up:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_import_circle() {
    let edges = imports();
    // Depth-first search for a back edge, reporting the circle it closes.
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeMap<String, String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(m.to_string(), 1);
        stack.push(m.to_string());
        for to in edges.get(m).into_iter().flat_map(|t| t.keys()) {
            match state.get(to.as_str()) {
                Some(1) => {
                    let i = stack.iter().position(|s| s == to).unwrap();
                    let mut circle = stack[i..].to_vec();
                    circle.push(to.clone());
                    return Some(circle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(to, edges, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in edges.keys() {
        if !state.contains_key(m.as_str()) {
            let circle = visit(m, &edges, &mut state, &mut Vec::new());
            assert!(
                circle.is_none(),
                "import circle: {}",
                circle.unwrap().join(" -> ")
            );
        }
    }
}

/// The scanner itself: a path in a comment or a string is not an import,
/// a group names each of its heads.
#[test]
fn the_scanner_reads_paths_not_text() {
    let modules: BTreeSet<String> = ["rules", "model", "source"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let code = code_only(
        "// crate::rules\nuse crate::{model::{A, B}, source::Span};\nlet s = \"crate::rules\";\nlet r = r#\"crate::rules\"#;\nlet c = '\"'; crate::again!(x);",
    );
    let named = named_modules(&code, false, &modules);
    assert_eq!(
        named.into_iter().collect::<Vec<_>>(),
        ["model", "source"].map(String::from)
    );
}

/// The longest a source file may be (src/ and tests/, `*.rs`).
const MAX_LINES: usize = 800;

/// Files over [`MAX_LINES`] that are being split now. An entry must still be
/// over the limit, so the list only shrinks.
const PENDING: &[&str] = &[];

#[test]
fn no_source_file_is_over_800_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("tests"), &mut files);
    let mut long = Vec::new();
    let mut over = BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a source file is readable");
        let lines = text.lines().count();
        let name = f
            .strip_prefix(root)
            .unwrap_or(f)
            .to_string_lossy()
            .replace('\\', "/");
        if lines > MAX_LINES {
            over.insert(name.clone());
            if !PENDING.contains(&name.as_str()) {
                long.push(format!("{name}: {lines} lines"));
            }
        }
    }
    let done: Vec<&str> = PENDING
        .iter()
        .copied()
        .filter(|p| !over.contains(*p))
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (split them into cohesive submodules): {long:#?}"
    );
    assert!(
        done.is_empty(),
        "no longer over {MAX_LINES} lines: remove {done:?} from PENDING in tests/suite/layering.rs"
    );
}
