//! Short, single-line text for trails and prompts.
//!
//! Lengths count Unicode code points, as zod 4 and JSON Schema measure strings, so a
//! cap never splits a character (an emoji stays whole).

pub mod fingerprint;
pub mod reflection;

/// `s` cut to at most `max` code points; a cut string ends with `…` (within `max`).
pub fn cap(s: &str, max: usize) -> String {
    if s.chars().nth(max).is_none() {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Like [`cap`], but cuts after the last whole word when one ends in the second half.
pub fn cap_words(s: &str, max: usize) -> String {
    if s.chars().nth(max).is_none() {
        return s.to_owned();
    }
    let kept: String = s.chars().take(max.saturating_sub(1)).collect();
    let ends_at_word = s.chars().nth(max.saturating_sub(1)).is_some_and(char::is_whitespace);
    let cut = match kept.rfind(char::is_whitespace) {
        _ if ends_at_word => kept,
        Some(i) if kept[..i].chars().count() * 2 >= max => kept[..i].trim_end().to_owned(),
        _ => kept,
    };
    cut + "…"
}

/// All runs of whitespace (newlines included) collapsed to one space, ends trimmed.
pub fn one_line(s: &str) -> String {
    let mut line = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    line
}

/// The first line with any visible text, trimmed.
pub fn first_line(s: &str) -> &str {
    s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_count_code_points_and_mark_the_cut() {
        assert_eq!(cap("abc", 3), "abc");
        assert_eq!(cap("abcd", 3), "ab…");
        assert_eq!(cap("😀😀😀😀", 3), "😀😀…");
        assert_eq!(cap_words("search the vault now", 12), "search the…");
        assert_eq!(cap_words("supercalifragilistic", 8), "superca…");
    }

    #[test]
    fn lines_are_collapsed_and_picked() {
        assert_eq!(one_line("  a \n\t b  "), "a b");
        assert_eq!(first_line("\n  \n second \nthird"), "second");
    }
}
