#![no_main]
//! Fuzz target `numbers`: see retrylint::robustness::numbers and
//! docs/FUZZING.md. Fails on time (a scan slower than
//! `numbers::TIME_LIMIT`), not only on a panic.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::numbers::fuzz(data));
