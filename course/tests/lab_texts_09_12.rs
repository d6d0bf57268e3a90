//! The diagrams in the texts of labs 9 to 12 are the course's own drawings: each is drawn here
//! with the diagram module and must appear in its lab's README exactly (when the drawing style
//! changes, this test prints the new block to paste). The facts the texts state about their
//! positions are checked against movegen too.

#[path = "support/drawn.rs"]
mod drawn;
use drawn::assert_drawn;

use course::diagram;
use movegen::{Color, Piece, Position};

fn board(fen: &str) -> String {
    diagram::board(fen).expect("a FEN the diagram module reads")
}

/// (lab folder, what it shows, the drawing).
fn drawings() -> Vec<(&'static str, &'static str, String)> {
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let white_pawns = Position::from_fen(after_e4)
        .expect("valid")
        .pieces_of(Color::White, Piece::Pawn)
        .0;
    vec![
        ("09-position", "the position after e2e4", board(after_e4)),
        (
            "09-position",
            "its white pawns",
            diagram::bitboard(white_pawns),
        ),
        (
            "10-perft",
            "a thesis position",
            board("1krq3r/pp3Npp/1b3n2/8/8/2N3B1/PPP2PPP/R4RK1 b - - 0 1"),
        ),
        (
            "11-search",
            "a knight up",
            board("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1"),
        ),
        (
            "12-uci",
            "after e2e4 e7e5",
            board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"),
        ),
    ]
}

#[test]
fn the_diagrams_of_labs_9_to_12_are_drawn_by_the_course() {
    assert_drawn(drawings());
}

#[test]
fn the_facts_the_texts_state_hold() {
    // Lab 9: the white pawns' bitboard named in the text.
    let after_e4 =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .expect("valid");
    assert_eq!(
        after_e4.pieces_of(Color::White, Piece::Pawn).0,
        0x0000_0000_1000_ef00
    );
    // Lab 10: the start position's counts, and the thesis position's 5 moves and 5,819 leaves.
    let counts: Vec<u64> = (1..=4)
        .map(|d| movegen::perft::perft(&Position::startpos(), d))
        .collect();
    assert_eq!(counts, [20, 400, 8_902, 197_281]);
    let thesis =
        Position::from_fen("1krq3r/pp3Npp/1b3n2/8/8/2N3B1/PPP2PPP/R4RK1 b - - 0 1").expect("valid");
    assert_eq!(thesis.legal_moves().len(), 5);
    assert_eq!(movegen::perft::perft(&thesis, 3), 5_819);
    // Lab 12: `position startpos moves e2e4 e7e5` gives the FEN drawn.
    let mut pos = Position::startpos();
    for m in ["e2e4", "e7e5"] {
        pos = pos.play(pos.parse_uci_move(m).expect("legal"));
    }
    assert_eq!(
        pos.fen().split(' ').next(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR")
    );
    // Lab 10: divide's mate in one, a1a8 with nothing below it.
    let mate_in_one = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").expect("valid");
    let a8 = mate_in_one.parse_uci_move("a1a8").expect("legal");
    assert!(mate_in_one.play(a8).legal_moves().is_empty());
    // Lab 11: Rxd8 mates; Kc7 stalemates.
    let rook = Position::from_fen("3r2k1/5ppp/8/8/8/8/8/3R2K1 w - - 0 1").expect("valid");
    let mated = rook.play(rook.parse_uci_move("d1d8").expect("legal"));
    assert!(mated.in_check() && mated.legal_moves().is_empty());
    let pawn = Position::from_fen("k7/8/1PK5/8/8/8/8/8 w - - 0 1").expect("valid");
    let stalemated = pawn.play(pawn.parse_uci_move("c6c7").expect("legal"));
    assert!(!stalemated.in_check() && stalemated.legal_moves().is_empty());
    // Lab 8: a castling right without its rook is refused by movegen, the reason the checker
    // asks movegen about the same position without it.
    assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1").is_err());
}

/// Where a new student stumbled: the texts name what the workspace has, and lab 12's say how a
/// FEN, `stop` and repetition work.
#[test]
fn the_texts_of_labs_9_to_12_name_what_a_student_has() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("labs");
    for lab in ["09-position", "10-perft", "11-search", "12-uci"] {
        for file in ["README.md", "hints.md"] {
            let text = std::fs::read_to_string(root.join(lab).join(file)).expect("a lab text");
            for missing in ["docs/strength-levels.md", "PATH/TO", "six words"] {
                assert!(!text.contains(missing), "{lab}/{file} names `{missing}`");
            }
        }
    }
    let uci = std::fs::read_to_string(root.join("12-uci/README.md")).expect("lab 12's text");
    for needed in [
        "four fields or six",
        "`go infinite` and `stop`",
        "Repetition",
        "`ucinewgame`",
        "movestogo",
    ] {
        assert!(uci.contains(needed), "lab 12's text lacks `{needed}`");
    }
    let perft = std::fs::read_to_string(root.join("10-perft/README.md")).expect("lab 10's text");
    assert!(perft.contains("**Alone, or with no class export.**"));
}
