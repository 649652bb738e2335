//! Effective settings of a run: command-line flags over the config file
//! over the defaults.

use crate::diag::Severity;
use crate::source::Span;
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod scopes;
pub use scopes::{Flags, PER_RUN_KEYS};

/// Numbers rules compare against.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Thresholds {
    /// RL206: more total attempts than this in one policy.
    pub max_attempts: u64,
    /// RL401: more attempts than this along one call path.
    pub amplification: u64,
    /// RL207: a backoff cap below this many seconds is too small for
    /// unbounded or long-lived retries.
    pub min_backoff_cap: u64,
    /// RL209: a retry that drops the work when it gives up spans less than
    /// this many seconds.
    pub min_retry_window: u64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            max_attempts: 5,
            amplification: 10,
            min_backoff_cap: 10,
            min_retry_window: 10,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Settings {
    /// Codes or code prefixes to run (`RL2`, `RL203`, `ALL`); empty = all.
    pub select: Vec<String>,
    /// Codes or code prefixes not to run.
    pub ignore: Vec<String>,
    /// Severity per rule code.
    pub severity: BTreeMap<String, Severity>,
    pub thresholds: Thresholds,
    /// Glob patterns of paths not to scan.
    pub exclude: Vec<String>,
    /// Files larger than this many bytes are not read.
    pub max_file_size: u64,
    /// Whether source code in test folders or named as tests is read
    /// (`test-code = "read"`); by default it is not the service and is
    /// only counted (`extract::test_code`).
    pub read_test_code: bool,
    /// Whether source files a generator wrote are read
    /// (`generated-code = "read"`); by default they are skipped and
    /// counted (`extract::generated`).
    pub read_generated_code: bool,
    /// The call-path graph's settings.
    pub graph: GraphSettings,
    /// The configuration file read, if any.
    pub config_file: Option<PathBuf>,
    /// The directory path globs in the configuration are relative to: the
    /// configuration file's directory, else the repository root, else the
    /// working directory. Absolute.
    pub root: Option<PathBuf>,
    /// `[[overrides]]`: rule selection and severity for some paths.
    pub overrides: Vec<Override>,
    /// `[[per-file-ignores]]`: findings silenced by path and code, for
    /// formats that have no comments (JSON).
    pub per_file_ignores: Vec<PathIgnore>,
    /// Where the facts cache lives ([`crate::cache`]); `None`: no cache
    /// (the library's default; the command line sets it).
    pub cache_dir: Option<PathBuf>,
    /// The working directory of the run, absolute: paths are shown
    /// relative to it, and relative paths are resolved against it for the
    /// configuration's globs. The command line sets it; the library never
    /// reads the process's directory. `None`: paths are taken as given.
    #[serde(skip)]
    pub cwd: Option<PathBuf>,
    /// Files named on the command line when the walk is widened to their
    /// repository (pre-commit passes files one by one): read even where
    /// they look like test code, since the user asked for them.
    #[serde(skip)]
    pub named_files: Vec<PathBuf>,
    /// The command line's flags, applied over this configuration and over
    /// every nested one ([`Flags::apply`]).
    #[serde(skip)]
    pub flags: Flags,
    /// The configuration files below this one that apply to the files in
    /// their folders (`.retrylint.toml` of nested projects), each with its
    /// own [`Settings::root`]; a file's settings are those of the nearest
    /// ([`Settings::for_path`]). Empty with `--config` or `--no-config`.
    #[serde(skip)]
    pub nested: Vec<Settings>,
}

/// `mesh = ...`: whether calls go through a service mesh whose default
/// retries apply where nothing is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mesh {
    /// Per workload, from what the scanned files show: injection labels
    /// and annotations (namespace, pod), else the mesh whose resources the
    /// repository holds, as an assumption every finding resting on it
    /// states; none otherwise.
    #[default]
    Auto,
    Istio,
    Linkerd,
    None,
}

