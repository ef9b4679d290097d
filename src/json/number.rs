//! JS's `ToNumber` for JSON values.
//!
//! zod's length checks compare `value.length` with a number even when `value` is not a
//! string or an array, so `{"todos": {"length": "9"}}` is "too big" to zod. To answer as
//! zod does on such input, planloop needs the number JS would compare.

use crate::json::decimals::Decimals;
use crate::json::value::{Host, Value};
use crate::text::part;

/// `Number(value)` as JS computes it, decimal strings read with `decimals`.
pub fn to_number(value: &Value<'_>, decimals: Decimals) -> f64 {
    let mut current = value;
    loop {
        return match current {
            Value::Undefined => f64::NAN,
            Value::Null => 0.0,
            Value::Bool(b) => f64::from(u8::from(*b)),
            Value::Number(n) => *n,
            Value::String(s) => string_to_number(s, decimals),
            Value::IllFormedString(_) => f64::NAN,
            Value::Object(_) => f64::NAN, // "[object Object]"
            Value::Host(host) => match host.as_ref() {
                Host::BigInt(n) => *n,
                _ => f64::NAN,
            },
            // An array becomes its `join(",")`: empty is "", two or more items hold a comma.
            Value::Array(items) => match items.as_slice() {
                [] => 0.0,
                [only] => match only {
                    Value::Undefined | Value::Null => 0.0,
                    Value::Array(_) => {
                        current = only;
                        continue;
                    }
                    // String(n) parses back to n, except that -0 prints as "0".
                    Value::Number(n) if *n == 0.0 => 0.0,
                    Value::Bool(_) => f64::NAN,
                    other => to_number(other, decimals),
                },
                _ => f64::NAN,
            },
        };
    }
}

/// JS `StringToNumber`: trimmed decimal, `0x`/`0o`/`0b` integers, `Infinity`, or NaN.
pub fn string_to_number(s: &str, decimals: Decimals) -> f64 {
    let t = s.trim_matches(is_js_whitespace);
    if t.is_empty() {
        return 0.0;
    }
    for (prefix, radix) in [("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)] {
        if let Some(digits) = t.strip_prefix(prefix) {
            return radix_integer(digits, radix);
        }
    }
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    if unsigned == "Infinity" {
        return if t.starts_with('-') { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    if is_decimal_literal(unsigned) {
        decimals.read(t)
    } else {
        f64::NAN
    }
}

/// `digits[.digits][e[+-]digits]`, or `.digits[...]`, with at least one digit overall.
fn is_decimal_literal(s: &str) -> bool {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (part(s, ..i), Some(part(s, i + 1..))),
        None => (s, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = all_digits(int) && all_digits(frac) && !(int.is_empty() && frac.is_empty());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && all_digits(e)
    });
    mantissa_ok && exponent_ok
}

fn radix_integer(digits: &str, radix: u32) -> f64 {
    if digits.is_empty() {
        return f64::NAN;
    }
    let mut n = 0.0;
    for c in digits.chars() {
        match c.to_digit(radix) {
            Some(d) => n = n * f64::from(radix) + f64::from(d),
            None => return f64::NAN,
        }
    }
    n
}

/// JS WhiteSpace and LineTerminator: Unicode `Zs`, tab, VT, FF, BOM, LF, CR, LS, PS.
fn is_js_whitespace(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}'
}

/// A number literal of at most 19 digits, with no fraction or one of zeros only (`1.0`,
/// as a snapshot writes a whole time), and nothing else (a time, a count, a length, a
/// snapshot's 53-bit fingerprints: most of the numbers planloop reads), read without the
/// general float parser, which is slow in the module; `-0` stays `-0.0`. Such an integer
/// fits a `u64` exactly, and converting it rounds to the nearest `f64`, ties to even: the
/// correctly rounded reading of the literal.
pub(crate) fn small_integer(literal: &[u8]) -> Option<f64> {
    let (negative, number) = match literal {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, literal),
    };
    let digits = match number.iter().position(|&b| b == b'.') {
        Some(point) if point + 1 < number.len() && number[point + 1..].iter().all(|&b| b == b'0') => &number[..point],
        Some(_) => return None,
        None => number,
    };
    if digits.is_empty() || digits.len() > 19 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0')) as f64;
    Some(if negative { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_integers_read_exactly_as_the_float_parser_reads_them() {
        let check = |literal: &str| {
            let fast = small_integer(literal.as_bytes()).expect(literal);
            let parsed: f64 = literal.parse().unwrap();
            assert_eq!(fast.to_bits(), parsed.to_bits(), "{literal}");
        };
        for literal in [
            "0",
            "-0",
            "7",
            "-42",
            "999999999999999",
            "-999999999999999",
            "9007199254740993",
            "9007199254740995",
            "18014398509481989",
            "9999999999999999999",
            "-9999999999999999999",
        ] {
            check(literal);
        }
        let mut rng = crate::test_rng::Rng::for_test(0x2545_F491_4F6C_DD1D);
        for _ in 0..crate::test_rng::rounds(100_000) {
            let x = rng.next();
            let digits = 1 + (x % 19) as u32;
            let n = rng.next() % 10u64.pow(digits);
            let zeros = "0".repeat((x >> 8) as usize % 3);
            let fraction = if x & 2 == 0 { String::new() } else { format!(".0{zeros}") };
            check(&if x & 1 == 0 { format!("{n}{fraction}") } else { format!("-{n}{fraction}") });
        }
        for other in ["", "-", "1.5", "1.05", "1.", "1e3", "1.0e3", "12345678901234567890", "12a", ".0"] {
            assert_eq!(small_integer(other.as_bytes()), None, "{other}");
        }
    }

    #[test]
    fn strings_convert_as_in_js() {
        let cases = [
            ("", 0.0),
            ("  \t\n", 0.0),
            (" 42 ", 42.0),
            ("-1.5e2", -150.0),
            ("1.", 1.0),
            (".5", 0.5),
            ("+3", 3.0),
            ("0x1F", 31.0),
            ("0b101", 5.0),
            ("0o17", 15.0),
            ("-Infinity", f64::NEG_INFINITY),
            ("\u{feff}7\u{3000}", 7.0),
        ];
        for (s, n) in cases {
            assert_eq!(string_to_number(s, Decimals::RUST), n, "{s:?}");
        }
        for s in ["abc", "1_000", "inf", "NaN", "-0x1", "1e", "e5", ".", "1..2", "\u{85}1", "Infinityx"] {
            assert!(string_to_number(s, Decimals::RUST).is_nan(), "{s:?}");
        }
    }

    #[test]
    fn containers_convert_through_their_string_form() {
        let arr = |items: Vec<Value<'static>>| Value::Array(items);
        let number = |value: &Value<'_>| to_number(value, Decimals::RUST);
        assert_eq!(number(&arr(vec![])), 0.0);
        assert_eq!(number(&arr(vec![Value::Null])), 0.0);
        assert_eq!(number(&arr(vec![arr(vec![Value::String(" 5 ".into())])])), 5.0);
        assert_eq!(number(&arr(vec![Value::Number(-0.0)])).to_bits(), 0.0f64.to_bits());
        assert!(number(&arr(vec![Value::Number(1.0), Value::Number(2.0)])).is_nan());
        assert!(number(&arr(vec![Value::Bool(true)])).is_nan());
        assert!(number(&Value::Object(vec![])).is_nan());
        assert_eq!(number(&Value::Bool(true)), 1.0);
    }
}
