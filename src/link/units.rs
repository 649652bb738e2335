//! Which program a file belongs to, from what builds it (issue 17, item 2):
//! the nearest build unit above the file, inside the scan root: a Maven
//! module (`pom.xml` artifactId), a Cargo package that builds a binary, a
//! Go module, a `*.csproj` (before a `package.json` beside it), a
//! `package.json`, a Python project that is a program
//! (`pyproject.toml`, `setup.cfg`, `setup.py` with a Dockerfile or a
//! command), a Gradle project or a folder with a Dockerfile
//! (by the folder's name). A library crate is no
//! service; a generic folder name (`src`, `impl`, `service`, `api` ...)
//! and the scan root's own folder name never name one.
//!
//! Where no build unit is found, a folder may still say it: the child of a
//! `services/`-like folder, or the nearest folder named like a service
//! other files declare (`gateway/nginx.conf` beside a `gateway`
//! Deployment).

use super::*;
use crate::model::calls::IdentityKind;
use std::collections::{BTreeSet, HashMap};

/// How a unit named only by its folder's Dockerfile is known.
const DOCKERFILE_FOLDER: &str = "folder with a Dockerfile";
/// The largest build manifest read for a name.
const MAX_MANIFEST: u64 = 1 << 20;
/// At most this many entries of one folder are looked at for a `*.csproj`.
const MAX_DIR_ENTRIES: usize = 512;

/// Folder names that never name a service: layout, language and layer
/// words.
pub const GENERIC_FOLDERS: &[&str] = &[
    "service",
    "services",
    "svc",
    "impl",
    "src",
    "main",
    "java",
    "kotlin",
    "scala",
    "resources",
    "app",
    "apps",
    "cmd",
    "pkg",
    "internal",
    "api",
    "apis",
    "core",
    "common",
    "commons",
    "shared",
    "lib",
    "libs",
    "server",
    "client",
    "config",
    "configs",
    "deploy",
    "deployment",
    "deployments",
    "k8s",
    "kubernetes",
    "manifests",
    "kustomize",
    "base",
    "overlays",
    "components",
    "charts",
    "helm",
    "templates",
    "docker",
    "microservices",
    "modules",
    "packages",
    "handler",
    "handlers",
    "controller",
    "controllers",
    "domain",
    "model",
    "models",
    "repository",
    "util",
    "utils",
    "web-inf",
    "test",
    "tests",
    "it",
    "bin",
    "scripts",
    "tools",
    "build",
    "target",
    "dist",
    "out",
    "v1",
    "v2",
    "v3",
];

/// Folders whose children are services.
const SERVICE_DIRS: &[&str] = &["services", "service", "apps", "svc", "microservices", "cmd"];

pub fn is_generic(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.is_empty() || n.starts_with('.') || GENERIC_FOLDERS.contains(&n.as_str())
}

