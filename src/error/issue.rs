//! Validation issues, shaped and worded exactly as zod 4 reports them.
//!
//! A host that used `schema.safeParse(JSON.parse(args))` can switch to planloop and keep
//! its issue handling: each variant has zod's fields, in zod's order, with zod's English
//! message. Two codes are planloop's own: `invalid_json` (the arguments were not JSON
//! text at all) and `invalid_format` with `format: "well_formed_utf16"` (a string held a
//! lone surrogate, which no UTF-8 consumer downstream could store faithfully).

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::literal::code_literal;
use crate::text;

/// One step of an issue's path: an object key or an array index.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum PathSegment {
    Key(String),
    Index(u32),
}

/// The type a value was expected to have.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Expected {
    Object,
    Array,
    String,
    Number,
    Int,
    Boolean,
    Null,
    /// A plain object used as a map (zod's `z.record`).
    Record,
}

/// What a size limit was measured on (zod's `origin`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    String,
    Array,
    Number,
    Unknown,
}

code_literal!(InvalidTypeCode = "invalid_type");
code_literal!(TooSmallCode = "too_small");
code_literal!(TooBigCode = "too_big");
code_literal!(InvalidValueCode = "invalid_value");
code_literal!(UnrecognizedKeysCode = "unrecognized_keys");
code_literal!(InvalidUnionCode = "invalid_union");
code_literal!(InvalidFormatCode = "invalid_format");
code_literal!(InvalidJsonCode = "invalid_json");
code_literal!(WellFormedUtf16 = "well_formed_utf16");
code_literal!(CustomCode = "custom");

/// A value of the wrong type.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct InvalidTypeIssue {
    pub expected: Expected,
    pub code: InvalidTypeCode,
    pub path: Vec<PathSegment>,
    pub message: String,
}

/// A string, array or number under its minimum.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct TooSmallIssue {
    pub origin: Origin,
    pub code: TooSmallCode,
    pub minimum: f64,
    pub inclusive: bool,
    pub path: Vec<PathSegment>,
    pub message: String,
}

/// A string, array or number over its maximum.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct TooBigIssue {
    pub origin: Origin,
    pub code: TooBigCode,
    pub maximum: f64,
    pub inclusive: bool,
    pub path: Vec<PathSegment>,
    pub message: String,
}

/// A value outside an enumeration.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct InvalidValueIssue {
    pub code: InvalidValueCode,
    pub values: Vec<String>,
    pub path: Vec<PathSegment>,
    pub message: String,
}

/// Keys a strict object does not know (planloop's options objects are strict, so a
/// misspelt option is reported instead of ignored).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct UnrecognizedKeysIssue {
    pub code: UnrecognizedKeysCode,
    pub keys: Vec<String>,
    pub path: Vec<PathSegment>,
    pub message: String,
}

/// No alternative of a union matched; `errors` holds each alternative's issues.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct InvalidUnionIssue {
    pub code: InvalidUnionCode,
    pub errors: Vec<Vec<Issue>>,
    pub path: Vec<PathSegment>,
    pub message: String,
}

/// A string holding a lone surrogate (planloop's own check; zod accepts such strings).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct InvalidFormatIssue {
    pub origin: Origin,
    pub code: InvalidFormatCode,
    pub format: WellFormedUtf16,
    pub path: Vec<PathSegment>,
    pub message: String,
}

/// Arguments given as text that `JSON.parse` would reject; `position` counts UTF-16
/// code units, as JS string indices do.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct InvalidJsonIssue {
    pub code: InvalidJsonCode,
    pub position: u32,
    pub path: Vec<PathSegment>,
    pub message: String,
}

/// A rule of planloop's own that zod has no code for (zod's `custom`), such as a tool
/// result for a call that was never made.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CustomIssue {
    pub code: CustomCode,
    pub path: Vec<PathSegment>,
    pub message: String,
}

/// One problem found in a value, as zod 4 reports it. Switch on `code`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Issue {
    InvalidType(InvalidTypeIssue),
    TooSmall(TooSmallIssue),
    TooBig(TooBigIssue),
    InvalidValue(InvalidValueIssue),
    UnrecognizedKeys(UnrecognizedKeysIssue),
    InvalidUnion(InvalidUnionIssue),
    InvalidFormat(InvalidFormatIssue),
    InvalidJson(InvalidJsonIssue),
    Custom(CustomIssue),
}

