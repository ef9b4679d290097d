//! The capsule a run hands back to whoever started it (seed 004 §7): how it stands, what
//! it found and the tool calls that back it, its list, its budget, and one text for a
//! parent model to read in place of the run's transcript, within a cap. A run that ended
//! on a tool call nobody answered, or with no words, still hands back a capsule
//! (`partial`), never nothing.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::struct_from_value;
use crate::plan::todos::{Todo, TodoStatus};
use crate::prompts::{self, HandoffHeadings};
use crate::session::evidence::ItemEvidence;
use crate::session::turn::{EndedAs, Receipt};
use crate::text::visible::visible;
use crate::text::{self, cap, one_line};

use super::Session;

/// The longest `summary`, in characters: one paragraph.
const SUMMARY_CAP: usize = 600;
/// The most questions kept from the run's last words, and the longest of each.
const QUESTIONS_MAX: usize = 3;
const QUESTION_CAP: usize = 200;
/// The longest line of `text` for a finding, a receipt or a todo.
const LINE_CAP: usize = 240;
/// The most receipts of an item its line in `text` is followed by.
const ITEM_RECEIPTS_SHOWN: usize = 3;
/// The longest `transcriptRef`.
const REF_CAP: usize = 2000;

/// How a run stands when it hands back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HandoffStatus {
    /// It gave its answer with its list finished.
    Done,
    /// It stopped short: at a limit, with items open, on a call nobody answered, or
    /// with no answer.
    Partial,
    /// It waits for the user (an approval, a plan review).
    Blocked,
    /// It failed at a limit (`onLimit: "fail"`).
    Failed,
}

impl HandoffStatus {
    /// Its name, as it is written.
    pub fn as_str(self) -> &'static str {
        match self {
            HandoffStatus::Done => "done",
            HandoffStatus::Partial => "partial",
            HandoffStatus::Blocked => "blocked",
            HandoffStatus::Failed => "failed",
        }
    }
}

/// The options of `handoff`.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct HandoffOptions {
    /// Where the host keeps the run's full transcript (a file, a URL, an id), for a
    /// reader who needs more than the capsule.
    #[serde(default)]
    #[schemars(with = "String", length(max = REF_CAP))]
    pub transcript_ref: Option<String>,
    /// The most characters of `text`.
    #[serde(default = "default_max_chars")]
    #[schemars(range(min = 500, max = 20_000))]
    pub max_chars: u32,
}

struct_from_value!(HandoffOptions, "camelCase" { transcript_ref, max_chars = default_max_chars() });

fn default_max_chars() -> u32 {
    4000
}

impl Default for HandoffOptions {
    fn default() -> Self {
        HandoffOptions { transcript_ref: None, max_chars: default_max_chars() }
    }
}

/// What a run hands back: seed 004's capsule and how the run stands, bounded.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Handoff {
    pub status: HandoffStatus,
    pub goal: String,
    /// One paragraph: the run's answer, or what it did and what is next.
    pub summary: String,
    /// What the run learned from its tools, the last few.
    pub key_findings: Vec<String>,
    /// The tool calls of the run's last turn whose results came in, the last 32.
    pub evidence: Vec<Receipt>,
    /// What the run's last words ask.
    pub open_questions: Vec<String>,
    /// The run's list as it ended.
    pub todos: Vec<Todo>,
    /// Its items still open.
    pub next_actions: Vec<String>,
    /// The model calls of its last turn, and that turn's time (less any wait for the user).
    pub iterations: u32,
    pub elapsed_ms: f64,
    pub transcript_ref: Option<String>,
    /// All of the above as one text for a parent model, within `maxChars`.
    pub text: String,
    /// The receipts of each item of `todos`: the calls made while it was in progress.
    pub item_evidence: Vec<ItemEvidence>,
}

impl Session {
    /// What this run hands back to whoever started it, at `now` (see the module docs).
    pub fn handoff(&self, options: HandoffOptions, now: f64) -> Handoff {
        let turn = self.turn.as_ref();
        let ending = turn.and_then(|t| t.ending.as_ref());
        let status = match (ending.map(|e| e.how), turn.is_some_and(|t| t.open)) {
            (Some(EndedAs::Failed), _) => HandoffStatus::Failed,
            (_, true) if self.awaiting_approval() => HandoffStatus::Blocked,
            _ if self.pending_review.is_some() => HandoffStatus::Blocked,
            (Some(EndedAs::Finalized), false) if !self.unfinished() && ending.is_some_and(|e| has_words(&e.words)) => {
                HandoffStatus::Done
            }
            _ => HandoffStatus::Partial,
        };
        let words = ending.map(|e| e.words.as_str()).filter(|w| has_words(w));
        let summary = match words {
            Some(words) => cap(&one_line(first_paragraph(words)), SUMMARY_CAP),
            None => {
                let (done, next) = self.done_and_next();
                cap(&prompts::stopped_short(self.config.language, &done, next.as_deref()), SUMMARY_CAP)
            }
        };
        let todos = self.planner.todos().to_vec();
        let next_actions = todos.iter().filter(|t| t.status != TodoStatus::Completed).map(|t| t.content.clone());
        let mut handoff = Handoff {
            status,
            goal: cap(self.goal().trim(), SUMMARY_CAP),
            summary,
            key_findings: self.findings.iter().cloned().collect(),
            evidence: turn.map(|t| t.receipts.clone()).unwrap_or_default(),
            open_questions: words.map(questions).unwrap_or_default(),
            next_actions: next_actions.collect(),
            todos,
            iterations: turn.map_or(0, |t| t.iterations),
            elapsed_ms: turn.map_or(0.0, |t| t.elapsed(now)),
            transcript_ref: options.transcript_ref.map(|r| cap(&r, REF_CAP)),
            text: String::new(),
            item_evidence: self.item_evidence(),
        };
        handoff.text = render(&handoff, prompts::handoff_headings(self.config.language), options.max_chars as usize);
        handoff
    }
}

