//! A goal beside the checklist: when the list is done and the model stops, the turn's
//! goal (a statement and acceptance criteria) can be checked before the turn ends:
//! `completion.verify: "nudge"` asks the model once to confirm each criterion with its
//! evidence, `"host"` hands a `verifyGoal` decision to the host, whose verdict finalizes
//! or sends the model back to re-plan (counted by the termination guard, so the loop
//! ends). `completion.requireEvidence` first asks once for the work behind items marked
//! completed with no receipt.

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::issue::{Issue, PathSegment};
use crate::error::{Error, Result};
use crate::json::from_value::struct_from_value;
use crate::plan::todos::TodoStatus;
use crate::prompts::goal as prompts;
use crate::session::config::Verify;
use crate::session::events::EventKind;
use crate::session::exchange::{ContinueReason, Decision, ExitReason};
use crate::text::{cap, over};

use super::Session;

/// The longest goal statement, and the most criteria and the longest of each.
pub const STATEMENT_MAX: usize = 2000;
pub const CRITERIA_MAX: usize = 8;
pub const CRITERION_MAX: usize = 500;
/// The longest verdict reason, and how much of it the model is shown.
pub const REASON_MAX: usize = 4000;
const REASON_SHOWN: usize = 500;

/// What the turn is for, beyond its checklist: checked when the list is done.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    #[schemars(length(min = 1, max = STATEMENT_MAX))]
    pub statement: String,
    /// What must hold for the goal to be met, each checked with evidence.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = CRITERIA_MAX), inner(length(min = 1, max = CRITERION_MAX)))]
    pub criteria: Vec<String>,
}

struct_from_value!(Goal { statement, criteria = Default::default() });

/// The host's answer to a `verifyGoal` decision.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Verdict {
    pub met: bool,
    /// Why not, for the model to re-plan by.
    #[serde(default)]
    #[schemars(with = "String", length(max = REASON_MAX))]
    pub reason: Option<String>,
}

struct_from_value!(Verdict { met, reason });

impl Goal {
    /// The goal's limits, checked where a host hands one over without its schema (the
    /// binding checks the schema first): `argument` names it.
    pub(super) fn check(&self, argument: &str) -> Result<()> {
        let path = |key: &str, index: Option<usize>| {
            let mut path = vec![PathSegment::Key("goal".into()), PathSegment::Key(key.into())];
            path.extend(index.map(|i| PathSegment::Index(i as u32)));
            path
        };
        let bad = |s: &str, max| s.trim().is_empty() || over(s, max);
        let wrong = if bad(&self.statement, STATEMENT_MAX) {
            Some(path("statement", None))
        } else if self.criteria.len() > CRITERIA_MAX {
            Some(path("criteria", None))
        } else {
            self.criteria.iter().position(|c| bad(c, CRITERION_MAX)).map(|i| path("criteria", Some(i)))
        };
        match wrong {
            None => Ok(()),
            Some(path) => {
                let why = "A goal has a statement of 1 to 2000 characters and at most 8 criteria of 1 to 500";
                Err(Error::invalid_argument(argument, vec![Issue::custom(why.to_owned(), path)]))
            }
        }
    }
}

