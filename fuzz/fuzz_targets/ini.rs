#![no_main]
//! Fuzz target `ini`: see retrylint::robustness::ini and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::ini(data));
