//! Cursor's `todo_write`: `{merge, todos: [{id, content, status}]}`. Without `merge` the
//! list replaces the one before; with it, each item patches the todo of its id (fields
//! left out stay as they were) and an unknown id adds a todo at the end.

use schemars::JsonSchema;

use super::ids::slug;
use super::status::CancellableStatus;
use super::{Effect, Item, MAX_TODOS};
use crate::json::from_value::struct_from_value;
use crate::plan::todos::{Todo, TodoStatus};

/// One item of Cursor's `todo_write`; with `merge`, only `id` is needed.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct CursorTodo {
    /// Unique identifier for the todo item.
    #[schemars(length(min = 1, max = 200))]
    pub id: String,
    /// The description/content of the todo item.
    #[serde(default)]
    #[schemars(with = "String", length(max = 2000))]
    pub content: Option<String>,
    #[serde(default)]
    #[schemars(with = "CancellableStatus")]
    pub status: Option<CancellableStatus>,
}

struct_from_value!(CursorTodo { id, content, status });

/// Cursor's `todo_write` arguments.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct CursorTodoWriteArgs {
    /// Whether to merge the todos into the existing ones by id, rather than replace them.
    pub merge: bool,
    /// Array of todo items to write to the workspace.
    #[schemars(length(max = MAX_TODOS))]
    pub todos: Vec<CursorTodo>,
}

struct_from_value!(CursorTodoWriteArgs { merge, todos });

/// The list after the call: `current` patched (with `merge`) or replaced.
pub(super) fn read(args: CursorTodoWriteArgs, current: &[Todo]) -> Result<Effect, String> {
    let mut items: Vec<Item> = match args.merge {
        true => current.iter().map(|t| (Some(t.id.clone()), t.content.clone(), t.status)).collect(),
        false => Vec::new(),
    };
    for todo in args.todos {
        // Kept todos carry planloop's id for Cursor's (see `slug`).
        let id = slug(&todo.id);
        let known =
            items.iter().position(|(kept, ..)| kept.as_deref().is_some_and(|k| !id.is_empty() && slug(k) == id));
        match (known, args.merge) {
            (Some(at), true) => {
                let item = &mut items[at];
                if let Some(content) = todo.content {
                    item.1 = content;
                }
                if let Some(status) = todo.status {
                    item.2 = status.todo_status();
                }
            }
            (Some(_), false) => return Err(format!("Duplicate todo id \"{}\".", cut(&todo.id))),
            (None, _) => {
                let (Some(content), Some(status)) = (todo.content, todo.status) else {
                    let missing = if args.merge { "is new, so it needs" } else { "needs" };
                    return Err(format!("Todo \"{}\" {missing} content and status.", cut(&todo.id)));
                };
                if items.len() == MAX_TODOS {
                    return Err(format!("The list would have more than {MAX_TODOS} items."));
                }
                items.push((Some(todo.id), content, status.todo_status()));
            }
        }
    }
    let open = items.iter().filter(|(.., status)| *status != TodoStatus::Completed).count();
    Ok(Effect::replace(items, &format!("Successfully updated the todo list ({open} open).")))
}

/// An id as quoted in a message: its first 64 characters.
fn cut(id: &str) -> String {
    crate::text::cap(id, 64)
}
