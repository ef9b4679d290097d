//! A response's tool calls: planloop's own planner tools answered here (their arguments
//! checked against each tool's schema), the host's calls classified as reads to run or
//! writes to propose (their arguments as `arguments.rs` keeps them).

use crate::error::issue::{kept_issues, summarize, Issue};
use crate::error::{Error, Result};
use crate::json;
use crate::json::decimals::Decimals;
use crate::json::from_value::from_value;
use crate::json::value::Value;
use crate::json::write as json_text;
use crate::plan::dialects::{self, DialectArgs, Request};
use crate::plan::planner::PlannerAck;
use crate::plan::recorded::{PlanArgs, PlanProgressArgs, PlanState};
use crate::plan::todos::{self, Todo, TodoStatus, ToolArgs, WriteTodos};
use crate::prompts::{self};
use crate::session::approval::ToolClass;
use crate::session::config::{TodoDialect, TodoMode};
use crate::session::events::{EventKind, PauseReason};
use crate::session::exchange::{Decision, ToolCall, ToolCallInput, ToolMessage};
use crate::session::review::PlanReview;
use crate::sort::first_equals;
use crate::validate::compiled;
use crate::validate::schema::{self, Schema};

use super::arguments::{host_args, signature};
use super::reminder::Moved;
use super::turn::Observed;
use super::{review, Pending, Session};

/// The tools a session answers itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BuiltIn {
    Todos(TodoDialect),
    Plan,
    PlanProgress,
}

/// Validates a built-in tool's arguments (JSON text or a value) against its schema.
pub(super) fn validated(
    schema: &'static Schema,
    args: &Value<'_>,
    decimals: Decimals,
) -> Result<std::result::Result<Value<'static>, Vec<Issue>>> {
    match args {
        Value::String(text) => match json::parse(text.as_bytes(), decimals) {
            Ok(document) => schema::validate(schema, &*document, decimals),
            Err(e) => Ok(Err(vec![e.issue()])),
        },
        value => schema::validate(schema, value, decimals),
    }
}

pub(super) fn dialect_schema(dialect: TodoDialect) -> &'static Schema {
    match dialect {
        TodoDialect::WriteTodos => &compiled::WRITE_TODOS,
        TodoDialect::TodoWrite => &compiled::TODO_WRITE,
        TodoDialect::UpdatePlan => &compiled::UPDATE_PLAN,
        TodoDialect::UpdateTodoList => &compiled::UPDATE_TODO_LIST,
        TodoDialect::TaskTracker => &compiled::TASK_TRACKER,
        TodoDialect::GeminiWriteTodos => &compiled::GEMINI_WRITE_TODOS,
        TodoDialect::LangChainWriteTodos => &compiled::LANGCHAIN_WRITE_TODOS,
        TodoDialect::CursorTodoWrite => &compiled::CURSOR_TODO_WRITE,
        TodoDialect::OpenCodeTodoWrite => &compiled::OPENCODE_TODOWRITE,
        TodoDialect::DroidTodoWrite => &compiled::DROID_TODO_WRITE,
        TodoDialect::TaskCreate => &compiled::TASK_CREATE,
        TodoDialect::TaskUpdate => &compiled::TASK_UPDATE,
        TodoDialect::TaskList => &compiled::TASK_LIST,
        TodoDialect::TaskGet => &compiled::TASK_GET,
        TodoDialect::TaskProgress => &compiled::TASK_PROGRESS,
    }
}

