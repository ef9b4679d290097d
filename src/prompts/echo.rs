//! planloop's own control text in a model's reply. Small models often repeat the last
//! message they were given; echoed back, a nudge would pass for the model's answer and
//! its reflection. Every block planloop injects into a conversation is tagged, the
//! one-line nudges are fixed text, and the lines of its templates are known, so a reply
//! can be read without them: SmolLM2-135M, nudged to go on, answered with the
//! continuation's own lines, untagged (`tests/fixtures/live/`).

use std::borrow::Cow;

use super::Language;
use crate::text::{find, part, places, replace};

/// The tags of the blocks planloop injects into a conversation (the test below checks
/// that each injected template opens with one).
pub const CONTROL_TAGS: [&str; 10] = [
    "stuck",
    "plan-continuation",
    "goal-plan-reminder",
    "resume",
    "plan_feedback",
    "cut-off-call",
    "call-as-text",
    "goal-check",
    "goal-unmet",
    "evidence-missing",
];

/// Where a chat template ends a turn. A model that writes one has gone on to write the
/// next turn itself (the user's, most often): what follows is not its reply.
const END_OF_TURN: [&str; 5] = ["<|im_end|>", "<|eot_id|>", "<end_of_turn>", "<|end|>", "<|endoftext|>"];

/// Replies longer than this are not read line by line for echoed templates: an echo is
/// as long as what planloop sent, and the check stays linear with a small constant.
const ECHO_SCAN_MAX: usize = 16 * 1024;

/// `text` without planloop's control text: what follows a leaked end-of-turn marker;
/// each tagged block, to its closing tag or, when the echo was cut short, to the end;
/// each one-line nudge; and nothing at all when every line left is a line of one of
/// planloop's templates. Linear in `text`: each byte is looked at a fixed number of
/// times (once per tag, marker and nudge, and, in a short reply, per template line).
pub fn without_control_text(text: &str) -> Cow<'_, str> {
    if text.is_empty() {
        return Cow::Borrowed(text);
    }
    let text = match END_OF_TURN.iter().filter_map(|marker| leaked(text, marker)).min() {
        Some(end) => part(text, ..end),
        None => text,
    };
    let mut kept = match text.contains('<') {
        true => without_blocks(text),
        false => Cow::Borrowed(text),
    };
    for language in [Language::En, Language::Zh] {
        for nudge in [super::empty_reply(language), super::carry_on(language)] {
            if find(&kept, &nudge).is_some() {
                kept = Cow::Owned(replace(&kept, &nudge, ""));
            }
        }
    }
    if kept.len() <= ECHO_SCAN_MAX && only_template_lines(&kept) {
        return Cow::Borrowed("");
    }
    kept
}

/// Whether `text` has lines and each is a line of one of planloop's templates (the whole
/// line, or the words before its placeholder with a value after them; the last line may
/// be cut short), one of them a whole sentence.
fn only_template_lines(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|line| !line.is_empty()).collect();
    let Some((last, before)) = lines.split_last() else { return false };
    let known = template_lines();
    let whole = |line: &str| {
        known.iter().any(|(literal, open)| match open {
            true => line.starts_with(literal),
            false => line == *literal,
        })
    };
    let cut = |line: &str| known.iter().any(|(literal, _)| literal.starts_with(line) && line.chars().count() >= 4);
    // One whole sentence of a template at least: a line of the model's that merely
    // starts as one does ("Goal: met.") is its own.
    let sentence =
        |line: &&str| line.chars().count() >= 20 && known.iter().any(|(literal, open)| !open && line == literal);
    before.iter().all(|line| whole(line)) && (whole(last) || cut(last)) && lines.iter().any(sentence)
}

/// The lines of the templates planloop fills and injects: each line's words, and
/// whether a placeholder follows them (so the model's line may go on with a value).
fn template_lines() -> Vec<(&'static str, bool)> {
    let templates = [
        super::CONTINUATION_EN,
        super::CONTINUATION_ZH,
        super::REMINDER_EN,
        super::REMINDER_ZH,
        super::RESUME_EN,
        super::RESUME_ZH,
    ];
    let mut lines = Vec::new();
    for line in templates.iter().flat_map(|t| t.lines()) {
        let (literal, open) = match find(line, "{{{") {
            Some(at) => (part(line, ..at).trim(), true),
            None => (line.trim(), false),
        };
        if !literal.is_empty() {
            lines.push((literal, open));
        }
    }
    lines
}

/// Where `marker` ends the model's turn in `text`: followed by nothing or by the next
/// turn's opening token. (A reply that names the marker in a sentence goes on after it.)
fn leaked(text: &str, marker: &str) -> Option<usize> {
    places(text, marker).find(|&at| {
        let after = part(text, at + marker.len()..).trim_start();
        after.is_empty() || after.starts_with("<|") || after.starts_with("<start_of_turn>")
    })
}

