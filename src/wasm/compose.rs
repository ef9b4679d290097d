//! `composePrompt` for JS, two ways in and one way out.
//!
//! A prompt's texts are most of its input: tens of kilobytes, mostly prose with line
//! breaks and quotes. Written as JSON they must be escaped, and V8's `JSON.stringify` of
//! them alone takes as long as composing the prompt in plain JS. So when the input's
//! shape is plain (the JS layer's `composePrompt` checks), the base prompt and the
//! components cross raw, after a small head that carries everything else; otherwise the
//! whole input crosses as any call's arguments do, and the schema says what is wrong
//! with it. The prompt comes back as fields, its text sliced from one decoded string.

use super::field_writers::WriteFields;
use super::io::fields;
use super::session::PlainJson;
use super::Input;
use super::Status;
use crate::error::Result;
use crate::json::decimals::Decimals;
use crate::prompts::compose::{compose_texts, Budget, ComposeInput, Composition, PromptParts, Texts};
use crate::prompts::compose::{BASE_MAX, COMPONENTS_MAX, NAME_MAX, TEXT_MAX, VALUE_MAX};
use crate::prompts::Language;
use crate::validate::schema::Record;
use crate::wasm::HOST;

/// `[input]`, as any call's arguments.
pub fn encoded(input: &[u8]) -> Result<Status> {
    let input = super::arguments::ComposePrompt::read(input)?.input;
    written(compose_texts(&input, &Texts::of(&input.parts), "input")?)
}

/// `[input]` as the head, with an empty base and no components; the lengths (in UTF-16
/// units) of the base, then of each component's name and text, before it; the texts raw
/// after it (see [`super::raw`]).
pub fn raw(given: Input<'_>) -> Result<Status> {
    let (mut lengths, head, mut raw) = super::raw::split(given, "composePrompt")?;
    let input = match plain_head(head, HOST) {
        Some(input) => input,
        None => super::arguments::ComposePrompt::read(head)?.input,
    };
    // (No length where one is due is one past the texts.)
    let length = |word: Option<u32>| word.map_or(usize::MAX, |n| n as usize);
    let base = raw.take(length(lengths.next()), BASE_MAX)?;
    let mut components = Vec::new();
    while let Some(name) = lengths.next() {
        if components.len() == COMPONENTS_MAX {
            return Err(raw.malformed("more components than the schema allows"));
        }
        let name = raw.take(name as usize, NAME_MAX)?;
        if name.is_empty() {
            return Err(raw.malformed("an empty component name"));
        }
        components.push((name, raw.take(length(lengths.next()), TEXT_MAX)?));
    }
    raw.finish()?;
    written(compose_texts(&input, &Texts { base, components }, "input")?)
}

/// The head `[input]` read straight into its types when it is plain: the keys
/// the JS layer writes for a prompt without a plan, each once, each value of its type
/// and within its limits. Anything else (a plan, a repeated key, a lone surrogate, a
/// value the schema refuses) is `None`, and the general path reads the head and says
/// what is wrong, so the answer never depends on which path ran (see the tests). It
/// was a tenth of `composePrompt`'s time: the general path builds a value tree, checks
/// it against the schema with copies, then converts it.
fn plain_head(head: &[u8], decimals: Decimals) -> Option<ComposeInput> {
    let mut r = PlainJson::new(head, decimals);
    r.p.eat(b'[').then_some(())?;
    let mut input = ComposeInput {
        parts: PromptParts {
            base: String::new(),
            components: Vec::new(),
            features: Record::default(),
            values: Record::default(),
        },
        language: Language::En,
        plan: None,
        budget: None,
    };
    let seen = r.fields(&["base", "features", "values", "language", "budget"], &mut |r, field| {
        match field {
            0 => input.parts.base = r.string(0, BASE_MAX)?,
            1 => input.parts.features = record(r, PlainJson::boolean)?,
            2 => input.parts.values = record(r, |r| r.string(0, VALUE_MAX))?,
            3 => {
                input.language = match r.string(2, 2)?.as_str() {
                    "en" => Language::En,
                    "zh" => Language::Zh,
                    _ => return None,
                }
            }
            _ => input.budget = Some(budget(r)?),
        }
        Some(())
    })?;
    // `base` is required (the JS layer writes it empty).
    (seen & 1 == 1 && r.p.eat(b']') && r.p.at_end()).then_some(input)
}

/// A record as [`PlainJson::members`] reads an object. `__proto__`, which a record leaves out
/// as zod's does, is the general path's to handle.
fn record<'a, T>(r: &mut PlainJson<'a>, item: impl FnMut(&mut PlainJson<'a>) -> Option<T>) -> Option<Record<T>> {
    let members = r.members(item)?;
    if members.iter().any(|(key, _)| key == "__proto__") {
        return None;
    }
    Some(Record(members.into_iter().map(|(key, value)| (key.into_owned(), value)).collect()))
}

