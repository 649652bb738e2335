#![no_main]
//! Fuzz target `properties`: see retrylint::robustness::properties and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::properties(data));
