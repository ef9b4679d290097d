//! `Session`: the loop controller. It answers the planner tools itself, refuses to end a
//! turn while the plan is unfinished, restates the goal and plan now and then, notices a
//! model going in circles, and stops a turn at its limits with an honest reason.
//!
//! It is a state machine driven by the host (see the crate docs for the contract): each
//! input either moves it forward or is refused with `invalid_state`, and a refused input
//! changes nothing.

use std::collections::VecDeque;

use crate::capsule::{ContextCapsule, ContextCapsuleInput};
use crate::config::{Language, OnLimit, SessionConfig, TodoDialect};
use crate::continuation::{self, ReportedProgress, Status};
use crate::dialects::{self, DialectArgs, Request};
use crate::error::{Error, Result};
use crate::events::{Event, EventKind, MAX_EVENTS};
use crate::exchange::{
    BeginTurn, ContinueReason, Decision, ExitReason, ModelResponse, NextCall, Progress, ProgressSource, ToolCall,
    ToolCallInput, ToolMessage, ToolResult, ToolResultsOutcome, TurnStart,
};
use crate::from_value::from_value;
use crate::issue::{summarize, Issue, PathSegment};
use crate::json;
use crate::json_text;
use crate::plan::{PlanArgs, PlanProgressArgs, PlanState, PLAN_PROGRESS_SCHEMA, PLAN_SCHEMA};
use crate::planner::{PlannerAck, PlannerOptions, PlannerState, PlannerToolName};
use crate::prompts::{self, FinishBy};
use crate::reasoning::{ReasoningEvent, ReasoningLog};
use crate::reflection::DEFAULT_MAX_CHARS;
use crate::schema;
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    AwaitingModel,
    AwaitingResults,
    Ended,
}

/// A call handed to the host, waiting for its result.
#[derive(Debug, Clone, PartialEq)]
struct Pending {
    id: String,
    name: String,
    /// The tool and its arguments as text, to recognise a repeated call.
    signature: String,
    answered: bool,
}

#[derive(Debug, Clone, PartialEq)]
struct Turn {
    number: u32,
    message: String,
    started_at: f64,
    iterations: u32,
    /// Nudges so far (plan continuations, empty replies, CONTINUE signals, stuck text).
    continuations: u32,
    stuck_nudges: u32,
    /// Stuck past its nudges: the next response ends the turn.
    stuck_out: bool,
    phase: Phase,
    pending: Vec<Pending>,
    /// A stuck nudge waiting for the last tool message of the batch.
    batch_nudge: Option<String>,
}

