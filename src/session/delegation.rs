//! Sub-agents (seed 004 §7): a delegation becomes a child session inside its parent,
//! driven by the host with the same contract; when it ends, its capsule answers the
//! delegate call, settles the parent's todo item, and its budget is the parent's. The
//! child lives in the parent, so the parent's snapshot holds it, and the parent routes
//! approvals of its children's proposals to them.

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::issue::{Issue, PathSegment};
use crate::error::{Error, Result};
use crate::json::decimals::Decimals;
use crate::json::from_value::struct_from_value;
use crate::json::value::Value;
use crate::plan::todos::{TodoStatus, WriteTodos};
use crate::plan::tools::{self, ToolDefinition};
use crate::prompts::delegation;
use crate::session::approval::Proposal;
use crate::session::config::OnLimit;
use crate::session::delegate_call::Delegation;
use crate::session::events::EventKind;
use crate::session::exchange::{ApprovalOutcome, BeginTurn, NextCall, Resumption, ToolMessage, ToolResult, TurnStart};
use crate::session::handoff::{Handoff, HandoffOptions, HandoffStatus};
use crate::session::intent;
use crate::text::cap;

use super::turn::{span, Receipt};
use super::Session;

/// One step of a sub-agent's descent: the parent's turn, and its delegate call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Link {
    pub turn: u32,
    #[schemars(length(max = 256))]
    pub call_id: String,
}

struct_from_value!(Link, "camelCase" { turn, call_id });

/// A child session at work on a delegation of the open turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Child {
    pub(crate) call_id: String,
    pub(crate) session: Session,
}

/// What `finishDelegation` returns.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DelegationOutcome {
    /// The child's capsule; its `text` is the delegate call's result.
    pub capsule: Handoff,
    /// Append these, in order, as tool messages (the delegate call's result first).
    pub messages: Vec<ToolMessage>,
    /// Every call of the last `runTools` has its result: call the model now.
    pub complete: bool,
    pub next: NextCall,
}

impl Session {
    /// How deep this session is: 0 for a session of its own, 1 for its children.
    pub fn depth(&self) -> u32 {
        self.lineage.len() as u32
    }

    /// The tools this session answers itself or hands out as delegations, for the
    /// model: the delegate tool while its children may have children of their own.
    pub fn tool_definitions(&self, decimals: Decimals) -> Result<Vec<ToolDefinition>> {
        let mut tools = tools::session_tool_definitions(&self.answered_dialects(), decimals)?;
        let options = &self.config.delegation;
        if options.enabled && self.depth() < options.max_depth {
            tools.push(tools::delegate_definition(&options.tool_names[0], decimals)?);
        }
        Ok(tools)
    }

    /// The agent's time the open turn has left at `now`, in milliseconds (a child's
    /// share of it is at most that).
    pub(super) fn time_left(&self, now: f64) -> f64 {
        self.turn.as_ref().map_or(0.0, |t| f64::from(self.config.timeout_ms) - t.elapsed(now))
    }

    /// The delegations of the open turn waiting for their capsule.
    pub fn delegations(&self) -> Vec<&Delegation> {
        let waiting = self.turn.as_ref().filter(|t| t.open).map(|t| t.pending.as_slice()).unwrap_or_default();
        waiting.iter().filter(|p| !p.answered).filter_map(|p| p.delegation.as_ref()).collect()
    }

