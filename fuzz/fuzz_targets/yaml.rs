#![no_main]
//! Fuzz target `yaml`: see retrylint::robustness::yaml and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::yaml(data));