impl Issue {
    pub fn invalid_type(expected: Expected, received: &str, path: &[PathSegment]) -> Issue {
        let expected_name = expected.as_str();
        Issue::InvalidType(InvalidTypeIssue {
            expected,
            code: InvalidTypeCode,
            path: path.to_vec(),
            message: format!("Invalid input: expected {expected_name}, received {received}"),
        })
    }

    pub fn too_small(origin: Origin, minimum: f64, path: &[PathSegment]) -> Issue {
        let message = format!("Too small: expected {}", size_phrase(origin, ">=", minimum));
        Issue::TooSmall(TooSmallIssue {
            origin,
            code: TooSmallCode,
            minimum,
            inclusive: true,
            path: path.to_vec(),
            message,
        })
    }

    pub fn too_big(origin: Origin, maximum: f64, path: &[PathSegment]) -> Issue {
        let message = format!("Too big: expected {}", size_phrase(origin, "<=", maximum));
        Issue::TooBig(TooBigIssue { origin, code: TooBigCode, maximum, inclusive: true, path: path.to_vec(), message })
    }

    pub fn invalid_value<S: AsRef<str>>(values: &[S], path: &[PathSegment]) -> Issue {
        let quoted: Vec<String> = values.iter().map(|v| format!("\"{}\"", v.as_ref())).collect();
        let message = match quoted.as_slice() {
            [one] => format!("Invalid input: expected {one}"),
            many => format!("Invalid option: expected one of {}", many.join("|")),
        };
        Issue::InvalidValue(InvalidValueIssue {
            code: InvalidValueCode,
            values: values.iter().map(|v| v.as_ref().to_owned()).collect(),
            path: path.to_vec(),
            message,
        })
    }

    pub fn unrecognized_keys(keys: Vec<String>, path: &[PathSegment]) -> Issue {
        let quoted: Vec<String> = keys.iter().map(|k| format!("\"{k}\"")).collect();
        let plural = if keys.len() > 1 { "s" } else { "" };
        let message = format!("Unrecognized key{plural}: {}", quoted.join(", "));
        Issue::UnrecognizedKeys(UnrecognizedKeysIssue {
            code: UnrecognizedKeysCode,
            keys,
            path: path.to_vec(),
            message,
        })
    }

    pub fn invalid_union(errors: Vec<Vec<Issue>>, path: &[PathSegment]) -> Issue {
        Issue::InvalidUnion(InvalidUnionIssue {
            code: InvalidUnionCode,
            errors,
            path: path.to_vec(),
            message: "Invalid input".to_owned(),
        })
    }

    pub fn lone_surrogate(path: &[PathSegment]) -> Issue {
        Issue::InvalidFormat(InvalidFormatIssue {
            origin: Origin::String,
            code: InvalidFormatCode,
            format: WellFormedUtf16,
            path: path.to_vec(),
            message: "Invalid string: must be well-formed UTF-16 (found a lone surrogate)".to_owned(),
        })
    }

    pub fn custom(message: String, path: Vec<PathSegment>) -> Issue {
        Issue::Custom(CustomIssue { code: CustomCode, path, message })
    }

    pub fn invalid_json(message: &str, position: usize) -> Issue {
        Issue::InvalidJson(InvalidJsonIssue {
            code: InvalidJsonCode,
            position: u32::try_from(position).unwrap_or(u32::MAX),
            path: Vec::new(),
            message: format!("Invalid JSON: {message}"),
        })
    }

    /// The same issue with a message of planloop's own (for limits zod has no words for).
    pub fn with_message(mut self, text: &str) -> Issue {
        match &mut self {
            Issue::InvalidType(i) => i.message = text.to_owned(),
            Issue::TooSmall(i) => i.message = text.to_owned(),
            Issue::TooBig(i) => i.message = text.to_owned(),
            Issue::InvalidValue(i) => i.message = text.to_owned(),
            Issue::UnrecognizedKeys(i) => i.message = text.to_owned(),
            Issue::InvalidUnion(i) => i.message = text.to_owned(),
            Issue::InvalidFormat(i) => i.message = text.to_owned(),
            Issue::InvalidJson(i) => i.message = text.to_owned(),
            Issue::Custom(i) => i.message = text.to_owned(),
        }
        self
    }

