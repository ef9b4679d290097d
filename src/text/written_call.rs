//! A tool call written out as a reply's text. A server returns a call cut short by its
//! token cap as text (the JSON no longer parses, so it is no call), and small models write
//! calls in a template's own syntax that no server read as one: either way the call did
//! not run, and the text is no answer. Recognised by the shapes the common templates
//! write: OpenAI's and Anthropic's JSON, Hermes/Qwen `<tool_call>`, Llama's
//! `<|python_tag|>` and `<function=…>`, Mistral's `[TOOL_CALLS]`, Gemma's `tool_code`
//! block and FunctionGemma's `<start_function_call>`.

use crate::json;
use crate::json::decimals::Decimals;
use crate::json::value::Value;
use crate::text::{find, part};

/// How a reply wrote a tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WrittenCall {
    /// Cut off before its end, or not valid JSON.
    Cut,
    /// Whole, but as text.
    Whole,
}

/// Template markers that open a call written as text, and what closes it (`None`: the
/// JSON after the marker ends it).
const MARKERS: [(&str, Option<&str>); 7] = [
    ("<tool_call>", Some("</tool_call>")),
    ("<|tool_call|>", None),
    ("<|python_tag|>", None),
    ("[TOOL_CALLS]", None),
    ("<function=", Some("</function>")),
    ("<start_function_call>", Some("<end_function_call>")),
    ("```tool_code", Some("```")),
];

/// Keys that hold calls in JSON: OpenAI's, and Gemini's old and new.
const CALL_KEYS: [&str; 3] = ["tool_calls", "function_call", "functionCall"];

/// Keys a call's arguments go under, beside its `"name"`.
const ARGUMENT_KEYS: [&str; 4] = ["arguments", "parameters", "input", "args"];

/// Whether `text` (a reply with no tool calls) is a tool call written out, and how.
/// Linear in `text`; its decimal numbers are read with `decimals`.
pub fn written_call(text: &str, decimals: Decimals) -> Option<WrittenCall> {
    let text = text.trim();
    if let Some(found) = MARKERS.iter().find_map(|(open, close)| marked(text, open, *close, decimals)) {
        return Some(found);
    }
    let body = without_fence(text);
    if !body.starts_with(['{', '[']) {
        return None;
    }
    match json::parse(body.as_bytes(), decimals) {
        Ok(document) => is_call(&document).then_some(WrittenCall::Whole),
        Err(_) => names_call(body).then_some(WrittenCall::Cut),
    }
}

/// A call opened by `open` that ends the reply: cut when its `close` never comes (or,
/// without one, when the JSON after the marker does not parse), whole when nothing but
/// whitespace follows it. A reply that goes on after the call shows the syntax rather
/// than makes a call (an answer about tool calling), and is an answer.
fn marked(text: &str, open: &str, close: Option<&str>, decimals: Decimals) -> Option<WrittenCall> {
    let after = part(text, find(text, open)? + open.len()..);
    match close {
        Some(close) => match find(after, close) {
            None => Some(WrittenCall::Cut),
            Some(at) => part(after, at + close.len()..).trim().is_empty().then_some(WrittenCall::Whole),
        },
        // The marker alone, in prose, is no call: its JSON must follow.
        None if !after.trim_start().starts_with(['{', '[']) => None,
        None => match json::parse(after.trim().as_bytes(), decimals) {
            Ok(_) => Some(WrittenCall::Whole),
            Err(_) => Some(WrittenCall::Cut),
        },
    }
}

/// The inside of a ```json (or bare ```) fence around the whole text, if there is one.
fn without_fence(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("```") else { return text };
    let rest = rest.strip_prefix("json").unwrap_or(rest);
    let rest = rest.strip_suffix("```").unwrap_or(rest);
    rest.trim()
}

