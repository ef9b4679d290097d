//! `Session`: the loop controller. It answers the planner tools itself, refuses to end a
//! turn while the plan is unfinished, restates the goal and plan now and then, notices a
//! model going in circles, and stops a turn at its limits with an honest reason.
//!
//! It is a state machine driven by the host (see the crate docs for the contract): each
//! input either moves it forward or is refused with `invalid_state`, and a refused input
//! changes nothing.

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::approval::{self, ApproveOptions, Basis, Grant, Proposal, ProposalStatus, RejectOptions, Scope, ToolClass};
use crate::capsule::{ContextCapsule, ContextCapsuleInput};
use crate::compose::CurrentPlan;
use crate::config::{Language, OnLimit, SessionConfig, TodoDialect};
use crate::continuation::{self, ReportedProgress, Status};
use crate::dialects::{self, DialectArgs, Request};
use crate::error::{Error, ErrorCode, Result};
use crate::events::{Event, EventKind, PauseReason, MAX_EVENTS};
use crate::exchange::{
    ApprovalOutcome, BeginTurn, ContinueReason, Decision, ExitReason, ModelResponse, NextCall, Progress,
    ProgressSource, ToolCall, ToolCallInput, ToolMessage, ToolResult, ToolResultsOutcome, TurnStart, MAX_TOOL_CALLS,
};
use crate::from_value::from_value;
use crate::intent;
use crate::issue::{summarize, Issue, PathSegment};
use crate::json;
use crate::json_text;
use crate::plan::{PlanArgs, PlanProgressArgs, PlanState, PLAN_PROGRESS_SCHEMA, PLAN_SCHEMA};
use crate::planner::{PlannerAck, PlannerOptions, PlannerState, PlannerToolName};
use crate::prompts::{self, FinishBy};
use crate::reasoning::{ReasoningEvent, ReasoningLog};
use crate::reflection::DEFAULT_MAX_CHARS;
use crate::review::{self, PlanReview};
use crate::schema;
use crate::steps::{self, PlanStatus, StepChange, StepPlan};
use crate::stuck::{Pattern, StuckDetector};
use crate::text::cap;
use crate::todos::{self, Args, Todo, TodoStatus, WriteTodos};
use crate::value::Value;

const FINDINGS_KEPT: usize = 8;

/// The tools a session answers itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BuiltIn {
    Todos(TodoDialect),
    Plan,
    PlanProgress,
}

/// Proposals kept (of every turn) to answer `approve`/`reject` precisely: the pending
/// ones of the open turn (at most [`MAX_TOOL_CALLS`]) and as many settled ones.
pub(crate) const PROPOSALS_KEPT: usize = 2 * MAX_TOOL_CALLS;

/// A call handed to the host, waiting for its result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "PendingCall")]
pub struct Pending {
    pub(crate) id: String,
    name: String,
    /// The tool and its arguments as text, to recognise a repeated call.
    signature: String,
    /// It ran after the user approved it: its result is written in seed 002's format.
    approved: bool,
    answered: bool,
}

/// The turn in progress (or the last one), as a snapshot carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "SnapshotTurn")]
pub struct Turn {
    pub(crate) number: u32,
    message: String,
    started_at: f64,
    pub(crate) iterations: u32,
    /// Nudges so far (plan continuations, empty replies, CONTINUE signals, stuck text).
    pub(crate) continuations: u32,
    pub(crate) stuck_nudges: u32,
    /// Stuck past its nudges: the next response ends the turn.
    stuck_out: bool,
    pub(crate) open: bool,
    #[schemars(length(max = 1024))]
    pub(crate) pending: Vec<Pending>,
    /// A stuck nudge waiting for the last tool message of the batch.
    batch_nudge: Option<String>,
    /// Tool messages for rejected proposals, handed out when the turn resumes.
    #[schemars(length(max = 1024))]
    rejections: Vec<ToolMessage>,
    /// Proposals made in this turn so far: the next one's action id is `act-<turn>-<n+1>`.
    /// (Absent from 1.0 snapshots, which counted the turn's kept proposals instead.)
    #[serde(default)]
    pub(crate) proposed: u32,
    /// When the turn paused for approval, and the time it has waited in all: the user's
    /// time to decide is not the agent's time, so the time limit leaves it out.
    pub(crate) paused_at: Option<f64>,
    waited_ms: f64,
    /// Who sent the message and where, for a plan review.
    user_id: Option<String>,
    chat_id: Option<String>,
}

impl Turn {
    /// The agent's time in this turn: since it started, less the time spent waiting for
    /// approvals.
    fn elapsed(&self, now: f64) -> f64 {
        let waiting = self.paused_at.map_or(0.0, |at| (now - at).max(0.0));
        now - self.started_at - self.waited_ms - waiting
    }
}

/// The loop controller of one conversation. (Its state is saved and restored whole by
/// `snapshot.rs`.)
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    pub(crate) config: SessionConfig,
    pub(crate) planner: PlannerState,
    /// The plan recorded with the `plan` tool (seed 000).
    pub(crate) plan: Option<PlanState>,
    /// The plan tracked from the model's text (seed 001).
    pub(crate) step_plan: Option<StepPlan>,
    /// The todo tool the model used last, named when it is asked to finish its list.
    pub(crate) todo_tool: TodoDialect,
    pub(crate) log: ReasoningLog,
    pub(crate) stuck: StuckDetector,
    pub(crate) events: VecDeque<Event>,
    pub(crate) turns: u32,
    pub(crate) turn: Option<Turn>,
    pub(crate) reported: Option<ReportedProgress>,
    pub(crate) findings: VecDeque<String>,
    /// Every proposal of the session, newest last (the last 256).
    pub(crate) proposals: VecDeque<Proposal>,
    /// Tools (or rules) the user allowed for the rest of the session.
    pub(crate) grants: Vec<Grant>,
    /// A plan review this session asked for, waiting for the user's next message.
    pub(crate) pending_review: Option<PlanReview>,
}

