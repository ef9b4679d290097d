//! Floats out, as serde_json writes an `f64`: the shortest digits that read back to the
//! same number, laid out as `1.5`, `100.0`, `0.00001`, `1e-6` or `1.5e+16`.
//!
//! The digits come from the [`Decimals`] passed in: in the wasm modules the host's (JS
//! `String(n)` gives the very digits serde_json's formatter does), elsewhere
//! serde_json's own. Only the layout is planloop's; serde_json's formatter and its
//! tables were 9 KB of the primitives' module's gzip.

use std::io;

use crate::json::decimals::Decimals;

/// Writes `n` as serde_json writes an `f64` (`null` when it is not finite, as serde_json
/// does too), its digits from `decimals`.
pub fn write_float(out: &mut Vec<u8>, n: f64, decimals: Decimals) {
    if !n.is_finite() {
        out.extend_from_slice(b"null");
        return;
    }
    if n.is_sign_negative() {
        out.push(b'-');
    }
    if n == 0.0 {
        out.extend_from_slice(b"0.0");
        return;
    }
    let text = decimals.shortest(n.abs());
    let (digits, exponent) = scientific(text.as_bytes());
    lay_out(out, &digits, exponent);
}

/// A number's text (`123.45`, `0.001`, `1e+21`, `1.5e-7`) as its significant digits and
/// the power of ten of the first one.
fn scientific(text: &[u8]) -> (Vec<u8>, i32) {
    let (mantissa, exponent) = match text.iter().position(|&b| b == b'e' || b == b'E') {
        Some(at) => (&text[..at], parse_exponent(&text[at + 1..])),
        None => (text, 0),
    };
    let point = mantissa.iter().position(|&b| b == b'.').unwrap_or(mantissa.len());
    let mut digits: Vec<u8> = mantissa.iter().copied().filter(u8::is_ascii_digit).collect();
    // The value is 0.d1d2… × 10^(point + exponent); each leading zero moves the point.
    let leading = digits.iter().take_while(|&&d| d == b'0').count();
    digits.drain(..leading);
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    (digits, point as i32 + exponent - leading as i32 - 1)
}

fn parse_exponent(text: &[u8]) -> i32 {
    let (negative, digits) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    let magnitude = digits.iter().fold(0i32, |e, d| e.saturating_mul(10).saturating_add(i32::from(d - b'0')));
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// serde_json's layout: plain from 10^-5 up to below 10^16 (a whole number keeps a
/// `.0`), otherwise `d.ddde±x`.
fn lay_out(out: &mut Vec<u8>, digits: &[u8], exponent: i32) {
    let Some((&first, rest)) = digits.split_first() else {
        out.extend_from_slice(b"0.0");
        return;
    };
    if (-5..16).contains(&exponent) {
        if exponent < 0 {
            out.extend_from_slice(b"0.");
            out.resize(out.len() + (-exponent - 1) as usize, b'0');
            out.extend_from_slice(digits);
            return;
        }
        let whole = exponent as usize + 1;
        if digits.len() > whole {
            out.extend_from_slice(&digits[..whole]);
            out.push(b'.');
            out.extend_from_slice(&digits[whole..]);
        } else {
            out.extend_from_slice(digits);
            out.resize(out.len() + whole - digits.len(), b'0');
            out.extend_from_slice(b".0");
        }
        return;
    }
    out.push(first);
    if !rest.is_empty() {
        out.push(b'.');
        out.extend_from_slice(rest);
    }
    out.extend_from_slice(if exponent > 0 { b"e+" } else { b"e-" });
    crate::text::push_decimal(out, u64::from(exponent.unsigned_abs()));
}

/// serde_json's compact formatter, floats written by [`write_float`] with these
/// decimals (so that its own float formatter is not in the modules).
pub struct Compact(pub Decimals);

impl serde_json::ser::Formatter for Compact {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        let mut text = Vec::with_capacity(24);
        write_float(&mut text, value, self.0);
        writer.write_all(&text)
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        self.write_f64(writer, f64::from(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(n: f64) -> String {
        let mut out = Vec::new();
        write_float(&mut out, n, Decimals::RUST);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn floats_are_laid_out_as_serde_json_lays_them_out() {
        let numbers = vec![
            0.0,
            -0.0,
            1.0,
            0.1,
            1e-5,
            1.23456e-5,
            1e-6,
            1e15,
            1.23456e15,
            1e16,
            1.5e16,
            9_007_199_254_740_993.0,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            0.1 + 0.2,
            1e21,
            1e300,
            123.456,
            -7.25,
            f64::NAN,
            f64::INFINITY,
        ];
        let check = |n: f64| assert_eq!(written(n), serde_json::to_string(&n).unwrap(), "{n:e}");
        numbers.into_iter().for_each(check);
        let mut rng = crate::test_rng::Rng::for_test(0x9E37_79B9_7F4A_7C15);
        for _ in 0..crate::test_rng::rounds(50_000) {
            let x = rng.next();
            check(f64::from_bits(x));
            check((x % 1_000_000) as f64 / 1000.0);
        }
    }

    #[test]
    fn any_notation_reads_as_digits_and_the_power_of_the_first() {
        assert_eq!(scientific(b"123.45"), (b"12345".to_vec(), 2));
        assert_eq!(scientific(b"0.00012"), (b"12".to_vec(), -4));
        assert_eq!(scientific(b"1e+21"), (b"1".to_vec(), 21));
        assert_eq!(scientific(b"1.5e-7"), (b"15".to_vec(), -7));
        assert_eq!(scientific(b"1000"), (b"1".to_vec(), 3));
    }
}
