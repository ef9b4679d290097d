//! The todo tools of other agents, mapped onto planloop's todo list.
//!
//! A host whose model was trained on Claude Code's `TodoWrite`, Codex's `update_plan`,
//! Roo's `update_todo_list`, OpenHands' `task_tracker`, Gemini CLI's or LangChain's
//! `write_todos`, Cursor's `todo_write`, OpenCode's `todowrite` or Factory Droid's
//! `TodoWrite` can keep offering that tool: planloop answers it the way the original
//! does and keeps the same planner state as `write_todos`. Where a dialect has no ids,
//! they are derived from the text (the same text always gets the same id), so a todo
//! keeps its id across updates.
//!
//! A dialect is named apart from its tool where two agents use one tool name
//! (`write_todos`, `TodoWrite`): the session's `todoDialects` says which one a name
//! means, and may list only one per name.

mod claude_code;
mod claude_tasks;
mod cline;
mod codex;
mod cursor;
mod droid;
mod gemini;
mod ids;
mod langchain;
mod opencode;
mod openhands;
mod roo;
mod status;

pub use claude_code::{TodoWriteArgs, TodoWriteItem};
pub use claude_tasks::{created_id, TaskCreateArgs, TaskGetArgs, TaskListArgs, TaskUpdateArgs, TaskUpdateStatus};
pub use cline::TaskProgressArgs;
pub use codex::{UpdatePlanArgs, UpdatePlanStep};
pub use cursor::{CursorTodo, CursorTodoWriteArgs};
pub use droid::{DroidTodoWriteArgs, DroidTodos};
pub use gemini::{GeminiStatus, GeminiTodo, GeminiWriteTodosArgs};
pub use langchain::{LangChainTodo, LangChainWriteTodosArgs};
pub use opencode::{OpenCodeTodo, OpenCodeTodoWriteArgs};
pub use openhands::{TaskItem, TaskStatus, TaskTrackerArgs, TaskTrackerCommand};
pub use roo::UpdateTodoListArgs;
pub use status::CancellableStatus;

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::decimals::Decimals;
use crate::json::from_value::enum_from_value;
use crate::json::value::Value;
use crate::plan::todos::{Todo, TodoStatus};
use crate::text::cap;

/// The todo tools planloop answers itself. Each updates the same planner state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub enum TodoDialect {
    /// planloop's own tool (seed 004).
    #[serde(rename = "write_todos")]
    WriteTodos,
    /// Claude Code: `{todos: [{content, status, activeForm}]}`.
    TodoWrite,
    /// Codex: `{explanation?, plan: [{step, status}]}`.
    #[serde(rename = "update_plan")]
    UpdatePlan,
    /// Roo Code: `{todos: "markdown checklist with [ ], [-], [x]"}`.
    #[serde(rename = "update_todo_list")]
    UpdateTodoList,
    /// OpenHands: `{command: "view" | "plan", task_list?: [{title, status, notes?}]}`.
    #[serde(rename = "task_tracker")]
    TaskTracker,
    /// Gemini CLI's `write_todos`: `{todos: [{description, status}]}`.
    #[serde(rename = "gemini_write_todos")]
    GeminiWriteTodos,
    /// LangChain's (and deepagents') `write_todos`: `{todos: [{content, status}]}`.
    #[serde(rename = "langchain_write_todos")]
    LangChainWriteTodos,
    /// Cursor: `{merge, todos: [{id, content?, status?}]}`.
    #[serde(rename = "todo_write")]
    CursorTodoWrite,
    /// OpenCode: `{todos: [{content, status, priority, id?}]}`.
    #[serde(rename = "todowrite")]
    OpenCodeTodoWrite,
    /// Factory Droid's `TodoWrite`: `{todos: [...] | "1. [in_progress] …"}`.
    #[serde(rename = "droid_TodoWrite")]
    DroidTodoWrite,
    /// Claude Code 2.1: `{subject, description, activeForm?}`, one task.
    TaskCreate,
    /// Claude Code 2.1: `{taskId, status?, subject?, …}`, one task patched or deleted.
    TaskUpdate,
    /// Claude Code 2.1: `{}`, the tasks shown.
    TaskList,
    /// Claude Code 2.1: `{taskId}`, one task shown.
    TaskGet,
    /// Cline: a `task_progress` checklist on any tool call (not a tool of its own).
    #[serde(rename = "task_progress")]
    TaskProgress,
}

