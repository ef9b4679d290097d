//! Seed 000's `plan` and `plan_progress` tools: a goal and a prose plan, and the model's
//! own word that a step (or the whole plan) is done.
//!
//! A complex plan keeps a turn going until `plan_progress(plan_status="completed")`; a
//! simple plan changes nothing about when a turn ends. `plan_progress` must be called
//! alone and only after `plan`. (Seed 000 also exempts it from a "clarify" gate; planloop
//! has no clarify gate, so there is nothing to be exempt from.)

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::{enum_from_value, struct_from_value};
use crate::text::cap;

/// How much a task needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Complexity {
    /// One or two actions: the turn may end whenever the model answers.
    Simple,
    /// Several steps: the turn continues until plan_progress marks the plan completed.
    Complex,
}

enum_from_value!(Complexity, "lowercase" [Simple, Complex]);

impl Complexity {
    pub fn as_str(self) -> &'static str {
        match self {
            Complexity::Simple => "simple",
            Complexity::Complex => "complex",
        }
    }
}

/// The arguments of `plan`.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct PlanArgs {
    /// The goal in one line, as the user should see it.
    #[schemars(length(min = 1, max = 500))]
    pub overall_goal_ui: String,
    /// Your plan: the steps in order, one per line.
    #[schemars(length(min = 1, max = 4000))]
    pub internal_plan: String,
    /// simple: one or two actions. complex: several steps, tracked with plan_progress.
    pub complexity: Complexity,
}

struct_from_value!(PlanArgs { overall_goal_ui, internal_plan, complexity });

/// `plan_progress`'s only plan status: the whole plan is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PlanStatusArg {
    Completed,
}

enum_from_value!(PlanStatusArg, "lowercase"[Completed]);

/// The arguments of `plan_progress`; every one is optional.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct PlanProgressArgs {
    /// The id or name of the step just completed.
    #[serde(default)]
    #[schemars(with = "String", length(max = 200))]
    pub step_id: Option<String>,
    /// What that step accomplished, briefly.
    #[serde(default)]
    #[schemars(with = "String", length(max = 1000))]
    pub step_summary: Option<String>,
    /// The id or name of the step to do next.
    #[serde(default)]
    #[schemars(with = "String", length(max = 200))]
    pub next_step: Option<String>,
    /// "completed" once every step of the plan is done.
    #[serde(default)]
    #[schemars(with = "PlanStatusArg")]
    pub plan_status: Option<PlanStatusArg>,
}

struct_from_value!(PlanProgressArgs { step_id, step_summary, next_step, plan_status });

/// The JSON Schemas of the tools' arguments (generated; checked by a test).
pub const PLAN_SCHEMA: &str = include_str!("../schemas/plan.json");
pub const PLAN_PROGRESS_SCHEMA: &str = include_str!("../schemas/plan_progress.json");

/// The tools' descriptions for LLM APIs.
pub const PLAN_DESCRIPTION: &str = include_str!("../prompts/plan.md");
pub const PLAN_PROGRESS_DESCRIPTION: &str = include_str!("../prompts/plan_progress.md");

const STEPS_KEPT: usize = 50;

/// A step the model reported done.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord {
    #[schemars(required, transform = crate::validate::schema::nullable)]
    pub step_id: Option<String>,
    #[schemars(required, transform = crate::validate::schema::nullable)]
    pub summary: Option<String>,
}

struct_from_value!(StepRecord, "camelCase" { step_id, summary });

/// The plan of the session and what the model reported about it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanState {
    /// 1 for the first plan; each re-plan adds one.
    pub version: u32,
    pub goal: String,
    pub plan: String,
    pub complexity: Complexity,
    /// plan_progress(plan_status="completed") was called for this version.
    pub completed: bool,
    /// The steps reported done, oldest first (the last 50).
    pub steps_done: Vec<StepRecord>,
    #[schemars(required, transform = crate::validate::schema::nullable)]
    pub next_step: Option<String>,
}

struct_from_value!(PlanState, "camelCase" { version, goal, plan, complexity, completed, steps_done, next_step });

