//! `PlannerState` for JS.

use wasm_bindgen::prelude::*;

use super::convert::{input, options, time, to_js, Throw};
use super::js_input::ToolArgs;
use crate::plan::planner::{self, PLANNER_OPTIONS_SCHEMA};
use crate::validate::args;

/// The todo list a model keeps with `write_todos`, and the planner-overuse guard.
#[wasm_bindgen(js_name = PlannerState)]
pub struct PlannerState(planner::PlannerState);

#[wasm_bindgen(js_class = PlannerState)]
impl PlannerState {
    /// `options`: `{maxPlannerOnlyStreak?: number, plannerTools?: string[]}`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = options, unchecked_optional_param_type = "PlannerOptions")] planner_options: JsValue,
    ) -> Result<PlannerState, JsValue> {
        Ok(PlannerState(planner::PlannerState::new(options(planner_options, "options", PLANNER_OPTIONS_SCHEMA)?)))
    }

    /// Starts an iteration with the names of every tool the model called in it; the
    /// verdict says whether its planner calls will be refused.
    #[wasm_bindgen(js_name = recordIteration, unchecked_return_type = "IterationVerdict")]
    pub fn record_iteration(
        &mut self,
        #[wasm_bindgen(js_name = toolNames, unchecked_param_type = "string[]")] tool_names: JsValue,
    ) -> Result<JsValue, JsValue> {
        let names = args::names(input(tool_names)?, "toolNames", 1024).throw()?;
        to_js(&self.0.record_iteration(&names))
    }

    /// Applies one `write_todos` call (an object or its raw JSON text) and returns the ack
    /// to send back as the tool result.
    #[wasm_bindgen(js_name = applyWriteTodos, unchecked_return_type = "PlannerAck")]
    pub fn apply_write_todos(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (args, now_ms) = (ToolArgs::new(args).throw()?, time(now_ms, "nowMs")?);
        to_js(&self.0.apply_write_todos(args.args(), now_ms).throw()?)
    }

    /// `{revision, todos, focus, note, updatedAt}`.
    #[wasm_bindgen(unchecked_return_type = "PlannerSnapshot")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        to_js(self.0.snapshot())
    }
}
