//! Codex's `update_plan`: `{explanation?, plan: [{step, status}]}`, the whole plan each
//! time.

use schemars::JsonSchema;

use super::{Effect, MAX_TODOS};
use crate::json::from_value::struct_from_value;
use crate::plan::todos::TodoStatus;

/// One step of Codex's `update_plan`.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct UpdatePlanStep {
    #[schemars(length(min = 1, max = 2000))]
    pub step: String,
    pub status: TodoStatus,
}

struct_from_value!(UpdatePlanStep { step, status });

/// Codex's `update_plan` arguments.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct UpdatePlanArgs {
    #[serde(default)]
    #[schemars(with = "String", length(max = 4000))]
    pub explanation: Option<String>,
    #[schemars(length(max = MAX_TODOS))]
    pub plan: Vec<UpdatePlanStep>,
}

struct_from_value!(UpdatePlanArgs { explanation, plan });

/// The steps, the explanation as the list's note, and Codex's answer.
pub(super) fn read(args: UpdatePlanArgs) -> Effect {
    let items = args.plan.into_iter().map(|s| (None, s.step, s.status)).collect();
    Effect::List(items, args.explanation, "Plan updated".to_owned())
}
