//! The reasoning trail: what the agent planned, did, saw and concluded, one short
//! tagged line each (seed 004 §5.3), instead of a wall of tool calls.
//!
//! `[Plan] 2/4 done · now: search_vault`, `[Act] search_vault("q3 report")`,
//! `[Obs] search_vault ok: 3 notes`, `[Reflect] The report is in the finance folder.`
//! The log keeps the last `size` events (rolling, the default) or the whole run (full,
//! capped at [`FULL_HISTORY_CAP`] so a runaway loop cannot grow it without bound).

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Result;
use crate::json::decimals::Decimals;
use crate::json::from_value::{enum_from_value, struct_from_value};
use crate::plan::todos::{self, Todo, TodoStatus};
use crate::text::reflection::extract_reflection;
use crate::text::visible::visible;
use crate::text::{first_line, one_line};
use crate::validate::input::{Input, Kind};
use crate::validate::schema::ANY_MAX_DEPTH;

/// Events kept in `full` mode, at most.
pub const FULL_HISTORY_CAP: usize = 1000;
const ARGUMENT_CAP: usize = 60;
const OBSERVATION_CAP: usize = 100;

/// Arguments that best say what a call does, in order of preference.
const PRIMARY_ARGUMENTS: [&str; 16] = [
    "command",
    "cmd",
    "query",
    "q",
    "url",
    "path",
    "file_path",
    "filePath",
    "file",
    "pattern",
    "title",
    "name",
    "id",
    "text",
    "content",
    "message",
];

/// The kind of a reasoning step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The todo list changed.
    Plan,
    /// A tool was called.
    Act,
    /// A tool's result came back.
    Obs,
    /// The model's own one-sentence reflection.
    Reflect,
}

enum_from_value!(Phase, "lowercase" [Plan, Act, Obs, Reflect]);

impl Phase {
    /// Every phase, in declaration order (an index into this is the phase's number).
    pub const ALL: [Phase; 4] = [Phase::Plan, Phase::Act, Phase::Obs, Phase::Reflect];

    /// The phase as JS reads it (serde writes the same).
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Plan => "plan",
            Phase::Act => "act",
            Phase::Obs => "obs",
            Phase::Reflect => "reflect",
        }
    }

    pub fn tag(self) -> &'static str {
        match self {
            Phase::Plan => "[Plan]",
            Phase::Act => "[Act]",
            Phase::Obs => "[Obs]",
            Phase::Reflect => "[Reflect]",
        }
    }
}

/// One step of the trail.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ReasoningEvent {
    pub phase: Phase,
    /// One short line, without the tag.
    pub summary: String,
    pub iteration: u32,
    /// The `nowMs` it was recorded at.
    pub timestamp: f64,
}

struct_from_value!(ReasoningEvent { phase, summary, iteration, timestamp });

impl ReasoningEvent {
    /// The display line: the phase tag, a space, the summary.
    pub fn step(&self) -> String {
        format!("{} {}", self.phase.tag(), self.summary)
    }
}

/// How much of the trail to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HistoryMode {
    /// The last `size` events.
    Rolling,
    /// Every event of the run (up to 1,000).
    Full,
}

enum_from_value!(HistoryMode, "lowercase" [Rolling, Full]);

/// Options of a ReasoningLog.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct HistoryOptions {
    #[serde(default = "default_mode")]
    pub mode: HistoryMode,
    /// Events kept in rolling mode.
    #[serde(default = "default_size")]
    #[schemars(range(min = 1, max = 1000))]
    pub size: u32,
}

struct_from_value!(HistoryOptions, "camelCase" { mode = default_mode(), size = default_size() });

fn default_mode() -> HistoryMode {
    HistoryMode::Rolling
}

fn default_size() -> u32 {
    4
}

impl Default for HistoryOptions {
    fn default() -> Self {
        HistoryOptions { mode: default_mode(), size: default_size() }
    }
}

/// The tagged trail of one agent run.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "ReasoningLogData")]
pub struct ReasoningLog {
    pub(crate) options: HistoryOptions,
    events: VecDeque<ReasoningEvent>,
}

struct_from_value!(ReasoningLog, "camelCase" { options, events });

