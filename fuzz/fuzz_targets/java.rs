#![no_main]
//! Fuzz target `java`: see retrylint::robustness::java and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::java(data));
