//! OpenCode's `todowrite`: `{todos: [{content, status, priority, id?}]}`, the whole list
//! each time (the id was dropped in 1.2); its answer is the list as indented JSON.

use schemars::JsonSchema;

use super::{Item, Reply, MAX_TODOS};
use crate::json::from_value::{enum_from_value, struct_from_value};
use crate::json::value::Value;
use crate::json::write::to_string_pretty;
use crate::plan::todos::TodoStatus;

/// A todo's status in OpenCode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OpenCodeStatus {
    Pending,
    InProgress,
    Completed,
    // Dropped: it counts as finished.
    Cancelled,
}

enum_from_value!(OpenCodeStatus, "snake_case" [Pending, InProgress, Completed, Cancelled]);

impl OpenCodeStatus {
    fn as_str(self) -> &'static str {
        match self {
            OpenCodeStatus::Pending => "pending",
            OpenCodeStatus::InProgress => "in_progress",
            OpenCodeStatus::Completed => "completed",
            OpenCodeStatus::Cancelled => "cancelled",
        }
    }

    fn todo_status(self) -> TodoStatus {
        match self {
            OpenCodeStatus::Pending => TodoStatus::Pending,
            OpenCodeStatus::InProgress => TodoStatus::InProgress,
            OpenCodeStatus::Completed | OpenCodeStatus::Cancelled => TodoStatus::Completed,
        }
    }
}

/// One item of OpenCode's `todowrite`.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct OpenCodeTodo {
    /// Brief description of the task.
    #[schemars(length(max = 2000))]
    pub content: String,
    /// Current status of the task: pending, in_progress, completed, cancelled.
    pub status: OpenCodeStatus,
    /// Priority level of the task: high, medium, low.
    #[serde(default)]
    #[schemars(with = "String", length(max = 200))]
    pub priority: Option<String>,
    /// Unique identifier for the todo item (before OpenCode 1.2).
    #[serde(default)]
    #[schemars(with = "String", length(max = 200))]
    pub id: Option<String>,
}

struct_from_value!(OpenCodeTodo { content, status, priority, id });

/// OpenCode's `todowrite` arguments.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct OpenCodeTodoWriteArgs {
    /// The updated todo list.
    #[schemars(length(max = MAX_TODOS))]
    pub todos: Vec<OpenCodeTodo>,
}

struct_from_value!(OpenCodeTodoWriteArgs { todos });

/// The items, and OpenCode's answer: the list as `JSON.stringify(todos, null, 2)`.
pub fn items(args: OpenCodeTodoWriteArgs) -> Reply {
    let echoed = Value::Array(
        args.todos
            .iter()
            .map(|t| {
                let mut members = vec![
                    ("content".into(), Value::String(t.content.as_str().into())),
                    ("status".into(), Value::String(t.status.as_str().into())),
                ];
                for (key, value) in [("priority", &t.priority), ("id", &t.id)] {
                    if let Some(value) = value {
                        members.push((key.into(), Value::String(value.as_str().into())));
                    }
                }
                Value::Object(members)
            })
            .collect(),
    );
    let reply = to_string_pretty(&echoed);
    let items: Vec<Item> = args.todos.into_iter().map(|t| (t.id, t.content, t.status.todo_status())).collect();
    Ok((items, reply))
}
