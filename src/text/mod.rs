//! Short, single-line text for trails and prompts.
//!
//! Lengths count Unicode code points, as zod 4 and JSON Schema measure strings, so a
//! cap never splits a character (an emoji stays whole).

pub mod fingerprint;
pub mod index;
pub mod reflection;
pub mod visible;
pub mod written_call;

use std::slice::SliceIndex;

/// `n` in decimal. (`format!` and `to_string` go through `core::fmt`, which is slow in
/// the module, and these numbers are written on every decision.)
pub fn decimal(n: u64) -> String {
    let mut out = Vec::with_capacity(20);
    push_decimal(&mut out, n);
    String::from_utf8(out).unwrap_or_default()
}

/// `n` in decimal, `-` before it if negative. (Not through `core::fmt` either, whose code
/// for `i32` and `i64` was in the session module for two messages only: 0.3 KB gzip.)
pub fn signed_decimal(n: i64) -> String {
    let mut out = Vec::with_capacity(20);
    if n < 0 {
        out.push(b'-');
    }
    push_decimal(&mut out, n.unsigned_abs());
    String::from_utf8(out).unwrap_or_default()
}

/// `n` in hexadecimal, in `digits`' digits, zero-padded to at least `min_len`. (For
/// `format!`'s `{:x}` and `{:X}`, whose code came into the session module for a checksum
/// and a character code only; with `char`'s `Display` (json::describe_char): 0.2 KB gzip.)
pub fn hex(n: u64, min_len: usize, digits: &[u8; 16]) -> String {
    let mut out = Vec::with_capacity(16);
    let mut rest = n;
    while rest > 0 || out.len() < min_len.max(1) {
        out.push(digits[(rest & 15) as usize]);
        rest >>= 4;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Appends `n` in decimal.
pub fn push_decimal(out: &mut Vec<u8>, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// `s[range]`, for a range found on character boundaries. Indexing a `str` directly
/// brings in a panic message that prints the range and the character it cut (3.6 KB
/// gzip of each module, measured); a cut off a boundary is a bug either way, and this
/// one panics with a fixed message. (Clippy's `string_slice` keeps indexing out.)
#[inline]
pub fn part<R: SliceIndex<str, Output = str>>(s: &str, range: R) -> &str {
    match s.get(range) {
        Some(part) => part,
        None => off_boundary(),
    }
}

#[cold]
#[inline(never)]
fn off_boundary() -> ! {
    panic!("a text was cut off a character boundary")
}

/// `s` cut to at most `max` code points; a cut string ends with `…` (within `max`).
pub fn cap(s: &str, max: usize) -> String {
    if !over(s, max) {
        return s.to_owned();
    }
    [first_chars(s, max.saturating_sub(1)), "…"].concat()
}

/// Whether `s` has more than `max` code points: one of no more bytes than `max` has no
/// more characters either, and is not counted.
pub(crate) fn over(s: &str, max: usize) -> bool {
    s.len() > max && s.chars().nth(max).is_some()
}

/// The first `count` code points of `s`, as a slice: copied whole, where collecting them
/// one `char` at a time brought `String`'s `Extend<char>` into the modules twice.
fn first_chars(s: &str, count: usize) -> &str {
    s.char_indices().nth(count).map_or(s, |(end, _)| part(s, ..end))
}

/// Like [`cap`], but cuts after the last whole word when one ends in the second half.
pub fn cap_words(s: &str, max: usize) -> String {
    if !over(s, max) {
        return s.to_owned();
    }
    let kept = first_chars(s, max.saturating_sub(1));
    let ends_at_word = part(s, kept.len()..).starts_with(char::is_whitespace);
    let cut = match kept.rfind(char::is_whitespace) {
        _ if ends_at_word => kept,
        Some(i) if part(kept, ..i).chars().count() * 2 >= max => part(kept, ..i).trim_end(),
        _ => kept,
    };
    [cut, "…"].concat()
}

/// All runs of whitespace (newlines included) collapsed to one space, ends trimmed.
pub fn one_line(s: &str) -> String {
    if s.is_ascii() {
        return one_ascii_line(s);
    }
    let mut line = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    line
}

/// [`one_line`] for ASCII text (tool names and most arguments), byte by byte: Unicode's
/// whitespace in ASCII is `\t` to `\r` and the space.
fn one_ascii_line(s: &str) -> String {
    let bytes = s.as_bytes();
    // Already one line (the usual case: a tool's name, a short output line): copied.
    let spaced = |i: usize| bytes[i] == b' ' && (i == 0 || i + 1 == bytes.len() || bytes[i + 1] == b' ');
    if (0..bytes.len()).all(|i| !matches!(bytes[i], b'\t'..=b'\r') && !spaced(i)) {
        return s.to_owned();
    }
    let mut line = Vec::with_capacity(s.len());
    for word in s.as_bytes().split(|b| matches!(b, b'\t'..=b'\r' | b' ')).filter(|word| !word.is_empty()) {
        if !line.is_empty() {
            line.push(b' ');
        }
        line.extend_from_slice(word);
    }
    String::from_utf8(line).unwrap_or_default()
}

/// The first line with any visible text, trimmed.
pub fn first_line(s: &str) -> &str {
    s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
}

/// `s` with each `pattern` (not empty) replaced by `with`, left to right, as
/// `str::replace` does, each place found by [`find`]. Written out because `replace`
/// brings its general substring search into the modules for these few-byte patterns
/// (1.4 KB gzip of the primitives module).
pub fn replace(s: &str, pattern: &str, with: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = find(rest, pattern) {
        out.push_str(part(rest, ..at));
        out.push_str(with);
        rest = part(rest, at + pattern.len()..);
    }
    out.push_str(rest);
    out
}

/// Where `needle` (not empty) first occurs in `haystack`, by bytes; a match of UTF-8 in
/// UTF-8 always starts on a character. Written out, and kept one call, because `str::find`
/// with a `&str` brings its general two-way searcher into the session module for the few
/// short, fixed words it looks for; linear in the haystack for such a needle.
#[inline(never)]
pub fn find(haystack: &str, needle: &str) -> Option<usize> {
    let (bytes, needle) = (haystack.as_bytes(), needle.as_bytes());
    let last_start = bytes.len().checked_sub(needle.len()).filter(|_| !needle.is_empty())?;
    // The first byte alone rules out nearly every place before a comparison is made.
    (0..=last_start).find(|&at| bytes[at] == needle[0] && bytes[at..].starts_with(needle))
}

/// Every place of `needle` (not empty) in `haystack`, left to right, none overlapping (as
/// `str::match_indices` finds them).
pub fn places<'a>(haystack: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        let at = from + find(haystack.get(from..)?, needle)?;
        from = at + needle.len();
        Some(at)
    })
}

