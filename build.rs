//! Generates the rule registry from the front matter of `rules/RLnnn-*.md`
//! (docs/architecture.md, "Where a rule lives").
//!
//! A rule is declared once, in its doc. Each doc binds to the module
//! `src/rules/<category>/<slug_with_underscores>.rs`, which must export
//! `pub const CHECK: Check`. Two outputs:
//! - `codes.rs`: the enum [`Code`] of every rule code (included by
//!   `src/diag/code.rs`), so that a code written in the source is checked
//!   by the compiler;
//! - `registry.rs`: `RULES`, in `Code` order, and the module each code is
//!   bound to (included by `src/rules/mod.rs`).
//!
//! A malformed doc, two docs with one code or name, or a rule module that
//! no doc binds stops the build with a message naming the file.

use std::fmt::Write as _;
use std::path::Path;

const CATEGORIES: &[(&str, char)] = &[
    ("conditions", '1'),
    ("backoff", '2'),
    ("timeouts", '3'),
    ("paths", '4'),
    ("idempotency", '5'),
    ("budget", '6'),
    ("settings", '9'),
];

/// One doc's front matter, checked.
struct Doc {
    file: String,
    path: String,
    code: String,
    name: String,
    category: String,
    severity: &'static str,
    since: String,
    summary: String,
    formats: Vec<String>,
}

impl Doc {
    fn module(&self) -> String {
        self.name.replace('-', "_")
    }
}

fn main() {
    // Read when the script runs, not when it was compiled: a target
    // folder shared by two checkouts (a worktree) must not read the other
    // one's rules.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest);
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=src/rules");
    let mut paths: Vec<_> = std::fs::read_dir(root.join("rules"))
        .expect("rules/ exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("RL"))
        .collect();
    paths.sort();
    let docs: Vec<Doc> = paths.iter().map(|p| read_doc(p)).collect();
    for (i, d) in docs.iter().enumerate() {
        for other in &docs[..i] {
            assert!(
                other.code != d.code,
                "{} and {}: two docs declare {}",
                other.file,
                d.file,
                d.code
            );
            assert!(
                other.name != d.name,
                "{} and {}: two docs declare the name {}",
                other.file,
                d.file,
                d.name
            );
        }
    }
    check_every_module_is_bound(root, &docs);
    let out_dir = std::env::var("OUT_DIR").unwrap();
    write_if_changed(&Path::new(&out_dir).join("codes.rs"), &codes(&docs));
    write_if_changed(&Path::new(&out_dir).join("registry.rs"), &registry(&docs));
    write_if_changed(&Path::new(&out_dir).join("systems.rs"), &systems(root));
}

fn read_doc(path: &Path) -> Doc {
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(path).unwrap();
    let file = path.file_name().unwrap().to_string_lossy().to_string();
    let fm = front_matter(&text).unwrap_or_else(|| panic!("{file}: no front matter"));
    let get = |k: &str| -> String {
        fm.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("{file}: front matter has no `{k}`"))
    };
    let (code, name, category, severity) =
        (get("code"), get("name"), get("category"), get("severity"));
    assert_eq!(
        file,
        format!("{code}-{name}.md"),
        "{file}: file name must be <code>-<name>.md"
    );
    let digit = CATEGORIES
        .iter()
        .find(|(c, _)| *c == category)
        .unwrap_or_else(|| panic!("{file}: unknown category `{category}`"))
        .1;
    assert!(
        code.len() == 5
            && code.starts_with("RL")
            && code[2..].chars().all(|c| c.is_ascii_digit())
            && code.chars().nth(2) == Some(digit),
        "{file}: code {code} does not belong to category {category}"
    );
    assert!(
        !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
        "{file}: name `{name}` must be kebab-case"
    );
    let severity = match severity.as_str() {
        "error" => "Error",
        "warning" => "Warning",
        "info" => "Info",
        s => panic!("{file}: unknown severity `{s}`"),
    };
    let formats = get("formats")
        .trim_matches(['[', ']'])
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let (since, summary) = (get("since"), get("summary"));
    Doc {
        file,
        path: path.display().to_string(),
        code,
        name,
        category,
        severity,
        since,
        summary,
        formats,
    }
}

/// A file `src/rules/<category>/<x>.rs` that exports `CHECK` is a rule
/// module: some doc must bind it, or its rule would never run.
fn check_every_module_is_bound(root: &Path, docs: &[Doc]) {
    for (category, _) in CATEGORIES {
        let Ok(entries) = std::fs::read_dir(root.join("src/rules").join(category)) else {
            continue;
        };
        for e in entries.filter_map(|e| e.ok()) {
            let path = e.path();
            let Some(stem) = path.file_stem().map(|s| s.to_string_lossy().to_string()) else {
                continue;
            };
            if path.extension().is_none_or(|x| x != "rs") || stem == "mod" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if !text.contains("pub const CHECK") {
                continue;
            }
            assert!(
                docs.iter()
                    .any(|d| d.category == *category && d.module() == stem),
                "src/rules/{category}/{stem}.rs exports CHECK but no rules/RLnnn-{}.md declares it",
                stem.replace('_', "-")
            );
        }
    }
}

