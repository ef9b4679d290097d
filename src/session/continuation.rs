//! Seed 003's continuation protocol: the model says whether it is done.
//!
//! With the protocol on, each text reply carries a `continuation` object, bare (the whole
//! reply is `{"response": …, "continuation": …}`), in a fenced code block, or trailing the
//! prose. Its `status` (CONTINUE or TERMINATE) decides, its `progress` feeds the session's
//! progress, and it is cut from the answer the user sees. Without an object, the wording
//! decides when `requireExplicitSignal` is off (termination phrases first); otherwise, and
//! when nothing matches, the reply terminates.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json;
use crate::json::decimals::Decimals;
use crate::json::from_value::struct_from_value;
use crate::json::value::Value;
use crate::text::{find, part, word_places};

/// What the model asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    Continue,
    Terminate,
}

/// Where the decision came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// A `continuation` object.
    Explicit,
    /// A phrase in the reply (the fallback).
    Pattern,
    /// Nothing said; the protocol's default.
    Default,
}

/// Progress the model reported in its `continuation` object.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportedProgress {
    #[schemars(required, transform = crate::validate::schema::nullable)]
    pub current_step: Option<u32>,
    #[schemars(required, transform = crate::validate::schema::nullable)]
    pub total_steps: Option<u32>,
    #[schemars(required, transform = crate::validate::schema::nullable)]
    pub completion_percentage: Option<f64>,
}

struct_from_value!(ReportedProgress, "camelCase" { current_step, total_steps, completion_percentage });

/// The decision for one reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Signal {
    pub status: Status,
    pub source: Source,
    pub reason: Option<String>,
    pub progress: Option<ReportedProgress>,
}

/// A reply with its `continuation` object read and removed.
#[derive(Debug, Clone, PartialEq)]
pub struct SignalledReply {
    /// The answer the user sees.
    pub answer: String,
    pub signal: Signal,
}

/// Seed 003's `a.*b` phrases (with `\bTERMINATE\b` and `\bCONTINUE\b` checked as words).
const TERMINATION: &[&[&str]] =
    &[&["\"status\":", "\"terminate\""], &["task", "completed"], &["finished", "successfully"]];
const CONTINUATION: &[&[&str]] = &[&["\"status\":", "\"continue\""], &["need", "more", "steps"], &["not", "finished"]];

/// Reads `text` under the protocol.
pub fn read(text: &str, require_explicit_signal: bool, decimals: Decimals) -> SignalledReply {
    if let Some((answer, object)) = find_object(text, decimals) {
        if let Some(signal) = explicit(&object) {
            return SignalledReply { answer, signal };
        }
    }
    let signal = match (require_explicit_signal, by_wording(text)) {
        (false, Some(status)) => Signal { status, source: Source::Pattern, reason: None, progress: None },
        _ => Signal { status: Status::Terminate, source: Source::Default, reason: None, progress: None },
    };
    SignalledReply { answer: text.trim().to_owned(), signal }
}

/// The reply without its protocol object, and the object: bare, fenced, or trailing.
fn find_object(text: &str, decimals: Decimals) -> Option<(String, Value<'static>)> {
    let trimmed = text.trim();
    if let Some(object) = protocol_object(trimmed, decimals) {
        let answer = object.get("response").and_then(Value::as_str).unwrap_or("").trim().to_owned();
        return Some((answer, object));
    }
    let mut search = 0;
    while let Some(open) = find(part(text, search..), "```").map(|i| search + i) {
        let Some(body_start) = part(text, open + 3..).find('\n').map(|i| open + 3 + i + 1) else { break };
        let Some(close) = find(part(text, body_start..), "```").map(|i| body_start + i) else { break };
        if let Some(object) = protocol_object(part(text, body_start..close).trim(), decimals) {
            let answer = format!("{}\n{}", part(text, ..open).trim_end(), part(text, close + 3..).trim_start());
            return Some((answer.trim().to_owned(), object));
        }
        search = close + 3;
    }
    // A trailing object: try the last few `{` first (inner ones fail on the closing braces).
    for (start, _) in trimmed.rmatch_indices('{').take(32) {
        if let Some(object) = protocol_object(part(trimmed, start..), decimals) {
            return Some((part(trimmed, ..start).trim_end().to_owned(), object));
        }
    }
    None
}

/// `text` as a JSON object with a `continuation` key.
fn protocol_object(text: &str, decimals: Decimals) -> Option<Value<'static>> {
    if !text.starts_with('{') || find(text, "\"continuation\"").is_none() {
        return None;
    }
    let document = json::parse(text.as_bytes(), decimals).ok()?;
    let object = match crate::validate::schema::validate(&crate::validate::schema::Schema::Any, &*document, decimals) {
        Ok(Ok(value)) => value.into_owned(),
        _ => return None,
    };
    object.get("continuation").is_some().then_some(object)
}