pub(super) fn dialect_args(dialect: TodoDialect, value: Value<'static>) -> Result<DialectArgs> {
    Ok(match dialect {
        TodoDialect::TodoWrite => DialectArgs::TodoWrite(from_value(value)?),
        TodoDialect::UpdatePlan => DialectArgs::UpdatePlan(from_value(value)?),
        TodoDialect::UpdateTodoList => DialectArgs::UpdateTodoList(from_value(value)?),
        TodoDialect::TaskTracker => DialectArgs::TaskTracker(from_value(value)?),
        TodoDialect::GeminiWriteTodos => DialectArgs::GeminiWriteTodos(from_value(value)?),
        TodoDialect::LangChainWriteTodos => DialectArgs::LangChainWriteTodos(from_value(value)?),
        TodoDialect::CursorTodoWrite => DialectArgs::CursorTodoWrite(from_value(value)?),
        TodoDialect::OpenCodeTodoWrite => DialectArgs::OpenCodeTodoWrite(from_value(value)?),
        TodoDialect::DroidTodoWrite => DialectArgs::DroidTodoWrite(from_value(value)?),
        TodoDialect::TaskCreate => DialectArgs::TaskCreate(from_value(value)?),
        TodoDialect::TaskUpdate => DialectArgs::TaskUpdate(from_value(value)?),
        TodoDialect::TaskList => DialectArgs::TaskList(from_value(value)?),
        TodoDialect::TaskGet => DialectArgs::TaskGet(from_value(value)?),
        TodoDialect::TaskProgress => DialectArgs::TaskProgress(from_value(value)?),
        TodoDialect::WriteTodos => return Err(Error::internal("write_todos is not a dialect")),
    })
}

/// The reply to a built-in tool's invalid arguments: what is wrong (the first few problems,
/// then a count of the rest: a list of 200 bad items is not 200 lines to read).
pub(super) fn invalid_args(tool: &str, issues: Vec<Issue>) -> String {
    let named = summarize(&kept_issues(issues));
    format!("Invalid {tool} arguments; nothing was changed. Fix these and call {tool} again:\n{named}")
}

/// For each call, the first call of the same reply it repeats word for word (the
/// same tool, the same arguments), if any.
fn copies(calls: &[ToolCallInput], decimals: Decimals) -> Vec<Option<usize>> {
    // Most replies call each tool once: their arguments are not written out to compare.
    let names: Vec<&str> = calls.iter().map(|call| call.name.as_str()).collect();
    if first_equals(&names).iter().all(Option::is_none) {
        return vec![None; calls.len()];
    }
    let signatures: Vec<String> = calls.iter().map(|call| signature(&call.name, &call.args, decimals)).collect();
    first_equals(&signatures)
}

impl Session {
    /// The todo dialects planloop answers itself (all but the observed ones): the tools
    /// a session offers the model.
    pub fn answered_dialects(&self) -> Vec<TodoDialect> {
        let answered = |d: &TodoDialect| self.observed(*d).is_none() && !d.is_parameter();
        self.config.todo_dialects.iter().copied().filter(answered).collect()
    }

    /// Cline's `task_progress` checklist on a call's arguments, when that dialect is on,
    /// to follow once the call has run: the checklist says how things stand after the
    /// call, so a call that is rejected, fails or never runs changes nothing.
    pub(super) fn progress_of(&self, args: &Value<'_>) -> Option<Observed> {
        if !self.config.todo_dialects.contains(&TodoDialect::TaskProgress) {
            return None;
        }
        let Some(Value::String(progress)) = args.get("task_progress") else { return None };
        let args = Value::Object(vec![("task_progress".into(), Value::String(progress.to_string().into()))]);
        Some(Observed { dialect: TodoDialect::TaskProgress, args })
    }

    /// `dialect` when its calls are observed rather than answered (planloop always
    /// answers its own `write_todos`).
    fn observed(&self, dialect: TodoDialect) -> Option<TodoDialect> {
        let observe = self.config.todo_mode == TodoMode::Observe && dialect != TodoDialect::WriteTodos;
        observe.then_some(dialect)
    }

