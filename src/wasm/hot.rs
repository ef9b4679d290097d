//! The session's two hot inputs, a model response and a batch of tool results, read
//! straight from the JS layer's encoding into their types.
//!
//! A session call's arguments usually cross as plain JSON (the JS layer's encoding of
//! plain values is JSON) of a plain shape. Reading that into the types directly skips
//! the general path's value tree, its schema walk (which copies every string) and the
//! conversion into types: it was two thirds of a decision's time. Whatever is not plain
//! — a host value the encoding marks (`undefined`, `NaN`, a tag), a key the schema does
//! not know or that repeats, a lone surrogate, a value out of its schema's limits, a
//! wrong type — makes these readers give up (`None`), and the general path reads the
//! same input and reports exactly what is wrong. So the answer never depends on which
//! path ran; the tests below hold the two to each other on generated inputs.

use std::borrow::Cow;

use crate::json::decimals::Decimals;
use crate::json::value::Value;
use crate::json::{Decoded, Parser};
use crate::session::exchange::{
    ModelResponse, ToolCallInput, ToolResult, MAX_TOOL_CALLS, NAME_MAX, STDERR_MAX, TEXT_MAX,
};
use crate::validate::schema::{ANY_MAX_DEPTH, ANY_MAX_NODES};

/// A reader of `[value, nowMs]` when plain, its numbers read with the decimals given.
pub type Hot<T> = fn(&[u8], Decimals) -> Option<(T, f64)>;

/// `[response, nowMs]`, when plain.
pub fn model_response(input: &[u8], decimals: Decimals) -> Option<(ModelResponse, f64)> {
    let mut r = Reader::new(input, decimals);
    r.p.eat(b'[').then_some(())?;
    let mut response = ModelResponse { text: None, tool_calls: Vec::new() };
    r.fields(&["text", "toolCalls"], &mut |r, field| {
        match field {
            0 => {
                response.text = match r.p.peek()? {
                    b'n' => r.p.literal("null").ok().map(|_| None)?,
                    _ => Some(r.string(0, TEXT_MAX)?),
                }
            }
            _ => response.tool_calls = r.array(MAX_TOOL_CALLS, Reader::tool_call)?,
        }
        Some(())
    })?;
    Some((response, r.time()?))
}

/// `[results, nowMs]`, when plain.
pub fn tool_results(input: &[u8], decimals: Decimals) -> Option<(Vec<ToolResult>, f64)> {
    let mut r = Reader::new(input, decimals);
    r.p.eat(b'[').then_some(())?;
    let results = r.array(usize::MAX, Reader::tool_result)?;
    Some((results, r.time()?))
}

/// The most members an object of any keys may have on this path: each key is compared
/// with those before it, so more would make the walk quadratic.
pub(super) const MEMBERS_CHECKED: usize = 32;

/// A reader of plain JSON in the JS layer's encoding; each method gives up (`None`) on
/// anything else.
pub(super) struct Reader<'a> {
    pub(super) p: Parser<'a>,
    pub(super) decimals: Decimals,
}

impl<'a> Reader<'a> {
    pub(super) fn new(input: &'a [u8], decimals: Decimals) -> Self {
        Reader { p: Parser::unchecked(input), decimals }
    }

    /// `,nowMs]` and the end: a finite number.
    fn time(&mut self) -> Option<f64> {
        self.p.eat(b',').then_some(())?;
        let now = self.p.number(self.decimals).ok().filter(|n| n.is_finite())?;
        (self.p.eat(b']') && self.p.at_end()).then_some(now)
    }

    fn tool_call(&mut self) -> Option<ToolCallInput> {
        let (mut id, mut name, mut args) = (None, None, None);
        self.fields(&["id", "name", "args"], &mut |r, field| match field {
            0 => r.string(1, NAME_MAX).map(|s| id = Some(s)),
            1 => r.string(1, NAME_MAX).map(|s| name = Some(s)),
            _ => r.any(0, &mut 0).map(|v| args = Some(v)),
        })?;
        Some(ToolCallInput { id: id?, name: name?, args: args.unwrap_or(Value::Undefined) })
    }

