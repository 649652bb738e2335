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
//!
//! A budget is spent in the stage's own work: the CPU time of the thread
//! running it (on Linux and macOS; the wall clock elsewhere), not the time
//! the thread waited while other processes had the processor. On a busy
//! machine (two cores shared by several jobs, or a scan under valgrind
//! beside them) a wall-clock budget cut kubeflow/manifests' link stage
//! after 120 s in some runs and not in others, so that the same scan did
//! different work (49 or 47 Kustomize overlays built, the ConfigMap step
//! run or not). The CPU clock is a system call: a stage reads it the
//! first time it looks at its deadline (a stage too short to look costs
//! nothing), then only once the cheap wall clock says the budget could
//! have been spent, as a thread's CPU time grows no faster than it
//! ([`expired`]).

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
    static DEADLINE: Cell<Option<Deadline>> = const { Cell::new(None) };
    static TICKS: Cell<u32> = const { Cell::new(0) };
}

/// Where a stage's budget ends on its thread.
#[derive(Clone, Copy, Debug)]
struct Deadline {
    /// No sooner than this instant (the budget from the stage's start, or
    /// later where the thread is known to have waited): before it, the
    /// budget cannot have been spent, and the CPU clock is not read.
    wall: Instant,
    /// What the thread's CPU clock says of the budget.
    cpu: Cpu,
}

/// A stage's budget on its thread's CPU clock. The clock is a system call
/// (a policy rule's stage is one of hundreds of thousands in a large
/// scan), so it is read the first time the stage looks at its deadline,
/// not when it starts: a stage too short to look costs nothing.
#[derive(Clone, Copy, Debug)]
enum Cpu {
    /// Not read yet: the stage started at this instant with this budget.
    Unread(Instant, Duration),
    /// The thread's CPU time at which the budget is spent.
    Ends(Duration),
    /// No CPU clock here: the wall clock decides.
    Wall,
}

impl Deadline {
    /// `budget` from `start` (`None`: too far to be represented, no
    /// deadline).
    fn after(start: Instant, budget: Duration) -> Option<Deadline> {
        Some(Deadline {
            wall: start.checked_add(budget)?,
            cpu: Cpu::Unread(start, budget),
        })
    }

    /// The deadline with its CPU clock read (at `now`). Time before the
    /// first read counts as spent, waited or not: the first look comes
    /// early in any stage long enough to matter (a few hundred
    /// checkpoints in).
    fn read(self, now: Instant) -> Deadline {
        let Cpu::Unread(start, budget) = self.cpu else {
            return self;
        };
        let left = budget.saturating_sub(now.saturating_duration_since(start));
        let cpu = match thread_cpu().and_then(|used| used.checked_add(left)) {
            Some(end) => Cpu::Ends(end),
            None => Cpu::Wall,
        };
        Deadline { cpu, ..self }
    }

    /// Whether the budget is spent at `now` (the CPU clock read if the
    /// wall clock says it may be), with the deadline as it now stands.
    fn spent(self, now: Instant) -> (bool, Deadline) {
        let d = self.read(now);
        if now < d.wall {
            return (false, d);
        }
        let Cpu::Ends(end) = d.cpu else {
            return (true, d);
        };
        let Some(used) = thread_cpu() else {
            return (true, d);
        };
        if used >= end {
            return (true, d);
        }
        // The thread waited while others ran: the budget is not spent,
        // and cannot be before what is left of it has passed on the wall
        // clock.
        (
            false,
            Deadline {
                wall: now + (end - used),
                ..d
            },
        )
    }
}

/// The CPU time the calling thread has used, where the system tells it.
#[cfg(any(target_os = "linux", target_os = "macos"))]
fn thread_cpu() -> Option<Duration> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Some(Duration::new(
        u64::try_from(t.tv_sec).ok()?,
        u32::try_from(t.tv_nsec).ok()?,
    ))
}

/// The CPU time the calling thread has used, where the system tells it.
#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn thread_cpu() -> Option<Duration> {
    None
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
    // The outer stage's clock read now, so that its budget is not charged
    // for the time this one waits (its copy is put back after).
    let outer = DEADLINE.get().map(|d| d.read(start));
    let mine = Deadline::after(start, budget);
    // The sooner of the two on the wall clock is in force (an outer one
    // goes on with its own measure).
    let outer_rules = match (outer, mine) {
        (Some(o), Some(m)) => o.wall <= m.wall,
        (o, _) => o.is_some(),
    };
    DEADLINE.set(if outer_rules { outer } else { mine });
    let result = catch_unwind(AssertUnwindSafe(f));
    let in_force = DEADLINE.get();
    DEADLINE.set(if outer_rules { in_force } else { outer });
    result.map_err(|payload| {
        if payload.is::<Overrun>() {
            // What the stage spent by the budget's own measure: the
            // thread's CPU time since its clock was first read, plus the
            // time before (as the budget counted it).
            let spent = match in_force.map(|d| d.cpu) {
                Some(Cpu::Ends(end)) if !outer_rules => {
                    thread_cpu().map(|used| budget.saturating_add(used).saturating_sub(end))
                }
                _ => None,
            };
            Stop::Overrun(spent.unwrap_or_else(|| start.elapsed()))
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

/// Whether the current stage's deadline has passed: its thread has used
/// its budget of CPU time (the wall clock where there is no CPU clock).
pub fn expired() -> bool {
    let Some(d) = DEADLINE.get() else {
        return false;
    };
    let (spent, d) = d.spent(Instant::now());
    DEADLINE.set(Some(d));
    spent
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

    /// Time the thread spends waiting (as under load, when other processes
    /// have the processor) is not the stage's: a stage that slept past its
    /// budget and then worked a little is not cut, so that a scan does the
    /// same work on a busy machine as on an idle one. (With a wall-clock
    /// budget the first checkpoint after the sleep unwound the stage.)
    #[test]
    #[cfg(any(target_os = "linux", target_os = "macos"))]
    fn time_the_thread_waited_is_not_spent_from_its_budget() {
        let r = run(Duration::from_millis(100), || {
            assert!(!expired());
            std::thread::sleep(Duration::from_millis(250));
            let mut sum = 0u64;
            for i in 0..10 * u64::from(TICK) {
                checkpoint();
                sum = sum.wrapping_add(std::hint::black_box(i));
            }
            assert!(!expired());
            sum
        });
        assert!(r.is_ok(), "{r:?}");
        // Work itself is still cut at its budget, after a wait too, and
        // the stop says what it spent.
        let start = Instant::now();
        let r: Result<(), Stop> = run(Duration::from_millis(50), || {
            assert!(!expired());
            std::thread::sleep(Duration::from_millis(100));
            loop {
                checkpoint();
            }
        });
        match r {
            Err(Stop::Overrun(spent)) => assert!(
                spent >= Duration::from_millis(50) && spent < Duration::from_secs(5),
                "{spent:?}"
            ),
            other => panic!("{other:?}"),
        }
        assert!(start.elapsed() >= Duration::from_millis(150));
        assert!(!expired());
    }

    /// An inner stage's own, sooner deadline ends it alone: the outer
    /// stage's deadline is in force again after it.
    #[test]
    fn an_inner_stage_with_the_sooner_deadline_ends_alone() {
        let r = run(Duration::from_secs(3600), || {
            let inner: Result<(), Stop> = run(Duration::from_millis(30), || {
                loop {
                    checkpoint();
                }
            });
            assert!(!expired());
            inner
        });
        assert!(matches!(r, Ok(Err(Stop::Overrun(_)))), "{r:?}");
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
