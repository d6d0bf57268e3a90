//! The results: a crosstable (each pairing's wins, draws and losses) and the standings (score,
//! an Elo estimate with its 95% error bar, and each engine's forfeits).

use movegen::Color;

use crate::game::{Ending, Fault, Played};

/// Wins, draws and losses.
type Wdl = [u32; 3];

/// The results of a tournament so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    names: Vec<String>,
    /// `pairs[a][b]`: `a`'s wins, draws and losses against `b`.
    pairs: Vec<Vec<Wdl>>,
    /// `started[a][b]`: games between `a` and `b` that both engines got ready for.
    started: Vec<Vec<u32>>,
    /// Per engine, the games it lost on time, by an illegal move, and by a crash.
    faults: Vec<[u32; 3]>,
}

/// An Elo difference and the half-width of its 95% interval (either may be infinite).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub diff: f64,
    /// Half the width of the 95% interval.
    pub margin: f64,
}

/// The Elo difference whose expected score is `p`: `-400 log10(1/p - 1)`.
fn elo_of(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The Elo estimate for a score of `w`, `d`, `l`: the difference that expects the score
/// fraction `p`, and half the Elo width of `p ± 1.96` standard errors, the standard error being
/// that of the mean game score (`sqrt(var / n)` with `var` the games' variance around `p`).
pub fn elo([w, d, l]: Wdl) -> Option<Elo> {
    let n = f64::from(w + d + l);
    if n == 0.0 {
        return None;
    }
    let (w, d, l) = (f64::from(w), f64::from(d), f64::from(l));
    let p = (w + d / 2.0) / n;
    let var = (w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2)) / n;
    let se = (var / n).sqrt();
    let margin = (elo_of(p + 1.96 * se) - elo_of(p - 1.96 * se)) / 2.0;
    Some(Elo {
        diff: elo_of(p),
        margin,
    })
}

impl Table {
    /// An empty table for these engines.
    pub fn new(names: Vec<String>) -> Table {
        let n = names.len();
        Table {
            names,
            pairs: vec![vec![[0; 3]; n]; n],
            started: vec![vec![0; n]; n],
            faults: vec![[0; 3]; n],
        }
    }

    /// Counts one game between engines `white` and `black`.
    pub fn record(&mut self, white: usize, black: usize, played: &Played) {
        let (w, b) = (white, black);
        match played.ending.winner() {
            Some(Color::White) => {
                self.pairs[w][b][0] += 1;
                self.pairs[b][w][2] += 1;
            }
            Some(Color::Black) => {
                self.pairs[w][b][2] += 1;
                self.pairs[b][w][0] += 1;
            }
            None => {
                self.pairs[w][b][1] += 1;
                self.pairs[b][w][1] += 1;
            }
        }
        if played.started {
            self.started[w][b] += 1;
            self.started[b][w] += 1;
        }
        if let Ending::Forfeit { loser, fault } = &played.ending {
            let who = if *loser == Color::White { w } else { b };
            let kind = match fault {
                Fault::Time(_) => 0,
                Fault::Illegal(_) => 1,
                Fault::Crash(_) => 2,
            };
            self.faults[who][kind] += 1;
        }
    }

    /// Engine `a`'s total wins, draws and losses.
    fn total(&self, a: usize) -> Wdl {
        self.pairs[a]
            .iter()
            .fold([0; 3], |t, x| [t[0] + x[0], t[1] + x[1], t[2] + x[2]])
    }

    /// Half-points, so that sorting needs no floats.
    fn half_points(&self, a: usize) -> u32 {
        let [w, d, _] = self.total(a);
        2 * w + d
    }

