//! Reading past JSON without building it: what the one-pass `write_todos` reader does
//! with the values it does not keep, and how it tells why a text is not JSON. It refuses
//! what [`Parser::document`] refuses, with the same error (the tests hold them equal).

use super::{JsonError, Parser, Tagged, AFTER_DOCUMENT, AFTER_ITEM, AFTER_MEMBER};
use crate::json::decimals::Decimals;

/// What [`parse`](super::parse) would refuse `text` for, found without building anything: `None` for
/// JSON. The one-pass `write_todos` reader answers text that is not JSON with it. (Its
/// numbers are read as `parse` reads them, with `decimals`.)
pub fn syntax_error(text: &[u8], decimals: Decimals) -> Option<JsonError> {
    let mut parser = Parser::new(text);
    let read = parser.skip_value(decimals).and_then(|()| {
        parser.skip_whitespace();
        match parser.at_end() {
            true => Ok(()),
            false => Err(parser.unexpected(AFTER_DOCUMENT)),
        }
    });
    read.err()
}

impl Parser<'_> {
    /// Reads past one JSON value (or, in host mode, one host value) without building it,
    /// at any depth; refused as [`Parser::document`] refuses it.
    pub(crate) fn skip_value(&mut self, decimals: Decimals) -> Result<(), JsonError> {
        let mut open: Vec<u8> = Vec::new(); // the closing byte of each open container
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(b'[') => {
                    self.pos += 1;
                    self.skip_whitespace();
                    if !self.eat(b']') {
                        open.push(b']');
                        continue;
                    }
                }
                Some(b'{') => {
                    self.pos += 1;
                    if self.first_member()? {
                        open.push(b'}');
                        continue;
                    }
                }
                Some(b'<') if self.host => {
                    if let Tagged::Object(..) = self.tag(decimals)? {
                        self.expect(b'{', "'{' after an object tag")?;
                        if self.first_member()? {
                            open.push(b'}');
                            continue;
                        }
                    }
                }
                Some(b'"') => {
                    self.pos += 1;
                    self.string_body()?;
                }
                _ => drop(self.scalar(decimals)?),
            }
            loop {
                let Some(&close) = open.last() else { return Ok(()) };
                self.skip_whitespace();
                if self.eat(b',') {
                    if close == b'}' {
                        self.skip_whitespace();
                        self.any_member_key()?;
                    }
                    break;
                }
                if !self.eat(close) {
                    return Err(self.unexpected(if close == b']' { AFTER_ITEM } else { AFTER_MEMBER }));
                }
                open.pop();
            }
        }
    }

    /// After an object's `{`: whether it has members (then the parser is at the first
    /// one's value).
    fn first_member(&mut self) -> Result<bool, JsonError> {
        self.skip_whitespace();
        if self.eat(b'}') {
            return Ok(false);
        }
        self.any_member_key()?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn syntax_error_is_what_parse_refuses_for() {
        use crate::test_rng::{rounds, Rng};
        // JSON texts, then cut, spliced and sprinkled with bytes that break them.
        const PIECES: [&str; 24] = [
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            " ",
            "\n",
            "\"a\"",
            "\"\\u00e9\"",
            "\"\\ud800\"",
            "\"é😀\"",
            "1",
            "-0.5e3",
            "01",
            "1.",
            "true",
            "nul",
            "null",
            "x",
            "\"",
            "\\",
            "\"k\":",
            "\u{a0}",
        ];
        const VALID: [&str; 4] = [
            r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"focus":"f"}"#,
            r#" [1, {"a": [true, null, "x\u0041"]}, -2.5e-3 ] "#,
            r#"{"a":{"b":{"c":[[],{}]}},"d":"é😀"}"#,
            r#""just a string""#,
        ];
        let mut rng = Rng::for_test(0x5eed_0017);
        let (mut refused, mut accepted) = (0, 0);
        for _ in 0..rounds(20_000) {
            let mut text = rng.pick(&VALID).to_string();
            for _ in 0..rng.below(3) {
                let at = rng.below(text.len() + 1);
                let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                match rng.below(3) {
                    0 => text.truncate(at),
                    1 => text.insert_str(at, rng.pick::<&str>(&PIECES)),
                    _ => {
                        let end = (at + 1 + rng.below(4)).min(text.len());
                        let end = (end..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
                        text.replace_range(at..end, "");
                    }
                }
            }
            let expected = parse(text.as_bytes(), Decimals::RUST).err();
            assert_eq!(syntax_error(text.as_bytes(), Decimals::RUST), expected, "{text:?}");
            match expected {
                Some(_) => refused += 1,
                None => accepted += 1,
            }
        }
        assert!(
            refused > rounds(20_000) / 4 && accepted > rounds(20_000) / 10,
            "{refused} refused, {accepted} accepted"
        );
    }
}
