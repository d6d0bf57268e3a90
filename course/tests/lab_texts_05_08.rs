//! The diagrams in the texts of labs 5 to 8 are the course's own drawings: each is drawn
//! here with the diagram module from movegen's sets, and must appear in its lab's README
//! exactly (when the drawing style changes, this test prints the new block to paste).

#[path = "support/drawn.rs"]
mod drawn;
use drawn::assert_drawn;

use course::diagram::{self, Marks};
use movegen::{attacks, check_mask, pins, Bitboard, Color, Position, Square};

fn sq(name: &str) -> Square {
    Square::parse(name).expect("a square name")
}

fn set(names: &str) -> u64 {
    names
        .split_whitespace()
        .fold(0, |all, n| all | 1u64 << sq(n).index())
}

fn at(origin: &str, occupied: u64) -> Marks {
    Marks {
        origin: Some(sq(origin).index() as u8),
        occupied,
    }
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("a legal position")
}

fn board(fen: &str) -> String {
    diagram::board(fen).expect("a FEN the diagram module reads")
}

/// (lab folder, what it shows, the drawing).
fn drawings() -> Vec<(&'static str, &'static str, String)> {
    let mut out = Vec::new();
    // Lab 5: masks and blockers.
    let lab = "05-magics";
    let d4 = sq("d4");
    let rim = 0xff81_8181_8181_81ffu64;
    let blockers = set("d6 b4 f4 d2 g7 a1");
    out.push((
        lab,
        "rook on d4, empty board",
        diagram::bitboard_marked(attacks::rook_attacks(d4, Bitboard::EMPTY).0, at("d4", 0)),
    ));
    out.push((
        lab,
        "rook on d4, blockers",
        diagram::bitboard_marked(
            attacks::rook_attacks(d4, Bitboard(blockers)).0,
            at("d4", blockers),
        ),
    ));
    out.push((
        lab,
        "rook mask d4",
        diagram::bitboard_marked(set("d2 d3 d5 d6 d7 b4 c4 e4 f4 g4"), at("d4", 0)),
    ));
    out.push((
        lab,
        "rook mask a1",
        diagram::bitboard_marked(set("b1 c1 d1 e1 f1 g1 a2 a3 a4 a5 a6 a7"), at("a1", 0)),
    ));
    let bishop = attacks::bishop_attacks(sq("e4"), Bitboard::EMPTY).0 & !rim;
    out.push((
        lab,
        "bishop mask e4",
        diagram::bitboard_marked(bishop, at("e4", 0)),
    ));
    // Lab 6: attackers of a square.
    let lab = "06-attacks";
    let fen = "4k3/8/3n4/2p2b2/4P3/2N5/1B3R2/4K3 w - - 0 1";
    let p = pos(fen);
    let occ = p.occupied();
    out.push((lab, "the position", board(fen)));
    out.push((
        lab,
        "a knight on e4",
        diagram::bitboard_marked(attacks::knight_attacks(sq("e4")).0, at("e4", occ.0)),
    ));
    let black = p.attackers_to(sq("e4"), occ) & p.colored(Color::Black);
    out.push((
        lab,
        "black attackers of e4",
        diagram::bitboard_marked(black.0, at("e4", occ.0)),
    ));
    let white = p.attackers_to(sq("d4"), occ) & p.colored(Color::White);
    out.push((
        lab,
        "white attackers of d4",
        diagram::bitboard_marked(white.0, at("d4", occ.0)),
    ));
    // Lab 7: check mask, pin masks, the king's x-ray.
    let lab = "07-legal";
    let fen = "4r1k1/8/8/8/8/2N5/3P4/3NK3 w - - 0 1";
    let p = pos(fen);
    out.push((lab, "check position", board(fen)));
    out.push((
        lab,
        "check mask",
        diagram::bitboard_marked(check_mask(&p).0, at("e1", p.occupied().0)),
    ));
    let fen = "4k3/8/8/b7/8/8/3P4/r2NK3 w - - 0 1";
    let p = pos(fen);
    out.push((lab, "pin position", board(fen)));
    let king = p.king(Color::White);
    let (mut straight, mut diagonal) = (0, 0);
    for pin in pins(&p) {
        if attacks::rook_attacks(king, Bitboard::EMPTY).has(pin.pinned) {
            straight |= pin.ray.0;
        } else {
            diagonal |= pin.ray.0;
        }
    }
    out.push((
        lab,
        "straight pin mask",
        diagram::bitboard_marked(straight, at("e1", p.occupied().0)),
    ));
    out.push((
        lab,
        "diagonal pin mask",
        diagram::bitboard_marked(diagonal, at("e1", p.occupied().0)),
    ));
    let fen = "4k3/8/8/8/r2K4/8/8/8 w - - 0 1";
    let p = pos(fen);
    let occ = p.occupied().0;
    out.push((lab, "x-ray position", board(fen)));
    out.push((
        lab,
        "rook with the king",
        diagram::bitboard_marked(
            attacks::rook_attacks(sq("a4"), Bitboard(occ)).0,
            at("d4", occ),
        ),
    ));
    let without_king = occ & !(1u64 << sq("d4").index());
    out.push((
        lab,
        "rook without the king",
        diagram::bitboard_marked(
            attacks::rook_attacks(sq("a4"), Bitboard(without_king)).0,
            at("d4", occ),
        ),
    ));
    let targets = p
        .legal_moves()
        .iter()
        .fold(0u64, |all, m| all | 1u64 << m.to().index());
    out.push((
        lab,
        "king targets",
        diagram::bitboard_marked(targets, at("d4", occ)),
    ));
    // Lab 8: castling squares, en passant's rank pin, promotions.
    let lab = "08-special-moves";
    out.push((
        lab,
        "castling position",
        board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    ));
    out.push((
        lab,
        "king side path",
        diagram::bitboard_marked(set("f1 g1"), at("e1", 0)),
    ));
    out.push((
        lab,
        "queen side path",
        diagram::bitboard_marked(set("b1 c1 d1"), at("e1", 0)),
    ));
    out.push((
        lab,
        "queen side safe squares",
        diagram::bitboard_marked(set("d1 c1"), at("e1", 0)),
    ));
    out.push((
        lab,
        "en passant position",
        board("8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2"),
    ));
    let after = set("a5 h5 g1 c6");
    out.push((
        lab,
        "rook after b5c6",
        diagram::bitboard_marked(
            attacks::rook_attacks(sq("h5"), Bitboard(after)).0,
            at("h5", after),
        ),
    ));
    out.push((
        lab,
        "promotion position",
        board("3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1"),
    ));
    out
}

#[test]
fn the_diagrams_of_labs_5_to_8_are_drawn_by_the_course() {
    assert_drawn(drawings());
}

#[test]
fn the_moves_the_lab_8_text_lists_are_the_legal_ones() {
    let names = |fen: &str| {
        let mut v: Vec<String> = pos(fen)
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(movegen::CastlingMode::Standard).to_string())
            .collect();
        v.sort();
        v.join(" ")
    };
    assert_eq!(
        names("8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2"),
        "a5a4 a5a6 a5b6 b5b6"
    );
    assert_eq!(
        names("3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1"),
        "e1e2 e1f1 e1f2 e7d8b e7d8n e7d8q e7d8r e7e8b e7e8n e7e8q e7e8r"
    );
}
