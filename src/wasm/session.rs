//! `Session` for JS.

use wasm_bindgen::prelude::*;

use super::convert::{json_text_of, object, options, string, time, to_js, Throw};
use crate::prompts::compose::PROMPT_PARTS_SCHEMA;
use crate::session::approval::{APPROVE_OPTIONS_SCHEMA, REJECT_OPTIONS_SCHEMA};
use crate::session::config::SESSION_CONFIG_SCHEMA;
use crate::session::exchange::{BEGIN_TURN_SCHEMA, MODEL_RESPONSE_SCHEMA, TOOL_RESULTS_SCHEMA};
use crate::{plan::tools, session};

/// The loop controller of one conversation (see the README for the drive loop).
#[wasm_bindgen(js_name = Session)]
pub struct Session(session::Session);

#[wasm_bindgen(js_class = Session)]
impl Session {
    /// A session; every key of `config` is optional (see `SessionConfig`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = config, unchecked_optional_param_type = "SessionConfig")] config: JsValue,
    ) -> Result<Session, JsValue> {
        Ok(Session(session::Session::new(options(config, "config", SESSION_CONFIG_SCHEMA)?)))
    }

    /// A session from a snapshot (the object `snapshot()` returned, or its JSON text).
    /// A snapshot that is not sound is refused with `invalid_snapshot`.
    pub fn restore(
        #[wasm_bindgen(unchecked_param_type = "SessionSnapshot | string")] snapshot: JsValue,
    ) -> Result<Session, JsValue> {
        Ok(Session(session::Session::restore_json(&json_text_of(snapshot)?).throw()?))
    }

    /// Everything the session needs to go on, as one JSON document: store it anywhere.
    #[wasm_bindgen(unchecked_return_type = "SessionSnapshot")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0.snapshot().throw()?)
    }

    /// The plan tracked from the model's `[Step]` lines (seed 001's `plan.json`), or `null`.
    #[wasm_bindgen(js_name = stepPlan, unchecked_return_type = "StepPlan | null")]
    pub fn step_plan(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0.step_plan())
    }

    /// The system prompt for the next model call (see `composePrompt`): `parts` are the
    /// host's (`base`, `components`, `features`, `values`); the session adds its language,
    /// the current-plan block, the budget line and, when on, the continuation protocol.
    #[wasm_bindgen(js_name = systemPrompt, unchecked_return_type = "Composed")]
    pub fn system_prompt(
        &self,
        #[wasm_bindgen(unchecked_param_type = "PromptParts")] parts: JsValue,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (parts, now_ms) = (options(parts, "parts", PROMPT_PARTS_SCHEMA)?, time(now_ms, "nowMs")?);
        to_js(&self.0.system_prompt(parts, now_ms).throw()?)
    }

    /// Starts a turn with a user message. A plan review waiting for this user and chat
    /// (in this session, or passed as `review`) makes the message feedback on the plan.
    #[wasm_bindgen(js_name = beginTurn, unchecked_return_type = "TurnStart")]
    pub fn begin_turn(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "BeginTurn")] input: JsValue,
    ) -> Result<JsValue, JsValue> {
        to_js(&self.0.begin_turn(object(input, "input", BEGIN_TURN_SCHEMA)?).throw()?)
    }

    /// Approves a proposal (`options`: `{editedArgs?, scope?: "once" | "always"}`). When it
    /// was the last one waiting, `resumed` says how the turn goes on.
    #[wasm_bindgen(unchecked_return_type = "ApprovalOutcome")]
    pub fn approve(
        &mut self,
        #[wasm_bindgen(js_name = actionId, unchecked_param_type = "string")] action_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ApproveOptions | undefined")] approval: JsValue,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (action_id, now_ms) = (string(action_id, "actionId")?, time(now_ms, "nowMs")?);
        let approval = options(approval, "options", APPROVE_OPTIONS_SCHEMA)?;
        to_js(&self.0.approve(&action_id, approval, now_ms).throw()?)
    }

    /// Rejects a proposal (`options`: `{message?}`, which the model reads).
    #[wasm_bindgen(unchecked_return_type = "ApprovalOutcome")]
    pub fn reject(
        &mut self,
        #[wasm_bindgen(js_name = actionId, unchecked_param_type = "string")] action_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RejectOptions | undefined")] rejection: JsValue,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (action_id, now_ms) = (string(action_id, "actionId")?, time(now_ms, "nowMs")?);
        let rejection = options(rejection, "options", REJECT_OPTIONS_SCHEMA)?;
        to_js(&self.0.reject(&action_id, rejection, now_ms).throw()?)
    }

    /// The proposals of the open turn, as they stand.
    #[wasm_bindgen(unchecked_return_type = "Proposal[]")]
    pub fn proposals(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0.proposals())
    }

    /// Takes a model response and says what to do next.
    #[wasm_bindgen(js_name = handleModelResponse, unchecked_return_type = "Decision")]
    pub fn handle_model_response(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ModelResponse")] response: JsValue,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (response, now_ms) = (object(response, "response", MODEL_RESPONSE_SCHEMA)?, time(now_ms, "nowMs")?);
        to_js(&self.0.handle_model_response(response, now_ms).throw()?)
    }

    /// Takes results of the calls the last `runTools` handed out; returns the tool
    /// messages to append.
    #[wasm_bindgen(js_name = handleToolResults, unchecked_return_type = "ToolResultsOutcome")]
    pub fn handle_tool_results(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ToolResult[]")] results: JsValue,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (results, now_ms) = (object(results, "results", TOOL_RESULTS_SCHEMA)?, time(now_ms, "nowMs")?);
        to_js(&self.0.handle_tool_results(results, now_ms).throw()?)
    }

    /// The events since the last call, oldest first.
    #[wasm_bindgen(js_name = drainEvents, unchecked_return_type = "Event[]")]
    pub fn drain_events(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.0.drain_events())
    }

    /// The current todo list.
    #[wasm_bindgen(unchecked_return_type = "Todo[]")]
    pub fn todos(&self) -> Result<JsValue, JsValue> {
        to_js(self.0.todos())
    }

    /// The plan recorded with `plan`, or `null`.
    #[wasm_bindgen(unchecked_return_type = "PlanState | null")]
    pub fn plan(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0.plan())
    }

    /// How far the work has come.
    #[wasm_bindgen(unchecked_return_type = "Progress")]
    pub fn progress(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0.progress())
    }

    /// A bounded summary of the session for a parent agent.
    #[wasm_bindgen(unchecked_return_type = "ContextCapsule")]
    pub fn capsule(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0.capsule())
    }

    /// The reasoning trail as tagged lines (`[Plan]`, `[Act]`, `[Obs]`, `[Reflect]`).
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn steps(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0.steps())
    }

    /// The reasoning trail as events.
    #[wasm_bindgen(unchecked_return_type = "ReasoningEvent[]")]
    pub fn reasoning(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0.reasoning().collect::<Vec<_>>())
    }

    /// The tools this session answers itself, to offer the model next to the host's.
    #[wasm_bindgen(js_name = toolDefinitions, unchecked_return_type = "ToolDefinition[]")]
    pub fn tool_definitions(&self) -> Result<JsValue, JsValue> {
        to_js(&tools::session_tool_definitions(&self.0.config().todo_dialects).throw()?)
    }
}