/// Whether a parsed reply is shaped as a call: a `tool_calls` list, a typed call, or a
/// name with arguments (alone, or first in a list).
fn is_call(value: &Value<'_>) -> bool {
    let value = match value {
        Value::Array(items) => match items.first() {
            Some(first) => first,
            None => return false,
        },
        value => value,
    };
    let has = |key: &str| value.get(key).is_some();
    let typed = matches!(value.get("type").and_then(Value::as_str), Some("function" | "tool_use"));
    let named = value.get("name").and_then(Value::as_str).is_some();
    CALL_KEYS.iter().any(|key| has(key))
        || (typed && (named || has("function")))
        || (named && ARGUMENT_KEYS.iter().any(|key| has(key)))
}

/// Whether text that does not parse names a call the way [`is_call`] reads one: any
/// of its keys, a call's type (`"tool_use"`, `"function"`), or a name with arguments.
fn names_call(text: &str) -> bool {
    let has = |key: &str| find(text, &["\"", key, "\""].concat()).is_some();
    CALL_KEYS.iter().chain(&["tool_use", "function"]).any(|key| has(key))
        || (has("name") && ARGUMENT_KEYS.iter().any(|key| has(key)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_cut_by_a_token_cap_are_cut() {
        for text in [
            r#"{"tool_calls":[{"name":"write_todos","arguments":{"todos":[{"id":"1","content":"Read a"#,
            r#"{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":"#,
            r#"{"type":"tool_use","id":"t1","name":"read","input":{"path":"a"#,
            r#"{"name": "read_note", "parameters": {"path": "a.md""#,
            r#"```json
{"name":"read","arguments":{"#,
            r#"I'll read it. <tool_call>{"name":"read","arguments":{"path":"a.md"}}"#,
            r#"<|python_tag|>{"name":"read","parameters":{"#,
            r#"[TOOL_CALLS][{"name":"read","arguments":{"path":"#,
            "<function=read>{\"path\":",
            "<start_function_call>call:read{path:<escape>a.md",
            "```tool_code\nread(path=\"a",
            r#"{"tool_calls":[{"name":"read","arguments":{}}]}}"#,
        ] {
            assert_eq!(written_call(text, Decimals::RUST), Some(WrittenCall::Cut), "{text}");
        }
    }

    #[test]
    fn whole_calls_in_text_are_whole() {
        for text in [
            r#"{"tool_calls":[{"name":"write_todos","arguments":{"todos":[]}}]}"#,
            r#"[{"type":"function","function":{"name":"read","arguments":"{}"}}]"#,
            r#"{"type":"tool_use","id":"t1","name":"read","input":{}}"#,
            r#" {"name": "read_note", "parameters": {"path": "a.md"}} "#,
            "```json\n{\"name\":\"read\",\"arguments\":{}}\n```",
            r#"<tool_call>{"name":"read","arguments":{}}</tool_call>"#,
            r#"<|python_tag|>{"name":"read","parameters":{}}"#,
            "```tool_code\nread(path=\"a.md\")\n```",
        ] {
            assert_eq!(written_call(text, Decimals::RUST), Some(WrittenCall::Whole), "{text}");
        }
    }

    #[test]
    fn answers_are_no_calls() {
        for text in [
            "",
            "The notes are summarised in summary.md.",
            r#"{"name": "Alice", "age": 31}"#,
            r#"{"summary": "3 notes", "files": ["a.md"]}"#,
            r#"{"name": "Ali"#,
            "[1, 2, 3]",
            "[]",
            "```json\n{\"ok\": true}\n```",
            "Use the `tool_calls` field.",
            // Answers about tool calling that show the syntax and go on.
            "Hermes wraps a call as <tool_call>{\"name\": \"f\"}</tool_call> and then waits for the result.",
            "Gemma writes:\n```tool_code\nread(path=\"a.md\")\n```\nThe host runs it.",
            "Mistral starts a call with [TOOL_CALLS], then its JSON list.",
        ] {
            assert_eq!(written_call(text, Decimals::RUST), None, "{text}");
        }
    }
}
