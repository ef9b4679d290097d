//! Tool results: matched to the calls they answer, each one written as the message the
//! model reads, and the batch closed with a stuck nudge or a reminder when its last
//! result is in.

use crate::error::issue::{first_issues, Issue, PathSegment};
use crate::error::{Error, Result};
use crate::json::value::Value;
use crate::json::write as json_text;
use crate::prompts::{self};
use crate::session::events::EventKind;
use crate::session::exchange::{Decision, ExitReason, ToolMessage, ToolResult};
use crate::session::stuck::Pattern;
use crate::sort::{places_by, repeats};
use crate::text::cap;

use super::evidence::OBSERVATION_KEPT;
use super::turn::{Receipt, RECEIPTS_KEPT};
use super::{approval, Pending, Session};

pub(super) const FINDINGS_KEPT: usize = 8;

pub(super) fn append(content: &str, addition: &str) -> String {
    match content.trim().is_empty() {
        true => addition.to_owned(),
        false => format!("{}\n\n{addition}", content.trim_end()),
    }
}

/// The waiting call each of `results` answers (its place in `pending`), or the refusal
/// that names what is wrong: a result for no waiting call, or for one answered already
/// (in an earlier batch, or earlier in this one). Found by sorting, n log n, where
/// comparing each result with every earlier one and every waiting call took seconds for
/// 30,000 unknown ids (and named each of them).
pub(super) fn answering(pending: &[Pending], results: &[ToolResult]) -> Result<Vec<usize>> {
    let ids: Vec<&str> = results.iter().map(|result| result.id.as_str()).collect();
    let repeated = repeats(&ids);
    // Equal ids sit together, the first waiting call of each first (as a search finds it).
    let waiting = places_by(pending.len(), |p| pending[p].id.as_str());
    let mut calls = Vec::with_capacity(results.len());
    // Each result at fault, and whether its id is of a waiting call.
    let mut problems = Vec::new();
    for (i, &id) in ids.iter().enumerate() {
        let at = waiting.partition_point(|&p| pending[p].id.as_str() < id);
        match waiting.get(at).copied().filter(|&p| pending[p].id == id) {
            Some(p) if !pending[p].answered && !repeated[i] => calls.push(p),
            call => problems.push((i, call.is_some())),
        }
    }
    if problems.is_empty() {
        return Ok(calls);
    }
    let issues = first_issues(problems.len(), &mut |k| {
        let (i, known) = problems[k];
        let id = &results[i].id;
        let problem = match known {
            false => format!("No tool call with id \"{id}\" is waiting for a result"),
            true => format!("The result for \"{id}\" was already given"),
        };
        Issue::custom(problem, vec![PathSegment::Index(i as u32), PathSegment::Key("id".into())])
    });
    Err(Error::invalid_argument("results", issues))
}

impl Session {
    /// Whether everything the last response asked for is done (results in, proposals
    /// resolved); if so the batch closes into the last of `messages`.
    pub(super) fn settle(&mut self, messages: &mut [ToolMessage], iteration: u32, now: f64) -> Result<bool> {
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

    /// The tool message for `result`, which answers the waiting call at `call` (see
    /// [`answering`]).
    pub(super) fn record_result(&mut self, result: ToolResult, call: usize, iteration: u32, now: f64) -> ToolMessage {
        let language = self.config.language;
        // The items this result is evidence for: those in progress where the call stood
        // in its reply, else those in progress as it comes in (a list riding on the call
        // may move them next).
        let found = self.turn.as_mut().and_then(|t| t.pending.get_mut(call));
        let (name, signature, approved, observed, made_during) = match found {
            Some(pending) => {
                pending.answered = true;
                let items = std::mem::take(&mut pending.items);
                (pending.name.clone(), pending.signature.clone(), pending.approved, pending.observed.take(), items)
            }
            None => (String::new(), String::new(), false, None, Vec::new()),
        };
        let working = if made_during.is_empty() { self.in_progress_ids() } else { made_during };
        // A todo tool's own call (observed) keeps a list: it is no evidence of work.
        let planner = observed.as_ref().is_some_and(|o| !o.dialect.is_parameter());
        if let Some(observed) = observed.filter(|_| !result.is_error) {
            let answer = match &result.output {
                Value::String(text) => text.as_ref(),
                _ => "",
            };
            self.follow(observed, answer, iteration, now);
        }
        let output = match result.output {
            Value::String(text) => text.into_owned(),
            Value::Undefined => String::new(),
            other => json_text::stringify(&other, self.decimals),
        };
        let (full, seen) = match (approved, result.stderr) {
            // The model reads the formatted result; the trail shows what the tool said.
            (true, stderr) => {
                let formatted =
                    approval::format_result(&name, &output, stderr.as_deref(), result.exit_code, result.duration_ms);
                (formatted, Some(output))
            }
            (false, Some(stderr)) if !stderr.trim().is_empty() => (format!("{output}\n{stderr}"), None),
            (false, _) => (output, None),
        };
        let limit = self.config.max_tool_output_chars as usize;
        // Characters are never more than bytes: counted only when the bytes are over.
        let over = (full.len() > limit).then(|| full.chars().count()).filter(|&total| total > limit);
        let content = match over {
            Some(total) => cap(&full, limit) + &prompts::truncated(language, limit, total),
            None => full,
        };
        let obs = self
            .log
            .record_obs(&name, seen.as_deref().unwrap_or(&content), result.is_error, iteration, now)
            .summary
            .clone();
        let receipt = Receipt {
            id: result.id.clone(),
            name: name.clone(),
            ok: !result.is_error,
            observation: cap(&obs, OBSERVATION_KEPT),
        };
        if self.findings.len() == FINDINGS_KEPT {
            self.findings.pop_front();
        }
        self.findings.push_back(obs);
        if !planner {
            for id in &working {
                self.attach(id, &receipt);
            }
        }
        if let Some(turn) = self.turn.as_mut() {
            if turn.receipts.len() == RECEIPTS_KEPT {
                turn.receipts.remove(0);
            }
            turn.receipts.push(receipt);
        }
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
    pub(super) fn note_stuck(&mut self, pattern: Pattern, now: f64) -> Option<Decision> {
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

    /// Adds to the last tool message of a batch: a stuck nudge, and the goal/plan
    /// reminder when it is due (seed 000 §3; see `reminder.rs`).
    pub(super) fn close_batch(
        &mut self,
        messages: &mut [ToolMessage],
        nudge: Option<String>,
        iteration: u32,
        now: f64,
    ) {
        let Some(last) = messages.last_mut() else { return };
        if let Some(nudge) = nudge {
            last.content = append(&last.content, &nudge);
        }
        if self.reminder_due(iteration) {
            let (goal, plan) = (self.goal(), self.plan_text());
            if !goal.trim().is_empty() && !plan.trim().is_empty() {
                last.content =
                    append(&last.content, &prompts::reminder(self.config.language, goal.trim(), plan.trim()));
                self.emit(EventKind::ReminderInjected {}, now);
                self.quiet_from(iteration);
            }
        }
    }
}
