//! `Session` driven with simulated time: seed 000's tests (batches 1 and 2), seed 003's
//! continuation tests, limits, stuck detection, the todo dialects, and misuse.

mod support;

use planloop::error::ErrorCode;
use planloop::json::value::Value;
use planloop::plan::todos::TodoStatus;
use planloop::session::approval::{ToolClass, ToolPolicy};
use planloop::session::config::{ContinuationProtocol, Language, OnLimit, SessionConfig, TodoDialect};
use planloop::session::events::EventKind;
use planloop::session::exchange::{ContinueReason, Decision, ExitReason, ModelResponse, ProgressSource, ToolCallInput};
use support::{call, failed, last_message, ok, plan, todos, Drive};

/// Every host tool reads (no approvals): these tests are about the loop.
fn config() -> SessionConfig {
    SessionConfig {
        tools: ToolPolicy { default: ToolClass::Read, ..ToolPolicy::default() },
        ..SessionConfig::default()
    }
}

fn is_continue(decision: &Decision) -> bool {
    matches!(decision, Decision::Continue { .. })
}

fn exit(decision: &Decision) -> ExitReason {
    match decision {
        Decision::Finalize { exit_reason, .. }
        | Decision::Pause { exit_reason, .. }
        | Decision::Fail { exit_reason, .. } => *exit_reason,
        other => panic!("the turn did not end: {other:?}"),
    }
}

// Seed 000, batch 1 ---------------------------------------------------------------

