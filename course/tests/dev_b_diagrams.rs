// Prints the diagrams of the lab 5-8 texts (not committed).
use course::diagram::{self, Marks};
use movegen::{attacks, Bitboard, Position, Square};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}
fn b(s: &str) -> u64 {
    s.split_whitespace()
        .fold(0, |a, n| a | 1u64 << sq(n).index())
}
fn show(title: &str, text: &str) {
    println!("### {title}\n```\n{text}\n```\n");
}

#[test]
fn diagrams() {
    let d4 = sq("d4");
    let m = |o: &str, occ: u64| Marks {
        origin: Some(sq(o).index() as u8),
        occupied: occ,
    };
    let rook_mask_d4 = b("d2 d3 d5 d6 d7 b4 c4 e4 f4 g4");
    show(
        "rook d4 empty",
        &diagram::bitboard_marked(attacks::rook_attacks(d4, Bitboard::EMPTY).0, m("d4", 0)),
    );
    show(
        "rook d4 mask",
        &diagram::bitboard_marked(rook_mask_d4, m("d4", 0)),
    );
    let occ = b("d6 b4 f4 d2 g7 a1");
    show(
        "rook d4 blockers",
        &diagram::bitboard_marked(attacks::rook_attacks(d4, Bitboard(occ)).0, m("d4", occ)),
    );
    let rim = 0xff81_8181_8181_81ffu64;
    show(
        "bishop e4 mask",
        &diagram::bitboard_marked(
            attacks::bishop_attacks(sq("e4"), Bitboard::EMPTY).0 & !rim,
            m("e4", 0),
        ),
    );
    show(
        "rook a1 mask",
        &diagram::bitboard_marked(b("b1 c1 d1 e1 f1 g1 a2 a3 a4 a5 a6 a7"), m("a1", 0)),
    );
    // Lab 6
    let fen = "4k3/8/3n4/2p2b2/4P3/2N5/1B3R2/4K3 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    show("lab6 board", &diagram::board(fen).unwrap());
    let e4 = sq("e4");
    show(
        "knight from e4",
        &diagram::bitboard_marked(attacks::knight_attacks(e4).0, m("e4", pos.occupied().0)),
    );
    let att = pos.attackers_to(e4, pos.occupied()) & pos.colored(movegen::Color::Black);
    show(
        "black attackers of e4",
        &diagram::bitboard_marked(att.0, m("e4", pos.occupied().0)),
    );
    let att = pos.attackers_to(sq("d4"), pos.occupied()) & pos.colored(movegen::Color::White);
    show(
        "white attackers of d4",
        &diagram::bitboard_marked(att.0, m("d4", pos.occupied().0)),
    );
    // Lab 7
    let fen = "4r1k1/8/8/8/8/2N5/3P4/3NK3 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    show("lab7 board", &diagram::board(fen).unwrap());
    println!("checkers {:?}", diagram::squares(pos.checkers().0));
    show(
        "check mask",
        &diagram::bitboard_marked(movegen::check_mask(&pos).0, m("e1", pos.occupied().0)),
    );
    let fen2 = "4k3/8/8/b7/8/8/3P4/r2NK3 w - - 0 1";
    let pos2 = Position::from_fen(fen2).unwrap();
    show("lab7 pins board", &diagram::board(fen2).unwrap());
    let mut st = 0;
    let mut dg = 0;
    for p in movegen::pins(&pos2) {
        if attacks::rook_attacks(pos2.king(pos2.side_to_move()), Bitboard::EMPTY).has(p.pinned) {
            st |= p.ray.0
        } else {
            dg |= p.ray.0
        }
    }
    show(
        "straight pin mask",
        &diagram::bitboard_marked(st, m("e1", pos2.occupied().0)),
    );
    show(
        "diagonal pin mask",
        &diagram::bitboard_marked(dg, m("e1", pos2.occupied().0)),
    );
    let fen3 = "4k3/8/8/8/r2K4/8/8/8 w - - 0 1";
    let pos3 = Position::from_fen(fen3).unwrap();
    show("xray board", &diagram::board(fen3).unwrap());
    let occ_wo = pos3.occupied().0 & !(1u64 << sq("d4").index());
    show(
        "rook a4 attacks with king",
        &diagram::bitboard_marked(
            attacks::rook_attacks(sq("a4"), pos3.occupied()).0,
            m("d4", pos3.occupied().0),
        ),
    );
    show(
        "rook a4 attacks without king",
        &diagram::bitboard_marked(
            attacks::rook_attacks(sq("a4"), Bitboard(occ_wo)).0,
            m("d4", pos3.occupied().0),
        ),
    );
    let kt = pos3
        .legal_moves()
        .iter()
        .fold(0u64, |a, mv| a | 1u64 << mv.to().index());
    show(
        "king targets",
        &diagram::bitboard_marked(kt, m("d4", pos3.occupied().0)),
    );
    // Lab 8
    let fen4 = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    show("castling board", &diagram::board(fen4).unwrap());
    show(
        "white king side: empty f1 g1, safe e1 f1 g1",
        &diagram::bitboard_marked(b("f1 g1"), m("e1", 0)),
    );
    show(
        "white queen side: empty b1 c1 d1",
        &diagram::bitboard_marked(b("b1 c1 d1"), m("e1", 0)),
    );
    show(
        "white queen side: safe e1 d1 c1",
        &diagram::bitboard_marked(b("d1 c1"), m("e1", 0)),
    );
    let fen5 = "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2";
    show("ep pin board", &diagram::board(fen5).unwrap());
    let p5 = Position::from_fen(fen5).unwrap();
    let names: Vec<String> = p5
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(movegen::CastlingMode::Standard).to_string())
        .collect();
    println!("ep pin legal: {names:?}");
    let after = b("a5 h5 g1 c6");
    show(
        "after b5c6: rook h5 attacks",
        &diagram::bitboard_marked(
            attacks::rook_attacks(sq("h5"), Bitboard(after)).0,
            m("h5", after),
        ),
    );
    let fen6 = "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1";
    show("promo board", &diagram::board(fen6).unwrap());
    let p6 = Position::from_fen(fen6).unwrap();
    let names: Vec<String> = p6
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(movegen::CastlingMode::Standard).to_string())
        .collect();
    println!("promo legal: {names:?}");
}
