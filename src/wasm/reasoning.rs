//! `ReasoningLog` for JS.

use wasm_bindgen::prelude::*;

use super::convert::{boolean, input, object, options, string, time, to_js, whole, whole_or, Throw};
use crate::plan::planner::{PlannerSnapshot, PLANNER_SNAPSHOT_SCHEMA};
use crate::text::reflection::DEFAULT_MAX_CHARS;
use crate::trail::reasoning::{self, HISTORY_OPTIONS_SCHEMA};

/// The `[Plan]`/`[Act]`/`[Obs]`/`[Reflect]` trail of an agent run.
#[wasm_bindgen(js_name = ReasoningLog)]
pub struct ReasoningLog(reasoning::ReasoningLog);

#[wasm_bindgen(js_class = ReasoningLog)]
impl ReasoningLog {
    /// `options`: `{mode?: "rolling" | "full", size?: number}` (rolling, 4 by default).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = options, unchecked_optional_param_type = "HistoryOptions")] history: JsValue,
    ) -> Result<ReasoningLog, JsValue> {
        Ok(ReasoningLog(reasoning::ReasoningLog::new(options(history, "options", HISTORY_OPTIONS_SCHEMA)?)))
    }

    /// `[Plan] 2/4 done · now: <id>`, from `planner.snapshot()`.
    #[wasm_bindgen(js_name = recordPlan, unchecked_return_type = "ReasoningEvent")]
    pub fn record_plan(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "PlannerSnapshot")] snapshot: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] iteration: JsValue,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let snapshot: PlannerSnapshot = object(snapshot, "snapshot", PLANNER_SNAPSHOT_SCHEMA)?;
        let (iteration, now_ms) = (whole(iteration, "iteration", 0, u32::MAX)?, time(now_ms, "nowMs")?);
        to_js(self.0.record_plan(&snapshot.todos, iteration, now_ms))
    }

    /// `[Act] tool("primary argument")`; `args` is the call's arguments, as an object or
    /// its JSON text.
    #[wasm_bindgen(js_name = recordAct, unchecked_return_type = "ReasoningEvent")]
    pub fn record_act(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] tool: JsValue,
        #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] iteration: JsValue,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (tool, args) = (string(tool, "tool")?, input(args)?);
        let (iteration, now_ms) = (whole(iteration, "iteration", 0, u32::MAX)?, time(now_ms, "nowMs")?);
        to_js(self.0.record_act(&tool, &args, iteration, now_ms).throw()?)
    }

    /// `[Obs] tool ok: <first line>` or `[Obs] tool failed: <first line>`.
    #[wasm_bindgen(js_name = recordObs, unchecked_return_type = "ReasoningEvent")]
    pub fn record_obs(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] tool: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] output: JsValue,
        #[wasm_bindgen(js_name = isError, unchecked_param_type = "boolean")] is_error: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] iteration: JsValue,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (tool, output, is_error) =
            (string(tool, "tool")?, string(output, "output")?, boolean(is_error, "isError")?);
        let (iteration, now_ms) = (whole(iteration, "iteration", 0, u32::MAX)?, time(now_ms, "nowMs")?);
        to_js(self.0.record_obs(&tool, &output, is_error, iteration, now_ms))
    }

    /// `[Reflect] <first visible sentence>`, or `null` when the text has none.
    #[wasm_bindgen(js_name = recordReflection, unchecked_return_type = "ReasoningEvent | null")]
    pub fn record_reflection(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] iteration: JsValue,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
        #[wasm_bindgen(js_name = maxChars, unchecked_optional_param_type = "number")] max_chars: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = string(text, "text")?;
        let (iteration, now_ms) = (whole(iteration, "iteration", 0, u32::MAX)?, time(now_ms, "nowMs")?);
        let max_chars = whole_or(max_chars, "maxChars", 1, 100_000, DEFAULT_MAX_CHARS as u32)?;
        to_js(&self.0.record_reflection(&text, max_chars as usize, iteration, now_ms))
    }

    /// The kept events, oldest first.
    #[wasm_bindgen(unchecked_return_type = "ReasoningEvent[]")]
    pub fn events(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0.events().collect::<Vec<_>>())
    }

    /// The kept events as tagged display lines, oldest first.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn steps(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0.steps())
    }

    /// Forgets every event.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}
