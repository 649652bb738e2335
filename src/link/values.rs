//! Numbers a file reads from a name another file gives (issues 20 and
//! 21): the reader records each name it could not read
//! ([`crate::model::values::ValueWant`]); this step finds the value
//! where the language puts it and reads the file again with the values
//! given (`crate::extract::values::with_given`), so every reading of the
//! file (attempts, waits, timeouts) takes them as if written there.
//!
//! - Python `from .config import MAX_RETRIES` / `from app import config`
//!   then `config.MAX_RETRIES`: the module's top-level binding (the
//!   module's file found from the importing file's folder, a relative
//!   import from its package, an absolute one from the nearest folder
//!   above that holds it).
//! - Django `settings.RETRY_ATTEMPTS`: the settings modules of the
//!   project (`settings.py`, or the modules of a `settings/` package, in
//!   the nearest folder above the file or a folder beside it); modules
//!   that bind the name to different values (`dev.py`, `prod.py`) leave
//!   it unknown.
//! - Go: a package-level constant or variable of another file of the
//!   file's folder (the package), and a field's struct tag default
//!   (`default:"3"`, `envDefault:"3"`) in the module (the files under the
//!   nearest `go.mod`), by the field's name; the version of a module
//!   that `go.mod` requires (`v5.0.3` as `5_000_003`); whether a
//!   function of a package of the module does only local work (1 when
//!   it does), found in the package's folder.
//! - Dramatiq: the options of the `Retries(..)` middleware a module of the
//!   project gives the broker, for an actor that does not set them.
//! - C#: `Constants.MaxRetries`, a number constant (`const int`, `static
//!   readonly double`) of a type of another `.cs` file of the scan, kept
//!   or not (each file's `CsharpSource` records them when it is read: no
//!   file is read again for them); types of one name that give it two
//!   values leave it unknown.
//!
//! A name given two different values stays unknown. Each file is read
//! again at most once; the files looked at are bounded per name.

use super::Disk;
use super::go_dials::{module_of, package_dir};
use crate::extract::values::{Given, with_given};
use crate::model::values::ValueWant;
use crate::model::{BrokerSettingKind, GoFieldKind, RetryPolicy, ScannedFile, SettingPlace};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The largest module or package file read for a value.
const MAX_READ: u64 = 512 * 1024;
/// Entries of one folder looked at.
const MAX_ENTRIES: usize = 400;
/// Folders walked up from a file.
const MAX_UP: usize = 8;

/// The values given to one file's names, and where each is written.
type GivenHere = HashMap<String, (Given, SettingPlace)>;

/// Texts of the files looked at, and what was read of them.
struct Looked<'f> {
    /// Scanned files: their text and shown path.
    scanned: HashMap<PathBuf, (&'f str, String)>,
    disk: Disk<'f>,
    python: HashMap<PathBuf, Vec<(String, f64, usize)>>,
    cwd: Option<&'f Path>,
}

impl Looked<'_> {
    fn text(&self, path: &Path) -> Option<String> {
        match self.scanned.get(path) {
            Some((t, _)) => Some((*t).to_string()),
            None => self.disk.read(path, MAX_READ),
        }
    }

    /// A file's path as messages show it (from the working folder).
    fn place(&self, path: &Path, line: usize) -> SettingPlace {
        if let Some((_, shown)) = self.scanned.get(path) {
            return SettingPlace {
                path: shown.clone(),
                line,
            };
        }
        let shown = self
            .cwd
            .and_then(|c| path.strip_prefix(c).ok())
            .unwrap_or(path);
        SettingPlace {
            path: shown.to_string_lossy().replace('\\', "/"),
            line,
        }
    }

    /// The top-level numbers of a Python module file.
    fn python(&mut self, path: &Path) -> &[(String, f64, usize)] {
        if !self.python.contains_key(path) {
            let defs = self
                .text(path)
                .map(|t| crate::systems::python::extract::module_numbers(&t))
                .unwrap_or_default();
            self.python.insert(path.to_path_buf(), defs);
        }
        &self.python[path]
    }

    /// The one value files `paths` bind `name` to (none when two
    /// differ), and where the first says it.
    fn python_name(&mut self, paths: &[PathBuf], name: &str) -> Option<(Given, SettingPlace)> {
        let mut found: Option<(f64, &Path, usize)> = None;
        for p in paths {
            let defs = self.python(p).to_vec();
            for (n, v, line) in defs {
                if n == name {
                    match found {
                        Some((f, ..)) if f != v => return None,
                        Some(_) => {}
                        None => found = Some((v, p, line)),
                    }
                }
            }
        }
        found.map(|(v, p, line)| ((v, false), self.place(p, line)))
    }
}

