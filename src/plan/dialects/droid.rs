//! Factory Droid's `TodoWrite`: Claude Code's name, but `todos` is either a list (of
//! Claude Code's items, with a priority and an id) or one numbered string,
//! `1. [in_progress] …`.

use schemars::JsonSchema;

use super::claude_code::{TodoWriteItem, REPLY};
use super::{Effect, Item, MAX_TODOS};
use crate::json::from_value::{struct_from_value, FromValue, Mismatch};
use crate::json::value::Value;
use crate::plan::todos::TodoStatus;

/// The list, or the numbered lines.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(untagged)]
pub enum DroidTodos {
    List(#[schemars(length(max = MAX_TODOS))] Vec<TodoWriteItem>),
    Lines(#[schemars(length(max = 400_000))] String),
}

/// Either form, as the schema's `anyOf` let it through.
impl FromValue for DroidTodos {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        match value {
            Value::String(_) => DroidTodos::Lines(String::from_value(value, mismatch)),
            _ => DroidTodos::List(Vec::from_value(value, mismatch)),
        }
    }
}

/// Droid's `TodoWrite` arguments.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct DroidTodoWriteArgs {
    /// The updated todo list.
    pub todos: DroidTodos,
}

struct_from_value!(DroidTodoWriteArgs { todos });

/// The items; the answer is Claude Code's.
pub(super) fn read(args: DroidTodoWriteArgs) -> Result<Effect, String> {
    let items: Vec<Item> = match args.todos {
        DroidTodos::List(todos) => todos.into_iter().map(|t| (t.id, t.content, t.status)).collect(),
        DroidTodos::Lines(text) => {
            let items = numbered(&text);
            if items.is_empty() && !text.trim().is_empty() {
                return Err("No todo lines found. Send lines like `1. [in_progress] Fix the parser`, with pending, in_progress or completed.".to_owned());
            }
            if items.len() > MAX_TODOS {
                return Err(format!(
                    "This list has {} items; planloop follows lists of at most {MAX_TODOS}.",
                    items.len()
                ));
            }
            items
        }
    };
    Ok(Effect::replace(items, REPLY))
}

/// The lines `N. [status] text` (the number optional), in order; other lines are not
/// items.
fn numbered(text: &str) -> Vec<Item> {
    let mut items = Vec::new();
    for line in text.lines() {
        let rest = line.trim_start().trim_start_matches(|c: char| c.is_ascii_digit());
        let rest = rest.strip_prefix('.').unwrap_or(rest).trim_start();
        let Some((status, content)) = rest.strip_prefix('[').and_then(|r| r.split_once(']')) else { continue };
        let status = match status.trim() {
            "pending" => TodoStatus::Pending,
            "in_progress" => TodoStatus::InProgress,
            "completed" | "done" => TodoStatus::Completed,
            _ => continue,
        };
        let content = content.trim();
        if !content.is_empty() {
            items.push((None, content.to_owned(), status));
        }
    }
    items
}
