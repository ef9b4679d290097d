//! What a session says about goals and evidence: the goal check, the re-plan after a
//! goal found not met, the request for the work behind unbacked items, and the trail's
//! note of an item completed with no receipt.

use super::{fill, Language};
use crate::plan::todos::Todo;
use crate::text::cap;

const CHECK_EN: &str = include_str!("goal/check.en.md");
const CHECK_ZH: &str = include_str!("goal/check.zh.md");
const UNMET_EN: &str = include_str!("goal/unmet.en.md");
const UNMET_ZH: &str = include_str!("goal/unmet.zh.md");
const EVIDENCE_EN: &str = include_str!("goal/evidence.en.md");
const EVIDENCE_ZH: &str = include_str!("goal/evidence.zh.md");

/// The most items a message lists, and the characters shown of each.
pub const ITEMS_SHOWN: usize = 20;
const ITEM_SHOWN: usize = 140;
/// The most receipts shown for an item.
const RECEIPTS_SHOWN: usize = 3;

/// The goal check (`completion.verify: "nudge"`): the goal, its criteria numbered, and
/// `evidence`, a line per item.
pub fn goal_check(language: Language, goal: &str, criteria: &[String], evidence: &[String]) -> String {
    let template = match language {
        Language::En => CHECK_EN,
        Language::Zh => CHECK_ZH,
    };
    let values = [("goal", goal), ("criteria", &numbered(language, criteria)), ("evidence", &lines(evidence))];
    fill(template, &values).trim_end().to_owned()
}

/// The re-plan after the host found the goal not met, for `reason`.
pub fn goal_unmet(language: Language, goal: &str, criteria: &[String], reason: &str) -> String {
    let template = match language {
        Language::En => UNMET_EN,
        Language::Zh => UNMET_ZH,
    };
    let reason = match (reason.is_empty(), language) {
        (false, _) => reason,
        (true, Language::En) => "(no reason given)",
        (true, Language::Zh) => "（未说明原因）",
    };
    let values = [("goal", goal), ("criteria", &numbered(language, criteria)), ("reason", reason)];
    fill(template, &values).trim_end().to_owned()
}

/// The request for the work behind `items`, completed with no receipt.
pub fn evidence_missing(language: Language, items: &[String]) -> String {
    let template = match language {
        Language::En => EVIDENCE_EN,
        Language::Zh => EVIDENCE_ZH,
    };
    let shown: Vec<String> =
        items.iter().take(ITEMS_SHOWN).map(|item| ["- ", &cap(item, ITEM_SHOWN)].concat()).collect();
    fill(template, &[("items", &lines(&shown))]).trim_end().to_owned()
}

/// An item and the last of its receipts, in one line.
pub fn item_line(language: Language, todo: &Todo, receipts: &[String]) -> String {
    let mut line = [todo.status.mark(), " ", &cap(&todo.content, ITEM_SHOWN), ": "].concat();
    match receipts.is_empty() {
        true => line.push_str(match language {
            Language::En => "no tool calls",
            Language::Zh => "没有工具调用",
        }),
        false => line.push_str(&receipts[receipts.len().saturating_sub(RECEIPTS_SHOWN)..].join("; ")),
    }
    line
}

/// The trail's note of item `id` completed with no receipt.
pub fn unbacked_note(language: Language, id: &str) -> String {
    match language {
        Language::En => [id, ": completed with no receipt"].concat(),
        Language::Zh => [id, ": 标记完成但没有工具调用记录"].concat(),
    }
}

/// The trail's note for an item completed with receipts: the calls that back it.
pub fn backed_note(language: Language, id: &str, calls: &[&str]) -> String {
    let by = match language {
        Language::En => ": completed, backed by ",
        Language::Zh => ": 已完成，依据调用 ",
    };
    [id, by, &calls.join(", ")].concat()
}

/// The criteria numbered, one per line (a line saying there are none when so).
fn numbered(language: Language, criteria: &[String]) -> String {
    if criteria.is_empty() {
        return match language {
            Language::En => "(none given: judge by the goal)".to_owned(),
            Language::Zh => "（未给出：以目标为准）".to_owned(),
        };
    }
    // (A goal has at most 8 criteria: their numbers are written out, not formatted.)
    const NUMBERS: [&str; 8] = ["1. ", "\n2. ", "\n3. ", "\n4. ", "\n5. ", "\n6. ", "\n7. ", "\n8. "];
    let mut text = String::new();
    for (number, criterion) in NUMBERS.iter().zip(criteria) {
        text.push_str(number);
        text.push_str(criterion);
    }
    text
}

fn lines(items: &[String]) -> String {
    items.join("\n")
}
