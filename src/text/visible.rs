//! Untrusted text as a person reads it before deciding on it: a call's justification
//! (`Run: <command>`), the trail's lines. What is shown must be what the text holds, so
//! nothing in it may hide, reorder or fake a part of it:
//!
//! - a line break (`\n`) is shown as `⏎`, never as a space, since it separates commands
//!   (a `⏎` in the text itself is escaped, so a `⏎` shown is always a line break);
//! - every character that shows as nothing, as a plain space that is not one, or acts on
//!   the display is escaped as `\u{HEX}` (uppercase hex digits): control
//!   characters (C0 but `\n`, DEL, C1: `\r`, tab and ESC, so no terminal sequence starts),
//!   other whitespace than the space, bidirectional overrides, isolates and marks, and
//!   invisible formatting (zero-width characters, joiners, variation selectors, tags);
//! - a text over the cap keeps its head and its tail, and says how many of its characters
//!   were left out between them: `ls aaaa…[+180 chars]…; rm -rf ~`.
//!
//! A text that holds `\u{202E}` as plain characters is shown as it is: it reads as the
//! escape does, and hides nothing either way.

use crate::text::{decimal, part};

/// The shown line break.
const LINE_BREAK: char = '⏎';

/// `text` shown on one line of at most `max` characters, ends trimmed of spaces and line
/// breaks. (For a `max` of at least 32, which every caller's is: below that, the cut's
/// marker alone may be longer. A cut keeps the first and last characters once `max`
/// leaves 10 a side, the longest a character is shown as.)
pub fn visible(text: &str, max: usize) -> String {
    // Trimmed bytewise (both are ASCII, so the cuts fall on characters): a backward walk
    // over characters would bring UTF-8 decoding from the end into the modules.
    let bytes = text.as_bytes();
    let start = bytes.iter().position(|b| !matches!(b, b' ' | b'\n')).unwrap_or(bytes.len());
    let end = bytes.iter().rposition(|b| !matches!(b, b' ' | b'\n')).map_or(start, |last| last + 1);
    let text = part(text, start..end);
    // Printable ASCII within the cap (the usual tool name or argument): as it is.
    if text.len() <= max && text.bytes().all(|b| matches!(b, b' '..=b'~')) {
        return text.to_owned();
    }
    let (count, width) = text.chars().fold((0, 0), |(count, width), c| (count + 1, width + shown_width(c)));
    let mut out = String::with_capacity(4 * width.min(max));
    if width <= max {
        push_shown(&mut out, text);
        return out;
    }
    // The marker is given room for the most it could count; head and tail share the rest.
    // In one walk from the front: the head takes characters while they fit in its room,
    // the tail starts at the first character after which the rest fits in its own. Both
    // rooms add up to less than the text's width, so they never meet.
    let room = max.saturating_sub(marker_width(count));
    let (head_room, tail_room) = (room / 2, room - room / 2);
    let (mut used, mut head_end, mut head_count, mut tail_start, mut tail_from) = (0, 0, 0, text.len(), count);
    for (index, (at, c)) in text.char_indices().enumerate() {
        if width - used <= tail_room {
            (tail_start, tail_from) = (at, index);
            break;
        }
        used += shown_width(c);
        if used <= head_room {
            (head_end, head_count) = (at + c.len_utf8(), index + 1);
        }
    }
    push_shown(&mut out, part(text, ..head_end));
    push_marker(&mut out, tail_from - head_count);
    push_shown(&mut out, part(text, tail_start..));
    out
}

/// Whether a character is shown escaped.
fn hidden(c: char) -> bool {
    match c {
        '\n' | ' ' => false,
        LINE_BREAK => true,
        // Controls (C0, DEL, C1) and every whitespace but the space.
        c if c.is_control() || c.is_whitespace() => true,
        // Invisible formatting: soft hyphen, combining grapheme joiner, Arabic letter
        // mark, Hangul fillers, Khmer inherent vowels, Mongolian selectors and vowel
        // separator, zero-width characters and left-to-right/right-to-left marks,
        // bidirectional embeddings and overrides, word joiner to nominal digit shapes
        // (isolates among them), variation selectors, the byte order mark, interlinear
        // annotations, shorthand format controls, musical symbol formats, tags and their
        // variation selectors.
        '\u{AD}'
        | '\u{34F}'
        | '\u{61C}'
        | '\u{115F}'..='\u{1160}'
        | '\u{17B4}'..='\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}'
        | '\u{3164}'
        | '\u{FE00}'..='\u{FE0F}'
        | '\u{FEFF}'
        | '\u{FFA0}'
        | '\u{FFF0}'..='\u{FFFB}'
        | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E0FFF}' => true,
        _ => false,
    }
}

