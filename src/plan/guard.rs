//! The planner-overuse guard (seed 004 §5.2): a model that keeps rewriting its todo
//! list without acting is told to execute the next step instead.
//!
//! The host records each iteration's tool names. An iteration is planner-only when it
//! has calls and every call is a planner tool. Up to `max_planner_only_streak` of those in
//! a row are allowed; the next ones are refused until an iteration calls a non-planner
//! tool, which resets the streak. An iteration with no calls (a text-only reply) neither
//! counts nor resets: it did not act. A planner tool called twice in one iteration is
//! refused both times, since the replies would contradict each other.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::{enum_from_value, struct_from_value};

/// Why the guard refuses the planner calls of an iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// Too many planner-only iterations in a row: act on the plan now.
    PlannerOveruseExecuteNextStep,
    /// The same planner tool was called more than once in one iteration.
    DuplicatePlannerCall,
}

impl Refusal {
    /// The code as JS reads it (serde writes the same).
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::PlannerOveruseExecuteNextStep => "planner_overuse_execute_next_step",
            Refusal::DuplicatePlannerCall => "duplicate_planner_call",
        }
    }
}

enum_from_value!(Refusal, "snake_case" [PlannerOveruseExecuteNextStep, DuplicatePlannerCall]);

/// The guard's reading of one iteration.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct IterationVerdict {
    /// 1 for the first recorded iteration.
    pub iteration: u32,
    /// Every call of this iteration was a planner tool.
    pub planner_only: bool,
    /// Planner-only iterations in a row, this one included.
    pub planner_only_streak: u32,
    /// Set when this iteration's planner calls are refused.
    pub refusal: Option<Refusal>,
}

#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OveruseGuard {
    max_planner_only_streak: u32,
    planner_tools: Vec<String>,
    iteration: u32,
    streak: u32,
    current: Option<Refusal>,
}

struct_from_value!(OveruseGuard, "camelCase" { max_planner_only_streak, planner_tools, iteration, streak, current });

impl OveruseGuard {
    pub fn new(max_planner_only_streak: u32, planner_tools: Vec<String>) -> Self {
        OveruseGuard { max_planner_only_streak, planner_tools, iteration: 0, streak: 0, current: None }
    }

    /// Whether `other` has the same limit and planner tools (its counts may differ).
    pub fn same_settings(&self, other: &OveruseGuard) -> bool {
        self.max_planner_only_streak == other.max_planner_only_streak && self.planner_tools == other.planner_tools
    }

    pub fn is_planner_tool(&self, name: &str) -> bool {
        self.planner_tools.iter().any(|t| t == name)
    }

    /// Starts a new iteration with the names of the tools the model called in it.
    pub fn record<S: AsRef<str>>(&mut self, tool_names: &[S]) -> IterationVerdict {
        self.iteration = self.iteration.saturating_add(1);
        let planner_only = !tool_names.is_empty() && tool_names.iter().all(|n| self.is_planner_tool(n.as_ref()));
        if planner_only {
            self.streak = self.streak.saturating_add(1);
        } else if !tool_names.is_empty() {
            self.streak = 0;
        }
        let duplicate = tool_names
            .iter()
            .enumerate()
            .any(|(i, n)| self.is_planner_tool(n.as_ref()) && tool_names[..i].iter().any(|m| m.as_ref() == n.as_ref()));
        self.current = if planner_only && self.streak > self.max_planner_only_streak {
            Some(Refusal::PlannerOveruseExecuteNextStep)
        } else if duplicate {
            Some(Refusal::DuplicatePlannerCall)
        } else {
            None
        };
        IterationVerdict {
            iteration: self.iteration,
            planner_only,
            planner_only_streak: self.streak,
            refusal: self.current,
        }
    }

    /// The refusal that applies to planner calls of the current iteration, if any.
    pub fn refusal(&self) -> Option<Refusal> {
        self.current
    }

    pub fn iteration(&self) -> u32 {
        self.iteration
    }

    pub fn max_planner_only_streak(&self) -> u32 {
        self.max_planner_only_streak
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_refusal_reads_as_serde_writes_it() {
        for refusal in [super::Refusal::PlannerOveruseExecuteNextStep, super::Refusal::DuplicatePlannerCall] {
            assert_eq!(serde_json::to_value(refusal).unwrap(), refusal.as_str());
        }
    }

    use super::*;

    fn guard() -> OveruseGuard {
        OveruseGuard::new(2, vec!["write_todos".into()])
    }

    #[test]
    fn the_third_planner_only_iteration_in_a_row_is_refused() {
        let mut g = guard();
        assert_eq!(g.record(&["write_todos"]).refusal, None);
        assert_eq!(g.record(&["write_todos"]).refusal, None);
        let third = g.record(&["write_todos"]);
        assert_eq!(third.refusal, Some(Refusal::PlannerOveruseExecuteNextStep));
        assert_eq!(third.planner_only_streak, 3);
        assert_eq!(g.record(&["write_todos"]).refusal, Some(Refusal::PlannerOveruseExecuteNextStep));
    }

    #[test]
    fn a_non_planner_call_resets_the_streak() {
        let mut g = guard();
        g.record(&["write_todos"]);
        g.record(&["write_todos"]);
        let mixed = g.record(&["write_todos", "search"]);
        assert!(!mixed.planner_only);
        assert_eq!((mixed.planner_only_streak, mixed.refusal), (0, None));
        assert_eq!(g.record(&["write_todos"]).refusal, None);
    }

    #[test]
    fn a_text_only_iteration_neither_counts_nor_resets() {
        let mut g = guard();
        g.record(&["write_todos"]);
        g.record(&["write_todos"]);
        let text_only = g.record::<&str>(&[]);
        assert_eq!((text_only.planner_only, text_only.planner_only_streak), (false, 2));
        assert_eq!(g.record(&["write_todos"]).refusal, Some(Refusal::PlannerOveruseExecuteNextStep));
    }

    #[test]
    fn two_planner_calls_in_one_iteration_are_refused() {
        let mut g = guard();
        let v = g.record(&["write_todos", "search", "write_todos"]);
        assert_eq!(v.refusal, Some(Refusal::DuplicatePlannerCall));
        assert_eq!(g.record(&["search", "search"]).refusal, None);
    }
}
