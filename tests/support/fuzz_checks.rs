//! What the fuzz targets in `fuzz/` do with one input, shared with
//! `tests/fuzz_regressions.rs` so every committed seed and crash input is
//! replayed by `cargo test` on stable.

use movegen::{CastlingMode, Position};
use std::io;
use uci::{parse_go, parse_line, Command, Engine, UciOptions};

/// Parses `data` as a FEN; if accepted, checks that the position is sound:
/// its FEN parses back to the same position, the key is right, and every legal
/// move round-trips through UCI and plays to a position with a right key.
pub fn check_fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(pos) = Position::from_fen(&text) else {
        return;
    };
    assert_eq!(pos.key(), pos.compute_key(), "key of {text:?}");
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let fen = pos.fen_with(mode);
        let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("own FEN {fen}: {e}"));
        assert_eq!(back.fen_with(mode), fen);
        assert_eq!(back.key(), pos.key(), "{fen}");
    }
    let chess960 = pos
        .with_castling_mode(CastlingMode::Chess960)
        .expect("Chess960 writes any castling");
    let standard = pos.with_castling_mode(CastlingMode::Standard);
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), pos.count_moves(), "{text:?}");
    for &mv in moves.iter() {
        let text960 = mv.to_uci(CastlingMode::Chess960).to_string();
        assert_eq!(chess960.parse_uci_move(&text960), Ok(mv), "{pos} {text960}");
        // Standard notation is only allowed where castling is on the
        // standard squares, so its text names one move.
        if let Some(standard) = standard {
            let text = mv.to_uci(CastlingMode::Standard).to_string();
            assert_eq!(standard.parse_uci_move(&text), Ok(mv), "{pos} {text}");
        }
        let next = pos.play(mv);
        assert_eq!(next.key(), next.compute_key(), "{pos} then {mv}");
        next.count_moves();
    }
}

/// Deepest `go perft` passed on to the engine; deeper ones are only parsed, so
/// that one input cannot keep the fuzzer busy for minutes.
const MAX_PERFT: u32 = 2;

/// An engine whose protocol output is thrown away.
pub fn silent_engine() -> Engine {
    Engine::new(uci::Output::new(io::sink()))
}

/// Feeds each line of `data` to the engine as the input thread would.
///
/// What could legitimately run for a long time or use much memory is only
/// parsed: `bench`, `go perft` deeper than [`MAX_PERFT`], and `Hash` sizes
/// (a 64 GiB table is a valid request). Searches are started and then stopped
/// at once, and `quit` is skipped so the engine can be reused between inputs.
pub fn feed_uci(engine: &mut Engine, data: &[u8]) {
    for line in data.split(|&b| b == b'\n') {
        let cmd = parse_line(&String::from_utf8_lossy(line));
        match cmd {
            Command::Quit | Command::Bench(_) => continue,
            Command::SetOption {
                ref name,
                ref value,
            } if name.eq_ignore_ascii_case("hash") => {
                let _ = UciOptions::default().set(name, value.as_deref(), &mut Vec::new());
                continue;
            }
            Command::Go(ref tokens) => {
                let words: Vec<&str> = tokens.iter().map(String::as_str).collect();
                let request = parse_go(&words, &Position::startpos());
                if matches!(request, Ok(ref r) if r.perft.is_some_and(|d| d > MAX_PERFT)) {
                    continue;
                }
                engine.handle(cmd);
                engine.handle(Command::Stop);
            }
            cmd => {
                engine.handle(cmd);
            }
        }
    }
    engine.handle(Command::Stop);
}
