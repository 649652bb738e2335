//! How a scanned path is shown: relative to its scan root (facts and
//! configuration match on it) and to the working directory (messages).

use crate::source;
use std::path::{Path, PathBuf};

/// `path` relative to the (longest) scan root it lies under, `/`-separated;
/// the whole path when it lies under none.
pub(super) fn relative_to_root(path: &Path, roots: &[PathBuf]) -> String {
    if let [root] = roots
        && let Some(tail) = source::plain_tail(path, root)
    {
        return tail.to_string();
    }
    roots
        .iter()
        .filter_map(|r| path.strip_prefix(r).ok())
        .min_by_key(|rel| rel.components().count())
        // A root that is the file itself: its name.
        .filter(|rel| !rel.as_os_str().is_empty())
        .map_or_else(
            || match path.file_name() {
                Some(name) if roots.iter().any(|r| r == path) => {
                    source::display_path(Path::new(name))
                }
                _ => source::display_path(path),
            },
            source::display_path,
        )
}

/// A path as shown to users: relative to the working directory when below
/// it, as given otherwise.
pub(super) fn display(path: &Path, cwd: Option<&Path>) -> String {
    if let Some(tail) = cwd.and_then(|cwd| source::plain_tail(path, cwd)) {
        return tail.to_string();
    }
    if let Some(cwd) = cwd
        && let Ok(rel) = path.strip_prefix(cwd)
    {
        return source::display_path(rel);
    }
    source::display_path(path)
}
