//! What `check` is given to read: a file from stdin (`-` with
//! `--stdin-filename`), files no reader takes, the baseline file kept out
//! of the scan, and the repository root the SARIF log is relative to.

use super::{CheckArgs, Sink};
use crate::config::{self, Settings};
use crate::render::Format;
use crate::systems;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The path that means stdin.
pub const STDIN: &str = "-";

/// A file read from stdin, written under a private temporary directory at
/// a path that ends like `--stdin-filename` (every directory of it), so
/// that the readers classify it as they would the real file (`.aws/config`,
/// `sites-enabled/default`). The directory is removed on drop.
pub struct StdinFile {
    tmp: PathBuf,
    /// Where the text was written: the scan's root.
    pub mirror: PathBuf,
    /// `--stdin-filename`, absolute and normalised: where the file is said
    /// to be, for its configuration and repository.
    pub abs: PathBuf,
    /// `--stdin-filename` as findings show it: relative to the working
    /// directory when below it, as given otherwise.
    pub shown: String,
}

impl Drop for StdinFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.tmp);
    }
}

/// Whether the paths ask for stdin, and the checks of `-` with
/// `--stdin-filename`: `Ok(None)` for a run that reads no stdin.
pub fn stdin_name<'a>(
    paths: &[PathBuf],
    stdin_filename: Option<&'a Path>,
) -> Result<Option<&'a Path>, String> {
    let dash = paths.iter().any(|p| p.as_os_str() == STDIN);
    match (dash, stdin_filename) {
        (false, None) => Ok(None),
        (true, None) => Err(
            "`-` reads the file from stdin and needs `--stdin-filename PATH`: its name decides the format, the configuration and the path shown"
                .into(),
        ),
        (false, Some(_)) => Err(
            "`--stdin-filename` names the file read from stdin; give `-` as the path: `retrylint check --stdin-filename PATH -`"
                .into(),
        ),
        (true, Some(_)) if paths.len() > 1 => {
            Err("`-` (stdin) cannot be checked together with other paths".into())
        }
        (true, Some(name)) if name.file_name().is_none() => Err(format!(
            "`--stdin-filename {}` needs a file name",
            name.display()
        )),
        (true, Some(name)) => Ok(Some(name)),
    }
}

/// Read stdin into a temporary file that ends like `name`.
pub fn read_stdin(name: &Path, cwd: &Path) -> Result<StdinFile, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    let abs = config::normalise(&cwd.join(name));
    let shown = match abs.strip_prefix(cwd) {
        Ok(rel) => crate::source::display_path(rel),
        Err(_) => crate::source::display_path(name),
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = std::env::temp_dir().join(format!(
        "retrylint-stdin-{}-{nanos:08x}",
        std::process::id()
    ));
    // `create_dir`, not `create_dir_all`: a directory that exists is not
    // ours to write into.
    std::fs::create_dir(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    let file = StdinFile {
        mirror: abs
            .components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .fold(tmp.clone(), |p, c| p.join(c)),
        tmp,
        abs,
        shown,
    };
    if let Some(dir) = file.mirror.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(&file.mirror, &bytes)
        .map_err(|e| format!("cannot write {}: {e}", file.mirror.display()))?;
    Ok(file)
}

/// Show the stdin file under its `--stdin-filename`, not where it was
/// written: in the files read and in the notices.
pub fn rename_stdin(scan: &mut crate::Scan, file: &StdinFile, cwd: &Path) {
    let is_mirror = |p: &Path| config::normalise(&cwd.join(p)) == file.mirror;
    for f in &mut scan.files {
        if is_mirror(&f.source.path) {
            f.source.path = PathBuf::from(&file.shown);
        }
    }
    for n in &mut scan.notices {
        if let Some(p) = &n.path
            && is_mirror(Path::new(p))
        {
            n.path = Some(file.shown.clone());
        }
    }
}

/// Read the file on stdin alone, as `--stdin-filename` names it.
pub(super) fn check_stdin(
    args: &CheckArgs,
    name: &Path,
    mut settings: Settings,
    outputs: Vec<(Format, Sink)>,
    cwd: &Path,
) -> Result<i32, String> {
    let file = read_stdin(name, cwd)?;
    // The file named on the command line is checked even when the
    // configuration excludes its path (as ruff does), and never cached.
    settings.exclude.clear();
    settings.cache_dir = None;
    let pipeline = crate::pipeline::Pipeline::new(&settings);
    let mut scan = pipeline.scan(std::slice::from_ref(&file.mirror))?;
    rename_stdin(&mut scan, &file, cwd);
    if let Some(why) = not_read(&file.mirror) {
        scan.notices.push(crate::Notice {
            path: Some(file.shown.clone()),
            message: why.into(),
            internal: false,
        });
    }
    let crate::pipeline::Run { scan, report, .. } = pipeline.after_scan(scan, |_| true);
    let srcroot = source_root(std::slice::from_ref(&file.abs));
    super::finish(args, scan, report, &settings, &outputs, srcroot, cwd)
}

/// Whether no reader takes a file named `path`, whatever it holds (the
/// test every file of a walk passes first): `README.md`, not a YAML file
/// without retry settings, which is a format retrylint reads and simply
/// has nothing to report (pre-commit passes many of those).
pub fn not_read(path: &Path) -> Option<&'static str> {
    (!systems::wanted_by_name(path)).then_some("not a format retrylint reads")
}