/// How many characters `c` is shown as.
fn shown_width(c: char) -> usize {
    if hidden(c) {
        "\\u{}".len() + hex_digits(c as u32)
    } else {
        1
    }
}

/// Appends `text` as it is shown.
fn push_shown(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '\n' => out.push(LINE_BREAK),
            c if hidden(c) => {
                out.push_str("\\u{");
                let n = c as u32;
                for shift in (0..hex_digits(n)).rev() {
                    out.push(char::from(b"0123456789ABCDEF"[(n >> (4 * shift) & 0xF) as usize]));
                }
                out.push('}');
            }
            c => out.push(c),
        }
    }
}

fn hex_digits(n: u32) -> usize {
    (1..8).find(|&digits| n >> (4 * digits) == 0).unwrap_or(8)
}

/// `…[+N chars]…`, for `cut` characters left out.
fn push_marker(out: &mut String, cut: usize) {
    out.push_str("…[+");
    out.push_str(&decimal(cut as u64));
    out.push_str(if cut == 1 { " char]…" } else { " chars]…" });
}

/// The most characters the marker takes for a cut of up to `count` characters.
fn marker_width(count: usize) -> usize {
    let (mut digits, mut rest) = (1, count);
    while rest >= 10 {
        (digits, rest) = (digits + 1, rest / 10);
    }
    "…[+ chars]…".chars().count() + digits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_and_hidden_characters_are_shown() {
        assert_eq!(visible("echo hi\n\n\nrm -rf ~", 200), "echo hi⏎⏎⏎rm -rf ~");
        assert_eq!(visible("\n  ls -la \n", 200), "ls -la", "ends trimmed");
        assert_eq!(visible("a\r\nb\tc", 200), "a\\u{D}⏎b\\u{9}c");
        assert_eq!(visible("echo \u{1b}[2Khi", 200), "echo \\u{1B}[2Khi");
        assert_eq!(visible("rm -rf \u{202E}~/txt.exe", 200), "rm -rf \\u{202E}~/txt.exe");
        assert_eq!(
            visible("\u{2066}a\u{2069}\u{200E}\u{200F}\u{61C}", 200),
            "\\u{2066}a\\u{2069}\\u{200E}\\u{200F}\\u{61C}"
        );
        assert_eq!(
            visible("x\u{200B}y\u{FEFF}\u{A0}\u{2028}\u{85}\u{E0041}", 200),
            "x\\u{200B}y\\u{FEFF}\\u{A0}\\u{2028}\\u{85}\\u{E0041}"
        );
        assert_eq!(visible("a ⏎ b", 200), "a \\u{23CE} b", "a ⏎ shown is always a line break");
        assert_eq!(visible("写一个笔记 😀 é", 200), "写一个笔记 😀 é");
    }

    #[test]
    fn a_long_text_keeps_its_head_and_tail_and_counts_what_was_cut() {
        let command = format!("ls {}; rm -rf ~", "a".repeat(250));
        // 200 less the marker's room (for up to 263 cut: 14) leaves 93 a side: `ls ` and 90 `a`, 83 `a` and `; rm -rf ~`.
        let shown = visible(&command, 200);
        assert_eq!(shown, format!("ls {}…[+77 chars]…{}; rm -rf ~", "a".repeat(90), "a".repeat(83)));
        assert_eq!(visible(&"x".repeat(41), 40), format!("{}…[+14 chars]…{}", "x".repeat(13), "x".repeat(14)));
        // An escape is never split: it is shown whole or left out whole.
        let shown = visible(&"\u{202E}".repeat(100), 60);
        assert_eq!(shown, format!("{}…[+96 chars]…{}", "\\u{202E}".repeat(2), "\\u{202E}".repeat(2)));
    }

    /// Pieces of text and how each is shown.
    const PIECES: [(&str, &str); 24] = [
        ("a", "a"),
        ("ls", "ls"),
        (" ", " "),
        ("; rm -rf ~", "; rm -rf ~"),
        ("\n", "⏎"),
        ("\r", "\\u{D}"),
        ("\t", "\\u{9}"),
        ("\u{1b}", "\\u{1B}"),
        ("\u{1b}[31m", "\\u{1B}[31m"),
        ("\u{7F}", "\\u{7F}"),
        ("\u{9B}", "\\u{9B}"),
        ("\u{202E}", "\\u{202E}"),
        ("\u{202A}", "\\u{202A}"),
        ("\u{2067}", "\\u{2067}"),
        ("\u{200F}", "\\u{200F}"),
        ("\u{61C}", "\\u{61C}"),
        ("\u{200D}", "\\u{200D}"),
        ("\u{2029}", "\\u{2029}"),
        ("\u{E0072}", "\\u{E0072}"),
        ("⏎", "\\u{23CE}"),
        ("…", "…"),
        ("é", "é"),
        ("中", "中"),
        ("😀", "😀"),
    ];

    /// What must never be shown raw: controls, line breaks, other whitespace than the
    /// space, bidirectional controls and zero-width characters.
    fn raw_hidden(c: char) -> bool {
        c.is_control()
            || (c.is_whitespace() && c != ' ')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200B}'..='\u{200F}' | '\u{61C}')
            || matches!(c, '\u{FEFF}' | '\u{E0000}'..='\u{E007F}')
    }

    #[test]
    fn any_text_is_shown_raw_free_within_the_cap_with_both_ends_or_a_count_of_the_cut() {
        let mut rng = crate::test_rng::Rng::for_test(0xD1B5_4A32_D192_ED03);
        for _ in 0..crate::test_rng::rounds(5_000) {
            let chosen: Vec<(&str, &str)> = (0..rng.below(120)).map(|_| *rng.pick(&PIECES)).collect();
            let text: String = chosen.iter().map(|(raw, _)| *raw).collect();
            let max = 40 + rng.below(200);
            let shown = visible(&text, max);
            assert!(!shown.chars().any(raw_hidden), "{text:?} -> {shown:?}");
            assert!(shown.chars().count() <= max, "{text:?} {max} -> {shown:?}");
            // Each character of the trimmed text, as shown.
            let trimmed = text.trim_matches([' ', '\n']);
            let each: Vec<String> = trimmed
                .chars()
                .map(|c| {
                    let piece = PIECES.iter().find(|(raw, _)| raw.starts_with(c) && raw.chars().count() == 1);
                    piece.map_or(c.to_string(), |(_, as_shown)| (*as_shown).to_owned())
                })
                .collect();
            let Some(at) = shown.find("…[+").filter(|_| shown.contains(" chars]…") || shown.contains(" char]…"))
            else {
                assert_eq!(shown, each.concat(), "{text:?} {max}");
                continue;
            };
            // Cut: a head of whole characters, the count, a tail of whole characters.
            let marker_end = at + shown[at..].find("]…").unwrap() + "]…".len();
            let (head, tail) = (&shown[..at], &shown[marker_end..]);
            let cut: usize = shown[at + "…[+".len()..].split(' ').next().unwrap().parse().unwrap();
            let head_count = (0..=each.len()).find(|&h| each[..h].concat() == head).expect(&shown);
            let tail_count = (0..=each.len()).find(|&t| each[each.len() - t..].concat() == tail).expect(&shown);
            assert!(head_count >= 1 && tail_count >= 1, "both ends survive: {text:?} {max} -> {shown:?}");
            assert_eq!(head_count + cut + tail_count, each.len(), "{text:?} {max} -> {shown:?}");
            assert!(each.concat().chars().count() > max, "cut only when over the cap");
        }
    }
}
