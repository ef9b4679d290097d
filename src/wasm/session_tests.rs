//! The plain reader of `session.rs` held to the general path on generated inputs.

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
                let members: Vec<String> =
                    (0..self.next(4)).map(|_| format!("\"{}\":{}", self.pick(&keys), self.any(depth + 1))).collect();
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
        let mut body = match self.next(4) {
            0 => members[0].clone(),
            1 => members[1].clone(),
            2 => format!("{},{}", members[1], members[0]),
            _ => format!("{},{}", members[0], members[1]),
        };
        if self.next(2) == 0 {
            body = format!("{body},\"usage\":{}", self.usage());
        }
        format!("[{{{body}}},{}]", self.time())
    }

    /// A `usage` value: mostly counts in range, with the odd one out of it.
    fn usage(&mut self) -> String {
        if self.next(8) == 0 {
            return self.pick(&["null", "undefined", "{}", "3", "\"5\""]).to_owned();
        }
        let counts =
            ["0", "-0", "7", "1200", "4294967295", "4294967296", "-1", "1.5", "1e300", "1e400", "null", "\"9\""];
        let keys = ["inputTokens", "outputTokens", "inputTokens", "outputTokens", "totalTokens"];
        let members: Vec<String> = (0..self.next(4))
            .map(|_| {
                let count = match self.next(3) {
                    0 => self.pick(&counts),
                    _ => self.pick(&counts[..4]),
                };
                format!("\"{}\":{count}", self.pick(&keys))
            })
            .collect();
        format!("{{{}}}", members.join(","))
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
    let counted = br#"[{"text":"Done.","toolCalls":[],"usage":{"inputTokens":1200,"outputTokens":34}},3]"#;
    let (read, _) = model_response(counted, Decimals::RUST).expect("plain");
    assert_eq!(read.usage, Some(Usage { input_tokens: Some(1200), output_tokens: Some(34) }));
    let results = br#"[[{"id":"c1","output":"src/a.rs:1: bug","isError":false,"durationMs":3}],2]"#;
    let (read, _) = tool_results(results, Decimals::RUST).expect("plain");
    assert_eq!(read[0].duration_ms, Some(3.0));
}
