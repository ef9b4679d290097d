//! The one-pass reader and the full path (a tree, then the schema's validator) give the
//! same answer to any JSON text, and the reader gives it alone: for text it is never
//! `Unsure`. (The zod differential holds both to zod; this holds them to each other on
//! what a model writes that is not plain: repeated and escaped keys, escapes, lone
//! surrogates, values of every type with and without a `length`, text that is not JSON.)
//! A host's value in the JS layer's encoding the reader answers as the full path does,
//! or leaves to it.

use super::*;
use crate::test_rng::{rounds, Rng};

/// An answer in the full path's terms: the data as JSON, or the issues.
type Answer = std::result::Result<String, Vec<Issue>>;

/// What the full path answers for `text` (a host's value in the JS layer's encoding when
/// `host`); `None` when it refuses the call (a value whose reading threw, one cut off).
fn full(text: &str, host: bool) -> Option<Answer> {
    use crate::plan::todos::{validate, ToolArgs, WriteTodosValidation};
    let args = match host {
        true => ToolArgs::<&crate::json::value::Value>::Host(text.as_bytes()),
        false => ToolArgs::Text(text.as_bytes()),
    };
    Some(match validate(args, Decimals::RUST).ok()? {
        WriteTodosValidation::Success { data, .. } => Ok(serde_json::to_string(&data).unwrap()),
        WriteTodosValidation::Failure { error, .. } => Err(error.issues),
    })
}

/// What the full path answers for JSON text (it refuses none).
fn full_answer(text: &str) -> Answer {
    full(text, false).unwrap_or_else(|| panic!("{text}: refused"))
}

/// What the one-pass reader answers for JSON text (it is never unsure of one).
fn one_pass_answer(text: &str) -> Answer {
    one_pass(text, false).unwrap_or_else(|| panic!("{text}: unsure"))
}

/// The one-pass reader's answer, in the full path's terms; `None` when it is unsure.
fn one_pass(text: &str, host: bool) -> Option<Answer> {
    Some(match read(text.as_bytes(), host, Decimals::RUST) {
        Outcome::Valid(found) => Ok(data(&found, text.as_bytes())),
        Outcome::Invalid(mistakes) => Err(mistakes.iter().map(Mistake::issue).collect()),
        Outcome::NotJson(error) => Err(vec![error.issue()]),
        Outcome::Unsure => return None,
    })
}

/// Valid arguments whose strings lie in `source`, as the full path's data (JSON).
pub(super) fn data(found: &Found, source: &[u8]) -> String {
    let source = Source::new(source);
    let todos: Vec<_> = found
        .todos
        .iter()
        .map(|t| {
            let (id, content) = (source.string(&t.id), source.string(&t.content));
            serde_json::json!({ "id": id, "content": content, "status": STATUSES[t.status as usize] })
        })
        .collect();
    let mut data = serde_json::json!({ "todos": todos });
    for (key, field) in [("focus", found.focus), ("note", found.note)] {
        match field {
            Field::Text(span) => data[key] = source.string(&span).into(),
            // (The full path's `undefined`, as JSON.)
            Field::Undefined => data[key] = serde_json::Value::Null,
            Field::Absent => {}
        }
    }
    data.to_string()
}

/// What the JS layer writes of JS values that JSON has no form for (`json::parse_host`).
const HOST_VALUES: [&str; 16] = [
    "undefined",
    "NaN",
    "Infinity",
    "-Infinity",
    "<f2>",
    "<f0>",
    "<s>",
    "<b5>",
    r#"<x"a getter threw">"#,
    "<c>",
    "<m>",
    "<a100000>",
    r#"<o"Date",0>{}"#,
    r#"<o"Point",1>{"length":3,"x":undefined}"#,
    r#"{^"x":1,"y":NaN}"#,
    r#"{^"length":3}"#,
];