    /// Follows an observed todo call (or a checklist riding on a call) that its own tool
    /// answered without an error: the list becomes what the call made it. A call
    /// planloop cannot read (which the tool would have refused too), or a checklist with
    /// no items, changes nothing.
    pub(super) fn follow(&mut self, observed: Observed, answer: &str, iteration: u32, now: f64) {
        let dialect = observed.dialect;
        let read = validated(dialect_schema(dialect), &observed.args, self.decimals).ok().and_then(|valid| valid.ok());
        let Some(args) = read.and_then(|value| dialect_args(dialect, value).ok()) else { return };
        let request = dialects::request_answered(args, self.planner.todos(), Some(answer), self.decimals);
        let Ok(Request::Replace { todos, note, .. }) = request else { return };
        if dialect.is_parameter() && todos.is_empty() {
            return;
        }
        let before = self.planner.todos().to_vec();
        self.planner.replace(WriteTodos { todos, focus: None, note }, now);
        self.todos_replaced(dialect, &before, iteration, now);
    }

    pub(super) fn builtin(&self, name: &str) -> Option<BuiltIn> {
        match name {
            "plan" => Some(BuiltIn::Plan),
            "plan_progress" => Some(BuiltIn::PlanProgress),
            _ => TodoDialect::for_tool(name, &self.config.todo_dialects)
                .filter(|d| self.observed(*d).is_none())
                .map(BuiltIn::Todos),
        }
    }

    pub(super) fn run_tools(&mut self, calls: Vec<ToolCallInput>, iteration: u32, now: f64) -> Result<Decision> {
        // A model that sends the same call twice in one reply meant it once: a planner
        // call repeated word for word is taken once (not refused as two contradicting
        // plans), a write proposed once; each copy is answered as a copy of the first.
        let copies = copies(&calls, self.decimals);
        let names: Vec<&str> =
            calls.iter().zip(&copies).filter(|(_, copy)| copy.is_none()).map(|(c, _)| c.name.as_str()).collect();
        self.planner.record_iteration(&names);
        let batch = names.len();
        let reviewed_before = self.plan.is_some() || self.planner.snapshot().revision > 0;
        let mut replies = Vec::new();
        let mut host_calls = Vec::new();
        let mut review_asked = false;
        // Where each call's reply went, for the copies of a planner call.
        let mut reply_at = vec![None; calls.len()];
        // The items in progress at each call's place in the reply: what it is evidence
        // for (a list written after it in the same reply has moved on).
        let mut working = self.in_progress_ids();
        for (i, call) in calls.into_iter().enumerate() {
            match (self.builtin(&call.name), copies[i].and_then(|first| reply_at[first])) {
                (Some(_), Some(first)) => {
                    let first: &ToolMessage = &replies[first];
                    replies.push(self.copy_reply(call.id, call.name, &first.tool_call_id, first.is_error));
                }
                (Some(builtin), None) => {
                    let (reply, plan_made) = self.answer(builtin, call, batch, iteration, now)?;
                    review_asked |=
                        plan_made && self.config.plan_review.enabled && (builtin == BuiltIn::Plan || !reviewed_before);
                    reply_at[i] = Some(replies.len());
                    replies.push(reply);
                    working = self.in_progress_ids();
                }
                (None, _) => host_calls.push((i, call, working.clone())),
            }
        }
        if review_asked {
            return Ok(self.ask_review(host_calls.into_iter().map(|(_, call, _)| call).collect(), replies, now));
        }
        let mut calls = Vec::new();
        let mut delegations = Vec::new();
        let mut proposals = Vec::new();
        // The id of each call handed out as a proposal or a delegation: a copy of it in
        // this reply is answered as a copy, not asked about or started again.
        let mut handed_as: Vec<Option<String>> = vec![None; copies.len()];
        for (i, call, items) in host_calls {
            if let Some(first) = copies[i].and_then(|first| handed_as[first].clone()) {
                replies.push(self.copy_reply(call.id, call.name, &first, false));
                continue;
            }
            // A delegate call: the host runs it as a sub-agent, whose own calls are gated.
            let delegation = match self.delegates(&call.name) {
                false => None,
                true => match self.delegation(&call, now)? {
                    Ok(delegation) => Some(delegation),
                    Err(content) => {
                        replies.push(ToolMessage { tool_call_id: call.id, name: call.name, content, is_error: true });
                        continue;
                    }
                },
            };
            let args = host_args(call.args, self.decimals);
            let observed = TodoDialect::for_tool(&call.name, &self.config.todo_dialects).and_then(|d| self.observed(d));
            let (class, basis) = self.config.tools.classify(&call.name, &args, &self.grants);
            // Another agent's todo tool only keeps a list: it runs without asking.
            let class = if observed.is_some() || delegation.is_some() { ToolClass::Read } else { class };
            if class == ToolClass::Approve {
                handed_as[i] = Some(call.id.clone());
                proposals.push(self.propose(call.id, call.name, args, basis, iteration, now));
                continue;
            }
            self.log.record_act(&call.name, &&args, iteration, now, self.decimals)?;
            let signature = signature(&call.name, &args, self.decimals);
            let observed =
                observed.map(|dialect| Observed { dialect, args: args.clone() }).or_else(|| self.progress_of(&args));
            let pending = Pending {
                id: call.id.clone(),
                name: call.name.clone(),
                signature,
                approved: false,
                answered: false,
                observed,
                delegation: delegation.clone(),
                items,
            };
            self.turn_mut()?.pending.push(pending);
            match delegation {
                Some(delegation) => {
                    handed_as[i] = Some(call.id);
                    delegations.push(delegation);
                }
                None => calls.push(ToolCall { id: call.id, name: call.name, args }),
            }
        }
        if !proposals.is_empty() {
            let (steps_used, steps_remaining) =
                (self.turn.as_ref().map_or(0, super::Turn::used), self.steps_remaining());
            let pending_count = proposals.len() as u32;
            self.turn_mut()?.paused_at = Some(now);
            self.emit(
                EventKind::TurnPaused { reason: PauseReason::Approval, pending_count, steps_used, steps_remaining },
                now,
            );
            return Ok(Decision::AwaitApproval { proposals, calls, delegations, replies, steps_used, steps_remaining });
        }
        if calls.is_empty() && delegations.is_empty() {
            self.close_batch(&mut replies, None, iteration, now);
        }
        Ok(Decision::RunTools { calls, delegations, replies, next: self.next_call(now) })
    }

