#![no_main]
//! Fuzz target `nginx`: see retrylint::robustness::nginx and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::nginx(data));