/// `[[services]]`: a service, the files that belong to it, and other names
/// that reach it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServiceConfig {
    pub name: String,
    /// Globs of the files that belong to the service.
    #[serde(default)]
    pub paths: Vec<String>,
    /// Hosts and other names that reach it.
    #[serde(default)]
    pub aliases: Vec<String>,
}

/// `[[edges]]`: a call the files do not show.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeConfig {
    pub from: String,
    pub to: String,
    /// What the call goes through, for messages (`nginx`, `sdk`).
    #[serde(default)]
    pub via: Option<String>,
}

/// The graph keys of the configuration.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GraphSettings {
    pub mesh: Mesh,
    pub services: Vec<ServiceConfig>,
    pub edges: Vec<EdgeConfig>,
    /// Services where paths start, besides those nobody calls.
    pub entry_points: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            select: Vec::new(),
            ignore: Vec::new(),
            severity: BTreeMap::new(),
            thresholds: Thresholds::default(),
            exclude: Vec::new(),
            max_file_size: 10 * 1024 * 1024,
            read_test_code: false,
            read_generated_code: false,
            graph: GraphSettings::default(),
            config_file: None,
            root: None,
            overrides: Vec::new(),
            per_file_ignores: Vec::new(),
            cache_dir: None,
            cwd: None,
            named_files: Vec::new(),
            flags: Flags::default(),
            nested: Vec::new(),
        }
    }
}

impl Mesh {
    pub fn as_str(self) -> &'static str {
        match self {
            Mesh::Auto => "auto",
            Mesh::Istio => "istio",
            Mesh::Linkerd => "linkerd",
            Mesh::None => "none",
        }
    }

    /// The mesh this setting puts on every call, if it names one.
    pub fn system(self) -> Option<crate::model::System> {
        match self {
            Mesh::Istio => Some(crate::model::System::Istio),
            Mesh::Linkerd => Some(crate::model::System::Linkerd),
            Mesh::Auto | Mesh::None => None,
        }
    }
}

/// Path globs of the configuration, matched against paths relative to
/// [`Settings::root`]. A pattern without `/` matches at any depth
/// (`*.json`), one ending in `/` matches everything below it.
#[derive(Clone, Debug, Default)]
pub struct PathGlobs {
    patterns: Vec<String>,
    set: GlobSet,
}

impl PathGlobs {
    /// Compile `patterns`; the error names the bad pattern.
    pub fn new(patterns: Vec<String>) -> Result<Self, String> {
        let mut b = GlobSetBuilder::new();
        for p in &patterns {
            let mut g = p.trim_start_matches("./").to_string();
            if let Some(rest) = g.strip_prefix('/') {
                g = rest.to_string();
            } else if !g.contains('/') {
                g = format!("**/{g}");
            }
            if g.ends_with('/') {
                g.push_str("**");
            }
            let glob = GlobBuilder::new(&g)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("bad glob `{p}`: {}", e.kind()))?;
            b.add(glob);
            // `dir/**` also names `dir` itself and `dir` names what is below.
            if !g.ends_with("/**")
                && let Ok(below) = GlobBuilder::new(&format!("{g}/**"))
                    .literal_separator(true)
                    .build()
            {
                b.add(below);
            }
        }
        let set = b.build().map_err(|e| e.to_string())?;
        Ok(PathGlobs { patterns, set })
    }

    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// Whether a root-relative path with `/` separators matches.
    pub fn is_match(&self, relative: &str) -> bool {
        !self.patterns.is_empty() && self.set.is_match(relative)
    }
}

impl PartialEq for PathGlobs {
    fn eq(&self, other: &Self) -> bool {
        self.patterns == other.patterns
    }
}

impl Serialize for PathGlobs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.patterns.serialize(s)
    }
}

/// `[[overrides]]`: rule selection and severity for the files `paths`
/// matches. Later overrides win over earlier ones.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Override {
    pub paths: PathGlobs,
    /// Replaces the run's `select` for these paths.
    pub select: Option<Vec<String>>,
    /// Added to the run's `ignore` for these paths.
    pub ignore: Vec<String>,
    /// Severity per rule code for these paths.
    pub severity: BTreeMap<String, Severity>,
    /// The `[[overrides]]` entry in the configuration file.
    #[serde(skip)]
    pub span: Span,
}