/// The loop controller of one conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    config: SessionConfig,
    planner: PlannerState,
    plan: Option<PlanState>,
    /// The todo tool the model used last, named when it is asked to finish its list.
    todo_tool: &'static str,
    log: ReasoningLog,
    stuck: StuckDetector,
    events: VecDeque<Event>,
    turns: u32,
    turn: Option<Turn>,
    reported: Option<ReportedProgress>,
    findings: VecDeque<String>,
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
            todo_tool: "write_todos",
            log: ReasoningLog::new(config.history.clone()),
            stuck: StuckDetector::new(config.stuck.clone()),
            events: VecDeque::new(),
            turns: 0,
            turn: None,
            reported: None,
            findings: VecDeque::new(),
            config,
        }
    }

    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// Starts a turn with a user message. A turn still open is abandoned.
    pub fn begin_turn(&mut self, input: BeginTurn) -> Result<TurnStart> {
        let now = input.now_ms;
        if self.turn.as_ref().is_some_and(|t| t.phase != Phase::Ended) {
            self.emit(EventKind::TurnAbandoned {}, now);
        }
        self.turns = self.turns.saturating_add(1);
        self.turn = Some(Turn {
            number: self.turns,
            message: input.message.clone(),
            started_at: now,
            iterations: 0,
            continuations: 0,
            stuck_nudges: 0,
            stuck_out: false,
            phase: Phase::AwaitingModel,
            pending: Vec::new(),
            batch_nudge: None,
        });
        self.stuck.reset();
        self.emit(EventKind::TurnStarted {}, now);
        Ok(TurnStart { turn: self.turns, message: input.message, next: self.next_call(now) })
    }

    /// Takes a model response and decides what happens next.
    pub fn handle_model_response(&mut self, response: ModelResponse, now: f64) -> Result<Decision> {
        let turn = self.turn_in(Phase::AwaitingModel, "handleModelResponse")?;
        turn.iterations = turn.iterations.saturating_add(1);
        let (iteration, stuck_out) = (turn.iterations, turn.stuck_out);
        let timed_out = now - turn.started_at >= f64::from(self.config.timeout_ms);
        let withheld = iteration >= self.config.max_iterations;
        check_unique_ids(&response.tool_calls)?;

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
        } else if self.unfinished() {
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
        let turn = self.turn_in(Phase::AwaitingResults, "handleToolResults")?;
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
        let turn = self.turn_mut()?;
        let complete = turn.pending.iter().all(|p| p.answered);
        if complete {
            turn.pending.clear();
            turn.phase = Phase::AwaitingModel;
            let nudge = turn.batch_nudge.take();
            self.close_batch(&mut messages, nudge, iteration, now);
        }
        Ok(ToolResultsOutcome { messages, complete, next: self.next_call(now) })
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

    pub fn plan(&self) -> Option<&PlanState> {
        self.plan.as_ref()
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
            None => base,
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

    fn turn_in(&mut self, phase: Phase, call: &str) -> Result<&mut Turn> {
        let expected = match self.turn.as_ref().map(|t| t.phase) {
            Some(current) if current == phase => None,
            None | Some(Phase::Ended) => Some("no turn is open: call beginTurn first"),
            Some(Phase::AwaitingResults) => Some("tool results are awaited: call handleToolResults first"),
            Some(Phase::AwaitingModel) => Some("no tool results are awaited: call handleModelResponse"),
        };
        match expected {
            Some(expected) => Err(Error::invalid_state(call, expected)),
            None => self.turn_mut(),
        }
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
        let mut replies = Vec::new();
        let mut host = Vec::new();
        for call in calls {
            match self.builtin(&call.name) {
                Some(builtin) => replies.push(self.answer(builtin, call, batch, iteration, now)?),
                None => {
                    let args = parsed_args(call.args);
                    self.log.record_act(&call.name, &&args, iteration, now)?;
                    let signature = format!("{} {}", call.name, json_text::stringify(&args));
                    self.turn_mut()?.pending.push(Pending {
                        id: call.id.clone(),
                        name: call.name.clone(),
                        signature,
                        answered: false,
                    });
                    host.push(ToolCall { id: call.id, name: call.name, args });
                }
            }
        }
        if host.is_empty() {
            self.close_batch(&mut replies, None, iteration, now);
        } else {
            self.turn_mut()?.phase = Phase::AwaitingResults;
        }
        Ok(Decision::RunTools { calls: host, replies, next: self.next_call(now) })
    }

    /// planloop's own answer to one of its built-in tools.
    fn answer(
        &mut self,
        builtin: BuiltIn,
        call: ToolCallInput,
        batch: usize,
        iteration: u32,
        now: f64,
    ) -> Result<ToolMessage> {
        let reply = |content: String, is_error: bool| ToolMessage {
            tool_call_id: call.id.clone(),
            name: call.name.clone(),
            content,
            is_error,
        };
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
                    self.todos_replaced("write_todos", &before, iteration, now);
                }
                let content = json_text::stringify(&crate::to_value::to_value(&ack)?);
                Ok(reply(content, !accepted))
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
                        self.todos_replaced(dialect.tool_name(), &before, iteration, now);
                        Ok(reply(text, false))
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
                    Ok(reply(format!("Plan v{version} recorded.{follow_up}"), false))
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
                        Ok(reply(text, false))
                    }
                }
            }
        }
    }

    /// After any todo tool replaced the list: the trail, an event, and a re-plan reset
    /// when the new list re-opens work.
    fn todos_replaced(&mut self, tool: &'static str, before: &[Todo], iteration: u32, now: f64) {
        self.todo_tool = tool;
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
            tool: tool.to_owned(),
            revision,
            completed: completed as u32,
            total: total as u32,
        };
        self.emit(kind, now);
    }

    fn record_result(&mut self, result: ToolResult, iteration: u32, now: f64) -> ToolMessage {
        let language = self.config.language;
        let (name, signature) = match self.turn.as_mut().and_then(|t| t.pending.iter_mut().find(|p| p.id == result.id))
        {
            Some(pending) => {
                pending.answered = true;
                (pending.name.clone(), pending.signature.clone())
            }
            None => (String::new(), String::new()),
        };
        let full = match result.output {
            Value::String(text) => text.into_owned(),
            other => json_text::stringify(&other),
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
            let exit = match self.turn.as_ref().is_some_and(|t| now - t.started_at >= f64::from(self.config.timeout_ms))
            {
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
                let finish = match self.plan.as_ref().is_some_and(PlanState::unfinished) {
                    true => FinishBy::PlanProgress,
                    false => FinishBy::Todos(self.todo_tool),
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
        let iterations = self.end_turn();
        self.emit(EventKind::TurnCompleted { exit_reason, iterations }, now);
        Decision::Finalize { answer, exit_reason }
    }

    /// Ends the turn at a limit: paused (plan kept) or failed, with a progress summary.
    fn limit(&mut self, exit_reason: ExitReason, now: f64) -> Decision {
        let elapsed_ms = self.turn.as_ref().map_or(0.0, |t| now - t.started_at);
        self.emit(EventKind::LimitReached { exit_reason, elapsed_ms }, now);
        let summary = self.summary(exit_reason == ExitReason::Timeout);
        let iterations = self.end_turn();
        match self.config.on_limit {
            OnLimit::Pause => {
                let steps_remaining = self.config.max_iterations.saturating_sub(iterations);
                self.emit(EventKind::TurnPaused { exit_reason, steps_used: iterations, steps_remaining }, now);
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
                turn.phase = Phase::Ended;
                turn.pending.clear();
                turn.iterations
            }
            None => 0,
        }
    }

    /// What was done and what is next, for a turn stopped at a limit.
    fn summary(&self, timeout: bool) -> String {
        let language = self.config.language;
        let todos = self.planner.todos();
        let (done, next) = match (&self.plan, todos.is_empty()) {
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
            (Some(plan), true) => (format!("{} recorded steps", plan.steps_done.len()), plan.next_step.clone()),
            (None, true) => ("no planned steps".to_owned(), None),
        };
        prompts::paused(language, prompts::limit_name(language, timeout), &done, next.as_deref())
    }

    fn unfinished(&self) -> bool {
        let todos_open = self.planner.todos().iter().any(|t| t.status != TodoStatus::Completed);
        todos_open || self.plan.as_ref().is_some_and(PlanState::unfinished)
    }

    /// The goal: the plan's, else the message that started the turn.
    fn goal(&self) -> String {
        match &self.plan {
            Some(plan) => plan.goal.clone(),
            None => self.turn.as_ref().map(|t| t.message.clone()).unwrap_or_default(),
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
        self.plan.as_ref().map(|p| p.plan.clone()).unwrap_or_default()
    }

    fn next_call(&self, now: f64) -> NextCall {
        let language: Language = self.config.language;
        let max = self.config.max_iterations;
        let (used, timed_out, stuck_out) = match &self.turn {
            Some(turn) => (turn.iterations, now - turn.started_at >= f64::from(self.config.timeout_ms), turn.stuck_out),
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

/// A call's arguments as the host should get them: JSON text parsed into its value.
fn parsed_args(args: Value<'static>) -> Value<'static> {
    let parsed = match &args {
        Value::String(text) => json::parse(text.as_bytes()).ok().and_then(|doc| shallow_copy(&doc)),
        _ => None,
    };
    parsed.unwrap_or(args)
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
