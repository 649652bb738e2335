//! Time and panic guards: no input may stall a scan, and one bug may not
//! silence the rest of it.
//!
//! Each stage of a scan (the extraction of one file, linking, the graph,
//! each rule) runs under [`run`], which catches a panic and gives the stage
//! a deadline. A thread cannot be preempted, so the long loops call
//! [`checkpoint`], which looks at the clock every [`TICK`] calls and, past
//! the deadline, unwinds the stage (without the panic hook's message);
//! [`expired`] asks the same without unwinding, for a loop that must end on
//! its own (a parser's progress callback called from C). The deadline is a
//! backstop: every quantity derived from an attempt count is closed-form or
//! capped (`model::backoff`), so no ordinary input comes near it.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::time::{Duration, Instant};

/// The budget of one file's extraction, plus [`PER_MIB`] per MiB of text
/// ([`file_budget`]). Real files take milliseconds; a backstop must not
/// fire on a large file in a debug build on a loaded machine (a 4 MiB
/// stream of 20,000 YAML documents took over 10 s there).
pub const FILE_BUDGET: Duration = Duration::from_secs(10);
/// See [`FILE_BUDGET`].
pub const PER_MIB: Duration = Duration::from_secs(10);
/// The budget of a whole-scan stage (linking, the graph) and of one rule
/// over the whole scan.
pub const STAGE_BUDGET: Duration = Duration::from_secs(120);
/// Calls of [`checkpoint`] between two looks at the clock.
pub const TICK: u32 = 256;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static TICKS: Cell<u32> = const { Cell::new(0) };
}

/// The unwind payload of a stage stopped at its deadline.
struct Overrun;

/// Why a stage did not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// Stopped at its deadline, after this long.
    Overrun(Duration),
    /// Panicked with this message (a bug).
    Panic(String),
}

impl Stop {
    /// "took longer than `10s`" / "panicked: ..." for a notice.
    pub fn describe(&self) -> String {
        match self {
            Stop::Overrun(after) => format!(
                "stopped after `{}`, over its time budget",
                crate::duration::human(*after)
            ),
            Stop::Panic(msg) => format!("panicked: {msg}"),
        }
    }
}

/// The budget of extracting a file of `len` bytes.
pub fn file_budget(len: usize) -> Duration {
    FILE_BUDGET.saturating_add(PER_MIB.saturating_mul((len >> 20) as u32))
}

/// The budget actually given: `budget`, or in debug builds the
/// `RETRYLINT_TEST_BUDGET_MS` test seam.
pub fn budget(budget: Duration) -> Duration {
    #[cfg(debug_assertions)]
    if let Some(ms) = seam().budget_ms {
        return Duration::from_millis(ms);
    }
    budget
}

/// Run `f` with a deadline `budget` from now (or the caller's, if that is
/// sooner), catching a panic.
pub fn run<T>(budget: Duration, f: impl FnOnce() -> T) -> Result<T, Stop> {
    let start = Instant::now();
    let outer = DEADLINE.get();
    let mine = start.checked_add(budget);
    let deadline = match (outer, mine) {
        (Some(o), Some(m)) => Some(o.min(m)),
        (o, m) => o.or(m),
    };
    DEADLINE.set(deadline);
    let result = catch_unwind(AssertUnwindSafe(f));
    DEADLINE.set(outer);
    result.map_err(|payload| {
        if payload.is::<Overrun>() {
            Stop::Overrun(start.elapsed())
        } else {
            Stop::Panic(panic_message(payload.as_ref()))
        }
    })
}

/// The message of a panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Unwind the current stage if its deadline has passed (looked at every
/// [`TICK`] calls). Never call it from a callback that C code calls.
#[inline]
pub fn checkpoint() {
    let t = TICKS.get().wrapping_add(1);
    TICKS.set(t);
    if t.is_multiple_of(TICK) && expired() {
        resume_unwind(Box::new(Overrun));
    }
}

/// Unwind the current stage now if its deadline has passed.
pub fn stop_if_expired() {
    if expired() {
        resume_unwind(Box::new(Overrun));
    }
}

/// Whether the current stage's deadline has passed.
pub fn expired() -> bool {
    DEADLINE.get().is_some_and(|d| Instant::now() >= d)
}

/// A test seam (debug builds only): `RETRYLINT_TEST_FAULT=panic:<stage>`
/// or `stall:<stage>` makes the stage named `<stage>` (`file:<name>`,
/// `link`, `graph`, `rule:<code>`) panic, or loop until its deadline, as a
/// bug would.
pub fn inject(stage: &str) {
    #[cfg(debug_assertions)]
    {
        let Some((what, at)) = seam().fault.as_ref() else {
            return;
        };
        if at != stage {
            return;
        }
        if what == "panic" {
            panic!("injected panic (RETRYLINT_TEST_FAULT) in {stage}");
        }
        if what == "stall" && DEADLINE.get().is_some() {
            loop {
                checkpoint();
            }
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = stage;
}

#[cfg(debug_assertions)]
struct Seam {
    fault: Option<(String, String)>,
    budget_ms: Option<u64>,
}

#[cfg(debug_assertions)]
fn seam() -> &'static Seam {
    static SEAM: std::sync::OnceLock<Seam> = std::sync::OnceLock::new();
    SEAM.get_or_init(|| Seam {
        fault: std::env::var("RETRYLINT_TEST_FAULT").ok().and_then(|v| {
            v.split_once(':')
                .map(|(a, b)| (a.to_string(), b.to_string()))
        }),
        budget_ms: std::env::var("RETRYLINT_TEST_BUDGET_MS")
            .ok()
            .and_then(|v| v.parse().ok()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_with_checkpoints_stops_at_its_deadline() {
        let start = Instant::now();
        let r: Result<(), Stop> = run(Duration::from_millis(50), || {
            loop {
                checkpoint();
            }
        });
        assert!(matches!(r, Err(Stop::Overrun(_))), "{r:?}");
        assert!(start.elapsed() < Duration::from_secs(5));
        // The deadline is gone once the stage is over.
        assert!(!expired());
    }

    #[test]
    fn a_panic_is_caught_and_a_finished_stage_returns_its_value() {
        let r: Result<(), Stop> = run(Duration::from_secs(5), || panic!("boom"));
        assert_eq!(r, Err(Stop::Panic("boom".into())));
        assert_eq!(run(Duration::from_secs(5), || 7), Ok(7));
    }

    #[test]
    fn an_inner_stage_keeps_the_sooner_outer_deadline() {
        let r = run(Duration::from_millis(30), || {
            run(Duration::from_secs(3600), || {
                loop {
                    checkpoint();
                }
            })
        });
        assert!(matches!(r, Ok(Err(Stop::Overrun(_)))), "{r:?}");
    }
}
