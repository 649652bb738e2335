//! Paths as the report shows them: relative to the repository that holds
//! the file (the nearest folder above it with a `.git`, else the scan
//! root), never absolute and never relative to the directory the command
//! ran in. A report over roots in more than one repository prefixes each
//! path with its repository's folder name.
//!
//! Messages written by rules and extractors quote paths as the scan saw
//! them (`../shop/k8s/vs.yaml`, `/home/ci/repo/k8s/vs.yaml`); [`Paths::text`]
//! rewrites the scanned prefix of every root into the shown one, where the
//! prefix starts a word, so `data/` is not rewritten for a root `a`.

use std::path::{Component, Path, PathBuf};

#[derive(Clone, Debug)]
pub struct Paths {
    cwd: PathBuf,
    /// Repository roots (absolute, normalised) and the prefix their files
    /// are shown with (`""`, or `name/` when there is more than one).
    repos: Vec<(PathBuf, String)>,
    /// Scanned prefix (ending in `/`) -> shown prefix, longest first.
    rewrites: Vec<(String, String)>,
    /// Each root as shown.
    pub roots: Vec<String>,
}

/// `a/./b/../c` -> `a/c`, without touching the file system.
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

fn slashes(p: &Path) -> String {
    crate::source::display_path(p)
}

/// `to` as a path relative to `from` (both absolute, normalised):
/// `../x` where it is beside.
fn relative(from: &Path, to: &Path) -> Option<String> {
    let f: Vec<Component> = from.components().collect();
    let t: Vec<Component> = to.components().collect();
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut out = PathBuf::new();
    for _ in common..f.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    Some(slashes(&out))
}

fn dir_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "repository".into())
}

/// The repository holding `abs`: the nearest folder at or above it with a
/// `.git` (a folder, or a file in a worktree); else `abs` itself (its
/// folder, for a file).
pub fn repository_root(abs: &Path) -> PathBuf {
    let start = if abs.is_file() {
        abs.parent().unwrap_or(abs)
    } else {
        abs
    };
    start
        .ancestors()
        .find(|a| a.join(".git").exists())
        .unwrap_or(start)
        .to_path_buf()
}

impl Paths {
    /// For the roots as given on the command line, relative to the
    /// process's working directory.
    pub fn new(roots: &[String]) -> Paths {
        let cwd = std::env::current_dir().unwrap_or_default();
        Paths::with_cwd(roots, &cwd)
    }

    pub fn with_cwd(roots: &[String], cwd: &Path) -> Paths {
        let cwd = normalise(cwd);
        let abs: Vec<PathBuf> = roots.iter().map(|r| normalise(&cwd.join(r))).collect();
        let mut repo_dirs: Vec<PathBuf> = abs.iter().map(|a| repository_root(a)).collect();
        let mut distinct = repo_dirs.clone();
        distinct.sort();
        distinct.dedup();
        let many = distinct.len() > 1;
        let prefix = |r: &Path| {
            if many {
                format!("{}/", dir_name(r))
            } else {
                String::new()
            }
        };
        let mut rewrites = Vec::new();
        let mut shown_roots = Vec::new();
        for ((given, a), repo) in roots.iter().zip(&abs).zip(&repo_dirs) {
            let rel = a.strip_prefix(repo).map(slashes).unwrap_or_default();
            let shown_prefix = if rel.is_empty() {
                prefix(repo)
            } else {
                format!("{}{rel}/", prefix(repo))
            };
            shown_roots.push(if rel.is_empty() {
                dir_name(repo)
            } else {
                format!("{}{rel}", prefix(repo))
            });
            let given = crate::source::display_path(Path::new(given));
            let given = given.trim_end_matches('/');
            if !given.is_empty() && given != "." {
                rewrites.push((format!("{given}/"), shown_prefix.clone()));
            }
            // Files under a root are shown relative to the working
            // directory by the scan, whatever form the root was given in.
            if let Some(rel) = relative(&cwd, a).filter(|r| !r.is_empty() && r != ".") {
                rewrites.push((format!("{rel}/"), shown_prefix.clone()));
            }
            rewrites.push((format!("{}/", slashes(a)), shown_prefix));
        }
        for r in &distinct {
            rewrites.push((format!("{}/", slashes(r)), prefix(r)));
        }
        rewrites.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.cmp(b)));
        rewrites.dedup();
        repo_dirs.sort_by_key(|r| std::cmp::Reverse(r.as_os_str().len()));
        repo_dirs.dedup();
        Paths {
            cwd,
            repos: repo_dirs
                .into_iter()
                .map(|r| (r.clone(), prefix(&r)))
                .collect(),
            rewrites,
            roots: shown_roots,
        }
    }

    /// A scanned file's path as shown.
    pub fn file(&self, path: &str) -> String {
        if path.is_empty() {
            return String::new();
        }
        let abs = normalise(&self.cwd.join(path));
        for (root, prefix) in &self.repos {
            if let Ok(rel) = abs.strip_prefix(root) {
                return format!("{prefix}{}", slashes(rel));
            }
        }
        // Outside every repository (a configuration file named on the
        // command line): relative as given, else its name only.
        if Path::new(path).is_absolute() {
            abs.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        } else {
            slashes(Path::new(path))
        }
    }

    /// A message with every scanned root prefix that starts a word
    /// rewritten to the shown one.
    pub fn text(&self, s: &str) -> String {
        let mut out = s.to_string();
        for (from, to) in &self.rewrites {
            if from == to || !out.contains(from.as_str()) {
                continue;
            }
            out = replace_at_word_start(&out, from, to);
        }
        out
    }
}

