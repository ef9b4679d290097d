//! Claude Code's task tools (2.1): `TaskCreate` adds one task, `TaskUpdate` patches or
//! deletes one by its id, `TaskList` and `TaskGet` show them. No call carries the whole
//! list: it is the fold of the calls. A new task's id (`"1"`, `"2"`, …) is only in
//! `TaskCreate`'s answer, so a session that observes the calls reads it from there.

use schemars::JsonSchema;

use super::ids::ID_MAX;
use super::{Effect, Item};
use crate::json::from_value::{enum_from_value, struct_from_value, Fields, FromValue, Mismatch};
use crate::json::value::Value;
use crate::plan::todos::{Todo, TodoStatus};
use crate::text::{decimal, part};

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

/// The id a new task gets: one past the highest id that is a number, as Claude Code
/// counts. Ids are text (a `TodoWrite` list may hold `"18446744073709551615"` or longer
/// digit strings): past the largest number, it is the first number no task has. Either
/// way no task has it yet.
fn next_id(items: &[Item]) -> String {
    let numbers = || items.iter().filter_map(|item| number(item.0.as_deref()?));
    match numbers().max().unwrap_or(0).checked_add(1) {
        Some(next) => decimal(next),
        None => {
            // Of `1..=n+1`, one is free among `n` tasks; an id is that number only when
            // written as `decimal` writes it.
            let mut taken = vec![false; items.len() + 2];
            for item in items {
                let id = item.0.as_deref().unwrap_or("");
                match number(id) {
                    Some(n) if n < taken.len() as u64 && id == decimal(n) => taken[n as usize] = true,
                    _ => {}
                }
            }
            decimal((1..taken.len()).find(|&n| !taken[n]).unwrap_or(taken.len()) as u64)
        }
    }
}

/// An id of ASCII digits as a number, when it has one (`"+7"` and `"٣"` have none).
fn number(id: &str) -> Option<u64> {
    id.bytes().all(|b| b.is_ascii_digit()).then(|| id.parse().ok()).flatten()
}

/// A new pending task at the end, its id the one Claude Code gave it (`assigned`, read
/// from its answer) or the next one, kept under the id its answer names: an older task
/// with an assigned id gives it up for another, since the model now names the new task
/// by it.
pub(super) fn create(args: TaskCreateArgs, current: &[Todo], assigned: Option<String>) -> Effect {
    let mut items = kept(current);
    let id = assigned.unwrap_or_else(|| next_id(&items));
    while let Some(older) = items.iter().position(|item| item.0.as_deref() == Some(&id)) {
        items[older].0 = Some(next_id(&items));
    }
    let reply = format!("Task #{id} created successfully: {}", args.subject);
    items.push((Some(id), args.subject, TodoStatus::Pending));
    Effect::Patch(items, reply)
}