impl Session {
    pub fn new(config: SessionConfig) -> Self {
        let planner_tools = config
            .todo_dialects
            .iter()
            .map(|d| d.tool_name())
            .chain(["plan", "plan_progress"])
            .map(|name| PlannerToolName(name.to_owned()))
            .collect();
        let planner = PlannerState::new(PlannerOptions {
            max_planner_only_streak: config.max_planner_only_streak,
            planner_tools,
        });
        Session {
            planner,
            plan: None,
            step_plan: None,
            todo_tool: TodoDialect::WriteTodos,
            log: ReasoningLog::new(config.history.clone()),
            stuck: StuckDetector::new(config.stuck.clone()),
            events: VecDeque::new(),
            turns: 0,
            turn: None,
            reported: None,
            findings: VecDeque::new(),
            proposals: VecDeque::new(),
            grants: Vec::new(),
            pending_review: None,
            config,
        }
    }

    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// Starts a turn with a user message. A turn still open is abandoned (its proposals
    /// can no longer be approved). When a plan review waits for this user and chat (in
    /// this session, or passed in by a host that kept it), the message is read as feedback
    /// on the plan: it goes to the model behind a `<plan_feedback>` block, once.
    pub fn begin_turn(&mut self, mut input: BeginTurn) -> Result<TurnStart> {
        let now = input.now_ms;
        if self.turn.as_ref().is_some_and(|t| t.open) {
            self.emit(EventKind::TurnAbandoned {}, now);
        }
        let (user, chat) = (input.user_id.as_deref(), input.chat_id.as_deref());
        let own = match self.pending_review.take() {
            Some(review) if review.user_id.as_deref() == user && review.chat_id.as_deref() == chat => Some(review),
            other => {
                self.pending_review = other;
                None
            }
        };
        let review = input.review.take().or(own).filter(|r| r.expires_at_ms > now);
        let paused = self.step_plan.as_ref().is_some_and(|p| p.status == PlanStatus::Paused);
        let resume = paused && intent::is_continue(&input.message);
        self.turns = self.turns.saturating_add(1);
        let mut message = input.message.clone();
        if resume {
            let (done, next) = self.done_and_next();
            let (goal, plan) = (self.goal(), self.plan_text());
            let block = prompts::resume(self.config.language, goal.trim(), plan.trim(), &done, next.as_deref());
            message = format!("{block}\n\n{message}");
        }
        if let Some(review) = &review {
            message = format!("{}\n\n{message}", review::feedback_block(review, &input.message));
        }
        self.turn = Some(Turn {
            number: self.turns,
            message: input.message,
            started_at: now,
            iterations: 0,
            continuations: 0,
            stuck_nudges: 0,
            stuck_out: false,
            open: true,
            pending: Vec::new(),
            batch_nudge: None,
            rejections: Vec::new(),
            proposed: 0,
            paused_at: None,
            waited_ms: 0.0,
            user_id: input.user_id,
            chat_id: input.chat_id,
        });
        self.stuck.reset();
        self.emit(EventKind::TurnStarted {}, now);
        if review.is_some() {
            self.emit(EventKind::PlanFeedbackInjected {}, now);
        }
        if let Some(plan) = self.step_plan.as_mut().filter(|_| resume) {
            plan.status = PlanStatus::Running;
            let kind = EventKind::PlanResumed { plan_id: plan.id.clone(), step_index: plan.current_step_index };
            self.emit(kind, now);
        }
        Ok(TurnStart { turn: self.turns, message, next: self.next_call(now) })
    }

    /// Takes a model response and decides what happens next.
    pub fn handle_model_response(&mut self, response: ModelResponse, now: f64) -> Result<Decision> {
        let turn = self.turn_for_model("handleModelResponse")?;
        turn.iterations = turn.iterations.saturating_add(1);
        let (iteration, stuck_out) = (turn.iterations, turn.stuck_out);
        let timed_out = turn.elapsed(now) >= f64::from(self.config.timeout_ms);
        let withheld = iteration >= self.config.max_iterations;
        check_unique_ids(&response.tool_calls)?;
        check_argument_limits(&response.tool_calls)?;

        let text = response.text.unwrap_or_default();
        let (answer, wants_more) = match self.config.continuation_protocol.enabled {
            true => {
                let reading = continuation::read(&text, self.config.continuation_protocol.require_explicit_signal);
                let signal = reading.signal;
                if signal.progress.is_some() {
                    self.reported = signal.progress.clone();
                }
                let kind = EventKind::ContinuationSignal {
                    status: signal.status,
                    source: signal.source,
                    reason: signal.reason,
                };
                self.emit(kind, now);
                (reading.answer, signal.status == Status::Continue)
            }
            false => (text.trim().to_owned(), false),
        };
        self.log.record_reflection(&answer, DEFAULT_MAX_CHARS, iteration, now);
        self.track_steps(&answer, !response.tool_calls.is_empty(), iteration, now);

        if stuck_out {
            return Ok(self.finish(answer, ExitReason::Stuck, now));
        }
        if !response.tool_calls.is_empty() {
            self.stuck.record_text(None);
            if timed_out {
                return Ok(self.limit(ExitReason::Timeout, now));
            }
            if withheld {
                return Ok(self.limit(ExitReason::MaxIterations, now));
            }
            return self.run_tools(response.tool_calls, iteration, now);
        }
        if let Some(pattern) = self.stuck.record_text(Some(&answer)) {
            if let Some(decision) = self.note_stuck(pattern, now) {
                return Ok(decision);
            }
            return Ok(self.nudge(ContinueReason::Stuck, answer, timed_out || withheld, now));
        }
        let reason = if answer.is_empty() {
            Some(ContinueReason::EmptyReply)
        } else if wants_more {
            Some(ContinueReason::ContinuationSignal)
        } else if self.finish_last_step(&answer, iteration, now) {
            Some(ContinueReason::PlanUnfinished)
        } else {
            None
        };
        Ok(match reason {
            None => self.finish(answer, ExitReason::FinalAnswer, now),
            Some(reason) => self.nudge(reason, answer, timed_out || withheld, now),
        })
    }

    /// Takes the results of calls handed out by the last `runTools`, and returns the
    /// tool messages to append.
    pub fn handle_tool_results(&mut self, results: Vec<ToolResult>, now: f64) -> Result<ToolResultsOutcome> {
        let turn = self.turn_for_results("handleToolResults")?;
        // Check every id before changing anything.
        let mut issues = Vec::new();
        for (i, result) in results.iter().enumerate() {
            let path = vec![PathSegment::Index(i as u32), PathSegment::Key("id".into())];
            let earlier = results[..i].iter().any(|r| r.id == result.id);
            match turn.pending.iter().find(|p| p.id == result.id) {
                None => issues.push(Issue::custom(
                    format!("No tool call with id \"{}\" is waiting for a result", result.id),
                    path,
                )),
                Some(p) if p.answered || earlier => {
                    issues.push(Issue::custom(format!("The result for \"{}\" was already given", result.id), path))
                }
                Some(_) => {}
            }
        }
        if !issues.is_empty() {
            return Err(Error::invalid_argument("results", issues));
        }
        let iteration = turn.iterations;
        let mut messages = Vec::with_capacity(results.len());
        for result in results {
            messages.push(self.record_result(result, iteration, now));
        }
        let complete = self.settle(&mut messages, iteration, now)?;
        Ok(ToolResultsOutcome { messages, complete, next: self.next_call(now) })
    }

    /// Approves a proposal: it will run once, with `editedArgs` if given; `scope:
    /// "always"` allows its tool (or the rule that caught it) for the rest of the session.
    pub fn approve(&mut self, action_id: &str, options: ApproveOptions, now: f64) -> Result<ApprovalOutcome> {
        let index = self.pending_proposal(action_id)?;
        let proposal = &mut self.proposals[index];
        proposal.status = ProposalStatus::Approved;
        let edited = options.edited_args.is_some();
        if let Some(args) = options.edited_args {
            proposal.args = host_args(args);
        }
        let always = options.scope == Scope::Always;
        let grant = Grant { tool: proposal.tool.clone(), basis: proposal.basis.clone() };
        if always && !self.grants.contains(&grant) {
            self.grants.push(grant);
        }
        self.resolved(index, edited, always, now)
    }

