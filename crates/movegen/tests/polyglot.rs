//! Polyglot keys against python-chess's `chess.polyglot.zobrist_hash` on
//! the positions of `data/polyglot_hashes.txt` (written by
//! `scripts/polyglot.py`).

use movegen::Position;

#[test]
fn polyglot_keys_match_python_chess() {
    let text = include_str!("data/polyglot_hashes.txt");
    let mut checked = 0;
    let mut en_passant = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (fen, hex) = line.split_once(';').expect("FEN;key");
        let want = u64::from_str_radix(hex, 16).expect("a hex key");
        let pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.polyglot_key(), want, "{fen}");
        checked += 1;
        en_passant += usize::from(pos.ep_square().is_some());
    }
    assert!(checked > 2_000, "{checked} positions");
    assert!(en_passant > 5, "{en_passant} with an en-passant square");
}
