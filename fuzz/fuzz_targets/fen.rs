//! FEN parser: any bytes; an accepted position must be sound (see `check_fen`).
#![no_main]

#[path = "../../tests/support/fuzz_checks.rs"]
#[allow(dead_code)] // each target uses its half
mod fuzz_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_checks::check_fen(data));