    fn tool_result(&mut self) -> Option<ToolResult> {
        let mut result = ToolResult {
            id: String::new(),
            output: Value::Undefined,
            stderr: None,
            is_error: false,
            duration_ms: None,
            exit_code: None,
        };
        let seen = self.fields(&["id", "output", "stderr", "isError", "durationMs", "exitCode"], &mut |r, field| {
            match field {
                0 => result.id = r.string(1, NAME_MAX)?,
                1 => result.output = r.any(0, &mut 0)?,
                2 => result.stderr = Some(r.string(0, STDERR_MAX)?),
                3 => result.is_error = r.boolean()?,
                4 => result.duration_ms = Some(r.p.number(r.decimals).ok().filter(|n| n.is_finite() && *n >= 0.0)?),
                _ => {
                    let code = r.p.number(r.decimals).ok()?;
                    let whole = code.fract() == 0.0 && code >= f64::from(i32::MIN) && code <= f64::from(i32::MAX);
                    result.exit_code = Some(whole.then_some(code as i32)?);
                }
            }
            Some(())
        })?;
        // `output` is required (and `undefined` is not plain).
        (seen & 0b11 == 0b11).then_some(result)
    }

    /// An object whose keys are among `keys`, each at most once: `member` reads the value
    /// of `keys[field]`. Gives which of them the object had, as bits (`1 << field`).
    /// (One instance for every object read here: `member` is called through a `dyn`.)
    pub(super) fn fields(
        &mut self,
        keys: &[&str],
        member: &mut dyn FnMut(&mut Self, usize) -> Option<()>,
    ) -> Option<u32> {
        let mut seen = 0u32;
        self.object(|r, key| {
            let field = keys.iter().position(|k| *k == key)?;
            let bit = 1 << field;
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
            member(r, field)
        })?;
        Some(seen)
    }

    /// An object's members, each key once and at most [`MEMBERS_CHECKED`] of them, each
    /// value read by `item`.
    pub(super) fn members<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<(Cow<'static, str>, T)>> {
        let mut members: Vec<(Cow<'static, str>, T)> = Vec::new();
        self.object(|r, key| {
            // A key twice (JSON.parse keeps the last), or more keys than a look back over
            // them stays cheap for: the general path knows how.
            if members.len() == MEMBERS_CHECKED || members.iter().any(|(k, _)| k == key) {
                return None;
            }
            let key = Cow::Owned(key.to_owned());
            members.push((key, item(r)?));
            Some(())
        })?;
        Some(members)
    }

    /// An object's members after checking its `{`: `member` reads each value after its
    /// key (and says `None` to give up on a key it does not know or has seen).
    pub(super) fn object(&mut self, mut member: impl FnMut(&mut Self, &str) -> Option<()>) -> Option<()> {
        self.p.eat(b'{').then_some(())?;
        if self.p.eat(b'}') {
            return Some(());
        }
        loop {
            self.p.eat(b'"').then_some(())?;
            let key = self.text()?;
            self.p.eat(b':').then_some(())?;
            member(self, &key)?;
            if self.p.eat(b'}') {
                return Some(());
            }
            self.p.eat(b',').then_some(())?;
        }
    }

    /// An array of at most `max` items, each read by `item`.
    fn array<T>(&mut self, max: usize, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.p.eat(b'[').then_some(())?;
        let mut items = Vec::new();
        if self.p.eat(b']') {
            return Some(items);
        }
        loop {
            if items.len() == max {
                return None;
            }
            items.push(item(self)?);
            if self.p.eat(b']') {
                return Some(items);
            }
            self.p.eat(b',').then_some(())?;
        }
    }

    /// A string of `min..=max` code points.
    pub(super) fn string(&mut self, min: usize, max: usize) -> Option<String> {
        self.p.eat(b'"').then_some(())?;
        let text = self.text()?;
        let length = text.chars().count();
        (min..=max).contains(&length).then(|| text.into_owned())
    }

    /// A string's content after its opening quote; `None` for a lone surrogate.
    fn text(&mut self) -> Option<Cow<'a, str>> {
        match self.p.string_body().ok()? {
            Decoded::Utf8(text) => Some(Cow::Borrowed(text)),
            Decoded::Escaped(text) => Some(Cow::Owned(text)),
            Decoded::Units(units) => String::from_utf16(&units).ok().map(Cow::Owned),
        }
    }