    /// Starts the child of delegation `call_id`: a session with the parent's tool policy
    /// and standing approvals, the delegation's budget, and no plan review (no user
    /// waits on a child). Its first message is the task; the result is its turn's start.
    pub fn begin_delegation(&mut self, call_id: &str, now: f64) -> Result<TurnStart> {
        let delegation = self.waiting_delegation("beginDelegation", call_id)?;
        if self.children.iter().any(|c| c.call_id == call_id) {
            let expected = "a delegation not begun yet: this one's child is at work";
            return Err(Error::invalid_state("beginDelegation", expected));
        }
        let mut config = self.config.clone();
        config.max_iterations = delegation.max_iterations;
        // Its time is what the delegation gave, or what the turn has left by now. (`max`
        // then `min`, not `f64::clamp`: the delegation's time is at least 1, but clamp's
        // panic message would bring Rust's float formatting into the module, 10.3 KB gzip.)
        config.timeout_ms = self.time_left(now).max(1.0).min(f64::from(delegation.timeout_ms)) as u32;
        config.plan_review.enabled = false;
        config.on_limit = OnLimit::Pause;
        // Its tokens are what the turn and session have left (children at work counted),
        // in a session of its own: its one turn is all of it.
        config.max_tokens = self.tokens_left().map(|left| left.max(1));
        config.max_session_tokens = None;
        let mut child = Session::with_decimals(config, self.decimals);
        let turn = self.turn.as_ref();
        child.lineage = self.lineage.clone();
        child.lineage.push(Link { turn: turn.map_or(0, |t| t.number), call_id: call_id.to_owned() });
        child.grants = self.grants.clone();
        let todos = self.planner.todos();
        let item = delegation.todo_id.as_ref().and_then(|id| todos.iter().find(|t| &t.id == id));
        let message = delegation::brief(
            self.config.language,
            &delegation.goal,
            item.map(|t| t.content.as_str()),
            delegation.context.as_deref(),
            &delegation.acceptance,
        );
        let start = child.begin_turn(BeginTurn {
            message,
            now_ms: now,
            user_id: turn.and_then(|t| t.user_id.clone()),
            chat_id: turn.and_then(|t| t.chat_id.clone()),
            review: None,
            goal: None,
        })?;
        // What was asked is the goal; the brief is how the model is told it. (The goal is
        // what reminders restate and the capsule names.)
        if let Some(turn) = child.turn.as_mut() {
            turn.message = delegation.goal.clone();
        }
        self.children.push(Child { call_id: call_id.to_owned(), session: child });
        let kind = EventKind::DelegationStarted {
            call_id: call_id.to_owned(),
            depth: delegation.depth,
            max_iterations: delegation.max_iterations,
        };
        self.emit(kind, now);
        Ok(start)
    }

    /// "continue" while the open turn's children are at work (the host restarted, or
    /// lost their messages): the turn goes on rather than ending with them, and each
    /// child is handed back with what to tell its model. The turn's clock and theirs
    /// start again, as a new turn's would: the time away was no one's.
    pub(super) fn go_on(&mut self, message: &str, now: f64) -> Option<TurnStart> {
        if self.children.is_empty() || !intent::is_continue(message) {
            return None;
        }
        self.restart_clock(now);
        let delegations = self
            .children
            .iter()
            .map(|c| Resumption {
                call_id: c.call_id.clone(),
                message: c.session.children.is_empty().then(|| c.session.resume_block()),
            })
            .collect();
        Some(TurnStart { turn: self.turns, message: message.to_owned(), next: self.next_call(now), delegations })
    }

    fn restart_clock(&mut self, now: f64) {
        if let Some(turn) = self.turn.as_mut() {
            turn.started_at = now;
            turn.waited_ms = 0.0;
            turn.paused_at = turn.paused_at.map(|_| now);
        }
        for child in &mut self.children {
            child.session.restart_clock(now);
        }
    }

    /// The child at work on delegation `call_id`, to drive as any session.
    pub fn child(&mut self, call_id: &str) -> Result<&mut Session> {
        match self.children.iter_mut().find(|c| c.call_id == call_id) {
            Some(child) => Ok(&mut child.session),
            None => Err(Error::invalid_state("child", "a delegation begun with beginDelegation and not finished")),
        }
    }

