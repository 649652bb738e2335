//! What one repository says, exported to be joined with other
//! repositories' (`retrylint facts`, `retrylint audit --facts`): an
//! organisation's services live in many repositories, and a path that
//! crosses them is only seen when their facts meet in one graph.
//!
//! A facts file holds each file the scan read, linked (the joins that
//! need the repository's own files, such as a workload's environment or
//! an nginx include, are made before export), with its text so that
//! spans, lines and messages stay exact, and the repository's name and
//! commit. Joining reads several such files (and local trees), puts each
//! repository's files under its name (`orders/k8s/app.yaml`) and builds
//! one graph, where services meet by name, alias and host as they do in
//! one repository. The format is versioned ([`VERSION`]) and described in
//! `docs/facts.md` and `docs/facts.schema.json`.

use crate::diag::Diagnostic;
use crate::model::{Facts, ScannedFile};
use crate::source::SourceFile;
use crate::{Scan, config};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The format's version: bumped on any change a reader of version 1
/// cannot read.
pub const VERSION: u32 = 1;

/// The largest facts file read (bytes): a whole organisation's largest
/// repository fits; a larger file is refused, not read in part.
pub const MAX_FACTS_FILE: u64 = 1 << 30;

/// A facts file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Export {
    /// [`VERSION`].
    pub retrylint_facts: u32,
    /// The retrylint that wrote it (`retrylint 0.1.0`).
    pub tool: String,
    pub repository: Repository,
    pub files: Vec<ExportedFile>,
}

/// Which repository the facts are of.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Repository {
    /// The name its files are shown under when joined: the folder holding
    /// `.git` (or the scanned folder), unless given.
    pub name: String,
    /// The commit checked out (`HEAD`), when the folder is a git checkout.
    pub commit: Option<String>,
}

/// One file of the repository with what it says.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedFile {
    /// Relative to the repository's root, `/`-separated.
    pub path: String,
    /// The text as read (UTF-8); every span is a byte range of it.
    pub text: String,
    pub facts: Facts,
    /// What its reader reported about the file itself (RL9xx).
    pub diagnostics: Vec<Diagnostic>,
}

/// The root of the repository holding `dir`: the nearest folder above it
/// (itself included) with a `.git`, else `dir`.
pub fn repository_root(dir: &Path) -> PathBuf {
    let dir = config::normalise(dir);
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&dir)
        .to_path_buf()
}

/// The commit `HEAD` names in the checkout at `root` (a detached head, a
/// loose ref or a packed one); `None` when it cannot be read.
pub fn head_commit(root: &Path) -> Option<String> {
    let read = |p: &Path| std::fs::read_to_string(p).ok();
    let mut git = root.join(".git");
    // A worktree or a submodule: `.git` is a file naming the git folder;
    // its refs may be in the common folder (`commondir`).
    if git.is_file() {
        let line = read(&git)?;
        let dir = PathBuf::from(line.trim().strip_prefix("gitdir: ")?);
        git = if dir.is_absolute() {
            dir
        } else {
            root.join(dir)
        };
    }
    let common = read(&git.join("commondir"))
        .map(|c| {
            let c = PathBuf::from(c.trim());
            if c.is_absolute() { c } else { git.join(c) }
        })
        .unwrap_or_else(|| git.clone());
    let head = read(&git.join("HEAD"))?;
    let head = head.trim();
    let Some(name) = head.strip_prefix("ref: ") else {
        return is_sha(head).then(|| head.to_string());
    };
    if let Some(sha) = read(&git.join(name)).or_else(|| read(&common.join(name))) {
        let sha = sha.trim();
        return is_sha(sha).then(|| sha.to_string());
    }
    read(&common.join("packed-refs"))?.lines().find_map(|l| {
        let (sha, r) = l.split_once(' ')?;
        (r == name && is_sha(sha)).then(|| sha.to_string())
    })
}

