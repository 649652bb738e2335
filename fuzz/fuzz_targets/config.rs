#![no_main]
//! Fuzz target `config`: see retrylint::robustness::config and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::config(data));