/// `[[per-file-ignores]]`: findings of `codes` in files `paths` matches
/// are silenced; an entry that silences nothing is RL904.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PathIgnore {
    pub paths: PathGlobs,
    /// Rule codes (or names).
    pub codes: Vec<String>,
    pub reason: Option<String>,
    /// The entry in the configuration file.
    #[serde(skip)]
    pub span: Span,
}

impl Settings {
    /// A path as the configuration's globs see it: relative to
    /// [`Settings::root`] with `/` separators, or as given when outside it.
    pub fn relative_path(&self, path: &Path) -> String {
        let abs = normalise(&self.resolve(path));
        if let Some(root) = &self.root
            && let Ok(rel) = abs.strip_prefix(root)
        {
            return crate::source::display_path(rel);
        }
        crate::source::display_path(path)
    }
}

impl Settings {
    /// `path` resolved against [`Settings::cwd`] (as given without one).
    pub fn resolve(&self, path: &Path) -> PathBuf {
        match &self.cwd {
            Some(cwd) if path.is_relative() => cwd.join(path),
            _ => path.to_path_buf(),
        }
    }

    /// `path` as shown to users: relative to [`Settings::cwd`] when below
    /// it; an absolute path beside it (sharing a folder below the file
    /// system's root) through `..` (`../b/.retrylint.toml`); as given
    /// otherwise.
    pub fn shown(&self, path: &Path) -> PathBuf {
        let Some(cwd) = &self.cwd else {
            return path.to_path_buf();
        };
        if let Ok(rel) = path.strip_prefix(cwd) {
            return rel.to_path_buf();
        }
        let path = normalise(path);
        let common = cwd
            .components()
            .zip(path.components())
            .take_while(|(a, b)| a == b)
            .count();
        if !path.is_absolute() || common < 2 {
            return path;
        }
        let mut out = PathBuf::new();
        for _ in common..cwd.components().count() {
            out.push("..");
        }
        out.extend(path.components().skip(common));
        out
    }
}

/// `a/./b/../c` -> `a/c`, without touching the file system.
pub fn normalise(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The name looked for in each directory.
pub const FILE_NAME: &str = ".retrylint.toml";

/// The configuration file for a run started in `dir`: `.retrylint.toml`
/// in `dir` or the nearest parent, not above the repository root.
pub fn discover(dir: &Path) -> Option<PathBuf> {
    let mut d = Some(dir);
    while let Some(cur) = d {
        let candidate = cur.join(FILE_NAME);
        if candidate.is_file() {
            return Some(candidate);
        }
        if cur.join(".git").exists() {
            return None;
        }
        d = cur.parent();
    }
    None
}

/// The configuration a run over some folders reads: found from the
/// scanned paths upward, not from the working directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discovered {
    /// The file read, if any.
    pub file: Option<PathBuf>,
    /// The folder the search started from: the scanned folder, or the
    /// common folder of several.
    pub start: PathBuf,
    /// Scanned folders whose nearest configuration is another one (or
    /// none): theirs applies to their files, as a nested configuration
    /// ([`Settings::nested`], loaded by the pipeline).
    pub not_applied: Vec<(PathBuf, Option<PathBuf>)>,
}