pub fn values(files: &mut [ScannedFile], cwd: Option<&Path>, disk: Disk<'_>) {
    if files.iter().all(|f| f.facts.value_wants.is_empty()) {
        return;
    }
    let abs = |p: &Path| -> PathBuf {
        crate::source::fold_dots(&match cwd {
            Some(c) if p.is_relative() => c.join(p),
            _ => p.to_path_buf(),
        })
    };
    let mut todo: Vec<(usize, GivenHere)> = Vec::new();
    {
        let mut looked = Looked {
            scanned: files
                .iter()
                .map(|f| {
                    let shown = f.source.display_path();
                    (abs(&f.source.path), (f.source.text.as_str(), shown))
                })
                .collect(),
            disk,
            python: HashMap::new(),
            cwd,
        };
        let mut modules: HashMap<PathBuf, Option<(PathBuf, String)>> = HashMap::new();
        let mut defaults: Option<HashMap<(PathBuf, String), TagDefaults>> = None;
        let mut dramatiq: Option<HashMap<String, Vec<(f64, SettingPlace)>>> = None;
        let mut csharp: Option<CsharpNumbers> = None;
        for (i, f) in files.iter().enumerate() {
            if f.facts.value_wants.is_empty() {
                continue;
            }
            let here = abs(&f.source.path);
            let Some(dir) = here.parent() else { continue };
            let mut given: GivenHere = HashMap::new();
            let package: Vec<&str> = f
                .facts
                .value_wants
                .iter()
                .filter_map(|w| match w {
                    ValueWant::GoPackage { name, .. } => Some(name.as_str()),
                    _ => None,
                })
                .collect();
            if !package.is_empty() {
                for (name, v) in go_package(dir, &here, &package, &looked) {
                    given.insert(name, v);
                }
            }
            for w in &f.facts.value_wants {
                if let ValueWant::GoConfigFunc { name, .. } = w {
                    given.extend(go_config_func(dir, &here, name, &looked));
                }
            }
            for w in &f.facts.value_wants {
                let v = match w {
                    ValueWant::PyModule { module, name, .. } => {
                        let paths = python_module(dir, module, disk);
                        looked.python_name(&paths, name)
                    }
                    ValueWant::Django { name, .. } => {
                        let paths = django_settings(dir, disk);
                        looked.python_name(&paths, name)
                    }
                    ValueWant::GoPackage { .. } | ValueWant::GoConfigFunc { .. } => continue,
                    ValueWant::DramatiqBroker { option, .. } => {
                        let all = dramatiq.get_or_insert_with(|| dramatiq_options(files));
                        match all.get(option).map(Vec::as_slice) {
                            Some([(v, place), rest @ ..]) if rest.iter().all(|(w, _)| w == v) => {
                                Some(((*v, false), place.clone()))
                            }
                            _ => None,
                        }
                    }
                    ValueWant::CsharpConstant { class, name, .. } => {
                        let all =
                            csharp.get_or_insert_with(|| csharp_numbers(files, &abs, &looked));
                        match all.get(&(class.clone(), name.clone())).map(Vec::as_slice) {
                            Some([(v, place), rest @ ..]) if rest.iter().all(|(w, _)| w == v) => {
                                Some((*v, place.clone()))
                            }
                            _ => None,
                        }
                    }
                    ValueWant::GoLocalFunc { import, name, .. } => {
                        let Some((root, module)) = module_of(dir, &mut modules, disk) else {
                            continue;
                        };
                        package_dir(&root, &module, import)
                            .and_then(|d| local_func(&d, name, &looked))
                            .map(|place| ((1.0, false), place))
                    }
                    ValueWant::GoModule { module, .. } => {
                        let Some((root, _)) = module_of(dir, &mut modules, disk) else {
                            continue;
                        };
                        let go_mod = root.join("go.mod");
                        looked
                            .text(&go_mod)
                            .and_then(|t| required_version(&t, module))
                            .map(|(v, line)| ((v, false), looked.place(&go_mod, line)))
                    }
                    ValueWant::GoField { field, .. } => {
                        let Some((root, _)) = module_of(dir, &mut modules, disk) else {
                            continue;
                        };
                        let all = defaults
                            .get_or_insert_with(|| tag_defaults(files, &abs, &mut modules, disk));
                        match all.get(&(root, field.clone())).map(Vec::as_slice) {
                            Some([(value, path, line)]) => {
                                go_default(value).map(|v| (v, looked.place(path, *line)))
                            }
                            _ => None,
                        }
                    }
                };
                if let Some(v) = v {
                    given.insert(w.key().to_string(), v);
                }
            }
            if !given.is_empty() {
                todo.push((i, given));
            }
        }
    }
    for (i, given) in todo {
        let Some(syntax) = files[i].syntax else {
            continue;
        };
        let f = &files[i];
        let values = given.iter().map(|(k, (v, _))| (k.clone(), *v)).collect();
        let mut facts = with_given(values, || {
            crate::systems::extract(&f.source.path, &f.source.text, syntax)
        });
        for p in &mut facts.policies {
            name_places(p, &f.source.text, &given);
        }
        files[i].facts = facts;
    }
}