enum_from_value!(TodoDialect [
    WriteTodos as "write_todos",
    TodoWrite,
    UpdatePlan as "update_plan",
    UpdateTodoList as "update_todo_list",
    TaskTracker as "task_tracker",
    GeminiWriteTodos as "gemini_write_todos",
    LangChainWriteTodos as "langchain_write_todos",
    CursorTodoWrite as "todo_write",
    OpenCodeTodoWrite as "todowrite",
    DroidTodoWrite as "droid_TodoWrite",
    TaskCreate,
    TaskUpdate,
    TaskList,
    TaskGet,
    TaskProgress as "task_progress",
]);

impl TodoDialect {
    pub const ALL: [TodoDialect; 15] = [
        TodoDialect::WriteTodos,
        TodoDialect::TodoWrite,
        TodoDialect::UpdatePlan,
        TodoDialect::UpdateTodoList,
        TodoDialect::TaskTracker,
        TodoDialect::GeminiWriteTodos,
        TodoDialect::LangChainWriteTodos,
        TodoDialect::CursorTodoWrite,
        TodoDialect::OpenCodeTodoWrite,
        TodoDialect::DroidTodoWrite,
        TodoDialect::TaskCreate,
        TodoDialect::TaskUpdate,
        TodoDialect::TaskList,
        TodoDialect::TaskGet,
        TodoDialect::TaskProgress,
    ];

    /// The tool name the model calls.
    pub fn tool_name(self) -> &'static str {
        match self {
            TodoDialect::WriteTodos | TodoDialect::GeminiWriteTodos | TodoDialect::LangChainWriteTodos => "write_todos",
            TodoDialect::TodoWrite | TodoDialect::DroidTodoWrite => "TodoWrite",
            TodoDialect::UpdatePlan => "update_plan",
            TodoDialect::UpdateTodoList => "update_todo_list",
            TodoDialect::TaskTracker => "task_tracker",
            TodoDialect::CursorTodoWrite => "todo_write",
            TodoDialect::OpenCodeTodoWrite => "todowrite",
            TodoDialect::TaskCreate => "TaskCreate",
            TodoDialect::TaskUpdate => "TaskUpdate",
            TodoDialect::TaskList => "TaskList",
            TodoDialect::TaskGet => "TaskGet",
            TodoDialect::TaskProgress => "task_progress",
        }
    }

    /// Whether it is a parameter of other tools' calls rather than a tool (Cline's
    /// `task_progress`): never offered, called or answered.
    pub fn is_parameter(self) -> bool {
        self == TodoDialect::TaskProgress
    }

    /// Whether its calls each change one item rather than send the whole list, so that
    /// one response may well call it several times (Claude Code's task tools).
    pub fn patches_one(self) -> bool {
        matches!(self, TodoDialect::TaskCreate | TodoDialect::TaskUpdate | TodoDialect::TaskList | TodoDialect::TaskGet)
    }

    /// The dialect among `enabled` that answers the tool `name`.
    pub fn for_tool(name: &str, enabled: &[TodoDialect]) -> Option<TodoDialect> {
        enabled.iter().copied().find(|d| d.tool_name() == name && !d.is_parameter())
    }

    /// The first two of `enabled` that answer one tool name, which a session cannot tell
    /// apart.
    pub fn clash(enabled: &[TodoDialect]) -> Option<(TodoDialect, TodoDialect)> {
        enabled.iter().enumerate().find_map(|(i, a)| {
            enabled[..i].iter().find(|b| b.tool_name() == a.tool_name() && *b != a).map(|b| (*b, *a))
        })
    }

    /// The name a session's `todoDialects` gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            TodoDialect::GeminiWriteTodos => "gemini_write_todos",
            TodoDialect::LangChainWriteTodos => "langchain_write_todos",
            TodoDialect::DroidTodoWrite => "droid_TodoWrite",
            other => other.tool_name(),
        }
    }
}

