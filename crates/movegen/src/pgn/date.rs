//! The `Date` tag's value: a day of the proleptic Gregorian calendar, worked
//! out from a count of days since 1970-01-01 (UTC), so it needs no clock and
//! no time-zone data (and so works without `std`).

use core::fmt;

/// A calendar day as PGN's `Date` tag writes it: `YYYY.MM.DD`.
///
/// The workspace's one civil-date computation: the board page dates its
/// games with it and the course's tournament its PGN files.
///
/// # Examples
///
/// ```
/// use movegen::pgn::{PgnDate, PgnGame};
/// use movegen::Position;
///
/// let date = PgnDate::from_unix_days(20_416);
/// assert_eq!((date.year, date.month, date.day), (2025, 11, 24));
/// let mut game = PgnGame::new(Position::startpos());
/// game.set_tag("Date", &date.to_string());
/// assert!(game.to_string().contains("[Date \"2025.11.24\"]"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PgnDate {
    /// The year (astronomical numbering: year 0 is 1 BC).
    pub year: i64,
    /// The month, 1 to 12.
    pub month: u8,
    /// The day of the month, 1 to 31.
    pub day: u8,
}

impl PgnDate {
    /// The day `days` days after 1970-01-01 (before it for a negative count).
    ///
    /// ```
    /// use movegen::pgn::PgnDate;
    /// assert_eq!(PgnDate::from_unix_days(0).to_string(), "1970.01.01");
    /// assert_eq!(PgnDate::from_unix_days(11_016).to_string(), "2000.02.29");
    /// assert_eq!(PgnDate::from_unix_days(-1).to_string(), "1969.12.31");
    /// ```
    pub fn from_unix_days(days: i64) -> PgnDate {
        // Howard Hinnant's `civil_from_days`: days since 0000-03-01, counted
        // in 400-year eras of 146 097 days; starting the year in March puts
        // the leap day last.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let day_of_era = z.rem_euclid(146_097);
        let year_of_era =
            (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let month_index = (5 * day_of_year + 2) / 153; // 0 = March
        let day = day_of_year - (153 * month_index + 2) / 5 + 1;
        let month = if month_index < 10 {
            month_index + 3
        } else {
            month_index - 9
        };
        PgnDate {
            year: year_of_era + era * 400 + i64::from(month <= 2),
            // In range by construction: month 1..=12, day 1..=31.
            month: month as u8,
            day: day as u8,
        }
    }

    /// The day (UTC) on which `time` falls.
    ///
    /// ```
    /// use movegen::pgn::PgnDate;
    /// use std::time::{Duration, UNIX_EPOCH};
    ///
    /// let noon = UNIX_EPOCH + Duration::from_secs(19_417 * 86_400 + 43_200);
    /// assert_eq!(PgnDate::of(noon).to_string(), "2023.03.01");
    /// let before = UNIX_EPOCH - Duration::from_secs(1);
    /// assert_eq!(PgnDate::of(before).to_string(), "1969.12.31");
    /// ```
    #[cfg(feature = "std")]
    pub fn of(time: std::time::SystemTime) -> PgnDate {
        const DAY: u64 = 86_400;
        let days = match time.duration_since(std::time::UNIX_EPOCH) {
            Ok(after) => (after.as_secs() / DAY) as i64,
            // A second before the epoch is on the day before it.
            Err(before) => -(before.duration().as_secs().div_ceil(DAY) as i64),
        };
        PgnDate::from_unix_days(days)
    }

    /// Today (UTC), by the system clock.
    ///
    /// ```
    /// use movegen::pgn::PgnDate;
    /// assert!(PgnDate::today().year >= 2024);
    /// ```
    #[cfg(feature = "std")]
    pub fn today() -> PgnDate {
        PgnDate::of(std::time::SystemTime::now())
    }
}

impl fmt::Display for PgnDate {
    /// `YYYY.MM.DD`, as the `Date` tag holds it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }
}