    /// The reply to call `id` (of tool `name`), which repeats call `first` of the same
    /// reply: answered as a copy of it (`is_error` as its answer is).
    fn copy_reply(&self, id: String, name: String, first: &str, is_error: bool) -> ToolMessage {
        let content = prompts::same_call(self.config.language, first);
        ToolMessage { tool_call_id: id, name, content, is_error }
    }

    /// Ends the step for the user to review the plan. Calls that would have run wait
    /// with it: they get a reply saying so.
    pub(super) fn ask_review(
        &mut self,
        host_calls: Vec<ToolCallInput>,
        mut replies: Vec<ToolMessage>,
        now: f64,
    ) -> Decision {
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
            expires_at_ms: (now + f64::from(self.config.plan_review.ttl_minutes) * 60_000.0).min(f64::MAX),
        };
        self.pending_review = Some(review.clone());
        self.emit(EventKind::PlanReviewRequested {}, now);
        let (steps_used, steps_remaining) = (self.turn.as_ref().map_or(0, super::Turn::used), self.steps_remaining());
        self.emit(
            EventKind::TurnPaused { reason: PauseReason::PlanReview, pending_count: 0, steps_used, steps_remaining },
            now,
        );
        self.end_turn(now);
        Decision::AwaitPlanReview { message: review::user_message(language, goal.trim(), plan.trim()), review, replies }
    }

    /// planloop's own answer to one of its built-in tools, and whether it recorded a plan
    /// or a todo list.
    pub(super) fn answer(
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
                (_, BuiltIn::Todos(TodoDialect::WriteTodos)) => json_text::to_string(&ack, self.decimals),
                (PlannerAck::Rejected(rejected), _) => rejected.message.clone(),
                (PlannerAck::Accepted(_), _) => String::new(),
            };
            return Ok(reply(content, true));
        }
        let language = self.config.language;
        match builtin {
            BuiltIn::Todos(TodoDialect::WriteTodos) => {
                let before = self.planner.todos().to_vec();
                // The full way, in every build (see `validate::write_todos::read`).
                let ack = match &call.args {
                    Value::String(text) => {
                        self.planner.apply_in_full(ToolArgs::<&Value>::Text(text.as_bytes()), now, self.decimals)?
                    }
                    args => self.planner.apply_in_full(ToolArgs::Value(args), now, self.decimals)?,
                };
                let accepted = matches!(ack, PlannerAck::Accepted(_));
                if accepted {
                    self.todos_replaced(TodoDialect::WriteTodos, &before, iteration, now);
                }
                let content = json_text::to_string(&ack, self.decimals);
                Ok(if accepted { made(content) } else { reply(content, true) })
            }
            BuiltIn::Todos(dialect) => {
                let args = match validated(dialect_schema(dialect), &call.args, self.decimals)? {
                    Ok(value) => dialect_args(dialect, value)?,
                    Err(issues) => return Ok(reply(invalid_args(dialect.tool_name(), issues), true)),
                };
                match dialects::request(args, self.planner.todos(), self.decimals) {
                    Err(message) => Ok(reply(message, true)),
                    Ok(Request::Answer(text)) => Ok(reply(text, false)),
                    Ok(Request::Replace { todos, note, reply: text }) => {
                        let before = self.planner.todos().to_vec();
                        self.planner.replace(WriteTodos { todos, focus: None, note }, now);
                        self.todos_replaced(dialect, &before, iteration, now);
                        Ok(made(text))
                    }
                }
            }
            BuiltIn::Plan => match validated(&compiled::PLAN, &call.args, self.decimals)? {
                Err(issues) => Ok(reply(invalid_args("plan", issues), true)),
                Ok(value) => {
                    let args: PlanArgs = from_value(value)?;
                    let plan = PlanState::new(args, self.plan.as_ref());
                    let (version, complexity) = (plan.version, plan.complexity);
                    let note = format!("plan v{version} ({}): {}", complexity.as_str(), plan.goal);
                    self.log.record_plan_note(&note, iteration, now);
                    self.plan = Some(plan);
                    self.turn_mut()?.continuations = 0;
                    self.moved(Moved::Recorded, iteration);
                    self.emit(EventKind::PlanUpdated { version, complexity }, now);
                    let follow_up = match complexity {
                        crate::plan::recorded::Complexity::Complex => " After each major step call plan_progress(); when every step is done call plan_progress(plan_status=\"completed\").",
                        crate::plan::recorded::Complexity::Simple => "",
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
                match validated(&compiled::PLAN_PROGRESS, &call.args, self.decimals)? {
                    Err(issues) => Ok(reply(invalid_args("plan_progress", issues), true)),
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
                        self.moved(Moved::Recorded, iteration);
                        self.emit(EventKind::PlanProgress { step_id, plan_completed }, now);
                        Ok(made(text))
                    }
                }
            }
        }
    }

    /// After any todo tool replaced the list: the trail, an event, and a re-plan reset
    /// when the new list re-opens work.
    pub(super) fn todos_replaced(&mut self, dialect: TodoDialect, before: &[Todo], iteration: u32, now: f64) {
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
        // The list moved on when an item changed status (or items came or went), not when
        // the same list was written again.
        let same = |a: &Todo, b: &Todo| a.id == b.id && a.status == b.status;
        if before.len() != after.len() || after.iter().zip(before).any(|(a, b)| !same(a, b)) {
            self.moved(Moved::Todos, iteration);
        }
        let after = self.planner.todos();
        self.log.record_plan(after, iteration, now);
        self.evidence_after(before, iteration, now);
        let revision = self.planner.snapshot().revision;
        let kind = EventKind::TodosUpdated {
            tool: dialect.tool_name().to_owned(),
            revision,
            completed: completed as u32,
            total: total as u32,
        };
        self.emit(kind, now);
    }
}