/// A dialect follows another agent's own list, which is not held to `write_todos`'
/// 8 items of 140 characters (Claude Code keeps lists of 20 and more): it takes what
/// that agent's tool takes, up to these safety bounds, and says so beyond them.
pub const MAX_TODOS: usize = 200;
pub const CONTENT_MAX: usize = 2000;

/// The JSON Schemas of the dialects' arguments (generated; checked by a test).
pub fn schema(dialect: TodoDialect) -> &'static str {
    match dialect {
        TodoDialect::WriteTodos => crate::plan::todos::WRITE_TODOS_SCHEMA,
        TodoDialect::TodoWrite => include_str!("../../schemas/todo_write.json"),
        TodoDialect::UpdatePlan => include_str!("../../schemas/update_plan.json"),
        TodoDialect::UpdateTodoList => include_str!("../../schemas/update_todo_list.json"),
        TodoDialect::TaskTracker => include_str!("../../schemas/task_tracker.json"),
        TodoDialect::GeminiWriteTodos => include_str!("../../schemas/gemini_write_todos.json"),
        TodoDialect::LangChainWriteTodos => include_str!("../../schemas/langchain_write_todos.json"),
        TodoDialect::CursorTodoWrite => include_str!("../../schemas/cursor_todo_write.json"),
        TodoDialect::OpenCodeTodoWrite => include_str!("../../schemas/opencode_todowrite.json"),
        TodoDialect::DroidTodoWrite => include_str!("../../schemas/droid_todo_write.json"),
        TodoDialect::TaskCreate => include_str!("../../schemas/task_create.json"),
        TodoDialect::TaskUpdate => include_str!("../../schemas/task_update.json"),
        TodoDialect::TaskList => include_str!("../../schemas/task_list.json"),
        TodoDialect::TaskGet => include_str!("../../schemas/task_get.json"),
        TodoDialect::TaskProgress => include_str!("../../schemas/task_progress.json"),
    }
}

/// The dialects' tool descriptions, close to their originals.
pub fn description(dialect: TodoDialect) -> &'static str {
    match dialect {
        TodoDialect::WriteTodos => crate::plan::todos::WRITE_TODOS_DESCRIPTION,
        TodoDialect::TodoWrite => "Create and manage a structured task list for the current session: send the whole list each time, with each item's status (pending, in_progress, completed) and activeForm. Keep exactly one task in_progress and mark tasks completed as soon as they are done.",
        TodoDialect::UpdatePlan => "Updates the task plan. Provide an optional explanation and a list of plan items, each with a step and status. At most one step can be in_progress at a time.",
        TodoDialect::UpdateTodoList => "Replace the entire TODO list with an updated checklist: one item per line, [ ] for pending, [-] for in progress, [x] for completed.",
        TodoDialect::TaskTracker => "Organize and track the tasks of a session: command \"view\" shows the task list; command \"plan\" replaces it with task_list, each task with a title, a status (todo, in_progress, done) and optional notes.",
        TodoDialect::GeminiWriteTodos => "Lists out the subtasks required to complete a user request: send the complete list each time, each todo with a description and a status (pending, in_progress, completed, cancelled, blocked). Only one task can be in_progress at a time.",
        TodoDialect::LangChainWriteTodos => "Use this tool to create and manage a structured task list for your current work session: send the complete list of todo items, each with content and a status (pending, in_progress, completed).",
        TodoDialect::CursorTodoWrite => "Create and manage a structured task list for the current session. With merge: true, the todos are merged into the existing ones by id (leave unchanged properties out); with merge: false, they replace the list. Statuses: pending, in_progress, completed, cancelled.",
        TodoDialect::OpenCodeTodoWrite => "Use this tool to create and manage a structured task list for your current coding session: send the updated todo list, each item with content, status (pending, in_progress, completed, cancelled) and priority (high, medium, low).",
        TodoDialect::DroidTodoWrite => "Create and manage a structured task list for the current session: send the whole list each time, as items {content, status, priority, id} or as numbered lines like `1. [in_progress] Fix the parser`, with statuses pending, in_progress, completed.",
        TodoDialect::TaskCreate => "Create a task in the task list: a brief subject, a description of what needs to be done and an optional activeForm. The new task is pending; its id comes back in the answer.",
        TodoDialect::TaskUpdate => "Update a task by its taskId: its status (pending, in_progress, completed, or deleted to remove it), subject, description, activeForm or owner. Mark each task in_progress when you start it and completed when it is done.",
        TodoDialect::TaskList => "List the tasks: each with its id, status and subject.",
        TodoDialect::TaskGet => "Get one task by its taskId: its subject and status.",
        TodoDialect::TaskProgress => "A checklist showing task progress after this tool use is completed: `- [ ]` for a task to do, `- [x]` for a task done. Include it as a separate parameter of your tool calls.",
    }
}

