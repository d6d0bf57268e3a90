//! Every public function of the crate that reads text, fed odd text: random
//! bytes, random ASCII, valid texts cut, doubled, case-flipped, with
//! characters inserted, dropped or replaced (multi-byte ones too, to find a
//! slice taken across a character), in standard and Chess960 positions. No
//! call may panic, and a refused move must leave a `Game` as it was.
//!
//! `cargo test` runs 100,000 texts (2 s); `PINMASK_ODD_TEXT_CASES` sets another number.

#[cfg(feature = "std")]
use movegen::perft::deep::{merge, read_units};
#[cfg(feature = "std")]
use movegen::pgn::PgnReader;
use movegen::pgn::{read_games, GameResult};
use movegen::rng::SplitMix64;
use movegen::{
    explain_move, CastlingMode, Color, File, Game, Piece, Position, Rank, Square, UciMove,
};
use std::panic::{catch_unwind, AssertUnwindSafe};

const FENS: &[&str] = &[
    movegen::STARTPOS_FEN,
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "bnnrqkrb/pppppppp/8/8/8/8/PPPPPPPP/BNNRQRKB b gd - 1 1",
    "4k3/1P6/8/3pP3/8/8/6p1/4K2R w K d6 0 1",
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

/// Texts that are, or nearly are, what the functions expect.
const SEEDS: &[&str] = &[
    "e2e4",
    "e7e8q",
    "e1g1",
    "e1h1",
    "e1g1q",
    "e1h1q",
    "f8g8r",
    "0000",
    "a7a8n",
    "d5e6",
    "Nf3",
    "exd6 e.p.",
    "O-O",
    "0-0-0",
    "e8=Q+",
    "Qxf7#",
    "N1e2",
    "Rdd1",
    "bxc8=N",
    "e4!?",
    "Ke2",
    movegen::STARTPOS_FEN,
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "1r2k2r/8/8/8/8/8/8/R3K1R1 w GAhb - 0 1",
    "[Event \"x\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O Kd7 2. Rh7+ *\n",
    "1. e4 e5 2. Nf3 {a comment} (2. Bc4 Nc6) Nc6 $1 3. Bb5 a6 1-0\n",
    "perft-units 1\n",
    "0 20\n1 400\n",
    "white",
    "Black",
    "knight",
    "e",
    "4",
    "chess960",
    "standard",
    "1-0",
    "1/2-1/2",
    "*",
    "e4",
    "h8",
];

/// Characters to insert or replace with: ASCII punctuation, digits, piece
/// letters, and multi-byte characters.
const ODD: &[char] = &[
    ' ', '\t', '\n', '\r', '\0', '-', 'x', '=', '+', '#', '/', '(', ')', '{', '}', '[', ']', '"',
    '0', '1', '8', '9', 'K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p', 'E', 'é', 'ß',
    '♞', '\u{200b}', '𝄞', '\u{feff}',
];

fn odd_text(rng: &mut SplitMix64) -> String {
    match rng.below(4) {
        0 => {
            let bytes: Vec<u8> = (0..rng.below(24)).map(|_| rng.next_u64() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        1 => (0..rng.below(12))
            .map(|_| (32 + rng.below(95) as u8) as char)
            .collect(),
        _ => {
            let mut chars: Vec<char> = SEEDS[rng.below(SEEDS.len())].chars().collect();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(chars.len() + 1);
                match rng.below(7) {
                    0 => chars.insert(at, ODD[rng.below(ODD.len())]),
                    1 if at < chars.len() => {
                        chars.remove(at);
                    }
                    2 if at < chars.len() => chars[at] = ODD[rng.below(ODD.len())],
                    3 => chars.truncate(at),
                    4 => {
                        let copy = chars.clone();
                        chars.extend(copy);
                    }
                    5 if at < chars.len() => {
                        let c = chars[at];
                        chars[at] = if c.is_ascii_lowercase() {
                            c.to_ascii_uppercase()
                        } else {
                            c.to_ascii_lowercase()
                        };
                    }
                    _ => {
                        let n = at.min(chars.len());
                        chars.rotate_left(n);
                    }
                }
            }
            chars.into_iter().collect()
        }
    }
}

/// Calls every text-reading function on `text`.
fn feed(positions: &[Position], text: &str) {
    let _ = Position::from_fen(text);
    let _ = text.parse::<Position>();
    let _ = text.parse::<UciMove>();
    let _ = Square::parse(text);
    let _ = text.parse::<Square>();
    let _ = text.parse::<Color>();
    let _ = text.parse::<Piece>();
    let _ = text.parse::<File>();
    let _ = text.parse::<Rank>();
    let _ = text.parse::<CastlingMode>();
    for c in text.chars().take(4) {
        let _ = (File::from_char(c), Rank::from_char(c), Piece::from_char(c));
    }
    let _ = GameResult::from_token(text);
    for game in read_games(text).take(4) {
        let _ = game.map(|g| (g.tag("FEN").map(str::len), g.mainline.moves.len()));
    }
    // The readers of files (std only).
    #[cfg(feature = "std")]
    {
        for game in PgnReader::new(text.as_bytes()).take(4) {
            let _ = game.is_ok();
        }
        let _ = read_units(text.as_bytes(), ..);
        let _ = merge(&[1, 2], text.as_bytes());
    }
    for pos in positions {
        let uci = pos.parse_uci_move(text);
        let explained = explain_move(pos, text);
        assert_eq!(uci.ok(), explained.ok(), "{pos} {text:?}");
        let san = pos.parse_san(text);
        if let Ok(mv) = san {
            assert!(pos.is_legal(mv), "{pos} {text:?}");
        }
        let mut game = Game::new(*pos);
        if game.play_uci(text).is_err() {
            assert_eq!(game.position(), pos, "{text:?}");
            assert!(game.moves().is_empty());
        }
        let mut game = Game::new(*pos);
        if game.play_san(text).is_err() {
            assert_eq!(game.position(), pos, "{text:?}");
            assert!(game.moves().is_empty());
        }
    }
}

#[test]
fn no_text_reading_function_panics() {
    let cases: usize = std::env::var("PINMASK_ODD_TEXT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let positions: Vec<Position> = FENS.iter().map(|f| f.parse().unwrap()).collect();
    let mut rng = SplitMix64::new(46);
    for seed in SEEDS {
        feed(&positions, seed);
    }
    for i in 0..cases {
        let text = odd_text(&mut rng);
        let fed = catch_unwind(AssertUnwindSafe(|| feed(&positions, &text)));
        assert!(fed.is_ok(), "case {i}: {text:?} panicked");
    }
}
