//! The model's `skip_serializing_if`: a field left empty (an empty list,
//! no value, `false`) is left out of the JSON output, as before, but
//! written in the facts cache ([`crate::cache`]), whose MessagePack
//! writes a struct as an array of its fields in order, without their
//! names: a field left out there would shift every field after it.
//! Reading each struct's field names back was most of decoding a warm
//! run's cached facts (`Raw::decode`, PERFORMANCE.md, "Stop 47").

use std::cell::Cell;

thread_local! {
    static EVERY_FIELD: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with no field skipped on this thread (the cache's encoding).
pub fn every_field<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            EVERY_FIELD.set(self.0);
        }
    }
    let _reset = Reset(EVERY_FIELD.replace(true));
    f()
}

/// A value a field may be left out for.
pub trait Empty {
    fn is_empty_value(&self) -> bool;
}

impl<T> Empty for Vec<T> {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl<T> Empty for Option<T> {
    fn is_empty_value(&self) -> bool {
        self.is_none()
    }
}

impl Empty for bool {
    fn is_empty_value(&self) -> bool {
        !*self
    }
}

impl Empty for super::calls::Placement {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl Empty for super::ingress_links::IngressLinks {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

/// `skip_serializing_if = "crate::model::skip::empty"`: `v` is empty and
/// this is not the cache's encoding.
pub fn empty<T: Empty>(v: &T) -> bool {
    v.is_empty_value() && !EVERY_FIELD.get()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_fields_are_skipped_except_in_every_field_and_after_it() {
        assert!(empty(&Vec::<u8>::new()));
        assert!(empty(&None::<u8>));
        assert!(empty(&false));
        assert!(!empty(&vec![1]));
        assert!(!empty(&true));
        every_field(|| {
            assert!(!empty(&Vec::<u8>::new()));
            assert!(!empty(&None::<u8>));
            every_field(|| assert!(!empty(&false)));
            // The inner call restores the outer's setting, not the default.
            assert!(!empty(&false));
        });
        assert!(empty(&false));
        // A panic inside resets it too.
        let _ = std::panic::catch_unwind(|| every_field(|| panic!("inside")));
        assert!(empty(&None::<u8>));
    }

    /// A model field skipped by anything else (`Option::is_none`,
    /// `std::ops::Not::not`) is left out of the cache's positional
    /// MessagePack too, and shifts every field after it: the entry no
    /// longer decodes and each warm run parses the file again (a
    /// `Placement` with `own_command` but no `object` did).
    #[test]
    fn every_skipped_model_field_is_skipped_by_empty() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/model");
        let mut wrong = Vec::new();
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            for (i, line) in text.lines().enumerate() {
                if let Some(at) = line.find("skip_serializing_if = \"") {
                    seen += 1;
                    let f = &line[at + "skip_serializing_if = \"".len()..];
                    if !f.starts_with("crate::model::skip::empty\"") {
                        wrong.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                    }
                }
            }
        }
        assert!(
            seen > 20,
            "the model's skipped fields were not found in {}",
            dir.display()
        );
        assert!(
            wrong.is_empty(),
            "use crate::model::skip::empty:\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn a_placement_with_a_late_field_set_survives_the_cache_encoding() {
        let p = crate::model::calls::Placement {
            own_command: true,
            mounts: vec!["./nginx.conf".into()],
            ..Default::default()
        };
        let bytes = every_field(|| rmp_serde::to_vec(&p).unwrap());
        let back: crate::model::calls::Placement = rmp_serde::from_slice(&bytes).unwrap();
        assert_eq!(back, p);
    }
}
