#![no_main]
//! Fuzz target `nginx_lexer`: see retrylint::robustness::nginx_lexer and docs/FUZZING.md.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| retrylint::robustness::nginx_lexer(data));