    /// Rejects a proposal; the model gets `message` as the call's result.
    pub fn reject(&mut self, action_id: &str, options: RejectOptions, now: f64) -> Result<ApprovalOutcome> {
        let index = self.pending_proposal(action_id)?;
        self.proposals[index].status = ProposalStatus::Rejected;
        let proposal = &self.proposals[index];
        let content = approval::rejection(&proposal.tool, options.message.as_deref());
        let message = ToolMessage {
            tool_call_id: proposal.call_id.clone(),
            name: proposal.tool.clone(),
            content,
            is_error: true,
        };
        self.turn_mut()?.rejections.push(message);
        self.resolved(index, false, false, now)
    }

    /// The proposals of the open turn, as they stand.
    pub fn proposals(&self) -> Vec<&Proposal> {
        let turn = self.turn.as_ref().filter(|t| t.open).map_or(0, |t| t.number);
        self.proposals.iter().filter(|p| p.turn == turn).collect()
    }

    /// Finds a proposal `approve`/`reject` may resolve.
    fn pending_proposal(&self, action_id: &str) -> Result<usize> {
        let index = self.proposals.iter().position(|p| p.action_id == action_id);
        let index = index.ok_or_else(|| Error::action(ErrorCode::UnknownAction, action_id))?;
        let proposal = &self.proposals[index];
        let current = self.turn.as_ref().filter(|t| t.open).map(|t| t.number);
        if current != Some(proposal.turn) {
            return Err(Error::action(ErrorCode::ActionOfAnotherTurn, action_id));
        }
        if proposal.status != ProposalStatus::Pending {
            return Err(Error::action(ErrorCode::ActionAlreadyResolved, action_id));
        }
        Ok(index)
    }

    /// After a proposal was resolved: when it was the last, the turn resumes with the
    /// approved calls to run and the rejections to append.
    fn resolved(&mut self, index: usize, edited: bool, always: bool, now: f64) -> Result<ApprovalOutcome> {
        let proposal = self.proposals[index].clone();
        let kind = EventKind::ActionResolved {
            action_id: proposal.action_id.clone(),
            status: proposal.status,
            edited,
            always,
        };
        self.emit(kind, now);
        let turn_number = proposal.turn;
        let pending =
            self.proposals.iter().filter(|p| p.turn == turn_number && p.status == ProposalStatus::Pending).count()
                as u32;
        if pending > 0 {
            return Ok(ApprovalOutcome { proposal, pending, resumed: None });
        }
        let iteration = self.turn.as_ref().map_or(0, |t| t.iterations);
        let approved: Vec<Proposal> = self
            .proposals
            .iter()
            .filter(|p| p.turn == turn_number && p.iteration == iteration && p.status == ProposalStatus::Approved)
            .cloned()
            .collect();
        let mut calls = Vec::with_capacity(approved.len());
        for p in &approved {
            self.log.record_act(&p.tool, &&p.args, iteration, now)?;
            let signature = format!("{} {}", p.tool, json_text::stringify(&p.args));
            let pending =
                Pending { id: p.call_id.clone(), name: p.tool.clone(), signature, approved: true, answered: false };
            self.turn_mut()?.pending.push(pending);
            calls.push(ToolCall { id: p.call_id.clone(), name: p.tool.clone(), args: p.args.clone() });
        }
        let turn = self.turn_mut()?;
        if let Some(at) = turn.paused_at.take() {
            turn.waited_ms += (now - at).max(0.0);
        }
        let mut replies = std::mem::take(&mut turn.rejections);
        self.settle(&mut replies, iteration, now)?;
        let steps_remaining = self.steps_remaining();
        self.emit(EventKind::TurnResumed { steps_remaining }, now);
        let resumed = Decision::RunTools { calls, replies, next: self.next_call(now) };
        Ok(ApprovalOutcome { proposal, pending: 0, resumed: Some(resumed) })
    }

    /// The events since the last call, oldest first.
    pub fn drain_events(&mut self) -> Vec<Event> {
        self.events.drain(..).collect()
    }

    /// The current todo list.
    pub fn todos(&self) -> &[Todo] {
        self.planner.todos()
    }

    /// The reasoning trail kept for display.
    pub fn reasoning(&self) -> impl Iterator<Item = &ReasoningEvent> {
        self.log.events()
    }

    pub fn steps(&self) -> Vec<String> {
        self.log.steps()
    }

    /// The plan tracked from the model's text (seed 001's `plan.json`), or `None`.
    pub fn step_plan(&self) -> Option<&StepPlan> {
        self.step_plan.as_ref()
    }

    pub fn plan(&self) -> Option<&PlanState> {
        self.plan.as_ref()
    }

    /// Where the task stands, for the current-plan block of the system prompt: the goal
    /// and the current step of the todo list, else of the recorded plan, else of the
    /// text-tracked steps. `None` before the first turn.
    pub fn current_plan(&self) -> Option<CurrentPlan> {
        self.turn.as_ref()?;
        let goal = self.goal();
        let todos = self.planner.todos();
        let counted = |index: usize, total: usize, step: &str| CurrentPlan {
            goal: goal.clone(),
            step: Some(step.to_owned()),
            step_number: Some(index as u32 + 1),
            total_steps: Some(total as u32),
        };
        let current = todos
            .iter()
            .position(|t| t.status == TodoStatus::InProgress)
            .or_else(|| todos.iter().position(|t| t.status != TodoStatus::Completed));
        if let Some(index) = current {
            return Some(counted(index, todos.len(), &todos[index].content));
        }
        if let Some(plan) = &self.plan {
            return Some(CurrentPlan { goal, step: plan.next_step.clone(), step_number: None, total_steps: None });
        }
        match self.active_step_plan().and_then(|p| p.current().map(|step| (p, step))) {
            Some((plan, step)) => Some(counted(plan.current_step_index as usize, plan.steps.len(), &step.description)),
            None => Some(CurrentPlan { goal, step: None, step_number: None, total_steps: None }),
        }
    }