#[test]
fn a_complex_three_step_plan_runs_to_completion_through_plan_progress() {
    let mut d = Drive::new(config());
    d.begin("Summarize the vault");
    d.act("", vec![call("p", "plan", &plan("complex"))]);
    d.act("Listing notes.", vec![call("1", "list_notes", "{}")]);
    d.act("", vec![call("pp1", "plan_progress", r#"{"step_id":"list","step_summary":"12 notes"}"#)]);
    // The model stops after step 1: refused.
    let early = d.respond("I listed the notes.", vec![]);
    let Decision::Continue { message, reason, attempt, max_attempts, .. } = &early else { panic!("{early:?}") };
    assert_eq!((*reason, *attempt, *max_attempts), (ContinueReason::PlanUnfinished, 1, 5));
    assert!(message.contains("3. write summary") && message.contains("Summarize the vault"));
    assert!(message.contains("plan_progress(plan_status=\"completed\")"));
    d.act("Reading.", vec![call("2", "read_notes", "{}")]);
    d.act("Writing.", vec![call("3", "write_summary", "{}")]);
    let (done, _) = d.act("", vec![call("pp2", "plan_progress", r#"{"plan_status":"completed"}"#)]);
    let Decision::RunTools { replies, .. } = &done else { panic!("{done:?}") };
    assert!(replies[0].content.contains("marked completed"));
    let last = d.respond("Here is the summary.", vec![]);
    assert_eq!(
        last,
        Decision::Finalize { answer: "Here is the summary.".into(), exit_reason: ExitReason::FinalAnswer }
    );
    assert_eq!(d.count(|e| matches!(e, EventKind::PlanContinuation { .. })), 1);
}

#[test]
fn a_simple_plan_bypasses_the_continuation_guard() {
    let mut d = Drive::new(config());
    d.begin("What time is it?");
    d.act("", vec![call("p", "plan", &plan("simple"))]);
    let answer = d.respond("It is noon.", vec![]);
    assert_eq!(exit(&answer), ExitReason::FinalAnswer);
    assert_eq!(d.count(|e| matches!(e, EventKind::PlanContinuation { .. })), 0);
}

#[test]
fn no_plan_finalizes_at_once() {
    let mut d = Drive::new(config());
    d.begin("Hello");
    assert_eq!(exit(&d.respond("Hi!", vec![])), ExitReason::FinalAnswer);
}

#[test]
fn the_safety_valve_finalizes_after_five_continuations() {
    let mut d = Drive::new(config());
    d.begin("Summarize the vault");
    d.act("", vec![call("p", "plan", &plan("complex"))]);
    for attempt in 1..=5 {
        let decision = d.respond(&format!("Progress report {attempt}."), vec![]);
        assert!(matches!(decision, Decision::Continue { attempt: a, .. } if a == attempt), "{decision:?}");
    }
    let last = d.respond("Progress report 6.", vec![]);
    assert_eq!(last, Decision::Finalize { answer: "Progress report 6.".into(), exit_reason: ExitReason::SafetyValve });
    assert_eq!(d.count(|e| matches!(e, EventKind::PlanContinuation { .. })), 5);
}

#[test]
fn continuation_attempts_reset_on_a_new_plan_version() {
    let mut d = Drive::new(config());
    d.begin("Summarize the vault");
    d.act("", vec![call("p1", "plan", &plan("complex"))]);
    for i in 0..4 {
        assert!(is_continue(&d.respond(&format!("report {i}"), vec![])));
    }
    d.act("", vec![call("p2", "plan", &plan("complex"))]);
    assert_eq!(d.session.plan().map(|p| p.version), Some(2));
    let decision = d.respond("new report", vec![]);
    assert!(matches!(decision, Decision::Continue { attempt: 1, .. }), "{decision:?}");
}

#[test]
fn a_re_plan_clears_the_completed_flag() {
    let mut d = Drive::new(config());
    d.begin("Summarize the vault");
    d.act("", vec![call("p1", "plan", &plan("complex"))]);
    d.act("", vec![call("pp", "plan_progress", r#"{"plan_status":"completed"}"#)]);
    d.act("More to do.", vec![call("x", "search", "{}")]);
    d.act("", vec![call("p2", "plan", &plan("complex"))]);
    assert!(is_continue(&d.respond("Done?", vec![])));
}

#[test]
fn plan_progress_is_refused_without_a_plan() {
    let mut d = Drive::new(config());
    d.begin("Go");
    let (decision, _) = d.act("", vec![call("pp", "plan_progress", r#"{"step_id":"a"}"#)]);
    let Decision::RunTools { replies, calls, .. } = decision else { panic!() };
    assert!(calls.is_empty());
    assert!(replies[0].is_error && replies[0].content.contains("call plan()"));
    assert!(d.session.plan().is_none());
}

#[test]
fn plan_progress_needs_no_other_gate_after_plan() {
    // Seed 000 exempts plan_progress from its clarify gate; planloop has no such gate.
    let mut d = Drive::new(config());
    d.begin("Go");
    d.act("", vec![call("p", "plan", &plan("complex"))]);
    let (decision, _) = d.act("", vec![call("pp", "plan_progress", r#"{"step_id":"a","next_step":"b"}"#)]);
    let Decision::RunTools { replies, .. } = decision else { panic!() };
    assert!(!replies[0].is_error, "{}", replies[0].content);
    assert_eq!(replies[0].content, "Recorded: a done (1 steps so far). Next: b.");
}

#[test]
fn plan_progress_must_be_called_alone() {
    let mut d = Drive::new(config());
    d.begin("Go");
    d.act("", vec![call("p", "plan", &plan("complex"))]);
    let decision =
        d.respond("", vec![call("pp", "plan_progress", r#"{"plan_status":"completed"}"#), call("s", "search", "{}")]);
    let Decision::RunTools { replies, calls, .. } = decision else { panic!() };
    assert_eq!(calls.len(), 1, "the other call still runs");
    assert!(replies[0].is_error && replies[0].content.contains("must be called alone"));
    assert!(!d.session.plan().unwrap().completed);
}

// Seed 000, batch 2 ---------------------------------------------------------------

/// Runs ten iterations of one host tool each after a plan; returns, per iteration, whether
/// its last tool message carried the reminder.
fn reminders(goal_plan: &str, iterations: usize) -> Vec<bool> {
    let mut d = Drive::new(SessionConfig { max_iterations: 100, ..config() });
    d.begin("Summarize the vault");
    let mut carried = Vec::new();
    for i in 1..=iterations {
        let calls = match i {
            1 => vec![call("p", "plan", goal_plan), call("c1", "search", "{}")],
            _ => vec![call(&format!("c{i}"), "search", &format!(r#"{{"q":{i}}}"#))],
        };
        let (_, outcome) = d.act("", calls);
        carried.push(last_message(&outcome.unwrap()).content.contains("<goal-plan-reminder>"));
    }
    carried
}

#[test]
fn the_reminder_comes_on_iterations_3_6_9_and_not_in_between() {
    let carried = reminders(&plan("complex"), 10);
    let with: Vec<usize> = (1..=10).filter(|i| carried[i - 1]).collect();
    assert_eq!(with, [3, 6, 9]);
}

#[test]
fn the_reminder_goes_into_the_last_tool_message_only() {
    let mut d = Drive::new(config());
    d.begin("Summarize the vault");
    d.act("", vec![call("p", "plan", &plan("complex"))]);
    d.act("", vec![call("a", "search", "{}")]);
    let calls = vec![call("x", "search", r#"{"q":1}"#), call("y", "read", "{}"), call("z", "list", "{}")];
    let (_, outcome) = d.act("", calls);
    let outcome = outcome.unwrap();
    let flags: Vec<bool> = outcome.messages.iter().map(|m| m.content.contains("<goal-plan-reminder>")).collect();
    assert_eq!(flags, [false, false, true]);
    assert!(outcome.messages[2].content.starts_with("list done\n\n<goal-plan-reminder>\nGoal: Summarize the vault"));
    assert_eq!(d.count(|e| matches!(e, EventKind::ReminderInjected {})), 1);
}

#[test]
fn no_reminder_without_a_plan_or_with_an_empty_one() {
    let carried = reminders(r#"{"overall_goal_ui":" ","internal_plan":"1. a","complexity":"complex"}"#, 6);
    assert!(carried.iter().all(|c| !c), "empty goal");
    let carried = reminders(r#"{"overall_goal_ui":"Goal","internal_plan":"   ","complexity":"complex"}"#, 6);
    assert!(carried.iter().all(|c| !c), "empty plan");
    let mut d = Drive::new(config());
    d.begin("No plan here");
    for i in 1..=3 {
        let (_, outcome) = d.act("", vec![call(&format!("c{i}"), "search", &format!(r#"{{"q":{i}}}"#))]);
        assert!(!last_message(&outcome.unwrap()).content.contains("reminder"));
    }
}

// The todo list as a plan ----------------------------------------------------------

#[test]
fn an_unfinished_todo_list_refuses_the_early_stop_and_names_the_todo_tool() {
    let mut d = Drive::new(config());
    d.begin("Fix the bug");
    d.act(
        "",
        vec![
            call("t1", "write_todos", &todos(&[("find", "in_progress"), ("fix", "pending"), ("test", "pending")])),
            call("s", "search", "{}"),
        ],
    );
    let stop = d.respond("Found it.", vec![]);
    let Decision::Continue { message, .. } = &stop else { panic!("{stop:?}") };
    assert!(message.contains("[-] Do find\n[ ] Do fix\n[ ] Do test"));
    assert!(message.contains("call write_todos with every item marked completed"));
    d.act(
        "",
        vec![
            call("t2", "write_todos", &todos(&[("find", "completed"), ("fix", "completed"), ("test", "completed")])),
            call("r", "run_tests", "{}"),
        ],
    );
    assert_eq!(exit(&d.respond("All fixed and tested.", vec![])), ExitReason::FinalAnswer);
}

#[test]
fn a_todo_revision_that_re_opens_work_resets_the_counter() {
    let mut d = Drive::new(config());
    d.begin("Fix the bug");
    d.act("", vec![call("t1", "write_todos", &todos(&[("a", "in_progress")])), call("s", "search", "{}")]);
    for _ in 0..3 {
        assert!(is_continue(&d.respond("report", vec![])));
    }
    d.act(
        "",
        vec![
            call("t2", "write_todos", &todos(&[("a", "completed"), ("b", "pending")])),
            call("s2", "search", r#"{"q":2}"#),
        ],
    );
    assert!(matches!(d.respond("report", vec![]), Decision::Continue { attempt: 1, .. }));
}

#[test]
fn the_overuse_guard_refuses_the_third_planner_only_iteration() {
    let mut d = Drive::new(config());
    d.begin("Go");
    d.act("", vec![call("1", "write_todos", &todos(&[("a", "pending")]))]);
    d.act("", vec![call("2", "write_todos", &todos(&[("a", "in_progress")]))]);
    let (third, _) = d.act("", vec![call("3", "plan", &plan("complex"))]);
    let Decision::RunTools { replies, .. } = third else { panic!() };
    assert!(replies[0].is_error && replies[0].content.contains("Execute the next step now"));
    assert!(d.session.plan().is_none(), "the refused plan was not recorded");
    assert_eq!(d.count(|e| matches!(e, EventKind::PlannerRefused { .. })), 1);
}

// Seed 003: the continuation protocol ---------------------------------------------

fn protocol(require_explicit_signal: bool) -> SessionConfig {
    SessionConfig { continuation_protocol: ContinuationProtocol { enabled: true, require_explicit_signal }, ..config() }
}

#[test]
fn an_explicit_continue_keeps_going_and_terminate_ends_with_the_object_stripped() {
    let mut d = Drive::new(protocol(true));
    d.begin("Migrate the files");
    let reply = r#"Migrated 2 of 5. {"continuation": {"status": "CONTINUE", "reason": "3 left", "progress": {"current_step": 2, "total_steps": 5}}}"#;
    assert!(matches!(d.respond(reply, vec![]), Decision::Continue { reason: ContinueReason::ContinuationSignal, .. }));
    let progress = d.session.progress();
    assert_eq!(
        (progress.source, progress.completed, progress.total, progress.percentage),
        (ProgressSource::Continuation, 2, 5, Some(40.0))
    );
    let done = "All 5 migrated.\n```json\n{\"continuation\": {\"status\": \"TERMINATE\", \"progress\": {\"completion_percentage\": 100}}}\n```";
    assert_eq!(
        d.respond(done, vec![]),
        Decision::Finalize { answer: "All 5 migrated.".into(), exit_reason: ExitReason::FinalAnswer }
    );
    assert_eq!(d.session.progress().percentage, Some(100.0));
}

#[test]
fn without_a_signal_the_default_is_terminate_unless_the_fallback_reads_one() {
    let mut strict = Drive::new(protocol(true));
    strict.begin("Go");
    assert_eq!(exit(&strict.respond("I need more steps.", vec![])), ExitReason::FinalAnswer);
    let mut lenient = Drive::new(protocol(false));
    lenient.begin("Go");
    assert!(is_continue(&lenient.respond("I need more steps.", vec![])));
    assert_eq!(exit(&lenient.respond("Task completed. I could continue, but no.", vec![])), ExitReason::FinalAnswer);
    assert_eq!(exit(&lenient.respond_after_begin("Here you go.")), ExitReason::FinalAnswer);
}

trait RespondAfterBegin {
    fn respond_after_begin(&mut self, text: &str) -> Decision;
}

impl RespondAfterBegin for Drive {
    fn respond_after_begin(&mut self, text: &str) -> Decision {
        self.begin("again");
        self.respond(text, vec![])
    }
}

#[test]
fn the_plan_guard_still_applies_when_the_model_says_terminate() {
    let mut d = Drive::new(protocol(true));
    d.begin("Go");
    d.act("", vec![call("p", "plan", &plan("complex"))]);
    let decision = d.respond(r#"{"response": "Done?", "continuation": {"status": "TERMINATE"}}"#, vec![]);
    assert!(matches!(decision, Decision::Continue { reason: ContinueReason::PlanUnfinished, .. }));
}

// Limits ---------------------------------------------------------------------------

#[test]
fn the_last_iteration_withholds_tools_and_a_call_then_pauses_the_turn() {
    let mut d = Drive::new(SessionConfig { max_iterations: 3, ..config() });
    d.begin("Go");
    d.act("", vec![call("t", "write_todos", &todos(&[("a", "completed"), ("b", "in_progress")]))]);
    let (second, outcome) = d.act("", vec![call("s", "search", "{}")]);
    let Decision::RunTools { next, .. } = &second else { panic!() };
    assert_eq!((next.iteration, next.tools_withheld, next.tool_rounds_remaining), (3, true, 0));
    assert_eq!(next.budget_line, "Tool rounds remaining: 0 of 2. Give your final answer now, without tools.");
    assert!(outcome.unwrap().next.tools_withheld);
    let third = d.respond("", vec![call("x", "search", r#"{"q":2}"#)]);
    let Decision::Pause { exit_reason, summary } = &third else { panic!("{third:?}") };
    assert_eq!(*exit_reason, ExitReason::MaxIterations);
    assert_eq!(
        summary,
        "Paused at the iteration limit. Done so far: 1/2 (Do a). Next: Do b. Say \"continue\" to resume."
    );
    assert_eq!(d.count(|e| matches!(e, EventKind::TurnPaused { steps_used: 3, steps_remaining: 0, .. })), 1);
}

#[test]
fn a_final_answer_on_the_last_iteration_is_still_accepted() {
    let mut d = Drive::new(SessionConfig { max_iterations: 2, ..config() });
    d.begin("Go");
    d.act("", vec![call("s", "search", "{}")]);
    assert_eq!(exit(&d.respond("The answer.", vec![])), ExitReason::FinalAnswer);
}

#[test]
fn an_unfinished_plan_at_the_last_iteration_pauses_instead_of_nudging() {
    let mut d = Drive::new(SessionConfig { max_iterations: 2, language: Language::Zh, ..config() });
    d.begin("Go");
    d.act("", vec![call("p", "plan", &plan("complex"))]);
    let decision = d.respond("进度报告", vec![]);
    let Decision::Pause { exit_reason: ExitReason::MaxIterations, summary } = &decision else { panic!("{decision:?}") };
    assert!(summary.starts_with("已在迭代次数上限处暂停"), "{summary}");
}

#[test]
fn the_time_limit_counts_the_now_ms_passed_in_and_can_fail_the_turn() {
    let mut d = Drive::new(SessionConfig { timeout_ms: 10_000, on_limit: OnLimit::Fail, ..config() });
    d.begin("Go");
    d.act("", vec![call("s", "search", "{}")]);
    d.tick(60_000.0);
    let decision = d.respond("", vec![call("t", "search", r#"{"q":2}"#)]);
    assert!(matches!(&decision, Decision::Fail { exit_reason: ExitReason::Timeout, .. }), "{decision:?}");
    assert_eq!(d.count(|e| matches!(e, EventKind::LimitReached { exit_reason: ExitReason::Timeout, .. })), 1);
    assert_eq!(d.count(|e| matches!(e, EventKind::TurnFailed { .. })), 1);
}

// Stuck ----------------------------------------------------------------------------

#[test]
fn the_same_call_with_the_same_result_is_noticed_nudged_and_ended() {
    let mut d = Drive::new(SessionConfig { max_iterations: 100, ..config() });
    d.begin("Find the file");
    let mut nudged = 0;
    for i in 0..12 {
        let decision = d.respond("", vec![call(&format!("c{i}"), "ls", r#"{"path":"/tmp"}"#)]);
        let Decision::RunTools { next, .. } = decision else { panic!("{decision:?}") };
        let outcome = d.results(vec![ok(&format!("c{i}"), "a.txt b.txt")]);
        if last_message(&outcome).content.contains("<stuck>") {
            nudged += 1;
        }
        if outcome.next.tools_withheld {
            assert!(!next.tools_withheld);
            break;
        }
    }
    assert_eq!(nudged, 2, "two nudges before the end");
    let end = d.respond("I could not find it.", vec![]);
    assert_eq!(end, Decision::Finalize { answer: "I could not find it.".into(), exit_reason: ExitReason::Stuck });
    assert_eq!(d.count(|e| matches!(e, EventKind::Stuck { .. })), 3);
}

#[test]
fn the_same_failing_call_three_times_is_noticed() {
    let mut d = Drive::new(config());
    d.begin("Read it");
    for i in 0..3 {
        d.respond("", vec![call(&format!("c{i}"), "read", r#"{"path":"x"}"#)]);
        d.results(vec![failed(&format!("c{i}"), &format!("ENOENT ({i})"))]);
    }
    assert_eq!(
        d.count(|e| matches!(
            e,
            EventKind::Stuck { detail: planloop::session::stuck::Pattern::SameFailingCall { .. }, .. }
        )),
        1
    );
}

#[test]
fn the_same_text_reply_three_times_is_nudged_then_ended() {
    let mut d = Drive::new(config());
    d.begin("Go");
    d.act("", vec![call("p", "plan", &plan("complex"))]);
    let mut decisions = Vec::new();
    for _ in 0..9 {
        let decision = d.respond("Working on it.", vec![]);
        let done = matches!(decision, Decision::Finalize { .. });
        decisions.push(decision);
        if done {
            break;
        }
    }
    assert!(matches!(decisions[2], Decision::Continue { reason: ContinueReason::Stuck, .. }), "{:?}", decisions[2]);
    assert!(matches!(
        decisions.last(),
        Some(Decision::Finalize { exit_reason: ExitReason::SafetyValve | ExitReason::Stuck, .. })
    ));
}

// Dialects -------------------------------------------------------------------------

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
    let snapshot = d.session.snapshot().unwrap().to_json().unwrap();
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
    assert_eq!(
        statuses(&d),
        [
            ("Set up project structure".into(), TodoStatus::Completed),
            ("Install dependencies".into(), TodoStatus::InProgress),
            ("Create components".into(), TodoStatus::Pending)
        ],
        "the first unchecked item is the current one"
    );
    d.results(vec![ok("e1", "added 200 packages")]);
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
    let restored = planloop::session::Session::restore_json(&d.session.snapshot().unwrap().to_json().unwrap()).unwrap();
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

// Misuse ---------------------------------------------------------------------------

#[test]
fn calls_out_of_order_are_refused_and_change_nothing() {
    let mut d = Drive::new(config());
    let response = || ModelResponse { text: Some("hi".into()), tool_calls: vec![] };
    let err = d.session.handle_model_response(response(), 1.0).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidState);
    assert!(err.message.contains("call beginTurn first"));
    d.begin("Go");
    d.respond("", vec![call("a", "search", "{}")]);
    let err = d.session.handle_model_response(response(), 9e9).unwrap_err();
    assert_eq!(
        (err.code, err.data.detail.as_deref()),
        (ErrorCode::InvalidState, Some("tool results are awaited: call handleToolResults first"))
    );
    let unknown = d.session.handle_tool_results(vec![ok("zzz", "x")], 9e9).unwrap_err();
    assert_eq!(unknown.code, ErrorCode::InvalidArgument);
    let twice = d.session.handle_tool_results(vec![ok("a", "x"), ok("a", "y")], 9e9).unwrap_err();
    assert!(twice.message.contains("already given"));
    // Nothing changed: the real result is still accepted.
    let outcome = d.results(vec![ok("a", "found")]);
    assert!(outcome.complete && outcome.messages[0].content == "found");
}

#[test]
fn duplicate_call_ids_in_one_response_are_refused() {
    let mut d = Drive::new(config());
    d.begin("Go");
    let response = ModelResponse { text: None, tool_calls: vec![call("a", "x", "{}"), call("a", "y", "{}")] };
    let err = d.session.handle_model_response(response, 5_000.0).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
}

#[test]
fn results_may_come_in_parts_and_the_batch_closes_with_the_last() {
    let mut d = Drive::new(config());
    d.begin("Go");
    d.respond("", vec![call("a", "x", "{}"), call("b", "y", "{}")]);
    let first = d.results(vec![ok("b", "B")]);
    assert!(!first.complete);
    let second = d.results(vec![ok("a", "A")]);
    assert!(second.complete);
    assert_eq!(exit(&d.respond("Done.", vec![])), ExitReason::FinalAnswer);
}

#[test]
fn long_tool_output_is_cut_with_a_note() {
    let mut d = Drive::new(SessionConfig { max_tool_output_chars: 100, ..config() });
    d.begin("Go");
    d.respond("", vec![call("a", "cat", "{}")]);
    let outcome = d.results(vec![ok("a", &"z".repeat(500))]);
    let content = &outcome.messages[0].content;
    assert!(
        content.starts_with(&"z".repeat(99)) && content.ends_with("[output cut: first 100 of 500 characters]"),
        "{content}"
    );
}

#[test]
fn a_new_turn_abandons_an_open_one() {
    let mut d = Drive::new(config());
    d.begin("First");
    d.respond("", vec![call("a", "x", "{}")]);
    d.begin("Second");
    assert_eq!(d.count(|e| matches!(e, EventKind::TurnAbandoned {})), 1);
    assert_eq!(exit(&d.respond("Answer to the second.", vec![])), ExitReason::FinalAnswer);
}

#[test]
fn progress_and_capsule_come_from_the_todo_list() {
    let mut d = Drive::new(config());
    d.begin("Fix the bug");
    d.act(
        "",
        vec![
            call("t", "write_todos", &todos(&[("find", "completed"), ("fix", "in_progress"), ("test", "pending")])),
            call("s", "search", r#"{"query":"bug"}"#),
        ],
    );
    let progress = d.session.progress();
    assert_eq!((progress.source, progress.completed, progress.total), (ProgressSource::Todos, 1, 3));
    assert_eq!(progress.current.as_deref(), Some("Do fix"));
    let capsule = d.session.capsule();
    assert_eq!(capsule.goal, "Fix the bug");
    assert_eq!(capsule.next_actions, ["Do fix", "Do test"]);
    assert_eq!(capsule.key_findings, ["search ok: search done"]);
    assert_eq!(capsule.plan_snapshot.map(|s| s.revision), Some(1));
    assert_eq!(d.session.steps()[..2], ["[Plan] 1/3 done · now: fix".to_owned(), "[Act] search(\"bug\")".to_owned()]);
}