fn has_words(text: &str) -> bool {
    !text.trim().is_empty()
}

/// The text up to its first blank line. (Looked for byte by byte: a `str` pattern
/// search brings core's slicing panics into the module, 3.3 KB.)
fn first_paragraph(text: &str) -> &str {
    let text = text.trim_start();
    let end = text.as_bytes().windows(2).position(|pair| pair == b"\n\n").unwrap_or(text.len());
    text::part(text, ..end)
}

/// The sentences of `words` that end with a question mark, the first few.
fn questions(words: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut start = 0;
    for (at, c) in words.char_indices() {
        if matches!(c, '.' | '!' | '\n' | '。' | '！') {
            start = at + c.len_utf8();
        } else if matches!(c, '?' | '？') {
            let sentence = one_line(text::part(words, start..at + c.len_utf8()));
            if found.len() < QUESTIONS_MAX && !sentence.is_empty() {
                found.push(cap(&sentence, QUESTION_CAP));
            }
            start = at + c.len_utf8();
        }
    }
    found
}

/// The capsule as one text within `max` characters: a heading line, then a line per
/// entry, each shown as `text::visible` shows untrusted text (one line, nothing hidden,
/// capped), so that no line is one a tool or the model wrote; past `max`, cut with a last
/// line that says so.
fn render(handoff: &Handoff, headings: HandoffHeadings, max: usize) -> String {
    let mut lines = vec![format!("{} ({})", headings.capsule, handoff.status.as_str())];
    let mut field = |heading: &str, value: &str| lines.push(format!("{heading}: {}", visible(value, LINE_CAP)));
    field(headings.goal, &handoff.goal);
    field(headings.summary, &handoff.summary);
    let done = handoff.todos.iter().filter(|t| t.status == TodoStatus::Completed).count();
    let mark = |t: &Todo| match t.status {
        TodoStatus::Completed => "[x]",
        TodoStatus::InProgress => "[~]",
        TodoStatus::Pending => "[ ]",
    };
    // Each item, then the last few receipts that back it.
    if !handoff.todos.is_empty() {
        lines.push(format!("{} ({done}/{}):", headings.todos, handoff.todos.len()));
    }
    for t in &handoff.todos {
        lines.push(format!("- {}", visible(&format!("{} {}", mark(t), t.content), LINE_CAP)));
        let found = handoff.item_evidence.iter().find(|e| e.todo_id == t.id);
        let receipts = found.map_or(&[][..], |e| e.receipts.as_slice());
        for receipt in &receipts[receipts.len().saturating_sub(ITEM_RECEIPTS_SHOWN)..] {
            lines.push(format!("  · {}", visible(&receipt.line(), LINE_CAP)));
        }
    }
    let mut list = |heading: &str, items: Vec<String>| {
        if !items.is_empty() {
            lines.push(format!("{heading}:"));
            lines.extend(items.iter().map(|item| format!("- {}", visible(item, LINE_CAP))));
        }
    };
    list(headings.findings, handoff.key_findings.clone());
    let receipt = |r: &Receipt| format!("{} {} {}", r.name, r.id, if r.ok { "ok" } else { "error" });
    list(headings.evidence, handoff.evidence.iter().map(receipt).collect());
    list(headings.questions, handoff.open_questions.clone());
    // (In whole milliseconds: printing a float would bring Rust's float formatting into
    // the module, 20 KB gzip.)
    let elapsed = handoff.elapsed_ms.round() as u64;
    lines.push(format!("{}: {} · {elapsed} ms", headings.budget, handoff.iterations));
    if let Some(reference) = &handoff.transcript_ref {
        lines.push(format!("{}: {}", headings.transcript, visible(reference, LINE_CAP)));
    }
    fit(&lines, headings.cut, max)
}

/// `lines` joined, as many whole lines as fit in `max` characters with the `cut` line
/// after them when some are left out.
fn fit(lines: &[String], cut: &str, max: usize) -> String {
    let mut text = String::new();
    let mut used = 0;
    for (i, line) in lines.iter().enumerate() {
        let length = line.chars().count() + usize::from(i > 0);
        let room_for_cut = if i + 1 < lines.len() { cut.chars().count() + 1 } else { 0 };
        if used + length + room_for_cut > max {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&cap(cut, max.saturating_sub(used + 1)));
            return text;
        }
        if i > 0 {
            text.push('\n');
        }
        text.push_str(line);
        used += length;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_are_the_sentences_that_ask() {
        let words = "I read the file. Should I also fix the tests? Done!\nWhich branch?";
        assert_eq!(questions(words), ["Should I also fix the tests?", "Which branch?"]);
        assert!(questions("No question here.").is_empty());
    }

    #[test]
    fn a_text_over_its_cap_keeps_whole_lines_and_says_it_was_cut() {
        let lines: Vec<String> = (0..100).map(|i| format!("line {i} {}", "x".repeat(50))).collect();
        let text = fit(&lines, "(cut)", 500);
        assert!(text.chars().count() <= 500, "{}", text.chars().count());
        assert!(text.ends_with("\n(cut)"), "{text}");
        assert!(text.lines().all(|l| l == "(cut)" || l.starts_with("line ")));
        assert_eq!(fit(&lines[..2], "(cut)", 500), lines[..2].join("\n"));
    }
}
