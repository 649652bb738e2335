#![no_main]
//! Fuzz target `extract`: see retrylint::robustness::extract_any and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::extract_any(data));