/// What a folder's build files say.
#[derive(Clone, Debug)]
enum Unit {
    /// A program: its name and how it is known.
    Program(String, &'static str),
    /// A library (a Cargo package with no binary): no service, and no
    /// folder above names one either.
    Library,
    /// No build file here.
    Nothing,
}

/// Give every file the service identity of its build unit, or of a folder
/// that says it (see the module doc).
pub fn unit_identities(
    files: &mut [ScannedFile],
    roots: &[PathBuf],
    cwd: Option<&Path>,
    disk: super::Disk<'_>,
) {
    let declared: BTreeSet<String> = files
        .iter()
        .flat_map(|f| f.facts.services.iter())
        .filter(|s| s.kind != IdentityKind::Upstream)
        .flat_map(|s| std::iter::once(s.name.clone()).chain(s.hosts.iter().cloned()))
        .map(|n| crate::model::calls::short_host(&n))
        .collect();
    let mut units: HashMap<PathBuf, Unit> = HashMap::new();
    let mut by_folder: HashMap<(PathBuf, Vec<String>), Option<ServiceDecl>> = HashMap::new();
    let roots: Vec<PathBuf> = super::joined_roots(roots, cwd);
    for f in files.iter_mut() {
        if f.facts.is_empty() {
            continue;
        }
        // A path shown relative to the working directory is read from
        // there (the library never uses the process's own directory).
        let path = match cwd {
            Some(c) if f.source.path.is_relative() => c.join(&f.source.path),
            _ => f.source.path.clone(),
        };
        let Some((root, rel)) = under_root(&path, &roots) else {
            continue;
        };
        // One answer per folder: it depends on the folder alone.
        let decl = by_folder
            .entry((root, rel))
            .or_insert_with_key(|(root, rel)| identity(root, rel, &declared, &mut units, disk))
            .clone();
        let Some(decl) = decl else {
            continue;
        };
        // A server's own configuration file is not the program's whose
        // source tree holds it (`link::mounts`).
        if super::mounts::source_unit(&decl) && super::mounts::own_process_file(f) {
            continue;
        }
        f.facts.services.push(decl);
    }
    compose_builds(files, &roots, cwd, &mut units, disk);
    super::mounts::compose_mounts(files, cwd);
}

/// A compose service built from a local context (`build: ..`) is the
/// program its build manifest names there (issue 17): `catalogservice`
/// with `build: ..` beside `catalog-service/pom.xml` is `catalog-service`,
/// its compose name an alias (the host other compose services call it by;
/// the graph joins them: `Placement::unit`).
/// Only a unit a build manifest names (a folder named only by its
/// Dockerfile says nothing the compose name does not), and not where two
/// services of one file build the same context (two roles of one image).
fn compose_builds(
    files: &mut [ScannedFile],
    roots: &[PathBuf],
    cwd: Option<&Path>,
    units: &mut HashMap<PathBuf, Unit>,
    disk: super::Disk<'_>,
) {
    for f in files.iter_mut() {
        // A context with the Dockerfile's folder: one context builds
        // several programs when each has its own Dockerfile.
        let build_of = |s: &crate::model::ServiceDecl| {
            s.placement.build.as_deref().map(|c| {
                format!(
                    "{c}\t{}",
                    s.placement.dockerfile_dir.as_deref().unwrap_or_default()
                )
            })
        };
        let contexts: Vec<String> = f
            .facts
            .services
            .iter()
            .filter(|s| s.kind == IdentityKind::Compose)
            .filter_map(build_of)
            .collect();
        if contexts.is_empty() {
            continue;
        }
        let shared: BTreeSet<String> = contexts
            .iter()
            .filter(|c| contexts.iter().filter(|d| d == c).count() > 1)
            .cloned()
            .collect();
        // A context several services build (each with its own Dockerfile)
        // is no one service's program: only their Dockerfiles' folders say.
        let ctxs: Vec<&str> = contexts
            .iter()
            .map(|c| c.split('\t').next().unwrap_or(c))
            .collect();
        let shared_ctx: BTreeSet<String> = ctxs
            .iter()
            .filter(|c| ctxs.iter().filter(|d| d == c).count() > 1)
            .map(|c| c.to_string())
            .collect();
        let path = match cwd {
            Some(c) if f.source.path.is_relative() => c.join(&f.source.path),
            _ => f.source.path.clone(),
        };
        let Some(dir) = path.parent() else { continue };
        for s in f.facts.services.iter_mut() {
            if s.kind != IdentityKind::Compose {
                continue;
            }
            let Some(ctx) = s.placement.build.as_deref() else {
                continue;
            };
            if build_of(s).is_some_and(|b| shared.contains(&b)) {
                continue;
            }
            let Some(at) = normalise(&dir.join(ctx)) else {
                continue;
            };
            // The Dockerfile's folder first (a .NET solution built from
            // its root, each project's Dockerfile beside its `*.csproj`),
            // then the context's own.
            let folders = s
                .placement
                .dockerfile_dir
                .as_deref()
                .and_then(|d| normalise(&at.join(d)))
                .into_iter()
                .chain((!shared_ctx.contains(ctx)).then_some(at));
            for at in folders {
                // Below a scan root only.
                let Some((root, rel)) = under_root(&at.join("Dockerfile"), roots) else {
                    continue;
                };
                let here: PathBuf = std::iter::once(root)
                    .chain(rel.iter().map(PathBuf::from))
                    .collect();
                let unit = units
                    .entry(here.clone())
                    .or_insert_with(|| read_unit(&here, rel.last().map(String::as_str), disk))
                    .clone();
                // A Dapr run file's `appDirPath` is the program's folder
                // whatever names it there, a Dockerfile alone included; its
                // app id is the name the sidecar, the callers
                // (`dapr-app-id`) and a `Resiliency`'s `scopes` know it by,
                // so the program's own name is the app's alias, not the
                // other way round.
                let dapr = crate::systems::dapr::run::is_run_app(s);
                match unit {
                    Unit::Program(name, how) if how != DOCKERFILE_FOLDER || dapr => {
                        if name != s.name && dapr {
                            s.hosts.push(crate::model::calls::short_host(&name));
                        } else if name != s.name {
                            s.placement.unit = Some(name);
                        }
                        break;
                    }
                    _ => continue,
                }
            }
        }
    }
}

/// A path with its `.` and `..` parts resolved lexically; `None` where
/// `..` climbs above its start.
pub(super) fn normalise(p: &Path) -> Option<PathBuf> {
    let mut out: Vec<std::path::Component<'_>> = Vec::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => match out.last() {
                Some(std::path::Component::Normal(_)) => {
                    out.pop();
                }
                _ => return None,
            },
            other => out.push(other),
        }
    }
    Some(out.iter().collect())
}