fn explicit(object: &Value<'_>) -> Option<Signal> {
    let continuation = object.get("continuation")?;
    let status = match continuation.get("status").and_then(Value::as_str)?.to_ascii_uppercase().as_str() {
        "CONTINUE" => Status::Continue,
        "TERMINATE" => Status::Terminate,
        _ => return None,
    };
    let reason = continuation.get("reason").and_then(Value::as_str).map(|r| crate::text::cap(r, 500));
    let progress = continuation.get("progress").filter(|p| matches!(p, Value::Object(_))).map(|p| {
        let count = |key: &str| match p.get(key) {
            Some(Value::Number(n)) if *n >= 0.0 && n.fract() == 0.0 && *n <= f64::from(u32::MAX) => Some(*n as u32),
            _ => None,
        };
        let percentage = match p.get("completion_percentage") {
            Some(Value::Number(n)) if (0.0..=100.0).contains(n) => Some(*n),
            _ => None,
        };
        ReportedProgress {
            current_step: count("current_step"),
            total_steps: count("total_steps"),
            completion_percentage: percentage,
        }
    });
    Some(Signal { status, source: Source::Explicit, reason, progress })
}

/// Seed 003's phrases, case-insensitive, each within one line: termination first.
fn by_wording(text: &str) -> Option<Status> {
    // ASCII case is enough: the phrases are English (see `intent::is_continue`).
    let lower = text.to_ascii_lowercase();
    let lines: Vec<&str> = lower.lines().collect();
    let matches = |phrases: &[&[&str]], word: &str| {
        lines.iter().any(|line| has_word(line, word) || phrases.iter().any(|words| in_order(line, words)))
    };
    if matches(TERMINATION, "terminate") {
        Some(Status::Terminate)
    } else if matches(CONTINUATION, "continue") {
        Some(Status::Continue)
    } else {
        None
    }
}

/// `word` with a non-word character (or nothing) on each side.
fn has_word(line: &str, word: &str) -> bool {
    word_places(line, word, |c| c.is_alphanumeric() || c == '_').next().is_some()
}

/// Every one of `words`, in this order (seed 003's `a.*b` patterns).
fn in_order(line: &str, words: &[&str]) -> bool {
    let mut rest = line;
    for word in words {
        match find(rest, word) {
            Some(i) => rest = part(rest, i + word.len()..),
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(text: &str, require: bool) -> (Status, Source) {
        let reading = read(text, require, Decimals::RUST);
        (reading.signal.status, reading.signal.source)
    }

    #[test]
    fn an_explicit_object_decides_wherever_it_is() {
        let bare =
            r#"{"response": "Working on it.", "continuation": {"status": "CONTINUE", "reason": "2 files left"}}"#;
        let reading = read(bare, true, Decimals::RUST);
        assert_eq!((reading.answer.as_str(), reading.signal.status), ("Working on it.", Status::Continue));
        assert_eq!(reading.signal.reason.as_deref(), Some("2 files left"));

        let fenced = "All tests pass.\n```json\n{\"continuation\": {\"status\": \"TERMINATE\"}}\n```\nBye.";
        let reading = read(fenced, true, Decimals::RUST);
        assert_eq!((reading.answer.as_str(), reading.signal.status), ("All tests pass.\nBye.", Status::Terminate));

        let trailing = "Step 2 of 5 done. {\"continuation\": {\"status\": \"continue\", \"progress\": {\"current_step\": 2, \"total_steps\": 5, \"completion_percentage\": 40}}}";
        let reading = read(trailing, true, Decimals::RUST);
        assert_eq!(
            (reading.answer.as_str(), reading.signal.status, reading.signal.source),
            ("Step 2 of 5 done.", Status::Continue, Source::Explicit)
        );
        assert_eq!(
            reading.signal.progress,
            Some(ReportedProgress { current_step: Some(2), total_steps: Some(5), completion_percentage: Some(40.0) })
        );
    }

    #[test]
    fn without_an_object_and_with_require_explicit_signal_the_reply_terminates() {
        assert_eq!(status("I need more steps to finish.", true), (Status::Terminate, Source::Default));
        assert_eq!(status(r#"{"continuation": {"status": "MAYBE"}}"#, true), (Status::Terminate, Source::Default));
    }

    #[test]
    fn the_fallback_checks_termination_phrases_first_then_continuation_then_terminates() {
        assert_eq!(status("I need more steps for this.", false), (Status::Continue, Source::Pattern));
        assert_eq!(status("The work is not finished yet.", false), (Status::Continue, Source::Pattern));
        assert_eq!(status("I will CONTINUE.", false), (Status::Continue, Source::Pattern));
        assert_eq!(status("Task completed, though I could continue.", false), (Status::Terminate, Source::Pattern));
        assert_eq!(status("Everything finished successfully.", false), (Status::Terminate, Source::Pattern));
        assert_eq!(status("Here is the answer.", false), (Status::Terminate, Source::Default));
        // Words inside other words do not count; patterns do not cross lines.
        assert_eq!(status("continued discontinue", false), (Status::Terminate, Source::Default));
        assert_eq!(status("need\nmore steps", false), (Status::Terminate, Source::Default));
    }
}
