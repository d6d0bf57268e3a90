// Loads the wasm_perft example (built for wasm32-unknown-unknown) and
// checks perft counts against the published ones; exits non-zero on a
// mismatch. Usage: node wasm_perft.mjs path/to/wasm_perft.wasm
import { readFileSync } from "node:fs";

const path = process.argv[2];
const { instance } = await WebAssembly.instantiate(readFileSync(path), {});
const wasm = instance.exports;

function check(name, got, want) {
    if (got !== want) {
        console.error(`${name}: ${got}, expected ${want}`);
        process.exit(1);
    }
    console.log(`${name}: ${got}`);
}

let start = performance.now();
check("perft 5 from the start position", wasm.perft_start(5), 4865609n);
console.log(`  ${(performance.now() - start).toFixed(1)} ms`);
// No threads on wasm32-unknown-unknown: this must count, not trap.
check("perft_parallel 4 (2 threads asked)", wasm.perft_parallel_start(4, 2), 197281n);

const fen = new TextEncoder().encode(
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
let ptr = wasm.alloc(fen.length);
new Uint8Array(wasm.memory.buffer, ptr, fen.length).set(fen);
check("perft 3 from Kiwipete", wasm.perft_fen(ptr, fen.length, 3), 97862n);
const bad = new TextEncoder().encode("not a fen");
ptr = wasm.alloc(bad.length);
new Uint8Array(wasm.memory.buffer, ptr, bad.length).set(bad);
check("a bad FEN", wasm.perft_fen(ptr, bad.length, 3), -1n);