impl ReasoningLog {
    pub fn new(options: HistoryOptions) -> Self {
        ReasoningLog { options, events: VecDeque::new() }
    }

    /// `[Plan] 2/4 done · now: <id of the todo in progress>` (or `next:` the first pending).
    pub fn record_plan(&mut self, todos: &[Todo], iteration: u32, now_ms: f64) -> &ReasoningEvent {
        self.push(Phase::Plan, plan_summary(todos), iteration, now_ms)
    }

    /// `[Plan] <summary>` for plan changes that are not a todo list (a plan, a step done).
    pub fn record_plan_note(&mut self, summary: &str, iteration: u32, now_ms: f64) -> &ReasoningEvent {
        self.push(Phase::Plan, visible(&one_line(summary), OBSERVATION_CAP), iteration, now_ms)
    }

    /// `[Act] tool("primary argument")`; `args` is the call's arguments, as an object or
    /// JSON text. Shown as they are ([`visible`]): what runs is what the line says.
    /// Their decimal numbers are read and written with `decimals`.
    pub fn record_act<'a, I: Input<'a>>(
        &mut self,
        tool: &str,
        args: &I,
        iteration: u32,
        now_ms: f64,
        decimals: Decimals,
    ) -> Result<&ReasoningEvent> {
        let tool = visible(tool, ARGUMENT_CAP);
        let summary = match describe(args, PREVIEW_BYTES, Quote::AnyString, decimals)? {
            // Concatenated, not formatted: a line is written for every call.
            Some(Described::Primary(arg)) => [&tool, "(\"", &visible(&arg, ARGUMENT_CAP), "\")"].concat(),
            Some(Described::Other(other)) => [&tool, "(", &visible(&other, ARGUMENT_CAP), ")"].concat(),
            None => [&tool, "()"].concat(),
        };
        Ok(self.push(Phase::Act, summary, iteration, now_ms))
    }

    /// `[Obs] tool ok: first line of output` or `[Obs] tool failed: …`.
    pub fn record_obs(
        &mut self,
        tool: &str,
        output: &str,
        is_error: bool,
        iteration: u32,
        now_ms: f64,
    ) -> &ReasoningEvent {
        let tool = visible(tool, ARGUMENT_CAP);
        let verdict = if is_error { "failed" } else { "ok" };
        let line = first_line(output);
        let summary = if line.is_empty() {
            [&tool, " ", verdict, " (no output)"].concat()
        } else {
            [&tool, " ", verdict, ": ", &visible(&one_line(line), OBSERVATION_CAP)].concat()
        };
        self.push(Phase::Obs, summary, iteration, now_ms)
    }

    /// `[Reflect] <first visible sentence>`; nothing when the text has none.
    pub fn record_reflection(
        &mut self,
        text: &str,
        max_chars: usize,
        iteration: u32,
        now_ms: f64,
    ) -> Option<&ReasoningEvent> {
        let sentence = extract_reflection(text, max_chars)?;
        Some(self.push(Phase::Reflect, sentence, iteration, now_ms))
    }

    /// A step of a sub-agent's trail, under the parent's: `[Act] d1 › read("a.rs")`, `d1`
    /// being the delegate call that started it.
    pub fn record_nested(&mut self, call_id: &str, step: &ReasoningEvent, iteration: u32, now_ms: f64) {
        let summary = [&visible(call_id, ARGUMENT_CAP), " › ", step.summary.as_str()].concat();
        self.push(step.phase, summary, iteration, now_ms);
    }

    fn push(&mut self, phase: Phase, summary: String, iteration: u32, timestamp: f64) -> &ReasoningEvent {
        let limit = match self.options.mode {
            HistoryMode::Rolling => self.options.size as usize,
            HistoryMode::Full => FULL_HISTORY_CAP,
        };
        while self.events.len() >= limit.max(1) {
            self.events.pop_front();
        }
        self.events.push_back(ReasoningEvent { phase, summary, iteration, timestamp });
        self.events.back().unwrap_or_else(|| unreachable!("an event was just pushed"))
    }

