//! OpenHands' `task_tracker`: `{command: "view" | "plan", task_list?: [{title, status,
//! notes?, id?}]}`; `plan` replaces the list, `view` shows it.

use schemars::JsonSchema;

use super::{Effect, MAX_TODOS};
use crate::json::from_value::{enum_from_value, struct_from_value};
use crate::plan::todos::{Todo, TodoStatus};

/// What OpenHands' `task_tracker` is asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TaskTrackerCommand {
    View,
    Plan,
}

enum_from_value!(TaskTrackerCommand, "lowercase" [View, Plan]);

/// A task's status in OpenHands' `task_tracker`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Todo,
    InProgress,
    Done,
}

enum_from_value!(TaskStatus, "snake_case" [Todo, InProgress, Done]);

/// One task of OpenHands' `task_tracker`.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct TaskItem {
    #[schemars(length(min = 1, max = 2000))]
    pub title: String,
    pub status: TaskStatus,
    #[serde(default)]
    #[schemars(with = "String", length(max = 4000))]
    pub notes: Option<String>,
    #[serde(default)]
    #[schemars(with = "String", length(max = 200))]
    pub id: Option<String>,
}

struct_from_value!(TaskItem { title, status, notes, id });

/// OpenHands' `task_tracker` arguments.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct TaskTrackerArgs {
    pub command: TaskTrackerCommand,
    #[serde(default)]
    #[schemars(with = "Vec<TaskItem>", length(max = MAX_TODOS))]
    pub task_list: Option<Vec<TaskItem>>,
}

struct_from_value!(TaskTrackerArgs { command, task_list });

/// The new list and OpenHands' answer, or the list shown.
pub(super) fn read(args: TaskTrackerArgs, current: &[Todo]) -> Result<Effect, String> {
    let tasks = match (args.command, args.task_list) {
        (TaskTrackerCommand::View, _) => return Ok(Effect::Answer(view(current))),
        (TaskTrackerCommand::Plan, None) => return Err("command \"plan\" needs task_list.".to_owned()),
        (TaskTrackerCommand::Plan, Some(tasks)) => tasks,
    };
    let count = tasks.len();
    let items = tasks.into_iter().map(|t| {
        let status = match t.status {
            TaskStatus::Todo => TodoStatus::Pending,
            TaskStatus::InProgress => TodoStatus::InProgress,
            TaskStatus::Done => TodoStatus::Completed,
        };
        (t.id, t.title, status)
    });
    let reply = format!("Task list has been updated with {count} item{}.", if count == 1 { "" } else { "s" });
    Ok(Effect::replace(items.collect(), &reply))
}

/// OpenHands' rendering of the list, for `view`.
pub(super) fn view(todos: &[Todo]) -> String {
    if todos.is_empty() {
        return "No task list. Use the \"plan\" command to create one.".to_owned();
    }
    let mut out = String::from("# Task List\n");
    for (i, todo) in todos.iter().enumerate() {
        let mark = match todo.status {
            TodoStatus::Pending => "todo",
            TodoStatus::InProgress => "in_progress",
            TodoStatus::Completed => "done",
        };
        out.push_str(&format!("\n{}. [{mark}] {}", i + 1, todo.content));
    }
    out
}