/// The number constants of the scan's C# types, by type and name: each
/// value a declaration gives, with its place (two types of one name in
/// two namespaces may both declare it: then they must agree).
/// Each constant's values: a number, or a `TimeSpan` in seconds (`true`).
type CsharpNumbers = HashMap<(String, String), Vec<(Given, SettingPlace)>>;

/// [`CsharpNumbers`] of the kept C# files' facts and of the C# facts the
/// scan keeps of every other `.cs` file (no file read).
fn csharp_numbers(
    files: &[ScannedFile],
    abs: &dyn Fn(&Path) -> PathBuf,
    looked: &Looked<'_>,
) -> CsharpNumbers {
    let mut out: CsharpNumbers = HashMap::new();
    let kept = files
        .iter()
        .filter_map(|f| Some((abs(&f.source.path), f.facts.csharp.as_ref()?)));
    let unkept = looked
        .disk
        .csharp_sources()
        .map(|(p, s)| (p.to_path_buf(), s));
    for (path, source) in kept.chain(unkept) {
        for n in &source.numbers {
            let place = looked.place(&path, n.line);
            let at = out.entry((n.class.clone(), n.name.clone())).or_default();
            if at.len() < MAX_ENTRIES {
                at.push(((n.value, n.secs), place));
            }
        }
    }
    out
}

/// The places of the values a policy's written settings read, for its
/// messages (`RetryPolicy::settings_from`): a name given a value that the
/// text of its attempts, delay or timeouts holds as a word.
fn name_places(p: &mut RetryPolicy, text: &str, given: &GivenHere) {
    let mut spans = vec![(p.attempts.span, p.attempts.is_written())];
    spans.push((p.delay.span, p.delay.is_written()));
    spans.extend(p.per_try_timeout.iter().map(|t| (t.span, t.is_written())));
    spans.extend(p.overall_timeout.iter().map(|t| (t.span, t.is_written())));
    let mut said: Vec<&str> = spans
        .into_iter()
        .filter(|(_, written)| *written)
        .filter_map(|(s, _)| text.get(s.start..s.end))
        .collect();
    // A setting that names a binding of the file (`retry_kwargs =
    // {"max_retries": max_retries}` under the class attribute
    // `max_retries = int(getenv("LIMIT", DEFAULT_RETRY_LIMIT))`): the
    // binding's line says what it reads too.
    let bound: Vec<&str> = said
        .iter()
        .flat_map(|t| words(t))
        .filter_map(|w| binding_line(text, w))
        .take(64)
        .collect();
    said.extend(bound);
    let mut keys: Vec<&String> = given.keys().collect();
    keys.sort();
    for k in keys {
        let place = &given[k].1;
        // A field a function builds (`newConfig().Producer.Retry.Max`):
        // said where the function is called.
        let word = k.split_once("().").map_or(k.as_str(), |(f, _)| f);
        if said.iter().any(|t| holds_word(t, word)) && !p.settings_from.contains(place) {
            p.settings_from.push(place.clone());
        }
    }
}