    /// Ends delegation `call_id`: the child (as it stands: done, stopped short, waiting
    /// for the user, or never begun) hands back its capsule, which becomes the delegate
    /// call's result; the parent's todo item follows it (`done` completes it, `partial`
    /// and `blocked` leave it in progress with a note), and the child's model calls,
    /// tokens and waits are the parent's.
    pub fn finish_delegation(&mut self, call_id: &str, options: HandoffOptions, now: f64) -> Result<DelegationOutcome> {
        let delegation = self.waiting_delegation("finishDelegation", call_id)?;
        let child = match self.children.iter().position(|c| c.call_id == call_id) {
            Some(at) => self.children.remove(at).session,
            None => Session::with_decimals(self.config.clone(), self.decimals),
        };
        self.finish_with(delegation, child, options, now)
    }

    /// [`Session::finish_delegation`] for a child the host ran as a session of its own
    /// (a framework's sub-agent with its own planloop, restored from its state): its
    /// capsule is made from its state, never taken from its words.
    pub fn finish_delegation_from(
        &mut self,
        call_id: &str,
        child: Session,
        options: HandoffOptions,
        now: f64,
    ) -> Result<DelegationOutcome> {
        let delegation = self.waiting_delegation("finishDelegation", call_id)?;
        if self.children.iter().any(|c| c.call_id == call_id) {
            return Err(Error::invalid_state(
                "finishDelegation",
                "no child given: this delegation's runs inside this session",
            ));
        }
        self.finish_with(delegation, child, options, now)
    }

    /// A refusal of `results` when one answers a delegation whose child is at work: its
    /// capsule answers it (`finishDelegation`), or the child would work on for nothing and
    /// the snapshot would no longer restore.
    pub(super) fn children_answered(&self, results: &[ToolResult]) -> Option<Error> {
        let (at, result) = results.iter().enumerate().find(|(_, r)| self.children.iter().any(|c| c.call_id == r.id))?;
        let why = format!("The delegate call \"{}\" has a sub-agent at work: end it with finishDelegation", result.id);
        Some(Error::invalid_argument(
            "results",
            vec![Issue::custom(why, vec![PathSegment::Index(at as u32), PathSegment::Key("id".into())])],
        ))
    }

    /// The open turn's delegation `call_id`, still waiting for its capsule.
    fn waiting_delegation(&self, call: &str, call_id: &str) -> Result<Delegation> {
        match self.delegations().into_iter().find(|d| d.call_id == call_id) {
            Some(delegation) => Ok(delegation.clone()),
            None => Err(Error::invalid_state(call, "a delegation of the open turn, by its call id")),
        }
    }

    fn finish_with(
        &mut self,
        delegation: Delegation,
        child: Session,
        options: HandoffOptions,
        now: f64,
    ) -> Result<DelegationOutcome> {
        let call_id = delegation.call_id.as_str();
        let options =
            HandoffOptions { max_chars: options.max_chars.min(self.config.delegation.capsule_chars), ..options };
        let capsule = child.handoff(options, now);
        let (used, waited) = match &child.turn {
            Some(t) => (t.used(), t.waited_ms + t.paused_at.map_or(0.0, |at| span(at, now))),
            None => (0, 0.0),
        };
        let max_iterations = self.config.max_iterations;
        self.count_child(&child);
        let turn = self.turn_mut()?;
        // The child's calls were the turn's, and its waits for the user were not the
        // agent's time: no more of it than the turn has had (a child's snapshot given by
        // the host could say any wait, and would switch the turn's time limit off).
        turn.delegated = turn.delegated.saturating_add(used).min(max_iterations);
        turn.waited_ms = (turn.waited_ms + waited.min(turn.elapsed(now).max(0.0))).min(f64::MAX);
        let iteration = turn.iterations;
        // The child's steps, under the delegate call's, before its capsule comes in.
        for step in child.log.events() {
            self.log.record_nested(call_id, step, iteration, now);
        }
        let waiting = self.turn.as_ref().map(|t| t.pending.as_slice()).unwrap_or_default();
        let place = waiting.iter().position(|p| !p.answered && p.id == call_id);
        let place = place.ok_or_else(|| Error::internal("a delegation with no awaited call"))?;
        // The delegate call is the evidence of its item, which the capsule may complete
        // before its result is recorded: its receipt is there first, and in full after.
        let ok = capsule.status != HandoffStatus::Failed;
        let receipt =
            Receipt { id: call_id.to_owned(), name: waiting[place].name.clone(), ok, observation: String::new() };
        if let Some(id) = &delegation.todo_id {
            self.attach(id, &receipt);
            self.settle_item(id, capsule.status, call_id, iteration, now);
        }
        let result = ToolResult {
            id: call_id.to_owned(),
            output: Value::String(capsule.text.clone().into()),
            stderr: None,
            is_error: capsule.status == HandoffStatus::Failed,
            duration_ms: None,
            exit_code: None,
        };
        let mut messages = vec![self.record_result(result, place, iteration, now)];
        let recorded = self.turn.as_ref().and_then(|t| t.receipts.last().cloned());
        if let (Some(id), Some(receipt)) = (&delegation.todo_id, recorded) {
            self.attach(id, &receipt);
        }
        self.emit(EventKind::DelegationEnded { call_id: call_id.to_owned(), status: capsule.status }, now);
        let complete = self.settle(&mut messages, iteration, now)?;
        Ok(DelegationOutcome { capsule, messages, complete, next: self.next_call(now) })
    }

