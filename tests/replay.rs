//! Real agent sessions (Claude Code, Codex, SWE-agent; `tests/fixtures/traces/`) replayed
//! through a `Session`: each assistant turn goes in as a model response, the recorded
//! results of the host's tools come back, and the test checks what planloop decided:
//! planner-only streaks and refusals, where it would have nudged a model that stopped
//! with its plan unfinished, and the decision at the last turn.
//!
//! The recorded models never saw planloop's nudges, so after a nudge the trace goes on
//! as it went; the point is where planloop would have stepped in.

mod support;

use std::fmt::Write;
use std::path::Path;

use planloop::json::decimals::Decimals;
use planloop::json::value::Value;
use planloop::plan::todos::TodoStatus;
use planloop::session::approval::{ToolClass, ToolPolicy};
use planloop::session::config::{SessionConfig, TodoDialect};
use planloop::session::events::EventKind;
use planloop::session::exchange::{BeginTurn, Decision, ModelResponse, ToolCallInput, ToolResult};
use planloop::session::Session;
use serde_json::Value as Json;

/// What planloop decided over one recorded session.
#[derive(Debug, Default, Clone, PartialEq)]
struct Replay {
    assistant_turns: usize,
    planner_only: usize,
    longest_planner_only_streak: u32,
    refused: usize,
    /// Assistant turns (1-based) where planloop would have nudged instead of finalizing.
    nudges: Vec<usize>,
    /// Assistant turns where the recorded agent went on after planloop would have ended the turn.
    went_on_after_end: usize,
    stuck: usize,
    last: String,
    todos: String,
    /// Goal/plan reminders planloop put into the last tool message of a batch.
    reminders: usize,
    /// Todo calls that left every item's status as it was (the list written again).
    unchanged_rewrites: usize,
    /// Reminders given on the assistant turn just before such a rewrite. (The recorded
    /// models never saw planloop's reminders: this says where a reminder would have
    /// landed on a model about to write its unchanged list again, claude-code#56415.)
    reminders_before_rewrites: usize,
}

fn to_value(json: &Json) -> Value<'static> {
    let text = json.to_string();
    planloop::json::parse(text.as_bytes(), Decimals::RUST).unwrap().into_shallow().into_owned()
}

/// Limits out of the way, to follow each trajectory to its end.
fn unlimited() -> SessionConfig {
    SessionConfig { max_iterations: 100_000, ..replaying() }
}

/// The recorded agents ran their tools without asking: every tool reads.
fn replaying() -> SessionConfig {
    SessionConfig {
        todo_dialects: TodoDialect::ALL.to_vec(),
        timeout_ms: 86_400_000,
        tools: ToolPolicy { default: ToolClass::Read, ..ToolPolicy::default() },
        ..SessionConfig::default()
    }
}

