//! `PlannerState`: the todo list a model keeps with `write_todos`, and its guard.
//!
//! Each accepted call replaces the list and bumps `revision`; a rejected call changes
//! nothing and its ack tells the model what to fix. The ack on success is exactly seed
//! 004's `{ok, revision, todoCount, inProgress}`, compact enough to send back as the
//! tool result.

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::issue::{summarize, Issue};
use crate::error::literal::{code_literal, Flag};
use crate::error::Result;
use crate::json::decimals::Decimals;
use crate::json::from_value::{struct_from_value, FromValue, Mismatch};
use crate::json::value::Value;
use crate::plan::guard::{IterationVerdict, OveruseGuard, Refusal};
use crate::plan::todos::{self, Todo, ToolArgs, WriteTodos};
use crate::validate::input::Input;
use crate::validate::write_todos::{self, Found, Mistake, Outcome, Source};

/// Options of a PlannerState.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct PlannerOptions {
    /// Planner-only iterations allowed in a row; the next one is refused with
    /// `planner_overuse_execute_next_step`.
    #[serde(default = "default_streak")]
    #[schemars(range(max = 1000))]
    pub max_planner_only_streak: u32,
    /// The tools that only plan, and do not act.
    #[serde(default = "default_planner_tools")]
    #[schemars(length(max = 32))]
    pub planner_tools: Vec<PlannerToolName>,
}

struct_from_value!(PlannerOptions, "camelCase" {
    max_planner_only_streak = default_streak(),
    planner_tools = default_planner_tools(),
});

/// A tool name.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(transparent)]
pub struct PlannerToolName(#[schemars(length(min = 1, max = 64))] pub String);

impl FromValue for PlannerToolName {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        PlannerToolName(String::from_value(value, mismatch))
    }
}

fn default_streak() -> u32 {
    2
}

fn default_planner_tools() -> Vec<PlannerToolName> {
    vec![PlannerToolName("write_todos".to_owned())]
}

impl Default for PlannerOptions {
    fn default() -> Self {
        PlannerOptions { max_planner_only_streak: default_streak(), planner_tools: default_planner_tools() }
    }
}

/// The planner's state as plain data.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlannerSnapshot {
    /// 0 before the first accepted `write_todos`; grows by one with each accepted call.
    pub revision: u32,
    /// The current list (empty before the first accepted call): at most 8 from
    /// `write_todos`, up to 200 followed through a dialect.
    #[schemars(length(max = crate::plan::dialects::MAX_TODOS))]
    pub todos: Vec<Todo>,
    #[schemars(required, transform = crate::validate::schema::nullable, length(max = 40))]
    pub focus: Option<String>,
    #[schemars(required, transform = crate::validate::schema::nullable, length(max = 200))]
    pub note: Option<String>,
    /// `nowMs` of the last accepted call.
    #[schemars(required, transform = crate::validate::schema::nullable)]
    pub updated_at: Option<f64>,
}

struct_from_value!(PlannerSnapshot, "camelCase" { revision, todos, focus, note, updated_at });

code_literal!(InvalidArgumentsCode = "invalid_arguments");

/// Why a `write_todos` call was not applied.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum AckError {
    /// The arguments failed validation; `issues` says how.
    InvalidArguments(InvalidArgumentsCode),
    /// The overuse guard refused the call.
    Refused(Refusal),
}

/// The reply to a `write_todos` call, to send back to the model as the tool result.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum PlannerAck {
    Accepted(AcceptedAck),
    Rejected(RejectedAck),
}

/// The list was replaced.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AcceptedAck {
    pub ok: Flag<true>,
    pub revision: u32,
    pub todo_count: u32,
    /// The id of the todo in progress, if any.
    pub in_progress: Option<String>,
}

/// Nothing changed; `message` tells the model what to do instead.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct RejectedAck {
    pub ok: Flag<false>,
    pub error: AckError,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<Issue>")]
    pub issues: Option<Vec<Issue>>,
}

