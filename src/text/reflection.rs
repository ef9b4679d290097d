//! One short sentence of the model's visible text, for the `[Reflect]` step.
//!
//! Seed 004 asks for "concise operational reflection summaries" and warns against
//! exposing hidden reasoning. So everything inside reasoning tags (`<think>`,
//! `<thinking>`, `<reasoning>`, `<scratchpad>`, `<analysis>`, …) is dropped before a
//! sentence is picked, including an unclosed opening tag (a reply cut mid-thought) and the
//! text before an orphan closing tag (models whose opening tag sits in the prompt).

use std::borrow::Cow;

use crate::text::{cap_words, part, replace};

/// The default cap of [`extract_reflection`], in code points.
pub const DEFAULT_MAX_CHARS: usize = 160;

const HIDDEN_TAGS: [&str; 8] =
    ["think", "thinking", "thought", "thoughts", "reasoning", "scratchpad", "analysis", "inner_monologue"];

const ABBREVIATIONS: [&str; 9] = ["e.g", "i.e", "etc", "vs", "mr", "mrs", "dr", "st", "cf"];

/// The first sentence of `text`'s visible part, capped at `max_chars`; `None` when
/// nothing visible remains.
pub fn extract_reflection(text: &str, max_chars: usize) -> Option<String> {
    let max_chars = max_chars.max(1);
    let visible = strip_hidden(text);
    // Capping the sentence looks at its first `max_chars + 1` characters, and telling
    // where it ends one further: prose past that changes nothing, so reading lines stops
    // there (a reply of a thousand characters took three quarters of its decision's time
    // before).
    let prose = prose_lines(&visible, max_chars + 2);
    let sentence = first_sentence(&prose);
    if sentence.is_empty() {
        None
    } else {
        Some(cap_words(sentence, max_chars))
    }
}

/// Removes reasoning blocks in one pass. Tags match case-insensitively and may carry
/// attributes; a closing tag with no opening one hides everything before it. Text with
/// no such tag (the usual) is not copied.
fn strip_hidden(text: &str) -> Cow<'_, str> {
    let mut visible = String::new();
    let mut hidden_by: Option<&str> = None;
    let mut ends = TagEnds { text, next: None };
    let mut from = 0; // start of the text not yet copied or dropped
    let mut at = 0;
    while let Some(i) = part(text, at..).find('<') {
        let start = at + i;
        at = start + 1;
        let Some((tag, closing, end)) = hidden_tag_at(text, start, &mut ends) else { continue };
        match (hidden_by, closing) {
            (None, false) => {
                visible.push_str(part(text, from..start));
                visible.push(' ');
                hidden_by = Some(tag);
            }
            (Some(open), true) if open == tag => hidden_by = None,
            (None, true) => visible.clear(),
            _ => continue,
        }
        from = end;
        at = end;
    }
    if from == 0 && hidden_by.is_none() {
        return Cow::Borrowed(text);
    }
    if hidden_by.is_none() {
        visible.push_str(part(text, from..));
    }
    Cow::Owned(visible)
}

/// The longest name in [`HIDDEN_TAGS`].
const LONGEST_TAG: usize = "inner_monologue".len();

/// The hidden tag starting at byte `start` of `text`: its name, whether it closes, and
/// the byte after its `>`. Only the name's few bytes are read here; the `>` that ends
/// a tag with attributes comes from `ends`.
fn hidden_tag_at(text: &str, start: usize, ends: &mut TagEnds<'_>) -> Option<(&'static str, bool, usize)> {
    let rest = part(text, start + 1..);
    let (closing, rest) = match rest.strip_prefix('/') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    // A name longer than the longest tag's is none of them: no need to read to its end.
    let name_len = rest.bytes().take(LONGEST_TAG + 1).take_while(|&b| b.is_ascii_alphanumeric() || b == b'_').count();
    let tag = HIDDEN_TAGS.into_iter().find(|t| t.eq_ignore_ascii_case(part(rest, ..name_len)))?;
    let after = text.len() - rest.len() + name_len;
    let close = match part(text, after..).chars().next() {
        Some('>') => after,
        Some(c) if c.is_whitespace() && !closing => ends.first_from(after)?,
        _ => return None,
    };
    Some((tag, closing, close + 1))
}

/// Where the next `>` of a text is. Tags are read left to right, so the `>` found for
/// one tag (or the finding that none follows) still answers for every later tag before
/// it: each byte is searched once, where searching from each tag to its `>` read the rest
/// of the text again for every `<think ` without one (quadratic).
struct TagEnds<'a> {
    text: &'a str,
    /// The first `>` after the last place searched from (`text.len()` when none follows).
    next: Option<usize>,
}