/// Every place of `word` in `text` (as [`places`]) with no `is_word` character right
/// before or after it: the word standing alone.
pub fn word_places<'a>(text: &'a str, word: &'a str, is_word: fn(char) -> bool) -> impl Iterator<Item = usize> + 'a {
    places(text, word).filter(move |&at| {
        let before = part(text, ..at).chars().next_back().is_some_and(is_word);
        let after = part(text, at + word.len()..).chars().next().is_some_and(is_word);
        !before && !after
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_is_the_slice_on_boundaries_and_a_fixed_panic_off_them() {
        let s = "aé中😀b";
        let boundaries: Vec<usize> = (0..=s.len()).filter(|&i| s.is_char_boundary(i)).collect();
        for (i, &start) in boundaries.iter().enumerate() {
            for &end in &boundaries[i..] {
                assert_eq!(part(s, start..end), &s[start..end]);
                assert_eq!((part(s, start..), part(s, ..end)), (&s[start..], &s[..end]));
            }
        }
        // Inside `é` and inside `😀`, as a start and as an end.
        for (start, end) in [(2, 3), (3, 8)] {
            let message = std::panic::catch_unwind(|| part(s, start..end).len()).unwrap_err();
            assert_eq!(message.downcast_ref::<&str>(), Some(&"a text was cut off a character boundary"));
        }
    }

    #[test]
    fn caps_cut_at_the_code_point_they_count() {
        // The cut as collecting the first characters makes it.
        let collected = |s: &str, n: usize| s.chars().take(n).collect::<String>();
        let mut rng = crate::test_rng::Rng::for_test(0x94D0_49BB_1331_11EB);
        let pieces = ["a", "word ", " ", "é", "中", "😀", "\n"];
        for _ in 0..crate::test_rng::rounds(20_000) {
            let s: String = (0..rng.next() % 30).map(|_| pieces[(rng.next() % pieces.len() as u64) as usize]).collect();
            let max = 1 + (rng.next() % 20) as usize;
            let capped = cap(&s, max);
            match s.chars().count() <= max {
                true => assert_eq!(capped, s),
                false => assert_eq!(capped, collected(&s, max - 1) + "…", "{s:?} {max}"),
            }
            let words = cap_words(&s, max);
            assert!(words.chars().count() <= max, "{s:?} {max} {words:?}");
            assert!(s.starts_with(words.trim_end_matches('…')), "{s:?} {max} {words:?}");
        }
    }

    #[test]
    fn finds_what_str_find_and_match_indices_find() {
        let mut rng = crate::test_rng::Rng::for_test(0x5851_F42D_4C95_7F2D);
        let pieces = ["a", "b", "ab", "é", "中", "😀", "```", " "];
        let text = |rng: &mut crate::test_rng::Rng, n: u64| -> String {
            (0..rng.next() % n).map(|_| pieces[(rng.next() % pieces.len() as u64) as usize]).collect()
        };
        for _ in 0..crate::test_rng::rounds(20_000) {
            let (haystack, needle) = (text(&mut rng, 12), text(&mut rng, 3));
            if needle.is_empty() {
                assert_eq!(find(&haystack, &needle), None);
                continue;
            }
            assert_eq!(find(&haystack, &needle), haystack.find(needle.as_str()), "{haystack:?} {needle:?}");
            let expected: Vec<usize> = haystack.match_indices(needle.as_str()).map(|(i, _)| i).collect();
            assert_eq!(places(&haystack, &needle).collect::<Vec<_>>(), expected, "{haystack:?} {needle:?}");
        }
    }

    #[test]
    fn caps_count_code_points_and_mark_the_cut() {
        assert_eq!(cap("abc", 3), "abc");
        assert_eq!(cap("abcd", 3), "ab…");
        assert_eq!(cap("😀😀😀😀", 3), "😀😀…");
        assert_eq!(cap_words("search the vault now", 12), "search the…");
        assert_eq!(cap_words("supercalifragilistic", 8), "superca…");
    }

    #[test]
    fn ascii_lines_collapse_as_any_other_does() {
        let pieces = ["a", "bc", " ", "\t", "\n", "\r", "\u{b}", "\u{c}", "\u{1c}", "\u{1f}", "x y", "  "];
        let mut rng = crate::test_rng::Rng::for_test(0x9E37_79B9_7F4A_7C15);
        for _ in 0..crate::test_rng::rounds(5_000) {
            let text: String = (0..rng.below(8)).map(|_| *rng.pick(&pieces)).collect();
            let general = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(one_line(&text), general, "{text:?}");
        }
    }

    #[test]
    fn decimals_are_written_as_display_writes_them() {
        for n in [0, 7, 10, 99, 4_000_000_000, u64::MAX] {
            assert_eq!(decimal(n), n.to_string());
        }
    }

    #[test]
    fn a_word_stands_alone_by_the_characters_it_is_told_are_word_ones() {
        // Not before `w`, nor after `续` (a letter too); before `_` only when it is not a word one.
        let text = "go on, go onward, 继续go on, go on_ go on";
        assert_eq!(word_places(text, "go on", char::is_alphanumeric).collect::<Vec<_>>(), [0, 31, 38]);
        let with_underscore = |c: char| c.is_alphanumeric() || c == '_';
        assert_eq!(word_places(text, "go on", with_underscore).collect::<Vec<_>>(), [0, 38]);
    }

    #[test]
    fn patterns_are_replaced_as_str_replace_does() {
        let pieces = ["*", "**", "_", "__", "`", "<br>", "<br/>", "\n", "a", "é", "😀", "<", "b"];
        let patterns = ["**", "__", "`", "\n", "<br/>", "<br>"];
        let mut rng = crate::test_rng::Rng::for_test(0x2545_F491_4F6C_DD1D);
        for _ in 0..crate::test_rng::rounds(20_000) {
            let text: String = (0..rng.below(10)).map(|_| *rng.pick(&pieces)).collect();
            let pattern = *rng.pick(&patterns);
            let with = *rng.pick(&["", "; ", "\n", "*"]);
            let expected = text.replace(pattern, with);
            assert_eq!(replace(&text, pattern, with), expected, "{text:?} {pattern:?} {with:?}");
        }
    }

    #[test]
    fn lines_are_collapsed_and_picked() {
        assert_eq!(one_line("  a \n\t b  "), "a b");
        assert_eq!(first_line("\n  \n second \nthird"), "second");
    }
}
