//! Gemini CLI's `write_todos`: `{todos: [{description, status}]}`, the whole list each
//! time, with five statuses; at most one task in progress, as Gemini CLI checks.

use schemars::JsonSchema;

use super::{Effect, Item, MAX_TODOS};
use crate::json::from_value::{enum_from_value, struct_from_value};
use crate::plan::todos::TodoStatus;

/// A task's status in Gemini CLI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GeminiStatus {
    Pending,
    InProgress,
    Completed,
    // Dropped: it counts as finished.
    Cancelled,
    // Waiting on something: not finished.
    Blocked,
}

enum_from_value!(GeminiStatus, "snake_case" [Pending, InProgress, Completed, Cancelled, Blocked]);

impl GeminiStatus {
    fn as_str(self) -> &'static str {
        match self {
            GeminiStatus::Pending => "pending",
            GeminiStatus::InProgress => "in_progress",
            GeminiStatus::Completed => "completed",
            GeminiStatus::Cancelled => "cancelled",
            GeminiStatus::Blocked => "blocked",
        }
    }

    fn todo_status(self) -> TodoStatus {
        match self {
            GeminiStatus::Pending | GeminiStatus::Blocked => TodoStatus::Pending,
            GeminiStatus::InProgress => TodoStatus::InProgress,
            GeminiStatus::Completed | GeminiStatus::Cancelled => TodoStatus::Completed,
        }
    }
}

/// One item of Gemini CLI's `write_todos`.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct GeminiTodo {
    /// The description of the task.
    #[schemars(length(max = 2000))]
    pub description: String,
    pub status: GeminiStatus,
}

struct_from_value!(GeminiTodo { description, status });

/// Gemini CLI's `write_todos` arguments.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct GeminiWriteTodosArgs {
    /// The complete list of todo items. This will replace the existing list.
    #[schemars(length(max = MAX_TODOS))]
    pub todos: Vec<GeminiTodo>,
}

struct_from_value!(GeminiWriteTodosArgs { todos });

/// The items, and Gemini CLI's answer: the list as it now stands, numbered.
pub(super) fn read(args: GeminiWriteTodosArgs) -> Result<Effect, String> {
    if args.todos.iter().any(|t| t.description.trim().is_empty()) {
        return Err("Invalid parameters: Each todo must have a non-empty description string".to_owned());
    }
    if args.todos.iter().filter(|t| t.status == GeminiStatus::InProgress).count() > 1 {
        return Err("Invalid parameters: Only one task can be \"in_progress\" at a time.".to_owned());
    }
    if args.todos.is_empty() {
        return Ok(Effect::replace(Vec::new(), "Successfully cleared the todo list."));
    }
    let mut reply = String::from("Successfully updated the todo list. The current list is now:");
    for (i, todo) in args.todos.iter().enumerate() {
        reply.push_str(&format!("\n{}. [{}] {}", i + 1, todo.status.as_str(), todo.description));
    }
    let items: Vec<Item> = args.todos.into_iter().map(|t| (None, t.description, t.status.todo_status())).collect();
    Ok(Effect::replace(items, &reply))
}
