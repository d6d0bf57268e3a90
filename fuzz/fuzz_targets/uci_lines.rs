//! UCI command handler: any bytes, split into lines and fed to one engine that
//! lives across inputs (starting its search thread per input would dominate).
#![no_main]

#[path = "../../tests/support/fuzz_checks.rs"]
#[allow(dead_code)] // each target uses its half
mod fuzz_checks;

use std::sync::{Mutex, OnceLock};
use uci::Engine;

static ENGINE: OnceLock<Mutex<Engine>> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let engine = ENGINE.get_or_init(|| Mutex::new(fuzz_checks::silent_engine()));
    let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
    fuzz_checks::feed_uci(&mut engine, data);
});