/// What a dialect call asks of the planner.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Replace the list; `reply` is the original tool's answer on success.
    Replace { todos: Vec<Todo>, note: Option<String>, reply: String },
    /// Change nothing, and answer this (a view of the list, a task not found).
    Answer(String),
}

/// What a call comes to before its items become todos.
enum Effect {
    /// The list it leaves, a note on it, and the tool's answer.
    List(Vec<Item>, Option<String>, String),
    /// The planner's own list patched (Claude Code's tasks), and the tool's answer: each
    /// item has its id, kept as it is, since the model names tasks by the ids it was told
    /// (`Task #3 created`), which no derived id may change.
    Patch(Vec<Item>, String),
    /// No change, and the tool's answer.
    Answer(String),
}

impl Effect {
    /// The list `items`, with no note, answered with `reply`.
    fn replace(items: Vec<Item>, reply: &str) -> Effect {
        Effect::List(items, None, reply.to_owned())
    }
}

/// One item as a dialect gives it: its id if it has one, its text, its status.
type Item = (Option<String>, String, TodoStatus);

/// An object of strings, as some tools echo their list back (in this order).
fn strings_object(members: &[(&str, &str)]) -> Value<'static> {
    Value::Object(
        members.iter().map(|(k, v)| ((*k).to_owned().into(), Value::String((*v).to_owned().into()))).collect(),
    )
}

/// The planner request of a dialect call whose arguments passed their schema, or the
/// message that refuses it; `current` is the list it may patch (Cursor's `merge`,
/// Claude Code's tasks). An empty list clears the todos, as the original tools do. An
/// answer that echoes the list as JSON writes it with `decimals`.
pub fn request(args: DialectArgs, current: &[Todo], decimals: Decimals) -> Result<Request, String> {
    request_answered(args, current, None, decimals)
}

/// [`request`] for a call the agent's own tool answered with `answer` (observed): where
/// the answer holds what the call does not (a new task's id), it is read from there.
pub fn request_answered(
    args: DialectArgs,
    current: &[Todo],
    answer: Option<&str>,
    decimals: Decimals,
) -> Result<Request, String> {
    let reading = match args {
        DialectArgs::TodoWrite(args) => claude_code::read(args),
        DialectArgs::TaskCreate(args) => claude_tasks::create(args, current, answer.and_then(created_id)),
        DialectArgs::TaskUpdate(args) => claude_tasks::update(args, current),
        DialectArgs::TaskList(_) => Effect::Answer(claude_tasks::list(current)),
        DialectArgs::TaskGet(args) => Effect::Answer(claude_tasks::get(args, current)),
        DialectArgs::UpdatePlan(args) => codex::read(args),
        DialectArgs::UpdateTodoList(args) => roo::read(args)?,
        DialectArgs::TaskTracker(args) => openhands::read(args, current)?,
        DialectArgs::GeminiWriteTodos(args) => gemini::read(args)?,
        DialectArgs::LangChainWriteTodos(args) => langchain::read(args, decimals),
        DialectArgs::CursorTodoWrite(args) => cursor::read(args, current)?,
        DialectArgs::OpenCodeTodoWrite(args) => opencode::read(args, decimals),
        DialectArgs::DroidTodoWrite(args) => droid::read(args)?,
        DialectArgs::TaskProgress(args) => cline::read(args)?,
    };
    let (items, note, reply, patch) = match reading {
        Effect::List(items, note, reply) => (items, note, reply, false),
        Effect::Patch(items, reply) => (items, None, reply, true),
        Effect::Answer(text) => return Ok(Request::Answer(text)),
    };
    if let Some(at) = items.iter().position(|(_, content, _)| content.trim().is_empty()) {
        return Err(format!("Item {} has no text: every item needs some.", at + 1));
    }
    if items.len() > MAX_TODOS {
        return Err(format!(
            "This list has {} items; planloop follows lists of at most {MAX_TODOS}. Merge or drop some and send the whole list again.",
            items.len()
        ));
    }
    let mut todos: Vec<Todo> = Vec::with_capacity(items.len());
    let mut taken = ids::Taken::default();
    for (id, content, status) in items {
        let id = match id {
            Some(id) if patch => id,
            id => ids::unique_id(
                id.as_deref().filter(|i| !i.trim().is_empty()).unwrap_or(&content),
                todos.len(),
                &mut taken,
            ),
        };
        todos.push(Todo { id, content: cap(content.trim(), CONTENT_MAX), status });
    }
    Ok(Request::Replace { todos, note: note.map(|n| cap(&n, 200)), reply })
}

