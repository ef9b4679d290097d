//! The budget ledger: steps, tokens and time per turn and per session, children
//! included, and the token limits (`maxTokens`, `maxSessionTokens`) that end a turn as
//! `budget_exhausted`, never as done.

mod support;

use planloop::error::ErrorCode;
use planloop::json::decimals::Decimals;
use planloop::prompts::compose::PromptParts;
use planloop::session::config::{CompletionOptions, DelegationOptions, OnLimit, SessionConfig, Verify};
use planloop::session::events::{EventKind, PauseReason};
use planloop::session::exchange::{BeginTurn, Decision, ExitReason, ModelResponse, ToolCallInput, Usage};
use planloop::session::goal::{Goal, Verdict};
use planloop::session::handoff::{HandoffOptions, HandoffStatus};
use planloop::session::ledger::Tally;
use planloop::session::Session;
use planloop::validate::{args as read_args, compiled};
use support::{call, config, document, ok, todos, Drive};

fn usage(input: u32, output: u32) -> Option<Usage> {
    Some(Usage { input_tokens: Some(input), output_tokens: Some(output) })
}

/// Responds with `usage`, as `Drive::respond` does without.
fn spend(d: &mut Drive, text: &str, calls: Vec<ToolCallInput>, usage: Option<Usage>) -> Decision {
    let now = d.tick(1000.0);
    let decision = respond(&mut d.session, text, calls, usage, now);
    d.collect();
    decision
}

fn respond(session: &mut Session, text: &str, calls: Vec<ToolCallInput>, usage: Option<Usage>, now: f64) -> Decision {
    let text = (!text.is_empty()).then(|| text.to_owned());
    session.handle_model_response(ModelResponse { text, tool_calls: calls, usage }, now).unwrap()
}

/// Runs the host calls of a `runTools` decision with "ok".
fn run(d: &mut Drive, decision: &Decision) {
    let Decision::RunTools { calls, .. } = decision else { panic!("not runTools: {decision:?}") };
    if !calls.is_empty() {
        d.results(calls.iter().map(|c| ok(&c.id, "ok")).collect());
    }
}

fn spend_and_run(d: &mut Drive, text: &str, calls: Vec<ToolCallInput>, usage: Option<Usage>) {
    let decision = spend(d, text, calls, usage);
    run(d, &decision);
}

fn limited(max_tokens: Option<u32>, max_session_tokens: Option<u32>) -> SessionConfig {
    SessionConfig { max_tokens, max_session_tokens, ..config() }
}

fn tokens(tally: &Tally) -> (u32, u32) {
    (tally.input_tokens, tally.output_tokens)
}

#[test]
fn usage_is_counted_per_turn_and_per_session_with_an_event_per_response() {
    let mut d = Drive::new(config());
    d.begin("Read the notes");
    let decision = spend(&mut d, "", vec![call("1", "read_file", "{}")], usage(100, 10));
    run(&mut d, &decision);
    // Unknown usage counts nothing; a count left out counts nothing.
    let decision = spend(&mut d, "", vec![call("2", "read_file", "{}")], None);
    run(&mut d, &decision);
    let half = Some(Usage { input_tokens: Some(50), output_tokens: None });
    assert!(matches!(spend(&mut d, "Done.", vec![], half), Decision::Finalize { .. }));
    let ledger = d.session.progress().ledger;
    assert_eq!((ledger.turn.steps, tokens(&ledger.turn)), (3, (150, 10)));
    // The agent's time: from the turn's start to its end (three responses, two results).
    assert_eq!(ledger.turn.time_ms, 5000.0);
    assert_eq!(ledger.session, ledger.turn);
    let used: Vec<_> = d
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::TokensUsed { input_tokens, output_tokens, ledger } => {
                Some((*input_tokens, *output_tokens, tokens(&ledger.turn)))
            }
            _ => None,
        })
        .collect();
    assert_eq!(used, [(100, 10, (100, 10)), (50, 0, (150, 10))]);

    d.begin("And the next ones");
    assert_eq!(d.session.progress().ledger.turn, Tally::default());
    assert!(matches!(spend(&mut d, "Done too.", vec![], usage(7, 3)), Decision::Finalize { .. }));
    let ledger = d.session.progress().ledger;
    assert_eq!((ledger.turn.steps, tokens(&ledger.turn)), (1, (7, 3)));
    assert_eq!((ledger.session.steps, tokens(&ledger.session)), (4, (157, 13)));
    assert_eq!(ledger.session.time_ms, 6000.0);
    // No token limit: nothing left to say.
    assert_eq!(d.session.next_call(d.now).tokens_remaining, None);
}

