//! The planner tools as LLM APIs take them: `{name, description, parameters}`.

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::todos::WRITE_TODOS_SCHEMA;
use crate::value::Value;

/// The `write_todos` description: its usage rules (seed 004 §5.4).
pub const WRITE_TODOS_DESCRIPTION: &str = include_str!("prompts/write_todos.md");

/// A tool definition for OpenAI (`function`), Anthropic (`input_schema`) or LangChain.
#[derive(Debug, PartialEq, Serialize, JsonSchema)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    /// A JSON Schema (draft 2020-12) of the arguments.
    #[schemars(with = "crate::schema::JsonSchemaObject")]
    pub parameters: Value<'static>,
}

/// The JSON Schema of `write_todos` arguments, as a value.
pub fn write_todos_json_schema() -> Result<Value<'static>> {
    crate::json::parse(WRITE_TODOS_SCHEMA.as_bytes())
        .map(|schema| schema.into_shallow())
        .map_err(|e| Error::internal(&e.message))
}

/// Every planner tool planloop answers itself.
pub fn tool_definitions() -> Result<Vec<ToolDefinition>> {
    let mut parameters = write_todos_json_schema()?;
    // Tool APIs take the schema of the arguments, without document-level keywords.
    if let Value::Object(members) = &mut parameters {
        members.retain(|(key, _)| key != "$schema" && key != "title");
    }
    Ok(vec![ToolDefinition {
        name: "write_todos".to_owned(),
        description: WRITE_TODOS_DESCRIPTION.trim_end().to_owned(),
        parameters,
    }])
}