/// A dialect call's arguments, after their schema passed them.
#[derive(Debug, Clone, PartialEq)]
pub enum DialectArgs {
    TodoWrite(TodoWriteArgs),
    UpdatePlan(UpdatePlanArgs),
    UpdateTodoList(UpdateTodoListArgs),
    TaskTracker(TaskTrackerArgs),
    GeminiWriteTodos(GeminiWriteTodosArgs),
    LangChainWriteTodos(LangChainWriteTodosArgs),
    CursorTodoWrite(CursorTodoWriteArgs),
    OpenCodeTodoWrite(OpenCodeTodoWriteArgs),
    DroidTodoWrite(DroidTodoWriteArgs),
    TaskCreate(TaskCreateArgs),
    TaskUpdate(TaskUpdateArgs),
    TaskList(TaskListArgs),
    TaskGet(TaskGetArgs),
    TaskProgress(TaskProgressArgs),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call's request on an empty list.
    fn ask(args: DialectArgs) -> Result<Request, String> {
        request(args, &[], Decimals::RUST)
    }

    fn todo_write(items: &[(&str, TodoStatus)]) -> DialectArgs {
        DialectArgs::TodoWrite(TodoWriteArgs {
            todos: items
                .iter()
                .map(|(c, s)| TodoWriteItem {
                    content: (*c).into(),
                    status: *s,
                    active_form: None,
                    id: None,
                    priority: None,
                })
                .collect(),
        })
    }

    fn replaced(request: Result<Request, String>) -> Vec<Todo> {
        match request {
            Ok(Request::Replace { todos, .. }) => todos,
            other => panic!("not a replace: {other:?}"),
        }
    }

