//! Done means the goal is met: a turn's goal checked when its list is done (a nudge to
//! the model, or a verdict from the host), and evidence for each item (the receipts of
//! the calls made while it was in progress), flagged when a completed item has none.

mod support;

use planloop::error::ErrorCode;
use planloop::json::decimals::Decimals;
use planloop::session::config::{CompletionOptions, SessionConfig, Verify};
use planloop::session::events::EventKind;
use planloop::session::exchange::{BeginTurn, ContinueReason, Decision, ExitReason, ModelResponse};
use planloop::session::goal::{Goal, Verdict};
use planloop::session::handoff::{HandoffOptions, HandoffStatus};
use planloop::session::Session;
use planloop::validate::{args, compiled};
use support::{call, config, ok, todos, Drive};

fn completing(verify: Verify, require_evidence: bool) -> SessionConfig {
    SessionConfig { completion: CompletionOptions { verify, require_evidence }, ..config() }
}

fn goal() -> Goal {
    Goal {
        statement: "The parser reads every number".into(),
        criteria: vec!["Negative numbers parse".into(), "The tests pass".into()],
    }
}

fn begin_with(d: &mut Drive, message: &str, goal: Option<Goal>) {
    let now = d.tick(1000.0);
    let input = BeginTurn { message: message.into(), now_ms: now, user_id: None, chat_id: None, review: None, goal };
    d.session.begin_turn(input).unwrap();
    d.collect();
}

/// A turn with a goal whose one item is done with a read behind it; the model's next
/// response is its answer.
fn worked(config: SessionConfig) -> Drive {
    let mut d = Drive::new(config);
    begin_with(&mut d, "Fix the parser", Some(goal()));
    d.act("", vec![call("t1", "write_todos", &todos(&[("fix", "in_progress")]))]);
    d.act("", vec![call("r1", "run_tests", "{}")]);
    d.act("", vec![call("t2", "write_todos", &todos(&[("fix", "completed")]))]);
    d
}

fn verdict(met: bool, reason: Option<&str>) -> Verdict {
    Verdict { met, reason: reason.map(str::to_owned) }
}

fn verdict_at(d: &mut Drive, v: Verdict) -> Decision {
    let now = d.tick(1000.0);
    let decision = d.session.handle_verdict(v, now).unwrap();
    d.collect();
    decision
}

#[test]
fn the_goal_nudge_asks_once_with_the_goal_criteria_and_evidence_then_the_next_stop_finalizes() {
    let mut d = worked(completing(Verify::Nudge, false));
    let decision = d.respond("All done.", vec![]);
    let Decision::Continue { message, reason, attempt, .. } = &decision else { panic!("{decision:?}") };
    assert_eq!(*reason, ContinueReason::GoalCheck);
    assert_eq!(*attempt, 1, "counted as a continuation");
    assert!(message.starts_with("<goal-check>"), "{message}");
    assert!(message.contains("The parser reads every number"), "{message}");
    assert!(message.contains("1. Negative numbers parse\n2. The tests pass"), "{message}");
    assert!(message.contains("[x] Do fix: run_tests ok: run_tests done (r1)"), "{message}");
    assert_eq!(d.count(|k| matches!(k, EventKind::GoalCheck { verify: Verify::Nudge })), 1);
    let last = d.respond("Both criteria hold: r1 passed.", vec![]);
    assert!(matches!(last, Decision::Finalize { exit_reason: ExitReason::FinalAnswer, .. }), "{last:?}");
}

#[test]
fn the_goal_nudge_can_send_the_model_back_to_its_list_and_the_usual_guard_follows() {
    let mut d = worked(completing(Verify::Nudge, false));
    assert!(matches!(d.respond("Done.", vec![]), Decision::Continue { reason: ContinueReason::GoalCheck, .. }));
    // Not met after all: it reopens work, and stopping now is refused by the guard.
    d.act("", vec![call("t3", "write_todos", &todos(&[("fix", "completed"), ("neg", "in_progress")]))]);
    let stop = d.respond("Stopping.", vec![]);
    assert!(matches!(stop, Decision::Continue { reason: ContinueReason::PlanUnfinished, .. }), "{stop:?}");
    d.act("", vec![call("r2", "run_tests", "{}")]);
    d.act("", vec![call("t4", "write_todos", &todos(&[("fix", "completed"), ("neg", "completed")]))]);
    // Checked once a turn: this stop ends it.
    let last = d.respond("Done now.", vec![]);
    assert!(matches!(last, Decision::Finalize { exit_reason: ExitReason::FinalAnswer, .. }), "{last:?}");
}

