//! `Session`: the loop controller. It answers the planner tools itself, refuses to end a
//! turn while the plan is unfinished, restates the goal and plan now and then, notices a
//! model going in circles, and stops a turn at its limits with an honest reason.
//!
//! It is a state machine driven by the host (see the crate docs for the contract): each
//! input either moves it forward or is refused with `invalid_state`, and a refused input
//! changes nothing.

pub mod approval;
mod arguments;
mod calls;
pub mod config;
pub mod continuation;
pub mod delegate_call;
pub mod delegation;
mod ending;
pub mod events;
pub mod evidence;
pub mod exchange;
pub mod goal;
pub mod handoff;
pub mod intent;
pub mod ledger;
mod progress;
mod prompt;
mod proposals;
mod reminder;
mod results;
pub mod review;
pub mod stuck;
mod turn;

use arguments::{check_argument_limits, check_unique_ids, host_args};
pub(crate) use proposals::PROPOSALS_KEPT;
pub use turn::{Pending, Receipt, Turn};

use std::collections::VecDeque;

use crate::error::issue::{Issue, PathSegment};
use crate::error::{Error, Result};
use crate::json::decimals::Decimals;
use crate::plan::planner::{PlannerOptions, PlannerState, PlannerToolName};
use crate::plan::recorded::PlanState;
use crate::plan::steps::{PlanStatus, StepPlan};
use crate::plan::todos::Todo;
use crate::prompts::{self};
use crate::session::approval::{ApproveOptions, Grant, Proposal, ProposalStatus, RejectOptions, Scope, MAX_GRANTS};
use crate::session::config::{SessionConfig, TodoDialect};
use crate::session::continuation::{ReportedProgress, Status};
use crate::session::delegation::{Child, Link};
use crate::session::events::{Event, EventKind, MAX_EVENTS};
use crate::session::evidence::ItemEvidence;
use crate::session::exchange::{
    ApprovalOutcome, BeginTurn, ContinueReason, Decision, ExitReason, ModelResponse, ToolMessage, ToolResult,
    ToolResultsOutcome, TurnStart,
};
use crate::session::ledger::Tally;
use crate::session::review::PlanReview;
use crate::session::stuck::StuckDetector;
use crate::text::reflection::DEFAULT_MAX_CHARS;
use crate::text::written_call::written_call;
use crate::trail::reasoning::{ReasoningEvent, ReasoningLog};

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
    /// The delegations this session descends from (empty for a session of its own).
    pub(crate) lineage: Vec<Link>,
    /// Its children at work on the open turn's delegations.
    pub(crate) children: Vec<Child>,
    /// How it reads and writes decimal numbers (not state: a snapshot leaves it out).
    pub(crate) decimals: Decimals,
    /// What its closed turns spent (the ledger's session total, less the open turn).
    pub(crate) spent: Tally,
    /// The receipts of the items of the current list (see `evidence.rs`).
    pub(crate) evidence: Vec<ItemEvidence>,
}

impl Session {
    /// A session that reads and writes decimal numbers as Rust does.
    pub fn new(config: SessionConfig) -> Self {
        Session::with_decimals(config, Decimals::RUST)
    }