/// The task patched or deleted; Claude Code's answers, including `Task not found`.
pub(super) fn update(args: TaskUpdateArgs, current: &[Todo]) -> Effect {
    let Some(at) = current.iter().position(|t| t.id == args.task_id) else {
        return Effect::Answer("Task not found".to_owned());
    };
    let id = &args.task_id;
    let mut items = kept(current);
    if args.status == Some(TaskUpdateStatus::Deleted) {
        items.remove(at);
        return Effect::Patch(items, format!("Updated task #{id} deleted"));
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
    Effect::Patch(items, format!("Updated task #{id} {}", fields.join(", ")))
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

/// The id in `TaskCreate`'s answer, `Task #12 created successfully: …`; none past the
/// longest id a todo keeps.
pub fn created_id(answer: &str) -> Option<String> {
    let digits = answer.trim_start().strip_prefix("Task #")?;
    let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
    let fits = (1..=ID_MAX).contains(&end);
    (fits && part(digits, end..).starts_with(" created")).then(|| part(digits, ..end).to_owned())
}

#[cfg(test)]
mod tests {
    use super::super::{request_answered, DialectArgs, Request, TodoWriteArgs, TodoWriteItem};
    use super::*;
    use crate::json::decimals::Decimals;

    fn todo_write(items: &[(Option<&str>, &str)]) -> DialectArgs {
        let item = |(id, content): &(Option<&str>, &str)| TodoWriteItem {
            content: (*content).to_owned(),
            status: TodoStatus::Pending,
            active_form: None,
            id: id.map(str::to_owned),
            priority: None,
        };
        DialectArgs::TodoWrite(TodoWriteArgs { todos: items.iter().map(item).collect() })
    }

    fn task_create(subject: &str) -> DialectArgs {
        let args = TaskCreateArgs {
            subject: subject.to_owned(),
            description: "…".into(),
            active_form: None,
            metadata: Value::Undefined,
        };
        DialectArgs::TaskCreate(args)
    }

    fn task_update(task_id: &str, status: TaskUpdateStatus) -> DialectArgs {
        DialectArgs::TaskUpdate(TaskUpdateArgs {
            task_id: task_id.to_owned(),
            subject: None,
            description: None,
            active_form: None,
            status: Some(status),
            add_blocks: None,
            add_blocked_by: None,
            owner: None,
            metadata: Value::Undefined,
        })
    }

    /// The list after a call, and its answer (the list unchanged for an answer alone).
    fn apply(current: &[Todo], args: DialectArgs, answer: Option<&str>) -> (Vec<Todo>, String) {
        match request_answered(args, current, answer, Decimals::RUST) {
            Ok(Request::Replace { todos, reply, .. }) => (todos, reply),
            Ok(Request::Answer(text)) | Err(text) => (current.to_vec(), text),
        }
    }

    /// The id a `TaskCreate` answer names.
    fn announced(answer: &str) -> &str {
        let id = answer.strip_prefix("Task #").expect(answer);
        &id[..id.find(" created successfully: ").expect(answer)]
    }

    #[test]
    fn a_new_tasks_id_is_one_past_the_highest_number_that_fits_else_the_first_free_one() {
        let list = |ids: &[&str]| -> Vec<Todo> {
            let items: Vec<(Option<&str>, &str)> = ids.iter().map(|id| (Some(*id), "x")).collect();
            apply(&[], todo_write(&items), None).0
        };
        let next = |ids: &[&str]| announced(&apply(&list(ids), task_create("New"), None).1).to_owned();
        assert_eq!(next(&[]), "1");
        assert_eq!(next(&["1", "2", "7"]), "8");
        assert_eq!(next(&["007", "x9"]), "8", "leading zeros count; letters make no number");
        assert_eq!(next(&["0", "18446744073709551615"]), "1", "u64::MAX has no successor: the first free one");
        assert_eq!(next(&["1", "2", "18446744073709551615"]), "3");
        assert_eq!(next(&["01", "18446744073709551615"]), "1", "`01` is not the id `1`");
        assert_eq!(next(&["18446744073709551616", "99999999999999999999999999"]), "1", "past u64: text");
    }

    #[test]
    fn the_reported_wrap_gives_ids_that_name_the_tasks_created() {
        // A `TodoWrite` list with ids 0 and u64::MAX, then two tasks: before, the counter
        // wrapped (`Task #0` twice, kept as `0_2` and `0_3`).
        let (mut list, _) = apply(&[], todo_write(&[(Some("0"), "Zero"), (Some("18446744073709551615"), "Max")]), None);
        let mut ids = Vec::new();
        for subject in ["First", "Second"] {
            let (after, answer) = apply(&list, task_create(subject), None);
            ids.push(announced(&answer).to_owned());
            list = after;
        }
        assert_eq!(ids, ["1", "2"]);
        for (id, subject) in ids.iter().zip(["First", "Second"]) {
            let (after, answer) = apply(&list, task_update(id, TaskUpdateStatus::Completed), None);
            assert_eq!(answer, format!("Updated task #{id} status"));
            let done: Vec<&str> =
                after.iter().filter(|t| t.status == TodoStatus::Completed).map(|t| t.content.as_str()).collect();
            assert_eq!(done, [subject], "{id} completes its own task alone");
            assert_eq!(after.len(), 4);
        }
    }

    #[test]
    fn every_id_a_task_create_answer_names_is_that_tasks_and_only_its() {
        const IDS: [&str; 16] = [
            "0",
            "1",
            "2",
            "007",
            "18446744073709551615",
            "18446744073709551614",
            "18446744073709551616",
            "9999999999999999999999999999999999999999",
            "0_2",
            "1_2",
            "",
            " ",
            "٣",
            "１",
            "+5",
            "Task 1",
        ];
        let mut rng = crate::test_rng::Rng::for_test(0x3C6E_F372_FE94_F82B);
        for _ in 0..crate::test_rng::rounds(300) {
            let mut list: Vec<Todo> = Vec::new();
            // Tasks created since the last whole list, by the id their answer named.
            let mut told: Vec<(String, String)> = Vec::new();
            for step in 0..rng.below(30) {
                match rng.below(4) {
                    0 => {
                        let items: Vec<(Option<&str>, &str)> = (0..rng.below(6))
                            .map(|i| {
                                (
                                    rng.below(5).checked_sub(1).map(|_| *rng.pick(&IDS)),
                                    ["a", "b", "c", "d", "e", "f"][i],
                                )
                            })
                            .collect();
                        list = apply(&list, todo_write(&items), None).0;
                        told.clear();
                    }
                    1 => {
                        let subject = format!("task {step}");
                        // Observed, Claude Code's answer names the id; else planloop's does.
                        let observed = rng.below(3) == 0;
                        let given = format!("Task #{} created successfully: {subject}", rng.pick(&IDS));
                        let (after, answer) = apply(&list, task_create(&subject), observed.then_some(given.as_str()));
                        let id = match observed {
                            true => match created_id(&given) {
                                Some(id) => id,
                                None => continue,
                            },
                            false => announced(&answer).to_owned(),
                        };
                        let named: Vec<&Todo> = after.iter().filter(|t| t.id == id).collect();
                        assert_eq!(named.len(), 1, "{id:?} in {after:?}");
                        assert_eq!(
                            (named[0].content.as_str(), named[0].status),
                            (subject.as_str(), TodoStatus::Pending)
                        );
                        assert_eq!(after.len(), list.len() + 1);
                        if observed {
                            // An older task that gave up the id kept its text and status.
                            told.retain(|(told_id, _)| *told_id != id);
                        }
                        told.push((id, subject));
                        list = after;
                    }
                    2 if !told.is_empty() => {
                        let (id, subject) = told[rng.below(told.len())].clone();
                        let status = *rng.pick(&[TaskUpdateStatus::Completed, TaskUpdateStatus::Deleted]);
                        let (after, _) = apply(&list, task_update(&id, status), None);
                        let changed: Vec<&str> =
                            list.iter().filter(|t| !after.contains(t)).map(|t| t.content.as_str()).collect();
                        let expected: &[&str] = if status == TaskUpdateStatus::Completed
                            && list.iter().any(|t| t.content == subject && t.status == TodoStatus::Completed)
                        {
                            &[]
                        } else {
                            &[subject.as_str()]
                        };
                        assert_eq!(changed, expected, "{id:?} in {list:?}");
                        if status == TaskUpdateStatus::Deleted {
                            told.retain(|(told_id, _)| *told_id != id);
                        }
                        list = after;
                    }
                    _ => {
                        let id = *rng.pick(&IDS);
                        let status = *rng.pick(&[TaskUpdateStatus::InProgress, TaskUpdateStatus::Deleted]);
                        let (after, _) = apply(&list, task_update(id, status), None);
                        if status == TaskUpdateStatus::Deleted {
                            told.retain(|(told_id, _)| told_id != id || after.iter().any(|t| t.id == id));
                        }
                        list = after;
                    }
                }
                assert!(list.iter().all(|t| (1..=ID_MAX).contains(&t.id.chars().count())), "{list:?}");
            }
        }
    }
}
