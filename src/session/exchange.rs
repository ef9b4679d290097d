//! What a `Session` and its host hand each other: the user's message, the model's
//! response, tool results, and the decisions that say what to do next.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::struct_from_value;
use crate::json::value::Value;
use crate::session::approval::Proposal;
use crate::session::continuation::ReportedProgress;
use crate::session::delegate_call::Delegation;
use crate::session::evidence::ItemEvidence;
use crate::session::goal::Goal;
use crate::session::ledger::Ledger;
use crate::session::review::PlanReview;
use crate::text::written_call::WrittenCall;

/// The start of a turn: a user message.
#[derive(Debug, Clone, PartialEq, Default, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct BeginTurn {
    #[schemars(length(max = 1_000_000))]
    pub message: String,
    /// The host's clock, in milliseconds; the turn's time limit counts from here.
    pub now_ms: f64,
    /// Who sent it (for plan review across sessions).
    #[serde(default)]
    #[schemars(with = "String", length(max = 256))]
    pub user_id: Option<String>,
    /// Where it was sent (for plan review across sessions).
    #[serde(default)]
    #[schemars(with = "String", length(max = 256))]
    pub chat_id: Option<String>,
    /// A plan review the host kept for this user and chat (`PlanReviewStore.take`), when
    /// this session did not ask for it itself.
    #[serde(default)]
    #[schemars(with = "Option<PlanReview>")]
    pub review: Option<PlanReview>,
    /// What the turn is for, beyond its checklist: checked when the list is done (see
    /// `completion.verify`).
    #[serde(default)]
    #[schemars(with = "Option<Goal>")]
    pub goal: Option<Goal>,
}

struct_from_value!(BeginTurn, "camelCase" { message, now_ms, user_id, chat_id, review, goal });

/// One tool call in a model response.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ToolCallInput {
    /// The provider's id for the call; the result must carry the same id.
    #[schemars(length(min = 1, max = NAME_MAX))]
    pub id: String,
    #[schemars(length(min = 1, max = NAME_MAX))]
    pub name: String,
    /// The arguments: the raw JSON text the provider returned, or an object.
    #[serde(default)]
    pub args: Value<'static>,
}

struct_from_value!(ToolCallInput { id, name, args = Value::Undefined });

/// The longest id or tool name a call may have.
pub const NAME_MAX: usize = 256;
/// The longest text a model response may have.
pub const TEXT_MAX: usize = 1_000_000;
/// The longest standard error a tool result may carry.
pub const STDERR_MAX: usize = 10_000_000;

/// The most tool calls one model response may carry.
pub const MAX_TOOL_CALLS: usize = 256;

/// A model response: its text and its tool calls.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct ModelResponse {
    /// The text of the response (`null` or absent when there is none).
    #[serde(default)]
    #[schemars(with = "Option<String>", length(max = TEXT_MAX))]
    pub text: Option<String>,
    #[serde(default)]
    #[schemars(length(max = MAX_TOOL_CALLS))]
    pub tool_calls: Vec<ToolCallInput>,
    /// The tokens the response cost, as the provider reported them (`null` or absent when
    /// unknown: it counts nothing).
    #[serde(default)]
    #[schemars(with = "Option<Usage>")]
    pub usage: Option<Usage>,
}

struct_from_value!(ModelResponse, "camelCase" { text, tool_calls = Default::default(), usage });

/// The tokens of one model response; a count left out is unknown and counts nothing.
#[derive(Debug, Clone, Copy, PartialEq, Default, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct Usage {
    #[serde(default)]
    #[schemars(with = "u32")]
    pub input_tokens: Option<u32>,
    #[serde(default)]
    #[schemars(with = "u32")]
    pub output_tokens: Option<u32>,
}

struct_from_value!(Usage, "camelCase" { input_tokens, output_tokens });

/// The result of a tool the host ran.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct ToolResult {
    /// The id of the call it answers.
    #[schemars(length(min = 1, max = NAME_MAX))]
    pub id: String,
    /// What the tool returned: text, or any value (sent to the model as JSON). For a
    /// command, its standard output. `undefined` is no output.
    pub output: Value<'static>,
    /// A command's standard error, when it is kept apart.
    #[serde(default)]
    #[schemars(with = "String", length(max = STDERR_MAX))]
    pub stderr: Option<String>,
    #[serde(default)]
    pub is_error: bool,
    #[serde(default)]
    #[schemars(with = "f64", range(min = 0))]
    pub duration_ms: Option<f64>,
    #[serde(default)]
    #[schemars(with = "i32", range(min = -2_147_483_648, max = 2_147_483_647))]
    pub exit_code: Option<i32>,
}