/// The root a file is under and its folders below that root (the file's
/// own name left out).
fn under_root(path: &Path, roots: &[PathBuf]) -> Option<(PathBuf, Vec<String>)> {
    let clean = |p: &Path| -> PathBuf {
        p.components()
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .collect()
    };
    let path = clean(path);
    let mut best: Option<(PathBuf, Vec<String>)> = None;
    for r in roots {
        let r = clean(r);
        // A file given as the root: its folder is the root.
        let r = if r == path {
            path.parent().map(Path::to_path_buf).unwrap_or_default()
        } else {
            r
        };
        // Paths and roots alike are joined to the run's working directory
        // first (`unit_identities`), so one is a prefix of the other.
        let rel = path.strip_prefix(&r).ok().map(Path::to_path_buf);
        if let Some(rel) = rel {
            let parts: Vec<String> = rel
                .parent()
                .map(|p| {
                    p.components()
                        .map(|c| c.as_os_str().to_string_lossy().to_string())
                        .collect()
                })
                .unwrap_or_default();
            if parts.iter().any(|p| p == "..") {
                continue;
            }
            if best.as_ref().is_none_or(|(_, b)| parts.len() < b.len()) {
                best = Some((r, parts));
            }
        }
    }
    best
}

fn identity(
    root: &Path,
    rel: &[String],
    declared: &BTreeSet<String>,
    units: &mut HashMap<PathBuf, Unit>,
    disk: super::Disk<'_>,
) -> Option<ServiceDecl> {
    // The nearest build unit, from the file's folder up to the root.
    for depth in (0..=rel.len()).rev() {
        let dir: PathBuf = std::iter::once(root.to_path_buf())
            .chain(rel[..depth].iter().map(PathBuf::from))
            .collect();
        let unit = units
            .entry(dir.clone())
            .or_insert_with(|| read_unit(&dir, rel[..depth].last().map(String::as_str), disk))
            .clone();
        match unit {
            Unit::Program(name, how) => {
                return Some(ServiceDecl::new(
                    name,
                    Span::default(),
                    IdentityKind::BuildUnit,
                    how,
                    Vec::new(),
                ));
            }
            Unit::Library => return None,
            Unit::Nothing => {}
        }
    }
    let folder = |name: &str| {
        ServiceDecl::new(
            name,
            Span::default(),
            IdentityKind::BuildUnit,
            "folder",
            Vec::new(),
        )
    };
    // The child of a `services/`-like folder.
    for (i, p) in rel.iter().enumerate() {
        if SERVICE_DIRS.contains(&p.to_ascii_lowercase().as_str())
            && let Some(child) = rel.get(i + 1)
            && !is_generic(child)
        {
            return Some(folder(child));
        }
    }
    // A module folder: the one that holds `src/` (Maven, Gradle, Cargo
    // layouts whose build file was not scanned).
    if let Some(i) = rel.iter().rposition(|p| p == "src")
        && i >= 1
        && !is_generic(&rel[i - 1])
    {
        return Some(folder(&rel[i - 1]));
    }
    // The nearest folder named like a service other files declare.
    for p in rel.iter().rev() {
        if !is_generic(p) && declared.contains(&crate::model::calls::short_host(p)) {
            return Some(folder(p));
        }
    }
    None
}