#[test]
fn with_no_goal_or_verify_off_the_turn_ends_as_before() {
    let mut off = worked(completing(Verify::Off, false));
    assert!(matches!(off.respond("Done.", vec![]), Decision::Finalize { .. }));
    let mut d = Drive::new(completing(Verify::Host, false));
    d.begin("No goal given");
    d.act("", vec![call("t1", "write_todos", &todos(&[("a", "in_progress")]))]);
    d.act("", vec![call("t2", "write_todos", &todos(&[("a", "completed")]))]);
    assert!(matches!(d.respond("Done.", vec![]), Decision::Finalize { .. }));
}

#[test]
fn a_host_verdict_met_finalizes_with_the_held_answer() {
    let mut d = worked(completing(Verify::Host, false));
    let decision = d.respond("The parser is fixed.", vec![]);
    let Decision::VerifyGoal { goal: asked, answer, evidence } = &decision else { panic!("{decision:?}") };
    assert_eq!(*asked, goal());
    assert_eq!(answer, "The parser is fixed.");
    assert_eq!(evidence.len(), 1);
    assert_eq!(evidence[0].todo_id, "fix");
    assert_eq!(evidence[0].receipts[0].id, "r1");
    // The turn waits for the verdict: nothing else moves it.
    let now = d.tick(1.0);
    let before = d.session.clone();
    let refused =
        d.session.handle_model_response(ModelResponse { text: Some("x".into()), tool_calls: vec![], usage: None }, now);
    let error = refused.unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidState);
    assert!(error.message.contains("handleVerdict"), "{error}");
    let refused = d.session.handle_tool_results(vec![ok("r1", "x")], now).unwrap_err();
    assert!(refused.message.contains("handleVerdict"), "{refused}");
    assert_eq!(d.session, before);
    let end = verdict_at(&mut d, verdict(true, None));
    assert_eq!(end, Decision::Finalize { answer: "The parser is fixed.".into(), exit_reason: ExitReason::FinalAnswer });
    assert_eq!(d.count(|k| matches!(k, EventKind::GoalVerdict { met: true, .. })), 1);
    // None awaited now: refused, and nothing changes.
    let before = d.session.clone();
    let error = d.session.handle_verdict(verdict(true, None), d.now).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidState);
    assert_eq!(d.session, before);
}

#[test]
fn a_host_verdict_not_met_asks_to_replan_with_the_reason_and_the_guard_ends_the_loop() {
    let config = SessionConfig { max_plan_continuations: 2, max_iterations: 100, ..completing(Verify::Host, false) };
    let mut d = worked(config);
    assert!(matches!(d.respond("Fixed.", vec![]), Decision::VerifyGoal { .. }));
    let decision =
        verdict_at(&mut d, verdict(false, Some(&format!("Negative numbers still fail. {}", "x".repeat(3000)))));
    let Decision::Continue { message, reason, .. } = &decision else { panic!("{decision:?}") };
    assert_eq!(*reason, ContinueReason::GoalUnmet);
    assert!(message.starts_with("<goal-unmet>"), "{message}");
    assert!(message.contains("Negative numbers still fail."), "{message}");
    assert!(message.contains("The parser reads every number"), "{message}");
    assert!(message.chars().count() < 1500, "the reason is capped: {}", message.chars().count());
    // A host never satisfied: each stop asks again, and past the guard the turn ends.
    let mut ends = None;
    for round in 0..10 {
        // Re-planning resets the plan nudges; the verdicts are counted all the same.
        let id = format!("n{round}");
        d.act("", vec![call("t", "write_todos", &todos(&[("fix", "completed"), (&id, "in_progress")]))]);
        d.act("", vec![call(&format!("r{round}x"), "run_tests", "{}")]);
        d.act("", vec![call("t", "write_todos", &todos(&[("fix", "completed"), (&id, "completed")]))]);
        assert!(matches!(d.respond("Fixed.", vec![]), Decision::VerifyGoal { .. }));
        match verdict_at(&mut d, verdict(false, Some("no"))) {
            Decision::Continue { reason: ContinueReason::GoalUnmet, .. } => continue,
            other => {
                ends = Some((round, other));
                break;
            }
        }
    }
    let (round, end) = ends.expect("the loop ends");
    // The guard allows two re-plans (maxPlanContinuations); the third "not met" ends it.
    assert_eq!(round, 1);
    assert_eq!(end, Decision::Finalize { answer: "Fixed.".into(), exit_reason: ExitReason::SafetyValve });
}