    /// A session that reads and writes decimal numbers with `decimals`.
    pub fn with_decimals(config: SessionConfig, decimals: Decimals) -> Self {
        // (A tool that changes one task at a time is no planner call to count or refuse:
        // creating five tasks takes five calls.)
        let planner_tools = config
            .todo_dialects
            .iter()
            .filter(|d| !d.patches_one() && !d.is_parameter())
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
            lineage: Vec::new(),
            children: Vec::new(),
            decimals,
            evidence: Vec::new(),
            config,
            spent: Tally::default(),
        }
    }

    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// Starts a turn with a user message. A turn still open is abandoned (its proposals
    /// can no longer be approved), unless it is "continue" while sub-agents of the turn
    /// are at work: the turn then goes on with them. When a plan review waits for this user and chat (in
    /// this session, or passed in by a host that kept it), the message is read as feedback
    /// on the plan: it goes to the model behind a `<plan_feedback>` block, once.
    pub fn begin_turn(&mut self, mut input: BeginTurn) -> Result<TurnStart> {
        let now = input.now_ms;
        if let Some(goal) = &input.goal {
            goal.check("input")?;
        }
        if let Some(start) = self.go_on(&input.message, now) {
            return Ok(start);
        }
        // Turn numbers never repeat: a proposal of an abandoned turn must never pass for
        // one of the next.
        let number = self.turns.checked_add(1).ok_or_else(|| {
            Error::invalid_state("beginTurn", "this session has begun as many turns as it can count: start a new one")
        })?;
        self.check_session_tokens()?;
        if self.turn.as_ref().is_some_and(|t| t.open) {
            self.emit(EventKind::TurnAbandoned {}, now);
            self.close_books(now);
        }
        self.children.clear();
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
        self.turns = number;
        let mut message = input.message.clone();
        if resume {
            message = format!("{}\n\n{message}", self.resume_block());
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
            receipts: Vec::new(),
            ending: None,
            delegated: 0,
            quiet_since: 0,
            input_tokens: 0,
            output_tokens: 0,
            time_ms: 0.0,
            goal: input.goal,
            held: None,
            goal_nudges: 0,
            evidence_nudges: 0,
            goal_unmet: 0,
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
        Ok(TurnStart { turn: self.turns, message, next: self.next_call(now), delegations: Vec::new() })
    }

    /// Takes a model response and decides what happens next.
    pub fn handle_model_response(&mut self, response: ModelResponse, now: f64) -> Result<Decision> {
        // Every check before the first change: a refused response uses no iteration.
        self.ready_for_model("handleModelResponse")?;
        check_unique_ids(&response.tool_calls)?;
        check_argument_limits(&response.tool_calls, self.decimals)?;
        let turn = self.turn_mut()?;
        turn.iterations = turn.iterations.saturating_add(1);
        let (iteration, stuck_out, used) = (turn.iterations, turn.stuck_out, turn.used());
        let elapsed = turn.elapsed(now);
        turn.time_ms = elapsed.max(0.0);
        let timed_out = elapsed >= f64::from(self.config.timeout_ms);
        let withheld = used >= self.config.max_iterations;
        let spent = self.count_usage(response.usage, now);

        let text = response.text.unwrap_or_default();
        // planloop's own nudges, echoed back, are not the model's words: never its answer
        // or its reflection.
        let text = prompts::echo::without_control_text(&text);
        let (answer, wants_more) = match self.config.continuation_protocol.enabled {
            true => {
                let reading =
                    continuation::read(&text, self.config.continuation_protocol.require_explicit_signal, self.decimals);
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
        // A tool call written out as text did not run, and says nothing to reflect on.
        let written = match response.tool_calls.is_empty() {
            true => written_call(&answer, self.decimals),
            false => None,
        };
        if written.is_none() {
            self.log.record_reflection(&answer, DEFAULT_MAX_CHARS, iteration, now);
        }
        self.track_steps(&answer, !response.tool_calls.is_empty(), iteration, now);
        // What a turn ending here would show: never a call that did not run.
        let shown = match written {
            Some(_) => String::new(),
            None => answer.clone(),
        };

        if stuck_out {
            return Ok(self.finish(shown, ExitReason::Stuck, now));
        }
        if !response.tool_calls.is_empty() {
            self.stuck.record_text(None);
            if timed_out {
                return Ok(self.limit(ExitReason::Timeout, now));
            }
            if spent {
                return Ok(self.limit(ExitReason::BudgetExhausted, now));
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
            return Ok(self.nudge(ContinueReason::Stuck, shown, self.out_of_budget(now), now));
        }
        let reason = if answer.is_empty() {
            Some(ContinueReason::EmptyReply)
        } else if let Some(written) = written {
            Some(ContinueReason::written(written))
        } else if wants_more {
            Some(ContinueReason::ContinuationSignal)
        } else if self.finish_last_step(&answer, iteration, now) {
            Some(ContinueReason::PlanUnfinished)
        } else {
            None
        };
        let out_of_budget = self.out_of_budget(now);
        Ok(match reason {
            None => self.stop(answer, out_of_budget, now),
            Some(reason) => self.nudge(reason, shown, out_of_budget, now),
        })
    }

    /// Takes the results of calls handed out by the last `runTools`, and returns the
    /// tool messages to append.
    pub fn handle_tool_results(&mut self, results: Vec<ToolResult>, now: f64) -> Result<ToolResultsOutcome> {
        let turn = self.turn_for_results("handleToolResults")?;
        // Check every id before changing anything.
        let answering = results::answering(&turn.pending, &results)?;
        let iteration = turn.iterations;
        if let Some(refusal) = self.children_answered(&results) {
            return Err(refusal);
        }
        let mut messages = Vec::with_capacity(results.len());
        for (result, call) in results.into_iter().zip(answering) {
            messages.push(self.record_result(result, call, iteration, now));
        }
        let complete = self.settle(&mut messages, iteration, now)?;
        Ok(ToolResultsOutcome { messages, complete, next: self.next_call(now) })
    }

    /// Approves a proposal: it will run once, with `editedArgs` if given; `scope:
    /// "always"` allows its tool (or the rule that caught it) for the rest of the session.
    pub fn approve(&mut self, action_id: &str, options: ApproveOptions, now: f64) -> Result<ApprovalOutcome> {
        if !self.proposals.iter().any(|p| p.action_id == action_id) {
            let options = options.clone();
            if let Some(outcome) = self.resolve_in_child(action_id, |child| child.approve(action_id, options, now)) {
                return outcome;
            }
        }
        let index = self.pending_proposal(action_id)?;
        let always = options.scope == Scope::Always;
        let proposal = &self.proposals[index];
        let grant = Grant { tool: proposal.tool.clone(), basis: proposal.basis.clone() };
        let new_grant = always && !self.grants.contains(&grant);
        if new_grant && self.grants.len() >= MAX_GRANTS {
            let why = format!(
                "This session already keeps {MAX_GRANTS} standing approvals; approve this call once, or start a new session"
            );
            return Err(Error::invalid_options(
                "options",
                vec![Issue::custom(why, vec![PathSegment::Key("scope".into())])],
            ));
        }
        if new_grant {
            self.grants.push(grant);
        }
        let proposal = &mut self.proposals[index];
        proposal.status = ProposalStatus::Approved;
        let edited = options.edited_args.is_some();
        if let Some(args) = options.edited_args {
            proposal.args = host_args(args, self.decimals);
            // The record of what was approved says what runs.
            proposal.justification = approval::justification(&proposal.tool, &proposal.args, self.decimals);
        }
        self.resolved(index, edited, always, now)
    }

    /// Rejects a proposal; the model gets `message` as the call's result.
    pub fn reject(&mut self, action_id: &str, options: RejectOptions, now: f64) -> Result<ApprovalOutcome> {
        if !self.proposals.iter().any(|p| p.action_id == action_id) {
            let options = options.clone();
            if let Some(outcome) = self.resolve_in_child(action_id, |child| child.reject(action_id, options, now)) {
                return outcome;
            }
        }
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

    /// The proposals of the open turn, as they stand, then those of its sub-agents that
    /// wait (their `chain` says where they come from).
    pub fn proposals(&self) -> Vec<&Proposal> {
        let turn = self.turn.as_ref().filter(|t| t.open).map_or(0, |t| t.number);
        let own = self.proposals.iter().filter(|p| p.turn == turn);
        own.chain(self.children_proposals().filter(|p| p.status == ProposalStatus::Pending)).collect()
    }

    /// The events since the last call, oldest first.
    pub fn drain_events(&mut self) -> Vec<Event> {
        // Taken whole rather than drained: `VecDeque::drain` brought 0.6 KB into the module.
        Vec::from(std::mem::take(&mut self.events))
    }

    /// The current todo list (`todos_with_evidence` gives each item's receipts too).
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

    /// Refuses `call` unless a turn is open and the model may be called: no result or
    /// approval awaited.
    fn ready_for_model(&self, call: &str) -> Result<()> {
        let awaiting_approval = self.awaiting_approval();
        let expected = match &self.turn {
            Some(turn) if turn.open && turn.pending.iter().any(|p| !p.answered) => {
                Some("tool results are awaited: call handleToolResults first")
            }
            Some(turn) if turn.open && awaiting_approval => {
                Some("proposals await the user: call approve or reject first")
            }
            Some(turn) if turn.open && turn.held.is_some() => {
                Some("the goal awaits the host's verdict: call handleVerdict first")
            }
            Some(turn) if turn.open => None,
            _ => Some("no turn is open: call beginTurn first"),
        };
        match expected {
            Some(expected) => Err(Error::invalid_state(call, expected)),
            None => Ok(()),
        }
    }

    /// The open turn, when tool results are awaited.
    fn turn_for_results(&mut self, call: &str) -> Result<&mut Turn> {
        let expected = match &self.turn {
            Some(turn) if turn.open && turn.pending.iter().any(|p| !p.answered) => None,
            Some(turn) if turn.open && turn.held.is_some() => {
                Some("no tool results are awaited: the goal awaits the host's verdict, call handleVerdict")
            }
            Some(turn) if turn.open => Some("no tool results are awaited: call handleModelResponse"),
            _ => Some("no turn is open: call beginTurn first"),
        };
        match expected {
            Some(expected) => Err(Error::invalid_state(call, expected)),
            None => self.turn_mut(),
        }
    }

    fn steps_remaining(&self) -> u32 {
        let used = self.turn.as_ref().map_or(0, Turn::used);
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
}
