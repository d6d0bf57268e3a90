//! The crowd's rules as plain functions over plain values: when submissions
//! agree, what an agreed set says about the generator, an expert's score,
//! the leaderboard's order and the export's lines. No database here.

use std::collections::BTreeSet;

/// A set of moves in UCI notation, sorted and without repeats.
pub type MoveSet = BTreeSet<String>;

/// Where a task stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Still served: fewer than K experts agree.
    Open,
    /// K experts agree, and their set is the generator's.
    Confirmed,
    /// K experts agree on a set the generator does not give.
    Flagged,
    /// Taken out of service by the organiser before agreement.
    Closed,
}

impl Status {
    /// The name stored and shown.
    pub fn name(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Confirmed => "confirmed",
            Status::Flagged => "flagged",
            Status::Closed => "closed",
        }
    }

    /// The status named `name`, if any.
    pub fn from_name(name: &str) -> Option<Status> {
        [
            Status::Open,
            Status::Confirmed,
            Status::Flagged,
            Status::Closed,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }
}

/// The set that at least `k` of `submissions` hold exactly, with how many
/// hold it; the most common such set, the earliest submitted on a tie.
pub fn agreement(submissions: &[MoveSet], k: usize) -> Option<(&MoveSet, usize)> {
    let mut best: Option<(&MoveSet, usize)> = None;
    for set in submissions {
        let count = submissions.iter().filter(|s| *s == set).count();
        if count >= k && best.is_none_or(|(_, n)| count > n) {
            best = Some((set, count));
        }
    }
    best
}

/// An agreed set against the generator's legal moves: `extra` holds the
/// moves the crowd gives and the generator does not, `missing` the reverse.
#[derive(Debug, PartialEq, Eq)]
pub struct Difference {
    pub extra: Vec<String>,
    pub missing: Vec<String>,
}

impl Difference {
    /// Compares `agreed` with `legal`.
    pub fn of(agreed: &MoveSet, legal: &MoveSet) -> Difference {
        Difference {
            extra: agreed.difference(legal).cloned().collect(),
            missing: legal.difference(agreed).cloned().collect(),
        }
    }

    /// Confirmed when the sets are equal, else flagged.
    pub fn status(&self) -> Status {
        if self.extra.is_empty() && self.missing.is_empty() {
            Status::Confirmed
        } else {
            Status::Flagged
        }
    }
}

/// One submission's score against the generator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Legal moves submitted.
    pub found: u32,
    /// Legal moves not submitted.
    pub missed: u32,
    /// Submitted moves that are not legal.
    pub wrong: u32,
}

impl Score {
    /// Scores `submitted` against `legal`.
    pub fn of(submitted: &MoveSet, legal: &MoveSet) -> Score {
        let found = submitted.intersection(legal).count() as u32;
        Score {
            found,
            missed: legal.len() as u32 - found,
            wrong: submitted.len() as u32 - found,
        }
    }

    /// The game's points: a found move counts one, a wrong one takes one away.
    pub fn points(self) -> i64 {
        i64::from(self.found) - i64::from(self.wrong)
    }
}

/// One expert's line on the leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub expert: i64,
    pub name: String,
    pub tasks: u32,
    pub score: Score,
    /// Time from being served each task to submitting it, summed.
    pub millis: u64,
}

/// Orders the leaderboard: most points first, then more tasks done, then
/// less time, then who joined first.
pub fn rank(standings: &mut [Standing]) {
    standings.sort_by(|a, b| {
        b.score
            .points()
            .cmp(&a.score.points())
            .then(b.tasks.cmp(&a.tasks))
            .then(a.millis.cmp(&b.millis))
            .then(a.expert.cmp(&b.expert))
    });
}

/// A move set as text: the moves separated by single spaces.
pub fn join(set: &MoveSet) -> String {
    set.iter().map(String::as_str).collect::<Vec<_>>().join(" ")
}

/// The move set written by [`join`].
pub fn split(text: &str) -> MoveSet {
    text.split_whitespace().map(String::from).collect()
}

