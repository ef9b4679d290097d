//! The configuration of a `Session`: one plain object, every key optional, every
//! default taken from the seeds. A misspelt key is an error, not a silent default.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::{enum_from_value, struct_from_value};
use crate::session::approval::ToolPolicy;
use crate::trail::reasoning::HistoryOptions;

pub use crate::plan::dialects::TodoDialect;
pub use crate::prompts::Language;

/// What ends a turn that hits `maxIterations` or `timeoutMs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OnLimit {
    /// A `pause` decision: the plan is kept, paused, with a progress summary.
    Pause,
    /// A `fail` decision.
    Fail,
}

enum_from_value!(OnLimit, "lowercase" [Pause, Fail]);

/// Who answers the todo tools of `todoDialects`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TodoMode {
    /// planloop answers them, as the original tools do.
    #[default]
    Answer,
    /// The host runs the agent's own tool (Claude Code, the Claude Agent SDK, Codex):
    /// planloop hands the call over like any read, and follows the list once the tool's
    /// result says the call worked.
    Observe,
}

enum_from_value!(TodoMode, "lowercase" [Answer, Observe]);

/// When the goal/plan reminder is restated (every `reminderInterval` iterations, or only
/// after that many pass with no progress on the plan).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReminderMode {
    /// On every `reminderInterval`-th iteration (seed 000), whatever the model did.
    Interval,
    /// Once `reminderInterval` iterations pass with no item of the plan changing status
    /// since the last change or the last reminder: a model that keeps moving is not
    /// reminded (nor tempted to rewrite an unchanged list).
    #[default]
    Drift,
}

enum_from_value!(ReminderMode, "lowercase" [Interval, Drift]);

/// Seed 003's continuation protocol: the model ends each reply with a `continuation`
/// object saying CONTINUE or TERMINATE.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct ContinuationProtocol {
    /// Read the `continuation` object from each text reply (and strip it from the answer).
    #[serde(default)]
    pub enabled: bool,
    /// Without an explicit object, terminate. When false, the reply's wording decides
    /// (termination phrases first), and no match terminates.
    #[serde(default = "yes")]
    pub require_explicit_signal: bool,
}

struct_from_value!(ContinuationProtocol, "camelCase" { enabled = Default::default(), require_explicit_signal = yes() });

impl Default for ContinuationProtocol {
    fn default() -> Self {
        ContinuationProtocol { enabled: false, require_explicit_signal: true }
    }
}

/// When a model is going in circles. Each pattern, once seen, is named in a `Stuck`
/// event and a nudge; after `maxNudges` nudges the turn ends with `exitReason: "stuck"`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct StuckOptions {
    /// The same call with the same result, this many times in a row.
    #[serde(default = "four")]
    #[schemars(range(min = 2, max = 100))]
    pub same_call_same_result: u32,
    /// The same call failing, this many times in a row.
    #[serde(default = "three")]
    #[schemars(range(min = 2, max = 100))]
    pub same_failing_call: u32,
    /// The same text reply, this many times in a row.
    #[serde(default = "three")]
    #[schemars(range(min = 2, max = 100))]
    pub same_text: u32,
    /// Two calls alternating A, B, A, B, … over this many steps.
    #[serde(default = "six")]
    #[schemars(range(min = 4, max = 100))]
    pub alternation_window: u32,
    /// Nudges before the turn ends as stuck.
    #[serde(default = "two")]
    #[schemars(range(max = 100))]
    pub max_nudges: u32,
}

struct_from_value!(StuckOptions, "camelCase" {
    same_call_same_result = four(),
    same_failing_call = three(),
    same_text = three(),
    alternation_window = six(),
    max_nudges = two(),
});

impl Default for StuckOptions {
    fn default() -> Self {
        StuckOptions {
            same_call_same_result: 4,
            same_failing_call: 3,
            same_text: 3,
            alternation_window: 6,
            max_nudges: 2,
        }
    }
}

/// Plan review: the user sees the plan before any action runs.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct PlanReviewOptions {
    /// A `plan` call, or the first todo list, ends the step with `awaitPlanReview`.
    #[serde(default)]
    pub enabled: bool,
    /// How long a review waits for the user before it is dropped.
    #[serde(default = "sixty")]
    #[schemars(range(min = 1, max = 10_080))]
    pub ttl_minutes: u32,
}

struct_from_value!(PlanReviewOptions, "camelCase" { enabled = Default::default(), ttl_minutes = sixty() });

impl Default for PlanReviewOptions {
    fn default() -> Self {
        PlanReviewOptions { enabled: false, ttl_minutes: 60 }
    }
}

