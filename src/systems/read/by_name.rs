//! Which files are worth reading at all, from the name alone: the
//! prefilter in front of [`classify`](super::classify).

use super::{aws, nginx};
use std::path::Path;

/// Whether [`classify`] could claim a file with this path, whatever its
/// content: a superset of what it claims, decided from the name alone, so
/// that a file no extractor can want (`.md`, `.png`, `.lock`, `.java`,
/// `.py`, ...) is not even read.
pub fn wanted_by_name(path: &Path) -> bool {
    let Some(name) = path.file_name() else {
        return false;
    };
    // No allocation: this runs for every file of the tree.
    let name = name.as_encoded_bytes();
    let ends = |suffix: &[u8]| {
        name.len() >= suffix.len() && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
    };
    let has = |needle: &[u8]| {
        name.windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
    };
    let starts = |prefix: &[u8]| {
        name.len() >= prefix.len() && name[..prefix.len()].eq_ignore_ascii_case(prefix)
    };
    if [
        ".yml",
        ".yaml",
        ".json",
        ".properties",
        ".rs",
        ".py",
        ".cs",
        ".go",
        ".java",
        ".conf",
        ".nginx",
        ".vcl",
        ".tf",
    ]
    .iter()
    .any(|e| ends(e.as_bytes()))
        || ends(b".conf.template")
        // App Engine's `queue.xml` (`cloud_tasks::xml::claims`).
        || (ends(b".xml") && has(b"queue"))
        || name.eq_ignore_ascii_case(b"kustomization")
        // Templates, read as what they render to.
        || [".j2", ".jinja", ".jinja2", ".tmpl", ".gotmpl", ".tpl", ".template"]
            .iter()
            .any(|e| ends(e.as_bytes()))
        // Build files, for library versions (`build::kind_of`).
        || name.eq_ignore_ascii_case(b"pom.xml")
        || name.eq_ignore_ascii_case(b"build.gradle")
        || name.eq_ignore_ascii_case(b"build.gradle.kts")
        || name.eq_ignore_ascii_case(b"cargo.lock")
        || name.eq_ignore_ascii_case(b"directory.packages.props")
        || ends(b".versions.toml")
        || ends(b".csproj")
        || ends(b".conf.tmpl")
        // Dockerfiles and `.env` files setting the AWS SDK's variables.
        || name.eq_ignore_ascii_case(b"dockerfile")
        || starts(b"dockerfile.")
        || ends(b".dockerfile")
        || name == b".env"
        || starts(b"shared_config")
        || starts(b"shared_credentials")
        || (has(b"aws") && (has(b"config") || has(b"credentials")))
        || ((name.eq_ignore_ascii_case(b"config") || name.eq_ignore_ascii_case(b"credentials"))
            && aws::is_aws_path(path))
    {
        return true;
    }
    // nginx reads any file it is told to: the files of `sites-available`,
    // `sites-enabled` and `snippets` (Debian's layout) often have no
    // extension (`sites-available/default`, `snippets/proxy_params`).
    nginx::under_any_name_dir(path)
}