fn codes(docs: &[Doc]) -> String {
    let mut out = String::from(
        "// @generated by build.rs from rules/*.md\n\
         /// A rule's code as a value: one variant per `rules/RLnnn-name.md`, in\n\
         /// code order, so that a code written in the source is checked by the\n\
         /// compiler (`Code::RL203`). [`Code::parse`] reads one from text.\n\
         #[allow(clippy::upper_case_acronyms)]\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]\n\
         pub enum Code {\n",
    );
    for d in docs {
        writeln!(out, "    /// `{}`: {}", d.name, d.summary).unwrap();
        writeln!(out, "    {},", d.code).unwrap();
    }
    out.push_str("}\n\nimpl Code {\n    /// Every code, in order.\n");
    writeln!(out, "    pub const ALL: [Code; {}] = [", docs.len()).unwrap();
    for d in docs {
        writeln!(out, "        Code::{},", d.code).unwrap();
    }
    out.push_str("    ];\n\n    /// The code as written: `\"RL203\"`.\n    pub const fn as_str(self) -> &'static str {\n        match self {\n");
    for d in docs {
        writeln!(out, "            Code::{0} => {0:?},", d.code).unwrap();
    }
    out.push_str("        }\n    }\n}\n");
    out
}

fn registry(docs: &[Doc]) -> String {
    let mut out = String::from(
        "// @generated by build.rs from rules/*.md\n\
         /// Every rule, in [`Code`] order: `RULES[code as usize]` is `code`'s.\n\
         pub static RULES: &[Rule] = &[\n",
    );
    for d in docs {
        let cat = {
            let mut c = d.category.chars();
            let f = c.next().unwrap().to_ascii_uppercase();
            format!("{f}{}", c.as_str())
        };
        writeln!(
            out,
            "    Rule {{ code: {code:?}, id: Code::{code}, name: {name:?}, category: Category::{cat}, severity: Severity::{sev}, since: {since:?}, summary: {summary:?}, formats: &{formats:?}, doc: include_str!({doc:?}), check: crate::rules::{category}::{module}::CHECK }},",
            code = d.code,
            name = d.name,
            sev = d.severity,
            since = d.since,
            summary = d.summary,
            formats = d.formats,
            doc = d.path,
            category = d.category,
            module = d.module(),
        )
        .unwrap();
    }
    out.push_str("];\n");
    out
}

/// Write `text` to `path` unless it already holds it (so that an unchanged
/// registry does not make cargo rebuild what includes it).
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    std::fs::write(path, text).unwrap();
}

fn front_matter(text: &str) -> Option<Vec<(String, String)>> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    Some(
        rest[..end]
            .lines()
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_string(), v.trim().trim_matches('"').to_string()))
            .collect(),
    )
}

/// `systems.rs`: the system registry, made from the folders of
/// `src/systems/` (docs/architecture.md, "The system registry"), the way
/// the rule registry is made from the rules' docs. A folder is a system
/// (or family) when `src/systems/mod.rs` declares it (`pub mod <folder>;`,
/// in that order); each `// system: <Variant>` line in its `mod.rs` binds
/// the next `pub static <NAME>: SystemSpec` to the variant
/// `System::<Variant>` (the text after ` - ` is the variant's doc). The
/// output is the `for_each_system!` callback macro that `model::registry`
/// includes.
fn systems(root: &Path) -> String {
    let list = root.join("src/systems/mod.rs");
    println!("cargo:rerun-if-changed={}", list.display());
    let text = std::fs::read_to_string(&list).expect("src/systems/mod.rs exists");
    let mut body = String::new();
    let mut seen: Vec<String> = Vec::new();
    for line in text.lines() {
        let Some(folder) = line
            .strip_prefix("pub mod ")
            .and_then(|l| l.strip_suffix(';'))
        else {
            continue;
        };
        let spec = root.join("src/systems").join(folder).join("mod.rs");
        if !spec.is_file() {
            // A module of the registry's own (`read.rs`), not a system.
            continue;
        }
        println!("cargo:rerun-if-changed={}", spec.display());
        let src = std::fs::read_to_string(&spec).unwrap();
        let shown = format!("src/systems/{folder}/mod.rs");
        let mut entries = String::new();
        let mut pending: Option<(String, String)> = None;
        for (n, l) in src.lines().enumerate() {
            let l = l.trim_start();
            if let Some(rest) = l.strip_prefix("// system: ") {
                assert!(
                    pending.is_none(),
                    "{shown}:{}: two `// system:` lines for one static",
                    n + 1
                );
                let (variant, doc) = match rest.split_once(" - ") {
                    Some((v, d)) => (v.trim(), d.trim()),
                    None => (rest.trim(), ""),
                };
                assert!(
                    variant
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_uppercase())
                        && variant.chars().all(|c| c.is_ascii_alphanumeric()),
                    "{shown}:{}: `{variant}` is not a variant name (CamelCase)",
                    n + 1
                );
                assert!(
                    !seen.contains(&variant.to_string()),
                    "{shown}:{}: System::{variant} is declared twice",
                    n + 1
                );
                seen.push(variant.to_string());
                pending = Some((variant.to_string(), doc.to_string()));
            } else if let Some(rest) = l.strip_prefix("pub static ")
                && let Some((variant, doc)) = pending.take()
            {
                let (name, ty) = rest.split_once(':').unwrap_or((rest, ""));
                assert!(
                    ty.trim_start().starts_with("SystemSpec"),
                    "{shown}:{}: `// system: {variant}` must stand above a `pub static NAME: SystemSpec`",
                    n + 1
                );
                if !doc.is_empty() {
                    writeln!(entries, "                #[doc = {doc:?}]").unwrap();
                }
                writeln!(entries, "                {variant}: {},", name.trim()).unwrap();
            }
        }
        assert!(
            pending.is_none(),
            "{shown}: a `// system:` line with no `pub static NAME: SystemSpec` after it"
        );
        writeln!(body, "            {folder} {{\n{entries}            }},").unwrap();
    }
    format!(
        "// Generated by build.rs from src/systems/: do not edit.\n\
         /// Call `$callback!` with every system of the registry.\n\
         macro_rules! for_each_system {{\n    ($callback:ident) => {{\n        $callback! {{\n{body}        }}\n    }};\n}}\n"
    )
}
