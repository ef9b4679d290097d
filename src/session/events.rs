//! What happened inside a `Session`, for logs, metrics and UIs. Drained with
//! `drainEvents()`; at most [`MAX_EVENTS`] wait between drains (the oldest go first).

use schemars::JsonSchema;
use serde::Serialize;

use crate::plan::guard::Refusal;
use crate::plan::recorded::Complexity;
use crate::plan::steps::CompletedBy;
use crate::session::approval::ProposalStatus;
use crate::session::config::Verify;
use crate::session::continuation::{Source, Status};
use crate::session::exchange::ExitReason;
use crate::session::handoff::HandoffStatus;
use crate::session::ledger::Ledger;
use crate::session::stuck::Pattern;

/// Events kept between two drains.
pub const MAX_EVENTS: usize = 1000;

/// One event: what happened, in which turn and iteration, at which `nowMs`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    #[serde(flatten)]
    pub kind: EventKind,
    pub turn: u32,
    /// The model response it belongs to (0 before the first one of the turn).
    pub iteration: u32,
    pub at_ms: f64,
}

/// Why a turn paused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PauseReason {
    Approval,
    PlanReview,
    MaxIterations,
    Timeout,
    BudgetExhausted,
}

/// What happened. Switch on `type`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "type")]
pub enum EventKind {
    /// A user message started a turn.
    TurnStarted {},
    /// A turn began while another was still open; the old one was dropped.
    TurnAbandoned {},
    /// The turn ended with an answer.
    #[serde(rename_all = "camelCase")]
    TurnCompleted { exit_reason: ExitReason, iterations: u32 },
    /// The turn stopped: for approvals, for a plan review, or at a limit.
    #[serde(rename_all = "camelCase")]
    TurnPaused { reason: PauseReason, pending_count: u32, steps_used: u32, steps_remaining: u32 },
    /// Every proposal of the paused turn was resolved; it goes on.
    #[serde(rename_all = "camelCase")]
    TurnResumed { steps_remaining: u32 },
    /// A call waits for approval.
    #[serde(rename_all = "camelCase")]
    ActionProposed { action_id: String, tool: String, justification: String },
    /// The user approved or rejected a proposal.
    #[serde(rename_all = "camelCase")]
    ActionResolved { action_id: String, status: ProposalStatus, edited: bool, always: bool },
    /// The plan waits for the user's review.
    PlanReviewRequested {},
    /// The user's message went to the model as feedback on the reviewed plan.
    PlanFeedbackInjected {},
    /// The turn failed at a limit.
    #[serde(rename_all = "camelCase")]
    TurnFailed { exit_reason: ExitReason, iterations: u32 },
    /// `plan` recorded a plan (or a re-plan).
    #[serde(rename_all = "camelCase")]
    PlanUpdated { version: u32, complexity: Complexity },
    /// `plan_progress` was recorded.
    #[serde(rename_all = "camelCase")]
    PlanProgress { step_id: Option<String>, plan_completed: bool },
    /// A todo tool replaced the list.
    #[serde(rename_all = "camelCase")]
    TodosUpdated { tool: String, revision: u32, completed: u32, total: u32 },
    /// A planner call was refused by the overuse guard.
    #[serde(rename_all = "camelCase")]
    PlannerRefused { tool: String, refusal: Refusal },
    /// A text-only reply came while the plan was unfinished; the model was told to go on.
    #[serde(rename_all = "camelCase")]
    PlanContinuation { attempt: u32, max_attempts: u32, text_length: u32 },
    /// The goal/plan reminder went into the last tool message.
    ReminderInjected {},
    /// The model is going in circles.
    #[serde(rename_all = "camelCase")]
    Stuck { detail: Pattern, nudge: u32 },
    /// The continuation protocol read a signal.
    #[serde(rename_all = "camelCase")]
    ContinuationSignal { status: Status, source: Source, reason: Option<String> },
    /// A limit was reached.
    #[serde(rename_all = "camelCase")]
    LimitReached { exit_reason: ExitReason, elapsed_ms: f64 },
    /// A response acted or declared steps with no plan running: a plan is tracked from now.
    #[serde(rename_all = "camelCase")]
    StepPlanCreated { plan_id: String },
    /// A `[Step]` became the current step.
    #[serde(rename_all = "camelCase")]
    StepStarted { step_id: String, description: String },
    /// The current step was completed, and how that was told.
    #[serde(rename_all = "camelCase")]
    StepCompleted { step_id: String, by: CompletedBy, result: Option<String> },
    /// A delegate call became a delegation for the host to run.
    #[serde(rename_all = "camelCase")]
    DelegationStarted { call_id: String, depth: u32, max_iterations: u32 },
    /// A child handed its capsule back, or a delegate call was refused.
    #[serde(rename_all = "camelCase")]
    DelegationEnded { call_id: String, status: HandoffStatus },
    /// "continue" resumed a paused plan from its current step.
    #[serde(rename_all = "camelCase")]
    PlanResumed { plan_id: String, step_index: u32 },
    /// A model response reported its tokens: the response's, and the ledger after them.
    #[serde(rename_all = "camelCase")]
    TokensUsed { input_tokens: u32, output_tokens: u32, ledger: Ledger },
    /// The list was done and the model stopped: its goal was checked (`verify` says how).
    GoalCheck { verify: Verify },
    /// The host's verdict on the goal came in.
    GoalVerdict { met: bool, reason: Option<String> },
    /// An item was marked completed with no receipt.
    #[serde(rename_all = "camelCase")]
    ItemUnbacked { todo_id: String },
    /// The model was asked for the work behind `items` unbacked items.
    EvidenceRequested { items: u32 },
}
