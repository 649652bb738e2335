//! Stage timings for benchmarks (PERFORMANCE.md). With
//! `RETRYLINT_TIMINGS=1` each stage of a run prints to stderr when it
//! ended, counted from the start of the process
//! (`retrylint: timing walk 12.3 ms`), so that a scan's wall time splits
//! by stage; with `2`, each file extracted also prints its reader, size,
//! time and whether it gave any fact (`retrylint: timing-file 840 us
//! 36441 B Python empty scripts/x.py`): a file that costs a parse and
//! gives nothing is what a cheaper pre-pass could leave out. Off, a mark
//! is one load of a flag.

use crate::model::Facts;
use crate::model::Syntax;
use std::sync::LazyLock;
use std::time::Instant;

/// The first mark's clock: the process's start for the command line,
/// which calls [`start`] first.
static START: LazyLock<Instant> = LazyLock::new(Instant::now);

/// `RETRYLINT_TIMINGS`: 1 the stages, 2 also each file, 3 the stages
/// and the link stage's steps.
static LEVEL: LazyLock<u8> = LazyLock::new(|| {
    match std::env::var_os("RETRYLINT_TIMINGS")
        .as_deref()
        .and_then(|v| v.to_str())
    {
        Some("1") => 1,
        Some("2") => 2,
        Some("3") => 3,
        _ => 0,
    }
});

/// Start the clock (the command line's first step).
pub fn start() {
    if *LEVEL > 0 {
        LazyLock::force(&START);
    }
}

/// Print that `stage` ended now, when timings are on.
pub fn mark(stage: &str) {
    if *LEVEL > 0 {
        let ms = START.elapsed().as_secs_f64() * 1000.0;
        eprintln!("retrylint: timing {stage} {ms:.1} ms");
    }
}

/// Run the link stage's step `name`, printing how long it took when the
/// steps are timed.
pub fn step<R>(name: &str, run: impl FnOnce() -> R) -> R {
    if *LEVEL != 3 {
        return run();
    }
    let started = Instant::now();
    let out = run();
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    eprintln!("retrylint: timing-step {name} {ms:.1} ms");
    out
}

/// Run `extract` on one file's `text`, printing what it cost when each
/// file is timed.
pub(crate) fn extracting(
    shown: &str,
    syntax: Syntax,
    text: &str,
    extract: impl FnOnce() -> Facts,
) -> Facts {
    if *LEVEL != 2 {
        return extract();
    }
    let started = Instant::now();
    let facts = extract();
    let us = started.elapsed().as_micros();
    let kept = if facts.is_empty() { "empty" } else { "facts" };
    let bytes = text.len();
    eprintln!("retrylint: timing-file {us} us {bytes} B {syntax:?} {kept} {shown}");
    facts
}
