//! The progress bar of `retrylint audit`: on stderr, only when stderr is a
//! terminal, `--quiet` is not given, and the scan has already taken
//! [`DELAY`]; a quick run or a redirected one prints nothing.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a scan runs before the bar appears.
pub const DELAY: Duration = Duration::from_millis(500);

pub struct Bar {
    bar: ProgressBar,
    start: Instant,
    delay: Duration,
    enabled: bool,
    shown: AtomicBool,
}

impl Bar {
    /// A bar that may appear on stderr when `enabled` (stderr is a terminal
    /// and the run is not quiet).
    pub fn new(enabled: bool) -> Self {
        Self::with_delay(enabled, DELAY)
    }

    pub fn with_delay(enabled: bool, delay: Duration) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template(
            "{spinner} scanning {pos}/{len} files [{bar:32}] {elapsed}",
        )
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        Bar {
            bar,
            start: Instant::now(),
            delay,
            enabled,
            shown: AtomicBool::new(false),
        }
    }

    /// Whether the bar has been put on stderr.
    pub fn shown(&self) -> bool {
        self.shown.load(Ordering::Relaxed)
    }

    fn maybe_show(&self) {
        if self.enabled
            && !self.shown.load(Ordering::Relaxed)
            && self.start.elapsed() >= self.delay
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Remove the bar (if shown) before anything else is printed.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    pub fn position(&self) -> u64 {
        self.bar.position()
    }
}

impl crate::Progress for Bar {
    fn found(&self, files: usize) {
        self.bar.set_length(files as u64);
        self.maybe_show();
    }
    fn read(&self) {
        self.bar.inc(1);
        self.maybe_show();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Progress;

    #[test]
    fn disabled_never_shows() {
        let b = Bar::with_delay(false, Duration::ZERO);
        b.found(3);
        b.read();
        assert!(!b.shown());
        assert_eq!(b.position(), 1);
    }

    #[test]
    fn a_quick_run_shows_nothing() {
        let b = Bar::with_delay(true, Duration::from_secs(3600));
        b.found(3);
        b.read();
        b.read();
        assert!(!b.shown());
        assert_eq!(b.position(), 2);
        b.finish();
    }

    #[test]
    fn a_slow_run_shows_the_bar() {
        let b = Bar::with_delay(true, Duration::ZERO);
        b.found(2);
        assert!(b.shown());
        b.read();
        b.finish();
    }
}
