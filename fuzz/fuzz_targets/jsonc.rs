#![no_main]
//! Fuzz target `jsonc`: see retrylint::robustness::jsonc and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::jsonc(data));
