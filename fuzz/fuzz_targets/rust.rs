#![no_main]
//! Fuzz target `rust`: see retrylint::robustness::rust and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::rust(data));