impl TagEnds<'_> {
    /// The first `>` at or after byte `at`; `at` never goes back between calls.
    fn first_from(&mut self, at: usize) -> Option<usize> {
        let next = match self.next {
            Some(next) if next >= at => next,
            _ => {
                let next = part(self.text, at..).find('>').map_or(self.text.len(), |i| at + i);
                self.next = Some(next);
                next
            }
        };
        (next < self.text.len()).then_some(next)
    }
}

/// Visible prose: code fences dropped, markdown markers and step tags removed, all on one
/// line (whitespace runs one space); lines are read until it holds `enough` characters.
fn prose_lines(text: &str, enough: usize) -> String {
    let mut prose = String::new();
    let mut chars = 0;
    let mut in_fence = false;
    for line in text.lines() {
        if chars >= enough {
            break;
        }
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || trimmed.is_empty() {
            continue;
        }
        let mut rest = trimmed.trim_start_matches(['#', '>', '-', '*', '+', ' ']);
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && matches!(rest.as_bytes().get(digits), Some(b'.' | b')')) {
            rest = part(rest, digits + 1..);
        }
        let mut rest = rest.trim_start();
        while let Some(tagged) = rest.strip_prefix('[').and_then(|r| r.find(']').map(|i| (i, r))) {
            let (i, r) = tagged;
            if i > 12 || part(r, ..i).contains(char::is_whitespace) {
                break;
            }
            rest = part(r, i + 1..).trim_start();
        }
        let plain = match rest.contains(['*', '_', '`']) {
            true => Cow::Owned(replace(&replace(&replace(rest, "**", ""), "__", ""), "`", "")),
            false => Cow::Borrowed(rest),
        };
        for word in plain.split_whitespace() {
            if !prose.is_empty() {
                prose.push(' ');
                chars += 1;
            }
            prose.push_str(word);
            chars += word.chars().count();
        }
    }
    prose
}

/// Up to and including the first sentence end: `.`, `!` or `?` before a space or the
/// end (not after a common abbreviation), or a CJK full stop, exclamation or question.
fn first_sentence(text: &str) -> &str {
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let end = i + c.len_utf8();
        match c {
            '。' | '！' | '？' => return part(text, ..end),
            '.' | '!' | '?' => {
                let at_boundary = chars.peek().is_none_or(|&(_, next)| next.is_whitespace());
                if at_boundary && !(c == '.' && ends_with_abbreviation(part(text, ..i))) {
                    return part(text, ..end);
                }
            }
            _ => {}
        }
    }
    text
}