fn without_blocks(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut kept = String::new();
    // `from`: the start of the text not yet kept or dropped.
    let (mut from, mut at) = (0, 0);
    while let Some(offset) = bytes.get(at..).and_then(|rest| rest.iter().position(|&b| b == b'<')) {
        at += offset;
        let Some((tag, open_end)) = opening_tag(text, at) else {
            at += 1;
            continue;
        };
        kept.push_str(part(text, from..at));
        let close = ["</", tag, ">"].concat();
        from = match find(part(text, open_end..), &close) {
            Some(end) => open_end + end + close.len(),
            None => text.len(),
        };
        at = from;
    }
    if from == 0 {
        return Cow::Borrowed(text);
    }
    kept.push_str(part(text, from..));
    Cow::Owned(kept)
}

/// The control tag that opens at byte `at` (a `<`) of `text`, and where its opening ends.
fn opening_tag(text: &str, at: usize) -> Option<(&'static str, usize)> {
    let rest = text.as_bytes().get(at + 1..)?;
    CONTROL_TAGS.iter().find_map(|tag| {
        let after = rest.strip_prefix(tag.as_bytes())?.first();
        (after == Some(&b'>')).then_some((*tag, at + tag.len() + 2))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompts::{self, FinishBy};
    use crate::session::review;

    /// Every block planloop injects, in each language, and whether it is tagged.
    fn injected(language: Language) -> Vec<(String, bool)> {
        let review = review::PlanReview {
            user_id: None,
            chat_id: None,
            turn: 1,
            goal: "g".into(),
            plan: "p".into(),
            created_at_ms: 0.0,
            expires_at_ms: 1.0,
        };
        let tagged = [
            prompts::stuck(language, "the same reply three times"),
            prompts::continuation(language, "1. a", "g", FinishBy::Todos("write_todos")),
            prompts::reminder(language, "g", "1. a"),
            prompts::resume(language, "g", "1. a", "a", Some("b")),
            review::feedback_block(&review, "skip b"),
            prompts::cut_off_call(language),
            prompts::call_as_text(language),
        ];
        let fixed = [prompts::empty_reply(language), prompts::carry_on(language)];
        tagged.into_iter().map(|t| (t, true)).chain(fixed.into_iter().map(|t| (t, false))).collect()
    }

    #[test]
    fn each_injected_block_echoed_back_leaves_nothing() {
        for language in [Language::En, Language::Zh] {
            for (block, tagged) in injected(language) {
                assert_eq!(without_control_text(&block).trim(), "", "{block}");
                // Echoed with the model's own words around it, cut short, or twice.
                let around = format!("Sure.\n{block}\nDone: 3 notes.");
                assert_eq!(
                    without_control_text(&around).split_whitespace().collect::<Vec<_>>(),
                    ["Sure.", "Done:", "3", "notes."]
                );
                let half: String = block.chars().take(block.chars().count() / 2).collect();
                let cut = format!("Well. {half}");
                if tagged {
                    assert_eq!(without_control_text(&cut).trim(), "Well.", "{cut}");
                }
                assert_eq!(without_control_text(&[block.as_str(), block.as_str()].concat()).trim(), "");
            }
        }
    }

    #[test]
    fn a_continuation_echoed_without_its_tags_leaves_nothing() {
        // SmolLM2-135M's reply to a continuation (tests/fixtures/live/echo.json).
        let echo = "\nYour goal:\nYou have just finished one step of your plan; your last message was a progress report, not the end of the task.\n\nYour goal:\nYou have<|im_end|>\n<|im_start|>user\nYou have just finished";
        assert_eq!(without_control_text(echo), "");
        let zh = "你刚完成了计划中的一个步骤。上一条消息是你的进度报告。\n目标: 整理笔记\n请继续执行计划";
        assert_eq!(without_control_text(zh), "");
    }

    #[test]
    fn answers_that_share_a_templates_words_are_kept() {
        for text in
            ["Goal: met. The summary is in summary.md.", "Plan:\n1. done", "Next: nothing.", "Your goal:\nDone."]
        {
            assert_eq!(without_control_text(text), text);
        }
        // What the model wrote before a leaked end of turn is its reply.
        assert_eq!(without_control_text("42.<|im_end|>\n<|im_start|>user\nthanks"), "42.");
        assert_eq!(without_control_text("42.<end_of_turn>"), "42.");
        let about = "ChatML ends each turn with <|im_end|>, and Llama 3 with <|eot_id|>.";
        assert_eq!(without_control_text(about), about);
        assert_eq!(
            without_control_text(&format!("{about} Done.<|im_end|>\n<|im_start|>user")),
            format!("{about} Done.")
        );
    }

    #[test]
    fn the_models_own_text_is_kept_as_it_is() {
        for text in ["", "The answer is 42.", "a < b and <b>bold</b> <stuck", "<stuckx>no</stuckx>", "</stuck> x"] {
            assert!(matches!(without_control_text(text), Cow::Borrowed(t) if t == text), "{text}");
        }
    }
}
