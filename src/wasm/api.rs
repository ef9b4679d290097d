//! The free functions: write_todos validation, schemas, reflection, capsules, prompts.

use wasm_bindgen::prelude::*;

use super::convert::{object, options, string, to_js, whole_or, Throw};
use super::js_input::ToolArgs;
use crate::prompts::compose::{compose, COMPOSE_INPUT_SCHEMA};
use crate::text::reflection::{extract_reflection, DEFAULT_MAX_CHARS};
use crate::trail::capsule::{ContextCapsule, CONTEXT_CAPSULE_INPUT_SCHEMA};
use crate::{plan::todos, plan::tools};

/// Validates `write_todos` arguments exactly as zod 4's `safeParse` would for the tool's
/// schema. `args` may be the raw JSON text of a tool call; text that is not JSON gives
/// one `invalid_json` issue.
#[wasm_bindgen(js_name = validateWriteTodos, unchecked_return_type = "WriteTodosValidation")]
pub fn validate_write_todos(
    #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
) -> Result<JsValue, JsValue> {
    let args = ToolArgs::new(args).throw()?;
    let validation = todos::validate(args.args()).throw()?;
    to_js(&validation)
}

/// The JSON Schema of `write_todos` arguments (draft 2020-12).
#[wasm_bindgen(js_name = writeTodosJsonSchema, unchecked_return_type = "JsonSchema")]
pub fn write_todos_json_schema() -> Result<JsValue, JsValue> {
    to_js(&tools::write_todos_json_schema().throw()?)
}

/// The planner tools planloop answers itself, as `{name, description, parameters}`.
#[wasm_bindgen(js_name = toolDefinitions, unchecked_return_type = "ToolDefinition[]")]
pub fn tool_definitions() -> Result<JsValue, JsValue> {
    to_js(&tools::tool_definitions().throw()?)
}

/// One sentence of the visible text, capped at `maxChars` code points (default 160);
/// `null` when the text has none. Hidden reasoning (`<think>…</think>` and the like) is
/// never returned.
#[wasm_bindgen(js_name = extractReflection, unchecked_return_type = "string | null")]
pub fn extract_reflection_js(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(js_name = maxChars, unchecked_optional_param_type = "number")] max_chars: JsValue,
) -> Result<JsValue, JsValue> {
    let text = string(text, "text")?;
    let max_chars = whole_or(max_chars, "maxChars", 1, 100_000, DEFAULT_MAX_CHARS as u32)?;
    to_js(&extract_reflection(&text, max_chars as usize))
}

/// Builds a `ContextCapsule`, cutting every list and string to its cap.
#[wasm_bindgen(js_name = contextCapsule, unchecked_return_type = "ContextCapsule")]
pub fn context_capsule(
    #[wasm_bindgen(js_name = input, unchecked_param_type = "ContextCapsuleInput")] input_value: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&ContextCapsule::new(object(input_value, "input", CONTEXT_CAPSULE_INPUT_SCHEMA)?))
}

/// Composes a system prompt: the agent's own prompt, then planloop's parts and the
/// user's components in a fixed order, with `{{{key}}}` values filled in. A broken rule
/// (a misspelt toggle, `core: false`, a duplicate name) is an `invalid_options` error.
#[wasm_bindgen(js_name = composePrompt, unchecked_return_type = "Composed")]
pub fn compose_prompt(
    #[wasm_bindgen(js_name = input, unchecked_param_type = "ComposeInput")] input_value: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&compose(&options(input_value, "input", COMPOSE_INPUT_SCHEMA)?).throw()?)
}