#[test]
fn a_verdict_awaited_survives_a_restart_and_a_restored_session_decides_the_same() {
    let mut d = worked(completing(Verify::Host, false));
    assert!(matches!(d.respond("The parser is fixed.", vec![]), Decision::VerifyGoal { .. }));
    let text = d.session.snapshot_json().unwrap();
    let mut restored = Session::restore_json(&text).unwrap();
    assert_eq!(restored, d.session);
    let met = restored.handle_verdict(verdict(true, None), d.now + 1.0).unwrap();
    assert!(matches!(&met, Decision::Finalize { answer, .. } if answer == "The parser is fixed."), "{met:?}");
    let mut again = Session::restore_json(&text).unwrap();
    let unmet = again.handle_verdict(verdict(false, Some("no")), d.now + 1.0).unwrap();
    let original = d.session.handle_verdict(verdict(false, Some("no")), d.now + 1.0).unwrap();
    assert_eq!(unmet, original);
    assert_eq!(again.snapshot_json().unwrap(), d.session.snapshot_json().unwrap());
}

#[test]
fn a_snapshot_claiming_a_verdict_on_no_goal_is_refused() {
    let mut d = worked(completing(Verify::Host, false));
    d.respond("Fixed.", vec![]);
    let mut value = support::document(&d.session);
    support::set(&mut value, &["turn", "open"], planloop::json::value::Value::Bool(false));
    let error = Session::restore(&support::resealed(value)).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidSnapshot);
}