/// The todo list and the overuse guard of one agent run.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "PlannerStateData")]
pub struct PlannerState {
    state: PlannerSnapshot,
    guard: OveruseGuard,
}

struct_from_value!(PlannerState, "camelCase" { state, guard });

impl PlannerState {
    pub fn new(options: PlannerOptions) -> Self {
        let tools = options.planner_tools.into_iter().map(|t| t.0).collect();
        PlannerState {
            state: PlannerSnapshot { revision: 0, todos: Vec::new(), focus: None, note: None, updated_at: None },
            guard: OveruseGuard::new(options.max_planner_only_streak, tools),
        }
    }

    /// Whether `other` was made with the same options (its todos may differ).
    pub fn same_settings(&self, other: &PlannerState) -> bool {
        self.guard.same_settings(&other.guard)
    }

    /// Starts an iteration: the names of every tool the model called in it.
    pub fn record_iteration<S: AsRef<str>>(&mut self, tool_names: &[S]) -> IterationVerdict {
        self.guard.record(tool_names)
    }

    /// Applies one `write_todos` call, reading its decimal numbers with `decimals`. A
    /// call the guard refuses is not even parsed.
    pub fn apply_write_todos<'a, I: Input<'a>>(
        &mut self,
        args: ToolArgs<'a, I>,
        now_ms: f64,
        decimals: Decimals,
    ) -> Result<PlannerAck> {
        let applied = match args {
            ToolArgs::Text(text) => self.apply_text(text, false, now_ms, decimals)?,
            ToolArgs::Host(text) => self.apply_text(text, true, now_ms, decimals)?,
            args => return self.apply_in_full(args, now_ms, decimals),
        };
        Ok(match applied {
            Applied::Found { .. } => PlannerAck::Accepted(self.accepted()),
            Applied::Mistaken(mistakes) => rejected(mistakes.iter().map(Mistake::issue).collect()),
            Applied::Ack(ack) => ack,
        })
    }

    /// [`Self::apply_write_todos`] for arguments as text (JSON, or the JS layer's
    /// encoding of a JS value when `host`), saying how the one-pass reader took them: a
    /// binding that hands an accepted list back as places in its own string needs them.
    pub fn apply_text(&mut self, text: &[u8], host: bool, now_ms: f64, decimals: Decimals) -> Result<Applied> {
        if let Some(refusal) = self.guard.refusal() {
            return Ok(Applied::Ack(self.refused(refusal)));
        }
        match write_todos::read(text, host, decimals) {
            Outcome::Valid(found) => {
                let revision = self.replace_found(text, &found, now_ms);
                Ok(Applied::Found { found, revision })
            }
            Outcome::Invalid(mistakes) => Ok(Applied::Mistaken(mistakes)),
            Outcome::NotJson(error) => Ok(Applied::Ack(rejected(vec![error.issue()]))),
            Outcome::Unsure => {
                let args = if host { ToolArgs::<&Value>::Host(text) } else { ToolArgs::Text(text) };
                Ok(Applied::Ack(self.apply_in_full(args, now_ms, decimals)?))
            }
        }
    }

    /// [`Self::apply_write_todos`] the full way, without the one-pass reader: for a
    /// caller that has already run it and got `Unsure`, and for a `Session` (see
    /// [`crate::validate::write_todos::read`]).
    pub fn apply_in_full<'a, I: Input<'a>>(
        &mut self,
        args: ToolArgs<'a, I>,
        now_ms: f64,
        decimals: Decimals,
    ) -> Result<PlannerAck> {
        if let Some(refusal) = self.guard.refusal() {
            return Ok(self.refused(refusal));
        }
        let args = match todos::validate(args, decimals)?.into_args()? {
            Ok(args) => args,
            Err(issues) => return Ok(rejected(issues)),
        };
        Ok(PlannerAck::Accepted(self.replace(args, now_ms)))
    }

