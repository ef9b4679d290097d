//! What the JS layer adds to JSON to carry JS values (`src/wasm/js/encode.ts`): `undefined`,
//! `NaN` and the infinities, tags for what JSON has no form for, and inherited members.
//! The parser reads them only in host mode ([`parse_host`]); model text never has them.

use std::borrow::Cow;

use super::{Document, JsonError, Parser};
use crate::json::decimals::Decimals;
use crate::json::value::{Host, Value};

/// Parses what the JS layer writes of JS values (`src/wasm/js/encode.ts`): JSON, plus
/// `undefined`, `NaN`, `Infinity` and `-Infinity`, plus tags for what JSON has no form
/// for (see [`Host`]): `<f N>` a function of length N, `<s>` a symbol, `<b N>` a bigint
/// whose `Number()` is N, `<x "text">` a value whose reading threw, `<c>` a value cut
/// off (too deep, or a cycle), `<a N>` an array of length N too long to list, `<m>` an
/// object with too many keys (or a value past the number of values read), and
/// `<o "Type",P>{…}` an object zod names `Type` whose `isPlainObject` is P (0 or 1);
/// inside an object, `^"key":` marks an inherited enumerable property. Decimal numbers
/// are read with `decimals`.
pub fn parse_host(text: &[u8], decimals: Decimals) -> Result<Document<'_>, JsonError> {
    Parser::new(text).reading_host(true).document(decimals)
}

/// What a tag stands for: a value, or the start of a tagged object.
pub(crate) enum Tagged<'a> {
    Value(Value<'a>),
    Object(Cow<'a, str>, bool),
}

impl<'a> Parser<'a> {
    /// A member key, and whether it is marked inherited (`^"key":`, host values only).
    pub(super) fn any_member_key(&mut self) -> Result<(Cow<'a, str>, bool), JsonError> {
        let inherited = self.host && self.eat(b'^');
        Ok((self.member_key()?, inherited))
    }

    /// A tag after its `<` (see [`parse_host`]).
    pub(crate) fn tag(&mut self, decimals: Decimals) -> Result<Tagged<'a>, JsonError> {
        self.pos += 1;
        let kind = self.peek();
        self.pos += 1;
        let tagged = match kind {
            Some(b'f') => Tagged::Value(Value::Host(Box::new(Host::Function(self.tag_number(decimals)?)))),
            Some(b's') => Tagged::Value(Value::Host(Box::new(Host::Symbol))),
            Some(b'b') => Tagged::Value(Value::Host(Box::new(Host::BigInt(self.tag_number(decimals)?)))),
            Some(b'c') => Tagged::Value(Value::Host(Box::new(Host::Cut))),
            Some(b'a') => Tagged::Value(Value::Host(Box::new(Host::LongArray(self.tag_number(decimals)?)))),
            Some(b'm') => Tagged::Value(Value::Host(Box::new(Host::Many))),
            Some(b'x') => {
                self.expect(b'"', "a string in a thrown tag")?;
                let text = self.string_body()?.into_lossy();
                Tagged::Value(Value::Host(Box::new(Host::Thrown(text))))
            }
            Some(b'o') => {
                self.expect(b'"', "a type name in an object tag")?;
                let type_name = self.string_body()?.into_lossy();
                self.expect(b',', "',' in an object tag")?;
                let plain = match self.peek() {
                    Some(b'0') => false,
                    Some(b'1') => true,
                    _ => return Err(self.unexpected("0 or 1 in an object tag")),
                };
                self.pos += 1;
                Tagged::Object(type_name, plain)
            }
            _ => return Err(self.unexpected("a tag letter after '<'")),
        };
        self.expect(b'>', "'>' to close a tag")?;
        Ok(tagged)
    }

    /// A number inside a tag (`Infinity` and `NaN` included).
    fn tag_number(&mut self, decimals: Decimals) -> Result<f64, JsonError> {
        match self.peek() {
            Some(b'N') => self.literal("NaN").map(|_| f64::NAN),
            Some(b'I') => self.literal("Infinity").map(|_| f64::INFINITY),
            _ => self.number(decimals),
        }
    }
}