impl PlanState {
    /// A new plan, or a re-plan that replaces `previous`.
    pub fn new(args: PlanArgs, previous: Option<&PlanState>) -> Self {
        PlanState {
            version: previous.map_or(1, |p| p.version.saturating_add(1)),
            goal: args.overall_goal_ui,
            plan: args.internal_plan,
            complexity: args.complexity,
            completed: false,
            steps_done: Vec::new(),
            next_step: None,
        }
    }

    /// Whether a text-only reply must not end the turn yet.
    pub fn unfinished(&self) -> bool {
        self.complexity == Complexity::Complex && !self.completed
    }

    /// Records a `plan_progress` call and returns the reply for the model.
    pub fn record(&mut self, args: PlanProgressArgs) -> String {
        if args.step_id.is_some() && args.step_id == self.next_step {
            self.next_step = None;
        }
        if args.step_id.is_some() || args.step_summary.is_some() {
            if self.steps_done.len() == STEPS_KEPT {
                self.steps_done.remove(0);
            }
            self.steps_done.push(StepRecord {
                step_id: args.step_id.as_deref().map(|s| cap(s, 200)),
                summary: args.step_summary.as_deref().map(|s| cap(s, 1000)),
            });
        }
        if args.next_step.is_some() {
            self.next_step = args.next_step.as_deref().map(|s| cap(s, 200));
        }
        if args.plan_status == Some(PlanStatusArg::Completed) {
            self.completed = true;
            return format!(
                "Plan v{} marked completed after {} recorded steps. You may now give your final answer.",
                self.version,
                self.steps_done.len()
            );
        }
        let done = match &args.step_id {
            Some(step) => format!("Recorded: {step} done ({} steps so far).", self.steps_done.len()),
            None => format!("Progress recorded ({} steps so far).", self.steps_done.len()),
        };
        match &self.next_step {
            Some(next) => format!("{done} Next: {next}."),
            None => done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(complexity: Complexity) -> PlanArgs {
        PlanArgs { overall_goal_ui: "Ship".into(), internal_plan: "1. a\n2. b".into(), complexity }
    }

    fn progress(step: Option<&str>, done: bool) -> PlanProgressArgs {
        PlanProgressArgs {
            step_id: step.map(str::to_owned),
            step_summary: None,
            next_step: None,
            plan_status: done.then_some(PlanStatusArg::Completed),
        }
    }

    #[test]
    fn only_an_uncompleted_complex_plan_is_unfinished() {
        assert!(!PlanState::new(args(Complexity::Simple), None).unfinished());
        let mut complex = PlanState::new(args(Complexity::Complex), None);
        assert!(complex.unfinished());
        complex.record(progress(Some("a"), false));
        assert!(complex.unfinished());
        assert!(complex.record(progress(None, true)).contains("marked completed"));
        assert!(!complex.unfinished());
    }

    #[test]
    fn a_re_plan_is_a_new_version_and_not_completed() {
        let mut first = PlanState::new(args(Complexity::Complex), None);
        first.record(progress(Some("a"), true));
        let second = PlanState::new(args(Complexity::Complex), Some(&first));
        assert_eq!((second.version, second.completed, second.steps_done.len()), (2, false, 0));
    }

    #[test]
    fn reaching_the_announced_next_step_clears_it() {
        let mut plan = PlanState::new(args(Complexity::Complex), None);
        plan.record(PlanProgressArgs { next_step: Some("b".into()), ..progress(Some("a"), false) });
        assert_eq!(plan.record(progress(Some("b"), false)), "Recorded: b done (2 steps so far).");
        assert_eq!(plan.next_step, None);
    }

    #[test]
    fn the_step_record_is_bounded() {
        let mut plan = PlanState::new(args(Complexity::Complex), None);
        for i in 0..70 {
            plan.record(progress(Some(&format!("s{i}")), false));
        }
        assert_eq!(plan.steps_done.len(), STEPS_KEPT);
        assert_eq!(plan.steps_done[0].step_id.as_deref(), Some("s20"));
    }
}