    /// The engines by score, best first (ties in the order given).
    fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by_key(|&a| std::cmp::Reverse(self.half_points(a)));
        order
    }

    fn name_width(&self) -> usize {
        self.names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(6)
    }

    /// The crosstable in standings order: each row's wins-draws-losses against each column.
    pub fn crosstable(&self) -> String {
        let order = self.ranking();
        let width = self.name_width();
        let cells: Vec<Vec<String>> = order
            .iter()
            .map(|&a| {
                order
                    .iter()
                    .map(|&b| {
                        let [w, d, l] = self.pairs[a][b];
                        if a == b {
                            "x".to_string()
                        } else {
                            format!("{w}-{d}-{l}")
                        }
                    })
                    .collect()
            })
            .collect();
        let cell = cells
            .iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap_or(1)
            .max(3);
        let mut out =
            String::from("Crosstable (wins-draws-losses of the row against the column)\n");
        out.push_str(&format!("{:>3}  {:<width$}", "#", "engine"));
        for i in 1..=order.len() {
            out.push_str(&format!("  {i:>cell$}"));
        }
        out.push('\n');
        for (rank, (&a, row)) in order.iter().zip(&cells).enumerate() {
            out.push_str(&format!("{:>3}  {:<width$}", rank + 1, self.names[a]));
            for c in row {
                out.push_str(&format!("  {c:>cell$}"));
            }
            out.push('\n');
        }
        out
    }

    /// The standings: score, Elo against the field, games, and forfeits by kind.
    pub fn standings(&self) -> String {
        let width = self.name_width();
        let mut out = String::from(
            "Standings (Elo: performance against the field, with its 95% error bar)\n",
        );
        out.push_str(&format!(
            "{:>3}  {:<width$}  {:>9}  {:>6}  {:>5}  {:>5}  {:>5}  {:>11}  {:>4}  {:>7}  {:>5}\n",
            "#", "engine", "score", "%", "Elo", "+/-", "games", "W-D-L", "time", "illegal", "crash"
        ));
        for (rank, a) in self.ranking().into_iter().enumerate() {
            let [w, d, l] = self.total(a);
            let games = w + d + l;
            let half = self.half_points(a);
            let score = format!("{}.{}/{games}", half / 2, if half % 2 == 1 { 5 } else { 0 });
            let percent = if games == 0 {
                "-".to_string()
            } else {
                format!("{:.1}", 50.0 * f64::from(half) / f64::from(games))
            };
            let (diff, margin) = match elo([w, d, l]) {
                None => ("-".to_string(), "-".to_string()),
                Some(e) => (signed(e.diff), plain(e.diff, e.margin)),
            };
            let [time, illegal, crash] = self.faults[a];
            out.push_str(&format!(
                "{:>3}  {:<width$}  {score:>9}  {percent:>6}  {diff:>5}  {margin:>5}  {games:>5}  {:>11}  {time:>4}  {illegal:>7}  {crash:>5}\n",
                rank + 1,
                self.names[a],
                format!("{w}-{d}-{l}"),
            ));
        }
        out
    }

    /// One sentence per engine that forfeited: `carol lost 2 games on time, 1 by an illegal
    /// move`.
    pub fn forfeits(&self) -> Vec<String> {
        let kinds = ["on time", "by an illegal move", "by a crash"];
        self.faults
            .iter()
            .zip(&self.names)
            .filter(|(f, _)| f.iter().any(|&n| n > 0))
            .map(|(f, name)| {
                let parts: Vec<String> = f
                    .iter()
                    .zip(kinds)
                    .filter(|(&n, _)| n > 0)
                    .map(|(&n, kind)| {
                        format!("{n} {} {kind}", if n == 1 { "game" } else { "games" })
                    })
                    .collect();
                format!("{name} lost {}", parts.join(", "))
            })
            .collect()
    }

    /// The pairings of which no game started, as pairs of names.
    pub fn unstarted_pairings(&self) -> Vec<(String, String)> {
        let n = self.names.len();
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| self.started[a][b] == 0)
            .map(|(a, b)| (self.names[a].clone(), self.names[b].clone()))
            .collect()
    }
}

