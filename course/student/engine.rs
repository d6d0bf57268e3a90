//! Your engine as a UCI program (lab 12): `cargo run --release --bin engine`.
fn main() {
    chess_labs::lab12_uci::run(std::io::stdin().lock(), std::io::stdout().lock());
}