fn ends_with_abbreviation(before: &str) -> bool {
    let word = before.rsplit(char::is_whitespace).next().unwrap_or("").to_ascii_lowercase();
    ABBREVIATIONS.contains(&word.as_str()) || (word.len() == 1 && word.bytes().all(|b| b.is_ascii_alphabetic()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reflect(text: &str) -> Option<String> {
        extract_reflection(text, DEFAULT_MAX_CHARS)
    }

    #[test]
    fn takes_the_first_sentence() {
        assert_eq!(reflect("Found 3 notes. Next I will read them."), Some("Found 3 notes.".into()));
        assert_eq!(reflect("Done! All good."), Some("Done!".into()));
        assert_eq!(
            reflect("Version 2.5 is out, e.g. in the vault. More."),
            Some("Version 2.5 is out, e.g. in the vault.".into())
        );
        assert_eq!(reflect("已找到三条笔记。接下来阅读。"), Some("已找到三条笔记。".into()));
        assert_eq!(reflect("no terminator here"), Some("no terminator here".into()));
    }

    #[test]
    fn never_returns_hidden_reasoning() {
        assert_eq!(reflect("<think>secret plan</think>Reading the note."), Some("Reading the note.".into()));
        assert_eq!(reflect("<THINKING type=\"x\">secret</Thinking>\nOk."), Some("Ok.".into()));
        assert_eq!(reflect("Visible first. <reasoning>secret"), Some("Visible first.".into()));
        assert_eq!(reflect("<think>only secret"), None);
        assert_eq!(reflect("secret chain</think>The answer is 4."), Some("The answer is 4.".into()));
        assert_eq!(reflect("<scratchpad>a</scratchpad><analysis>b</analysis>"), None);
        assert_eq!(
            reflect("<thinker>is not a tag we hide</thinker>"),
            Some("<thinker>is not a tag we hide</thinker>".into())
        );
        assert_eq!(reflect("a</think> b <think>c</think> d</think>Shown."), Some("Shown.".into()));
        assert_eq!(reflect("<think>x <b>y</b></think>Bold is fine."), Some("Bold is fine.".into()));
    }

    #[test]
    fn drops_markdown_code_and_step_tags() {
        assert_eq!(
            reflect("## **Summary**\n- [Reflect] The `search` found nothing."),
            Some("Summary The search found nothing.".into())
        );
        assert_eq!(reflect("```js\nlet x = 1.\n```\n1. Checked the file."), Some("Checked the file.".into()));
        assert_eq!(reflect("   \n\n"), None);
    }

    #[test]
    fn reads_only_as_far_as_the_sentence_needs_yet_sees_a_late_closing_tag() {
        let lines = "A line with no end\n".repeat(2_000);
        // The sentence runs over lines, and is capped at a word.
        let capped = extract_reflection(&lines, 30).unwrap();
        assert_eq!(capped, "A line with no end A line…");
        // A stop right after the cap, or one character further, is seen as a stop.
        assert_eq!(reflect("Twelve chars."), Some("Twelve chars.".into()));
        assert_eq!(extract_reflection("Ten chars. then more", 10), Some("Ten chars.".into()));
        assert_eq!(extract_reflection("Ten chars.x then more", 10), Some("Ten chars…".into()));
        // An orphan closing tag at the very end still hides all before it.
        assert_eq!(reflect(&(lines + "</think>Visible.")), Some("Visible.".into()));
    }

    #[test]
    fn stays_linear_on_huge_adversarial_input() {
        let text = "<think>a</think>".repeat(300_000) + "Visible end.";
        assert_eq!(reflect(&text), Some("Visible end.".into()));
    }

    /// [`strip_hidden`] as it was, searching from each tag with attributes to its `>`.
    fn strip_hidden_searching_each_time(text: &str) -> String {
        let tag_at = |start: usize| -> Option<(&str, bool, usize)> {
            let rest = &text[start + 1..];
            let (closing, rest) = rest.strip_prefix('/').map_or((false, rest), |r| (true, r));
            let name_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            let tag = HIDDEN_TAGS.into_iter().find(|t| t.eq_ignore_ascii_case(&rest[..name_len]))?;
            let after = &rest[name_len..];
            let close = match after.chars().next() {
                Some('>') => 0,
                Some(c) if c.is_whitespace() && !closing => after.find('>')?,
                _ => return None,
            };
            Some((tag, closing, text.len() - after.len() + close + 1))
        };
        let (mut visible, mut hidden_by, mut from, mut at) = (String::new(), None, 0, 0);
        while let Some(i) = text[at..].find('<') {
            let start = at + i;
            at = start + 1;
            let Some((tag, closing, end)) = tag_at(start) else { continue };
            match (hidden_by, closing) {
                (None, false) => {
                    visible.push_str(&text[from..start]);
                    visible.push(' ');
                    hidden_by = Some(tag);
                }
                (Some(open), true) if open == tag => hidden_by = None,
                (None, true) => visible.clear(),
                _ => continue,
            }
            (from, at) = (end, end);
        }
        if hidden_by.is_none() {
            visible.push_str(&text[from..]);
        }
        match from == 0 && hidden_by.is_none() {
            true => text.to_owned(),
            false => visible,
        }
    }

    #[test]
    fn hides_what_searching_from_each_tag_to_its_end_hid() {
        let pieces = [
            "<think",
            "<thinking",
            "</think",
            "</thinking",
            "<THOUGHT",
            "<analysis",
            "<thinker",
            "<",
            "/",
            ">",
            " ",
            "\n",
            "a=\"b\"",
            "x",
            "é",
            "<inner_monologue",
            "<inner_monologuex",
            "_",
        ];
        let mut rng = crate::test_rng::Rng::for_test(0xA076_1D64_78BD_642F);
        for _ in 0..crate::test_rng::rounds(20_000) {
            let text: String = (0..rng.below(14)).map(|_| *rng.pick(&pieces)).collect();
            assert_eq!(strip_hidden(&text), strip_hidden_searching_each_time(&text), "{text:?}");
        }
    }

    #[test]
    fn caps_long_sentences_at_a_word() {
        let long = "word ".repeat(100);
        let capped = extract_reflection(&long, 20).unwrap();
        assert_eq!(capped, "word word word word…");
        assert!(capped.chars().count() <= 20);
        assert_eq!(extract_reflection(&"x".repeat(400), DEFAULT_MAX_CHARS).unwrap().chars().count(), 160);
    }
}
