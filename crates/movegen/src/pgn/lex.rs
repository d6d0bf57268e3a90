//! Movetext tokens, one line at a time: brace comments may span lines, so
//! the lexer remembers an open one.

use alloc::string::String;

/// One token of movetext.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    /// A run of symbol characters: a move, a move number or a result.
    Symbol(&'a str),
    /// A run of `!` and `?`.
    Glyph(&'a str),
    /// The digits of a `$` NAG.
    Nag(&'a str),
    /// A `{...}` comment, trimmed.
    Comment(String),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// A character that starts no token.
    Bad(char),
}

/// Splits movetext lines into tokens.
#[derive(Debug, Default)]
pub(crate) struct Lexer {
    /// The text so far of a brace comment not yet closed.
    open: Option<String>,
}

fn is_symbol(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'=' | b':' | b'-' | b'/' | b'.')
}

impl Lexer {
    /// Whether a brace comment is open (the next line continues it).
    pub(crate) fn in_comment(&self) -> bool {
        self.open.is_some()
    }

    /// Length of the open comment so far (to bound memory).
    pub(crate) fn open_len(&self) -> usize {
        self.open.as_ref().map_or(0, String::len)
    }

    /// Ends an open comment at the end of the input, returning it.
    pub(crate) fn close(&mut self) -> Option<String> {
        self.open.take().map(|c| String::from(c.trim()))
    }

    /// Forgets an open comment.
    pub(crate) fn reset(&mut self) {
        self.open = None;
    }

    /// The next token of `rest`, which is advanced past it; `None` when the
    /// line is used up (perhaps inside a comment).
    pub(crate) fn next<'a>(&mut self, rest: &mut &'a str) -> Option<Token<'a>> {
        loop {
            if let Some(comment) = &mut self.open {
                match rest.find('}') {
                    Some(end) => {
                        comment.push_str(&rest[..end]);
                        *rest = &rest[end + 1..];
                        return self.close().map(Token::Comment);
                    }
                    None => {
                        comment.push_str(rest);
                        comment.push('\n');
                        *rest = "";
                        return None;
                    }
                }
            }
            let text = rest.trim_start();
            let bytes = text.as_bytes();
            let first = *bytes.first()?;
            let run = |f: fn(u8) -> bool, from: usize| {
                from + bytes[from..].iter().take_while(|&&b| f(b)).count()
            };
            let (token, len) = match first {
                b'{' => {
                    self.open = Some(String::new());
                    *rest = &text[1..];
                    continue;
                }
                // A rest-of-line comment is read past, as python-chess does:
                // the export format has brace comments only.
                b';' => {
                    *rest = "";
                    return None;
                }
                b'(' => (Token::Open, 1),
                b')' => (Token::Close, 1),
                b'*' => (Token::Symbol("*"), 1),
                b'$' => {
                    let end = run(|b| b.is_ascii_digit(), 1);
                    (Token::Nag(&text[1..end]), end)
                }
                b'!' | b'?' => {
                    let end = run(|b| b == b'!' || b == b'?', 0);
                    (Token::Glyph(&text[..end]), end)
                }
                b if is_symbol(b) => {
                    let end = run(is_symbol, 0);
                    (Token::Symbol(&text[..end]), end)
                }
                _ => {
                    let c = text.chars().next().expect("the text is not empty");
                    (Token::Bad(c), c.len_utf8())
                }
            };
            *rest = &text[len..];
            return Some(token);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn tokens(lines: &[&str]) -> Vec<String> {
        let mut lexer = Lexer::default();
        let mut out = Vec::new();
        for line in lines {
            let mut rest = *line;
            while let Some(t) = lexer.next(&mut rest) {
                out.push(alloc::format!("{t:?}"));
            }
        }
        out
    }

    #[test]
    fn splits_moves_glyphs_nags_comments_and_parentheses() {
        assert_eq!(
            tokens(&[
                "1.e4!? $14 {a",
                "b} (1... c5?!) ; rest { not a brace",
                "1-0"
            ]),
            [
                "Symbol(\"1.e4\")",
                "Glyph(\"!?\")",
                "Nag(\"14\")",
                "Comment(\"a\\nb\")",
                "Open",
                "Symbol(\"1...\")",
                "Symbol(\"c5\")",
                "Glyph(\"?!\")",
                "Close",
                "Symbol(\"1-0\")",
            ]
        );
        assert_eq!(
            tokens(&["e4 \u{0}é"]),
            ["Symbol(\"e4\")", "Bad('\\0')", "Bad('é')"]
        );
    }
}
