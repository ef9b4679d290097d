//! How a turn goes on or ends: a nudge to continue, a final answer, a stop at a limit,
//! and what the next model call may do.

use crate::plan::recorded::PlanState;
use crate::plan::steps::PlanStatus;
use crate::plan::todos::TodoStatus;
use crate::prompts::{self, FinishBy, Limit};
use crate::session::config::{Language, OnLimit};
use crate::session::events::{EventKind, PauseReason};
use crate::session::exchange::{ContinueReason, Decision, ExitReason, NextCall};
use crate::session::stuck::Pattern;
use crate::session::turn::{EndedAs, Ending, LAST_WORDS_KEPT};
use crate::text::cap;

use super::Session;

impl Session {
    /// Asks the model to go on, or ends the turn when it may not.
    pub(super) fn nudge(&mut self, reason: ContinueReason, answer: String, out_of_budget: bool, now: f64) -> Decision {
        if out_of_budget {
            let timed_out = self.turn.as_ref().is_some_and(|t| t.elapsed(now) >= f64::from(self.config.timeout_ms));
            let exit = match (timed_out, self.tokens_left() == Some(0)) {
                (true, _) => ExitReason::Timeout,
                (false, true) => ExitReason::BudgetExhausted,
                (false, false) => ExitReason::MaxIterations,
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
                    (false, true) if self.todo_tool.is_parameter() => FinishBy::Checklist,
                    (false, true) => FinishBy::Todos(self.todo_tool.tool_name()),
                    (false, false) => FinishBy::Steps,
                };
                let text_length = answer.chars().count() as u32;
                self.emit(EventKind::PlanContinuation { attempt, max_attempts, text_length }, now);
                prompts::continuation(language, self.plan_text().trim(), self.goal().trim(), finish)
            }
            ContinueReason::ContinuationSignal => prompts::carry_on(language),
            ContinueReason::EmptyReply => prompts::empty_reply(language),
            ContinueReason::CutOffToolCall => prompts::cut_off_call(language),
            ContinueReason::ToolCallAsText => prompts::call_as_text(language),
            ContinueReason::Stuck => {
                prompts::stuck(language, &Pattern::SameText { times: self.config.stuck.same_text }.describe())
            }
            // (Their callers say them: see `goal.rs`.)
            ContinueReason::GoalCheck | ContinueReason::GoalUnmet | ContinueReason::EvidenceMissing => String::new(),
        };
        Decision::Continue { message, reason, attempt, max_attempts, next: self.next_call(now) }
    }

    /// Whether the open turn has nothing left to go on with at `now`: its model calls,
    /// its time or its tokens spent (a nudge then ends it at that limit).
    pub(super) fn out_of_budget(&self, now: f64) -> bool {
        let (max, timeout) = (self.config.max_iterations, f64::from(self.config.timeout_ms));
        let turn_spent = self.turn.as_ref().is_some_and(|t| t.used() >= max || t.elapsed(now) >= timeout);
        turn_spent || self.tokens_left() == Some(0)
    }

    pub(super) fn finish(&mut self, answer: String, exit_reason: ExitReason, now: f64) -> Decision {
        let unfinished = self.unfinished();
        self.set_step_plan_status(if unfinished { PlanStatus::Paused } else { PlanStatus::Completed });
        self.record_ending(EndedAs::Finalized, &answer);
        let iterations = self.end_turn(now);
        self.emit(EventKind::TurnCompleted { exit_reason, iterations }, now);
        Decision::Finalize { answer, exit_reason }
    }

    /// Ends the turn at a limit: paused (plan kept) or failed, with a progress summary.
    pub(super) fn limit(&mut self, exit_reason: ExitReason, now: f64) -> Decision {
        let elapsed_ms = self.turn.as_ref().map_or(0.0, |t| t.elapsed(now));
        self.emit(EventKind::LimitReached { exit_reason, elapsed_ms }, now);
        let summary = self.summary(exit_reason);
        let ended_as = match self.config.on_limit {
            OnLimit::Pause => EndedAs::Paused,
            OnLimit::Fail => EndedAs::Failed,
        };
        self.record_ending(ended_as, &summary);
        let iterations = self.end_turn(now);
        self.set_step_plan_status(match self.config.on_limit {
            OnLimit::Pause => PlanStatus::Paused,
            OnLimit::Fail => PlanStatus::Failed,
        });
        match self.config.on_limit {
            OnLimit::Pause => {
                let steps_remaining = self.config.max_iterations.saturating_sub(iterations);
                let reason = match exit_reason {
                    ExitReason::Timeout => PauseReason::Timeout,
                    ExitReason::BudgetExhausted => PauseReason::BudgetExhausted,
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

    /// Keeps how the turn ended and its last words (the start of them), for a handoff.
    fn record_ending(&mut self, how: EndedAs, words: &str) {
        if let Some(turn) = self.turn.as_mut() {
            turn.ending = Some(Ending { how, words: cap(words, LAST_WORDS_KEPT) });
        }
    }

    pub(super) fn end_turn(&mut self, now: f64) -> u32 {
        self.close_books(now);
        match self.turn.as_mut() {
            Some(turn) => {
                turn.open = false;
                turn.pending.clear();
                // A closed turn's delegations can no longer be answered.
                self.children.clear();
                turn.used()
            }
            None => 0,
        }
    }

    /// What was done and what is next, for a turn stopped at a limit.
    pub(super) fn summary(&self, exit_reason: ExitReason) -> String {
        let language = self.config.language;
        let (done, next) = self.done_and_next();
        let limit = match exit_reason {
            ExitReason::Timeout => Limit::Time,
            ExitReason::BudgetExhausted => Limit::Tokens,
            _ => Limit::Iterations,
        };
        prompts::paused(language, prompts::limit_name(language, limit), &done, next.as_deref())
    }

    /// What the next model call may do at `now`: without tools on the turn's last
    /// iteration, past its time, or once stuck; and the budget line for the prompt.
    pub fn next_call(&self, now: f64) -> NextCall {
        let language: Language = self.config.language;
        let max = self.config.max_iterations;
        let (used, timed_out, stuck_out) = match &self.turn {
            Some(turn) => (turn.used(), turn.elapsed(now) >= f64::from(self.config.timeout_ms), turn.stuck_out),
            None => (0, false, false),
        };
        let iteration = used.saturating_add(1);
        let tokens_remaining = self.tokens_left();
        let tools_withheld = iteration >= max || timed_out || stuck_out || tokens_remaining == Some(0);
        let total = max.saturating_sub(1);
        let remaining = if tools_withheld { 0 } else { max.saturating_sub(iteration) };
        NextCall {
            iteration,
            tools_withheld,
            tool_rounds_remaining: remaining,
            budget_line: prompts::budget_line(language, remaining, total, tokens_remaining),
            tokens_remaining,
        }
    }
}