/// Sub-agents: the model may hand a scoped goal to a child session through a delegate
/// tool, and gets the child's capsule back as that call's result (see `delegation.rs`).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct DelegationOptions {
    /// Offer the delegate tool and hand its calls to the host as delegations.
    #[serde(default)]
    pub enabled: bool,
    /// The tools read as delegate calls: planloop's own (offered to the model), then any
    /// the host's framework offers (deepagents' `task`, Claude Code's `Agent` or `Task`),
    /// whose argument shapes are read too.
    #[serde(default = "delegate_tools")]
    #[schemars(length(min = 1, max = 4), inner(length(min = 1, max = 64)))]
    pub tool_names: Vec<String>,
    /// How deep sub-agents may nest: 1 lets the session delegate, and its children not.
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 3))]
    pub max_depth: u32,
    /// Children one turn may have at a time.
    #[serde(default = "two")]
    #[schemars(range(min = 1, max = 8))]
    pub max_in_flight: u32,
    /// Model responses a child may use at most; it gets less when the turn has less left.
    #[serde(default = "ten")]
    #[schemars(range(min = 2, max = 100_000))]
    pub max_iterations: u32,
    /// The longest capsule text a child hands back, in characters.
    #[serde(default = "four_thousand")]
    #[schemars(range(min = 500, max = 20_000))]
    pub capsule_chars: u32,
}

struct_from_value!(DelegationOptions, "camelCase" {
    enabled = Default::default(),
    tool_names = delegate_tools(),
    max_depth = one(),
    max_in_flight = two(),
    max_iterations = ten(),
    capsule_chars = four_thousand(),
});

impl Default for DelegationOptions {
    fn default() -> Self {
        DelegationOptions {
            enabled: false,
            tool_names: delegate_tools(),
            max_depth: one(),
            max_in_flight: two(),
            max_iterations: ten(),
            capsule_chars: four_thousand(),
        }
    }
}

/// How a turn's goal is checked when its list is done and the model stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Verify {
    /// Not checked: the turn ends.
    #[default]
    Off,
    /// The model is asked once to confirm each criterion with its evidence, or re-plan.
    Nudge,
    /// A `verifyGoal` decision: the host judges, and answers with `handleVerdict`.
    Host,
}

enum_from_value!(Verify, "lowercase" [Off, Nudge, Host]);

/// What "done" takes beyond a finished list: a goal check, and evidence for each item.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct CompletionOptions {
    /// How a turn's `goal` is checked.
    #[serde(default)]
    pub verify: Verify,
    /// Ask the model once per turn to do or cite the work of items it marked completed
    /// with no tool call made while they were in progress.
    #[serde(default)]
    pub require_evidence: bool,
}

struct_from_value!(CompletionOptions, "camelCase" { verify = Default::default(), require_evidence = Default::default() });

/// Everything a `Session` can be told. Every key is optional.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct SessionConfig {
    /// The language of injected prompts.
    #[serde(default = "english")]
    pub language: Language,
    /// Planner-only iterations allowed in a row before planner calls are refused.
    #[serde(default = "two")]
    #[schemars(range(max = 1000))]
    pub max_planner_only_streak: u32,
    /// Continuation nudges per plan before a text-only reply is final (the safety valve).
    #[serde(default = "five")]
    #[schemars(range(max = 1000))]
    pub max_plan_continuations: u32,
    /// Every this many iterations, the goal and plan are restated in the last tool message.
    #[serde(default = "three")]
    #[schemars(range(min = 1, max = 1000))]
    pub reminder_interval: u32,
    /// Model responses per turn. The last one gets no tools, so the model answers.
    #[serde(default = "twenty")]
    #[schemars(range(min = 1, max = 100_000))]
    pub max_iterations: u32,
    /// Wall-clock budget per turn, measured with the `nowMs` values passed in.
    #[serde(default = "five_minutes")]
    #[schemars(range(min = 1, max = 86_400_000))]
    pub timeout_ms: u32,
    /// What a limit does to the turn.
    #[serde(default = "pause")]
    pub on_limit: OnLimit,
    #[serde(default)]
    pub continuation_protocol: ContinuationProtocol,
    /// The todo tools planloop answers (`write_todos` and the dialects of other agents).
    #[serde(default = "own_dialect")]
    #[schemars(length(max = 15))]
    pub todo_dialects: Vec<TodoDialect>,
    /// Whether planloop answers those tools (`"answer"`) or follows the host's answers
    /// (`"observe"`).
    #[serde(default)]
    pub todo_mode: TodoMode,
    /// The reasoning trail kept for display.
    #[serde(default)]
    pub history: HistoryOptions,
    #[serde(default)]
    pub stuck: StuckOptions,
    /// Which host tools run at once (`read`) and which wait for approval. A tool named
    /// nowhere needs approval.
    #[serde(default)]
    pub tools: ToolPolicy,
    #[serde(default)]
    pub plan_review: PlanReviewOptions,
    /// Tool output longer than this is cut (with a note) before it goes back to the model.
    #[serde(default = "twenty_thousand")]
    #[schemars(range(min = 100, max = 10_000_000))]
    pub max_tool_output_chars: u32,
    #[serde(default)]
    pub delegation: DelegationOptions,
    /// When the reminder comes: `"drift"` (after `reminderInterval` iterations with no
    /// progress on the plan) or `"interval"` (every `reminderInterval` iterations). A
    /// session restored from a snapshot older than 1.4 keeps `"interval"`, as it ran.
    #[serde(default)]
    pub reminder_mode: ReminderMode,
    /// Tokens per turn (input and output, its sub-agents' included); at it the turn
    /// ends with `budget_exhausted`. No limit when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u32", range(min = 1))]
    pub max_tokens: Option<u32>,
    /// Tokens for the whole session; once used up, it begins no more turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u32", range(min = 1))]
    pub max_session_tokens: Option<u32>,
    #[serde(default)]
    pub completion: CompletionOptions,
}