    fn accepted(&self) -> AcceptedAck {
        AcceptedAck {
            ok: Flag,
            revision: self.state.revision,
            todo_count: self.state.todos.len() as u32,
            in_progress: todos::in_progress(&self.state.todos).map(|t| t.id.clone()),
        }
    }

    /// Replaces the list with the arguments the one-pass reader found valid in `text`,
    /// reusing the strings of the list it replaces; the new revision.
    fn replace_found(&mut self, text: &[u8], found: &Found, now_ms: f64) -> u32 {
        let state = &mut self.state;
        let text = Source::new(text);
        todos::assign_found(&mut state.todos, &text, &found.todos);
        todos::assign_field(&mut state.focus, &text, &found.focus);
        todos::assign_field(&mut state.note, &text, &found.note);
        state.revision = state.revision.saturating_add(1);
        state.updated_at = Some(now_ms);
        state.revision
    }

    /// Replaces the list with todos a dialect tool sent (already within the limits).
    pub fn replace(&mut self, args: WriteTodos, now_ms: f64) -> AcceptedAck {
        let WriteTodos { todos, focus, note } = args;
        self.state = PlannerSnapshot {
            revision: self.state.revision.saturating_add(1),
            todos,
            focus,
            note,
            updated_at: Some(now_ms),
        };
        self.accepted()
    }

    /// The refusal that applies to the current iteration's planner calls, if any.
    pub fn refusal(&self) -> Option<Refusal> {
        self.guard.refusal()
    }

    /// The rejection ack for a refused planner call.
    pub fn refused(&self, refusal: Refusal) -> PlannerAck {
        let message = match refusal {
            Refusal::PlannerOveruseExecuteNextStep => format!(
                "Refused: more than {} iterations in a row only updated the plan. The todo list was not changed. \
                 Execute the next step now with a non-planner tool, then update the list.",
                self.guard.max_planner_only_streak()
            ),
            Refusal::DuplicatePlannerCall => "Refused: the planner was called more than once in one iteration. \
                 The todo list was not changed. Send one write_todos call with the full list."
                .to_owned(),
        };
        PlannerAck::Rejected(RejectedAck { ok: Flag, error: AckError::Refused(refusal), message, issues: None })
    }

    pub fn snapshot(&self) -> &PlannerSnapshot {
        &self.state
    }

    pub fn todos(&self) -> &[Todo] {
        &self.state.todos
    }
}

/// How a `write_todos` call given as text was applied ([`PlannerState::apply_text`]).
#[derive(Debug)]
// `Found` is held inline, as in `write_todos::Outcome`: applying a valid call allocates
// nothing for it.
#[allow(clippy::large_enum_variant)]
pub enum Applied {
    /// Read in one pass and accepted: where its strings lie in the text, and the new
    /// revision.
    Found { found: Found, revision: u32 },
    /// Read in one pass and refused for these mistakes (as an ack, they are its issues).
    Mistaken(Vec<Mistake>),
    /// Anything else: a refusal by the guard, text that is not JSON, the full path's ack.
    Ack(PlannerAck),
}

/// The ack for arguments that failed validation (see [`rejection`]).
pub fn rejected(issues: Vec<Issue>) -> PlannerAck {
    PlannerAck::Rejected(rejection(issues))
}

/// How the message of a rejection for invalid arguments begins; the issues follow.
pub const REJECTION_HEAD: &str =
    "Invalid write_todos arguments; the todo list was not changed. Fix these and send the full list again:\n";

/// The ack for arguments that failed validation: nothing changed, and why.
pub fn rejection(issues: Vec<Issue>) -> RejectedAck {
    let message = format!("{REJECTION_HEAD}{}", summarize(&issues));
    RejectedAck { ok: Flag, error: AckError::InvalidArguments(InvalidArgumentsCode), message, issues: Some(issues) }
}