/// What the build files of `dir` say; `folder` is its name when it is
/// below the root (a folder-named unit is never the root's own name).
fn read_unit(dir: &Path, folder: Option<&str>, disk: super::Disk<'_>) -> Unit {
    // A name of `dir` the walk covers and did not list is absent: it is
    // not looked up (each build file was, one path at a time: 22,600
    // lookups in a one-file run of the generated 10k tree).
    let walked = disk.walked(dir);
    let listed =
        |name: &str| name.contains('/') || walked.is_none_or(|e| e.iter().any(|(n, _)| n == name));
    let read = |name: &str| -> Option<String> {
        listed(name)
            .then(|| disk.read(&dir.join(name), MAX_MANIFEST))
            .flatten()
    };
    let exists = |name: &str| listed(name) && disk.exists(&dir.join(name));
    // Gradle build logic (`buildSrc`, Gradle's fixed name for it, and
    // `build-logic`, the included build its guide names; see
    // docs.gradle.org/current/userguide/sharing_build_logic_between_subprojects.html)
    // runs in the build, never in a service: like a library, it names
    // none and no folder above names it (ftgo-application's buildSrc was a
    // service).
    if folder.is_some_and(crate::extract::test_code::is_build_logic) {
        return Unit::Library;
    }
    let named = |name: String, how: &'static str| {
        if is_generic(&name) {
            Unit::Nothing
        } else {
            Unit::Program(name, how)
        }
    };
    if let Some(text) = read("Cargo.toml") {
        let Ok(table) = text.parse::<toml::Table>() else {
            return Unit::Nothing;
        };
        let Some(name) = table
            .get("package")
            .and_then(|p| p.get("name"))
            .and_then(|n| n.as_str())
        else {
            // A workspace manifest: not a unit.
            return Unit::Nothing;
        };
        // A library crate (a `lib.rs` and no binary target) is linked into
        // programs, and is none.
        let binary = table.contains_key("bin") || exists("src/main.rs") || exists("src/bin");
        let library = table.contains_key("lib") || exists("src/lib.rs");
        return if library && !binary {
            Unit::Library
        } else {
            Unit::Program(name.to_string(), "Cargo package")
        };
    }
    if let Some(text) = read("pom.xml") {
        if let Some(name) = pom_artifact(&text) {
            return named(name, "pom.xml artifactId");
        }
        return Unit::Nothing;
    }
    if let Some(text) = read("go.mod")
        && let Some(module) = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("module "))
            .map(|m| m.trim().trim_matches('"'))
    {
        // `example.com/shop/orders/v2`: the last segment that is not a
        // major version.
        let name = module
            .rsplit('/')
            .find(|s| !(s.starts_with('v') && s[1..].chars().all(|c| c.is_ascii_digit())))
            .unwrap_or(module);
        return named(name.to_string(), "go.mod module");
    }
    // A Go `main` package under `cmd/` (`cmd/orders/main.go`): one of the
    // module's programs, named by its folder as `go build ./cmd/...`
    // names the binary.
    if let Some(folder) = folder
        && dir
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "cmd")
        && go_main_package(dir, disk)
    {
        return named(folder.to_string(), "Go main package under cmd/");
    }
    // A folder whose `cmd/` is itself a Go `main` package
    // (`emojivoto-web/cmd/server.go`, one `go.mod` for the repository's
    // programs at its root: BuoyantIO/emojivoto): that program's folder,
    // named by it, with the packages beside `cmd/` (`emojivoto-web/web`).
    if let Some(folder) = folder
        && exists("cmd")
        && go_main_package(&dir.join("cmd"), disk)
    {
        return named(folder.to_string(), "folder of a Go main package cmd/");
    }
    // A `*.csproj` before a `package.json` beside it: in a .NET web
    // project the `package.json` is the tooling that builds its front-end
    // assets (EdwinVW/pitstop's WebApp: `"name": "asp.net"`, vite).
    if let Some(entries) = disk.list(dir, MAX_DIR_ENTRIES) {
        for n in entries {
            if let Some(stem) = n.strip_suffix(".csproj") {
                return named(crate::systems::csharp::project_name(stem), "*.csproj");
            }
        }
    }
    if let Some(text) = read("package.json")
        && let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
        && let Some(name) = v.get("name").and_then(|n| n.as_str())
    {
        let name = name.rsplit('/').next().unwrap_or(name);
        return named(name.to_string(), "package.json name");
    }
    // A Python project that is a program: one with a Dockerfile beside its
    // manifest, or one that installs a command (`[project.scripts]`,
    // `[tool.poetry.scripts]`, setup.py `entry_points`). A library's
    // manifest says nothing, and the folders above may.
    if let Some((name, program)) = python_project(&read)
        && (program || exists("Dockerfile"))
    {
        return named(name, "Python project name");
    }
    let Some(folder) = folder else {
        return Unit::Nothing;
    };
    if exists("build.gradle") || exists("build.gradle.kts") {
        return named(folder.to_string(), "Gradle project folder");
    }
    if exists("Dockerfile") {
        return named(folder.to_string(), DOCKERFILE_FOLDER);
    }
    Unit::Nothing
}