    pub fn path(&self) -> &[PathSegment] {
        match self {
            Issue::InvalidType(i) => &i.path,
            Issue::TooSmall(i) => &i.path,
            Issue::TooBig(i) => &i.path,
            Issue::InvalidValue(i) => &i.path,
            Issue::UnrecognizedKeys(i) => &i.path,
            Issue::InvalidUnion(i) => &i.path,
            Issue::InvalidFormat(i) => &i.path,
            Issue::InvalidJson(i) => &i.path,
            Issue::Custom(i) => &i.path,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Issue::InvalidType(i) => &i.message,
            Issue::TooSmall(i) => &i.message,
            Issue::TooBig(i) => &i.message,
            Issue::InvalidValue(i) => &i.message,
            Issue::UnrecognizedKeys(i) => &i.message,
            Issue::InvalidUnion(i) => &i.message,
            Issue::InvalidFormat(i) => &i.message,
            Issue::InvalidJson(i) => &i.message,
            Issue::Custom(i) => &i.message,
        }
    }
}

/// A refusal of more than one more problem than this names this many, and counts the
/// rest in one more issue.
const NAMED_ISSUES: usize = 5;

/// The issues of a refusal of `count` problems, so that it stays short however large the
/// input it refuses: six or fewer are all named, more are named up to the fifth and one
/// more issue counts the rest. `issue(k)` makes the issue of the `k`-th problem, and is
/// called only for those named. (Not generic, as it serves every refusal: one copy in
/// each wasm module.)
pub fn first_issues(count: usize, issue: &mut dyn FnMut(usize) -> Issue) -> Vec<Issue> {
    let named = named(count);
    let mut issues = Vec::with_capacity(named + 1);
    for k in 0..named {
        issues.push(issue(k));
    }
    if named < count {
        issues.push(counted(count - named));
    }
    issues
}

/// [`first_issues`] of issues already made. A list either one made comes out unchanged.
pub fn kept_issues(mut issues: Vec<Issue>) -> Vec<Issue> {
    let count = issues.len();
    issues.truncate(named(count));
    if issues.len() < count {
        issues.push(counted(count - issues.len()));
    }
    issues
}

/// How many of `count` problems a refusal names.
fn named(count: usize) -> usize {
    if count > NAMED_ISSUES + 1 {
        NAMED_ISSUES
    } else {
        count
    }
}

/// The issue that counts the problems not named.
fn counted(more: usize) -> Issue {
    Issue::custom(format!("…and {more} more issues"), Vec::new())
}

/// Issues as one line each, `path: message`, for a model to read in a tool reply.
pub fn summarize(issues: &[Issue]) -> String {
    let lines: Vec<String> = issues
        .iter()
        .map(|issue| match format_path(issue.path()) {
            path if path.is_empty() => issue.message().to_owned(),
            path => format!("{path}: {}", issue.message()),
        })
        .collect();
    lines.join("\n")
}

/// `todos[0].id` style.
pub fn format_path(path: &[PathSegment]) -> String {
    let mut out = String::new();
    for segment in path {
        match segment {
            PathSegment::Key(key) if out.is_empty() => out.push_str(key),
            PathSegment::Key(key) => {
                out.push('.');
                out.push_str(key);
            }
            PathSegment::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

fn size_phrase(origin: Origin, relation: &str, limit: f64) -> String {
    let limit = number_text(limit);
    let origin_name = origin.as_str();
    let unit = match origin {
        Origin::String => Some("characters"),
        Origin::Array => Some("items"),
        Origin::Number | Origin::Unknown => None,
    };
    match unit {
        Some(unit) => format!("{origin_name} to have {relation}{limit} {unit}"),
        None => format!("{origin_name} to be {relation}{limit}"),
    }
}

/// A limit as JS prints it. Limits are whole numbers; formatting them as integers keeps
/// float printing (14 KB of wasm) out of the module.
fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        text::signed_decimal(n as i64)
    } else {
        let scaled = (n * 1e6).round() as i64;
        let mut text = text::signed_decimal(scaled / 1_000_000);
        // The six decimals, zero-padded (by a loop: slicing a string of zeros brought
        // in str's slicing panic and its formatting, 3.6 KB gzip).
        let decimals = text::decimal(scaled.unsigned_abs() % 1_000_000);
        text.push('.');
        for _ in decimals.len()..6 {
            text.push('0');
        }
        text.push_str(&decimals);
        text.trim_end_matches('0').to_owned()
    }
}

impl Expected {
    /// Every variant, in declaration order (an index into this is the variant's number).
    pub const ALL: [Expected; 8] = [
        Expected::Object,
        Expected::Array,
        Expected::String,
        Expected::Number,
        Expected::Int,
        Expected::Boolean,
        Expected::Null,
        Expected::Record,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Expected::Object => "object",
            Expected::Array => "array",
            Expected::String => "string",
            Expected::Number => "number",
            Expected::Int => "int",
            Expected::Boolean => "boolean",
            Expected::Null => "null",
            Expected::Record => "record",
        }
    }
}

