//! Strings without escapes, found eight bytes at a time (SWAR): strings are most of a
//! tool call, and this is the loop that reads them.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// A string without escapes, from `start` (after its opening quote): where its closing
/// quote is, and its length in code points. `None` at an escape, a control character or
/// the end of the text. Eight bytes at a time, counting code points as it goes (the
/// bytes that do not continue a UTF-8 sequence), since strings are most of a tool call.
#[inline(always)]
pub fn scan_plain(bytes: &[u8], start: usize) -> Option<(usize, usize)> {
    let mut i = start;
    let mut continuations = 0usize;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let word = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or_default());
        // A continuation byte is 10xxxxxx: bit 7 set and bit 6 clear.
        let continues = word & !(word << 1) & HIGH;
        let stops = stops(word);
        if stops == 0 {
            continuations += continues.count_ones() as usize;
            i += 8;
            continue;
        }
        // The lowest flagged byte is exact (a borrow only flags bytes above it).
        let at = (stops.trailing_zeros() / 8) as usize;
        let before = (1u64 << (at * 8)).wrapping_sub(1);
        continuations += (continues & before).count_ones() as usize;
        return (bytes[i + at] == b'"').then(|| (i + at, i + at - start - continuations));
    }
    loop {
        let byte = *bytes.get(i)?;
        match byte {
            b'"' => return Some((i, i - start - continuations)),
            b'\\' | 0x00..=0x1F => return None,
            _ => {
                continuations += usize::from(byte & 0xC0 == 0x80);
                i += 1;
            }
        }
    }
}

/// The bytes of `word` that end a plain run (`"`, `\\`, a control character), each as its
/// high bit; exact for the lowest one.
#[inline(always)]
fn stops(word: u64) -> u64 {
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGH;
    below(word ^ (ONES * u64::from(b'"')), 1) | below(word ^ (ONES * u64::from(b'\\')), 1) | below(word, 0x20)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanning_counts_code_points_across_word_boundaries() {
        for text in ["", "a", "abcdefgh", "abcdefghi", "é😀中abcdefgh", "ééééééééé", "😀😀😀😀😀"]
        {
            let quoted = format!("{text}\"");
            assert_eq!(scan_plain(quoted.as_bytes(), 0), Some((text.len(), text.chars().count())), "{text}");
        }
        assert_eq!(scan_plain(b"abcdefgh\\n\"", 0), None);
        assert_eq!(scan_plain(b"abc", 0), None);
    }
}
