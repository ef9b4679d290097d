//! The todo tools of other agents, driven through a `Session`: each dialect with
//! fixtures from its agent's own schema and what that agent's tool answers, long lists,
//! observe mode, Claude Code's tasks and Cline's checklist parameter.

mod support;

use planloop::error::ErrorCode;
use planloop::json::decimals::Decimals;
use planloop::json::value::Value;
use planloop::plan::todos::TodoStatus;
use planloop::session::approval::ToolPolicy;
use planloop::session::config::{SessionConfig, TodoDialect};
use planloop::session::exchange::{Decision, ToolCallInput};
use support::{call, config, failed, is_continue, ok, Drive};

#[test]
fn the_todo_dialects_update_the_same_planner_state() {
    let cases = [
        (
            "TodoWrite",
            r#"{"todos":[{"content":"Read code","status":"completed","activeForm":"Reading code"},{"content":"Fix bug","status":"in_progress","activeForm":"Fixing bug"}]}"#,
            "Todos have been modified successfully",
        ),
        (
            "update_plan",
            r#"{"explanation":"go","plan":[{"step":"Read code","status":"completed"},{"step":"Fix bug","status":"in_progress"}]}"#,
            "Plan updated",
        ),
        ("update_todo_list", r#"{"todos":"[x] Read code\n[-] Fix bug"}"#, "Todo list updated successfully."),
        (
            "task_tracker",
            r#"{"command":"plan","task_list":[{"title":"Read code","status":"done"},{"title":"Fix bug","status":"in_progress"}]}"#,
            "Task list has been updated with 2 items.",
        ),
        // Claude Code's older generations: ids (and priorities) given.
        (
            "TodoWrite",
            r#"{"todos":[{"id":"read_code","content":"Read code","status":"completed","priority":"high"},{"id":"fix_bug","content":"Fix bug","status":"in_progress","priority":"medium"}]}"#,
            "Todos have been modified successfully",
        ),
        (
            "gemini_write_todos",
            r#"{"todos":[{"description":"Read code","status":"completed"},{"description":"Fix bug","status":"in_progress"}]}"#,
            "Successfully updated the todo list. The current list is now:\n1. [completed] Read code\n2. [in_progress] Fix bug",
        ),
        (
            "langchain_write_todos",
            r#"{"todos":[{"content":"Read code","status":"completed"},{"content":"Fix bug","status":"in_progress"}]}"#,
            r#"Updated todo list to [{"content":"Read code","status":"completed"},{"content":"Fix bug","status":"in_progress"}]"#,
        ),
        (
            "todo_write",
            r#"{"merge":false,"todos":[{"id":"read_code","content":"Read code","status":"completed"},{"id":"fix_bug","content":"Fix bug","status":"in_progress"}]}"#,
            "Successfully updated the todo list (1 open).",
        ),
        (
            "todowrite",
            r#"{"todos":[{"content":"Read code","status":"completed","priority":"high"},{"content":"Fix bug","status":"in_progress","priority":"medium"}]}"#,
            "[\n  {\n    \"content\": \"Read code\",\n    \"status\": \"completed\",\n    \"priority\": \"high\"\n  },\n  {\n    \"content\": \"Fix bug\",",
        ),
        ("droid_TodoWrite", r#"{"todos":"1. [completed] Read code\n2. [in_progress] Fix bug"}"#, "Todos have been modified successfully"),
    ];
    for (name, args, reply) in cases {
        let dialect = TodoDialect::ALL.into_iter().find(|d| d.as_str() == name).unwrap();
        let tool = dialect.tool_name();
        let mut d = Drive::new(SessionConfig { todo_dialects: vec![dialect], ..config() });
        d.begin("Fix the bug");
        let (decision, _) = d.act("", vec![call("t", tool, args)]);
        let Decision::RunTools { replies, calls, .. } = decision else { panic!() };
        assert!(calls.is_empty(), "{tool} is answered by planloop");
        assert!(replies[0].content.starts_with(reply) && !replies[0].is_error, "{tool}: {}", replies[0].content);
        let got: Vec<(String, TodoStatus)> = d.session.todos().iter().map(|t| (t.id.clone(), t.status)).collect();
        assert_eq!(
            got,
            [("read_code".into(), TodoStatus::Completed), ("fix_bug".into(), TodoStatus::InProgress)],
            "{tool}"
        );
        let Decision::Continue { message, .. } = d.respond("Done reading.", vec![]) else { panic!() };
        assert!(message.contains(&format!("call {tool} with every item")), "{tool}");
    }
}

/// The todos of a session after one call of `tool` answered by `dialect`: the reply, or
/// the refusal.
fn one_call(dialect: TodoDialect, args: &str) -> (Result<String, String>, Drive) {
    let mut d = Drive::new(SessionConfig { todo_dialects: vec![dialect], ..config() });
    d.begin("Ship it");
    let (decision, _) = d.act("", vec![call("t", dialect.tool_name(), args)]);
    let Decision::RunTools { replies, .. } = decision else { panic!() };
    let reply = &replies[0];
    (if reply.is_error { Err(reply.content.clone()) } else { Ok(reply.content.clone()) }, d)
}

fn statuses(d: &Drive) -> Vec<(String, TodoStatus)> {
    d.session.todos().iter().map(|t| (t.content.clone(), t.status)).collect()
}

#[test]
fn gemini_cancelled_is_finished_blocked_is_not_and_one_task_may_be_in_progress() {
    let (reply, mut d) = one_call(
        TodoDialect::GeminiWriteTodos,
        r#"{"todos":[{"description":"Read","status":"completed"},{"description":"Old path","status":"cancelled"}]}"#,
    );
    assert!(reply.unwrap().ends_with("2. [cancelled] Old path"));
    assert!(matches!(d.respond("Done.", vec![]), Decision::Finalize { .. }), "cancelled counts as finished");
    let (_, mut d) = one_call(
        TodoDialect::GeminiWriteTodos,
        r#"{"todos":[{"description":"Read","status":"completed"},{"description":"Deploy","status":"blocked"}]}"#,
    );
    assert_eq!(statuses(&d)[1], ("Deploy".into(), TodoStatus::Pending));
    assert!(is_continue(&d.respond("Done.", vec![])), "blocked is not finished");
    let (reply, d) = one_call(
        TodoDialect::GeminiWriteTodos,
        r#"{"todos":[{"description":"A","status":"in_progress"},{"description":"B","status":"in_progress"}]}"#,
    );
    assert_eq!(reply.unwrap_err(), "Invalid parameters: Only one task can be \"in_progress\" at a time.");
    assert!(d.session.todos().is_empty(), "a refused call changes nothing");
    let (reply, _) = one_call(TodoDialect::GeminiWriteTodos, r#"{"todos":[]}"#);
    assert_eq!(reply.unwrap(), "Successfully cleared the todo list.");
    let (reply, _) = one_call(TodoDialect::GeminiWriteTodos, r#"{"todos":[{"content":"A","status":"pending"}]}"#);
    assert!(reply.unwrap_err().contains("description"), "Gemini's schema, not planloop's");
}

#[test]
fn cursor_merges_by_id_and_replaces_without_merge() {
    let mut d = Drive::new(SessionConfig { todo_dialects: vec![TodoDialect::CursorTodoWrite], ..config() });
    d.begin("Ship it");
    let write = |d: &mut Drive, id: &str, args: &str| {
        let (decision, _) = d.act("", vec![call(id, "todo_write", args), call(&format!("{id}-b"), "bash", "{}")]);
        let Decision::RunTools { replies, .. } = decision else { panic!() };
        replies[0].clone()
    };
    let first = r#"{"merge":false,"todos":[{"id":"schema-1","content":"Add schema","status":"in_progress"},{"id":"2","content":"Write migration","status":"pending"}]}"#;
    assert!(!write(&mut d, "a", first).is_error);
    let patch = r#"{"merge":true,"todos":[{"id":"schema-1","status":"completed"},{"id":"2","status":"in_progress"},{"id":"3","content":"Backfill","status":"cancelled"}]}"#;
    let reply = write(&mut d, "b", patch);
    assert_eq!(reply.content, "Successfully updated the todo list (1 open).");
    assert_eq!(
        statuses(&d),
        [
            ("Add schema".into(), TodoStatus::Completed),
            ("Write migration".into(), TodoStatus::InProgress),
            ("Backfill".into(), TodoStatus::Completed)
        ]
    );
    let reply = write(&mut d, "c", r#"{"merge":true,"todos":[{"id":"9","status":"completed"}]}"#);
    assert!(
        reply.is_error && reply.content.contains("\"9\" is new, so it needs content and status"),
        "{}",
        reply.content
    );
    assert_eq!(statuses(&d).len(), 3, "a refused merge changes nothing");
    let reply = write(&mut d, "d", r#"{"merge":false,"todos":[{"id":"x","content":"Only","status":"pending"}]}"#);
    assert!(!reply.is_error);
    assert_eq!(statuses(&d), [("Only".into(), TodoStatus::Pending)]);
}

#[test]
fn opencode_answers_with_its_list_as_indented_json_and_droid_reads_numbered_lines() {
    let args = r#"{"todos":[{"id":"1","content":"Create model","status":"cancelled","priority":"high"}]}"#;
    let (reply, d) = one_call(TodoDialect::OpenCodeTodoWrite, args);
    assert_eq!(
        reply.unwrap(),
        "[\n  {\n    \"content\": \"Create model\",\n    \"status\": \"cancelled\",\n    \"priority\": \"high\",\n    \"id\": \"1\"\n  }\n]"
    );
    assert_eq!(statuses(&d), [("Create model".into(), TodoStatus::Completed)]);
    let lines = r#"{"todos":"Plan:\n1. [completed] Review logs\n2. [in_progress] Patch adapter\n3.[pending] Run tests\n4. [maybe] not an item"}"#;
    let (reply, d) = one_call(TodoDialect::DroidTodoWrite, lines);
    assert!(reply.is_ok());
    assert_eq!(
        statuses(&d),
        [
            ("Review logs".into(), TodoStatus::Completed),
            ("Patch adapter".into(), TodoStatus::InProgress),
            ("Run tests".into(), TodoStatus::Pending)
        ]
    );
    let (reply, _) = one_call(TodoDialect::DroidTodoWrite, r#"{"todos":"just prose"}"#);
    assert!(reply.unwrap_err().starts_with("No todo lines found"));
    let list = r#"{"todos":[{"content":"Review logs","status":"completed","priority":"high","id":"a1"}]}"#;
    assert!(one_call(TodoDialect::DroidTodoWrite, list).0.is_ok(), "and Droid's list form");
}

#[test]
fn an_item_with_no_text_is_refused_in_every_dialect() {
    for (dialect, args) in [
        (TodoDialect::TodoWrite, r#"{"todos":[{"content":"   ","status":"pending","activeForm":"x"}]}"#),
        (TodoDialect::LangChainWriteTodos, r#"{"todos":[{"content":"","status":"pending"}]}"#),
        (TodoDialect::OpenCodeTodoWrite, r#"{"todos":[{"content":" ","status":"pending","priority":"low"}]}"#),
    ] {
        let (reply, d) = one_call(dialect, args);
        assert_eq!(reply.unwrap_err(), "Item 1 has no text: every item needs some.", "{dialect:?}");
        assert!(d.session.todos().is_empty());
    }
}

#[test]
fn in_observe_mode_the_hosts_own_todo_tool_answers_and_planloop_follows_its_list() {
    // Claude Code runs its own TodoWrite; the policy asks before anything else runs.
    let observing = SessionConfig {
        todo_dialects: vec![TodoDialect::TodoWrite],
        todo_mode: planloop::session::config::TodoMode::Observe,
        tools: ToolPolicy::default(),
        ..config()
    };
    let mut d = Drive::new(observing.clone());
    d.begin("Migrate the service");
    let Decision::RunTools { calls, replies, .. } =
        d.respond("", vec![call("t1", "TodoWrite", &claude_code_list(12, 0))])
    else {
        panic!("the host runs the agent's own tool, without asking")
    };
    assert_eq!((calls.len(), replies.len()), (1, 0));
    assert!(d.session.todos().is_empty(), "followed once its result says it worked");
    // Cut here: a session restored with the call in flight still follows it.
    let snapshot = d.session.snapshot().unwrap().to_json(Decimals::RUST).unwrap();
    d.session = planloop::session::Session::restore_json(&snapshot).unwrap();
    d.results(vec![ok("t1", "Todos have been modified successfully.")]);
    assert_eq!(d.session.todos().len(), 12);
    // A call the agent's tool refused changes nothing.
    d.respond("", vec![call("t2", "TodoWrite", &claude_code_list(12, 12))]);
    d.results(vec![failed("t2", "InputValidationError")]);
    assert_eq!(planloop::plan::todos::progress(d.session.todos()), (0, 12));
    let Decision::Continue { message, .. } = d.respond("Started the migration.", vec![]) else {
        panic!("an unfinished list must not end the turn")
    };
    assert!(message.contains("call TodoWrite with every item"), "{message}");
    // planloop still answers its own write_todos in observe mode.
    let mut d =
        Drive::new(SessionConfig { todo_dialects: vec![TodoDialect::WriteTodos, TodoDialect::TodoWrite], ..observing });
    d.begin("Go");
    let args = r#"{"todos":[{"id":"a","content":"A","status":"in_progress"}]}"#;
    let Decision::RunTools { calls, replies, .. } = d.respond("", vec![call("w", "write_todos", args)]) else {
        panic!()
    };
    assert_eq!((calls.len(), replies.len()), (0, 1));
}

/// The replies planloop gives to one response's calls, in order.
fn replies_to(d: &mut Drive, calls: Vec<ToolCallInput>) -> Vec<String> {
    let (decision, _) = d.act("", calls);
    let Decision::RunTools { replies, .. } = decision else { panic!("{decision:?}") };
    replies.iter().map(|r| r.content.clone()).collect()
}

#[test]
fn claude_code_tasks_are_the_fold_of_their_calls_several_in_one_response() {
    let tasks = vec![TodoDialect::TaskCreate, TodoDialect::TaskUpdate, TodoDialect::TaskList, TodoDialect::TaskGet];
    let mut d = Drive::new(SessionConfig { todo_dialects: tasks.clone(), ..config() });
    d.begin("Fix the flaky tests");
    let create = |id: &str, subject: &str| {
        call(id, "TaskCreate", &format!(r#"{{"subject":"{subject}","description":"…","activeForm":"Working"}}"#))
    };
    let replies = replies_to(
        &mut d,
        vec![create("c1", "Run the suite"), create("c2", "Fix the flaky test"), create("c3", "Update docs")],
    );
    assert_eq!(
        replies,
        [
            "Task #1 created successfully: Run the suite",
            "Task #2 created successfully: Fix the flaky test",
            "Task #3 created successfully: Update docs"
        ],
        "three creations in one response are no duplicate planner call"
    );
    let update = |id: &str, args: &str| call(id, "TaskUpdate", args);
    let replies = replies_to(
        &mut d,
        vec![
            update("u1", r#"{"taskId":"1","status":"completed"}"#),
            update("u2", r#"{"taskId":"2","status":"in_progress","owner":"main"}"#),
            update("u3", r#"{"taskId":"3","status":"deleted"}"#),
            update("u4", r#"{"taskId":"9","status":"completed"}"#),
            call("l", "TaskList", "{}"),
            call("g", "TaskGet", r#"{"taskId":"2"}"#),
        ],
    );
    assert_eq!(
        replies,
        [
            "Updated task #1 status",
            "Updated task #2 status, owner",
            "Updated task #3 deleted",
            "Task not found",
            "#1 [completed] Run the suite\n#2 [in_progress] Fix the flaky test",
            "Task #2: Fix the flaky test\nStatus: in_progress"
        ]
    );
    assert!(is_continue(&d.respond("Working on it.", vec![])), "task 2 is open");
    replies_to(&mut d, vec![update("u5", r#"{"taskId":"2","status":"completed"}"#), call("b", "bash", "{}")]);
    assert!(matches!(d.respond("All done.", vec![]), Decision::Finalize { .. }));
    // Observed, a new task's id is the one Claude Code's answer gives it.
    let mut d = Drive::new(SessionConfig {
        todo_dialects: tasks,
        todo_mode: planloop::session::config::TodoMode::Observe,
        ..config()
    });
    d.begin("Go");
    d.respond("", vec![create("c7", "Ship")]);
    d.results(vec![ok("c7", "Task #7 created successfully: Ship")]);
    assert_eq!(d.session.todos()[0].id, "7");
    d.respond("", vec![update("u7", r#"{"taskId":"7","status":"completed"}"#)]);
    d.results(vec![ok("u7", "Updated task #7 status")]);
    assert_eq!(d.session.todos()[0].status, TodoStatus::Completed);
}

/// A session with `TodoWrite` and Claude Code's task tools on, sharing one list.
fn todo_write_and_tasks() -> Drive {
    let dialects = vec![
        TodoDialect::TodoWrite,
        TodoDialect::TaskCreate,
        TodoDialect::TaskUpdate,
        TodoDialect::TaskList,
        TodoDialect::TaskGet,
    ];
    let mut d = Drive::new(SessionConfig { todo_dialects: dialects, max_iterations: 100_000, ..config() });
    d.begin("Fix the flaky tests");
    d
}

/// The id a `TaskCreate` answer names.
fn announced(answer: &str) -> String {
    let id = answer.strip_prefix("Task #").expect(answer);
    id[..id.find(" created successfully: ").expect(answer)].to_owned()
}

#[test]
fn task_ids_after_a_todo_write_list_with_the_largest_number_name_their_own_tasks() {
    let mut d = todo_write_and_tasks();
    let list = r#"{"todos":[{"id":"0","content":"Zero","status":"pending"},{"id":"18446744073709551615","content":"Max","status":"pending"}]}"#;
    replies_to(&mut d, vec![call("w", "TodoWrite", list), call("b", "bash", "{}")]);
    let create =
        |id: &str, subject: &str| call(id, "TaskCreate", &format!(r#"{{"subject":"{subject}","description":"…"}}"#));
    let replies = replies_to(&mut d, vec![create("c1", "First"), create("c2", "Second")]);
    let ids: Vec<String> = replies.iter().map(|r| announced(r)).collect();
    assert_eq!(ids, ["1", "2"], "{replies:?}");
    for (n, (id, subject)) in ids.iter().zip(["First", "Second"]).enumerate() {
        let update = call(&format!("u{n}"), "TaskUpdate", &format!(r#"{{"taskId":"{id}","status":"completed"}}"#));
        assert_eq!(
            replies_to(&mut d, vec![update, call(&format!("b{n}"), "bash", "{}")])[0],
            format!("Updated task #{id} status")
        );
        let named: Vec<_> = d.session.todos().iter().filter(|t| t.id == *id).map(|t| t.content.clone()).collect();
        assert_eq!(named, [subject], "{id} is kept once, for the task it was told of");
    }
    assert_eq!(
        statuses(&d),
        [
            ("Zero".into(), TodoStatus::Pending),
            ("Max".into(), TodoStatus::Pending),
            ("First".into(), TodoStatus::Completed),
            ("Second".into(), TodoStatus::Completed)
        ]
    );
}

#[test]
fn every_task_id_a_session_announces_names_the_task_it_created() {
    const IDS: [&str; 12] = [
        "0",
        "1",
        "007",
        "18446744073709551615",
        "18446744073709551616",
        "9999999999999999999999999999999999999999",
        "0_2",
        "",
        "٣",
        "１",
        "+5",
        "Task 1",
    ];
    for seed in support::seeds(40) {
        let mut rng = support::Rng::seeded(seed);
        let mut d = todo_write_and_tasks();
        // Tasks created since the last whole list: the id each answer named, and its subject.
        let mut told: Vec<(String, String)> = Vec::new();
        for step in 0..rng.below(25) {
            let host = call(&format!("b{step}"), "bash", &format!(r#"{{"step":{step}}}"#));
            match rng.below(3) {
                0 => {
                    let items: Vec<String> = (0..1 + rng.below(5))
                        .map(|i| {
                            let id = *rng.pick(&IDS);
                            format!(r#"{{"id":{id:?},"content":"item {i}","status":"pending"}}"#)
                        })
                        .collect();
                    let list = format!(r#"{{"todos":[{}]}}"#, items.join(","));
                    replies_to(&mut d, vec![call(&format!("w{step}"), "TodoWrite", &list), host]);
                    told.clear();
                }
                1 => {
                    let subject = format!("task {step}");
                    let args = format!(r#"{{"subject":"{subject}","description":"…"}}"#);
                    let id =
                        announced(&replies_to(&mut d, vec![call(&format!("c{step}"), "TaskCreate", &args), host])[0]);
                    let named: Vec<(String, TodoStatus)> = d
                        .session
                        .todos()
                        .iter()
                        .filter(|t| t.id == id)
                        .map(|t| (t.content.clone(), t.status))
                        .collect();
                    assert_eq!(named, [(subject.clone(), TodoStatus::Pending)], "{id:?}: {:?}", d.session.todos());
                    told.push((id, subject));
                }
                _ if !told.is_empty() => {
                    let (id, subject) = told.swap_remove(rng.below(told.len()));
                    let args = format!(r#"{{"taskId":{id:?},"status":"completed"}}"#);
                    let before = statuses(&d);
                    replies_to(&mut d, vec![call(&format!("u{step}"), "TaskUpdate", &args), host]);
                    let changed: Vec<String> =
                        before.iter().filter(|s| !statuses(&d).contains(s)).map(|(c, _)| c.clone()).collect();
                    assert_eq!(changed, [subject], "TaskUpdate {id:?} completes its task alone");
                }
                _ => {
                    let args = format!(r#"{{"taskId":{:?},"status":"deleted"}}"#, rng.pick(&IDS));
                    replies_to(&mut d, vec![call(&format!("x{step}"), "TaskUpdate", &args), host]);
                    let kept = |id: &String| d.session.todos().iter().any(|t| t.id == *id);
                    told.retain(|(id, _)| kept(id));
                }
            }
        }
        let text = d.session.snapshot().unwrap().to_json(Decimals::RUST).unwrap();
        planloop::session::Session::restore_json(&text).expect("what a session holds, it restores");
    }
}

#[test]
fn cline_task_progress_on_any_call_replaces_the_list_and_the_call_runs_as_it_is() {
    let mut d = Drive::new(SessionConfig { todo_dialects: vec![TodoDialect::TaskProgress], ..config() });
    d.begin("Build the app");
    let args = r#"{"command":"npm install","requires_approval":false,"task_progress":"- [x] Set up project structure<br>- [ ] Install dependencies\n- [ ] Create components"}"#;
    let Decision::RunTools { calls, replies, .. } = d.respond("", vec![call("e1", "execute_command", args)]) else {
        panic!()
    };
    assert_eq!((calls.len(), replies.len()), (1, 0), "the host runs the call, task_progress and all");
    assert!(matches!(&calls[0].args, Value::Object(members) if members.iter().any(|(k, _)| k == "task_progress")));
    // The checklist says how things stand once the call has run: it counts from its result.
    assert!(statuses(&d).is_empty());
    d.results(vec![ok("e1", "added 200 packages")]);
    assert_eq!(
        statuses(&d),
        [
            ("Set up project structure".into(), TodoStatus::Completed),
            ("Install dependencies".into(), TodoStatus::InProgress),
            ("Create components".into(), TodoStatus::Pending)
        ],
        "the first unchecked item is the current one"
    );
    let Decision::Continue { message, .. } = d.respond("Dependencies are in.", vec![]) else { panic!() };
    assert!(message.contains("pass task_progress with every item checked ([x])"), "{message}");
    // A call without the parameter, or with no checklist in it, leaves the list alone.
    d.act("", vec![call("r", "read_file", r#"{"path":"a.ts","task_progress":"working on it"}"#)]);
    assert_eq!(statuses(&d).len(), 3);
    let done = r#"{"result":"Done","task_progress":"- [x] Set up project structure\n- [x] Install dependencies\n- [x] Create components"}"#;
    d.act("", vec![call("a", "attempt_completion", done)]);
    assert!(matches!(d.respond("Done.", vec![]), Decision::Finalize { .. }));
    // It is no tool: never offered.
    assert!(d.session.answered_dialects().is_empty());
}

#[test]
fn two_dialects_of_one_tool_name_cannot_both_be_on() {
    let clash = SessionConfig {
        todo_dialects: vec![TodoDialect::WriteTodos, TodoDialect::UpdatePlan, TodoDialect::GeminiWriteTodos],
        ..config()
    };
    let error = clash.check("config").unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidOptions);
    assert!(
        error.message.contains("\"write_todos\" and \"gemini_write_todos\" both answer the tool write_todos"),
        "{}",
        error.message
    );
    assert_eq!(planloop::error::issue::format_path(error.data.issues.unwrap()[0].path()), "todoDialects[2]");
    let apart =
        SessionConfig { todo_dialects: vec![TodoDialect::GeminiWriteTodos, TodoDialect::TodoWrite], ..config() };
    assert!(apart.check("config").is_ok());
}

/// Claude Code's `TodoWrite` with `n` items, the first `done` completed, the next in
/// progress (ids derived from the text, as Claude Code 2.x sends none).
fn claude_code_list(n: usize, done: usize) -> String {
    let items: Vec<String> = (1..=n)
        .map(|i| {
            let status = match i {
                i if i <= done => "completed",
                i if i == done + 1 => "in_progress",
                _ => "pending",
            };
            format!(r#"{{"content":"Step {i} of the migration","status":"{status}","activeForm":"Doing step {i}"}}"#)
        })
        .collect();
    format!(r#"{{"todos":[{}]}}"#, items.join(","))
}

#[test]
fn a_claude_code_list_of_twenty_is_followed_and_its_unfinished_end_is_not_a_final_answer() {
    let mut d = Drive::new(SessionConfig { todo_dialects: vec![TodoDialect::TodoWrite], ..config() });
    d.begin("Migrate the service");
    let (decision, _) = d.act("", vec![call("t1", "TodoWrite", &claude_code_list(20, 0))]);
    let Decision::RunTools { replies, .. } = decision else { panic!() };
    assert!(!replies[0].is_error, "{}", replies[0].content);
    let (decision, _) = d
        .act("", vec![call("b1", "bash", r#"{"command":"make"}"#), call("t2", "TodoWrite", &claude_code_list(20, 12))]);
    let Decision::RunTools { replies, .. } = decision else { panic!() };
    assert!(!replies[0].is_error, "{}", replies[0].content);
    assert_eq!(d.session.todos().len(), 20);
    assert_eq!(planloop::plan::todos::progress(d.session.todos()), (12, 20));
    // The agent stops with 8 of 20 left: planloop sends it back, with the whole list.
    let Decision::Continue { message, .. } = d.respond("I've made good progress.", vec![]) else {
        panic!("an unfinished list of 20 must not end the turn")
    };
    assert!(message.contains("[-] Step 13 of the migration\n") && message.contains("[ ] Step 20 of"), "{message}");
    // Finished, it may end.
    let (decision, _) = d
        .act("", vec![call("b2", "bash", r#"{"command":"make"}"#), call("t3", "TodoWrite", &claude_code_list(20, 20))]);
    let Decision::RunTools { replies, .. } = decision else { panic!() };
    assert!(!replies[0].is_error, "{}", replies[0].content);
    let last = d.respond("All 20 steps are done.", vec![]);
    assert!(matches!(last, Decision::Finalize { .. }), "{last:?}");
    // The list survives a snapshot.
    let restored =
        planloop::session::Session::restore_json(&d.session.snapshot().unwrap().to_json(Decimals::RUST).unwrap())
            .unwrap();
    assert_eq!(restored.todos().len(), 20);
}

#[test]
fn a_dialect_not_enabled_is_a_host_tool() {
    let mut d = Drive::new(config());
    d.begin("Go");
    let decision = d.respond("", vec![call("t", "TodoWrite", r#"{"todos":[]}"#)]);
    assert!(matches!(decision, Decision::RunTools { ref calls, .. } if calls.len() == 1));
}

#[test]
fn a_long_list_of_invalid_items_gets_a_short_reply() {
    let items: Vec<String> = (0..200).map(|i| format!(r#"{{"step":"s{i}","status":"done"}}"#)).collect();
    let (reply, d) = one_call(TodoDialect::UpdatePlan, &format!(r#"{{"plan":[{}]}}"#, items.join(",")));
    let reply = reply.unwrap_err();
    let lines: Vec<&str> = reply.lines().collect();
    assert_eq!(lines.len(), 7, "{reply}");
    assert!(lines[1].starts_with("plan[0].status: Invalid option") && lines[5].starts_with("plan[4].status:"));
    assert_eq!(lines[6], "…and 195 more issues");
    assert!(d.session.todos().is_empty());
}

#[test]
fn invalid_dialect_arguments_get_an_error_reply_and_change_nothing() {
    let mut d = Drive::new(SessionConfig { todo_dialects: vec![TodoDialect::UpdatePlan], ..config() });
    d.begin("Go");
    let (decision, _) = d.act("", vec![call("t", "update_plan", r#"{"plan":[{"step":"a","status":"done"}]}"#)]);
    let Decision::RunTools { replies, .. } = decision else { panic!() };
    assert!(
        replies[0].is_error && replies[0].content.contains("plan[0].status: Invalid option"),
        "{}",
        replies[0].content
    );
    assert!(d.session.todos().is_empty());
}
