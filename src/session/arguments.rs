//! A host call's arguments as a session keeps them: checked when a response comes in
//! (distinct ids, within the limits of schema `{}`), made JSON (what the host runs, the
//! user approves and a snapshot keeps), and fingerprinted for the stuck detector.

use crate::error::issue::{first_issues, Issue, PathSegment};
use crate::error::{Error, Result};
use crate::json;
use crate::json::decimals::Decimals;
use crate::json::value::{Document, Value};
use crate::json::write as json_text;
use crate::session::exchange::ToolCallInput;
use crate::sort::repeats;
use crate::validate::schema;

/// Tool calls of one response must have distinct ids, or their results could not be told apart.
/// Each call whose id an earlier call has is reported, in call order (the first few, then a count).
pub(super) fn check_unique_ids(calls: &[ToolCallInput]) -> Result<()> {
    // Found by sorting: n log n, where comparing each id with all before it was quadratic
    // (256 ids of 256 bytes that differ only at the end).
    let ids: Vec<&str> = calls.iter().map(|call| call.id.as_str()).collect();
    let repeated = repeats(&ids);
    let mut shared = Vec::new();
    for (i, &repeats) in repeated.iter().enumerate() {
        if repeats {
            shared.push(i);
        }
    }
    let issues = first_issues(shared.len(), &mut |k| {
        let i = shared[k];
        let path =
            vec![PathSegment::Key("toolCalls".into()), PathSegment::Index(i as u32), PathSegment::Key("id".into())];
        Issue::custom(format!("Two tool calls share the id \"{}\"", calls[i].id), path)
    });
    match issues.is_empty() {
        true => Ok(()),
        false => Err(Error::invalid_argument("response", issues)),
    }
}

/// Arguments given as a value (not JSON text) must keep within the limits of schema `{}`
/// (depth and size), as the JS binding already checks, so everything a session keeps and
/// writes into a snapshot is as shallow as a snapshot may be.
pub(super) fn check_argument_limits(calls: &[ToolCallInput], decimals: Decimals) -> Result<()> {
    let mut issues = Vec::new();
    let unchecked =
        |c: &ToolCallInput| !matches!(c.args, Value::String(_)) && !schema::plainly_within_any_limits(&c.args);
    for (i, call) in calls.iter().enumerate().filter(|(_, c)| unchecked(c)) {
        if let Err(found) = schema::validate(&schema::Schema::Any, &call.args, decimals)? {
            let message = found.first().map_or_else(|| "Too big".to_owned(), |issue| issue.message().to_owned());
            let path = vec![
                PathSegment::Key("toolCalls".into()),
                PathSegment::Index(i as u32),
                PathSegment::Key("args".into()),
            ];
            issues.push(Issue::custom(message, path));
        }
    }
    match issues.is_empty() {
        true => Ok(()),
        false => Err(Error::invalid_argument("response", issues)),
    }
}

/// A call as the stuck detector compares calls: its tool, then its arguments as JSON.
pub(super) fn signature(tool: &str, args: &Value<'_>, decimals: Decimals) -> String {
    let mut text = Vec::with_capacity(tool.len() + 128);
    text.extend_from_slice(tool.as_bytes());
    text.push(b' ');
    json_text::stringify_into(&mut text, args, decimals);
    String::from_utf8(text).unwrap_or_default()
}