    /// How far the work has come: the model's own report when the continuation protocol
    /// gave one, else the todo list, else the plan's recorded steps.
    pub fn progress(&self) -> Progress {
        let iterations = self.turn.as_ref().map_or(0, |t| t.iterations);
        let todos = self.planner.todos();
        let base = Progress {
            source: ProgressSource::None,
            completed: 0,
            total: 0,
            percentage: None,
            current: None,
            iterations,
            max_iterations: self.config.max_iterations,
            reported: self.reported.clone(),
        };
        if let Some(reported) = &self.reported {
            let percentage = reported.completion_percentage.or(match (reported.current_step, reported.total_steps) {
                (Some(current), Some(total)) if total > 0 => {
                    Some(f64::from(current.min(total)) * 100.0 / f64::from(total))
                }
                _ => None,
            });
            return Progress {
                source: ProgressSource::Continuation,
                completed: reported.current_step.unwrap_or(0),
                total: reported.total_steps.unwrap_or(0),
                percentage,
                current: todos::in_progress(todos).map(|t| t.content.clone()),
                ..base
            };
        }
        if !todos.is_empty() {
            let (done, total) = todos::progress(todos);
            return Progress {
                source: ProgressSource::Todos,
                completed: done as u32,
                total: total as u32,
                percentage: Some(done as f64 * 100.0 / total as f64),
                current: todos::in_progress(todos).map(|t| t.content.clone()),
                ..base
            };
        }
        match &self.plan {
            Some(plan) => Progress {
                source: ProgressSource::Plan,
                completed: plan.steps_done.len() as u32,
                percentage: plan.completed.then_some(100.0),
                current: plan.next_step.clone(),
                ..base
            },
            None => match self.active_step_plan().filter(|p| !p.steps.is_empty()) {
                Some(steps) => {
                    let (done, total) = (steps.completed_count(), steps.steps.len());
                    Progress {
                        source: ProgressSource::Steps,
                        completed: done as u32,
                        total: total as u32,
                        percentage: Some(done as f64 * 100.0 / total as f64),
                        current: steps.current().map(|s| s.description.clone()),
                        ..base
                    }
                }
                None => base,
            },
        }
    }

    /// What the session knows, in a bounded package for a parent agent.
    pub fn capsule(&self) -> ContextCapsule {
        let snapshot = self.planner.snapshot();
        let next_actions =
            snapshot.todos.iter().filter(|t| t.status != TodoStatus::Completed).map(|t| t.content.clone());
        ContextCapsule::new(ContextCapsuleInput {
            goal: self.goal(),
            plan_snapshot: (snapshot.revision > 0).then(|| snapshot.clone()),
            key_findings: self.findings.iter().cloned().collect(),
            artifacts: Vec::new(),
            next_actions: next_actions.collect(),
        })
    }

    /// The open turn, when the model may be called: no result or approval awaited.
    fn turn_for_model(&mut self, call: &str) -> Result<&mut Turn> {
        let awaiting_approval = self.awaiting_approval();
        let expected = match &self.turn {
            Some(turn) if turn.open && turn.pending.iter().any(|p| !p.answered) => {
                Some("tool results are awaited: call handleToolResults first")
            }
            Some(turn) if turn.open && awaiting_approval => {
                Some("proposals await the user: call approve or reject first")
            }
            Some(turn) if turn.open => None,
            _ => Some("no turn is open: call beginTurn first"),
        };
        match expected {
            Some(expected) => Err(Error::invalid_state(call, expected)),
            None => self.turn_mut(),
        }
    }

    /// The open turn, when tool results are awaited.
    fn turn_for_results(&mut self, call: &str) -> Result<&mut Turn> {
        let expected = match &self.turn {
            Some(turn) if turn.open && turn.pending.iter().any(|p| !p.answered) => None,
            Some(turn) if turn.open => Some("no tool results are awaited: call handleModelResponse"),
            _ => Some("no turn is open: call beginTurn first"),
        };
        match expected {
            Some(expected) => Err(Error::invalid_state(call, expected)),
            None => self.turn_mut(),
        }
    }

    fn awaiting_approval(&self) -> bool {
        let turn = self.turn.as_ref().filter(|t| t.open).map_or(0, |t| t.number);
        self.proposals.iter().any(|p| p.turn == turn && p.status == ProposalStatus::Pending)
    }

    /// Whether everything the last response asked for is done (results in, proposals
    /// resolved); if so the batch closes into the last of `messages`.
    fn settle(&mut self, messages: &mut [ToolMessage], iteration: u32, now: f64) -> Result<bool> {
        let awaiting_approval = self.awaiting_approval();
        let turn = self.turn_mut()?;
        let complete = !awaiting_approval && turn.pending.iter().all(|p| p.answered);
        if complete {
            turn.pending.clear();
            let nudge = turn.batch_nudge.take();
            self.close_batch(messages, nudge, iteration, now);
        }
        Ok(complete)
    }

    fn steps_remaining(&self) -> u32 {
        let used = self.turn.as_ref().map_or(0, |t| t.iterations);
        self.config.max_iterations.saturating_sub(used)
    }

    fn turn_mut(&mut self) -> Result<&mut Turn> {
        self.turn.as_mut().ok_or_else(|| Error::internal("no turn"))
    }

    fn emit(&mut self, kind: EventKind, now: f64) {
        let (turn, iteration) = self.turn.as_ref().map_or((0, 0), |t| (t.number, t.iterations));
        if self.events.len() == MAX_EVENTS {
            self.events.pop_front();
        }
        self.events.push_back(Event { kind, turn, iteration, at_ms: now });
    }

    fn builtin(&self, name: &str) -> Option<BuiltIn> {
        match name {
            "plan" => Some(BuiltIn::Plan),
            "plan_progress" => Some(BuiltIn::PlanProgress),
            _ => {
                TodoDialect::from_tool_name(name).filter(|d| self.config.todo_dialects.contains(d)).map(BuiltIn::Todos)
            }
        }
    }

    fn run_tools(&mut self, calls: Vec<ToolCallInput>, iteration: u32, now: f64) -> Result<Decision> {
        let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
        self.planner.record_iteration(&names);
        let batch = calls.len();
        let reviewed_before = self.plan.is_some() || self.planner.snapshot().revision > 0;
        let mut replies = Vec::new();
        let mut host_calls = Vec::new();
        let mut review_asked = false;
        for call in calls {
            match self.builtin(&call.name) {
                Some(builtin) => {
                    let (reply, plan_made) = self.answer(builtin, call, batch, iteration, now)?;
                    review_asked |=
                        plan_made && self.config.plan_review.enabled && (builtin == BuiltIn::Plan || !reviewed_before);
                    replies.push(reply);
                }
                None => host_calls.push(call),
            }
        }
        if review_asked {
            return Ok(self.ask_review(host_calls, replies, now));
        }
        let mut calls = Vec::new();
        let mut proposals = Vec::new();
        for call in host_calls {
            let args = host_args(call.args);
            let (class, basis) = self.config.tools.classify(&call.name, &args, &self.grants);
            if class == ToolClass::Approve {
                proposals.push(self.propose(call.id, call.name, args, basis, iteration, now));
                continue;
            }
            self.log.record_act(&call.name, &&args, iteration, now)?;
            let signature = format!("{} {}", call.name, json_text::stringify(&args));
            let pending =
                Pending { id: call.id.clone(), name: call.name.clone(), signature, approved: false, answered: false };
            self.turn_mut()?.pending.push(pending);
            calls.push(ToolCall { id: call.id, name: call.name, args });
        }
        if !proposals.is_empty() {
            let (steps_used, steps_remaining) = (iteration, self.steps_remaining());
            let pending_count = proposals.len() as u32;
            self.turn_mut()?.paused_at = Some(now);
            self.emit(
                EventKind::TurnPaused { reason: PauseReason::Approval, pending_count, steps_used, steps_remaining },
                now,
            );
            return Ok(Decision::AwaitApproval { proposals, calls, replies, steps_used, steps_remaining });
        }
        if calls.is_empty() {
            self.close_batch(&mut replies, None, iteration, now);
        }
        Ok(Decision::RunTools { calls, replies, next: self.next_call(now) })
    }

