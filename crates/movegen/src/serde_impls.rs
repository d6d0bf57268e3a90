//! The optional `serde` feature: each type travels as the text it already
//! reads and writes (a FEN, a UCI move, a square name), so the data stays
//! readable and checked on the way in.

use crate::{CastlingMode, Position, Square, UciMove};
use alloc::borrow::Cow;
use core::str::FromStr;
use serde::de::{Deserialize, Deserializer, Error};
use serde::ser::{Serialize, Serializer};

fn from_text<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: core::fmt::Display,
{
    let text = Cow::<'de, str>::deserialize(d)?;
    text.parse().map_err(D::Error::custom)
}

/// As its FEN ([`Position::fen`]: castling in the position's own mode, so a
/// Chess960 position with a castling right left reads back as Chess960).
impl Serialize for Position {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// From a FEN; a rejected FEN is an error naming the [`FenError`](crate::FenError).
impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        from_text(d)
    }
}

/// As UCI text (`e2e4`, `e7e8q`, `0000`).
impl Serialize for UciMove {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// From UCI text.
impl<'de> Deserialize<'de> for UciMove {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<UciMove, D::Error> {
        from_text(d)
    }
}

/// As its name, `standard` or `chess960`.
impl Serialize for CastlingMode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// From its name, in any case.
impl<'de> Deserialize<'de> for CastlingMode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CastlingMode, D::Error> {
        from_text(d)
    }
}

/// As its name (`e4`).
impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// From its name.
impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        from_text(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_json() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos: Position = kiwipete.parse().unwrap();
        let json = serde_json::to_string(&pos).unwrap();
        assert_eq!(json, format!("\"{kiwipete}\""));
        assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), pos);
        let chess960 = Position::chess960(0).unwrap();
        let back: Position =
            serde_json::from_str(&serde_json::to_string(&chess960).unwrap()).unwrap();
        assert_eq!(back, chess960);
        assert_eq!(back.castling_mode(), CastlingMode::Chess960);
        let mode = serde_json::to_string(&CastlingMode::Chess960).unwrap();
        assert_eq!(mode, "\"chess960\"");
        assert_eq!(
            serde_json::from_str(&mode).ok(),
            Some(CastlingMode::Chess960)
        );
        assert!(serde_json::from_str::<CastlingMode>("\"960\"").is_err());
        let mv = pos
            .parse_uci_move("e1c1")
            .unwrap()
            .to_uci(CastlingMode::Standard);
        assert_eq!(serde_json::to_string(&mv).unwrap(), "\"e1c1\"");
        assert_eq!(serde_json::from_str::<UciMove>("\"e1c1\"").unwrap(), mv);
        let sq: Square = serde_json::from_str("\"h8\"").unwrap();
        assert_eq!(
            (sq.index(), serde_json::to_string(&sq).unwrap()),
            (63, "\"h8\"".into())
        );
    }

    #[test]
    fn bad_text_is_an_error_that_says_why() {
        let err = serde_json::from_str::<Position>("\"8/8 w - -\"").unwrap_err();
        assert!(err.to_string().contains("expected 8 ranks"), "{err}");
        assert!(serde_json::from_str::<Square>("\"i9\"").is_err());
        assert!(serde_json::from_str::<UciMove>("\"e2\"").is_err());
        assert!(serde_json::from_str::<Square>("64").is_err());
    }
}