    /// The kept events, oldest first.
    pub fn events(&self) -> std::collections::vec_deque::Iter<'_, ReasoningEvent> {
        self.events.iter()
    }

    /// The kept events as display lines, oldest first.
    pub fn steps(&self) -> Vec<String> {
        self.events.iter().map(ReasoningEvent::step).collect()
    }

    pub fn clear(&mut self) {
        self.events.clear();
    }
}

fn plan_summary(todos: &[Todo]) -> String {
    let (done, total) = todos::progress(todos);
    if total == 0 {
        return "no todos".to_owned();
    }
    let pointer = match todos::in_progress(todos) {
        Some(todo) => format!(" · now: {}", visible(&todo.id, ARGUMENT_CAP)),
        None => match todos.iter().find(|t| t.status == TodoStatus::Pending) {
            Some(todo) => format!(" · next: {}", visible(&todo.id, ARGUMENT_CAP)),
            None => String::new(),
        },
    };
    format!("{done}/{total} done{pointer}")
}

/// What a call does, for a person deciding on it: the string of a preferred key
/// (`command`, `path`, …), else its arguments as compact JSON (so arguments with no
/// such string, such as `{"__proto__": {…}}`, `{"ids": [1]}` or
/// `{"description": "list files", "argv": ["rm", "-rf", "~"]}`, are shown rather than
/// hidden behind some other string), else text that is not JSON as it is. `None` when
/// there are no arguments. The JSON is written whole (but for values nested past
/// [`ANY_MAX_DEPTH`] levels), so that a caller that cuts it keeps its end: a justification.
/// Decimal numbers are read and written with `decimals`.
pub fn describe_args<'a, I: Input<'a>>(args: &I, decimals: Decimals) -> Result<Option<String>> {
    Ok(describe(args, usize::MAX, Quote::Preferred, decimals)?
        .map(|(Described::Primary(text) | Described::Other(text))| text))
}

/// Which string argument [`describe`] may quote for a call.
#[derive(Clone, Copy, PartialEq)]
enum Quote {
    /// Only a preferred key's (what a person approves).
    Preferred,
    /// A preferred key's, else the first string-valued member (the trail's short line).
    AnyString,
}

/// What [`describe_args`] found, told apart: the trail quotes a primary argument (a
/// preferred key's string, else the first string-valued member).
enum Described {
    Primary(String),
    Other(String),
}

/// [`describe_args`], reading the arguments once, with JSON written up to about
/// `budget` bytes.
fn describe<'a, I: Input<'a>>(args: &I, budget: usize, quote: Quote, decimals: Decimals) -> Result<Option<Described>> {
    if args.kind() == Kind::String {
        let text = args.text()?.value;
        return match crate::json::parse(text.as_bytes(), decimals) {
            Ok(document) => describe(&&*document, budget, quote, decimals),
            // Arguments that are not JSON are shown as they are.
            Err(_) => Ok((!text.trim().is_empty()).then(|| Described::Other(text.to_string()))),
        };
    }
    // A preferred key that holds something else than a string (a `command` given as a
    // list of words) is what the call does: the JSON shows it, not some other string.
    let mut quote = quote;
    if args.kind() == Kind::Object {
        for key in PRIMARY_ARGUMENTS {
            if let Some(value) = args.property(key)? {
                if value.kind() == Kind::String {
                    return Ok(Some(Described::Primary(value.text()?.value.into_owned())));
                }
                quote = Quote::Preferred;
                break;
            }
        }
    }
    if args.kind() == Kind::Object && quote == Quote::AnyString {
        for (_, value) in args.entries()? {
            if value.kind() == Kind::String {
                return Ok(Some(Described::Primary(value.text()?.value.into_owned())));
            }
        }
    }
    let mut out = Vec::new();
    write_compact(args, &mut out, budget, 0, decimals)?;
    let out = String::from_utf8(out).unwrap_or_default();
    Ok((!matches!(out.as_str(), "" | "{}" | "[]" | "null")).then_some(Described::Other(out)))
}

/// Bytes of compact JSON the trail writes for a preview before it stops (its line cuts
/// it shorter).
const PREVIEW_BYTES: usize = 1024;
/// Levels of nesting a preview writes (the most tool arguments have), which bounds the
/// recursion.
const PREVIEW_DEPTH: usize = ANY_MAX_DEPTH;

