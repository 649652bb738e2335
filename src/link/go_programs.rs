//! The compose services that run a Go package's code (issue 21). One Go
//! module often builds several programs (`go build ./cmd/payment`), each
//! run by its own compose service, while the module is one build unit:
//! a call whose target is `env X` in `internal/payment/server.go` is made
//! by the services whose program imports that package, with the value
//! each of them sets (found on NeptuneG/go-back: five compose services,
//! each built from the module's root with its own Dockerfile).
//!
//! A compose service's program: its `build` (the context, and the
//! `dockerfile` relative to it, `Dockerfile` by default: the Compose
//! Specification, build.md "context" and "dockerfile") whose Dockerfile
//! runs `go build`/`go install` with a package path relative to the
//! context (`./cmd/payment`); the packages that program runs are that
//! main package and every package of the same module it imports,
//! directly or not (read from the `.go` files' import declarations).

use super::Disk;
use super::go_dials::{module_of, package_dir};
use crate::model::ScannedFile;
use crate::model::calls::IdentityKind;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The largest Dockerfile or Go file read.
const MAX_FILE: u64 = 1 << 20;
/// At most this many packages are followed from one program.
const MAX_PACKAGES: usize = 256;
/// At most this many entries of one package folder are looked at.
const MAX_ENTRIES: usize = 256;

/// Package folder (absolute) -> the compose services whose program runs
/// it, each with the names its importers in that program select from it
/// (`payment.New`: `New`), `None` for the main package itself.
pub(super) type Programs = HashMap<PathBuf, BTreeMap<String, Option<BTreeSet<String>>>>;

/// Whether the service's program runs the function a call at `at` in
/// `text` is made in: a method, an unexported function or code outside
/// any function is run where its package is; an exported function only
/// where an importer selects it (go-back's gateway imports
/// `internal/payment` for its client, `NewClient`, and never runs `New`,
/// the server's constructor that dials the live service).
pub(super) fn runs(selected: &Option<BTreeSet<String>>, text: &str, at: usize) -> bool {
    let Some(selected) = selected else {
        return true;
    };
    let before = text.get(..at).unwrap_or("");
    let Some(line) = before
        .lines()
        .rev()
        .find(|l| l.starts_with("func ") || l.starts_with('}'))
    else {
        return true;
    };
    let Some(rest) = line.strip_prefix("func ") else {
        return true;
    };
    if rest.starts_with('(') {
        return true;
    }
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    !name.starts_with(|c: char| c.is_uppercase()) || selected.contains(&name)
}

pub(super) fn programs(files: &[ScannedFile], cwd: Option<&Path>, disk: Disk<'_>) -> Programs {
    let mut out = Programs::new();
    let abs = |p: &Path| -> PathBuf {
        crate::source::fold_dots(&match cwd {
            Some(c) if p.is_relative() => c.join(p),
            _ => p.to_path_buf(),
        })
    };
    let mut modules = HashMap::new();
    let mut imports: HashMap<PathBuf, Vec<(String, BTreeSet<String>)>> = HashMap::new();
    for f in files {
        if !f
            .facts
            .services
            .iter()
            .any(|s| s.kind == IdentityKind::Compose)
        {
            continue;
        }
        let path = abs(&f.source.path);
        let dir = path.parent().unwrap_or(Path::new("/")).to_path_buf();
        for (service, context, dockerfile) in builds(&f.source.text) {
            let context = crate::source::fold_dots(&dir.join(&context));
            let Some(text) = disk.read(&context.join(&dockerfile), MAX_FILE) else {
                continue;
            };
            for pkg in go_builds(&text) {
                let main = crate::source::fold_dots(&context.join(&pkg));
                let Some((root, module)) = module_of(&main, &mut modules, disk) else {
                    continue;
                };
                // The main package and what it imports of its module,
                // with the names selected from each.
                let mut todo = vec![main.clone()];
                let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
                let mut names: HashMap<PathBuf, BTreeSet<String>> = HashMap::new();
                while let Some(p) = todo.pop() {
                    if seen.len() >= MAX_PACKAGES || !seen.insert(p.clone()) {
                        continue;
                    }
                    let list = imports
                        .entry(p.clone())
                        .or_insert_with(|| package_imports(&p, disk));
                    for (i, sel) in list.iter() {
                        if let Some(d) = package_dir(&root, &module, i) {
                            names
                                .entry(d.clone())
                                .or_default()
                                .extend(sel.iter().cloned());
                            todo.push(d);
                        }
                    }
                }
                for p in seen {
                    let sel = (p != main).then(|| names.remove(&p).unwrap_or_default());
                    out.entry(p).or_default().insert(service.clone(), sel);
                }
            }
        }
    }
    out
}