/// The names of `text` (runs of letters, digits and `_` not starting
/// with a digit).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
}

/// The line of `text` that binds `name` (`name = ..` or `name: T = ..`
/// at the start of a line, after its indentation), the first one.
fn binding_line<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    text.lines().take(100_000).find(|l| {
        l.trim_start().strip_prefix(name).is_some_and(|rest| {
            let rest = rest.trim_start();
            (rest.starts_with('=') && !rest.starts_with("=="))
                || (rest.starts_with(':') && rest.contains('='))
        })
    })
}

/// Whether `text` holds `word` not inside a longer name.
fn holds_word(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word)
        .any(|(at, _)| !text[..at].ends_with(part) && !text[at + word.len()..].starts_with(part))
}

/// The files a Python import's module may be (`.config` from the
/// importing file's package, `app.config` from a folder above it).
fn python_module(dir: &Path, module: &str, disk: Disk<'_>) -> Vec<PathBuf> {
    let dots = module.chars().take_while(|c| *c == '.').count();
    let rest: Vec<&str> = module[dots..]
        .split('.')
        .filter(|p| !p.is_empty())
        .collect();
    let files_at = |base: &Path| -> Option<PathBuf> {
        let mut p = base.to_path_buf();
        for part in &rest {
            p.push(part);
        }
        let file = p.with_extension("py");
        if !rest.is_empty() && disk.is_file(&file) {
            return Some(file);
        }
        let init = p.join("__init__.py");
        disk.is_file(&init).then_some(init)
    };
    if dots > 0 {
        let mut base = Some(dir);
        for _ in 1..dots {
            base = base.and_then(Path::parent);
        }
        return base.and_then(files_at).into_iter().collect();
    }
    if rest.is_empty() {
        return Vec::new();
    }
    std::iter::successors(Some(dir), |d| d.parent())
        .take(MAX_UP)
        .find_map(files_at)
        .into_iter()
        .collect()
}

/// The Django settings modules nearest to `dir`: in the nearest folder
/// above it (itself first) that holds `settings.py` or a `settings/`
/// package, or has a folder that does.
fn django_settings(dir: &Path, disk: Disk<'_>) -> Vec<PathBuf> {
    let in_folder = |d: &Path| -> Vec<PathBuf> {
        let mut out = Vec::new();
        let file = d.join("settings.py");
        if disk.is_file(&file) {
            out.push(file);
        }
        let pkg = d.join("settings");
        if disk.is_dir(&pkg) {
            for n in disk.list(&pkg, MAX_ENTRIES).unwrap_or_default() {
                if n.ends_with(".py") && !n.starts_with("test") {
                    out.push(pkg.join(n));
                }
            }
        }
        out
    };
    for d in std::iter::successors(Some(dir), |d| d.parent()).take(MAX_UP) {
        let mut found = in_folder(d);
        if found.is_empty() {
            for n in disk.list(d, MAX_ENTRIES).unwrap_or_default() {
                let sub = d.join(&n);
                if !n.starts_with('.') && disk.is_dir(&sub) {
                    found.extend(in_folder(&sub));
                }
            }
        }
        if !found.is_empty() {
            found.sort();
            return chosen_settings(d, found, disk);
        }
    }
    Vec::new()
}

