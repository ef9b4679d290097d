//! Roo Code's `update_todo_list`: `{todos: "markdown checklist"}`, the whole list each
//! time, with `[ ]`, `[-]` and `[x]`.

use schemars::JsonSchema;

use super::Effect;
use crate::json::from_value::struct_from_value;
use crate::plan::todos::TodoStatus;
use crate::text::part;

/// Roo Code's `update_todo_list` arguments: a markdown checklist.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct UpdateTodoListArgs {
    /// Lines like `[ ] pending`, `[-] in progress`, `[x] done`.
    #[schemars(length(max = 20_000))]
    pub todos: String,
}

struct_from_value!(UpdateTodoListArgs { todos });

/// The checklist's items, and Roo's answer; none is an error, as in Roo.
pub(super) fn read(args: UpdateTodoListArgs) -> Result<Effect, String> {
    let items = checklist(&args.todos);
    if items.is_empty() {
        return Err(
            "No checklist items found. Send lines like `[ ] task`, `[-] task in progress`, `[x] done task`.".to_owned()
        );
    }
    let items = items.into_iter().map(|(content, status)| (None, content, status)).collect();
    Ok(Effect::replace(items, "Todo list updated successfully."))
}

/// The items of a markdown checklist: `[ ]` pending, `[-]` or `[~]` in progress,
/// `[x]` done, optionally after a list marker (`-`, `*`, `+`, `1.`).
pub(super) fn checklist(text: &str) -> Vec<(String, TodoStatus)> {
    let mut items = Vec::new();
    for line in text.lines() {
        let mut rest = line.trim_start();
        if let Some(after) = rest.strip_prefix(['-', '*', '+']).filter(|r| r.starts_with(' ')) {
            rest = after.trim_start();
        } else if let Some(dot) =
            rest.find(['.', ')']).filter(|&i| i > 0 && part(rest, ..i).bytes().all(|b| b.is_ascii_digit()))
        {
            rest = part(rest, dot + 1..).trim_start();
        }
        let status = match rest.get(..3) {
            Some("[ ]") => TodoStatus::Pending,
            Some("[-]" | "[~]") => TodoStatus::InProgress,
            Some("[x]" | "[X]") => TodoStatus::Completed,
            _ => continue,
        };
        let content = part(rest, 3..).trim();
        if !content.is_empty() {
            items.push((content.to_owned(), status));
        }
    }
    items
}
