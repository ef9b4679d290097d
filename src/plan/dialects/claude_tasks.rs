//! Claude Code's task tools (2.1): `TaskCreate` adds one task, `TaskUpdate` patches or
//! deletes one by its id, `TaskList` and `TaskGet` show them. No call carries the whole
//! list: it is the fold of the calls. A new task's id (`"1"`, `"2"`, …) is only in
//! `TaskCreate`'s answer, so a session that observes the calls reads it from there.

use schemars::JsonSchema;

use super::{Item, Reading};
use crate::json::from_value::{enum_from_value, struct_from_value, Fields, FromValue, Mismatch};
use crate::json::value::Value;
use crate::plan::todos::{Todo, TodoStatus};
use crate::text::part;

/// `TaskCreate`'s arguments.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskCreateArgs {
    /// A brief title for the task.
    #[schemars(length(min = 1, max = 2000))]
    pub subject: String,
    /// What needs to be done.
    #[schemars(length(max = 20_000))]
    pub description: String,
    /// Present continuous form shown in spinner when in_progress (e.g., "Running tests").
    #[serde(default)]
    #[schemars(with = "String", length(max = 2000))]
    pub active_form: Option<String>,
    #[serde(default)]
    pub metadata: Value<'static>,
}

struct_from_value!(TaskCreateArgs, "camelCase" { subject, description, active_form, metadata = Value::Undefined });

/// A task's status as `TaskUpdate` sets it; `deleted` removes the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaskUpdateStatus {
    Pending,
    InProgress,
    Completed,
    Deleted,
}

enum_from_value!(TaskUpdateStatus, "snake_case" [Pending, InProgress, Completed, Deleted]);

/// `TaskUpdate`'s arguments.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskUpdateArgs {
    #[schemars(length(min = 1, max = 200))]
    pub task_id: String,
    #[serde(default)]
    #[schemars(with = "String", length(min = 1, max = 2000))]
    pub subject: Option<String>,
    #[serde(default)]
    #[schemars(with = "String", length(max = 20_000))]
    pub description: Option<String>,
    #[serde(default)]
    #[schemars(with = "String", length(max = 2000))]
    pub active_form: Option<String>,
    #[serde(default)]
    #[schemars(with = "TaskUpdateStatus")]
    pub status: Option<TaskUpdateStatus>,
    /// Task IDs that this task blocks.
    #[serde(default)]
    #[schemars(with = "Vec<String>", length(max = 200))]
    pub add_blocks: Option<Vec<String>>,
    /// Task IDs that block this task.
    #[serde(default)]
    #[schemars(with = "Vec<String>", length(max = 200))]
    pub add_blocked_by: Option<Vec<String>>,
    #[serde(default)]
    #[schemars(with = "String", length(max = 200))]
    pub owner: Option<String>,
    #[serde(default)]
    pub metadata: Value<'static>,
}

struct_from_value!(TaskUpdateArgs, "camelCase" {
    task_id,
    subject,
    description,
    active_form,
    status,
    add_blocks,
    add_blocked_by,
    owner,
    metadata = Value::Undefined,
});

/// `TaskGet`'s arguments.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskGetArgs {
    #[schemars(length(min = 1, max = 200))]
    pub task_id: String,
}

struct_from_value!(TaskGetArgs, "camelCase" { task_id });

/// `TaskList`'s arguments: none.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct TaskListArgs {}

/// An empty object, whose every member would be a mismatch.
impl FromValue for TaskListArgs {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        Fields::new(value, mismatch).end(mismatch);
        TaskListArgs {}
    }
}

/// The list as items, to build on.
fn kept(current: &[Todo]) -> Vec<Item> {
    current.iter().map(|t| (Some(t.id.clone()), t.content.clone(), t.status)).collect()
}

/// The next id: one past the highest numeric one.
fn next_id(current: &[Todo]) -> String {
    let highest = current.iter().filter_map(|t| t.id.parse::<u64>().ok()).max().unwrap_or(0);
    (highest + 1).to_string()
}

/// A new pending task at the end, its id the one Claude Code gave it (`assigned`, read
/// from its answer) or the next one.
pub(super) fn create(args: TaskCreateArgs, current: &[Todo], assigned: Option<String>) -> Reading {
    let id = assigned.unwrap_or_else(|| next_id(current));
    let reply = format!("Task #{id} created successfully: {}", args.subject);
    let mut items = kept(current);
    items.push((Some(id), args.subject, TodoStatus::Pending));
    Reading::replace(items, &reply)
}

/// The task patched or deleted; Claude Code's answers, including `Task not found`.
pub(super) fn update(args: TaskUpdateArgs, current: &[Todo]) -> Reading {
    let Some(at) = current.iter().position(|t| t.id == args.task_id) else {
        return Reading::Answer("Task not found".to_owned());
    };
    let id = &args.task_id;
    let mut items = kept(current);
    if args.status == Some(TaskUpdateStatus::Deleted) {
        items.remove(at);
        return Reading::List(items, None, format!("Updated task #{id} deleted"));
    }
    let mut fields = Vec::new();
    if let Some(subject) = args.subject.filter(|s| *s != items[at].1) {
        items[at].1 = subject;
        fields.push("subject");
    }
    let given = [("description", args.description.is_some()), ("activeForm", args.active_form.is_some())];
    fields.extend(given.iter().filter(|(_, given)| *given).map(|(name, _)| *name));
    let status = args.status.map(|s| match s {
        TaskUpdateStatus::Pending => TodoStatus::Pending,
        TaskUpdateStatus::InProgress => TodoStatus::InProgress,
        _ => TodoStatus::Completed,
    });
    if let Some(status) = status.filter(|s| *s != items[at].2) {
        items[at].2 = status;
        fields.push("status");
    }
    let more = [
        ("owner", args.owner.is_some()),
        ("blocks", args.add_blocks.is_some()),
        ("blockedBy", args.add_blocked_by.is_some()),
    ];
    fields.extend(more.iter().filter(|(_, given)| *given).map(|(name, _)| *name));
    if !matches!(args.metadata, Value::Undefined) {
        fields.push("metadata");
    }
    Reading::List(items, None, format!("Updated task #{id} {}", fields.join(", ")))
}

/// `#1 [completed] Run the tests`, a line per task.
pub(super) fn list(current: &[Todo]) -> String {
    if current.is_empty() {
        return "No tasks found".to_owned();
    }
    let lines: Vec<String> =
        current.iter().map(|t| format!("#{} [{}] {}", t.id, t.status.as_str(), t.content)).collect();
    lines.join("\n")
}

/// One task, as far as planloop keeps it (its subject and status).
pub(super) fn get(args: TaskGetArgs, current: &[Todo]) -> String {
    match current.iter().find(|t| t.id == args.task_id) {
        Some(t) => format!("Task #{}: {}\nStatus: {}", t.id, t.content, t.status.as_str()),
        None => "Task not found".to_owned(),
    }
}

/// The id in `TaskCreate`'s answer, `Task #12 created successfully: …`.
pub fn created_id(answer: &str) -> Option<String> {
    let digits = answer.trim_start().strip_prefix("Task #")?;
    let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
    (end > 0 && part(digits, end..).starts_with(" created")).then(|| part(digits, ..end).to_owned())
}