/// Of several settings modules, the one the project runs with: the
/// `DJANGO_SETTINGS_MODULE` its entry points set
/// (`os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings.prod")`
/// in `manage.py`, `wsgi.py`, `asgi.py` or `celery.py`, in the folder
/// the settings were found in, a folder of it, or the one above). All of
/// them when the entry points name none, name different ones, or name a
/// module that is not among them (a package's `__init__.py` that
/// imports the others).
fn chosen_settings(d: &Path, found: Vec<PathBuf>, disk: Disk<'_>) -> Vec<PathBuf> {
    if found.len() < 2 {
        return found;
    }
    let mut folders: Vec<PathBuf> = vec![d.to_path_buf()];
    folders.extend(d.parent().map(Path::to_path_buf));
    for n in disk.list(d, MAX_ENTRIES).unwrap_or_default() {
        let sub = d.join(&n);
        if !n.starts_with('.') && disk.is_dir(&sub) {
            folders.push(sub);
        }
    }
    let mut named: Vec<String> = Vec::new();
    for f in folders.iter().take(MAX_ENTRIES) {
        for entry in ["manage.py", "wsgi.py", "asgi.py", "celery.py"] {
            let Some(text) = disk.read(&f.join(entry), MAX_READ) else {
                continue;
            };
            for m in settings_modules_named(&text) {
                if !named.contains(&m) {
                    named.push(m);
                }
            }
        }
    }
    let [module] = named.as_slice() else {
        return found;
    };
    let parts: Vec<&str> = module.split('.').collect();
    let as_file = format!("{}.py", parts.join("/"));
    let chosen: Vec<PathBuf> = found
        .iter()
        .filter(|p| {
            let shown = p.to_string_lossy().replace('\\', "/");
            shown.ends_with(&format!("/{as_file}"))
        })
        .cloned()
        .collect();
    if chosen.len() == 1 { chosen } else { found }
}

/// The modules a Python entry point sets `DJANGO_SETTINGS_MODULE` to
/// (`setdefault("DJANGO_SETTINGS_MODULE", "a.b")`, `environ["..."] =
/// "a.b"`), in order.
fn settings_modules_named(text: &str) -> Vec<String> {
    let key = "DJANGO_SETTINGS_MODULE";
    let mut out = Vec::new();
    for (at, _) in text.match_indices(key).take(16) {
        let rest = &text[at + key.len()..];
        // The key's closing quote, then `,` or `] =`, then the value.
        let rest = rest.trim_start_matches(['"', '\'']).trim_start();
        let rest = rest
            .strip_prefix(',')
            .or_else(|| {
                rest.strip_prefix(']')
                    .map(|r| r.trim_start().trim_start_matches('='))
            })
            .map(str::trim_start);
        let Some(rest) = rest else { continue };
        let Some(q) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let value: String = rest[1..].chars().take_while(|c| *c != q).collect();
        if !value.is_empty()
            && value.len() < 200
            && value
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
        {
            out.push(value);
        }
    }
    out
}

/// The other files of a Go package (the folder's `.go` files but tests
/// and `here`), in name order, with their text.
fn package_files<'l>(
    dir: &'l Path,
    here: &'l Path,
    looked: &'l Looked<'_>,
) -> impl Iterator<Item = (PathBuf, String)> + 'l {
    let mut names = looked.disk.list(dir, MAX_ENTRIES).unwrap_or_default();
    names.sort();
    names.into_iter().filter_map(move |n| {
        if !n.ends_with(".go") || n.ends_with("_test.go") {
            return None;
        }
        let path = dir.join(&n);
        if path == here {
            return None;
        }
        let text = looked.text(&path)?;
        Some((path, text))
    })
}

/// The values other files of the package (the folder's `.go` files but
/// tests) declare at their top level for `names`: a name two files
/// give different values is left out.
fn go_package(
    dir: &Path,
    here: &Path,
    names: &[&str],
    looked: &Looked<'_>,
) -> Vec<(String, (Given, SettingPlace))> {
    let mut found: HashMap<String, Option<(Given, SettingPlace)>> = HashMap::new();
    for (path, text) in package_files(dir, here, looked) {
        let wanted: Vec<&str> = names.iter().copied().filter(|w| text.contains(w)).collect();
        if wanted.is_empty() {
            continue;
        }
        for (name, v, line) in crate::systems::go::extract::eval::package_numbers(&text, &wanted) {
            let e = found
                .entry(name)
                .or_insert_with(|| Some((v, looked.place(&path, line))));
            if e.as_ref().is_some_and(|(w, _)| *w != v) {
                *e = None;
            }
        }
    }
    found
        .into_iter()
        .filter_map(|(n, v)| v.map(|v| (n, v)))
        .collect()
}

