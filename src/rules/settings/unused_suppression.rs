//! RL904 unused-suppression: a suppression comment or configuration entry
//! that silences nothing. Reported by the suppression pass
//! ([`crate::suppress`]); this module holds its messages.

use crate::rules::{self, Check};

pub const CHECK: Check = Check::Suppression;
pub const CODE: rules::Code = rules::Code::RL904;

/// The help of a comment that is not a valid directive.
pub const MALFORMED_HELP: &str =
    "write `retrylint: ignore[RL203] reason` or `retrylint: ignore-file[RL203] reason`";

/// Where a comment reaches, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    ThisLine,
    NextLine,
    File,
}

/// A code of a comment that silenced nothing.
pub fn unused_code(code: &str, place: Place) -> (String, String) {
    if rules::lookup(code).is_none() {
        let hint = rules::did_you_mean(code, rules::RULES.iter().flat_map(|r| [r.code, r.name]))
            .map(|s| format!("; did you mean `{s}`?"))
            .unwrap_or_default();
        return (
            format!("`{code}` in this suppression is no rule"),
            format!("name a rule code or name (`retrylint rules` lists them){hint}"),
        );
    }
    let place = match place {
        Place::ThisLine => "on this line",
        Place::NextLine => "on the next line",
        Place::File => "in this file",
    };
    (
        format!("suppression of `{code}` silences nothing {place}"),
        "remove the code from the suppression; the problem it silenced is gone or moved".into(),
    )
}

/// A code of a `[[per-file-ignores]]` entry that silenced nothing.
pub fn unused_entry(code: &str) -> (String, String) {
    (
        format!("`[[per-file-ignores]]` entry for `{code}` silences nothing"),
        "remove the entry or fix its `paths`: no finding of this rule is in the files they match"
            .into(),
    )
}
