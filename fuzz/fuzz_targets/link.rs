#![no_main]
//! Fuzz target `link`: see retrylint::robustness::link and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::link(data));