/// The sarama config fields function (or method) `name` of another file of the
/// package (`dir`) sets, each under `name().Field`: the first file that
/// declares the function.
fn go_config_func(
    dir: &Path,
    here: &Path,
    name: &str,
    looked: &Looked<'_>,
) -> Vec<(String, (Given, SettingPlace))> {
    let head = format!("func {name}(");
    let method = format!(") {name}(");
    for (path, text) in package_files(dir, here, looked) {
        if !text.contains(&head) && !text.contains(&method) {
            continue;
        }
        return crate::systems::go::extract::config_function_fields(&text, name)
            .into_iter()
            .map(|(field, v, line)| (format!("{name}().{field}"), (v, looked.place(&path, line))))
            .collect();
    }
    Vec::new()
}

/// The defaults a module's struct tags give a field: (value, file, line).
type TagDefaults = Vec<(String, PathBuf, usize)>;

/// (module root, field) -> the defaults the module's struct tags give it.
fn tag_defaults(
    files: &[ScannedFile],
    abs: &dyn Fn(&Path) -> PathBuf,
    modules: &mut HashMap<PathBuf, Option<(PathBuf, String)>>,
    disk: Disk<'_>,
) -> HashMap<(PathBuf, String), TagDefaults> {
    let mut out: HashMap<(PathBuf, String), TagDefaults> = HashMap::new();
    for f in files {
        if !f
            .facts
            .go_fields
            .iter()
            .any(|g| matches!(g.kind, GoFieldKind::Default { .. }))
        {
            continue;
        }
        let path = abs(&f.source.path);
        let Some((root, _)) = path.parent().and_then(|d| module_of(d, modules, disk)) else {
            continue;
        };
        for g in &f.facts.go_fields {
            if let GoFieldKind::Default { value, line } = &g.kind {
                let v = out.entry((root.clone(), g.field.clone())).or_default();
                if !v.iter().any(|(w, ..)| w == value) {
                    v.push((value.clone(), path.clone(), *line));
                }
            }
        }
    }
    out
}