/// `+147`, `-3`, `+inf`.
fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if x.abs() < 0.5 {
        "0".to_string()
    } else {
        format!("{x:+.0}")
    }
}

/// The error bar: `269`, `inf`, or `-` beside an infinite estimate.
fn plain(diff: f64, margin: f64) -> String {
    if diff.is_infinite() {
        "-".to_string()
    } else if margin.is_finite() {
        format!("{margin:.0}")
    } else {
        "inf".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Game, Outcome, Position};

    fn played(ending: Ending) -> Played {
        Played {
            game: Game::new(Position::startpos()),
            ending,
            times: Vec::new(),
            started: true,
        }
    }

    #[test]
    fn elo_matches_the_formula_at_hand_computed_points() {
        // p = 0.7: -400 log10(3/7) = 147.19; se = sqrt(0.016): bounds 0.452 and 0.948
        // (python3, math.log10).
        let e = elo([6, 2, 2]).expect("games");
        assert!((e.diff - 147.19).abs() < 0.01, "{e:?}");
        assert!((e.margin - 268.73).abs() < 0.01, "{e:?}");
        let e = elo([1, 2, 1]).expect("games");
        assert!(
            e.diff.abs() < 1e-9 && (e.margin - 296.58).abs() < 0.01,
            "{e:?}"
        );
        assert_eq!(elo([2, 0, 0]).map(|e| e.diff), Some(f64::INFINITY));
        assert_eq!(elo([0, 0, 0]), None);
        assert_eq!(
            elo([0, 4, 0]),
            Some(Elo {
                diff: 0.0,
                margin: 0.0
            })
        );
    }

    #[test]
    fn tables_count_each_pairing_and_each_forfeit() {
        let mut t = Table::new(vec!["alice".into(), "bob".into(), "carol".into()]);
        let mate = Ending::Rules(Outcome::Checkmate {
            winner: Color::White,
        });
        t.record(0, 1, &played(mate.clone()));
        t.record(1, 0, &played(Ending::MoveLimit));
        t.record(
            2,
            0,
            &played(Ending::Forfeit {
                loser: Color::White,
                fault: Fault::Time(std::time::Duration::ZERO),
            }),
        );
        let mut never = played(Ending::Forfeit {
            loser: Color::Black,
            fault: Fault::Crash("gone".into()),
        });
        never.started = false;
        t.record(1, 2, &never);
        let cross = t.crosstable();
        let rows: Vec<&str> = cross.lines().collect();
        assert_eq!(
            rows[1].split_whitespace().collect::<Vec<_>>(),
            ["#", "engine", "1", "2", "3"]
        );
        assert_eq!(
            rows[2].split_whitespace().collect::<Vec<_>>(),
            ["1", "alice", "x", "1-1-0", "1-0-0"],
            "{cross}"
        );
        assert_eq!(
            rows[3].split_whitespace().collect::<Vec<_>>(),
            ["2", "bob", "0-1-1", "x", "1-0-0"],
            "{cross}"
        );
        let standings = t.standings();
        let alice = standings.lines().nth(2).expect("a row");
        assert_eq!(
            alice.split_whitespace().collect::<Vec<_>>(),
            ["1", "alice", "2.5/3", "83.3", "+280", "inf", "3", "2-1-0", "0", "0", "0"],
            "{standings}"
        );
        let carol = standings.lines().nth(4).expect("a row");
        assert_eq!(
            carol.split_whitespace().collect::<Vec<_>>(),
            ["3", "carol", "0.0/2", "0.0", "-inf", "-", "2", "0-0-2", "1", "0", "1"],
            "{standings}"
        );
        assert_eq!(
            t.forfeits(),
            ["carol lost 1 game on time, 1 game by a crash"]
        );
        assert_eq!(
            t.unstarted_pairings(),
            [("bob".to_string(), "carol".to_string())]
        );
    }
}
