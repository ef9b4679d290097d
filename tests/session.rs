//! `Session` driven with simulated time: seed 000's tests (batches 1 and 2), seed 003's
//! continuation tests, limits, stuck detection, and misuse.

mod support;

use planloop::error::ErrorCode;
use planloop::session::config::{ContinuationProtocol, Language, OnLimit, ReminderMode, SessionConfig};
use planloop::session::events::EventKind;
use planloop::session::exchange::{ContinueReason, Decision, ExitReason, ModelResponse, ProgressSource};
use support::{call, config, failed, is_continue, last_message, ok, plan, todos, Drive};

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
/// its last tool message carried the reminder (seed 000's interval reminder; the drift
/// mode has its own tests in `reminders.rs`).
fn reminders(goal_plan: &str, iterations: usize) -> Vec<bool> {
    let mut d = Drive::new(SessionConfig { max_iterations: 100, reminder_mode: ReminderMode::Interval, ..config() });
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
    let mut d = Drive::new(SessionConfig { reminder_mode: ReminderMode::Interval, ..config() });
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

// Misuse ---------------------------------------------------------------------------

#[test]
fn calls_out_of_order_are_refused_and_change_nothing() {
    let mut d = Drive::new(config());
    let response = || ModelResponse { text: Some("hi".into()), tool_calls: vec![], usage: None };
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
    let response =
        ModelResponse { text: None, tool_calls: vec![call("a", "x", "{}"), call("a", "y", "{}")], usage: None };
    let err = d.session.handle_model_response(response, 5_000.0).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
}

/// The issues of a refusal as `path: message` (or the message of one with no path).
fn problems(error: &planloop::error::Error) -> Vec<String> {
    let issues = error.data.issues.as_deref().unwrap_or_default();
    planloop::error::issue::summarize(issues).lines().map(str::to_owned).collect()
}

#[test]
fn many_wrong_results_are_refused_in_a_short_error_that_names_the_first_few() {
    let mut d = Drive::new(config());
    d.begin("Go");
    d.respond("", vec![call("a", "search", "{}"), call("b", "search", "{}")]);
    let unknown: Vec<_> = (0..30_000).map(|i| ok(&format!("zz{i}"), "x")).collect();
    let error = d.session.handle_tool_results(unknown, 9e9).unwrap_err();
    assert_eq!((error.code, error.data.argument.as_deref()), (ErrorCode::InvalidArgument, Some("results")));
    let mut expected: Vec<String> =
        (0..5).map(|i| format!("[{i}].id: No tool call with id \"zz{i}\" is waiting for a result")).collect();
    expected.push("…and 29995 more issues".into());
    assert_eq!(problems(&error), expected);
    assert!(error.message.len() < 600, "{}", error.message);
    // A result given twice, in this batch or before, is named where it repeats.
    let twice: Vec<_> = (0..30_000).map(|i| ok(["a", "b"][i % 2], "x")).collect();
    let error = d.session.handle_tool_results(twice, 9e9).unwrap_err();
    let named = problems(&error);
    assert_eq!(
        named[..2],
        ["[2].id: The result for \"a\" was already given", "[3].id: The result for \"b\" was already given"]
    );
    assert_eq!(named[5], "…and 29993 more issues");
    d.results(vec![ok("a", "A")]);
    let again = d.session.handle_tool_results(vec![ok("b", "B"), ok("a", "A")], 9e9).unwrap_err();
    assert_eq!(problems(&again), ["[1].id: The result for \"a\" was already given"]);
    // Nothing changed: the waiting result is still taken.
    assert!(d.results(vec![ok("b", "found")]).complete);
}

#[test]
fn many_calls_sharing_an_id_are_refused_in_a_short_error() {
    let mut d = Drive::new(config());
    d.begin("Go");
    let calls = (0..1_000).map(|i| call(["a", "b"][i % 3 / 2], "search", "{}")).collect();
    let error = d
        .session
        .handle_model_response(ModelResponse { text: None, tool_calls: calls, usage: None }, 5_000.0)
        .unwrap_err();
    let named = problems(&error);
    assert_eq!(named.len(), 6);
    assert_eq!(named[0], "toolCalls[1].id: Two tool calls share the id \"a\"");
    assert_eq!(named[5], "…and 993 more issues");
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
    // The limit counts characters: 60 two-byte ones (120 bytes) stay whole, 150 are cut.
    d.respond("", vec![call("b", "cat", "{}"), call("c", "cat", "{}")]);
    let outcome = d.results(vec![ok("b", &"é".repeat(60)), ok("c", &"é".repeat(150))]);
    assert_eq!(outcome.messages[0].content, "é".repeat(60));
    assert!(outcome.messages[1].content.ends_with("[output cut: first 100 of 150 characters]"));
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
    // (An item written as completed before any work is flagged in the trail.)
    let steps = ["[Plan] 1/3 done · now: fix", "[Plan] find: completed with no receipt", "[Act] search(\"bug\")"];
    assert_eq!(d.session.steps()[..3], steps.map(str::to_owned));
}