struct_from_value!(SessionConfig, "camelCase" {
    language = english(),
    max_planner_only_streak = two(),
    max_plan_continuations = five(),
    reminder_interval = three(),
    max_iterations = twenty(),
    timeout_ms = five_minutes(),
    on_limit = pause(),
    continuation_protocol = Default::default(),
    todo_dialects = own_dialect(),
    todo_mode = Default::default(),
    history = Default::default(),
    stuck = Default::default(),
    tools = Default::default(),
    plan_review = Default::default(),
    max_tool_output_chars = twenty_thousand(),
    delegation = Default::default(),
    reminder_mode = Default::default(),
    max_tokens,
    max_session_tokens,
    completion = Default::default(),
});

impl SessionConfig {
    /// The rules its schema cannot say: two dialects of one tool name (Gemini CLI's and
    /// planloop's `write_todos`) cannot both be on, as a call could not tell them apart;
    /// nor can a delegate tool be named as a planner tool.
    pub fn check(&self, argument: &str) -> crate::error::Result<()> {
        let planner = |name: &str| {
            name == "plan" || name == "plan_progress" || TodoDialect::for_tool(name, &self.todo_dialects).is_some()
        };
        if let Some(at) = self.delegation.tool_names.iter().position(|name| planner(name)) {
            let message =
                format!("\"{}\" is a planner tool: name the delegate tool otherwise", self.delegation.tool_names[at]);
            let path = vec![
                crate::error::issue::PathSegment::Key("delegation".into()),
                crate::error::issue::PathSegment::Key("toolNames".into()),
                crate::error::issue::PathSegment::Index(at as u32),
            ];
            return Err(crate::error::Error::invalid_options(
                argument,
                vec![crate::error::issue::Issue::custom(message, path)],
            ));
        }
        match TodoDialect::clash(&self.todo_dialects) {
            None => Ok(()),
            Some((first, second)) => {
                let at = self.todo_dialects.iter().rposition(|d| *d == second).unwrap_or_default();
                let message = format!(
                    "\"{}\" and \"{}\" both answer the tool {}: keep one",
                    first.as_str(),
                    second.as_str(),
                    second.tool_name()
                );
                let path = vec![
                    crate::error::issue::PathSegment::Key("todoDialects".into()),
                    crate::error::issue::PathSegment::Index(at as u32),
                ];
                Err(crate::error::Error::invalid_options(
                    argument,
                    vec![crate::error::issue::Issue::custom(message, path)],
                ))
            }
        }
    }
}

/// The defaults a config read from `{}` has (the same functions give them).
impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            language: english(),
            max_planner_only_streak: two(),
            max_plan_continuations: five(),
            reminder_interval: three(),
            max_iterations: twenty(),
            timeout_ms: five_minutes(),
            on_limit: pause(),
            continuation_protocol: ContinuationProtocol::default(),
            todo_dialects: own_dialect(),
            todo_mode: TodoMode::default(),
            history: HistoryOptions::default(),
            stuck: StuckOptions::default(),
            tools: ToolPolicy::default(),
            plan_review: PlanReviewOptions::default(),
            max_tool_output_chars: twenty_thousand(),
            delegation: DelegationOptions::default(),
            reminder_mode: ReminderMode::default(),
            max_tokens: None,
            max_session_tokens: None,
            completion: CompletionOptions::default(),
        }
    }
}

fn yes() -> bool {
    true
}
fn one() -> u32 {
    1
}
fn ten() -> u32 {
    10
}
fn four_thousand() -> u32 {
    4000
}
fn delegate_tools() -> Vec<String> {
    vec!["delegate".to_owned()]
}
fn two() -> u32 {
    2
}
fn three() -> u32 {
    3
}
fn four() -> u32 {
    4
}
fn five() -> u32 {
    5
}
fn six() -> u32 {
    6
}
fn twenty() -> u32 {
    20
}
fn five_minutes() -> u32 {
    300_000
}
fn sixty() -> u32 {
    60
}
fn twenty_thousand() -> u32 {
    20_000
}
fn english() -> Language {
    Language::En
}
fn pause() -> OnLimit {
    OnLimit::Pause
}
fn own_dialect() -> Vec<TodoDialect> {
    vec![TodoDialect::WriteTodos]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::decimals::Decimals;

    #[test]
    fn the_default_config_is_the_config_read_from_an_empty_object() {
        let document = crate::json::parse(b"{}", Decimals::RUST).unwrap();
        let read: SessionConfig = crate::validate::args::options(
            &*document,
            "config",
            &crate::validate::compiled::SESSION_CONFIG,
            Decimals::RUST,
        )
        .unwrap();
        assert_eq!(read, SessionConfig::default());
    }
}
