//! What zod's length checks read of a value that is not a string, found while reading
//! past it: an array's count, and an object's `length` member as JS compares it, that
//! is `Number(length)`. zod checks the length of whatever has one, even a value it has
//! already refused for its type.

use super::reader::Reader;
use crate::json::number::string_to_number;

impl Reader<'_> {
    /// The items of the array here, read past.
    pub(super) fn item_count(&mut self) -> Option<f64> {
        self.p.eat(b'[');
        self.p.skip_whitespace();
        let mut count = 0.0;
        if self.p.eat(b']') {
            return Some(count);
        }
        loop {
            self.p.skip_value().ok()?;
            count += 1.0;
            self.p.skip_whitespace();
            if self.p.eat(b']') {
                return Some(count);
            }
            self.p.eat(b',').then_some(())?;
        }
    }

    /// The object here, read past: `Number(object.length)`, or `None` when it has no
    /// `length` (zod then checks no length).
    pub(super) fn length_member(&mut self) -> Option<Option<f64>> {
        self.p.eat(b'{');
        let mut length = None;
        self.members(|reader, key| match key {
            b"length" => {
                length = Some(reader.number_of()?);
                Some(())
            }
            _ => reader.p.skip_value().ok(),
        })?;
        Some(length)
    }

    /// `Number(value)` of the value here, read past, as `json::number::to_number`
    /// computes it of a tree: an array is its `join(",")`, so one item stands for the
    /// array (`[[5]]` is 5), none is 0, and two or more are NaN.
    fn number_of(&mut self) -> Option<f64> {
        if self.p.peek()? != b'[' {
            return self.primitive_number(false);
        }
        // Down the arrays of one item each, to the innermost value.
        let mut open = 0usize;
        let mut number = loop {
            self.p.eat(b'[');
            open += 1;
            self.p.skip_whitespace();
            match self.p.peek()? {
                b']' => {
                    self.p.eat(b']');
                    open -= 1;
                    break 0.0;
                }
                b'[' => continue,
                _ => break self.primitive_number(true)?,
            }
        };
        // Back up: an array with more items is NaN, read past whole.
        for _ in 0..open {
            self.p.skip_whitespace();
            if self.p.eat(b']') {
                continue;
            }
            number = f64::NAN;
            loop {
                self.p.eat(b',').then_some(())?;
                self.p.skip_value().ok()?;
                self.p.skip_whitespace();
                if self.p.eat(b']') {
                    break;
                }
            }
        }
        Some(number)
    }

    /// `Number(value)` of the value here (not an array), read past; `in_array` when it is
    /// an array's only item, which stands for it as `String(value)` does.
    fn primitive_number(&mut self, in_array: bool) -> Option<f64> {
        Some(match self.p.peek()? {
            b'"' => {
                self.p.eat(b'"');
                // A lone surrogate, read as U+FFFD, makes it NaN as it does in JS.
                string_to_number(&self.p.string_body().ok()?.into_lossy())
            }
            b'{' => {
                self.p.skip_value().ok()?;
                f64::NAN
            }
            b'n' => self.p.literal("null").ok().map(|_| 0.0)?,
            // `String([true])` is "true": not a number.
            b't' => self.p.literal("true").ok().map(|_| if in_array { f64::NAN } else { 1.0 })?,
            b'f' => self.p.literal("false").ok().map(|_| if in_array { f64::NAN } else { 0.0 })?,
            // `String(-0)` is "0".
            _ => self.p.number().ok().map(|n| if in_array && n == 0.0 { 0.0 } else { n })?,
        })
    }
}