/// `{remaining, total}`, whole numbers within the schema's ranges.
fn budget(r: &mut PlainJson<'_>) -> Option<Budget> {
    let mut read = [0; 2];
    let seen = r.fields(&["remaining", "total"], &mut |r, field| {
        let n = r.p.number(r.decimals).ok().filter(|n| n.fract() == 0.0 && (0.0..=100_000.0).contains(n))?;
        read[field] = n as u32;
        Some(())
    })?;
    let [remaining, total] = read;
    (seen == 0b11 && total >= 1).then_some(Budget { remaining, total, tokens: None })
}

/// The composed prompt as fields: its text crosses as it is, where as JSON it was
/// escaped, then parsed back.
fn written(composed: Composition<'_>) -> Result<Status> {
    fields(|out| composed.write(out))
}

#[cfg(test)]
mod tests {
    use super::super::args::Args;
    use super::super::session::MEMBERS_CHECKED;
    use super::*;
    use crate::test_rng::Rng;
    use crate::validate::compiled;

    /// The general path's reading of a head.
    fn general(head: &[u8]) -> Option<ComposeInput> {
        Args::parse(head, Decimals::RUST).ok()?.options(0, "input", &compiled::COMPOSE_INPUT).ok()
    }

    /// A head in the JS layer's encoding: mostly what it writes, with the odd member,
    /// value or repeat the plain reader must give up on or read the same.
    fn head(rng: &mut Rng) -> String {
        let strings =
            ["\"\"", "\"Ada\"", "\"é😀\"", "\"a\\nb\"", "\"\\ud800\"", "\"\\u0041\"", "5", "null", "undefined"];
        let object = |rng: &mut Rng, keys: &[&str], values: &[&str]| {
            let members: Vec<String> =
                (0..rng.below(4)).map(|_| format!("\"{}\":{}", rng.pick(keys), rng.pick(values))).collect();
            format!("{{{}}}", members.join(","))
        };
        let numbers = ["0", "1", "7", "100000", "100001", "1.5", "-1", "\"3\"", "1e400"];
        let mut members: Vec<String> = (0..rng.below(5))
            .map(|_| {
                let (key, value) = match rng.below(9) {
                    0 | 1 => ("base", rng.pick(&strings).to_string()),
                    2 => (
                        "features",
                        object(
                            rng,
                            &["core", "plan", "topic_1", "__proto__", "budget"],
                            &["true", "false", "true", "1", "null"],
                        ),
                    ),
                    3 => ("values", object(rng, &["agent", "team", "__proto__", "\\u0061"], &strings)),
                    4 => ("language", rng.pick(&["\"en\"", "\"zh\"", "\"en\"", "\"fr\"", "null"]).to_string()),
                    5 => ("budget", object(rng, &["remaining", "total", "total", "x"], &numbers)),
                    6 => ("plan", rng.pick(&["{\"goal\":\"g\"}", "null"]).to_string()),
                    7 => ("components", "[]".to_owned()),
                    _ => ("x", "1".to_owned()),
                };
                format!("\"{key}\":{value}")
            })
            .collect();
        if rng.below(4) > 0 {
            members.insert(0, "\"base\":\"\"".to_owned());
        }
        // (The JS layer writes nothing after the input.)
        let after = rng.pick(&["", "", "", ",5"]);
        format!("[{{{}}}{after}]", members.join(","))
    }

    #[test]
    fn heads_read_as_the_general_path_reads_them() {
        let (mut rng, mut taken) = (Rng::for_test(0xA076_1D64_78BD_642F), 0);
        let heads = crate::test_rng::rounds(30_000);
        for _ in 0..heads {
            let head = head(&mut rng);
            if let Some(read) = plain_head(head.as_bytes(), Decimals::RUST) {
                taken += 1;
                assert_eq!(Some(read), general(head.as_bytes()), "{head}");
            }
        }
        assert!(taken > heads / 10, "the plain reader took only {taken} of {heads} heads");
    }

    #[test]
    fn a_record_of_many_keys_is_left_to_the_general_path() {
        let values: Vec<String> = (0..MEMBERS_CHECKED + 1).map(|i| format!("\"k{i}\":\"v\"")).collect();
        let head = format!("[{{\"base\":\"\",\"values\":{{{}}}}}]", values.join(","));
        assert!(plain_head(head.as_bytes(), Decimals::RUST).is_none(), "a look back over every key would be quadratic");
        let input = general(head.as_bytes()).expect("the general path reads it");
        assert_eq!(input.parts.values.0.len(), MEMBERS_CHECKED + 1);
        let fewer = format!("[{{\"base\":\"\",\"values\":{{{}}}}}]", values[1..].join(","));
        assert_eq!(plain_head(fewer.as_bytes(), Decimals::RUST), general(fewer.as_bytes()));
    }

    #[test]
    fn the_head_the_js_layer_writes_is_plain() {
        let head = br#"[{"features":{"planner_tools":false},"values":{"agent":"Ada"},"base":"","budget":{"remaining":2,"total":4}}]"#;
        let input = plain_head(head, Decimals::RUST).expect("plain");
        assert_eq!(input.parts.values.get("agent").map(String::as_str), Some("Ada"));
        assert_eq!(input.budget, Some(Budget { remaining: 2, total: 4, tokens: None }));
        assert_eq!(Some(input), general(head));
    }
}
