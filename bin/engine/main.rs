fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(6);
    let fen = args
        .get(2)
        .cloned()
        .unwrap_or(movegen::STARTPOS_FEN.to_string());
    let pos = movegen::Position::from_fen(&fen).unwrap();
    let t = std::time::Instant::now();
    let n = movegen::perft(&pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes {:.3}s {:.1} Mnps", s, n as f64 / s / 1e6);
}