/// A tag's default as a number: an integer or float, or a Go duration
/// (`"1m30s"`, `"500ms"`, as `time.ParseDuration` reads it, which both
/// envconfig and caarlos0/env use for a `time.Duration` field).
fn go_default(v: &str) -> Option<Given> {
    let v = v.trim();
    if let Ok(n) = v.parse::<f64>() {
        return n.is_finite().then_some((n, false));
    }
    let mut rest = v;
    let mut total = 0.0;
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter(|e| *e > 0)?;
        let n: f64 = rest[..end].parse().ok()?;
        rest = &rest[end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let ns = match &rest[..unit_end] {
            "ns" => 1.0,
            "us" | "µs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        total += n * ns;
        rest = &rest[unit_end..];
    }
    Some((total, true))
}

#[cfg(test)]
mod tests {
    use super::{go_default, holds_word};

    #[test]
    fn tag_defaults_as_numbers() {
        assert_eq!(go_default("4"), Some((4.0, false)));
        assert_eq!(go_default("1m30s"), Some((90e9, true)));
        assert_eq!(go_default("1.5s"), Some((1.5e9, true)));
        assert_eq!(go_default("http://x"), None);
        assert_eq!(go_default("5 s"), None);
    }

    #[test]
    fn a_name_is_found_as_a_word() {
        assert!(holds_word("stop_after_attempt(ATTEMPTS)", "ATTEMPTS"));
        assert!(!holds_word("stop_after_attempt(MAX_ATTEMPTS)", "ATTEMPTS"));
        assert!(holds_word("RetryMax = cfg.RetryMax", "cfg.RetryMax"));
    }
}

/// The options the scanned Python modules give Dramatiq's `Retries`
/// middleware (their `broker_settings`), each with its value and place,
/// by option.
fn dramatiq_options(files: &[ScannedFile]) -> HashMap<String, Vec<(f64, SettingPlace)>> {
    let mut out: HashMap<String, Vec<(f64, SettingPlace)>> = HashMap::new();
    for f in files {
        for b in &f.facts.broker_settings {
            if let (true, BrokerSettingKind::RetryOption { option, value }) =
                (b.system == "dramatiq", &b.kind)
            {
                let place = SettingPlace {
                    path: f.source.display_path(),
                    line: f.source.line_col(b.span.start).line,
                };
                out.entry(option.clone()).or_default().push((*value, place));
            }
        }
    }
    out
}

/// Where function `name` of the package in folder `dir` is declared, when
/// it does only local work (`crate::systems::go::extract::local_function`).
fn local_func(dir: &Path, name: &str, looked: &Looked<'_>) -> Option<SettingPlace> {
    let head = format!("func {name}(");
    let mut names = looked.disk.list(dir, MAX_ENTRIES)?;
    names.sort();
    for n in names {
        if !n.ends_with(".go") || n.ends_with("_test.go") {
            continue;
        }
        let path = dir.join(&n);
        let Some(text) = looked.text(&path) else {
            continue;
        };
        let Some(at) = text
            .match_indices(&head)
            .find(|(i, _)| *i == 0 || text.as_bytes()[i - 1] == b'\n')
            .map(|(i, _)| i)
        else {
            continue;
        };
        let line = text[..at].lines().count() + 1;
        return crate::systems::go::extract::local_function(&text, name)
            .then(|| looked.place(&path, line));
    }
    None
}

/// The release `module` is required at in a `go.mod` (`require m v1.2.3`
/// or a line of a `require ( .. )` block), as `major x 1e6 + minor x 1e3
/// + patch`, and its line; none for a pre-release or pseudo-version, or
/// when a `replace` names the module (another version or a fork).
fn required_version(go_mod: &str, module: &str) -> Option<(f64, usize)> {
    let mut found = None;
    let mut in_require = false;
    for (i, line) in go_mod.lines().take(20_000).enumerate() {
        let l = line.split("//").next().unwrap_or("").trim();
        if l.starts_with("replace") && l.contains(module) {
            return None;
        }
        let rest = if let Some(r) = l.strip_prefix("require") {
            let r = r.trim();
            if r.starts_with('(') {
                in_require = true;
                continue;
            }
            r
        } else if in_require {
            if l.starts_with(')') {
                in_require = false;
                continue;
            }
            l
        } else {
            continue;
        };
        let mut words = rest.split_whitespace();
        if words.next() == Some(module) {
            found = words.next().and_then(release).map(|v| (v, i + 1));
        }
    }
    found
}

/// `v5.0.3` as `5_000_003.0`; none for anything else (`v5.0.3-rc.1`, a
/// pseudo-version, `+incompatible`).
fn release(v: &str) -> Option<f64> {
    let mut parts = v.strip_prefix('v')?.split('.');
    let mut n = 0.0;
    for _ in 0..3 {
        let p: u32 = parts.next()?.parse().ok().filter(|x| *x < 1000)?;
        n = n * 1000.0 + f64::from(p);
    }
    parts.next().is_none().then_some(n)
}

#[cfg(test)]
mod module_version_tests {
    use super::required_version;

    #[test]
    fn required_versions() {
        let m = "github.com/cenkalti/backoff/v5";
        let block = "module x\n\nrequire (\n\tgithub.com/a/b v1.0.0\n\tgithub.com/cenkalti/backoff/v5 v5.0.3 // indirect\n)\n";
        assert_eq!(required_version(block, m), Some((5_000_003.0, 5)));
        let one = "module x\nrequire github.com/cenkalti/backoff/v5 v5.0.0\n";
        assert_eq!(required_version(one, m), Some((5_000_000.0, 2)));
        let pseudo = "module x\nrequire github.com/cenkalti/backoff/v5 v5.0.3-0.20250101-abcdef\n";
        assert_eq!(required_version(pseudo, m), None);
        let replaced = format!("{one}replace github.com/cenkalti/backoff/v5 => ../backoff\n");
        assert_eq!(required_version(&replaced, m), None);
        assert_eq!(required_version("module x\n", m), None);
    }
}
