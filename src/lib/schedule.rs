//! Large files first (issue 27, item 3). A scan reads in two passes: the
//! first reads and sniffs every file (cheap, about the same per file), the
//! second extracts the files some reader wants, whose cost grows with
//! their size. Handed to the thread pool in path order, a large file met
//! last leaves one thread parsing it while the others wait (the run's
//! tail); taken longest first from one queue, every thread stays busy
//! until the small files at the end (the greedy longest-processing-time
//! order), and no thread waits for the slowest file after the others end.

use super::{Read, cache, discover, display, extract_text, relative_to_root};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// `read` under a panic guard: a panic (a bug in a reader) becomes the
/// file's internal error, with its message, and the scan goes on.
pub(super) fn guarded(shown: &str, read: impl FnOnce() -> Read) -> Read {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)) {
        Ok(r) => r,
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Read::Internal(shown.to_string(), msg)
        }
    }
}

/// The second pass: each [`Read::Text`] of `reads` (one per file of
/// `files`) extracted, the longest texts first; the other reads as they
/// are.
pub(super) fn extract(
    mut reads: Vec<Read>,
    files: &[discover::Candidate],
    roots: &[PathBuf],
    cwd: Option<&Path>,
    cache: &cache::Cache,
) -> Vec<Read> {
    type Text = (
        usize,
        String,
        crate::extract::Syntax,
        crate::systems::Sniffed,
    );
    let texts: Vec<Text> = reads
        .iter_mut()
        .enumerate()
        .filter_map(|(i, r)| match std::mem::replace(r, Read::Skipped) {
            Read::Text(t, syntax, sniffed) => Some((i, t, syntax, sniffed)),
            other => {
                *r = other;
                None
            }
        })
        .collect();
    let at: Vec<usize> = texts.iter().map(|(i, ..)| *i).collect();
    let done = largest_first(
        texts,
        |(_, t, _, _)| t.len(),
        |(i, text, syntax, sniffed)| {
            let path = &files[i].path;
            let shown = display(path, cwd);
            let relative = relative_to_root(path, roots);
            guarded(&shown, || {
                extract_text(path, &relative, &shown, text, syntax, cache, Some(sniffed))
            })
        },
    );
    for (i, r) in at.into_iter().zip(done) {
        reads[i] = r;
    }
    reads
}

/// `work` applied to each item on the thread pool, the items taken from
/// one queue in decreasing `cost` (ties in input order); the results in
/// input order, so that the scan stays deterministic.
pub(crate) fn largest_first<T: Send, R: Send>(
    items: Vec<T>,
    cost: impl Fn(&T) -> usize,
    work: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    use rayon::prelude::*;
    let n = items.len();
    let mut order: Vec<(usize, T)> = items.into_iter().enumerate().collect();
    // Stable: equal costs keep their order.
    order.sort_by_key(|(_, t)| std::cmp::Reverse(cost(t)));
    let queue = Mutex::new(order.into_iter());
    let next = || queue.lock().unwrap_or_else(|p| p.into_inner()).next();
    let workers = rayon::current_num_threads().clamp(1, n.max(1));
    let mut done: Vec<(usize, R)> = (0..workers)
        .into_par_iter()
        .flat_map_iter(|_| {
            let mut out = Vec::new();
            while let Some((i, t)) = next() {
                out.push((i, work(t)));
            }
            out
        })
        .collect();
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::largest_first;
    use std::sync::Mutex;

    #[test]
    fn results_come_back_in_input_order() {
        let items: Vec<usize> = (0..1000).map(|i| (i * 7919) % 1000).collect();
        let out = largest_first(items.clone(), |&x| x, |x| x * 2);
        assert_eq!(out, items.iter().map(|x| x * 2).collect::<Vec<_>>());
    }

    #[test]
    fn the_largest_items_are_started_first() {
        // On one thread the start order is the queue's order exactly.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let started = Mutex::new(Vec::new());
        pool.install(|| {
            largest_first(
                vec![3, 10, 1, 10, 7],
                |&x| x,
                |x| started.lock().unwrap().push(x),
            )
        });
        assert_eq!(started.into_inner().unwrap(), vec![10, 10, 7, 3, 1]);
    }

    #[test]
    fn no_items_no_work() {
        let out: Vec<u8> = largest_first(Vec::<u8>::new(), |_| 0, |x| x);
        assert!(out.is_empty());
    }
}