#[test]
fn a_turn_at_its_token_limit_pauses_as_budget_exhausted_and_its_calls_do_not_run() {
    let mut d = Drive::new(limited(Some(1000), None));
    let start = d.begin("Fix the parser");
    assert_eq!(start.next.tokens_remaining, Some(1000));
    assert!(start.next.budget_line.ends_with("Tokens remaining: 1000."), "{}", start.next.budget_line);
    // The session's own system prompt shows them too.
    let parts = PromptParts {
        base: "You fix parsers.".into(),
        components: Vec::new(),
        features: Default::default(),
        values: Default::default(),
    };
    let prompt = d.session.system_prompt(parts, d.now).unwrap().prompt;
    assert!(prompt.ends_with("Tokens remaining: 1000."), "{prompt}");
    let list = call("t", "write_todos", &todos(&[("a", "in_progress"), ("b", "pending")]));
    let decision = spend(&mut d, "", vec![list, call("1", "read_file", "{}")], usage(500, 100));
    let Decision::RunTools { next, .. } = &decision else { panic!("{decision:?}") };
    assert_eq!(next.tokens_remaining, Some(400));
    run(&mut d, &decision);
    let decision = spend(&mut d, "", vec![call("2", "edit_file", "{}")], usage(380, 20));
    let Decision::Pause { exit_reason, summary } = &decision else { panic!("{decision:?}") };
    assert_eq!(*exit_reason, ExitReason::BudgetExhausted);
    assert!(summary.contains("token budget"), "{summary}");
    // The call did not run, the turn is over, and never as done.
    assert!(d.session.delegations().is_empty());
    assert!(d.session.handle_tool_results(vec![ok("2", "ok")], d.now).is_err());
    assert_eq!(d.count(|k| matches!(k, EventKind::TurnPaused { reason: PauseReason::BudgetExhausted, .. })), 1);
    assert_eq!(d.count(|k| matches!(k, EventKind::TurnCompleted { .. })), 0);
    assert_eq!(d.session.next_call(d.now).tokens_remaining, Some(0));

    // A text reply at the limit with the list unfinished pauses too, not a nudge.
    let mut d = Drive::new(limited(Some(100), None));
    d.begin("Fix it");
    let list = call("t", "write_todos", &todos(&[("a", "in_progress")]));
    spend_and_run(&mut d, "", vec![list], None);
    let decision = spend(&mut d, "I stop here.", vec![], usage(90, 10));
    assert!(matches!(decision, Decision::Pause { exit_reason: ExitReason::BudgetExhausted, .. }), "{decision:?}");

    // A final answer with nothing unfinished at that response is done.
    let mut d = Drive::new(limited(Some(100), None));
    d.begin("Say hi");
    let decision = spend(&mut d, "Hi.", vec![], usage(90, 10));
    assert!(matches!(decision, Decision::Finalize { exit_reason: ExitReason::FinalAnswer, .. }), "{decision:?}");
}

#[test]
fn on_limit_fail_fails_the_turn_at_its_token_limit() {
    let mut d = Drive::new(SessionConfig { on_limit: OnLimit::Fail, ..limited(Some(100), None) });
    d.begin("Fix it");
    let decision = spend(&mut d, "", vec![call("1", "read_file", "{}")], usage(100, 0));
    let Decision::Fail { exit_reason, message } = &decision else { panic!("{decision:?}") };
    assert_eq!(*exit_reason, ExitReason::BudgetExhausted);
    assert!(message.contains("token budget"), "{message}");
}