fn is_sha(s: &str) -> bool {
    (40..=64).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The facts of a linked `scan` of the repository at `root` (absolute),
/// whose files' paths are shown relative to `cwd`. Files outside `root`
/// are left out.
pub fn export(scan: &Scan, root: &Path, cwd: &Path, repository: Repository) -> Export {
    let files = scan
        .files
        .iter()
        .filter_map(|f| {
            let abs = config::normalise(&cwd.join(&f.source.path));
            let rel = abs.strip_prefix(root).ok()?;
            Some(ExportedFile {
                path: crate::source::display_path(rel),
                text: f.source.text.clone(),
                facts: f.facts.clone(),
                diagnostics: f.facts.diagnostics.clone(),
            })
        })
        .collect();
    Export {
        retrylint_facts: VERSION,
        tool: format!("retrylint {}", env!("CARGO_PKG_VERSION")),
        repository,
        files,
    }
}

/// Read a facts file: bounded, versioned, every path relative and inside
/// its repository, every span inside its file's text.
pub fn read(path: &Path) -> Result<Export, String> {
    let shown = crate::source::display_path(path);
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if meta.len() > MAX_FACTS_FILE {
        return Err(format!(
            "{shown}: {} bytes, more than a facts file may have ({MAX_FACTS_FILE})",
            meta.len()
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    parse(&text).map_err(|e| format!("{shown}: {e}"))
}

/// [`read`] of a text.
pub fn parse(text: &str) -> Result<Export, String> {
    // The version first, so that a newer format says so rather than fail
    // on a field this one does not know.
    #[derive(Deserialize)]
    struct Version {
        retrylint_facts: Option<u32>,
    }
    let v: Version =
        serde_json::from_str(text).map_err(|e| format!("not a retrylint facts file: {e}"))?;
    match v.retrylint_facts {
        Some(VERSION) => {}
        Some(n) => {
            return Err(format!(
                "facts format version {n}; this retrylint reads version {VERSION}"
            ));
        }
        None => return Err("not a retrylint facts file: no `retrylint_facts` version".into()),
    }
    let export: Export =
        serde_json::from_str(text).map_err(|e| format!("not a retrylint facts file: {e}"))?;
    let name = &export.repository.name;
    if !plain_relative(name) || name.contains('/') {
        return Err(format!(
            "repository name `{name}` is not a plain folder name"
        ));
    }
    for f in &export.files {
        if !plain_relative(&f.path) {
            return Err(format!(
                "file path `{}` is not relative to the repository",
                f.path
            ));
        }
        if let Some(bad) = span_outside(&f.facts, &f.diagnostics, f.text.len()) {
            return Err(format!("{}: span {bad} is outside the file's text", f.path));
        }
    }
    Ok(export)
}

/// Whether `p` is a non-empty relative path with no `..`, `.` or empty
/// component (nor a Windows drive or backslash).
fn plain_relative(p: &str) -> bool {
    !p.is_empty()
        && !p.starts_with('/')
        && !p.contains('\\')
        && !p.contains(':')
        && p.split('/').all(|c| !c.is_empty() && c != "." && c != "..")
}

/// The first `{start, end}` of the facts (walked as JSON, so that every
/// span of every kind is seen) that is not a range of a text of `len`
/// bytes.
fn span_outside(facts: &Facts, diagnostics: &[Diagnostic], len: usize) -> Option<String> {
    fn walk(v: &serde_json::Value, len: usize, budget: &mut usize) -> Option<String> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        match v {
            serde_json::Value::Object(m) => {
                if let (Some(s), Some(e)) = (m.get("start"), m.get("end"))
                    && let (Some(s), Some(e)) = (s.as_u64(), e.as_u64())
                    && (s > e || e > len as u64)
                {
                    return Some(format!("{s}..{e}"));
                }
                m.values().find_map(|x| walk(x, len, budget))
            }
            serde_json::Value::Array(a) => a.iter().find_map(|x| walk(x, len, budget)),
            _ => None,
        }
    }
    // Bounded: a file's facts are small; a hostile one stops being walked.
    let mut budget = 10_000_000;
    let facts = serde_json::to_value(facts).ok()?;
    let diags = serde_json::to_value(diagnostics).ok()?;
    walk(&facts, len, &mut budget).or_else(|| walk(&diags, len, &mut budget))
}

/// The files of several facts files as scanned files, each repository's
/// under its name (a name given twice gets `-2`, `-3`).
pub fn files_of(exports: Vec<Export>) -> Vec<ScannedFile> {
    let mut names: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for e in exports {
        let mut name = e.repository.name.clone();
        let mut n = 1;
        while names.contains(&name) {
            n += 1;
            name = format!("{}-{n}", e.repository.name);
        }
        names.push(name.clone());
        for f in e.files {
            let mut facts = f.facts;
            facts.diagnostics = f.diagnostics;
            // The syntax it was read with, as the scan decided it (from
            // the name and the text): the graph asks it (is this program
            // source that reads a variable?), so do suppression comments.
            let syntax = crate::systems::read::classify(Path::new(&f.path), f.text.as_bytes());
            out.push(ScannedFile {
                source: SourceFile::new(PathBuf::from(format!("{name}/{}", f.path)), f.text),
                facts,
                syntax,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_must_stay_inside_their_repository() {
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../../x",
            "a//b",
            "./a",
            "C:/x",
            "a\\b",
        ] {
            assert!(!plain_relative(bad), "{bad}");
        }
        for good in ["a", "k8s/app.yaml", "a.b/c..d"] {
            assert!(plain_relative(good), "{good}");
        }
    }

    #[test]
    fn versions_and_shapes_are_checked() {
        let err = parse(r#"{"retrylint_facts": 2, "anything": 1}"#).unwrap_err();
        assert!(
            err.contains("version 2; this retrylint reads version 1"),
            "{err}"
        );
        assert!(
            parse("[]")
                .unwrap_err()
                .starts_with("not a retrylint facts file")
        );
        assert!(parse("{}").unwrap_err().contains("no `retrylint_facts`"));
        let escape = r#"{"retrylint_facts":1,"tool":"t","repository":{"name":"..","commit":null},"files":[]}"#;
        assert!(
            parse(escape)
                .unwrap_err()
                .contains("not a plain folder name")
        );
    }

    #[test]
    fn a_commit_is_read_from_a_loose_or_packed_ref() {
        let tmp = tempfile::tempdir().unwrap();
        let git = tmp.path().join(".git");
        std::fs::create_dir_all(git.join("refs/heads")).unwrap();
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        let sha = "0123456789abcdef0123456789abcdef01234567";
        std::fs::write(
            git.join("packed-refs"),
            format!("# pack\n{sha} refs/heads/main\n"),
        )
        .unwrap();
        assert_eq!(head_commit(tmp.path()).as_deref(), Some(sha));
        let loose = "89abcdef0123456789abcdef0123456789abcdef";
        std::fs::write(git.join("refs/heads/main"), format!("{loose}\n")).unwrap();
        assert_eq!(head_commit(tmp.path()).as_deref(), Some(loose));
        assert_eq!(
            repository_root(&tmp.path().join("a/b")),
            config::normalise(tmp.path())
        );
        // A worktree: `.git` is a file; HEAD in its own folder, the branch
        // in the common one.
        let wt = tmp.path().join("wt");
        let own = git.join("worktrees/wt");
        std::fs::create_dir_all(&own).unwrap();
        std::fs::create_dir_all(&wt).unwrap();
        std::fs::write(wt.join(".git"), format!("gitdir: {}\n", own.display())).unwrap();
        std::fs::write(own.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(own.join("commondir"), "../..\n").unwrap();
        assert_eq!(head_commit(&wt).as_deref(), Some(loose));
        assert_eq!(repository_root(&wt.join("x")), config::normalise(&wt));
    }
}
