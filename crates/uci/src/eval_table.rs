//! The `eval` command: the static evaluation of the current position as a
//! table, term by term, per side, middlegame and endgame, in pawns, then
//! the phase and the tapered total (the numbers come from
//! `search::Breakdown`); then the network's evaluation beside it, and the
//! one the search uses.

use movegen::{Color, Position};
use search::nnue::{accumulator, Network, HIDDEN, INPUTS};
use search::{Breakdown, MgEg, Term};

/// Centipawns as pawns with two decimals and a sign.
fn pawns(cp: i32) -> String {
    let sign = if cp < 0 { '-' } else { '+' };
    format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
}

fn pair((mg, eg): MgEg) -> String {
    format!("{:>7} {:>7}", pawns(mg), pawns(eg))
}

/// The text `eval` prints, line by line; `net` is the network in use
/// (`None` when `Use NNUE` is off).
pub fn eval_lines(pos: &Position, net: Option<&Network>) -> Vec<String> {
    let b = Breakdown::of(pos);
    let rule = format!(
        " {}+{}+{}+{}",
        "-".repeat(16),
        "-".repeat(17),
        "-".repeat(17),
        "-".repeat(16)
    );
    let mut lines = vec![
        String::new(),
        format!(
            " {:>15} | {:^15} | {:^15} | {:^15}",
            "Term", "White", "Black", "Total"
        ),
        format!(
            " {:>15} | {:>7} {:>7} | {:>7} {:>7} | {:>7} {:>7}",
            "", "MG", "EG", "MG", "EG", "MG", "EG"
        ),
        rule.clone(),
    ];
    for term in Term::ALL {
        let [w, black] = b.terms[term.index()];
        lines.push(format!(
            " {:>15} | {} | {} | {}",
            term.name(),
            pair(w),
            pair(black),
            pair(b.net(term))
        ));
    }
    lines.push(rule);
    lines.push(format!(
        " {:>15} | {:15} | {:15} | {}",
        "Sum",
        "",
        "",
        pair(b.total())
    ));
    lines.push(String::new());
    let weight = b.phase * 100 / Breakdown::MAX_PHASE;
    lines.push(format!(
        "Phase: {} of {} (middlegame {weight}%, endgame {}%)",
        b.phase,
        Breakdown::MAX_PHASE,
        100 - weight
    ));
    lines.push(format!("Tapered: {} (White's view)", pawns(b.tapered())));
    let side = match b.side_to_move {
        Color::White => "White",
        Color::Black => "Black",
    };
    lines.push(format!(
        "Tempo: {} for the side to move ({side})",
        pawns(Breakdown::TEMPO)
    ));
    let views = |score: i32| {
        let white = match b.side_to_move {
            Color::White => score,
            Color::Black => -score,
        };
        format!(
            "{} (White's view; {} for {side} to move)",
            pawns(white),
            pawns(score)
        )
    };
    lines.push(format!(
        "Hand-written evaluation: {}",
        views(b.final_score())
    ));
    let used = match net {
        Some(net) => {
            let score = accumulator::evaluate(net, pos);
            lines.push(format!(
                "NNUE evaluation: {} ({INPUTS}->{HIDDEN}x2->1)",
                views(score)
            ));
            score
        }
        None => {
            lines.push("NNUE evaluation: not in use (Use NNUE is false)".to_string());
            b.final_score()
        }
    };
    lines.push(format!("Final evaluation: {}", views(used)));
    lines.iter().map(|l| l.trim_end().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawns_are_signed_with_two_decimals() {
        assert_eq!(pawns(0), "+0.00");
        assert_eq!(pawns(5), "+0.05");
        assert_eq!(pawns(-123), "-1.23");
        assert_eq!(pawns(3900), "+39.00");
    }

    #[test]
    fn the_table_has_a_row_per_term_and_the_final_score() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        let lines = eval_lines(&pos, None);
        for term in Term::ALL {
            assert!(lines.iter().any(|l| l.contains(term.name())), "{term:?}");
        }
        let last = lines.last().unwrap();
        let score = search::evaluate(&pos);
        assert!(score < -800);
        assert!(
            last.contains(&format!("{} for Black to move", pawns(score))),
            "{last}"
        );
        assert!(
            last.starts_with(&format!("Final evaluation: {}", pawns(-score))),
            "{last}"
        );
    }

    #[test]
    fn with_a_network_the_final_line_is_the_networks() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        let net = Network::built_in();
        let lines = eval_lines(&pos, Some(&net));
        let score = accumulator::evaluate(&net, &pos);
        let nnue = lines
            .iter()
            .find(|l| l.starts_with("NNUE evaluation: "))
            .unwrap();
        assert!(
            nnue.contains(&format!("{} for Black to move", pawns(score))),
            "{nnue}"
        );
        let hand = search::evaluate(&pos);
        let written = lines
            .iter()
            .find(|l| l.starts_with("Hand-written evaluation: "))
            .unwrap();
        assert!(
            written.contains(&format!("{} for Black to move", pawns(hand))),
            "{written}"
        );
        let last = lines.last().unwrap();
        assert!(
            last.starts_with(&format!("Final evaluation: {}", pawns(-score))),
            "{last}"
        );
    }
}
