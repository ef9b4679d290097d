//! The goal/plan reminder's two modes: `"interval"` (every `reminderInterval` iterations,
//! seed 000) and `"drift"` (only once that many pass with no progress on the plan), the
//! default for new sessions; and a session restored from a 1.3 snapshot keeps interval.

mod support;

use planloop::json::value::Value;
use planloop::session::config::{ReminderMode, SessionConfig};
use planloop::session::events::EventKind;
use planloop::session::exchange::ToolCallInput;
use planloop::session::Session;
use support::{call, config, document, last_message, plan, resealed, set, todos, Drive};

/// A search call, different each iteration (no stuck nudge).
fn search(i: usize) -> ToolCallInput {
    call(&format!("c{i}"), "search", &format!(r#"{{"q":{i}}}"#))
}

/// The todo list `a`, `b`, `c` with the first `done` completed and the next in progress.
fn list(done: usize) -> String {
    let items: Vec<(&str, &str)> = ["a", "b", "c"]
        .iter()
        .enumerate()
        .map(|(k, id)| match k {
            k if k < done => (*id, "completed"),
            k if k == done => (*id, "in_progress"),
            _ => (*id, "pending"),
        })
        .collect();
    todos(&items)
}

fn mode(mode: ReminderMode) -> SessionConfig {
    SessionConfig { max_iterations: 100, reminder_mode: mode, ..config() }
}

/// Drives `iterations` responses, each the calls `script` gives plus a search (so each
/// closes a batch of host results), restoring the session from its snapshot after the
/// iterations in `restore_after`; returns the iterations whose last tool message carried
/// the reminder, checked against the `ReminderInjected` events.
fn reminded(
    config: SessionConfig,
    iterations: usize,
    restore_after: &[usize],
    script: impl Fn(usize) -> Vec<ToolCallInput>,
) -> Vec<usize> {
    let mut d = Drive::new(config);
    d.begin("Summarize the vault");
    let mut with = Vec::new();
    for i in 1..=iterations {
        let mut calls = script(i);
        calls.push(search(i));
        let (_, outcome) = d.act("", calls);
        if last_message(&outcome.unwrap()).content.contains("<goal-plan-reminder>") {
            with.push(i);
        }
        if restore_after.contains(&i) {
            d.session = Session::restore(&document(&d.session)).expect("restores");
        }
    }
    assert_eq!(d.count(|e| matches!(e, EventKind::ReminderInjected {})), with.len());
    with
}

/// The list written at iteration 1, then only searches.
fn list_once(i: usize) -> Vec<ToolCallInput> {
    match i {
        1 => vec![call("w1", "write_todos", &list(0))],
        _ => vec![],
    }
}

#[test]
fn drift_reminds_after_n_iterations_with_no_progress_and_counts_again_from_each_reminder() {
    // The list is written at iteration 1, then nothing moves: 3 quiet iterations after it,
    // and 3 after each reminder.
    assert_eq!(reminded(mode(ReminderMode::Drift), 10, &[], list_once), [4, 7, 10]);
    // The interval mode goes by the iteration number alone.
    assert_eq!(reminded(mode(ReminderMode::Interval), 10, &[], list_once), [3, 6, 9]);
    let every_two = SessionConfig { reminder_interval: 2, ..mode(ReminderMode::Drift) };
    assert_eq!(reminded(every_two, 7, &[], list_once), [3, 5, 7]);
}

#[test]
fn drift_does_not_remind_while_items_keep_changing_status() {
    // An item moves every other iteration: never 3 quiet iterations in a row.
    let moving = |i: usize| match i % 2 {
        1 => vec![call(&format!("w{i}"), "write_todos", &list(i / 2 % 3))],
        _ => vec![],
    };
    assert_eq!(reminded(mode(ReminderMode::Drift), 12, &[], moving), Vec::<usize>::new());
    assert_eq!(reminded(mode(ReminderMode::Interval), 12, &[], moving), [3, 6, 9, 12]);
}

#[test]
fn the_same_list_written_again_is_no_progress() {
    // The spam the reminder is blamed for (claude-code#56415): a model rewriting its
    // unchanged list each iteration has not moved on.
    let rewriting = |i: usize| vec![call(&format!("w{i}"), "write_todos", &list(0))];
    assert_eq!(reminded(mode(ReminderMode::Drift), 7, &[], rewriting), [4, 7]);
}

#[test]
fn drift_counts_again_from_a_change() {
    // Reminded at 4; an item completes at 6, so the next reminder waits until 9.
    let script = |i: usize| match i {
        1 => vec![call("w1", "write_todos", &list(0))],
        6 => vec![call("w6", "write_todos", &list(1))],
        _ => vec![],
    };
    assert_eq!(reminded(mode(ReminderMode::Drift), 10, &[], script), [4, 9]);
}

#[test]
fn a_restored_session_reminds_on_the_same_iterations() {
    let script = |i: usize| match i {
        1 => vec![call("w1", "write_todos", &list(0))],
        6 => vec![call("w6", "write_todos", &list(1))],
        _ => vec![],
    };
    let straight = reminded(mode(ReminderMode::Drift), 12, &[], script);
    // Restored after the reminder, after the change and in between.
    assert_eq!(reminded(mode(ReminderMode::Drift), 12, &[4, 5, 6, 7, 10], script), straight);
    assert_eq!(straight, [4, 9, 12]);
}

#[test]
fn without_a_todo_list_a_recorded_step_or_a_text_tracked_step_is_progress() {
    // The recorded plan: plan at 1, a step recorded at 3 (plan_progress goes alone).
    let mut d = Drive::new(mode(ReminderMode::Drift));
    d.begin("Summarize the vault");
    let mut with = Vec::new();
    for i in 1..=8 {
        let calls = match i {
            1 => vec![call("p", "plan", &plan("complex")), search(i)],
            3 => vec![call("pp", "plan_progress", r#"{"step_id":"list","next_step":"read"}"#)],
            _ => vec![search(i)],
        };
        if let (_, Some(outcome)) = d.act("", calls) {
            if last_message(&outcome).content.contains("<goal-plan-reminder>") {
                with.push(i);
            }
        }
    }
    assert_eq!(with, [6]);
    // Steps tracked from the text: declared at 1, the first done at 3.
    let texts = ["[Step] Find the notes\n[Step] Merge them", "Looking.", "Found them. [Done]"];
    let mut d = Drive::new(mode(ReminderMode::Drift));
    d.begin("Merge the notes");
    let mut with = Vec::new();
    for i in 1..=7 {
        let (_, outcome) = d.act(texts.get(i - 1).copied().unwrap_or("Merging."), vec![search(i)]);
        if last_message(&outcome.unwrap()).content.contains("<goal-plan-reminder>") {
            with.push(i);
        }
    }
    assert_eq!(with, [6]);
}

#[test]
fn drift_is_the_default_for_new_sessions() {
    assert_eq!(SessionConfig::default().reminder_mode, ReminderMode::Drift);
    assert_eq!(reminded(SessionConfig { max_iterations: 100, ..config() }, 10, &[], list_once), [4, 7, 10]);
}

#[test]
fn a_session_from_a_1_3_snapshot_keeps_the_interval_reminders_it_ran_with() {
    let mut d = Drive::new(mode(ReminderMode::Drift));
    d.begin("Summarize the vault");
    d.act("", vec![call("w1", "write_todos", &list(0)), search(1)]);
    // As 1.3 wrote it: no `reminderMode` in its config (nor a turn's `quietSince`).
    let mut old = document(&d.session);
    set(&mut old, &["version"], Value::String("1.3".into()));
    let Some(Value::Object(config)) = old.get("config").cloned() else { panic!("a config") };
    let config: Vec<_> = config.into_iter().filter(|(k, _)| k != "reminderMode").collect();
    set(&mut old, &["config"], Value::Object(config));
    d.session = Session::restore(&resealed(old)).expect("a 1.3 snapshot restores");
    assert_eq!(d.session.config().reminder_mode, ReminderMode::Interval);
    let mut with = Vec::new();
    for i in 2..=7 {
        let (_, outcome) = d.act("", vec![search(i)]);
        if last_message(&outcome.unwrap()).content.contains("<goal-plan-reminder>") {
            with.push(i);
        }
    }
    assert_eq!(with, [3, 6]);
    // Its next snapshot says so: restored again, it still reminds on the interval.
    let again = Session::restore(&document(&d.session)).unwrap();
    assert_eq!(again.config().reminder_mode, ReminderMode::Interval);
}

#[test]
fn a_snapshot_whose_plan_moved_at_an_iteration_not_reached_is_refused() {
    let mut d = Drive::new(mode(ReminderMode::Drift));
    d.begin("Summarize the vault");
    d.act("", vec![call("w1", "write_todos", &list(0)), search(1)]);
    let mut value = document(&d.session);
    let Some(Value::Object(mut turn)) = value.get("turn").cloned() else { panic!("a turn") };
    turn.push(("quietSince".into(), Value::Number(2.0)));
    set(&mut value, &["turn"], Value::Object(turn));
    let error = Session::restore(&resealed(value)).unwrap_err();
    assert!(error.data.detail.unwrap_or_default().contains("moved on at an iteration"));
}
