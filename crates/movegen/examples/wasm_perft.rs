//! Perft for WebAssembly: a `cdylib` whose exports a JavaScript host calls
//! (`examples/wasm_perft.mjs` runs it under Node and checks the counts).
//!
//! ```text
//! cargo build -p pinmask-movegen --release --example wasm_perft --target wasm32-unknown-unknown
//! node crates/movegen/examples/wasm_perft.mjs target/wasm32-unknown-unknown/release/examples/wasm_perft.wasm
//! ```

use movegen::perft::{perft, Perft};
use movegen::Position;

/// Perft `depth` from the start position.
#[no_mangle]
pub extern "C" fn perft_start(depth: u32) -> u64 {
    perft(&Position::startpos(), depth)
}

/// Perft `depth` from the start position split over `threads` threads; on
/// `wasm32-unknown-unknown`, which has none, it counts on the calling thread.
#[no_mangle]
pub extern "C" fn perft_parallel_start(depth: u32, threads: u32) -> u64 {
    Perft::new(depth)
        .threads(threads as usize)
        .count(&Position::startpos())
}

/// `len` bytes of this module's memory for the host to write a FEN into;
/// [`perft_fen`] frees them.
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len);
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Perft `depth` from the FEN in the `len` bytes at `ptr` (from [`alloc`]
/// with the same `len`), or -1 if it is not a valid FEN.
///
/// # Safety
/// `ptr` must come from `alloc(len)` and hold `len` initialised bytes; it
/// is freed here.
#[no_mangle]
pub unsafe extern "C" fn perft_fen(ptr: *mut u8, len: usize, depth: u32) -> i64 {
    // SAFETY: the caller passes back a buffer of `alloc(len)` that it filled.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len) };
    match std::str::from_utf8(&bytes).ok().map(Position::from_fen) {
        Some(Ok(pos)) => perft(&pos, depth) as i64,
        _ => -1,
    }
}
