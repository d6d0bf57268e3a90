//! The text of results: search `info` and `bestmove` lines, perft divides
//! and the bench summary, shared by the UCI loop and the command line.

use movegen::{CastlingMode, Move, Position};
use search::{Score, SearchInfo, SearchResult};
use std::time::Duration;

/// One `info` line for a completed depth (always with its `multipv` rank,
/// as Stockfish prints it). With `wdl_material` (`UCI_ShowWDL`: the root's
/// material, see `search::wdl_material`), `wdl W D L` follows the score.
pub fn info_line(info: &SearchInfo, mode: CastlingMode, wdl_material: Option<u32>) -> String {
    let mut score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    if let Some(material) = wdl_material {
        let [w, d, l] = search::wdl(info.score, material);
        score.push_str(&format!(" wdl {w} {d} {l}"));
    }
    let ms = info.time.as_millis() as u64;
    let nps = info.nodes * 1000 / ms.max(1);
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_uci(mode).to_string()).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {nps} time {ms} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv.max(1),
        info.nodes,
        info.hashfull,
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}

/// `bestmove <move> [ponder <move>]`; `0000` only when there is no legal
/// move. A missing or illegal best move becomes the first legal move.
pub fn bestmove_line(root: &Position, result: Option<SearchResult>) -> String {
    let mode = root.castling_mode();
    let legal = root.legal_moves();
    let best = result
        .and_then(|r| r.best)
        .filter(|mv| legal.contains(mv))
        .or_else(|| legal.first().copied());
    let Some(best) = best else {
        return "bestmove 0000".to_string();
    };
    let mut line = format!("bestmove {}", best.to_uci(mode));
    let ponder = result.and_then(|r| r.ponder);
    if let Some(ponder) = ponder.filter(|&p| root.play(best).is_legal(p)) {
        line.push_str(&format!(" ponder {}", ponder.to_uci(mode)));
    }
    line
}

/// One root move's line of a perft divide, `move: count`.
pub fn divide_line(mv: Move, count: u64, mode: CastlingMode) -> String {
    format!("{}: {count}", mv.to_uci(mode))
}

/// A perft divide, one `move: count` line per root move.
pub fn divide_lines(divide: &[(Move, u64)], mode: CastlingMode) -> Vec<String> {
    divide
        .iter()
        .map(|&(mv, n)| divide_line(mv, n, mode))
        .collect()
}

/// The answer to `go perft`: the divide, an empty line, `Nodes searched: N`
/// and an empty line, byte for byte as Stockfish prints it.
pub fn perft_lines(divide: &[(Move, u64)], mode: CastlingMode) -> Vec<String> {
    let total: u64 = divide.iter().map(|d| d.1).sum();
    let mut lines = divide_lines(divide, mode);
    lines.extend([
        String::new(),
        format!("Nodes searched: {total}"),
        String::new(),
    ]);
    lines
}

/// The bench summary, `<nodes> nodes <nps> nps`.
pub fn bench_summary(nodes: u64, elapsed: Duration) -> String {
    let nps = nodes as u128 * 1000 / elapsed.as_millis().max(1);
    format!("{nodes} nodes {nps} nps")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_lines_follow_stockfish() {
        let pos = Position::startpos();
        let div = movegen::perft::divide(&pos, 1);
        let lines = perft_lines(&div, CastlingMode::Standard);
        assert_eq!(lines.len(), 23);
        assert!(lines.contains(&"e2e4: 1".to_string()));
        assert_eq!(lines[20..], ["", "Nodes searched: 20", ""]);
    }

    #[test]
    fn info_lines_carry_the_multipv_rank() {
        let pos = Position::startpos();
        let e4 = pos.parse_uci_move("e2e4").unwrap();
        let info = SearchInfo {
            multipv: 2,
            depth: 3,
            seldepth: 5,
            score: Score::Mate(-2),
            nodes: 1000,
            time: Duration::from_millis(10),
            hashfull: 7,
            pv: vec![e4],
        };
        assert_eq!(
            info_line(&info, CastlingMode::Standard, None),
            "info depth 3 seldepth 5 multipv 2 score mate -2 nodes 1000 nps 100000 time 10 hashfull 7 pv e2e4"
        );
        assert_eq!(
            info_line(&info, CastlingMode::Standard, Some(78)),
            "info depth 3 seldepth 5 multipv 2 score mate -2 wdl 0 0 1000 nodes 1000 nps 100000 time 10 hashfull 7 pv e2e4"
        );
        let even = SearchInfo {
            score: Score::Cp(0),
            ..info
        };
        let [w, d, l] = search::wdl(Score::Cp(0), 78);
        assert!(info_line(&even, CastlingMode::Standard, Some(78))
            .contains(&format!(" score cp 0 wdl {w} {d} {l} nodes ")));
    }

    #[test]
    fn bestmove_falls_back_to_a_legal_move() {
        let pos = Position::startpos();
        let line = bestmove_line(&pos, None);
        let mv = line.strip_prefix("bestmove ").unwrap();
        assert!(pos.parse_uci_move(mv).is_ok(), "{line}");
        assert_eq!(
            bench_summary(3000, Duration::from_secs(2)),
            "3000 nodes 1500 nps"
        );
    }
}
