//! Rust retry crates (backon, backoff, tokio-retry, reqwest-retry, ...)
//! and hand-written retry loops.

pub mod extract;

use super::{Fixes, SystemSpec};
use crate::model::Layer;

// system: RustLoop
pub static RUST_LOOP: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: super::java::LOOP_BOUND,
        predicate: "match the error and retry only transient ones (timeouts, connection errors); return the rest at once",
        ..Fixes::GENERIC
    },
    loop_body: true,
    ..SystemSpec::plain("Rust retry loop", Layer::Application)
};

pub static BACKON: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "call `.with_jitter()` on the builder",
        bound: "call `.with_max_times(3)` on the builder (or `with_total_delay(Some(..))`)",
        predicate: "add `.when(|e| e.is_transient())` to the retry",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("backon", Layer::Application)
};

pub static BACKOFF: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "set `max_elapsed_time: Some(..)` (its default is 15 minutes; `None` never stops)",
        predicate: "return `backoff::Error::permanent(e)` for errors that a retry cannot fix",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("backoff", Layer::Application)
};

pub static TOKIO_RETRY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "add `.map(jitter)` to the strategy",
        bound: "add `.take(3)` to the strategy iterator",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("tokio-retry", Layer::Application)
};

pub static RETRY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "add `.map(jitter)` to the delay iterator (`retry::delay::jitter`)",
        bound: "add `.take(3)` to the delay iterator",
        predicate: "return `OperationResult::Err(e)` for errors that a retry cannot fix and `OperationResult::Retry(e)` for transient ones",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("retry", Layer::Application)
};

pub static REQWEST_RETRY: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "use `.jitter(Jitter::Full)` or `Jitter::Bounded`",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("reqwest-retry", Layer::Application)
};

/// A retry crate with no words of its own here (`tower`, ...); its label
/// is the crate's name ([`crate::model::System::label`]).
pub static OTHER_CRATE: SystemSpec = SystemSpec::plain("Rust crate", Layer::Application);

/// The descriptor of the retry crate `name` (as the extractor names it).
pub fn crate_spec(name: &str) -> &'static SystemSpec {
    match name {
        "backon" => &BACKON,
        "backoff" => &BACKOFF,
        "tokio-retry" => &TOKIO_RETRY,
        "reqwest-retry" => &REQWEST_RETRY,
        "retry" => &RETRY,
        _ => &OTHER_CRATE,
    }
}

/// Rust is read by syntax (`.rs` files), not as documents.
pub const DOC_READERS: &[crate::extract::DocReader] = &[];
