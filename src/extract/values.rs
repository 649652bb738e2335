//! The values of names another file gives, for a second read of a file
//! (`link::values`), and the names a read could not give a number for.
//! Both are per thread: a reader is a pure function of its file and of
//! the values given around its call ([`with_given`]), as a gRPC service
//! config is read with grpc-go's rules around `as_grpc_go`.

use crate::model::values::ValueWant;
use std::cell::RefCell;
use std::collections::HashMap;

/// Names recorded by one read, at most.
pub const MAX_WANTS: usize = 32;

thread_local! {
    static GIVEN: RefCell<HashMap<String, Given>> = RefCell::new(HashMap::new());
    static WANTED: RefCell<Option<Vec<ValueWant>>> = const { RefCell::new(None) };
}

/// A value given to a name: a number, and whether it is a Go
/// `time.Duration` (then in nanoseconds) or a C# `TimeSpan` (then in
/// seconds).
pub type Given = (f64, bool);

/// The value given to `key` around this read, if any.
pub fn given(key: &str) -> Option<Given> {
    GIVEN.with(|g| g.borrow().get(key).copied())
}

/// Record that the read needs the value of a name (while [`collect`]
/// runs; at most [`MAX_WANTS`], each once).
pub fn want(w: ValueWant) {
    WANTED.with(|c| {
        if let Some(v) = c.borrow_mut().as_mut()
            && v.len() < MAX_WANTS
            && !v.contains(&w)
        {
            v.push(w);
        }
    });
}

/// Run `read` with `values` given to their names.
pub fn with_given<T>(values: HashMap<String, Given>, read: impl FnOnce() -> T) -> T {
    /// Puts the values given before back, also when `read` panics.
    struct Restore(Option<HashMap<String, Given>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take().unwrap_or_default();
            GIVEN.with(|g| g.replace(before));
        }
    }
    let _restore = Restore(Some(GIVEN.with(|g| g.replace(values))));
    read()
}

/// Run `read` and the names it wanted (in order).
pub fn collect<T>(read: impl FnOnce() -> T) -> (T, Vec<ValueWant>) {
    /// Puts the collection before back, also when `read` panics.
    struct Restore(Option<Option<Vec<ValueWant>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(before) = self.0.take() {
                WANTED.with(|c| c.replace(before));
            }
        }
    }
    let mut restore = Restore(Some(WANTED.with(|c| c.replace(Some(Vec::new())))));
    let out = read();
    let before = restore.0.take().unwrap_or_default();
    let wanted = WANTED.with(|c| c.replace(before)).unwrap_or_default();
    (out, wanted)
}