fn replay(record: &Json, config: SessionConfig) -> Replay {
    let mut session = Session::new(config);
    let mut now = 0.0;
    let mut out = Replay::default();
    let mut open = false;
    let mut streak = 0;
    // Whether the last assistant turn's results carried a reminder.
    let mut reminded = false;
    for turn in record["turns"].as_array().unwrap() {
        now += 1000.0;
        match turn["role"].as_str().unwrap() {
            "user" => {
                let message = turn["text"].as_str().unwrap_or("").to_owned();
                session.begin_turn(BeginTurn { message, now_ms: now, ..Default::default() }).unwrap();
                open = true;
            }
            "assistant" => {
                out.assistant_turns += 1;
                if !open {
                    out.went_on_after_end += 1;
                    session
                        .begin_turn(BeginTurn {
                            message: "(the agent went on)".into(),
                            now_ms: now,
                            ..Default::default()
                        })
                        .unwrap();
                }
                let calls: Vec<ToolCallInput> = turn["tool_calls"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| ToolCallInput {
                        id: c["id"].as_str().unwrap().into(),
                        name: c["name"].as_str().unwrap().into(),
                        args: to_value(&c["args"]),
                    })
                    .collect();
                let text = turn["text"].as_str().map(str::to_owned);
                let statuses = |session: &Session| -> Vec<(String, TodoStatus)> {
                    session.todos().iter().map(|t| (t.id.clone(), t.status)).collect()
                };
                let before = statuses(&session);
                let todo_call = calls.iter().any(|c| matches!(c.name.as_str(), "TodoWrite" | "update_plan"));
                let decision =
                    session.handle_model_response(ModelResponse { text, tool_calls: calls, usage: None }, now).unwrap();
                if todo_call && statuses(&session) == before {
                    out.unchanged_rewrites += 1;
                    out.reminders_before_rewrites += usize::from(reminded);
                }
                reminded = false;
                open = true;
                out.last = match &decision {
                    Decision::RunTools { calls, replies, .. } => {
                        let results: Vec<ToolResult> = calls
                            .iter()
                            .filter_map(|call| {
                                let result = turn["tool_results"]
                                    .as_array()
                                    .unwrap()
                                    .iter()
                                    .find(|r| r["tool_call_id"] == call.id.as_str())?;
                                let output = result["content"].as_str().map_or_else(
                                    || to_value(&result["content"]),
                                    |s| Value::String(s.to_owned().into()),
                                );
                                Some(ToolResult {
                                    id: call.id.clone(),
                                    output,
                                    stderr: None,
                                    is_error: result["is_error"].as_bool().unwrap_or(false),
                                    duration_ms: None,
                                    exit_code: None,
                                })
                            })
                            .collect();
                        let unanswered = calls.len() - results.len();
                        if !results.is_empty() {
                            now += 500.0;
                            session.handle_tool_results(results, now).unwrap();
                        }
                        match unanswered {
                            0 => format!("runTools ({} host calls, {} planner replies)", calls.len(), replies.len()),
                            n => format!("runTools with {n} of {} calls unanswered (the recording stops)", calls.len()),
                        }
                    }
                    Decision::Continue { reason, attempt, .. } => {
                        out.nudges.push(out.assistant_turns);
                        format!("continue ({reason:?}, attempt {attempt})")
                    }
                    Decision::Finalize { exit_reason, .. } => {
                        open = false;
                        format!("finalize ({exit_reason:?})")
                    }
                    Decision::Pause { exit_reason, .. } | Decision::Fail { exit_reason, .. } => {
                        open = false;
                        format!("ended ({exit_reason:?})")
                    }
                    other => panic!("no approvals or reviews are configured for a replay: {other:?}"),
                };
            }
            _ => {}
        }
        for event in session.drain_events() {
            match event.kind {
                EventKind::PlannerRefused { .. } => out.refused += 1,
                EventKind::Stuck { .. } => out.stuck += 1,
                EventKind::ReminderInjected {} => {
                    out.reminders += 1;
                    reminded = true;
                }
                _ => {}
            }
        }
        // Planner-only turns, counted from the calls as the trace's own stats count them.
        if turn["role"] == "assistant" {
            let names: Vec<&str> =
                turn["tool_calls"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
            let planner_only = !names.is_empty() && names.iter().all(|n| matches!(*n, "TodoWrite" | "update_plan"));
            if planner_only {
                out.planner_only += 1;
                streak += 1;
                out.longest_planner_only_streak = out.longest_planner_only_streak.max(streak);
            } else if !names.is_empty() {
                streak = 0;
            }
        }
    }
    let count = |status| session.todos().iter().filter(|t| t.status == status).count();
    out.todos = format!(
        "{} done, {} in progress, {} pending",
        count(TodoStatus::Completed),
        count(TodoStatus::InProgress),
        count(TodoStatus::Pending)
    );
    out
}

fn records() -> Vec<(String, Json)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/traces");
    let mut all = Vec::new();
    for file in ["claude_code_todo.jsonl", "claude_code_notodo.jsonl", "codex_update_plan.jsonl", "sweagent_fc.jsonl"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for (i, line) in text.lines().enumerate() {
            all.push((format!("{file}#{}", i + 1), serde_json::from_str(line).unwrap()));
        }
    }
    all
}