/// The configuration for a run over `dirs` (absolute folders; a file
/// scanned stands for its folder): the nearest `.retrylint.toml` above
/// them (see [`discover`]) when they share one; otherwise the one of their
/// common folder (the run's, for the per-run keys), with the others listed.
pub fn discover_for(dirs: &[PathBuf]) -> Discovered {
    let common = dirs
        .iter()
        .skip(1)
        .fold(dirs.first().cloned().unwrap_or_default(), |acc, d| {
            acc.components()
                .zip(d.components())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a)
                .collect()
        });
    let nearest: Vec<Option<PathBuf>> = dirs.iter().map(|d| discover(d)).collect();
    if let Some(first) = nearest.first()
        && nearest.iter().all(|n| n == first)
    {
        return Discovered {
            file: first.clone(),
            start: common,
            not_applied: Vec::new(),
        };
    }
    let file = discover(&common);
    let mut not_applied: Vec<(PathBuf, Option<PathBuf>)> = dirs
        .iter()
        .zip(nearest)
        .filter(|(_, n)| *n != file)
        .map(|(d, n)| (d.clone(), n))
        .collect();
    not_applied.sort();
    not_applied.dedup();
    Discovered {
        file,
        start: common,
        not_applied,
    }
}

/// The repository root above `dir`: the nearest directory holding `.git`.
pub fn repo_root(dir: &Path) -> Option<PathBuf> {
    let mut d = Some(dir);
    while let Some(cur) = d {
        if cur.join(".git").exists() {
            return Some(cur.to_path_buf());
        }
        d = cur.parent();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_stops_at_the_repository_root() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let sub = repo.join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir(repo.join(".git")).unwrap();
        // Above the root: never read.
        std::fs::write(dir.path().join(FILE_NAME), "").unwrap();
        assert_eq!(discover(&sub), None);
        std::fs::write(repo.join(FILE_NAME), "").unwrap();
        assert_eq!(discover(&sub), Some(repo.join(FILE_NAME)));
        std::fs::write(sub.join(FILE_NAME), "").unwrap();
        assert_eq!(discover(&sub), Some(sub.join(FILE_NAME)));
        assert_eq!(repo_root(&sub), Some(repo.clone()));
    }

    #[test]
    fn paths_are_shown_and_resolved_from_the_given_working_directory() {
        let s = Settings {
            cwd: Some(PathBuf::from("/w/a")),
            root: Some(PathBuf::from("/w")),
            ..Settings::default()
        };
        let shown = |p: &str| s.shown(Path::new(p));
        assert_eq!(
            shown("/w/a/x/.retrylint.toml"),
            Path::new("x/.retrylint.toml")
        );
        assert_eq!(
            shown("/w/b/.retrylint.toml"),
            Path::new("../b/.retrylint.toml")
        );
        assert_eq!(shown("/etc/x"), Path::new("/etc/x"));
        assert_eq!(shown("rel/x"), Path::new("rel/x"));
        assert_eq!(s.relative_path(Path::new("x/../y.yml")), "a/y.yml");
        assert_eq!(s.relative_path(Path::new("../b/y.yml")), "b/y.yml");
        // Without a working directory, relative paths stay as given.
        let s = Settings::default();
        assert_eq!(s.relative_path(Path::new("x/y.yml")), "x/y.yml");
        assert_eq!(s.shown(Path::new("x/y.yml")), Path::new("x/y.yml"));
    }

    #[test]
    fn scanned_folders_share_their_nearest_configuration_or_say_which_differ() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        for d in [&a, &b] {
            std::fs::create_dir_all(d.join("x")).unwrap();
            std::fs::create_dir(d.join(".git")).unwrap();
            std::fs::write(d.join(FILE_NAME), "").unwrap();
        }
        let found = discover_for(&[a.join("x")]);
        assert_eq!(found.file, Some(a.join(FILE_NAME)));
        assert!(found.not_applied.is_empty());
        let found = discover_for(&[a.join("x"), a.clone()]);
        assert_eq!(
            (found.file, found.start),
            (Some(a.join(FILE_NAME)), a.clone())
        );
        let found = discover_for(&[a.clone(), b.join("x")]);
        assert_eq!(found.file, None);
        assert_eq!(found.start, dir.path());
        assert_eq!(
            found.not_applied,
            vec![
                (a.clone(), Some(a.join(FILE_NAME))),
                (b.join("x"), Some(b.join(FILE_NAME)))
            ]
        );
    }
}