/// An agreed task as one EPD line in the format of `tests/data`:
/// `FEN ;moves <legal> ;D1 <count> ;experts <n>`, and for a flagged task
/// `;crowd <agreed set>` as well. `;moves` is always the generator's answer
/// when exported, so the line is a regression test of the generator.
pub fn export_line(fen: &str, legal: &MoveSet, agreed: &MoveSet, experts: usize) -> String {
    let mut line = format!(
        "{fen} ;moves {} ;D1 {} ;experts {experts}",
        join(legal),
        legal.len()
    );
    if agreed != legal {
        line += &format!(" ;crowd {}", join(agreed));
    }
    // An empty list leaves "moves " with a trailing space before ';'.
    line.replace("  ;", " ;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(moves: &str) -> MoveSet {
        split(moves)
    }

    #[test]
    fn k_identical_sets_agree() {
        let a = set("e1e2 e1d1");
        let b = set("e1e2");
        assert_eq!(agreement(std::slice::from_ref(&a), 2), None);
        assert_eq!(agreement(&[a.clone(), b.clone()], 2), None);
        assert_eq!(
            agreement(&[a.clone(), b.clone(), a.clone()], 2),
            Some((&a, 2))
        );
        assert_eq!(agreement(&[a.clone(), b.clone(), a.clone()], 3), None);
        // Order of entry does not matter: the sets are sets.
        assert_eq!(set("e1d1 e1e2 e1d1"), a);
        // The most common set wins; on a tie, the earliest.
        let subs = [b.clone(), a.clone(), a.clone(), b.clone(), a.clone()];
        assert_eq!(agreement(&subs, 2), Some((&a, 3)));
        let tie = [b.clone(), a.clone(), a.clone(), b.clone()];
        assert_eq!(agreement(&tie, 2), Some((&b, 2)));
        // An empty set (a mate) is a set experts can agree on.
        let empty = MoveSet::new();
        assert_eq!(
            agreement(&[empty.clone(), empty.clone()], 2),
            Some((&empty, 2))
        );
    }

    #[test]
    fn agreed_sets_are_confirmed_or_flagged() {
        let legal = set("a2a3 a2a4 g1f3");
        let same = Difference::of(&set("g1f3 a2a4 a2a3"), &legal);
        assert_eq!(same.status(), Status::Confirmed);
        let wrong = Difference::of(&set("a2a3 a2a5 g1f3"), &legal);
        assert_eq!(wrong.status(), Status::Flagged);
        assert_eq!(wrong.extra, ["a2a5"]);
        assert_eq!(wrong.missing, ["a2a4"]);
    }

    #[test]
    fn scores() {
        let legal = set("a2a3 a2a4 g1f3");
        let s = Score::of(&set("a2a3 a2a5 b1b3"), &legal);
        assert_eq!(
            s,
            Score {
                found: 1,
                missed: 2,
                wrong: 2
            }
        );
        assert_eq!(s.points(), -1);
        assert_eq!(Score::of(&legal, &legal).points(), 3);
        assert_eq!(
            Score::of(&MoveSet::new(), &MoveSet::new()),
            Score::default()
        );
    }

    #[test]
    fn leaderboard_order() {
        let standing = |expert, found, wrong, tasks, millis| Standing {
            expert,
            name: format!("e{expert}"),
            tasks,
            score: Score {
                found,
                missed: 0,
                wrong,
            },
            millis,
        };
        let mut rows = vec![
            standing(1, 10, 5, 3, 100),
            standing(2, 8, 0, 3, 900),
            standing(3, 8, 0, 3, 500),
            standing(4, 8, 0, 4, 999),
            standing(5, 0, 0, 0, 0),
        ];
        rank(&mut rows);
        let order: Vec<i64> = rows.iter().map(|r| r.expert).collect();
        assert_eq!(order, [4, 3, 2, 1, 5]);
    }

    #[test]
    fn export_lines() {
        let legal = set("e1d1 e1e2");
        assert_eq!(
            export_line("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &legal, &legal, 2),
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;moves e1d1 e1e2 ;D1 2 ;experts 2"
        );
        assert_eq!(
            export_line("f", &legal, &set("e1d1 e1e2 e1f1"), 3),
            "f ;moves e1d1 e1e2 ;D1 2 ;experts 3 ;crowd e1d1 e1e2 e1f1"
        );
        assert_eq!(
            export_line("m", &MoveSet::new(), &MoveSet::new(), 2),
            "m ;moves ;D1 0 ;experts 2"
        );
        assert_eq!(
            export_line("m", &MoveSet::new(), &set("a1a2"), 2),
            "m ;moves ;D1 0 ;experts 2 ;crowd a1a2"
        );
        for name in ["open", "confirmed", "flagged", "closed"] {
            assert_eq!(Status::from_name(name).map(Status::name), Some(name));
        }
        assert_eq!(Status::from_name("x"), None);
    }
}