    /// Makes a call wait for the user.
    fn propose(
        &mut self,
        call_id: String,
        tool: String,
        args: Value<'static>,
        basis: Basis,
        iteration: u32,
        now: f64,
    ) -> Proposal {
        let (turn, sequence) = match self.turn.as_mut() {
            Some(t) => {
                t.proposed = t.proposed.saturating_add(1);
                (t.number, t.proposed)
            }
            None => (0, 0),
        };
        let proposal = Proposal {
            action_id: format!("act-{turn}-{sequence}"),
            call_id,
            justification: approval::justification(&tool, &args),
            tool,
            args,
            status: ProposalStatus::Pending,
            turn,
            iteration,
            basis,
        };
        self.forget_a_proposal_if_full();
        self.proposals.push_back(proposal.clone());
        let kind = EventKind::ActionProposed {
            action_id: proposal.action_id.clone(),
            tool: proposal.tool.clone(),
            justification: proposal.justification.clone(),
        };
        self.emit(kind, now);
        proposal
    }

    /// Makes room for one more proposal: the oldest one that can no longer be resolved
    /// (resolved, or of a turn that ended) goes. The open turn's pending proposals are
    /// never forgotten, and they come from one response (at most 256 calls), so there is
    /// always one to drop.
    fn forget_a_proposal_if_full(&mut self) {
        if self.proposals.len() < PROPOSALS_KEPT {
            return;
        }
        let open = self.turn.as_ref().filter(|t| t.open).map_or(0, |t| t.number);
        let settled = self.proposals.iter().position(|p| p.turn != open || p.status != ProposalStatus::Pending);
        if let Some(index) = settled {
            self.proposals.remove(index);
        }
    }

    /// Ends the step for the user to review the plan. Calls that would have run wait
    /// with it: they get a reply saying so.
    fn ask_review(&mut self, host_calls: Vec<ToolCallInput>, mut replies: Vec<ToolMessage>, now: f64) -> Decision {
        let language = self.config.language;
        for call in host_calls {
            let content = prompts::not_run_awaiting_review(language).to_owned();
            replies.push(ToolMessage { tool_call_id: call.id, name: call.name, content, is_error: true });
        }
        let (goal, plan) = (self.goal(), self.plan_text());
        let turn = self.turn.as_ref();
        let review = PlanReview {
            user_id: turn.and_then(|t| t.user_id.clone()),
            chat_id: turn.and_then(|t| t.chat_id.clone()),
            turn: turn.map_or(0, |t| t.number),
            goal: goal.clone(),
            plan: plan.clone(),
            created_at_ms: now,
            expires_at_ms: now + f64::from(self.config.plan_review.ttl_minutes) * 60_000.0,
        };
        self.pending_review = Some(review.clone());
        self.emit(EventKind::PlanReviewRequested {}, now);
        let (steps_used, steps_remaining) = (self.turn.as_ref().map_or(0, |t| t.iterations), self.steps_remaining());
        self.emit(
            EventKind::TurnPaused { reason: PauseReason::PlanReview, pending_count: 0, steps_used, steps_remaining },
            now,
        );
        self.end_turn();
        Decision::AwaitPlanReview { message: review::user_message(language, goal.trim(), plan.trim()), review, replies }
    }

    /// planloop's own answer to one of its built-in tools, and whether it recorded a plan
    /// or a todo list.
    fn answer(
        &mut self,
        builtin: BuiltIn,
        call: ToolCallInput,
        batch: usize,
        iteration: u32,
        now: f64,
    ) -> Result<(ToolMessage, bool)> {
        let message = |content: String, is_error: bool| ToolMessage {
            tool_call_id: call.id.clone(),
            name: call.name.clone(),
            content,
            is_error,
        };
        // A reply that changed nothing; `made` marks one that recorded a plan or a list.
        let reply = |content: String, is_error: bool| (message(content, is_error), false);
        let made = |content: String| (message(content, false), true);
        if let Some(refusal) = self.planner.refusal() {
            self.emit(EventKind::PlannerRefused { tool: call.name.clone(), refusal }, now);
            let ack = self.planner.refused(refusal);
            let content = match (&ack, builtin) {
                (_, BuiltIn::Todos(TodoDialect::WriteTodos)) => json_text::stringify(&crate::to_value::to_value(&ack)?),
                (PlannerAck::Rejected(rejected), _) => rejected.message.clone(),
                (PlannerAck::Accepted(_), _) => String::new(),
            };
            return Ok(reply(content, true));
        }
        let language = self.config.language;
        match builtin {
            BuiltIn::Todos(TodoDialect::WriteTodos) => {
                let before = self.planner.todos().to_vec();
                let ack = match &call.args {
                    Value::String(text) => {
                        self.planner.apply_write_todos(Args::<&Value>::Text(text.as_bytes()), now)?
                    }
                    args => self.planner.apply_write_todos(Args::Value(args), now)?,
                };
                let accepted = matches!(ack, PlannerAck::Accepted(_));
                if accepted {
                    self.todos_replaced(TodoDialect::WriteTodos, &before, iteration, now);
                }
                let content = json_text::stringify(&crate::to_value::to_value(&ack)?);
                Ok(if accepted { made(content) } else { reply(content, true) })
            }
            BuiltIn::Todos(dialect) => {
                let args = match validated(dialect_schema(dialect), &call.args)? {
                    Ok(value) => dialect_args(dialect, value)?,
                    Err(issues) => return Ok(reply(invalid_args(dialect.tool_name(), &issues), true)),
                };
                match dialects::request(dialect, args) {
                    Err(message) => Ok(reply(message, true)),
                    Ok(Request::View) => Ok(reply(dialects::view(self.planner.todos()), false)),
                    Ok(Request::Replace { todos, note, reply: text }) => {
                        let before = self.planner.todos().to_vec();
                        self.planner.replace(WriteTodos { todos, focus: None, note }, now);
                        self.todos_replaced(dialect, &before, iteration, now);
                        Ok(made(text))
                    }
                }
            }
            BuiltIn::Plan => match validated(PLAN_SCHEMA, &call.args)? {
                Err(issues) => Ok(reply(invalid_args("plan", &issues), true)),
                Ok(value) => {
                    let args: PlanArgs = from_value(value)?;
                    let plan = PlanState::new(args, self.plan.as_ref());
                    let (version, complexity) = (plan.version, plan.complexity);
                    let note = format!("plan v{version} ({}): {}", complexity.as_str(), plan.goal);
                    self.log.record_plan_note(&note, iteration, now);
                    self.plan = Some(plan);
                    self.turn_mut()?.continuations = 0;
                    self.emit(EventKind::PlanUpdated { version, complexity }, now);
                    let follow_up = match complexity {
                        crate::plan::Complexity::Complex => " After each major step call plan_progress(); when every step is done call plan_progress(plan_status=\"completed\").",
                        crate::plan::Complexity::Simple => "",
                    };
                    Ok(made(format!("Plan v{version} recorded.{follow_up}")))
                }
            },
            BuiltIn::PlanProgress => {
                if batch > 1 {
                    return Ok(reply(prompts::plan_progress_alone(language), true));
                }
                if self.plan.is_none() {
                    return Ok(reply(prompts::plan_first(language), true));
                }
                match validated(PLAN_PROGRESS_SCHEMA, &call.args)? {
                    Err(issues) => Ok(reply(invalid_args("plan_progress", &issues), true)),
                    Ok(value) => {
                        let args: PlanProgressArgs = from_value(value)?;
                        let step_id = args.step_id.clone();
                        let plan = self.plan.as_mut().ok_or_else(|| Error::internal("plan checked above"))?;
                        let text = plan.record(args);
                        let plan_completed = plan.completed;
                        let note = match (plan_completed, &step_id, &plan.next_step) {
                            (true, _, _) => format!("plan v{} completed", plan.version),
                            (false, Some(step), Some(next)) => format!("step {step} done · next: {next}"),
                            (false, Some(step), None) => format!("step {step} done"),
                            (false, None, _) => "progress recorded".to_owned(),
                        };
                        self.log.record_plan_note(&note, iteration, now);
                        self.emit(EventKind::PlanProgress { step_id, plan_completed }, now);
                        Ok(made(text))
                    }
                }
            }
        }
    }

