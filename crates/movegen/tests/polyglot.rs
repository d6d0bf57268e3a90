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

/// The test keys of the Polyglot book format's description (`book_format.html`
/// in Polyglot's sources, by Michel Van den Bergh; see tests/data/README.md):
/// the moves from the start, the FEN the description gives, its key.
const PUBLISHED: &[(&str, &str, u64)] = &[
    (
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        0x463b96181691fc9c,
    ),
    (
        "e2e4",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        0x823c9b50fd114196,
    ),
    (
        "e2e4 d7d5",
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
        0x0756b94461c50fb0,
    ),
    (
        "e2e4 d7d5 e4e5",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
        0x662fafb965db29d4,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        0x22a48b5a8e47ff78,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5 e1e2",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
        0x652a607ca3f242c1,
    ),
    (
        "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7",
        "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
        0x00fdd303c946bdd9,
    ),
    (
        "a2a4 b7b5 h2h4 b5b4 c2c4",
        "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
        0x3c8123ea7b067637,
    ),
    (
        "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3",
        "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
        0x5c3f9b829b279560,
    ),
];

#[test]
fn the_published_polyglot_test_keys_read_and_reached() {
    for &(moves, fen, key) in PUBLISHED {
        let read = Position::from_fen(fen).unwrap();
        assert_eq!(read.polyglot_key(), key, "{fen}");
        let mut reached = Position::startpos();
        for text in moves.split_whitespace() {
            reached = reached.play(reached.parse_uci_move(text).unwrap());
        }
        assert_eq!(reached.polyglot_key(), key, "after {moves}");
        // The same position but for the clocks (the description's FENs keep
        // the half-move clock at 0 after a king move).
        let placement = |p: &Position| p.fen().rsplitn(3, ' ').nth(2).unwrap().to_string();
        assert_eq!(placement(&reached), placement(&read), "after {moves}");
        assert_eq!(reached.key(), read.key(), "after {moves}");
    }
}

/// Polyglot counts the en-passant file whenever a pawn of the side to move
/// stands next to the pawn that just moved two squares, legal capture or not;
/// the FEN, `==` and `key()` count it only when the capture is legal. Keys
/// from python-chess 1.11.2's `chess.polyglot.zobrist_hash`.
#[test]
fn polyglot_counts_an_en_passant_file_a_pinned_pawn_could_take_on() {
    let with_file = 0xf008b0d4b67d65ee;
    let without = 0xf032230c04fd0c8c;
    let read = Position::from_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 2").unwrap();
    assert_eq!(read.ep_square(), None);
    assert_eq!(read.polyglot_key(), with_file);
    let start = Position::from_fen("8/2p5/8/KP5r/8/8/8/7k b - - 0 1").unwrap();
    let reached = start.play(start.parse_uci_move("c7c5").unwrap());
    assert_eq!(reached.polyglot_key(), with_file);
    assert_eq!(reached, read);
    // The same placement without the double step: no file.
    let plain = Position::from_fen("8/8/8/KPp4r/8/8/8/7k w - - 0 2").unwrap();
    assert_eq!(plain.polyglot_key(), without);
    assert_eq!(plain, read, "the same position by the rules of chess");
    // Any later move, or a pass, forgets it.
    let line = |from: Position| {
        let next = from.play(from.parse_uci_move("a5a4").unwrap());
        next.play(next.parse_uci_move("h1g1").unwrap())
    };
    assert_eq!(line(reached).polyglot_key(), line(plain).polyglot_key());
    assert_eq!(
        reached.play_null().map(|p| p.polyglot_key()),
        plain.play_null().map(|p| p.polyglot_key())
    );
}