/// Writes `value` as compact JSON until `out` holds `budget` bytes, `depth` levels in;
/// what is left out is written `…`, so that a preview never looks whole when it is not.
fn write_compact<'a, I: Input<'a>>(
    value: &I,
    out: &mut Vec<u8>,
    budget: usize,
    depth: usize,
    decimals: Decimals,
) -> Result<()> {
    if out.len() >= budget || depth > PREVIEW_DEPTH {
        out.extend_from_slice("…".as_bytes());
        return Ok(());
    }
    match value.kind() {
        Kind::Undefined | Kind::Null | Kind::Other => out.extend_from_slice(b"null"),
        Kind::Boolean => out.extend_from_slice(if value.boolean() { b"true" } else { b"false" }),
        Kind::Number => crate::json::write::write_number(out, value.number(), decimals),
        Kind::String => crate::json::write_string(out, &value.text()?.value),
        Kind::Array => {
            out.push(b'[');
            for index in 0..value.item_count()? {
                if index > 0 {
                    out.push(b',');
                }
                if out.len() >= budget {
                    out.extend_from_slice("…".as_bytes());
                    break;
                }
                write_compact(&value.item(index)?, out, budget, depth + 1, decimals)?;
            }
            out.push(b']');
        }
        Kind::Object => {
            out.push(b'{');
            for (index, (key, item)) in value.entries()?.into_iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                if out.len() >= budget {
                    out.extend_from_slice("…".as_bytes());
                    break;
                }
                crate::json::write_string(out, &key);
                out.push(b':');
                write_compact(&item, out, budget, depth + 1, decimals)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::value::Value;

    #[test]
    fn each_phase_reads_as_serde_writes_it() {
        for (index, phase) in Phase::ALL.into_iter().enumerate() {
            assert_eq!(serde_json::to_value(phase).unwrap(), phase.as_str());
            assert_eq!(phase as usize, index, "its number is its place in ALL");
        }
    }

    fn todo(id: &str, status: TodoStatus) -> Todo {
        Todo { id: id.into(), content: format!("do {id}"), status }
    }

    fn log(mode: HistoryMode, size: u32) -> ReasoningLog {
        ReasoningLog::new(HistoryOptions { mode, size })
    }

    #[test]
    fn plan_steps_count_progress_and_name_the_current_todo() {
        let mut l = log(HistoryMode::Full, 4);
        let todos = [
            todo("a", TodoStatus::Completed),
            todo("b", TodoStatus::Completed),
            todo("search_vault", TodoStatus::InProgress),
            todo("d", TodoStatus::Pending),
        ];
        assert_eq!(l.record_plan(&todos, 1, 5.0).step(), "[Plan] 2/4 done · now: search_vault");
        assert_eq!(l.record_plan(&todos[..2], 2, 6.0).step(), "[Plan] 2/2 done");
        assert_eq!(l.record_plan(&[todo("x", TodoStatus::Pending)], 3, 7.0).step(), "[Plan] 0/1 done · next: x");
    }

    #[test]
    fn act_and_obs_steps_are_one_short_line() {
        let mut l = log(HistoryMode::Full, 4);
        let args = Value::Object(vec![("query".into(), Value::String("q3\nreport".into()))]);
        assert_eq!(
            l.record_act("search_vault", &&args, 1, 0.0, Decimals::RUST).unwrap().step(),
            "[Act] search_vault(\"q3⏎report\")"
        );
        assert_eq!(l.record_act("list", &&Value::Undefined, 1, 0.0, Decimals::RUST).unwrap().step(), "[Act] list()");
        assert_eq!(
            l.record_obs("search_vault", "\n3 notes found\nmore", false, 1, 0.0).step(),
            "[Obs] search_vault ok: 3 notes found"
        );
        assert_eq!(
            l.record_obs("read", "ENOENT: no such file", true, 1, 0.0).step(),
            "[Obs] read failed: ENOENT: no such file"
        );
        assert_eq!(l.record_obs("touch", "", false, 1, 0.0).step(), "[Obs] touch ok (no output)");
        let long = l.record_obs("cat", &"y".repeat(500), false, 1, 0.0).summary.chars().count();
        assert_eq!(long, "cat ok: ".len() + OBSERVATION_CAP);
    }

    #[test]
    fn rolling_history_keeps_the_last_events_and_full_keeps_all() {
        let mut rolling = log(HistoryMode::Rolling, 2);
        let mut full = log(HistoryMode::Full, 2);
        for i in 0..5 {
            rolling.record_obs("t", "", false, i, 0.0);
            full.record_obs("t", "", false, i, 0.0);
        }
        assert_eq!(rolling.events().map(|e| e.iteration).collect::<Vec<_>>(), [3, 4]);
        assert_eq!(full.events().count(), 5);
        for i in 0..2000 {
            full.record_obs("t", "", false, i, 0.0);
        }
        assert_eq!(full.events().count(), FULL_HISTORY_CAP);
    }

    #[test]
    fn reflections_without_visible_text_record_nothing() {
        let mut l = log(HistoryMode::Rolling, 4);
        assert!(l.record_reflection("<think>hidden</think>", 160, 1, 0.0).is_none());
        assert_eq!(l.record_reflection("Found it. Next.", 160, 1, 0.0).unwrap().step(), "[Reflect] Found it.");
        assert_eq!(l.steps(), ["[Reflect] Found it."]);
    }

    #[test]
    fn arguments_without_a_string_are_shown_as_compact_json_numbers_as_json_writes_them() {
        let mut l = log(HistoryMode::Full, 10);
        let args = crate::json::parse(br#"{"ids": [1, 2.5, -3, 1e21, 0.1], "all": false, "to": null}"#, Decimals::RUST)
            .unwrap();
        let step = l.record_act("delete_notes", &&*args, 1, 0.0, Decimals::RUST).unwrap().step();
        assert_eq!(step, r#"[Act] delete_notes({"ids":[1,2.5,-3,1e+21,0.1],"all":false,"to":null})"#);
    }

    #[test]
    fn a_preview_that_stops_says_so_where_it_stopped() {
        let numbers: Vec<String> = (0..600).map(|n| n.to_string()).collect();
        let text = format!(r#"{{"ids":[{}],"all":true}}"#, numbers.join(","));
        let args = crate::json::parse(text.as_bytes(), Decimals::RUST).unwrap();
        let mut out = Vec::new();
        write_compact(&&*args, &mut out, PREVIEW_BYTES, 0, Decimals::RUST).unwrap();
        let preview = String::from_utf8(out).unwrap();
        assert!(preview.starts_with(r#"{"ids":[0,1,2,"#) && preview.ends_with(",…],…}"), "{preview}");
        // Nesting past the arguments' own bound is shown as `…`, not walked.
        let deep = format!("{}1{}", "[".repeat(100), "]".repeat(100));
        let shown = describe_args(&&*crate::json::parse(deep.as_bytes(), Decimals::RUST).unwrap(), Decimals::RUST)
            .unwrap()
            .unwrap();
        assert_eq!(shown, format!("{}…{}", "[".repeat(PREVIEW_DEPTH + 1), "]".repeat(PREVIEW_DEPTH + 1)));
    }

    #[test]
    fn the_primary_argument_prefers_telling_keys() {
        let primary_argument = |args: &&Value<'_>| match describe(args, PREVIEW_BYTES, Quote::AnyString, Decimals::RUST)
        {
            Ok(Some(Described::Primary(arg))) => Ok(Some(arg)),
            other => other.map(|_| None),
        };
        let args = crate::json::parse(br#"{"limit": 5, "flag": "x", "query": "q3 report"}"#, Decimals::RUST).unwrap();
        assert_eq!(primary_argument(&&*args).unwrap(), Some("q3 report".into()));
        let other = crate::json::parse(br#"{"limit": 5, "flag": "x"}"#, Decimals::RUST).unwrap();
        assert_eq!(primary_argument(&&*other).unwrap(), Some("x".into()));
        let text = Value::String(r#"{"path": "notes/a.md"}"#.into());
        assert_eq!(primary_argument(&&text).unwrap(), Some("notes/a.md".into()));
        assert_eq!(primary_argument(&&Value::Number(1.0)).unwrap(), None);
    }
}
