//! One short sentence of the model's visible text, for the `[Reflect]` step.
//!
//! Seed 004 asks for "concise operational reflection summaries" and warns against
//! exposing hidden reasoning. So everything inside reasoning tags (`<think>`,
//! `<thinking>`, `<reasoning>`, `<scratchpad>`, `<analysis>`, …) is dropped before a
//! sentence is picked, including an unclosed opening tag (a reply cut mid-thought) and the
//! text before an orphan closing tag (models whose opening tag sits in the prompt).

use crate::text::{cap_words, one_line};

/// The default cap of [`extract_reflection`], in code points.
pub const DEFAULT_MAX_CHARS: usize = 160;

const HIDDEN_TAGS: [&str; 8] =
    ["think", "thinking", "thought", "thoughts", "reasoning", "scratchpad", "analysis", "inner_monologue"];

const ABBREVIATIONS: [&str; 9] = ["e.g", "i.e", "etc", "vs", "mr", "mrs", "dr", "st", "cf"];

/// The first sentence of `text`'s visible part, capped at `max_chars`; `None` when
/// nothing visible remains.
pub fn extract_reflection(text: &str, max_chars: usize) -> Option<String> {
    let visible = strip_hidden(text);
    let prose = prose_lines(&visible);
    let sentence = first_sentence(&prose);
    if sentence.is_empty() {
        None
    } else {
        Some(cap_words(sentence, max_chars.max(1)))
    }
}

/// Removes reasoning blocks in one pass. Tags match case-insensitively and may carry
/// attributes; a closing tag with no opening one hides everything before it.
fn strip_hidden(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut visible = String::new();
    let mut hidden_by: Option<&str> = None;
    let mut from = 0; // start of the text not yet copied or dropped
    let mut at = 0;
    while let Some(i) = lower[at..].find('<') {
        let start = at + i;
        at = start + 1;
        let Some((tag, closing, end)) = hidden_tag_at(&lower, start) else { continue };
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
        from = end;
        at = end;
    }
    if hidden_by.is_none() {
        visible.push_str(&text[from..]);
    }
    visible
}

/// The hidden tag starting at byte `start` of `lower`: its name, whether it closes, and
/// the byte after its `>`.
fn hidden_tag_at(lower: &str, start: usize) -> Option<(&'static str, bool, usize)> {
    let rest = &lower[start + 1..];
    let (closing, rest) = match rest.strip_prefix('/') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let name_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let tag = HIDDEN_TAGS.into_iter().find(|t| *t == &rest[..name_len])?;
    let after = &rest[name_len..];
    let close = match after.chars().next() {
        Some('>') => 0,
        Some(c) if c.is_whitespace() && !closing => after.find('>')?,
        _ => return None,
    };
    Some((tag, closing, lower.len() - after.len() + close + 1))
}

/// Visible prose: code fences dropped, markdown markers and step tags removed, one line.
fn prose_lines(text: &str) -> String {
    let mut lines = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || trimmed.is_empty() {
            continue;
        }
        let mut rest = trimmed.trim_start_matches(['#', '>', '-', '*', '+', ' ']);
        let numbered = rest.find(['.', ')']).filter(|&i| i > 0 && rest[..i].bytes().all(|b| b.is_ascii_digit()));
        if let Some(i) = numbered {
            rest = &rest[i + 1..];
        }
        let mut rest = rest.trim_start();
        while let Some(tagged) = rest.strip_prefix('[').and_then(|r| r.find(']').map(|i| (i, r))) {
            let (i, r) = tagged;
            if i > 12 || r[..i].contains(char::is_whitespace) {
                break;
            }
            rest = r[i + 1..].trim_start();
        }
        lines.push(rest.replace("**", "").replace("__", "").replace('`', ""));
    }
    one_line(&lines.join(" "))
}

/// Up to and including the first sentence end: `.`, `!` or `?` before a space or the
/// end (not after a common abbreviation), or a CJK full stop, exclamation or question.
fn first_sentence(text: &str) -> &str {
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let end = i + c.len_utf8();
        match c {
            '。' | '！' | '？' => return &text[..end],
            '.' | '!' | '?' => {
                let at_boundary = chars.peek().is_none_or(|&(_, next)| next.is_whitespace());
                if at_boundary && !(c == '.' && ends_with_abbreviation(&text[..i])) {
                    return &text[..end];
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
    fn stays_linear_on_huge_adversarial_input() {
        let text = "<think>a</think>".repeat(300_000) + "Visible end.";
        assert_eq!(reflect(&text), Some("Visible end.".into()));
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