    /// Moves todo item `id` as a child's capsule says: `done` completes it, `partial`
    /// and `blocked` leave it in progress, `failed` leaves it as it is; each with a note.
    fn settle_item(&mut self, id: &str, status: HandoffStatus, call_id: &str, iteration: u32, now: f64) {
        let before = self.planner.todos().to_vec();
        let Some(at) = before.iter().position(|t| t.id == id) else { return };
        let mut todos = before.clone();
        let item = &mut todos[at];
        item.status = match (status, item.status) {
            (HandoffStatus::Done, _) => TodoStatus::Completed,
            (HandoffStatus::Partial | HandoffStatus::Blocked, TodoStatus::Pending) => TodoStatus::InProgress,
            (_, same) => same,
        };
        let note = cap(&delegation::settled_note(self.config.language, call_id, status.as_str()), 200);
        self.log.record_plan_note(&format!("{id}: {note}"), iteration, now);
        let focus = self.planner.snapshot().focus.clone();
        self.planner.replace(WriteTodos { todos, focus, note: Some(note) }, now);
        self.todos_replaced(self.todo_tool, &before, iteration, now);
    }

    /// The child (at any depth) whose pending proposal `action_id` is.
    fn holder(&mut self, action_id: &str) -> Option<&mut Child> {
        self.children.iter_mut().find(|c| c.session.holds(action_id))
    }

    fn holds(&self, action_id: &str) -> bool {
        self.proposals().iter().any(|p| p.action_id == action_id)
    }

    /// `approve` or `reject` (`resolve`) for a proposal of a child, when one of this
    /// session's children (at any depth) holds it: the child resumes, and the outcome
    /// names it.
    pub(super) fn resolve_in_child(
        &mut self,
        action_id: &str,
        resolve: impl FnOnce(&mut Session) -> Result<ApprovalOutcome>,
    ) -> Option<Result<ApprovalOutcome>> {
        let child = self.holder(action_id)?;
        let call_id = child.call_id.clone();
        Some(resolve(&mut child.session).map(|outcome| named(outcome, call_id)))
    }

    /// The pending proposals of this session's children, at any depth.
    pub(super) fn children_proposals(&self) -> impl Iterator<Item = &Proposal> {
        self.children.iter().flat_map(|c| c.session.proposals())
    }
}

/// An outcome of a child's approval, naming the child whose decision `resumed` is (the
/// deepest one, when it came from further down).
fn named(mut outcome: ApprovalOutcome, call_id: String) -> ApprovalOutcome {
    outcome.delegation.get_or_insert(call_id);
    outcome
}
