//! LangChain's `todoListMiddleware` (and deepagents) `write_todos`:
//! `{todos: [{content, status}]}`, the whole list each time.

use schemars::JsonSchema;

use super::{strings_object, Effect, Item, MAX_TODOS};
use crate::json::decimals::Decimals;
use crate::json::from_value::struct_from_value;
use crate::json::value::Value;
use crate::json::write::stringify;
use crate::plan::todos::TodoStatus;

/// One item of LangChain's `write_todos`.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct LangChainTodo {
    /// Content of the todo item.
    #[schemars(length(max = 2000))]
    pub content: String,
    /// Status of the todo.
    pub status: TodoStatus,
}

struct_from_value!(LangChainTodo { content, status });

/// LangChain's `write_todos` arguments.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct LangChainWriteTodosArgs {
    /// List of todo items to update.
    #[schemars(length(max = MAX_TODOS))]
    pub todos: Vec<LangChainTodo>,
}

struct_from_value!(LangChainWriteTodosArgs { todos });

/// The items, and LangChain.js's answer: `Updated todo list to <the list as JSON>`.
pub(super) fn read(args: LangChainWriteTodosArgs, decimals: Decimals) -> Effect {
    let echoed = args.todos.iter().map(|t| strings_object(&[("content", &t.content), ("status", t.status.as_str())]));
    let reply = format!("Updated todo list to {}", stringify(&Value::Array(echoed.collect()), decimals));
    let items: Vec<Item> = args.todos.into_iter().map(|t| (None, t.content, t.status)).collect();
    Effect::replace(items, &reply)
}
