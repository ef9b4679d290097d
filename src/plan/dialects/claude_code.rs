//! Claude Code's `TodoWrite`, every generation: `{todos: [{content, status}]}` with an
//! `activeForm` (1.0.89 and after, the Agent SDK), an `id` (1.0.69–1.0.85), or an `id`
//! and a `priority` (up to 1.0.68); the whole list each time.

use schemars::JsonSchema;

use super::{Effect, MAX_TODOS};
use crate::json::from_value::struct_from_value;
use crate::plan::todos::TodoStatus;

/// Claude Code's answer to `TodoWrite` (since 1.0).
pub(super) const REPLY: &str = "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable";

/// One item of Claude Code's `TodoWrite`.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct TodoWriteItem {
    #[schemars(length(min = 1, max = 2000))]
    pub content: String,
    pub status: TodoStatus,
    /// The present-continuous form shown while the item is in progress.
    #[serde(default, rename = "activeForm")]
    #[schemars(with = "String", length(max = 2000))]
    pub active_form: Option<String>,
    /// Older versions of the tool carried ids.
    #[serde(default)]
    #[schemars(with = "String", length(max = 200))]
    pub id: Option<String>,
    /// Versions up to 1.0.68 (and Factory Droid) carry a priority: high, medium, low.
    #[serde(default)]
    #[schemars(with = "String", length(max = 200))]
    pub priority: Option<String>,
}

struct_from_value!(TodoWriteItem { content, status, active_form as "activeForm", id, priority });

/// Claude Code's `TodoWrite` arguments.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct TodoWriteArgs {
    #[schemars(length(max = MAX_TODOS))]
    pub todos: Vec<TodoWriteItem>,
}

struct_from_value!(TodoWriteArgs { todos });

/// The list, and Claude Code's answer.
pub(super) fn read(args: TodoWriteArgs) -> Effect {
    Effect::replace(args.todos.into_iter().map(|t| (t.id, t.content, t.status)).collect(), REPLY)
}
