//! OpenCode's `todowrite`: `{todos: [{content, status, priority, id?}]}`, the whole list
//! each time (the id was dropped in 1.2); its answer is the list as indented JSON.

use schemars::JsonSchema;

use super::status::CancellableStatus;
use super::{strings_object, Effect, Item, MAX_TODOS};
use crate::json::decimals::Decimals;
use crate::json::from_value::struct_from_value;
use crate::json::value::Value;
use crate::json::write::stringify_pretty;

/// One item of OpenCode's `todowrite`.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct OpenCodeTodo {
    /// Brief description of the task.
    #[schemars(length(max = 2000))]
    pub content: String,
    /// Current status of the task: pending, in_progress, completed, cancelled.
    pub status: CancellableStatus,
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
pub(super) fn read(args: OpenCodeTodoWriteArgs, decimals: Decimals) -> Effect {
    let echoed = args.todos.iter().map(|t| {
        let given = [("priority", &t.priority), ("id", &t.id)];
        let optional = given.iter().filter_map(|(key, value)| Some((*key, value.as_deref()?)));
        let members: Vec<(&str, &str)> =
            [("content", t.content.as_str()), ("status", t.status.as_str())].into_iter().chain(optional).collect();
        strings_object(&members)
    });
    let reply = stringify_pretty(&Value::Array(echoed.collect()), decimals);
    let items: Vec<Item> = args.todos.into_iter().map(|t| (t.id, t.content, t.status.todo_status())).collect();
    Effect::replace(items, &reply)
}