    /// After any todo tool replaced the list: the trail, an event, and a re-plan reset
    /// when the new list re-opens work.
    fn todos_replaced(&mut self, dialect: TodoDialect, before: &[Todo], iteration: u32, now: f64) {
        self.todo_tool = dialect;
        let after = self.planner.todos();
        let (completed, total) = todos::progress(after);
        // Work re-opens when a todo is unfinished that was not unfinished before: a new one,
        // or a completed one taken back.
        let open = |list: &[Todo], id: &str| list.iter().any(|t| t.id == id && t.status != TodoStatus::Completed);
        let reopened = after.iter().any(|t| t.status != TodoStatus::Completed && !open(before, &t.id));
        if reopened {
            if let Some(turn) = self.turn.as_mut() {
                turn.continuations = 0;
            }
            if let Some(plan) = self.plan.as_mut() {
                plan.completed = false;
            }
        }
        self.log.record_plan(after, iteration, now);
        let revision = self.planner.snapshot().revision;
        let kind = EventKind::TodosUpdated {
            tool: dialect.tool_name().to_owned(),
            revision,
            completed: completed as u32,
            total: total as u32,
        };
        self.emit(kind, now);
    }

    fn record_result(&mut self, result: ToolResult, iteration: u32, now: f64) -> ToolMessage {
        let language = self.config.language;
        let found = self.turn.as_mut().and_then(|t| t.pending.iter_mut().find(|p| p.id == result.id));
        let (name, signature, approved) = match found {
            Some(pending) => {
                pending.answered = true;
                (pending.name.clone(), pending.signature.clone(), pending.approved)
            }
            None => (String::new(), String::new(), false),
        };
        let output = match result.output {
            Value::String(text) => text.into_owned(),
            other => json_text::stringify(&other),
        };
        let full = match (approved, result.stderr) {
            (true, stderr) => {
                approval::format_result(&name, &output, stderr.as_deref(), result.exit_code, result.duration_ms)
            }
            (false, Some(stderr)) if !stderr.trim().is_empty() => format!("{output}\n{stderr}"),
            (false, _) => output,
        };
        let total = full.chars().count();
        let limit = self.config.max_tool_output_chars as usize;
        let content = match total > limit {
            true => cap(&full, limit) + &prompts::truncated(language, limit, total),
            false => full,
        };
        let obs = self.log.record_obs(&name, &content, result.is_error, iteration, now).summary.clone();
        if self.findings.len() == FINDINGS_KEPT {
            self.findings.pop_front();
        }
        self.findings.push_back(obs);
        if let Some(pattern) = self.stuck.record_result(&name, &signature, &content, result.is_error) {
            let nudge = prompts::stuck(language, &pattern.describe());
            self.note_stuck(pattern, now);
            // Past its nudges the model gets no tools for its next call (see `next_call`).
            if let Some(turn) = self.turn.as_mut().filter(|t| !t.stuck_out) {
                turn.batch_nudge = Some(nudge);
            }
        }
        ToolMessage { tool_call_id: result.id, name, content, is_error: result.is_error }
    }

    /// Counts a stuck detection; past the allowed nudges the turn ends as stuck
    /// (`Some(decision)` when that can happen right away).
    fn note_stuck(&mut self, pattern: Pattern, now: f64) -> Option<Decision> {
        let max = self.config.stuck.max_nudges;
        let turn = self.turn.as_mut()?;
        turn.stuck_nudges = turn.stuck_nudges.saturating_add(1);
        let nudge = turn.stuck_nudges;
        let out = nudge > max;
        let text_only = matches!(pattern, Pattern::SameText { .. });
        if out {
            turn.stuck_out = true;
        }
        self.emit(EventKind::Stuck { detail: pattern, nudge }, now);
        // A repeated text reply can end the turn at once; repeated calls end it at the next
        // response (the host is told to withhold tools).
        (out && text_only).then(|| self.finish(String::new(), ExitReason::Stuck, now))
    }

    /// Adds to the last tool message of a batch: a stuck nudge, and every
    /// `reminderInterval` iterations the goal/plan reminder (seed 000 §3).
    fn close_batch(&mut self, messages: &mut [ToolMessage], nudge: Option<String>, iteration: u32, now: f64) {
        let Some(last) = messages.last_mut() else { return };
        if let Some(nudge) = nudge {
            last.content = append(&last.content, &nudge);
        }
        if iteration > 0 && iteration % self.config.reminder_interval == 0 {
            let (goal, plan) = (self.goal(), self.plan_text());
            if !goal.trim().is_empty() && !plan.trim().is_empty() {
                last.content =
                    append(&last.content, &prompts::reminder(self.config.language, goal.trim(), plan.trim()));
                self.emit(EventKind::ReminderInjected {}, now);
            }
        }
    }