#[test]
fn items_keep_the_receipts_of_calls_made_while_in_progress_and_unbacked_ones_are_flagged() {
    let mut d = Drive::new(config());
    d.begin("Tidy");
    d.act("", vec![call("t1", "write_todos", &todos(&[("scan", "in_progress"), ("fix", "pending")]))]);
    d.act("", vec![call("r1", "search", r#"{"q":"x"}"#), call("r2", "read", r#"{"p":"a"}"#)]);
    // `fix` is marked completed without ever being in progress: nothing backs it.
    d.act("", vec![call("t2", "write_todos", &todos(&[("scan", "completed"), ("fix", "completed")]))]);
    let items = d.session.todos_with_evidence();
    let ids: Vec<&str> = items[0].receipts.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["r1", "r2"], "planner calls are not receipts");
    assert_eq!(items[0].receipts[0].observation, "search ok: search done");
    assert!(!items[0].unbacked);
    assert!(items[1].receipts.is_empty() && items[1].unbacked);
    assert_eq!(d.count(|k| matches!(k, EventKind::ItemUnbacked { todo_id } if todo_id == "fix")), 1);
    assert!(d.session.steps().iter().any(|s| s == "[Plan] fix: completed with no receipt"), "{:?}", d.session.steps());
    // The trail names the calls that back an item as it is completed.
    assert!(
        d.session.steps().iter().any(|s| s == "[Plan] scan: completed, backed by r1, r2"),
        "{:?}",
        d.session.steps()
    );
    // The capsule shows each item's evidence.
    let handoff = d.session.handoff(HandoffOptions::default(), d.now);
    assert!(
        handoff.text.contains("- [x] Do scan\n  · search ok: search done (r1)\n  · read ok: read done (r2)"),
        "{}",
        handoff.text
    );
    assert_eq!(handoff.item_evidence.len(), 2);
    // An item dropped from the list drops its evidence; a snapshot keeps the rest.
    d.act("", vec![call("t3", "write_todos", &todos(&[("fix", "completed"), ("new", "in_progress")]))]);
    assert!(d.session.todos_with_evidence().iter().all(|t| t.receipts.is_empty()));
    d.act("", vec![call("r3", "search", "{}")]);
    let restored = Session::restore_json(&d.session.snapshot_json().unwrap()).unwrap();
    assert_eq!(restored.todos_with_evidence(), d.session.todos_with_evidence());
    assert_eq!(restored.todos_with_evidence()[1].receipts[0].id, "r3");
}

#[test]
fn a_call_is_the_evidence_of_the_item_in_progress_where_it_stands_in_its_reply() {
    let mut d = Drive::new(config());
    d.begin("Tidy");
    d.act("", vec![call("t1", "write_todos", &todos(&[("scan", "in_progress"), ("fix", "pending")]))]);
    // The search comes before the list that completes `scan` and starts `fix`: it is
    // `scan`'s work, though its result comes in once `fix` is in progress.
    let moved = todos(&[("scan", "completed"), ("fix", "in_progress")]);
    d.act("", vec![call("r1", "search", "{}"), call("t2", "write_todos", &moved)]);
    // The read comes after the list that completes `fix`... and starts nothing: made
    // with no item in progress, it backs those in progress as its result comes in.
    let done = todos(&[("scan", "completed"), ("fix", "completed")]);
    d.act("", vec![call("t3", "write_todos", &done), call("r2", "read", "{}")]);
    // ...whereas a read made after a list that starts `fix` is `fix`'s.
    d.act("", vec![call("t4", "write_todos", &moved), call("r3", "read", "{}")]);
    let items = d.session.todos_with_evidence();
    let ids = |at: usize| items[at].receipts.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
    assert_eq!((ids(0), ids(1)), (vec!["r1".to_owned()], vec!["r3".to_owned()]));
    // A snapshot taken while the result is awaited keeps where the call stood.
    d.respond("", vec![call("r4", "search", "{}"), call("t5", "write_todos", &done)]);
    let text = d.session.snapshot_json().unwrap();
    assert!(text.contains(r#""items":["fix"]"#), "{text}");
    let mut restored = Session::restore_json(&text).unwrap();
    restored.handle_tool_results(vec![ok("r4", "found")], d.now).unwrap();
    let fix: Vec<String> = restored.todos_with_evidence()[1].receipts.iter().map(|r| r.id.clone()).collect();
    assert_eq!(fix, ["r3", "r4"]);
}

#[test]
fn an_item_keeps_its_last_eight_receipts() {
    let mut d = Drive::new(config());
    d.begin("Many reads");
    d.act("", vec![call("t1", "write_todos", &todos(&[("a", "in_progress")]))]);
    for i in 0..12 {
        d.act("", vec![call(&format!("r{i}"), "read", &format!(r#"{{"i":{i}}}"#))]);
    }
    let receipts = &d.session.todos_with_evidence()[0].receipts;
    let ids: Vec<&str> = receipts.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11"]);
}

#[test]
fn require_evidence_asks_once_for_the_unbacked_items_then_lets_the_model_stop() {
    let mut d = Drive::new(completing(Verify::Off, true));
    d.begin("Write the report");
    // The whole list written as done before anything was done (the 135M model's move).
    d.act("", vec![call("t1", "write_todos", &todos(&[("draft", "completed"), ("send", "completed")]))]);
    let decision = d.respond("Report written and sent.", vec![]);
    let Decision::Continue { message, reason, attempt, .. } = &decision else { panic!("{decision:?}") };
    assert_eq!((*reason, *attempt), (ContinueReason::EvidenceMissing, 1));
    assert!(message.starts_with("<evidence-missing>"), "{message}");
    assert!(message.contains("- Do draft\n- Do send"), "{message}");
    assert_eq!(d.count(|k| matches!(k, EventKind::EvidenceRequested { items: 2 })), 1);
    // Once a turn: the next stop ends it.
    assert!(matches!(
        d.respond("It is done.", vec![]),
        Decision::Finalize { exit_reason: ExitReason::FinalAnswer, .. }
    ));
    // Backed items are not asked about.
    let mut backed = worked(completing(Verify::Off, true));
    assert!(matches!(backed.respond("Done.", vec![]), Decision::Finalize { .. }));
}

#[test]
fn work_done_after_the_evidence_request_counts_for_the_item_the_model_reopens() {
    let mut d = Drive::new(completing(Verify::Host, true));
    begin_with(&mut d, "Fix it", Some(goal()));
    d.act("", vec![call("t1", "write_todos", &todos(&[("fix", "completed")]))]);
    let decision = d.respond("Done.", vec![]);
    // The request says how to make the work count: a call made with no item in
    // progress backs none.
    let Decision::Continue { message, .. } = &decision else { panic!("{decision:?}") };
    assert!(message.contains("in_progress"), "{message}");
    d.act("", vec![call("t2", "write_todos", &todos(&[("fix", "in_progress")]))]);
    d.act("", vec![call("r1", "run_tests", "{}")]);
    d.act("", vec![call("t3", "write_todos", &todos(&[("fix", "completed")]))]);
    let Decision::VerifyGoal { evidence, .. } = d.respond("Fixed; the tests pass.", vec![]) else { panic!("a check") };
    assert_eq!(evidence[0].receipts[0].id, "r1");
}

#[test]
fn evidence_is_asked_for_before_the_goal_is_checked() {
    let mut d = Drive::new(completing(Verify::Host, true));
    begin_with(&mut d, "Fix it", Some(goal()));
    d.act("", vec![call("t1", "write_todos", &todos(&[("fix", "completed")]))]);
    assert!(matches!(d.respond("Done.", vec![]), Decision::Continue { reason: ContinueReason::EvidenceMissing, .. }));
    assert!(matches!(d.respond("Done.", vec![]), Decision::VerifyGoal { .. }));
}

#[test]
fn the_stated_goal_is_what_reminders_and_the_capsule_call_the_goal() {
    let d = worked(completing(Verify::Off, false));
    assert_eq!(d.session.capsule().goal, "The parser reads every number");
    assert_eq!(d.session.current_plan().unwrap().goal, "The parser reads every number");
}

#[test]
fn a_delegate_call_is_the_evidence_of_its_item_and_the_child_keeps_its_own() {
    let delegation = planloop::session::config::DelegationOptions { enabled: true, ..Default::default() };
    let mut d = Drive::new(SessionConfig { delegation, ..config() });
    d.begin("Fix the parser and its docs");
    d.act("", vec![call("t1", "write_todos", &todos(&[("docs", "completed"), ("parser", "in_progress")]))]);
    let delegate = call("d1", "delegate", r#"{"goal":"Fix number reading","todoId":"parser"}"#);
    assert!(matches!(d.respond("", vec![delegate]), Decision::RunTools { .. }));
    let now = d.tick(1000.0);
    d.session.begin_delegation("d1", now).unwrap();
    {
        let child = d.session.child("d1").unwrap();
        let respond = |s: &mut Session, calls, t: f64| {
            s.handle_model_response(ModelResponse { text: None, tool_calls: calls, usage: None }, t).unwrap()
        };
        respond(child, vec![call("c1", "write_todos", &todos(&[("numbers", "in_progress")]))], now + 1.0);
        respond(child, vec![call("c2", "read", r#"{"p":"parse.rs"}"#)], now + 2.0);
        child.handle_tool_results(vec![ok("c2", "fn number() {}")], now + 3.0).unwrap();
        respond(child, vec![call("c3", "write_todos", &todos(&[("numbers", "completed")]))], now + 4.0);
        let end = child.handle_model_response(
            ModelResponse { text: Some("Fixed.".into()), tool_calls: vec![], usage: None },
            now + 5.0,
        );
        assert!(matches!(end.unwrap(), Decision::Finalize { .. }));
        // The child's item holds the child's call.
        let items = child.todos_with_evidence();
        assert_eq!(items[0].receipts[0].id, "c2");
    }
    let now = d.tick(1000.0);
    let outcome = d.session.finish_delegation("d1", HandoffOptions::default(), now).unwrap();
    d.collect();
    assert_eq!(outcome.capsule.status, HandoffStatus::Done);
    // The capsule text shows the child's evidence for its item.
    assert!(
        outcome.capsule.text.contains("- [x] Do numbers\n  · read ok: fn number() {} (c2)"),
        "{}",
        outcome.capsule.text
    );
    // The parent's item, completed by the capsule, is backed by the delegate call.
    let items = d.session.todos_with_evidence();
    let parser = items.iter().find(|t| t.id == "parser").unwrap();
    assert_eq!(parser.receipts.len(), 1);
    assert_eq!(parser.receipts[0].id, "d1");
    assert!(parser.receipts[0].ok);
    assert!(
        parser.receipts[0].observation.starts_with("delegate ok: Sub-agent capsule (done)"),
        "{:?}",
        parser.receipts
    );
    assert!(!parser.unbacked);
    // Only `docs`, written as done at once, was flagged.
    let flagged: Vec<String> = d
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ItemUnbacked { todo_id } => Some(todo_id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(flagged, ["docs"]);
}

#[test]
fn hostile_goals_and_verdicts_are_refused_by_name_and_change_nothing() {
    let read_begin = |text: &str| {
        let document = planloop::json::parse_host(text.as_bytes(), Decimals::RUST).unwrap();
        args::object::<BeginTurn, _>(&*document, "input", &compiled::BEGIN_TURN, Decimals::RUST)
    };
    let huge = "x".repeat(10_000_000);
    let many: Vec<String> = (0..1000).map(|i| format!("\"c{i}\"")).collect();
    for (what, goal) in [
        ("a 10 MB statement", format!(r#"{{"statement":"{huge}"}}"#)),
        ("1,000 criteria", format!(r#"{{"statement":"s","criteria":[{}]}}"#, many.join(","))),
        ("an empty statement", r#"{"statement":""}"#.to_owned()),
        ("a number", r#"{"statement":5}"#.to_owned()),
        ("an unknown key", r#"{"statement":"s","deadline":1}"#.to_owned()),
    ] {
        let error = read_begin(&format!(r#"{{"message":"m","nowMs":1,"goal":{goal}}}"#)).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidArgument, "{what}");
        assert!(error.message.contains("input"), "{what}: {error}");
    }
    // Handed over in Rust without the schema: the core refuses it before any change.
    let mut d = worked(completing(Verify::Host, false));
    let before = d.session.clone();
    for goal in [
        Goal { statement: huge.clone(), criteria: vec![] },
        Goal { statement: "s".into(), criteria: (0..1000).map(|i| i.to_string()).collect() },
        Goal { statement: " ".into(), criteria: vec![] },
        Goal { statement: "s".into(), criteria: vec!["x".repeat(501)] },
    ] {
        let input = BeginTurn {
            message: "m".into(),
            now_ms: 1.0,
            user_id: None,
            chat_id: None,
            review: None,
            goal: Some(goal),
        };
        let error = d.session.begin_turn(input).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidArgument);
        assert_eq!(d.session, before);
    }
    let read_verdict = |text: &str| {
        let document = planloop::json::parse_host(text.as_bytes(), Decimals::RUST).unwrap();
        args::object::<Verdict, _>(&*document, "verdict", &compiled::VERDICT, Decimals::RUST)
    };
    let megabyte = "r".repeat(1_000_000);
    for bad in [
        format!(r#"{{"met":false,"reason":"{megabyte}"}}"#),
        r#"{"met":"yes"}"#.into(),
        r#"{}"#.into(),
        "[true]".into(),
    ] {
        let error = read_verdict(&bad).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidArgument);
        assert!(error.message.contains("verdict"), "{error}");
    }
    assert_eq!(read_verdict(r#"{"met":true}"#).unwrap(), verdict(true, None));
}

/// One input of a random drive.
fn apply(session: &mut Session, op: usize, step: usize, rng_pick: usize, now: f64) -> Result<String, ErrorCode> {
    let statuses = ["pending", "in_progress", "completed"];
    let respond = |session: &mut Session, text: Option<&str>, calls| {
        let response = ModelResponse { text: text.map(str::to_owned), tool_calls: calls, usage: None };
        session.handle_model_response(response, now).map(|d| format!("{d:?}"))
    };
    let outcome = match op {
        0 => session.handle_verdict(verdict(rng_pick % 2 == 0, Some("r")), now).map(|d| format!("{d:?}")),
        1 => {
            let items = [("a", statuses[rng_pick % 3]), ("b", statuses[rng_pick / 3 % 3])];
            respond(session, None, vec![call(&format!("t{step}"), "write_todos", &todos(&items))])
        }
        2 => respond(session, None, vec![call(&format!("r{step}"), "read", "{}")]),
        3 => session.handle_tool_results(vec![ok(&format!("r{}", step - 1), "read it")], now).map(|o| format!("{o:?}")),
        _ => respond(session, Some("Done."), vec![]),
    };
    outcome.map_err(|e| e.code)
}

#[test]
fn random_drives_with_goals_decide_the_same_after_a_restore_and_refusals_change_nothing() {
    for seed in support::seeds(40) {
        let mut rng = support::Rng::seeded(seed);
        let verify = *rng.pick(&[Verify::Off, Verify::Nudge, Verify::Host]);
        let config = SessionConfig { max_plan_continuations: 3, ..completing(verify, rng.below(2) == 0) };
        let mut d = Drive::new(config);
        begin_with(&mut d, "Go", (rng.below(3) > 0).then(goal));
        for step in 1..40 {
            let now = d.tick(10.0);
            let (op, pick) = (rng.below(5), rng.below(9));
            let before = d.session.clone();
            let mut restored = Session::restore_json(&d.session.snapshot_json().unwrap()).unwrap();
            let outcome = apply(&mut d.session, op, step, pick, now);
            assert_eq!(apply(&mut restored, op, step, pick, now), outcome, "seed {seed} step {step}");
            if outcome.is_err() {
                assert_eq!(d.session, before, "seed {seed} step {step}: a refusal changed nothing");
            }
            if outcome.as_ref().is_ok_and(|o| o.starts_with("Finalize") || o.starts_with("Pause")) {
                begin_with(&mut d, "Go on", (rng.below(2) == 0).then(goal));
            }
        }
    }
}