    pub(super) fn boolean(&mut self) -> Option<bool> {
        match self.p.scalar(self.decimals).ok()? {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// Any JSON value within a schema `{}`'s limits, as the general path copies it.
    fn any(&mut self, depth: usize, nodes: &mut usize) -> Option<Value<'static>> {
        *nodes += 1;
        if *nodes > ANY_MAX_NODES {
            return None;
        }
        Some(match self.p.peek()? {
            b'"' => {
                self.p.eat(b'"');
                Value::String(Cow::Owned(self.text()?.into_owned()))
            }
            b'{' if depth < ANY_MAX_DEPTH => Value::Object(self.members(|r| r.any(depth + 1, nodes))?),
            b'[' if depth < ANY_MAX_DEPTH => Value::Array(self.array(usize::MAX, |r| r.any(depth + 1, nodes))?),
            // (Not reading host values, the parser's scalars are JSON's.)
            _ => self.p.scalar(self.decimals).ok()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::compiled;
    use crate::wasm::args::Args;

    /// The general path's reading of `[value, nowMs]`.
    fn general<T: crate::json::from_value::FromValue>(
        input: &[u8],
        schema: &'static crate::validate::schema::Schema,
    ) -> Option<(T, f64)> {
        let a = Args::parse(input, Decimals::RUST).ok()?;
        Some((a.object(0, "value", schema).ok()?, a.time(1, "nowMs").ok()?))
    }

    /// A small deterministic generator of JSON text in the JS layer's encoding: mostly
    /// plain, with the odd things the hot readers must give up on or read the same.
    struct Gen(crate::test_rng::Rng);

    impl Gen {
        fn next(&mut self, n: u64) -> u64 {
            self.0.next() % n
        }

        fn pick<'s>(&mut self, items: &[&'s str]) -> &'s str {
            items[self.next(items.len() as u64) as usize]
        }

        fn string(&mut self) -> String {
            let pieces = [
                "",
                "a",
                "grep",
                "é",
                "😀",
                "\\n",
                "\\\"",
                "\\u00e9",
                "\\ud800",
                "\\ud83d\\ude00",
                " ",
                "x".repeat(300).leak(),
            ];
            let mut s = String::from("\"");
            for _ in 0..self.next(4) {
                s.push_str(self.pick(&pieces));
            }
            s.push('"');
            s
        }

        fn any(&mut self, depth: u32) -> String {
            match self.next(if depth > 3 { 7 } else { 10 }) {
                0 => self.string(),
                1 => self.pick(&["0", "-0", "1.5", "1e400", "-7", "12345678901234567890"]).to_owned(),
                2 => self.pick(&["true", "false", "null"]).to_owned(),
                3 => self.pick(&["undefined", "NaN", "<f2>", "<x\"boom\">"]).to_owned(),
                4..=6 => self.string(),
                7 | 8 => {
                    let keys = ["q", "path", "__proto__", "q", "constructor", "\\u0071"];
                    let members: Vec<String> = (0..self.next(4))
                        .map(|_| format!("\"{}\":{}", self.pick(&keys), self.any(depth + 1)))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }
                _ => {
                    let items: Vec<String> = (0..self.next(4)).map(|_| self.any(depth + 1)).collect();
                    format!("[{}]", items.join(","))
                }
            }
        }

        fn member(&mut self, keys: &[&str]) -> String {
            let key = self.pick(keys);
            let value = match self.next(3) {
                0 => self.any(0),
                _ => self.string(),
            };
            format!("\"{key}\":{value}")
        }

        fn object(&mut self, keys: &[&str], n: u64) -> String {
            let members: Vec<String> = (0..self.next(n)).map(|_| self.member(keys)).collect();
            format!("{{{}}}", members.join(","))
        }

        fn time(&mut self) -> &'static str {
            self.pick(&["5", "0", "-1.5", "1e400", "undefined", "\"5\""])
        }

        fn model_response(&mut self) -> String {
            let calls: Vec<String> =
                (0..self.next(4)).map(|_| self.object(&["id", "name", "args", "args", "id", "name", "x"], 5)).collect();
            let text = match self.next(3) {
                0 => "null".to_owned(),
                _ => self.string(),
            };
            let members = [format!("\"text\":{text}"), format!("\"toolCalls\":[{}]", calls.join(","))];
            let body = match self.next(4) {
                0 => members[0].clone(),
                1 => members[1].clone(),
                2 => format!("{},{}", members[1], members[0]),
                _ => format!("{},{}", members[0], members[1]),
            };
            format!("[{{{body}}},{}]", self.time())
        }

        fn tool_results(&mut self) -> String {
            let keys = ["id", "output", "id", "output", "stderr", "isError", "durationMs", "exitCode", "y"];
            let results: Vec<String> = (0..self.next(4))
                .map(|_| {
                    let mut members = vec![format!("\"id\":{}", self.string()), format!("\"output\":{}", self.any(0))];
                    for _ in 0..self.next(3) {
                        let key = self.pick(&keys);
                        let value = match key {
                            "isError" => self.pick(&["true", "false", "1", "null"]).to_owned(),
                            "durationMs" | "exitCode" => {
                                self.pick(&["0", "3", "-2", "1.5", "3000000000", "1e400", "null"]).to_owned()
                            }
                            _ => self.any(0),
                        };
                        members.push(format!("\"{key}\":{value}"));
                    }
                    if self.next(5) == 0 {
                        members.remove(self.next(2) as usize);
                    }
                    format!("{{{}}}", members.join(","))
                })
                .collect();
            format!("[[{}],{}]", results.join(","), self.time())
        }
    }