struct_from_value!(ToolResult, "camelCase" {
    id,
    output = Value::Undefined,
    stderr,
    is_error = Default::default(),
    duration_ms,
    exit_code,
});

/// A tool call for the host to run, as the model made it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The arguments: parsed into an object when the model sent JSON text.
    pub args: Value<'static>,
}

/// A message to append to the conversation as a tool's result.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToolMessage {
    pub tool_call_id: String,
    pub name: String,
    pub content: String,
    pub is_error: bool,
}

struct_from_value!(ToolMessage, "camelCase" { tool_call_id, name, content, is_error });

/// How to make the next model call.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NextCall {
    /// Its iteration number within the turn.
    pub iteration: u32,
    /// Call the model without tools: this is the last call of the turn, and it must answer.
    pub tools_withheld: bool,
    /// Model calls with tools still allowed after this one.
    pub tool_rounds_remaining: u32,
    /// "Tool rounds remaining: X of Y", for the system prompt.
    pub budget_line: String,
    /// Tokens the turn (and session) may still use, when a token limit is set.
    pub tokens_remaining: Option<u32>,
}

/// Why a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExitReason {
    /// The model answered and nothing was left to do.
    FinalAnswer,
    /// The model kept stopping with its plan unfinished; the nudges ran out.
    SafetyValve,
    /// The model kept repeating itself.
    Stuck,
    /// `maxIterations` model responses.
    MaxIterations,
    /// `timeoutMs` since the turn began.
    Timeout,
    /// `maxTokens` in the turn, or `maxSessionTokens` in the session.
    BudgetExhausted,
}

/// Why the model is asked to go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContinueReason {
    /// It stopped with its plan unfinished (seed 000's termination guard).
    PlanUnfinished,
    /// Its `continuation` object said CONTINUE (seed 003).
    ContinuationSignal,
    /// Its reply was empty.
    EmptyReply,
    /// It repeated the same reply.
    Stuck,
    /// Its reply was a tool call written out as text, cut off before its end or not
    /// valid (a server returns a call cut by its token cap as text): it did not run.
    CutOffToolCall,
    /// Its reply was a whole tool call written out as text: it did not run.
    ToolCallAsText,
    /// Its list is done: it is asked once to confirm the goal's criteria with evidence.
    GoalCheck,
    /// The host found the goal not met: it is asked to re-plan.
    GoalUnmet,
    /// Items it marked completed have no receipt: it is asked once to do or cite the work.
    EvidenceMissing,
}

impl ContinueReason {
    /// The reason to go on after a reply that wrote a tool call out as text.
    pub fn written(call: WrittenCall) -> Self {
        match call {
            WrittenCall::Cut => ContinueReason::CutOffToolCall,
            WrittenCall::Whole => ContinueReason::ToolCallAsText,
        }
    }
}

/// What the host does after a model response. Switch on `type`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Decision {
    /// Run `calls` (in any order) and pass their results to `handleToolResults`. Append
    /// `replies` (planloop's answers to its own planner tools) as tool messages; when
    /// `calls` and `delegations` are empty, call the model again right away. Run each
    /// of `delegations` as a sub-agent (`beginDelegation`, then `finishDelegation` for
    /// its capsule), or answer it with `handleToolResults` like any call.
    #[serde(rename_all = "camelCase")]
    RunTools { calls: Vec<ToolCall>, delegations: Vec<Delegation>, replies: Vec<ToolMessage>, next: NextCall },
    /// Do not end the turn: append `message` as a user message and call the model again.
    #[serde(rename_all = "camelCase")]
    Continue { message: String, reason: ContinueReason, attempt: u32, max_attempts: u32, next: NextCall },
    /// The turn is over: show `answer`.
    #[serde(rename_all = "camelCase")]
    Finalize { answer: String, exit_reason: ExitReason },
    /// The turn stopped at a limit with work left; the plan is kept. Show `summary`.
    #[serde(rename_all = "camelCase")]
    Pause { exit_reason: ExitReason, summary: String },
    /// The turn failed at a limit (`onLimit: "fail"`).
    #[serde(rename_all = "camelCase")]
    Fail { exit_reason: ExitReason, message: String },
    /// Some calls wait for the user: show `proposals` and call `approve` or `reject` for
    /// each. Meanwhile run `calls` (the ones that only read) and append `replies`, as for
    /// `runTools`. When the last proposal is resolved, `approve`/`reject` returns the
    /// decision that resumes the turn.
    #[serde(rename_all = "camelCase")]
    AwaitApproval {
        proposals: Vec<Proposal>,
        calls: Vec<ToolCall>,
        delegations: Vec<Delegation>,
        replies: Vec<ToolMessage>,
        steps_used: u32,
        steps_remaining: u32,
    },
    /// The plan waits for the user's review: append `replies`, show `message`, and keep
    /// `review` (in a `PlanReviewStore` if the next message gets a fresh session). The
    /// user's next message is read as feedback on the plan.
    #[serde(rename_all = "camelCase")]
    AwaitPlanReview { review: PlanReview, message: String, replies: Vec<ToolMessage> },
    /// The list is done and the model gave `answer`: judge whether `goal` is met (by
    /// its criteria and each item's `evidence`), and answer with `handleVerdict`. Met
    /// ends the turn with `answer`; not met sends the model back to re-plan.
    #[serde(rename_all = "camelCase")]
    VerifyGoal { goal: Goal, answer: String, evidence: Vec<ItemEvidence> },
}