#[test]
fn the_session_limit_spans_turns_and_a_spent_session_begins_no_more() {
    let mut d = Drive::new(limited(Some(800), Some(1000)));
    d.begin("One");
    assert!(matches!(spend(&mut d, "Done.", vec![], usage(600, 100)), Decision::Finalize { .. }));
    // The next turn has what the session has left, less than its own limit.
    let start = d.begin("Two");
    assert_eq!(start.next.tokens_remaining, Some(300));
    let decision = spend(&mut d, "", vec![call("1", "read_file", "{}")], usage(250, 50));
    assert!(matches!(decision, Decision::Pause { exit_reason: ExitReason::BudgetExhausted, .. }), "{decision:?}");
    let before = document(&d.session);
    let input =
        planloop::session::exchange::BeginTurn { message: "Three".into(), now_ms: d.tick(1.0), ..Default::default() };
    let error = d.session.begin_turn(input).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidState);
    assert!(error.message.contains("maxSessionTokens"), "{}", error.message);
    assert_eq!(document(&d.session), before, "a refused beginTurn changes nothing");
    assert!(d.session.drain_events().is_empty());
}

fn delegating(max_tokens: u32) -> SessionConfig {
    let delegation = DelegationOptions { enabled: true, ..DelegationOptions::default() };
    SessionConfig { delegation, ..limited(Some(max_tokens), None) }
}