    /// Asks the model to go on, or ends the turn when it may not.
    fn nudge(&mut self, reason: ContinueReason, answer: String, out_of_budget: bool, now: f64) -> Decision {
        if out_of_budget {
            let exit = match self.turn.as_ref().is_some_and(|t| t.elapsed(now) >= f64::from(self.config.timeout_ms)) {
                true => ExitReason::Timeout,
                false => ExitReason::MaxIterations,
            };
            return self.limit(exit, now);
        }
        let max_attempts = self.config.max_plan_continuations;
        let attempt = match self.turn.as_mut() {
            Some(turn) if turn.continuations < max_attempts => {
                turn.continuations += 1;
                turn.continuations
            }
            _ => return self.finish(answer, ExitReason::SafetyValve, now),
        };
        let language = self.config.language;
        let message = match reason {
            ContinueReason::PlanUnfinished => {
                let todos_open = self.planner.todos().iter().any(|t| t.status != TodoStatus::Completed);
                let finish = match (self.plan.as_ref().is_some_and(PlanState::unfinished), todos_open) {
                    (true, _) => FinishBy::PlanProgress,
                    (false, true) => FinishBy::Todos(self.todo_tool.tool_name()),
                    (false, false) => FinishBy::Steps,
                };
                let text_length = answer.chars().count() as u32;
                self.emit(EventKind::PlanContinuation { attempt, max_attempts, text_length }, now);
                prompts::continuation(language, self.plan_text().trim(), self.goal().trim(), finish)
            }
            ContinueReason::ContinuationSignal => prompts::carry_on(language),
            ContinueReason::EmptyReply => prompts::empty_reply(language),
            ContinueReason::Stuck => {
                prompts::stuck(language, &Pattern::SameText { times: self.config.stuck.same_text }.describe())
            }
        };
        Decision::Continue { message, reason, attempt, max_attempts, next: self.next_call(now) }
    }

    fn finish(&mut self, answer: String, exit_reason: ExitReason, now: f64) -> Decision {
        let unfinished = self.unfinished();
        self.set_step_plan_status(if unfinished { PlanStatus::Paused } else { PlanStatus::Completed });
        let iterations = self.end_turn();
        self.emit(EventKind::TurnCompleted { exit_reason, iterations }, now);
        Decision::Finalize { answer, exit_reason }
    }

    /// Ends the turn at a limit: paused (plan kept) or failed, with a progress summary.
    fn limit(&mut self, exit_reason: ExitReason, now: f64) -> Decision {
        let elapsed_ms = self.turn.as_ref().map_or(0.0, |t| t.elapsed(now));
        self.emit(EventKind::LimitReached { exit_reason, elapsed_ms }, now);
        let summary = self.summary(exit_reason == ExitReason::Timeout);
        let iterations = self.end_turn();
        self.set_step_plan_status(match self.config.on_limit {
            OnLimit::Pause => PlanStatus::Paused,
            OnLimit::Fail => PlanStatus::Failed,
        });
        match self.config.on_limit {
            OnLimit::Pause => {
                let steps_remaining = self.config.max_iterations.saturating_sub(iterations);
                let reason = match exit_reason {
                    ExitReason::Timeout => PauseReason::Timeout,
                    _ => PauseReason::MaxIterations,
                };
                self.emit(
                    EventKind::TurnPaused { reason, pending_count: 0, steps_used: iterations, steps_remaining },
                    now,
                );
                Decision::Pause { exit_reason, summary }
            }
            OnLimit::Fail => {
                self.emit(EventKind::TurnFailed { exit_reason, iterations }, now);
                Decision::Fail { exit_reason, message: summary }
            }
        }
    }

    fn end_turn(&mut self) -> u32 {
        match self.turn.as_mut() {
            Some(turn) => {
                turn.open = false;
                turn.pending.clear();
                turn.iterations
            }
            None => 0,
        }
    }

    /// What was done and what is next, for a turn stopped at a limit.
    fn summary(&self, timeout: bool) -> String {
        let language = self.config.language;
        let (done, next) = self.done_and_next();
        prompts::paused(language, prompts::limit_name(language, timeout), &done, next.as_deref())
    }

    /// The work done so far, in a phrase, and the next step: from the todo list, else the
    /// plan, else the text-tracked steps.
    fn done_and_next(&self) -> (String, Option<String>) {
        let language = self.config.language;
        let todos = self.planner.todos();
        let steps = self.active_step_plan().filter(|p| !p.steps.is_empty());
        match (&self.plan, todos.is_empty()) {
            (_, false) => {
                let (completed, total) = todos::progress(todos);
                let names: Vec<&str> =
                    todos.iter().filter(|t| t.status == TodoStatus::Completed).map(|t| t.content.as_str()).collect();
                let done = match names.is_empty() {
                    true => format!("{completed}/{total}"),
                    false => format!("{completed}/{total} ({})", names.join("; ")),
                };
                let next = todos.iter().find(|t| t.status != TodoStatus::Completed).map(|t| t.content.clone());
                (done, next)
            }
            (Some(plan), true) => (prompts::recorded_steps(language, plan.steps_done.len()), plan.next_step.clone()),
            (None, true) => match steps {
                Some(steps) => {
                    let done = prompts::steps_done(language, steps.completed_count(), steps.steps.len());
                    (done, steps.current().map(|s| s.description.clone()))
                }
                None => (prompts::no_steps(language).to_owned(), None),
            },
        }
    }

    fn unfinished(&self) -> bool {
        let todos_open = self.planner.todos().iter().any(|t| t.status != TodoStatus::Completed);
        let steps_open = self.active_step_plan().is_some_and(StepPlan::unfinished);
        todos_open || steps_open || self.plan.as_ref().is_some_and(PlanState::unfinished)
    }

    /// The text-tracked plan while it is running or paused.
    fn active_step_plan(&self) -> Option<&StepPlan> {
        self.step_plan.as_ref().filter(|p| matches!(p.status, PlanStatus::Running | PlanStatus::Paused))
    }

    /// The goal: the plan's, else the text-tracked plan's, else the message that started
    /// the turn.
    fn goal(&self) -> String {
        if let Some(plan) = &self.plan {
            return plan.goal.clone();
        }
        match self.active_step_plan() {
            Some(plan) => plan.goal.clone(),
            None => self.turn.as_ref().map(|t| t.message.clone()).unwrap_or_default(),
        }
    }

    /// Seed 001: the plan tracked from the model's text. A response that acts or
    /// declares steps starts a plan when none is running; each response moves it on.
    fn track_steps(&mut self, text: &str, acts: bool, iteration: u32, now: f64) {
        let running = self.step_plan.as_ref().is_some_and(|p| p.status == PlanStatus::Running);
        if !running {
            if !acts && !steps::declares_steps(text) {
                return;
            }
            let goal = self.turn.as_ref().map(|t| t.message.clone()).unwrap_or_default();
            let plan = StepPlan::new(&goal, now);
            self.emit(EventKind::StepPlanCreated { plan_id: plan.id.clone() }, now);
            self.step_plan = Some(plan);
        }
        let Some(plan) = self.step_plan.as_mut() else { return };
        plan.iteration_count = plan.iteration_count.saturating_add(1);
        let changes = plan.read(text);
        self.step_changes(changes, iteration, now);
    }

