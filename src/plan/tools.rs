//! The planner tools as LLM APIs take them: `{name, description, parameters}`.

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::json::decimals::Decimals;
use crate::json::value::Value;
use crate::plan::dialects;
use crate::plan::dialects::TodoDialect;
use crate::plan::recorded::{PLAN_DESCRIPTION, PLAN_PROGRESS_DESCRIPTION, PLAN_PROGRESS_SCHEMA, PLAN_SCHEMA};
use crate::plan::todos::{WRITE_TODOS_DESCRIPTION, WRITE_TODOS_SCHEMA};

/// A tool definition for OpenAI (`function`), Anthropic (`input_schema`) or LangChain.
#[derive(Debug, PartialEq, Serialize, JsonSchema)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    /// A JSON Schema (draft 2020-12) of the arguments.
    #[schemars(with = "crate::validate::schema::JsonSchemaObject")]
    pub parameters: Value<'static>,
}

/// The JSON Schema of `write_todos` arguments, as a value (its numbers read with
/// `decimals`, as those of every definition below).
pub fn write_todos_json_schema(decimals: Decimals) -> Result<Value<'static>> {
    schema_value(WRITE_TODOS_SCHEMA, decimals)
}

/// The `write_todos` tool, planloop's planner primitive.
pub fn tool_definitions(decimals: Decimals) -> Result<Vec<ToolDefinition>> {
    Ok(vec![definition("write_todos", WRITE_TODOS_DESCRIPTION, WRITE_TODOS_SCHEMA, decimals)?])
}

/// Every tool a session answers itself: the todo tools of its `dialects`, `plan` and
/// `plan_progress`.
pub fn session_tool_definitions(dialects: &[TodoDialect], decimals: Decimals) -> Result<Vec<ToolDefinition>> {
    let mut tools = Vec::new();
    for dialect in TodoDialect::ALL.into_iter().filter(|d| dialects.contains(d)) {
        tools.push(definition(
            dialect.tool_name(),
            dialects::description(dialect),
            dialects::schema(dialect),
            decimals,
        )?);
    }
    tools.push(definition("plan", PLAN_DESCRIPTION, PLAN_SCHEMA, decimals)?);
    tools.push(definition("plan_progress", PLAN_PROGRESS_DESCRIPTION, PLAN_PROGRESS_SCHEMA, decimals)?);
    Ok(tools)
}

fn definition(name: &str, description: &str, schema: &'static str, decimals: Decimals) -> Result<ToolDefinition> {
    let mut parameters = schema_value(schema, decimals)?;
    // Tool APIs take the schema of the arguments, without document-level keywords.
    if let Value::Object(members) = &mut parameters {
        members.retain(|(key, _)| key != "$schema" && key != "title");
    }
    Ok(ToolDefinition { name: name.to_owned(), description: description.trim_end().to_owned(), parameters })
}

fn schema_value(text: &'static str, decimals: Decimals) -> Result<Value<'static>> {
    crate::json::parse(text.as_bytes(), decimals)
        .map(|schema| schema.into_shallow())
        .map_err(|e| Error::internal(&e.message))
}
