//! Secret tokens: 32 bytes from the operating system's random source,
//! written as hex after the owner's id (`<id>.<secret>`), kept only as the
//! SHA-256 of the secret, and compared in constant time.
//!
//! The id lets the server find the one stored hash to compare with, so no
//! lookup by secret (and no timing of one) ever happens.

use sha2::{Digest, Sha256};

/// The SHA-256 of a secret, as stored.
pub type TokenHash = [u8; 32];

/// A fresh secret: 64 hex digits from the OS random source.
///
/// # Errors
/// When the operating system cannot supply random bytes.
pub fn secret() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random bytes from the OS: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The hash stored for `secret`.
pub fn hash(secret: &str) -> TokenHash {
    Sha256::digest(secret.as_bytes()).into()
}

/// Whether `secret` hashes to `stored`, in time independent of where they
/// differ.
pub fn matches(secret: &str, stored: &[u8]) -> bool {
    let given = hash(secret);
    stored.len() == given.len()
        && given
            .iter()
            .zip(stored)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// A token split into the owner's id and the secret, if it has that shape
/// (`<id>.<64 hex digits>`).
pub fn parse(token: &str) -> Option<(&str, &str)> {
    let (id, secret) = token.split_once('.')?;
    let hex = secret.len() == 64 && secret.bytes().all(|b| b.is_ascii_hexdigit());
    (hex && !id.is_empty() && id.len() <= 20).then_some((id, secret))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_fresh_and_match_only_their_hash() {
        let a = secret().unwrap();
        let b = secret().unwrap();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert!(matches(&a, &hash(&a)));
        assert!(!matches(&b, &hash(&a)));
        assert!(!matches(&a, &hash(&a)[..31]));
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        assert_eq!(
            hash("abc")[..4],
            [0xba, 0x78, 0x16, 0xbf],
            "the published test vector"
        );
    }

    #[test]
    fn token_shapes() {
        let s = "0123456789abcdef".repeat(4);
        assert_eq!(parse(&format!("12.{s}")), Some(("12", s.as_str())));
        assert_eq!(parse(&s), None);
        assert_eq!(parse(&format!(".{s}")), None);
        assert_eq!(parse(&format!("1.{}", &s[1..])), None);
        assert_eq!(parse(&format!("1.{}z", &s[1..])), None);
        assert_eq!(parse("1.x"), None);
    }
}
