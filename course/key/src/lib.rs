//! The course's answer key: each lab's reference solution and its planted bugs, from the
//! lab folders (`course/labs/NN-slug/solution.rs` and `bugs/*.bug`).
//!
//! Only the instructor's build has it: `course-instructor` (pinmask-course with the
//! `instructor` feature) writes solutions with `init --solutions` and grades with them;
//! the student's `course` is built without this crate, so it holds no solution to give away.
#![deny(missing_docs)]

/// One lab's part of the key.
#[derive(Debug)]
pub struct LabKey {
    /// The lab's number, 1..=12.
    pub number: u8,
    /// The reference solution, the student's file as it should end up.
    pub solution: &'static str,
    /// Planted bugs: (file name, text), each one mistake written as changes to the solution
    /// (see [`LabKey::bug_source`]), in file-name order.
    pub bugs: &'static [(&'static str, &'static str)],
}

static LABS: &[LabKey] = include!(concat!(env!("OUT_DIR"), "/labs.rs"));

/// Every lab's key, in order.
pub fn all() -> &'static [LabKey] {
    LABS
}

/// The key of lab `number`, if the course has that lab.
pub fn lab(number: u8) -> Option<&'static LabKey> {
    LABS.iter().find(|l| l.number == number)
}

/// The reference solution of lab `number`.
pub fn solution(number: u8) -> Option<&'static str> {
    lab(number).map(|l| l.solution)
}

impl LabKey {
    /// The student file that a planted bug stands for: the bug's first two lines (`//! bug:`
    /// and `//! expect:`), then the solution with each of the bug's changes made. A change is
    /// a `//! replace:` line, the solution's lines to replace (they must occur exactly once),
    /// a `//! with:` line and the lines that take their place.
    ///
    /// ```
    /// let key = course_key::lab(1).unwrap();
    /// let (_, bug) = key.bugs[0];
    /// let source = key.bug_source(bug).unwrap();
    /// assert!(source.starts_with("//! bug: "));
    /// assert_ne!(source.lines().skip(2).collect::<Vec<_>>(), key.solution.lines().collect::<Vec<_>>());
    /// ```
    pub fn bug_source(&self, bug: &str) -> Result<String, String> {
        const REPLACE: &str = "//! replace:\n";
        const WITH: &str = "//! with:\n";
        let mut lines = bug.splitn(3, '\n');
        let (Some(what), Some(expect), Some(changes)) = (lines.next(), lines.next(), lines.next())
        else {
            return Err("a bug needs its `//! bug:` and `//! expect:` lines".into());
        };
        let Some(changes) = changes.strip_prefix(REPLACE) else {
            return Err("a bug's changes start with `//! replace:`".into());
        };
        let mut source = self.solution.to_string();
        for change in changes.split(&format!("\n{REPLACE}")) {
            let Some((old, new)) = change.split_once(WITH) else {
                return Err(format!("a change without `//! with:`: {change}"));
            };
            // The split took the last line's newline from every change but the last.
            let new = match new.strip_suffix('\n') {
                Some(lines) => format!("{lines}\n"),
                None => format!("{new}\n"),
            };
            match source.matches(old).count() {
                1 => source = source.replacen(old, &new, 1),
                n => return Err(format!("{n} places in the solution read:\n{old}")),
            }
        }
        Ok(format!("{what}\n{expect}\n{source}"))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_lab_has_its_solution_and_bugs_in_order() {
        let numbers: Vec<u8> = super::all().iter().map(|l| l.number).collect();
        assert_eq!(numbers, (1..=12).collect::<Vec<u8>>());
        for lab in super::all() {
            assert!(lab.solution.contains("pub fn"), "lab {}", lab.number);
            assert!(lab.bugs.len() >= 3, "lab {}: {:?}", lab.number, lab.bugs);
            assert!(lab.bugs.windows(2).all(|w| w[0].0 < w[1].0));
        }
        assert!(super::lab(13).is_none() && super::solution(0).is_none());
    }
}