/// A compose service handed a whole `env_file` takes every variable in it,
/// read or not; the graph keeps such a call only where the service's
/// code reads the variable, and assumes it is read where none of its
/// code is known (`graph::env_reads`). A service running a Go program of
/// a module has known code: the packages its program runs. Its calls
/// through variables none of those packages' files names are dropped
/// (go-back's `live-service` takes `PAYMENT_SERVICE_HOST` from the shared
/// `.env`; only `internal/payment`, which its program does not import,
/// reads it).
pub(super) fn drop_unread(files: &mut [ScannedFile], programs: &Programs, disk: Disk<'_>) {
    let mut runs: BTreeMap<&str, Vec<&Path>> = BTreeMap::new();
    for (dir, services) in programs {
        for s in services.keys() {
            runs.entry(s.as_str()).or_default().push(dir.as_path());
        }
    }
    // Each service's program files: the path shown (from the module's
    // root) and the text.
    let mut texts: HashMap<&str, Vec<(String, String)>> = HashMap::new();
    let mut modules = HashMap::new();
    for f in files.iter_mut() {
        let mut unread = Vec::new();
        for (k, e) in f.facts.edges.iter_mut().enumerate() {
            let (Some(caller), Some((var, "env_file"))) =
                (&e.caller, crate::model::calls::whole_map_env(&e.via))
            else {
                continue;
            };
            let Some((name, dirs)) = runs.get_key_value(caller.as_str()) else {
                continue;
            };
            let program = texts.entry(name).or_insert_with(|| {
                let mut all = Vec::new();
                for d in dirs {
                    let root = module_of(d, &mut modules, disk).map(|(r, _)| r);
                    for n in disk.list(d, MAX_ENTRIES).unwrap_or_default() {
                        let path = d.join(&n);
                        if n.ends_with(".go")
                            && !n.ends_with("_test.go")
                            && let Some(t) = disk.read(&path, MAX_FILE)
                        {
                            let shown = root
                                .as_deref()
                                .and_then(|r| path.strip_prefix(r).ok())
                                .unwrap_or(Path::new(&n));
                            all.push((shown.display().to_string(), t));
                        }
                    }
                }
                all
            });
            // Named by the program's code: say where (the graph said "read
            // assumed, no code", the module's files being no service's),
            // and the call is no longer one the graph must check (the
            // `(env_file)` mark at the end goes).
            match program.iter().find(|(_, t)| names_word(t, var)) {
                Some((path, _)) => {
                    let base = e
                        .via
                        .strip_suffix(crate::model::calls::WHOLE_FILE_VIA)
                        .unwrap_or(&e.via);
                    e.via = format!("{base} (env_file), named by its program's code (`{path}`)");
                }
                None => unread.push(k),
            }
        }
        let mut k = 0;
        f.facts.edges.retain(|_| {
            k += 1;
            !unread.contains(&(k - 1))
        });
    }
}

/// Whether `word` occurs in `text` with no letter, digit or `_` beside it.
fn names_word(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_';
    !word.is_empty()
        && text.match_indices(word).any(|(i, _)| {
            !text[..i].chars().next_back().is_some_and(part)
                && !text[i + word.len()..].chars().next().is_some_and(part)
        })
}

/// A compose file's services with a `build`: (service, context, the
/// Dockerfile's path relative to the context).
fn builds(text: &str) -> Vec<(String, String, String)> {
    let file = crate::yaml::parse(text);
    let mut out = Vec::new();
    for d in &file.documents {
        let Some(services) = file.root(d).get("services") else {
            continue;
        };
        for s in services.entries() {
            let Some(b) = s.value.get("build") else {
                continue;
            };
            let (context, dockerfile) = match b.as_str() {
                Some(c) => (c.to_string(), None),
                None => (
                    b.get("context")
                        .and_then(|c| c.as_str())
                        .unwrap_or(".")
                        .to_string(),
                    b.get("dockerfile").and_then(|d| d.as_str()),
                ),
            };
            out.push((
                s.key.to_string(),
                context,
                dockerfile.unwrap_or("Dockerfile").to_string(),
            ));
        }
    }
    out
}

/// The package paths a Dockerfile's `go build`/`go install` commands
/// name relative to the build's folder (`./cmd/payment`; flags and the
/// value of `-o` left out).
fn go_builds(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        for cmd in ["go build", "go install"] {
            let Some(i) = line.find(cmd) else {
                continue;
            };
            let mut words = line[i + cmd.len()..].split_whitespace();
            while let Some(w) = words.next() {
                if matches!(w, "&&" | ";" | "|" | "\\") {
                    break;
                }
                if w == "-o" {
                    words.next();
                    continue;
                }
                if w.starts_with("./") && !w.contains("...") && !out.iter().any(|o| o == w) {
                    out.push(w.to_string());
                }
            }
        }
    }
    out
}