    /// A final answer closes the last running step. True when work is still unfinished.
    fn finish_last_step(&mut self, answer: &str, iteration: u32, now: f64) -> bool {
        let change =
            self.step_plan.as_mut().filter(|p| p.status == PlanStatus::Running).and_then(|p| p.finish_last(answer));
        if let Some(change) = change {
            self.step_changes(vec![change], iteration, now);
        }
        self.unfinished()
    }

    /// Events and trail lines for what a response did to the text-tracked plan.
    fn step_changes(&mut self, changes: Vec<StepChange>, iteration: u32, now: f64) {
        for change in changes {
            let Some(plan) = &self.step_plan else { return };
            let (kind, note) = match change {
                StepChange::Started { index } => {
                    let step = &plan.steps[index];
                    (EventKind::StepStarted { step_id: step.id.clone(), description: step.description.clone() }, None)
                }
                StepChange::Completed { index, by } => {
                    let step = &plan.steps[index];
                    let note = match plan.current() {
                        Some(next) => format!("{} done · now: {}", step.id, next.description),
                        None => format!("{} done · every step done", step.id),
                    };
                    let kind = EventKind::StepCompleted { step_id: step.id.clone(), by, result: step.result.clone() };
                    (kind, Some(note))
                }
            };
            if let Some(note) = note {
                self.log.record_plan_note(&note, iteration, now);
            }
            self.emit(kind, now);
        }
    }

    fn set_step_plan_status(&mut self, status: PlanStatus) {
        if let Some(plan) = self.step_plan.as_mut().filter(|p| p.status == PlanStatus::Running) {
            plan.status = status;
        }
    }

    /// The plan as text: the todo list as a checklist, else the plan's own text.
    fn plan_text(&self) -> String {
        let todos = self.planner.todos();
        if !todos.is_empty() {
            let lines: Vec<String> = todos
                .iter()
                .map(|t| {
                    let mark = match t.status {
                        TodoStatus::Completed => "[x]",
                        TodoStatus::InProgress => "[-]",
                        TodoStatus::Pending => "[ ]",
                    };
                    format!("{mark} {}", t.content)
                })
                .collect();
            return lines.join("\n");
        }
        match (&self.plan, self.active_step_plan()) {
            (Some(plan), _) => plan.plan.clone(),
            (None, Some(steps)) => steps.checklist(),
            (None, None) => String::new(),
        }
    }

    pub(crate) fn next_call(&self, now: f64) -> NextCall {
        let language: Language = self.config.language;
        let max = self.config.max_iterations;
        let (used, timed_out, stuck_out) = match &self.turn {
            Some(turn) => (turn.iterations, turn.elapsed(now) >= f64::from(self.config.timeout_ms), turn.stuck_out),
            None => (0, false, false),
        };
        let iteration = used.saturating_add(1);
        let tools_withheld = iteration >= max || timed_out || stuck_out;
        let total = max.saturating_sub(1);
        let remaining = if tools_withheld { 0 } else { max.saturating_sub(iteration) };
        NextCall {
            iteration,
            tools_withheld,
            tool_rounds_remaining: remaining,
            budget_line: prompts::budget_line(language, remaining, total),
        }
    }
}

fn append(content: &str, addition: &str) -> String {
    match content.trim().is_empty() {
        true => addition.to_owned(),
        false => format!("{}\n\n{addition}", content.trim_end()),
    }
}

/// Tool calls of one response must have distinct ids, or their results could not be told apart.
fn check_unique_ids(calls: &[ToolCallInput]) -> Result<()> {
    let issues: Vec<Issue> = calls
        .iter()
        .enumerate()
        .filter(|(i, call)| calls[..*i].iter().any(|c| c.id == call.id))
        .map(|(i, call)| {
            let path =
                vec![PathSegment::Key("toolCalls".into()), PathSegment::Index(i as u32), PathSegment::Key("id".into())];
            Issue::custom(format!("Two tool calls share the id \"{}\"", call.id), path)
        })
        .collect();
    match issues.is_empty() {
        true => Ok(()),
        false => Err(Error::invalid_argument("response", issues)),
    }
}

/// Arguments given as a value (not JSON text) must keep within the limits of schema `{}`
/// (depth and size), as the JS binding already checks, so everything a session keeps and
/// writes into a snapshot is as shallow as a snapshot may be.
fn check_argument_limits(calls: &[ToolCallInput]) -> Result<()> {
    let mut issues = Vec::new();
    for (i, call) in calls.iter().enumerate().filter(|(_, c)| !matches!(c.args, Value::String(_))) {
        if let Err(found) = schema::validate(&schema::Schema::Any, &call.args)? {
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

/// A call's arguments as the host gets them, the user approves them and a snapshot keeps
/// them: JSON text parsed into its value, and any value as JSON carries it (see
/// [`Value::into_json`]); no arguments at all are an empty object.
fn host_args(args: Value<'static>) -> Value<'static> {
    let parsed = match &args {
        Value::String(text) => json::parse(text.as_bytes()).ok().and_then(|doc| shallow_copy(&doc)),
        _ => None,
    };
    parsed.unwrap_or(args).into_json().unwrap_or(Value::Object(Vec::new()))
}

/// A parsed document as a value, if it is no deeper or bigger than a schema `{}` allows.
fn shallow_copy(document: &Value<'_>) -> Option<Value<'static>> {
    match schema::validate(&schema::Schema::Any, document) {
        Ok(Ok(value)) => Some(value.into_owned()),
        _ => None,
    }
}

/// Validates a built-in tool's arguments (JSON text or a value) against its schema.
fn validated(schema_text: &'static str, args: &Value<'_>) -> Result<std::result::Result<Value<'static>, Vec<Issue>>> {
    let schema = schema::compiled(schema_text)?;
    match args {
        Value::String(text) => match json::parse(text.as_bytes()) {
            Ok(document) => schema::validate(schema, &*document),
            Err(e) => Ok(Err(vec![Issue::invalid_json(&e.message, e.position)])),
        },
        value => schema::validate(schema, value),
    }
}

fn dialect_schema(dialect: TodoDialect) -> &'static str {
    dialects::schema(dialect)
}

fn dialect_args(dialect: TodoDialect, value: Value<'static>) -> Result<DialectArgs> {
    Ok(match dialect {
        TodoDialect::TodoWrite => DialectArgs::TodoWrite(from_value(value)?),
        TodoDialect::UpdatePlan => DialectArgs::UpdatePlan(from_value(value)?),
        TodoDialect::UpdateTodoList => DialectArgs::UpdateTodoList(from_value(value)?),
        TodoDialect::TaskTracker => DialectArgs::TaskTracker(from_value(value)?),
        TodoDialect::WriteTodos => return Err(Error::internal("write_todos is not a dialect")),
    })
}

fn invalid_args(tool: &str, issues: &[Issue]) -> String {
    format!("Invalid {tool} arguments; nothing was changed. Fix these and call {tool} again:\n{}", summarize(issues))
}