#[test]
fn every_trajectory_replays_with_the_decisions_on_record() {
    let mut report = String::new();
    for (name, record) in records() {
        let r = replay(&record, unlimited());
        // With the default limits (20 model responses a turn), long turns pause.
        let defaults = replay(&record, replaying());
        let stats = &record["stats"];
        // Cross-check with the trace's own statistics.
        assert_eq!(r.assistant_turns as u64, stats["assistant_turns"].as_u64().unwrap(), "{name}");
        assert_eq!(r.planner_only as u64, stats["planner_only_turns"].as_u64().unwrap(), "{name}");
        writeln!(
            report,
            "{name}: {} turns, planner-only {} (longest streak {}), refused {}, nudges at {:?}, stuck {}, todos: {}; last: {}; with default limits: stopped {} times where the recording went on, last: {}",
            r.assistant_turns,
            r.planner_only,
            r.longest_planner_only_streak,
            r.refused,
            r.nudges,
            r.stuck,
            r.todos,
            r.last,
            defaults.went_on_after_end,
            defaults.last
        )
        .unwrap();
    }
    let expected = include_str!("fixtures/replay.expected");
    if std::env::var_os("PLANLOOP_BLESS").is_some() {
        std::fs::write(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/replay.expected"), &report).unwrap();
        return;
    }
    assert_eq!(
        report, expected,
        "planloop decides differently on a recorded trajectory; review, then PLANLOOP_BLESS=1"
    );
}

#[test]
fn the_known_shapes_of_the_traces_get_the_decisions_they_call_for() {
    let replays: Vec<(String, Replay)> =
        records().into_iter().map(|(name, record)| (name, replay(&record, unlimited()))).collect();
    // A Codex session ends on a text-only answer while a step is still in progress:
    // planloop asks it to go on instead of finalizing.
    let codex =
        replays.iter().filter(|(n, r)| n.starts_with("codex") && r.todos.contains("1 in progress")).collect::<Vec<_>>();
    assert_eq!(codex.len(), 1);
    assert!(codex[0].1.last.starts_with("continue (PlanUnfinished"), "{:?}", codex[0]);
    // A Claude Code session is cut off with 3 calls unanswered, 1 todo in progress and 5 pending.
    let cut = replays.iter().filter(|(_, r)| r.last.contains("3 of")).collect::<Vec<_>>();
    assert_eq!(cut.len(), 1);
    assert!(cut[0].1.todos.ends_with("1 in progress, 5 pending"), "{:?}", cut[0]);
    // Every other session with a todo list ends with it completed and a final answer.
    for (name, r) in &replays {
        if r.todos != "0 done, 0 in progress, 0 pending"
            && !r.last.contains("unanswered")
            && !r.last.starts_with("continue")
        {
            assert!(
                r.todos.ends_with("0 in progress, 0 pending") && r.last == "finalize (FinalAnswer)",
                "{name}: {r:?}"
            );
        }
    }
    // Sessions without todos never get nudged about a plan.
    for (name, r) in replays.iter().filter(|(n, _)| n.contains("notodo") || n.contains("sweagent")) {
        assert!(r.nudges.is_empty(), "{name}: {r:?}");
    }
}

/// The two reminder modes over every recorded session, whole (limits out of the way):
/// drift must lose no continuation nudge (the decisions are the same but for reminders)
/// and give no more reminders than the interval does. The counts are pinned in
/// `fixtures/reminders.expected`; `--nocapture` prints them as a table.
#[test]
fn drift_reminders_are_fewer_on_the_recorded_sessions_and_lose_no_continuation() {
    use planloop::session::config::ReminderMode;
    let mut table = String::from(
        "trace                          | interval reminders | drift reminders | nudges | unchanged rewrites (after an interval / drift reminder)\n",
    );
    let (mut interval_total, mut drift_total, mut nudges_total, mut rewrites_total) = (0, 0, 0, 0);
    let (mut interval_spam, mut drift_spam) = (0, 0);
    for (name, record) in records() {
        let interval = replay(&record, SessionConfig { reminder_mode: ReminderMode::Interval, ..unlimited() });
        let drift = replay(&record, SessionConfig { reminder_mode: ReminderMode::Drift, ..unlimited() });
        assert_eq!(drift.nudges, interval.nudges, "{name}: drift loses or adds a continuation");
        let decided = |r: &Replay| Replay { reminders: 0, reminders_before_rewrites: 0, ..r.clone() };
        assert_eq!(decided(&drift), decided(&interval), "{name}: drift decides otherwise");
        assert!(drift.reminders <= interval.reminders, "{name}: {} > {}", drift.reminders, interval.reminders);
        writeln!(
            table,
            "{name:<30} | {:>18} | {:>15} | {:>6} | {} ({} / {})",
            interval.reminders,
            drift.reminders,
            drift.nudges.len(),
            drift.unchanged_rewrites,
            interval.reminders_before_rewrites,
            drift.reminders_before_rewrites
        )
        .unwrap();
        interval_total += interval.reminders;
        drift_total += drift.reminders;
        nudges_total += drift.nudges.len();
        rewrites_total += drift.unchanged_rewrites;
        interval_spam += interval.reminders_before_rewrites;
        drift_spam += drift.reminders_before_rewrites;
    }
    writeln!(
        table,
        "{:<30} | {interval_total:>18} | {drift_total:>15} | {nudges_total:>6} | {rewrites_total} ({interval_spam} / {drift_spam})",
        "all"
    )
    .unwrap();
    println!("{table}");
    assert!(drift_total < interval_total, "drift gives fewer reminders on the recorded sessions");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reminders.expected");
    if std::env::var_os("PLANLOOP_BLESS").is_some() {
        std::fs::write(path, &table).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(table, expected, "the reminder counts changed; review, then PLANLOOP_BLESS=1");
}