/// The import paths of a package folder's `.go` files (tests left out),
/// each with the names its files select from it (`alias.Name`).
fn package_imports(dir: &Path, disk: Disk<'_>) -> Vec<(String, BTreeSet<String>)> {
    let mut out: Vec<(String, BTreeSet<String>)> = Vec::new();
    for name in disk.list(dir, MAX_ENTRIES).unwrap_or_default() {
        if !name.ends_with(".go") || name.ends_with("_test.go") {
            continue;
        }
        let Some(text) = disk.read(&dir.join(&name), MAX_FILE) else {
            continue;
        };
        for (path, alias) in imports_of(&text) {
            let sel = selected(&text, &alias);
            match out.iter_mut().find(|(p, _)| *p == path) {
                Some((_, s)) => s.extend(sel),
                None => out.push((path, sel)),
            }
        }
    }
    out
}

/// The names a file selects from an imported package (`alias.Name`).
fn selected(text: &str, alias: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if alias.is_empty() || alias == "_" || alias == "." {
        return out;
    }
    let needle = format!("{alias}.");
    for (i, _) in text.match_indices(&needle) {
        if text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        {
            continue;
        }
        let name: String = text[i + needle.len()..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && out.len() < 1024 {
            out.insert(name);
        }
    }
    out
}

/// The imports of a Go file: `import "x"`, `import alias "x"` and
/// `import ( ... )` blocks, up to the first declaration after them; each
/// path with the name the file uses for it (the alias, else the path's
/// last segment).
fn imports_of(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut block = false;
    let spec = |s: &str| -> Option<(String, String)> {
        let (before, rest) = s.split_once('"')?;
        let path = rest.split('"').next()?.to_string();
        let alias = match before.trim() {
            "" => path.rsplit('/').next().unwrap_or("").to_string(),
            a => a.to_string(),
        };
        Some((path, alias))
    };
    for line in text.lines() {
        let l = line.trim();
        if block {
            if l.starts_with(')') {
                block = false;
            } else if let Some(s) = spec(l) {
                out.push(s);
            }
            continue;
        }
        if let Some(rest) = l.strip_prefix("import") {
            let rest = rest.trim_start();
            if let Some(inner) = rest.strip_prefix('(') {
                block = !inner.contains(')');
                if let Some(s) = spec(inner) {
                    out.push(s);
                }
            } else if let Some(s) = spec(rest) {
                out.push(s);
            }
        } else if l.starts_with("func ") || l.starts_with("type ") || l.starts_with("var ") {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dockerfile_go_builds() {
        let d = "RUN go mod download\nRUN go build -o ./bin/payment ./cmd/payment\n\
                 RUN CGO_ENABLED=0 go install ./cmd/live && echo ok\nRUN go build ./...\n";
        assert_eq!(go_builds(d), ["./cmd/payment", "./cmd/live"]);
    }

    #[test]
    fn import_declarations() {
        let f = "package main\n\nimport \"fmt\"\nimport (\n\tsvc \"example.com/m/internal/payment\"\n\t\"os\"\n)\n\nfunc main() {}\nimport \"late\"\n";
        let all = imports_of(f);
        let got: Vec<(&str, &str)> = all.iter().map(|(p, a)| (p.as_str(), a.as_str())).collect();
        assert_eq!(
            got,
            [
                ("fmt", "fmt"),
                ("example.com/m/internal/payment", "svc"),
                ("os", "os")
            ]
        );
        let sel = selected(
            "x := svc.NewClient(ctx)\ny := mysvc.New()\nsvc.Close()",
            "svc",
        );
        assert_eq!(sel.into_iter().collect::<Vec<_>>(), ["Close", "NewClient"]);
    }

    #[test]
    fn exported_functions_run_where_selected() {
        let text = "package p\n\nfunc New() {\n\tdial()\n}\n\nfunc (s *S) Do() {\n\tdial()\n}\n\nfunc helper() {\n\tdial()\n}\n";
        let at = |needle: &str| text.find(needle).unwrap() + needle.len() + 2;
        let some = Some(BTreeSet::from(["NewClient".to_string()]));
        assert!(!runs(&some, text, at("func New() {")));
        assert!(runs(&some, text, at("func (s *S) Do() {")));
        assert!(runs(&some, text, at("func helper() {")));
        assert!(runs(&None, text, at("func New() {")));
        let new = Some(BTreeSet::from(["New".to_string()]));
        assert!(runs(&new, text, at("func New() {")));
    }

    #[test]
    fn compose_builds() {
        let c = "services:\n  a:\n    build: ./a\n  b:\n    build:\n      context: .\n      dockerfile: ./build/b/Dockerfile\n  c:\n    image: x\n";
        assert_eq!(
            builds(c),
            [
                ("a".into(), "./a".into(), "Dockerfile".into()),
                ("b".into(), ".".into(), "./build/b/Dockerfile".into())
            ]
        );
    }
}