    /// Holds `hot` to the general path on 20,000 inputs of `generate`, and checks that
    /// it takes enough of them for that to mean something.
    fn agrees<T: crate::json::from_value::FromValue + PartialEq + std::fmt::Debug>(
        seed: u64,
        generate: fn(&mut Gen) -> String,
        hot: Hot<T>,
        schema: &'static crate::validate::schema::Schema,
    ) {
        let (mut g, mut taken) = (Gen(crate::test_rng::Rng::for_test(seed)), 0);
        let inputs = crate::test_rng::rounds(20_000);
        for _ in 0..inputs {
            let input = generate(&mut g);
            if let Some(read) = hot(input.as_bytes(), Decimals::RUST) {
                taken += 1;
                assert_eq!(Some(read), general(input.as_bytes(), schema), "{input}");
            }
        }
        assert!(taken > inputs / 10, "the hot reader took only {taken} of {inputs} inputs");
    }

    #[test]
    fn model_responses_read_as_the_general_path_reads_them() {
        agrees(0x9E37_79B9_7F4A_7C15, Gen::model_response, model_response, &compiled::MODEL_RESPONSE);
    }

    #[test]
    fn tool_results_read_as_the_general_path_reads_them() {
        agrees(0xD1B5_4A32_D192_ED03, Gen::tool_results, tool_results, &compiled::TOOL_RESULTS);
    }

    #[test]
    fn a_typical_response_and_its_results_take_the_hot_path() {
        let response = br#"[{"text":"Looking.","toolCalls":[{"id":"c1","name":"grep","args":"{\"q\":\"bug\"}"}]},1]"#;
        let (read, now) = model_response(response, Decimals::RUST).expect("plain");
        assert_eq!((read.tool_calls[0].name.as_str(), now), ("grep", 1.0));
        let results = br#"[[{"id":"c1","output":"src/a.rs:1: bug","isError":false,"durationMs":3}],2]"#;
        let (read, _) = tool_results(results, Decimals::RUST).expect("plain");
        assert_eq!(read[0].duration_ms, Some(3.0));
    }
}