impl Origin {
    /// Every variant, in declaration order (an index into this is the variant's number).
    pub const ALL: [Origin; 4] = [Origin::String, Origin::Array, Origin::Number, Origin::Unknown];

    pub fn as_str(self) -> &'static str {
        match self {
            Origin::String => "string",
            Origin::Array => "array",
            Origin::Number => "number",
            Origin::Unknown => "unknown",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_match_zod_4_english_locale() {
        let path = [PathSegment::Key("todos".into()), PathSegment::Index(0)];
        assert_eq!(
            Issue::invalid_type(Expected::Array, "NaN", &path).message(),
            "Invalid input: expected array, received NaN"
        );
        assert_eq!(
            Issue::too_small(Origin::Array, 1.0, &path).message(),
            "Too small: expected array to have >=1 items"
        );
        assert_eq!(
            Issue::too_big(Origin::String, 40.0, &path).message(),
            "Too big: expected string to have <=40 characters"
        );
        assert_eq!(Issue::too_big(Origin::Unknown, 8.0, &path).message(), "Too big: expected unknown to be <=8");
        assert_eq!(Issue::too_small(Origin::Number, 0.25, &path).message(), "Too small: expected number to be >=0.25");
        assert_eq!(Issue::invalid_value(&["a", "b"], &path).message(), "Invalid option: expected one of \"a\"|\"b\"");
        assert_eq!(Issue::invalid_value(&["a"], &path).message(), "Invalid input: expected \"a\"");
        assert_eq!(
            Issue::unrecognized_keys(vec!["x".into(), "y".into()], &path).message(),
            "Unrecognized keys: \"x\", \"y\""
        );
    }

    #[test]
    fn a_refusal_names_the_first_few_problems_and_counts_the_rest() {
        let issue = |k: usize| Issue::custom(format!("problem {k}"), vec![PathSegment::Index(k as u32)]);
        for count in 0..=NAMED_ISSUES + 3 {
            let mut made = Vec::new();
            let issues = first_issues(count, &mut |k| {
                made.push(k);
                issue(k)
            });
            let messages: Vec<&str> = issues.iter().map(Issue::message).collect();
            match count {
                // Six problems are named, as the five and a count of one would take as long.
                shown if shown <= NAMED_ISSUES + 1 => assert_eq!(issues, (0..count).map(issue).collect::<Vec<_>>()),
                _ => {
                    assert_eq!(messages[..5], ["problem 0", "problem 1", "problem 2", "problem 3", "problem 4"]);
                    assert_eq!(messages[5], format!("…and {} more issues", count - 5));
                    assert_eq!((issues.len(), made), (6, vec![0, 1, 2, 3, 4]), "the rest only counted");
                }
            }
            let all: Vec<Issue> = (0..count).map(issue).collect();
            assert_eq!(kept_issues(all), issues, "issues already made are kept as they would be made");
            assert_eq!(kept_issues(issues.clone()), issues, "kept as they are");
        }
    }

    #[test]
    fn summaries_name_the_path() {
        let issues = [
            Issue::invalid_json("Unexpected end of JSON input", 3),
            Issue::too_small(
                Origin::String,
                1.0,
                &[PathSegment::Key("todos".into()), PathSegment::Index(2), PathSegment::Key("id".into())],
            ),
        ];
        assert_eq!(
            summarize(&issues),
            "Invalid JSON: Unexpected end of JSON input\ntodos[2].id: Too small: expected string to have >=1 characters"
        );
    }
}