/// A value the schema does not want, often one zod measures; with `host`, now and then
/// one only a host's value holds.
fn odd_value(rng: &mut Rng, out: &mut String, host: bool) {
    if host && rng.below(3) == 0 {
        return out.push_str(rng.pick::<&str>(&HOST_VALUES));
    }
    const LENGTHS: [&str; 22] = [
        "0", "1", "8", "9", "40", "41", "-1", "1e999", "\"5\"", "\" 7 \"", "\"0x9\"", "\"x\"", "\"\"", "null", "true",
        "[]", "[3]", "[[50]]", "[1,2]", "{}", "[true]", "[\"4\"]",
    ];
    match rng.below(9) {
        0 => out.push_str(rng.pick::<&str>(&["null", "true", "false", "0", "-0", "1.5", "1e999", "-1e999"])),
        1 => {
            out.push('[');
            for i in 0..rng.below(12) {
                out.push_str(if i == 0 { "" } else { "," });
                out.push_str(rng.pick::<&str>(&["1", "\"a\"", "[]", "{}", "null"]));
            }
            out.push(']');
        }
        2 => {
            let length = *rng.pick(&LENGTHS);
            let key = *rng.pick::<&str>(&["length", "l\\u0065ngth", "x"]);
            out.push_str(&format!(r#"{{"a":1,"{key}":{length}}}"#));
            if rng.below(3) == 0 {
                out.pop();
                out.push_str(&format!(r#","length":{}}}"#, rng.pick(&LENGTHS)));
            }
        }
        3 => out.push_str("{}"),
        _ => string(rng, out),
    }
}

/// A JSON string: plain, escaped, astral, with a lone surrogate, of a length near a limit.
fn string(rng: &mut Rng, out: &mut String) {
    const PIECES: [&str; 10] = ["a", "é", "😀", "\\n", "\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\\"", " ", "中"];
    let length = match rng.below(4) {
        0 => *rng.pick(&[0, 1, 39, 40, 41, 139, 140, 141, 199, 200, 201]),
        _ => rng.below(12),
    };
    let plain = rng.below(3) != 0;
    out.push('"');
    for _ in 0..length {
        out.push_str(if plain { "a" } else { rng.pick::<&str>(&PIECES) });
    }
    out.push('"');
}

fn status(rng: &mut Rng, out: &mut String, host: bool) {
    match rng.below(6) {
        0 => odd_value(rng, out, host),
        1 => out.push_str(rng.pick::<&str>(&[
            r#""pend\u0069ng""#,
            r#""done""#,
            r#""\u0063ompleted""#,
            r#""in_progress ""#,
        ])),
        _ => out.push_str(&format!(r#""{}""#, rng.pick(&STATUSES))),
    }
}

/// Members of an object: each of `keys` (spelled plainly or with an escape) with a value,
/// in a random order, some repeated, some left out, with unknown ones among them; with
/// `host`, now and then one inherited (`^`).
fn members(
    rng: &mut Rng,
    out: &mut String,
    keys: &[&str],
    host: bool,
    value: &mut dyn FnMut(&mut Rng, &str, &mut String),
) {
    let mut chosen: Vec<&str> = keys.iter().copied().filter(|_| rng.below(8) != 0).collect();
    for _ in 0..rng.below(3) {
        let known = keys[rng.below(keys.len())];
        let key = *rng.pick::<&str>(&["x", "__proto__", known]);
        chosen.insert(rng.below(chosen.len() + 1), key);
    }
    // Own keys first, then inherited ones, each hidden by no own one: as the JS layer
    // writes them (`for…in`).
    let mut inherited: Vec<bool> = chosen
        .iter()
        .map(|key| host && chosen.iter().filter(|k| *k == key).count() == 1 && rng.below(10) == 0)
        .collect();
    let mut order: Vec<usize> = (0..chosen.len()).collect();
    order.sort_by_key(|&i| inherited[i]);
    let chosen: Vec<&str> = order.iter().map(|&i| chosen[i]).collect();
    inherited.sort();
    out.push('{');
    for (i, key) in chosen.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let spelled = match rng.below(10) {
            0 => key.replacen('o', "\\u006f", 1),
            _ => key.to_string(),
        };
        if inherited[i] {
            out.push('^');
        }
        out.push_str(&format!(r#""{spelled}":"#));
        value(rng, key, out);
    }
    out.push('}');
}

/// A `write_todos` call as a model might write it, often not plain, now and then cut
/// or broken; with `host`, as the JS layer writes a JS value instead (never broken).
fn call(rng: &mut Rng, host: bool) -> String {
    let mut out = String::new();
    members(rng, &mut out, &["todos", "focus", "note"], host, &mut |rng, key, out| match (key, rng.below(10)) {
        (_, 0) => odd_value(rng, out, host),
        ("todos", _) => {
            out.push('[');
            for i in 0..*rng.pick(&[0, 1, 1, 2, 3, 8, 9]) {
                out.push_str(if i == 0 { "" } else { "," });
                match rng.below(12) {
                    0 => odd_value(rng, out, host),
                    _ => members(rng, out, &["id", "content", "status"], host, &mut |rng, key, out| match key {
                        "status" => status(rng, out, host),
                        _ if rng.below(8) == 0 => odd_value(rng, out, host),
                        _ => string(rng, out),
                    }),
                }
            }
            out.push(']');
        }
        _ => string(rng, out),
    });
    if !host && rng.below(12) == 0 {
        let at = rng.below(out.len() + 1);
        let at = (0..=at).rev().find(|&i| out.is_char_boundary(i)).unwrap_or(0);
        match rng.below(2) {
            0 => out.truncate(at),
            _ => out.insert_str(at, rng.pick::<&str>(&[",", "]", "x", " ", "\"", "{"])),
        }
    }
    out
}

#[test]
fn the_one_pass_reader_answers_any_json_text_as_the_full_path_does() {
    let mut rng = Rng::for_test(0x0a55_0e5e);
    let (mut valid, mut invalid, mut not_json) = (0, 0, 0);
    let n = rounds(30_000);
    for _ in 0..n {
        let text = call(&mut rng, false);
        let answer = one_pass_answer(&text);
        assert_eq!(answer, full_answer(&text), "{text}");
        match answer {
            Ok(_) => valid += 1,
            Err(issues) if matches!(issues[..], [Issue::InvalidJson(_)]) => not_json += 1,
            Err(_) => invalid += 1,
        }
    }
    assert!(
        valid > n / 100 && invalid > n / 2 && not_json > n / 50,
        "{valid} valid, {invalid} invalid, {not_json} not JSON"
    );
}

#[test]
fn repeated_and_escaped_keys_escapes_lengths_and_infinities_are_read_in_one_pass() {
    for text in [
        r#"{"todos":[{"id":"a","content":"b","status":"pend\u0069ng"}]}"#,
        r#"{"todos":[{"id":"a","content":"b","status":"p\u00e9nding"}]}"#,
        r#"{"todos":5,"todos":[{"id":"a","content":"b","status":"pending"}]}"#,
        r#"{"todos":[{"id":"a","content":"b","status":"pending"}],"todos":[{"id":""}]}"#,
        r#"{"todos":[{"id":"","content":"b","status":"x"}],"focus":"f","todos":[1,2]}"#,
        r#"{"todos":[{"id":"a","id":"","content":"b","status":"done","status":"completed"}]}"#,
        r#"{"note":"n","todos":[{"id":"a","content":"b","status":"pending"}],"note":"m"}"#,
        r#"{"t\u006fdos":[{"id":"a","c\u006Fntent":"b","st\u0061tus":"pending"}]}"#,
        r#"{"\ud800todos":[],"todos":[{"id":"a","content":"b","status":"pending"}]}"#,
        r#"{"todos":[{"id":1e999,"content":-1e999,"status":"pending"}],"focus":2e400}"#,
        r#"{"todos":1e999}"#,
        "-1e999",
        r#"{"todos":[{"id":"\ud800","content":"b\udc00c","status":"\ud800"}],"note":"\udfff"}"#,
        r#"{"todos":[{"id":{"length":3},"content":{"length":"x"},"status":"pending"}],"focus":{"length":41}}"#,
        r#"{"todos":{"length":9}}"#,
        r#"{"todos":{"length":[[[0]]]}}"#,
        r#"{"todos":{"length":[[1,2]]},"focus":[1,2,3]}"#,
        r#"{"todos":[{"id":[],"content":[[]],"status":[]}],"note":{"length":[true]}}"#,
        r#"{"todos":{"length":[null],"length":"  0x8 "}}"#,
    ] {
        assert_eq!(one_pass_answer(text), full_answer(text), "{text}");
    }
}

#[test]
fn a_hosts_value_is_answered_in_one_pass_as_the_full_path_answers_it_or_left_to_it() {
    let mut rng = Rng::for_test(0x0b57_ca11);
    let (mut answered, mut left) = (0, 0);
    let n = rounds(20_000);
    for _ in 0..n {
        let text = call(&mut rng, true);
        match (one_pass(&text, true), full(&text, true)) {
            (None, _) => left += 1,
            (Some(answer), Some(full)) => {
                assert_eq!(answer, full, "{text}");
                answered += 1;
            }
            (Some(answer), None) => panic!("{text}: the full path refuses it, the reader answers {answer:?}"),
        }
    }
    assert!(answered > n * 3 / 4 && left > n / 100, "{answered} answered in one pass, {left} left to the full path");
}