/// A call's arguments as the host gets them, the user approves them and a snapshot keeps
/// them: JSON text parsed into its value, and any value as JSON carries it (see
/// [`Value::into_json`]); no arguments at all are an empty object.
pub(super) fn host_args(args: Value<'static>, decimals: Decimals) -> Value<'static> {
    let parsed = match &args {
        Value::String(text) => {
            json::parse(text.as_bytes(), decimals).ok().and_then(|document| shallow_copy(document, decimals))
        }
        _ => None,
    };
    let args = parsed.unwrap_or(args);
    // Most arguments are JSON already: kept as they are rather than rebuilt.
    if json::value::is_json(&args) {
        return args;
    }
    args.into_json().unwrap_or(Value::Object(Vec::new()))
}

/// A parsed document as a value, if it is no deeper or bigger than a schema `{}` allows.
/// One well inside those limits (the usual arguments) is taken over as it is: checking
/// it against `{}` copies it key by key, and what that copy settles (a repeated key,
/// `-0`) [`host_args`] settles again anyway.
fn shallow_copy(document: Document<'_>, decimals: Decimals) -> Option<Value<'static>> {
    if schema::plainly_within_any_limits(&document) {
        return Some(document.into_shallow().into_owned());
    }
    match schema::validate(&schema::Schema::Any, &*document, decimals) {
        Ok(Ok(value)) => Some(value.into_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::value::is_json;
    use crate::test_rng::Rng;

    /// Arguments as JSON text, of the kinds that take the general path too: repeated
    /// keys, `-0`, lone surrogates, deep nesting, text that is not JSON.
    fn arguments(rng: &mut Rng, depth: usize) -> String {
        let leaves = ["1", "-0", "2.5e3", "null", "true", r#""a""#, r#""\ud800""#, r#""\u00e9\n""#, "-0.0"];
        match rng.below(if depth > 70 { 1 } else { 6 }) {
            0 | 1 => rng.pick(&leaves).to_string(),
            2 => format!("[{}]", (0..rng.below(4)).map(|_| arguments(rng, depth + 1)).collect::<Vec<_>>().join(",")),
            _ => {
                let keys = ["path", "q", "a", "__proto__"];
                let members: Vec<String> = (0..rng.below(4))
                    .map(|_| format!(r#""{}":{}"#, rng.pick(&keys), arguments(rng, depth + 1)))
                    .collect();
                format!("{{{}}}", members.join(","))
            }
        }
    }

    #[test]
    fn each_call_repeating_an_earlier_id_is_reported_in_call_order() {
        let calls: Vec<ToolCallInput> = ["b", "a", "b", "a", "c", "b"]
            .iter()
            .map(|id| ToolCallInput { id: (*id).into(), name: "cat".into(), args: Value::Null })
            .collect();
        let error = check_unique_ids(&calls).unwrap_err();
        let issues = error.data.issues.unwrap_or_default();
        let found: Vec<(String, String)> =
            issues.iter().map(|issue| (format!("{:?}", issue.path()), issue.message().to_owned())).collect();
        let expected: Vec<(String, String)> = [(2, "b"), (3, "a"), (5, "b")]
            .iter()
            .map(|(i, id)| {
                let path =
                    [PathSegment::Key("toolCalls".into()), PathSegment::Index(*i), PathSegment::Key("id".into())];
                (format!("{path:?}"), format!("Two tool calls share the id \"{id}\""))
            })
            .collect();
        assert_eq!(found, expected);
        assert!(check_unique_ids(&calls[..2]).is_ok());
        assert!(check_unique_ids(&[]).is_ok());
    }

    #[test]
    fn plain_arguments_are_taken_over_as_checking_them_against_any_would_give() {
        // What `host_args` was before plain JSON skipped the check.
        let checked = |text: &str| -> Value<'static> {
            let copied =
                json::parse(text.as_bytes(), Decimals::RUST).ok().and_then(|document| {
                    match schema::validate(&schema::Schema::Any, &*document, Decimals::RUST) {
                        Ok(Ok(value)) => Some(value.into_owned()),
                        _ => None,
                    }
                });
            let args = copied.unwrap_or_else(|| Value::String(text.to_owned().into()));
            if is_json(&args) {
                args
            } else {
                args.into_json().unwrap_or(Value::Object(Vec::new()))
            }
        };
        let check = |text: &str| {
            assert_eq!(host_args(Value::String(text.to_owned().into()), Decimals::RUST), checked(text), "{text}")
        };
        let mut rng = Rng::for_test(Rng::seeded(7).0);
        for _ in 0..crate::test_rng::rounds(20_000) {
            check(&arguments(&mut rng, 0));
        }
        let deep = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        for text in [deep(64), deep(65), deep(66), "{\"a\":1".to_owned(), "  ".to_owned()] {
            check(&text);
        }
    }
}
