//! Configuration per file. A run whose files lie under several
//! `.retrylint.toml` files (nested projects of a monorepo) checks each file
//! with the nearest one above it, as ruff does: the run's configuration
//! ([`Settings`] itself, found from the scanned paths) and the nested ones
//! ([`Settings::nested`]), each with its own root for its path globs.
//!
//! Per file (the nearest configuration): `select`, `ignore`, `severity`,
//! `[[overrides]]`, `[[per-file-ignores]]`, `thresholds.max-attempts`,
//! `exclude` (added, below the nested file's folder, to the run's, which
//! the walk applies everywhere) and `max-file-size`. Per run (the run's
//! configuration only, [`PER_RUN_KEYS`]): what the one call graph of the
//! run and the one facts cache read, since a call path crosses projects.

use super::{PathGlobs, Settings, normalise};
use std::path::Path;

/// The command line's settings, applied over every configuration file of a
/// run (`--select`, `--ignore` replace a file's; `--exclude` adds to it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Flags {
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    pub exclude: Vec<String>,
    pub max_file_size: Option<u64>,
}

impl Flags {
    /// Apply the flags over `s` (which holds a configuration file's
    /// settings) and remember them there.
    pub fn apply(&self, s: &mut Settings) {
        if !self.select.is_empty() {
            s.select = self.select.clone();
        }
        if !self.ignore.is_empty() {
            s.ignore = self.ignore.clone();
        }
        s.exclude.extend(self.exclude.iter().cloned());
        if let Some(n) = self.max_file_size {
            s.max_file_size = n;
        }
        s.flags = self.clone();
    }
}

/// The keys a run reads from its own configuration only (the nearest
/// `.retrylint.toml` above the scanned paths, or `--config`): the call
/// graph is one for the run, and so is the facts cache.
pub const PER_RUN_KEYS: &[&str] = &[
    "mesh",
    "[[services]]",
    "[[edges]]",
    "entry-points",
    "thresholds.amplification",
    "cache-dir",
];

impl Settings {
    /// The run's configuration (index 0), then the nested ones.
    pub fn scopes(&self) -> impl Iterator<Item = &Settings> {
        std::iter::once(self).chain(&self.nested)
    }

    /// The index in [`Settings::scopes`] of the configuration that applies
    /// to `path`: the one whose folder is the nearest above it (nested or
    /// the run's), else 0 (the run's).
    pub fn scope_of(&self, path: &Path) -> usize {
        if self.nested.is_empty() {
            return 0;
        }
        let abs = normalise(&self.resolve(path));
        // The run's own file competes too: a nested one above it (the
        // repository's, when a file in a project was named) is farther.
        let mut best = (0, 0);
        if self.config_file.is_some()
            && let Some(root) = &self.root
            && abs.starts_with(root)
        {
            best.1 = root.components().count();
        }
        for (i, n) in self.nested.iter().enumerate() {
            if let Some(root) = &n.root
                && abs.starts_with(root)
            {
                let depth = root.components().count();
                if depth > best.1 {
                    best = (i + 1, depth);
                }
            }
        }
        best.0
    }

    /// The settings that apply to the file at `path`.
    pub fn for_path(&self, path: &Path) -> &Settings {
        match self.scope_of(path) {
            0 => self,
            i => &self.nested[i - 1],
        }
    }

    /// The keys of [`PER_RUN_KEYS`] this (nested) configuration sets to
    /// something other than the run's `run` and the default: the run does
    /// not apply them.
    pub fn per_run_keys_differing(&self, run: &Settings) -> Vec<&'static str> {
        let d = Settings::default();
        let (g, rg) = (&self.graph, &run.graph);
        let amp = |s: &Settings| s.thresholds.amplification;
        [
            g.mesh != d.graph.mesh && g.mesh != rg.mesh,
            !g.services.is_empty() && g.services != rg.services,
            !g.edges.is_empty() && g.edges != rg.edges,
            !g.entry_points.is_empty() && g.entry_points != rg.entry_points,
            amp(self) != amp(&d) && amp(self) != amp(run),
            self.cache_dir.is_some(),
        ]
        .into_iter()
        .zip(PER_RUN_KEYS)
        .filter_map(|(set, k)| set.then_some(*k))
        .collect()
    }

    /// `exclude` as globs over paths relative to [`Settings::root`], as the
    /// walk reads them: a pattern not starting with `/` also matches below
    /// any folder, and one that names a folder names what is below it.
    pub fn exclude_globs(&self) -> Result<PathGlobs, String> {
        let mut patterns = Vec::new();
        for g in &self.exclude {
            patterns.push(g.clone());
            if g.contains('/') && !g.starts_with('/') && !g.starts_with("**/") {
                patterns.push(format!("**/{}", g.trim_start_matches("./")));
            }
        }
        PathGlobs::new(patterns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn at(root: &str) -> Settings {
        Settings {
            root: Some(PathBuf::from(root)),
            cwd: Some(PathBuf::from("/w")),
            ..Settings::default()
        }
    }

    #[test]
    fn a_file_takes_the_nearest_configuration_above_it() {
        let mut run = at("/w");
        run.nested = vec![at("/w/a/b"), at("/w/a")];
        assert_eq!(run.scope_of(Path::new("x.yml")), 0);
        assert_eq!(run.scope_of(Path::new("a/x.yml")), 2);
        assert_eq!(run.scope_of(Path::new("a/b/c/x.yml")), 1);
        assert_eq!(run.scope_of(Path::new("/w/a/b/x.yml")), 1);
        // `a/bc` is not below `a/b`.
        assert_eq!(run.scope_of(Path::new("a/bc/x.yml")), 2);
        assert_eq!(run.scope_of(Path::new("a/b/../x.yml")), 2);
        assert_eq!(run.for_path(Path::new("a/b/x")).root, run.nested[0].root);
        assert_eq!(run.scopes().count(), 3);
        // A run read from a project's file: the repository's configuration
        // above it applies only outside the project.
        let mut run = at("/w/p");
        run.config_file = Some(PathBuf::from("/w/p/.retrylint.toml"));
        run.nested = vec![at("/w")];
        assert_eq!(run.scope_of(Path::new("p/x.yml")), 0);
        assert_eq!(run.scope_of(Path::new("q/x.yml")), 1);
    }

    #[test]
    fn nested_excludes_match_below_their_folder_at_any_depth() {
        let mut s = at("/w/a");
        s.exclude = vec!["vendor/".into(), "gen/*.yml".into(), "/top.yml".into()];
        let g = s.exclude_globs().unwrap();
        assert!(g.is_match("vendor/x.yml"));
        assert!(g.is_match("x/vendor/y/z.yml"));
        assert!(g.is_match("gen/a.yml") && g.is_match("p/gen/a.yml"));
        assert!(g.is_match("top.yml") && !g.is_match("p/top.yml"));
        assert!(!g.is_match("src/a.yml"));
    }

    #[test]
    fn per_run_keys_a_nested_configuration_sets_are_named() {
        let run = at("/w");
        let mut n = at("/w/a");
        assert!(n.per_run_keys_differing(&run).is_empty());
        n.graph.mesh = super::super::Mesh::None;
        n.thresholds.amplification = 20;
        assert_eq!(
            n.per_run_keys_differing(&run),
            ["mesh", "thresholds.amplification"]
        );
        let mut same = run.clone();
        same.thresholds.amplification = 20;
        same.graph.mesh = super::super::Mesh::None;
        assert!(n.per_run_keys_differing(&same).is_empty());
    }
}
