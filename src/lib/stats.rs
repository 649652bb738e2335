//! The counts a scan keeps for its summary line (moved out of lib.rs, which
//! was at the 800-line limit).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, Default)]
pub struct Stats {
    /// Files the walk found.
    pub files_seen: usize,
    /// Files an extractor read (parsed).
    pub files_parsed: usize,
    /// Files claimed, per extractor.
    pub per_extractor: BTreeMap<&'static str, usize>,
    pub oversized: usize,
    pub binary: usize,
    pub symlinks: usize,
    pub elapsed: Duration,
    /// Facts cache hits and misses (both 0 without a cache).
    pub cache: crate::cache::CacheStats,
    /// The `.retrylint.toml` files the walk passed (as walked), whether or
    /// not the run applies them.
    pub configs_seen: Vec<PathBuf>,
    /// The configuration files the run applies, as shown; empty: none
    /// (set by [`pipeline`]).
    pub config_files: Vec<String>,
    /// Source files not read because they are test code
    /// ([`extract::test_code`]; `test-code = "read"` reads them).
    pub test_files: usize,
    /// Source files not read because a generator wrote them
    /// ([`extract::generated`]; `generated-code = "read"` reads them).
    pub generated_files: usize,
    /// Files of fixture folders read for their settings but kept off the
    /// call graph ([`crate::link::test_inputs`]).
    pub test_inputs: usize,
    /// Files in languages not read yet that mention retries, timeouts or calls
    /// ([`extract::unread`]).
    pub unread: crate::extract::unread::Unread,
    /// Call sites whose target is not written where the call is made
    /// (placeholders, environment variables), as `path:line`, what was
    /// written and the calling service where it is known.
    pub unresolved: Vec<(String, String, Option<String>)>,
    /// Source files read whose reader found nothing to check, per
    /// language (issue 28: `1 read` named no language when a Java or
    /// Python file gave no loop).
    pub found_nothing: BTreeMap<&'static str, usize>,
}

impl Stats {
    /// Count a file read that no reader claimed, under its source
    /// language (configuration files that say nothing are not counted).
    pub(crate) fn nothing_found_in(&mut self, path: &Path) {
        if let Some(language) = source_language(path) {
            *self.found_nothing.entry(language).or_default() += 1;
        }
    }
}

/// The source language of a path, by its extension, as the summary names
/// the readers (`java`, `python`, ...).
fn source_language(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "java" => "java",
        "py" => "python",
        "go" => "go",
        "rs" => "rust",
        "cs" => "csharp",
        _ => return None,
    })
}
