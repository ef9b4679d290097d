//! planloop's errors: a stable snake_case `code` to switch on, a message for people, and
//! a `data` object for programs. Every message planloop throws is written here.

pub mod issue;
pub(crate) mod literal;

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::issue::{kept_issues, summarize, Issue};
use crate::text::replace;

/// Why a call was refused. The codes are a contract: they never change meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// An argument has the wrong type or shape; `data.argument` names it and
    /// `data.issues` says what is wrong, as validation issues.
    InvalidArgument,
    /// An options object was rejected (wrong type, out of range, or an unknown key);
    /// `data.issues` lists each problem.
    InvalidOptions,
    /// Reading a host value threw (a getter or a proxy trap); `data.detail` carries the
    /// thrown value's text.
    HostException,
    /// A call out of order for the session's state, such as `handleModelResponse` while
    /// tool results are still awaited; `data.detail` says what was expected.
    InvalidState,
    /// `approve`/`reject` named an action planloop never proposed.
    UnknownAction,
    /// `approve`/`reject` named an action already approved or rejected.
    ActionAlreadyResolved,
    /// `approve`/`reject` named an action of a turn that is over.
    ActionOfAnotherTurn,
    /// `Session.restore` refused a snapshot: not a planloop session snapshot, another
    /// major version (or a newer minor one), a checksum that does not match (changed or
    /// cut short), a wrong shape (`data.issues`), or state that breaks an invariant.
    /// `data.detail` says which; nothing was restored.
    InvalidSnapshot,
    /// planloop broke one of its own invariants. Please report it.
    Internal,
}

impl ErrorCode {
    /// The code as JS reads it (serde writes the same).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "invalid_argument",
            ErrorCode::InvalidOptions => "invalid_options",
            ErrorCode::HostException => "host_exception",
            ErrorCode::InvalidState => "invalid_state",
            ErrorCode::UnknownAction => "unknown_action",
            ErrorCode::ActionAlreadyResolved => "action_already_resolved",
            ErrorCode::ActionOfAnotherTurn => "action_of_another_turn",
            ErrorCode::InvalidSnapshot => "invalid_snapshot",
            ErrorCode::Internal => "internal",
        }
    }
}

/// The machine-readable part of a PlanloopError.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErrorData {
    /// The argument or option at fault, as the JS API names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub argument: Option<String>,
    /// What is wrong with it, as validation issues; past six problems, the first five
    /// and one that counts the rest.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<Issue>")]
    pub issues: Option<Vec<Issue>>,
    /// Free-form detail, such as the text of an exception the host threw.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub detail: Option<String>,
}

/// An error planloop returns instead of panicking.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
    pub data: ErrorData,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// `argument` failed validation. (Here and below, the issues kept are the first few
    /// and one counting the rest: see [`kept_issues`].)
    pub fn invalid_argument(argument: &str, issues: Vec<Issue>) -> Error {
        let issues = kept_issues(issues);
        Error {
            code: ErrorCode::InvalidArgument,
            message: format!("Invalid argument `{argument}`: {}", one_line(&issues)),
            data: ErrorData { argument: Some(argument.to_owned()), issues: Some(issues), detail: None },
        }
    }

    /// The options object `argument` failed validation.
    pub fn invalid_options(argument: &str, issues: Vec<Issue>) -> Error {
        let issues = kept_issues(issues);
        Error {
            code: ErrorCode::InvalidOptions,
            message: format!("Invalid options `{argument}`: {}", one_line(&issues)),
            data: ErrorData { argument: Some(argument.to_owned()), issues: Some(issues), detail: None },
        }
    }

    /// Reading a host value threw.
    pub fn host_exception(detail: String) -> Error {
        Error {
            code: ErrorCode::HostException,
            message: format!("Reading a value from the host threw: {detail}"),
            data: ErrorData { detail: Some(detail), ..ErrorData::default() },
        }
    }

    /// A snapshot `Session.restore` will not use; `why` says what is wrong with it.
    pub fn invalid_snapshot(why: &str, issues: Option<Vec<Issue>>) -> Error {
        let issues = issues.map(kept_issues);
        let message = match &issues {
            Some(issues) => format!("Cannot restore the session: {why}: {}", one_line(issues)),
            None => format!("Cannot restore the session: {why}"),
        };
        Error {
            code: ErrorCode::InvalidSnapshot,
            message,
            data: ErrorData { argument: Some("snapshot".into()), issues, detail: Some(why.to_owned()) },
        }
    }

    /// A call out of order; `expected` says what the session waits for.
    pub fn invalid_state(call: &str, expected: &str) -> Error {
        Error {
            code: ErrorCode::InvalidState,
            message: format!("`{call}` cannot be called now: {expected}"),
            data: ErrorData { detail: Some(expected.to_owned()), ..ErrorData::default() },
        }
    }

    /// An `approve`/`reject` that cannot apply to `action_id`.
    pub fn action(code: ErrorCode, action_id: &str) -> Error {
        // planloop's ids are short; anything else is quoted only in part.
        let action_id = crate::text::cap(action_id, 64);
        let why = match code {
            ErrorCode::UnknownAction => "no such action was proposed",
            ErrorCode::ActionAlreadyResolved => "it was already approved or rejected",
            _ => "it belongs to a turn that is over",
        };
        Error {
            code,
            message: format!("Action `{action_id}` cannot be resolved: {why}"),
            data: ErrorData { argument: Some("actionId".into()), detail: Some(action_id), ..ErrorData::default() },
        }
    }

    /// A broken invariant inside planloop.
    pub fn internal(detail: &str) -> Error {
        Error {
            code: ErrorCode::Internal,
            message: format!("planloop internal error (please report): {detail}"),
            data: ErrorData { detail: Some(detail.to_owned()), ..ErrorData::default() },
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

fn one_line(issues: &[Issue]) -> String {
    replace(&summarize(issues), "\n", "; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_code_reads_as_serde_writes_it() {
        use ErrorCode::*;
        let codes = [
            InvalidArgument,
            InvalidOptions,
            HostException,
            InvalidState,
            UnknownAction,
            ActionAlreadyResolved,
            ActionOfAnotherTurn,
            InvalidSnapshot,
            Internal,
        ];
        for code in codes {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str(), "{code:?}");
        }
    }
}