/// The files given by name that no reader takes, with why
/// (`README.md: not a format retrylint reads`).
pub fn unread_files(paths: &[PathBuf]) -> Vec<(String, &'static str)> {
    paths
        .iter()
        .filter(|p| p.is_file())
        .filter_map(|p| Some((crate::source::display_path(p), not_read(p)?)))
        .collect()
}

/// An `--exclude` glob for exactly `path` (the baseline file, which is a
/// JSON file readers may claim): anchored at the working directory, which
/// exclude globs are relative to. `None` when the path is not below it or
/// has characters a glob would read.
pub fn exclude_exactly(path: &Path, cwd: &Path) -> Option<String> {
    let abs = config::normalise(&cwd.join(path));
    let rel = crate::source::display_path(abs.strip_prefix(cwd).ok()?);
    if rel.is_empty() || rel.contains(['*', '?', '[', ']', '{', '}', '\\', '!']) {
        return None;
    }
    Some(format!("/{rel}"))
}

/// `%SRCROOT%` of a SARIF log: the repository root (the nearest `.git`)
/// above the first scanned path when every path lies below it, else the
/// deepest directory holding them all. `given` are absolute.
pub fn source_root(given: &[PathBuf]) -> Option<PathBuf> {
    let dirs: Vec<PathBuf> = given
        .iter()
        .map(|p| {
            if p.is_dir() {
                p.clone()
            } else {
                p.parent().map(Path::to_path_buf).unwrap_or_default()
            }
        })
        .collect();
    let first = dirs.first()?;
    if let Some(root) = crate::config_file::repo_root(first)
        && dirs.iter().all(|d| d.starts_with(&root))
    {
        return Some(root);
    }
    let mut common = first.clone();
    while !dirs.iter().all(|d| d.starts_with(&common)) {
        if !common.pop() {
            return None;
        }
    }
    Some(common)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdin_needs_a_name_and_a_name_needs_stdin() {
        let dash = [PathBuf::from("-")];
        assert!(
            stdin_name(&dash, None)
                .unwrap_err()
                .contains("--stdin-filename")
        );
        let dot = [PathBuf::from(".")];
        assert!(stdin_name(&dot, Some(Path::new("a.yml"))).is_err());
        assert_eq!(stdin_name(&dot, None), Ok(None));
        let both = [PathBuf::from("-"), PathBuf::from("x")];
        assert!(stdin_name(&both, Some(Path::new("a.yml"))).is_err());
        assert_eq!(
            stdin_name(&dash, Some(Path::new("a.yml"))),
            Ok(Some(Path::new("a.yml")))
        );
    }

    #[test]
    fn the_baseline_is_excluded_by_an_anchored_glob() {
        let cwd = Path::new("/repo");
        assert_eq!(
            exclude_exactly(Path::new("ci/base.json"), cwd).as_deref(),
            Some("/ci/base.json")
        );
        assert_eq!(exclude_exactly(Path::new("/elsewhere/b.json"), cwd), None);
        assert_eq!(exclude_exactly(Path::new("[x].json"), cwd), None);
    }

    #[test]
    fn readme_is_not_read() {
        assert_eq!(
            not_read(Path::new("README.md")),
            Some("not a format retrylint reads")
        );
        // A format retrylint reads, whatever the file holds.
        assert_eq!(not_read(Path::new("ci.yml")), None);
        assert_eq!(not_read(Path::new("etc/nginx/sites-enabled/default")), None);
    }
}