    #[test]
    fn a_list_of_many_equal_texts_gets_distinct_ids_in_order() {
        let same: Vec<(&str, TodoStatus)> = (0..MAX_TODOS).map(|_| ("Fix it", TodoStatus::Pending)).collect();
        let todos = replaced(ask(todo_write(&same)));
        assert_eq!(
            [todos[0].id.as_str(), todos[1].id.as_str(), todos[199].id.as_str()],
            ["fix_it", "fix_it_2", "fix_it_200"]
        );
        let ids: std::collections::BTreeSet<&str> = todos.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids.len(), MAX_TODOS);
    }

    #[test]
    fn ids_are_derived_from_the_text_and_stay_stable() {
        let first = replaced(ask(todo_write(&[
            ("Set up Next.js project", TodoStatus::InProgress),
            ("写测试", TodoStatus::Pending),
        ])));
        let ids: Vec<&str> = first.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["set_up_next_js_project", "todo_2"]);
        let again = replaced(ask(todo_write(&[("Set up Next.js project", TodoStatus::Completed)])));
        assert_eq!(again[0].id, "set_up_next_js_project");
        let twins = replaced(ask(todo_write(&[("Fix it", TodoStatus::Pending), ("fix it!", TodoStatus::Pending)])));
        assert_eq!([twins[0].id.as_str(), twins[1].id.as_str()], ["fix_it", "fix_it_2"]);
    }

    #[test]
    fn another_agents_long_list_is_followed_whole_up_to_the_safety_bounds() {
        // Claude Code keeps lists of 9 to 20 items and more, with items past 140
        // characters and at times two in progress: all of it is kept as it was sent.
        let long = "word ".repeat(300);
        let mut items: Vec<(String, TodoStatus)> =
            (1..=20).map(|i| (format!("Step {i}"), TodoStatus::Pending)).collect();
        items[0].1 = TodoStatus::Completed;
        items[1].1 = TodoStatus::InProgress;
        items[2].1 = TodoStatus::InProgress;
        items[19].0 = long.clone();
        let borrowed: Vec<(&str, TodoStatus)> = items.iter().map(|(c, s)| (c.as_str(), *s)).collect();
        let todos = replaced(ask(todo_write(&borrowed)));
        assert_eq!(todos.len(), 20);
        let statuses: Vec<TodoStatus> = todos.iter().map(|t| t.status).collect();
        assert_eq!(
            &statuses[..4],
            [TodoStatus::Completed, TodoStatus::InProgress, TodoStatus::InProgress, TodoStatus::Pending]
        );
        assert_eq!(todos[19].content, long.trim(), "1,499 characters, kept whole");
        assert!(todos[19].id.len() <= ids::ID_MAX);
        // Past the bounds, the text is cut (marked) and the list refused, saying why.
        let longer = "w".repeat(CONTENT_MAX + 50);
        let todos = replaced(ask(todo_write(&[(&longer, TodoStatus::Pending)])));
        assert_eq!(todos[0].content.chars().count(), CONTENT_MAX);
        assert!(todos[0].content.ends_with('…'));
        let many: Vec<(&str, TodoStatus)> = (0..=MAX_TODOS).map(|_| ("x", TodoStatus::Pending)).collect();
        let refused = ask(todo_write(&many)).unwrap_err();
        assert!(refused.contains("201 items") && refused.contains("at most 200"), "{refused}");
        assert!(ask(todo_write(&many[..MAX_TODOS])).is_ok());
    }

    #[test]
    fn markdown_checklists_are_read_as_roo_writes_them() {
        let args = DialectArgs::UpdateTodoList(UpdateTodoListArgs {
            todos: "Plan:\n- [x] Read the code\n[-] Write the fix\n1. [ ] Run tests\n[?] not an item\n[ ]   \n".into(),
        });
        let todos = replaced(ask(args));
        let got: Vec<(&str, TodoStatus)> = todos.iter().map(|t| (t.content.as_str(), t.status)).collect();
        assert_eq!(
            got,
            [
                ("Read the code", TodoStatus::Completed),
                ("Write the fix", TodoStatus::InProgress),
                ("Run tests", TodoStatus::Pending)
            ]
        );
        let empty = DialectArgs::UpdateTodoList(UpdateTodoListArgs { todos: "nothing".into() });
        assert!(ask(empty).is_err());
    }

    #[test]
    fn task_tracker_maps_statuses_and_views() {
        let args = DialectArgs::TaskTracker(TaskTrackerArgs {
            command: TaskTrackerCommand::Plan,
            task_list: Some(vec![
                TaskItem { title: "A".into(), status: TaskStatus::Done, notes: None, id: Some("t1".into()) },
                TaskItem { title: "B".into(), status: TaskStatus::Todo, notes: None, id: None },
            ]),
        });
        let todos = replaced(ask(args));
        assert_eq!(
            (todos[0].id.as_str(), todos[0].status, todos[1].status),
            ("t1", TodoStatus::Completed, TodoStatus::Pending)
        );
        let view_args =
            DialectArgs::TaskTracker(TaskTrackerArgs { command: TaskTrackerCommand::View, task_list: None });
        assert!(matches!(ask(view_args), Ok(Request::Answer(text)) if text.starts_with("No task list")));
        assert_eq!(openhands::view(&todos), "# Task List\n\n1. [done] A\n2. [todo] B");
    }
}