fn delegate(id: &str) -> ToolCallInput {
    call(id, "delegate", r#"{"goal":"Fix the number reading","todoId":"b"}"#)
}

/// A parent that spent 400 of its 1000 tokens and delegates item `b`, its child begun.
fn child_at_work() -> Drive {
    let mut d = Drive::new(delegating(1000));
    d.begin("Fix the parser and its docs");
    let list = call("t", "write_todos", &todos(&[("a", "completed"), ("b", "in_progress")]));
    spend_and_run(&mut d, "", vec![list, call("r", "read_file", "{}")], usage(300, 100));
    let decision = spend(&mut d, "", vec![delegate("d1")], None);
    assert!(matches!(&decision, Decision::RunTools { delegations, .. } if delegations.len() == 1), "{decision:?}");
    let now = d.tick(1.0);
    let start = d.session.begin_delegation("d1", now).unwrap();
    // The child's limit is what the parent's turn has left.
    assert_eq!(start.next.tokens_remaining, Some(600));
    assert_eq!(d.session.child("d1").unwrap().config().max_tokens, Some(600));
    d
}

#[test]
fn a_childs_tokens_land_in_its_parents_turn_and_its_limit_is_carved_from_the_parents() {
    let mut d = child_at_work();
    let now = d.tick(1000.0);
    let child = d.session.child("d1").unwrap();
    let decision = respond(child, "", vec![call("c1", "read_file", "{}")], usage(100, 20), now);
    let Decision::RunTools { calls, .. } = decision else { panic!() };
    child.handle_tool_results(vec![ok(&calls[0].id, "ok")], now).unwrap();
    // Counted live while the child works.
    let ledger = d.session.progress().ledger;
    assert_eq!(tokens(&ledger.turn), (400, 120));
    assert_eq!(tokens(&ledger.session), (400, 120));
    let now = d.tick(1000.0);
    let child = d.session.child("d1").unwrap();
    assert!(matches!(respond(child, "Fixed.", vec![], usage(30, 10), now), Decision::Finalize { .. }));
    let now = d.tick(1000.0);
    let outcome = d.session.finish_delegation("d1", HandoffOptions::default(), now).unwrap();
    assert_eq!(outcome.capsule.status, HandoffStatus::Done);
    assert_eq!(outcome.next.tokens_remaining, Some(1000 - 560));
    let ledger = d.session.progress().ledger;
    assert_eq!(tokens(&ledger.turn), (430, 130));
    // Its steps are the parent's too (through `delegated`).
    assert_eq!(ledger.turn.steps, 4);
    // The parent's turn ends at its limit with the child's tokens in it.
    let decision = spend(&mut d, "", vec![call("e", "edit_file", "{}")], usage(400, 40));
    assert!(matches!(decision, Decision::Pause { exit_reason: ExitReason::BudgetExhausted, .. }), "{decision:?}");
}

#[test]
fn a_child_at_its_carved_limit_comes_back_partial_and_spends_the_parents_turn() {
    let mut d = child_at_work();
    let now = d.tick(1000.0);
    let child = d.session.child("d1").unwrap();
    let list = call("ct", "write_todos", &todos(&[("x", "in_progress")]));
    let decision = respond(child, "", vec![list, call("c1", "read_file", "{}")], usage(550, 50), now);
    assert!(matches!(decision, Decision::Pause { exit_reason: ExitReason::BudgetExhausted, .. }), "{decision:?}");
    let now = d.tick(1000.0);
    let outcome = d.session.finish_delegation("d1", HandoffOptions::default(), now).unwrap();
    assert_eq!(outcome.capsule.status, HandoffStatus::Partial);
    // The parent's turn has nothing left: its next call is without tools, and whatever
    // the model does but answer ends the turn as budget_exhausted.
    assert_eq!(outcome.next.tokens_remaining, Some(0));
    assert!(outcome.next.tools_withheld);
    let decision = spend(&mut d, "", vec![call("e", "edit_file", "{}")], None);
    assert!(matches!(decision, Decision::Pause { exit_reason: ExitReason::BudgetExhausted, .. }), "{decision:?}");
}

#[test]
fn a_restored_session_keeps_its_ledger_and_decides_the_same() {
    let mut d = Drive::new(limited(Some(1000), Some(1500)));
    d.begin("One");
    assert!(matches!(spend(&mut d, "Done.", vec![], usage(300, 100)), Decision::Finalize { .. }));
    d.begin("Two");
    spend_and_run(&mut d, "", vec![call("1", "read_file", "{}")], usage(500, 50));
    let json = d.session.snapshot_json().unwrap();
    assert!(json.contains(r#""inputTokens":500"#) && json.contains(r#""spent":{"#), "{json}");
    let mut copy = Session::restore_json(&json).unwrap();
    assert_eq!(copy.progress().ledger, d.session.progress().ledger);
    assert_eq!(copy.next_call(d.now), d.session.next_call(d.now));
    let now = d.tick(1000.0);
    let original = respond(&mut d.session, "", vec![call("2", "read_file", "{}")], usage(500, 50), now);
    let restored = respond(&mut copy, "", vec![call("2", "read_file", "{}")], usage(500, 50), now);
    assert_eq!(original, restored);
    assert!(matches!(original, Decision::Pause { exit_reason: ExitReason::BudgetExhausted, .. }), "{original:?}");
    assert_eq!(copy.snapshot_json().unwrap(), d.session.snapshot_json().unwrap());
    // A session with nothing spent writes nothing new.
    let fresh = Session::new(config()).snapshot_json().unwrap();
    assert!(!fresh.contains("spent") && !fresh.contains("Tokens"), "{fresh}");
}

#[test]
fn hostile_usage_is_refused_by_name() {
    let read = |usage: &str| {
        let text = format!(r#"{{"text":"x","usage":{usage}}}"#);
        let document = planloop::json::parse_host(text.as_bytes(), Decimals::RUST).unwrap();
        read_args::object::<ModelResponse, _>(&*document, "response", &compiled::MODEL_RESPONSE, Decimals::RUST)
    };
    let counted = read(r#"{"inputTokens":4294967295,"outputTokens":0}"#).unwrap();
    assert_eq!(counted.usage, Some(Usage { input_tokens: Some(u32::MAX), output_tokens: Some(0) }));
    assert_eq!(read("null").unwrap().usage, None);
    for count in ["-1", "1.5", "1e300", "4294967296", r#""12""#, "NaN", "true", "{}"] {
        for key in ["inputTokens", "outputTokens"] {
            let error = read(&format!(r#"{{"{key}":{count}}}"#)).unwrap_err();
            assert_eq!(error.code, ErrorCode::InvalidArgument, "{key}: {count}");
            let issues = error.data.issues.unwrap_or_default();
            let shown = format!("{issues:?}");
            assert!(shown.contains("usage") && shown.contains(key), "{key}: {count}: {shown}");
        }
    }
    for usage in [r#"{"totalTokens":5}"#, "5", r#""many""#, "[]"] {
        assert_eq!(read(usage).unwrap_err().code, ErrorCode::InvalidArgument, "{usage}");
    }
    // Counts add up saturating: a session cannot overflow.
    let mut d = Drive::new(config());
    d.begin("x");
    spend_and_run(&mut d, "", vec![call("1", "read_file", "{}")], usage(u32::MAX, u32::MAX));
    spend(&mut d, "Done.", vec![], usage(u32::MAX, 1));
    let ledger = d.session.progress().ledger;
    assert_eq!(tokens(&ledger.session), (u32::MAX, u32::MAX));
}

#[test]
fn an_abandoned_turn_still_counts_in_the_session() {
    let mut d = Drive::new(limited(None, Some(1000)));
    d.begin("One");
    spend_and_run(&mut d, "", vec![call("1", "read_file", "{}")], usage(600, 0));
    let start = d.begin("Something else");
    assert_eq!(start.next.tokens_remaining, Some(400));
    let ledger = d.session.progress().ledger;
    assert_eq!((ledger.session.steps, tokens(&ledger.session)), (1, (600, 0)));
    assert_eq!(ledger.turn, Tally::default());
}

#[test]
fn a_turn_abandoned_with_a_child_at_work_keeps_what_the_child_spent() {
    let mut d = child_at_work();
    let now = d.tick(1000.0);
    let child = d.session.child("d1").unwrap();
    let decision = respond(child, "", vec![call("c1", "read_file", "{}")], usage(100, 20), now);
    assert!(matches!(decision, Decision::RunTools { .. }), "{decision:?}");
    d.begin("Something else");
    let session = d.session.progress().ledger.session;
    assert_eq!(tokens(&session), (400, 120));
}

#[test]
fn a_goal_found_unmet_after_the_turn_spent_its_tokens_pauses_the_turn() {
    let completion = CompletionOptions { verify: Verify::Host, require_evidence: false };
    let mut d = Drive::new(SessionConfig { completion, ..limited(Some(1000), None) });
    let goal = Goal { statement: "The parser reads every number".into(), criteria: Vec::new() };
    let now = d.tick(1.0);
    let begin = BeginTurn {
        message: "Fix it".into(),
        now_ms: now,
        user_id: None,
        chat_id: None,
        review: None,
        goal: Some(goal),
    };
    d.session.begin_turn(begin).unwrap();
    spend_and_run(&mut d, "", vec![call("t1", "write_todos", &todos(&[("fix", "in_progress")]))], usage(100, 10));
    spend_and_run(&mut d, "", vec![call("r1", "run_tests", "{}")], usage(100, 10));
    spend_and_run(&mut d, "", vec![call("t2", "write_todos", &todos(&[("fix", "completed")]))], usage(100, 10));
    // The answer takes the turn to its limit: the host still judges the goal...
    let decision = spend(&mut d, "Fixed.", vec![], usage(600, 80));
    assert!(matches!(decision, Decision::VerifyGoal { .. }), "{decision:?}");
    assert_eq!(d.session.next_call(d.now).tokens_remaining, Some(0));
    // ...but a goal not met cannot send the model back: it has no tokens left.
    let now = d.tick(1.0);
    let verdict = Verdict { met: false, reason: Some("A test fails".into()) };
    let decision = d.session.handle_verdict(verdict, now).unwrap();
    assert!(matches!(decision, Decision::Pause { exit_reason: ExitReason::BudgetExhausted, .. }), "{decision:?}");
}
