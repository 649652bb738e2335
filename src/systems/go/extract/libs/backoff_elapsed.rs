//! cenkalti/backoff's `Retry` elapsed-time default from v5 on, which is
//! an option of `Retry` (`WithMaxElapsedTime`), its default read by the
//! version of the module the nearest `go.mod` requires
//! ([`crate::systems::go::BACKOFF_V5_MAX_ELAPSED_FROM`]): a version
//! whose source was not read, or a module whose version is not known,
//! leaves the limit unknown rather than guessed.

use super::super::{Ctx, field};
use crate::extract::values;
use crate::model::values::ValueWant;
use crate::systems::go as sys;
use std::time::Duration;

/// The default `MaxElapsedTime` of `Retry` for the file's import of
/// cenkalti/backoff v5 or later; `Duration::MAX` when not known.
pub fn retry_default(ctx: &Ctx<'_>) -> Duration {
    let Some(path) = ctx.import_specs.iter().find_map(|s| {
        let p = ctx.text(field(*s, "path")?).trim_matches(['"', '`']);
        p.starts_with("github.com/cenkalti/backoff/v").then_some(p)
    }) else {
        return Duration::MAX;
    };
    let major: u32 = path
        .strip_prefix("github.com/cenkalti/backoff/v")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if major >= 6 {
        return sys::BACKOFF_V6_MAX_ELAPSED;
    }
    let key = format!("go.mod {path}");
    match values::given(&key) {
        Some((v, _)) if v >= sys::BACKOFF_V5_MAX_ELAPSED_FROM => sys::BACKOFF_V5_MAX_ELAPSED,
        Some(_) => Duration::MAX,
        None => {
            values::want(ValueWant::GoModule {
                key,
                module: path.to_string(),
            });
            Duration::MAX
        }
    }
}