/// The workloads and compose services that run the image named like each
/// program of the scan (`example/web-app:v1` runs `web-app`), by program,
/// so that the program's code reads their environment: a runner is the
/// program its image names unless it is itself named like another program
/// (emojivoto's `vote-bot` runs the `emojivoto-web` image with the command
/// of its own `cmd/vote-bot`). The graph joins them the same way
/// (`graph::identity`).
pub(super) fn image_runners(files: &[ScannedFile]) -> HashMap<String, Vec<String>> {
    let short = crate::model::calls::short_host;
    let decls = || files.iter().flat_map(|f| f.facts.services.iter());
    let units: BTreeSet<String> = decls()
        .filter(|s| s.kind == IdentityKind::BuildUnit)
        .map(|s| short(&s.name))
        .collect();
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for s in decls().filter(|s| matches!(s.kind, IdentityKind::Workload | IdentityKind::Compose)) {
        let runner = short(&s.name);
        for image in &s.placement.images {
            let image = short(image);
            if units.contains(&image) && (runner == image || !units.contains(&runner)) {
                let v = out.entry(image).or_default();
                if !v.contains(&runner) {
                    v.push(runner.clone());
                }
            }
        }
    }
    out
}

/// Bytes of a `.go` file read for its package clause.
const PACKAGE_CLAUSE_BYTES: usize = 8 << 10;

/// Whether `dir` holds a Go file (not a test) of `package main`.
fn go_main_package(dir: &Path, disk: super::Disk<'_>) -> bool {
    use std::io::Read;
    let Some(entries) = disk.list(dir, MAX_DIR_ENTRIES) else {
        return false;
    };
    entries.into_iter().any(|n| {
        let path = dir.join(&n);
        if !n.ends_with(".go") || n.ends_with("_test.go") || !disk.is_file_followed(&path) {
            return false;
        }
        let mut head = Vec::new();
        let Ok(f) = std::fs::File::open(&path) else {
            return false;
        };
        if f.take(PACKAGE_CLAUSE_BYTES as u64)
            .read_to_end(&mut head)
            .is_err()
        {
            return false;
        }
        String::from_utf8_lossy(&head)
            .lines()
            .any(|l| l.trim() == "package main" || l.trim_start().starts_with("package main "))
    })
}

