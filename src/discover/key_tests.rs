//! [`super::path_key`] orders and equates paths as `Path` does.

use super::path_key;
use proptest::prelude::*;
use std::path::Path;

/// Paths over the bytes where a byte order and a component order part:
/// `/` between names, `.` and `..`, bytes below and above `/`, repeated
/// and trailing slashes, a root.
fn path() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("/"),
            Just("."),
            Just(".."),
            Just("-"),
            Just("a"),
            Just("a.b"),
            Just("A"),
            Just("0"),
            Just(" "),
            Just("é"),
        ],
        0..8,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]
    #[test]
    fn the_key_orders_as_paths_do(a in path(), b in path()) {
        let (pa, pb) = (Path::new(&a), Path::new(&b));
        prop_assert_eq!(path_key(pa).cmp(&path_key(pb)), pa.cmp(pb), "{:?} {:?}", a, b);
    }
}

#[test]
fn the_places_where_bytes_and_components_part() {
    let paths = [
        "/", "/a", "/a/b", "/a.b", "/a//c", "/a/./d", "/a-b", ".", "./..", "..", "-x", "a", "a/",
        "a/b", "a.b", "a.b/c", "ab",
    ];
    for (i, a) in paths.iter().enumerate() {
        for b in &paths[i..] {
            let (pa, pb) = (Path::new(a), Path::new(b));
            assert_eq!(path_key(pa).cmp(&path_key(pb)), pa.cmp(pb), "{a} {b}");
        }
    }
}