impl Session {
    /// The model stopped with nothing unfinished: the turn ends with `answer`, unless
    /// evidence is missing or the goal is to be checked first (each asked once per turn;
    /// a host's check as often as it says the goal is not met, within the guard).
    pub(super) fn stop(&mut self, answer: String, out_of_budget: bool, now: f64) -> Decision {
        let verify = self.config.completion.verify;
        let Some(turn) = self.turn.as_ref() else { return self.finish(answer, ExitReason::FinalAnswer, now) };
        let (asked, nudged, goal) = (turn.evidence_nudges > 0, turn.goal_nudges > 0, turn.goal.is_some());
        let unbacked = self.unbacked();
        if self.config.completion.require_evidence && !asked && !unbacked.is_empty() && !out_of_budget {
            let message = prompts::evidence_missing(self.config.language, &unbacked);
            if let Some(turn) = self.turn.as_mut() {
                turn.evidence_nudges += 1;
            }
            self.emit(EventKind::EvidenceRequested { items: unbacked.len() as u32 }, now);
            return self.ask(ContinueReason::EvidenceMissing, message, answer, out_of_budget, now);
        }
        match verify {
            Verify::Nudge if goal && !nudged && !out_of_budget => {
                let message = self.goal_message(None);
                if let Some(turn) = self.turn.as_mut() {
                    turn.goal_nudges += 1;
                }
                self.emit(EventKind::GoalCheck { verify }, now);
                self.ask(ContinueReason::GoalCheck, message, answer, out_of_budget, now)
            }
            Verify::Host if goal => {
                let (goal, evidence) = (turn.goal.clone(), self.item_evidence());
                let Some(goal) = goal else { return self.finish(answer, ExitReason::FinalAnswer, now) };
                if let Some(turn) = self.turn.as_mut() {
                    turn.held = Some(answer.clone());
                }
                self.emit(EventKind::GoalCheck { verify }, now);
                Decision::VerifyGoal { goal, answer, evidence }
            }
            _ => self.finish(answer, ExitReason::FinalAnswer, now),
        }
    }

    /// Takes the host's verdict on the goal of the last `verifyGoal` decision: met ends
    /// the turn with the answer held for it; not met sends the model back to re-plan,
    /// with the reason, as a nudge the termination guard counts (past it, the turn ends
    /// as `safety_valve`).
    pub fn handle_verdict(&mut self, verdict: Verdict, now: f64) -> Result<Decision> {
        let held = match &self.turn {
            Some(turn) if turn.open => turn.held.clone(),
            _ => None,
        };
        let Some(answer) = held else {
            return Err(Error::invalid_state("handleVerdict", "a verifyGoal decision waiting for its verdict"));
        };
        let reason = verdict.reason.as_deref().map(|r| cap(r.trim(), REASON_SHOWN));
        let (max, out_of_budget) = (self.config.max_plan_continuations, self.out_of_budget(now));
        let turn = self.turn_mut()?;
        turn.held = None;
        let unmet = turn.goal_unmet;
        if !verdict.met {
            turn.goal_unmet = unmet.saturating_add(1);
        }
        self.emit(EventKind::GoalVerdict { met: verdict.met, reason: reason.clone() }, now);
        if verdict.met {
            return Ok(self.finish(answer, ExitReason::FinalAnswer, now));
        }
        // Counted apart from the nudges too: a re-plan resets those, and a host that is
        // never satisfied must not keep the turn going.
        if unmet >= max {
            return Ok(self.finish(answer, ExitReason::SafetyValve, now));
        }
        let message = self.goal_message(Some(reason.as_deref().unwrap_or_default()));
        Ok(self.ask(ContinueReason::GoalUnmet, message, answer, out_of_budget, now))
    }

    /// A nudge (counted as any: see `nudge`) that says `message`.
    fn ask(
        &mut self,
        reason: ContinueReason,
        message: String,
        answer: String,
        out_of_budget: bool,
        now: f64,
    ) -> Decision {
        match self.nudge(reason, answer, out_of_budget, now) {
            Decision::Continue { reason, attempt, max_attempts, next, .. } => {
                Decision::Continue { message, reason, attempt, max_attempts, next }
            }
            ended => ended,
        }
    }

    /// The goal check for the model: the goal, its criteria, the evidence of each item;
    /// with `unmet`, the host's reason to re-plan.
    fn goal_message(&self, unmet: Option<&str>) -> String {
        let goal = self.turn.as_ref().and_then(|t| t.goal.as_ref());
        let (statement, criteria) = goal.map_or(("", &[][..]), |g| (g.statement.as_str(), g.criteria.as_slice()));
        let language = self.config.language;
        match unmet {
            None => prompts::goal_check(language, statement, criteria, &self.evidence_lines()),
            Some(reason) => prompts::goal_unmet(language, statement, criteria, reason),
        }
    }

    /// The completed items of the list no receipt backs.
    pub(super) fn unbacked(&self) -> Vec<String> {
        let todos = self.planner.todos();
        let unbacked = todos.iter().filter(|t| t.status == TodoStatus::Completed && self.receipts_of(&t.id).is_empty());
        unbacked.map(|t| t.content.clone()).collect()
    }
}