/// A Python project's name and whether it installs a command: from
/// `pyproject.toml` (`[project] name`, else `[tool.poetry] name`),
/// `setup.cfg` (`[metadata] name`) or a literal `name="..."` in `setup.py`.
fn python_project(read: &dyn Fn(&str) -> Option<String>) -> Option<(String, bool)> {
    if let Some(text) = read("pyproject.toml")
        && let Ok(table) = text.parse::<toml::Table>()
    {
        let poetry = table.get("tool").and_then(|t| t.get("poetry"));
        let project = table.get("project");
        let name = project
            .and_then(|p| p.get("name"))
            .or_else(|| poetry.and_then(|p| p.get("name")))
            .and_then(|n| n.as_str());
        if let Some(name) = name {
            let scripts = project.is_some_and(|p| p.get("scripts").is_some())
                || poetry.is_some_and(|p| p.get("scripts").is_some());
            return Some((name.to_string(), scripts));
        }
    }
    if let Some(text) = read("setup.cfg") {
        let mut in_metadata = false;
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with('[') {
                in_metadata = t == "[metadata]";
            } else if in_metadata
                && let Some((k, v)) = t.split_once('=')
                && k.trim() == "name"
                && !v.trim().is_empty()
            {
                let scripts = text.contains("console_scripts");
                return Some((v.trim().to_string(), scripts));
            }
        }
    }
    let text = read("setup.py")?;
    // `name="orders-api"` / `name='orders-api'`, a literal only.
    let i = text.find("name=")? + "name=".len();
    let rest = text[i..].trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let end = rest[1..].find(quote)?;
    let name = &rest[1..1 + end];
    (!name.is_empty() && !name.contains(['{', '%']))
        .then(|| (name.to_string(), text.contains("console_scripts")))
}

/// A `pom.xml`'s own artifactId (not its parent's), unless it only
/// aggregates modules (`<packaging>pom</packaging>`).
fn pom_artifact(text: &str) -> Option<String> {
    let mut t = text.to_string();
    for block in [
        "parent",
        "dependencies",
        "dependencyManagement",
        "build",
        "profiles",
    ] {
        let (open, close) = (format!("<{block}>"), format!("</{block}>"));
        while let Some(s) = t.find(&open) {
            let Some(e) = t[s..].find(&close) else { break };
            t.replace_range(s..s + e + close.len(), "");
        }
    }
    if t.contains("<packaging>pom</packaging>") {
        return None;
    }
    let s = t.find("<artifactId>")? + "<artifactId>".len();
    let e = t[s..].find("</artifactId>")?;
    let name = t[s..s + e].trim();
    (!name.is_empty() && !name.contains("${")).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poms_own_artifact_not_its_parents() {
        let pom = "<project><parent><artifactId>shop-parent</artifactId></parent>\
                   <artifactId>ts-order-service</artifactId>\
                   <dependencies><dependency><artifactId>x</artifactId></dependency></dependencies></project>";
        assert_eq!(pom_artifact(pom).as_deref(), Some("ts-order-service"));
        let agg = "<project><artifactId>all</artifactId><packaging>pom</packaging></project>";
        assert_eq!(pom_artifact(agg), None);
    }

    #[test]
    fn python_project_names() {
        let files = |f: &'static [(&'static str, &'static str)]| {
            move |n: &str| f.iter().find(|(k, _)| *k == n).map(|(_, v)| v.to_string())
        };
        let pyproject = files(&[(
            "pyproject.toml",
            "[project]\nname = \"orders-api\"\n[project.scripts]\norders = \"orders.main:run\"\n",
        )]);
        assert_eq!(
            python_project(&pyproject),
            Some(("orders-api".into(), true))
        );
        let poetry = files(&[("pyproject.toml", "[tool.poetry]\nname = \"ledger\"\n")]);
        assert_eq!(python_project(&poetry), Some(("ledger".into(), false)));
        let cfg = files(&[(
            "setup.cfg",
            "[options]\nname = wrong\n[metadata]\nname = carts\n",
        )]);
        assert_eq!(python_project(&cfg), Some(("carts".into(), false)));
        let setup = files(&[(
            "setup.py",
            "setup(\n    name='payments',\n    entry_points={'console_scripts': ['p=p:main']},\n)\n",
        )]);
        assert_eq!(python_project(&setup), Some(("payments".into(), true)));
        let computed = files(&[("setup.py", "setup(name=NAME)\n")]);
        assert_eq!(python_project(&computed), None);
        // A tool section without a name, as in a plain tool config.
        let tools = files(&[("pyproject.toml", "[tool.black]\nline-length = 100\n")]);
        assert_eq!(python_project(&tools), None);
    }

    #[test]
    fn generic_folders_are_no_services() {
        for g in ["impl", "service", "src", "API", "cmd", ".github"] {
            assert!(is_generic(g), "{g}");
        }
        assert!(!is_generic("orders"));
    }
}
