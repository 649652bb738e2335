//! What a scan did not read, said as notices: call targets that could not
//! be resolved (the unread files' notice is [`crate::extract::unread`]'s).

use crate::model::ScannedFile;

/// Every unresolved call target of the scanned files, as `path:line`,
/// what was written and the calling service where it is known, sorted.
pub(crate) fn unresolved(files: &[ScannedFile]) -> Vec<(String, String, Option<String>)> {
    let mut unresolved: Vec<(String, String, Option<String>)> = files
        .iter()
        .flat_map(|f| {
            f.facts.unresolved.iter().map(|u| {
                (
                    format!(
                        "{}:{}",
                        f.source.display_path(),
                        f.source.line_col(u.span.start).line
                    ),
                    u.written.clone(),
                    u.caller.clone(),
                )
            })
        })
        .collect();
    unresolved.sort();
    unresolved
}

/// The notice for unresolved call targets: the first eight and a count.
pub(crate) fn unresolved_message(
    unresolved: &[(String, String, Option<String>)],
) -> Option<String> {
    if unresolved.is_empty() {
        return None;
    }
    let n = unresolved.len();
    let shown: Vec<String> = unresolved
        .iter()
        .take(8)
        .map(|(at, w, caller)| match caller {
            Some(c) => format!("`{w}` ({at}, from `{c}`)"),
            None => format!("`{w}` ({at})"),
        })
        .collect();
    let more = n - shown.len();
    Some(format!(
        "{n} call target{} could not be resolved and {} not on the graph: {}{}",
        if n == 1 { "" } else { "s" },
        if n == 1 { "is" } else { "are" },
        shown.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    ))
}
