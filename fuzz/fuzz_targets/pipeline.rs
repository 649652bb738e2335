#![no_main]
//! Fuzz target `pipeline`: see retrylint::robustness::pipeline and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::pipeline(data));