/// What `approve` and `reject` return.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalOutcome {
    /// The proposal, now approved or rejected.
    pub proposal: Proposal,
    /// Proposals of the turn still waiting.
    pub pending: u32,
    /// When this was the last one: the decision that resumes the turn (`runTools` with the
    /// approved calls to run and the rejections as tool messages to append).
    pub resumed: Option<Decision>,
    /// The delegate call whose sub-agent made the proposal, when it was one: `resumed`
    /// is then that sub-agent's decision, to drive with `child(delegation)`.
    pub delegation: Option<String>,
}

/// What `beginTurn` returns.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TurnStart {
    pub turn: u32,
    /// The user message to send the model.
    pub message: String,
    pub next: NextCall,
    /// Not empty when "continue" came while sub-agents were at work: the turn goes on,
    /// and these are its children, to resume. Send this session's model nothing until
    /// their capsules are in.
    pub delegations: Vec<Resumption>,
}

/// A child at work that a "continue" resumes.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Resumption {
    pub call_id: String,
    /// For its model, where the host lost its messages: its goal, what it has done, what
    /// comes next. Null when it waits on sub-agents of its own: resume it as its parent,
    /// with `child(callId).beginTurn` and the same message.
    pub message: Option<String>,
}

/// What `handleToolResults` returns.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultsOutcome {
    /// Append these, in order, as tool messages.
    pub messages: Vec<ToolMessage>,
    /// Every call of the last `runTools` has its result: call the model now.
    pub complete: bool,
    pub next: NextCall,
}

/// Where the progress figures come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ProgressSource {
    /// The model's own `continuation.progress` (seed 003).
    Continuation,
    /// The todo list.
    Todos,
    /// Steps reported with `plan_progress`.
    Plan,
    /// `[Step]` lines of the model's text.
    Steps,
    /// Nothing planned yet.
    None,
}

/// How far the work has come.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    pub source: ProgressSource,
    pub completed: u32,
    /// 0 when unknown.
    pub total: u32,
    /// 0 to 100, when known.
    pub percentage: Option<f64>,
    /// What is being worked on now.
    pub current: Option<String>,
    /// Model responses used in the current (or last) turn.
    pub iterations: u32,
    pub max_iterations: u32,
    /// The model's last `continuation.progress`, when the protocol is on.
    pub reported: Option<ReportedProgress>,
    /// Steps, tokens and time spent, children's included.
    pub ledger: Ledger,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ErrorCode, Result};
    use crate::json::decimals::Decimals;
    use crate::validate::{args, compiled};

    /// Tool results as `handleToolResults` reads them from the JS layer's encoding.
    fn read(encoded: &str) -> Result<Vec<ToolResult>> {
        let document = crate::json::parse_host(encoded.as_bytes(), Decimals::RUST).unwrap();
        args::object(&*document, "results", &compiled::TOOL_RESULTS, Decimals::RUST)
    }

    #[test]
    fn every_tool_result_the_schema_takes_is_read_and_every_other_is_an_argument_error() {
        // `output` undefined or left out passes the schema (as with zod's `unknown()`):
        // no output.
        for given in [r#"[{"id":"a","output":undefined}]"#, r#"[{"id":"a"}]"#] {
            assert_eq!(read(given).unwrap()[0].output, Value::Undefined, "{given}");
        }
        // An exit code past 32 bits is refused for what it is, not as planloop's own bug.
        for code in ["2147483648", "-2147483649", "1099511627776"] {
            let error = read(&format!(r#"[{{"id":"a","output":"","exitCode":{code}}}]"#)).unwrap_err();
            assert_eq!(error.code, ErrorCode::InvalidArgument, "{code}: {error}");
        }
        let edge = read(r#"[{"id":"a","output":"","exitCode":-2147483648}]"#).unwrap();
        assert_eq!(edge[0].exit_code, Some(i32::MIN));
    }
}