fn replace_at_word_start(s: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    let mut prev: Option<char> = None;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().next_back().or(prev);
        let starts_word = before
            .is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '~')));
        out.push_str(&rest[..i]);
        if starts_word {
            out.push_str(to);
        } else {
            out.push_str(from);
        }
        prev = from.chars().next_back();
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join("org/shop/.git")).unwrap();
        std::fs::create_dir_all(t.path().join("org/shop/k8s")).unwrap();
        std::fs::create_dir_all(t.path().join("org/pay/src")).unwrap();
        t
    }

    #[test]
    fn paths_are_relative_to_the_repository_not_the_working_directory() {
        let t = tree();
        let cwd = t.path().join("org");
        let p = Paths::with_cwd(&["shop/k8s".into()], &cwd);
        assert_eq!(p.roots, ["k8s"]);
        assert_eq!(p.file("shop/k8s/vs.yaml"), "k8s/vs.yaml");
        assert_eq!(
            p.text("sidecar assumed: `shop/k8s/vs.yaml` declares"),
            "sidecar assumed: `k8s/vs.yaml` declares"
        );
        // An absolute root: no absolute path survives.
        let abs = t.path().join("org/shop").display().to_string();
        let p = Paths::with_cwd(std::slice::from_ref(&abs), Path::new("/"));
        assert_eq!(p.roots, ["shop"]);
        assert_eq!(p.file(&format!("{abs}/k8s/vs.yaml")), "k8s/vs.yaml");
        assert_eq!(p.text(&format!("`{abs}/k8s/vs.yaml`")), "`k8s/vs.yaml`");
        // An absolute root under the working directory: the scan shows its
        // files relative to the working directory.
        let p = Paths::with_cwd(std::slice::from_ref(&abs), &t.path().join("org"));
        assert_eq!(p.text("in `shop/k8s/`"), "in `k8s/`");
        assert_eq!(
            relative(Path::new("/a/b"), Path::new("/a/c/d")).unwrap(),
            "../c/d"
        );
    }

    #[test]
    fn without_git_the_scan_root_is_the_base_and_many_repositories_are_named() {
        let t = tree();
        let cwd = t.path().join("org");
        let p = Paths::with_cwd(&["pay".into()], &cwd);
        assert_eq!(p.roots, ["pay"]);
        assert_eq!(p.file("pay/src/a.java"), "src/a.java");
        let p = Paths::with_cwd(&["pay".into(), "shop".into()], &cwd);
        assert_eq!(p.roots, ["pay", "shop"]);
        assert_eq!(p.file("pay/src/a.java"), "pay/src/a.java");
        assert_eq!(p.file("shop/k8s/vs.yaml"), "shop/k8s/vs.yaml");
    }

    #[test]
    fn rewrites_only_where_a_path_starts() {
        assert_eq!(replace_at_word_start("a/x data/y", "a/", ""), "x data/y");
        assert_eq!(replace_at_word_start("`a/x`", "a/", "b/"), "`b/x`");
        assert_eq!(replace_at_word_start("xa/a/", "a/", "b/"), "xa/a/");
    }
}
