//! Varnish Cache: the backend fetch retries a VCL asks for with
//! `return (retry)` in `vcl_backend_response` or `vcl_backend_error`, the
//! backends it fetches from (call edges) and their timeouts. Everything of
//! the system is in this folder: what it is ([`SPEC`]), its defaults, and
//! its reader ([`extract`]).

pub mod extract;

use super::{Fixes, SystemSpec};
use crate::model::Layer;
use std::time::Duration;

// system: Varnish
pub static SPEC: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "guard `return (retry)` with `if (bereq.retries < 2)`, or `set bereq.max_retries = 2;` (the `max_retries` parameter is 4 by default)",
        predicate: "`return (retry)` only for what another try can mend (a failure to connect in `vcl_backend_error`, a `503` the backend answered before it did any work), not for every response or fetch error",
        explicit: "write the retries you want explicitly (`set bereq.max_retries = ..;`, `if (bereq.retries < ..)`), so that they are visible and counted",
        overload: "stop retrying the backend's `503`/`429` in `vcl_backend_response` (or retry at most once, `if (bereq.retries < 1)`), and let a health probe take a failing backend out",
        ..Fixes::GENERIC
    },
    // A server of its own that reads this file.
    own_process: true,
    ..SystemSpec::plain("Varnish", Layer::Proxy)
};

/// VCL files are read by syntax (`.vcl`), not as documents.
pub const DOC_READERS: &[crate::extract::DocReader] = &[];

/// How many times a backend fetch may retry when neither the VCL
/// (`bereq.max_retries`) nor the command line sets it: varnish-cache
/// `include/tbl/params.h`, `max_retries`, def `"4"` ("Upper limit on how
/// many times a backend fetch can retry"), read per fetch in
/// `bin/varnishd/cache/cache_busyobj.c` (`bo->max_retries =
/// cache_param->max_retries`) and compared in `cache_fetch.c`
/// (`if (bo->retries++ < bo->max_retries) return (F_STP_RETRY)`), 8.0.
pub const DEFAULT_MAX_RETRIES: u64 = 4;

/// A backend's `.connect_timeout` when not written: varnish-cache
/// `include/tbl/params.h`, `connect_timeout`, def `"3.500"` seconds (8.0).
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_millis(3500);

/// A backend's `.first_byte_timeout` when not written: `params.h`,
/// `first_byte_timeout`, def `"60"` seconds (8.0).
pub const DEFAULT_FIRST_BYTE_TIMEOUT: Duration = Duration::from_secs(60);

/// A backend's `.between_bytes_timeout` when not written: `params.h`,
/// `between_bytes_timeout`, def `"60"` seconds (8.0).
pub const DEFAULT_BETWEEN_BYTES_TIMEOUT: Duration = Duration::from_secs(60);
