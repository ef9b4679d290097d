//! What a real model sent, replayed: replies SmolLM2-135M wrote when driven through
//! planloop (recorded in `tests/fixtures/live/`), each of which planloop once mishandled.
//! A cut-off call became the answer, echoed nudges became the answer and a reflection,
//! a doubled planner call recorded no plan, a doubled write asked the user twice.

mod support;

use planloop::session::approval::{ApproveOptions, Scope};
use planloop::session::config::SessionConfig;
use planloop::session::exchange::{ContinueReason, Decision, ExitReason, ToolCallInput};
use support::{call, config, ok, todos, Drive};

/// The replies of one fixture file.
fn replies(name: &str) -> Vec<String> {
    let path = format!("{}/tests/fixtures/live/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let fixture: serde_json::Value = serde_json::from_str(&text).expect("fixture is JSON");
    let replies = fixture["replies"].as_array().expect("a list of replies");
    replies.iter().map(|r| r.as_str().expect("each reply is text").to_owned()).collect()
}

/// A grammar-forced reply `{"tool_calls":[{name, arguments}]}` as the calls a server
/// would hand over, ids given in order.
fn calls_of(reply: &str) -> Vec<ToolCallInput> {
    let parsed: serde_json::Value = serde_json::from_str(reply).expect("a whole reply");
    let calls = parsed["tool_calls"].as_array().expect("tool calls");
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| call(&format!("call_{i}"), c["name"].as_str().unwrap(), &c["arguments"].to_string()))
        .collect()
}

fn with_open_list() -> Drive {
    let mut d = Drive::new(config());
    d.begin("Summarise my notes a.md and b.md.");
    d.act("", vec![call("t", "write_todos", &todos(&[("read", "in_progress"), ("sum", "pending")]))]);
    d
}

fn reflections(d: &Drive) -> Vec<String> {
    d.session.steps().into_iter().filter(|s| s.starts_with("[Reflect]")).collect()
}

#[test]
fn a_tool_call_cut_off_by_the_token_cap_is_never_the_answer() {
    let cut = replies("cut-off-calls.json");
    assert!(cut.len() >= 5);
    for reply in &cut {
        let mut d = Drive::new(config());
        d.begin("Read notes a.md and b.md, then write a summary to summary.md.");
        let first = d.respond(reply, vec![]);
        let Decision::Continue { reason, message, .. } = &first else { panic!("{reply}\n{first:?}") };
        assert_eq!(*reason, ContinueReason::CutOffToolCall, "{reply}");
        assert!(message.contains("cut off") && message.contains("did not run"), "{message}");
        // However often it comes back, the turn never ends on it, and it never reflects.
        let mut last = first;
        for _ in 0..20 {
            if !matches!(last, Decision::Continue { .. }) {
                break;
            }
            last = d.respond(reply, vec![]);
        }
        let Decision::Finalize { answer, exit_reason } = &last else { panic!("{last:?}") };
        assert_eq!(answer, "", "{reply}");
        assert!(matches!(exit_reason, ExitReason::SafetyValve | ExitReason::Stuck), "{exit_reason:?}");
        assert_eq!(reflections(&d), Vec::<String>::new());
    }
}

#[test]
fn a_whole_call_written_as_text_is_not_the_answer_either() {
    let mut d = Drive::new(config());
    d.begin("Read a.md.");
    let written = r#"<tool_call>{"name": "read_note", "arguments": {"path": "a.md"}}</tool_call>"#;
    let decision = d.respond(written, vec![]);
    let Decision::Continue { reason, .. } = decision else { panic!("{decision:?}") };
    assert_eq!(reason, ContinueReason::ToolCallAsText);
    // The model makes the call properly, then answers.
    d.act("", vec![call("c1", "read_note", r#"{"path":"a.md"}"#)]);
    let done = d.respond("a.md says: buy milk.", vec![]);
    assert_eq!(
        done,
        Decision::Finalize { answer: "a.md says: buy milk.".into(), exit_reason: ExitReason::FinalAnswer }
    );
}

#[test]
fn planloops_own_nudges_echoed_back_are_never_the_answer_nor_a_reflection() {
    let echoes = replies("echoed-nudges.json");
    assert!(!echoes.is_empty());
    for echo in &echoes {
        let mut d = with_open_list();
        let before = reflections(&d);
        let mut last = d.respond(echo, vec![]);
        for _ in 0..20 {
            if !matches!(last, Decision::Continue { .. }) {
                break;
            }
            last = d.respond(echo, vec![]);
        }
        match &last {
            Decision::Finalize { answer, .. } => assert_eq!(answer, "", "{echo}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(reflections(&d), before, "{echo}");
    }
    // The stuck nudge, echoed with its tag, then the model's own answer after it.
    let mut d = with_open_list();
    let stuck = "<stuck>You seem to be going in circles: the same reply 3 times in a row. Do not repeat it. Try a different approach, or give your final answer with what you have.</stuck>";
    let echoed = d.respond(stuck, vec![]);
    assert!(matches!(echoed, Decision::Continue { reason: ContinueReason::EmptyReply, .. }), "{echoed:?}");
    d.act("", vec![call("t2", "write_todos", &todos(&[("read", "completed"), ("sum", "completed")]))]);
    let answer = d.respond(&format!("{stuck}\nBoth notes are summarised in summary.md."), vec![]);
    assert_eq!(
        answer,
        Decision::Finalize {
            answer: "Both notes are summarised in summary.md.".into(),
            exit_reason: ExitReason::FinalAnswer
        }
    );
    assert!(reflections(&d).iter().all(|r| !r.contains("circles")), "{:?}", reflections(&d));
}

#[test]
fn a_planner_call_sent_twice_word_for_word_is_taken_once() {
    let doubled = replies("doubled-planner-calls.json");
    for reply in &doubled {
        let calls = calls_of(reply);
        assert_eq!(calls.len(), 2);
        let mut d = Drive::new(config());
        d.begin("Plan your work with write_todos.");
        let decision = d.respond("", calls);
        let Decision::RunTools { replies, .. } = &decision else { panic!("{decision:?}") };
        assert!(replies[0].content.starts_with(r#"{"ok":true,"revision":1"#), "{}", replies[0].content);
        assert!(!replies[1].is_error && replies[1].content.contains("repeats call call_0"), "{}", replies[1].content);
        assert_eq!(d.session.snapshot().unwrap().planner.snapshot().revision, 1);
        assert!(!d.session.todos().is_empty());
    }
    // Two planner calls that differ still contradict each other: both refused.
    let mut d = Drive::new(config());
    d.begin("Plan.");
    let a = call("a", "write_todos", &todos(&[("x", "pending")]));
    let b = call("b", "write_todos", &todos(&[("y", "pending")]));
    let Decision::RunTools { replies, .. } = d.respond("", vec![a, b]) else { panic!() };
    assert!(replies.iter().all(|r| r.is_error && r.content.contains("duplicate_planner_call")), "{replies:?}");
    assert!(d.session.todos().is_empty());
}

#[test]
fn recorded_repeated_writes_ask_once_for_each_distinct_write() {
    for reply in replies("repeated-writes.json") {
        let calls = calls_of(&reply);
        let mut distinct: Vec<String> = calls.iter().map(|c| format!("{:?}", c.args)).collect();
        distinct.sort();
        distinct.dedup();
        assert!(distinct.len() < calls.len(), "{reply}");
        let mut d = Drive::new(SessionConfig::default());
        d.begin("Write the text hello to the note hello.md.");
        let decision = d.respond("", calls.clone());
        let Decision::AwaitApproval { proposals, replies, .. } = &decision else { panic!("{decision:?}") };
        assert_eq!(proposals.len(), distinct.len(), "{reply}");
        assert_eq!(proposals.len() + replies.len(), calls.len());
    }
}

#[test]
fn a_write_sent_twice_word_for_word_is_proposed_once_and_runs_once() {
    let mut d = Drive::new(SessionConfig::default());
    d.begin("Write hello to hello.md.");
    let note = r#"{"path":"hello.md","text":"hello"}"#;
    let calls = (0..4).map(|i| call(&format!("w{i}"), "write_note", note)).collect();
    let decision = d.respond("", calls);
    let Decision::AwaitApproval { proposals, calls, replies, .. } = &decision else { panic!("{decision:?}") };
    assert_eq!(proposals.len(), 1);
    assert!(calls.is_empty());
    let ids: Vec<&str> = replies.iter().map(|r| r.tool_call_id.as_str()).collect();
    assert_eq!(ids, ["w1", "w2", "w3"]);
    assert!(replies.iter().all(|r| r.content.contains("repeats call w0")), "{replies:?}");
    let now = d.tick(1.0);
    let outcome = d
        .session
        .approve(&proposals[0].action_id, ApproveOptions { edited_args: None, scope: Scope::Once }, now)
        .unwrap();
    let Some(Decision::RunTools { calls, .. }) = outcome.resumed else { panic!("{outcome:?}") };
    assert_eq!(calls.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["w0"]);
    d.results(vec![ok("w0", "written")]);
    // Writes that differ are each asked about.
    let other = r#"{"path":"bye.md","text":"bye"}"#;
    let Decision::AwaitApproval { proposals, .. } =
        d.respond("", vec![call("v0", "write_note", note), call("v1", "write_note", other)])
    else {
        panic!()
    };
    assert_eq!(proposals.len(), 2);
}

#[test]
fn an_answer_that_shows_tool_call_syntax_is_still_the_answer() {
    let answer = "Hermes models wrap each call in tags: <tool_call>{\"name\": \"read_note\", \"arguments\": {\"path\": \"a.md\"}}</tool_call>, and the host answers with <tool_response>.";
    let mut d = Drive::new(config());
    d.begin("How do Hermes models call tools?");
    assert_eq!(
        d.respond(answer, vec![]),
        Decision::Finalize { answer: answer.into(), exit_reason: ExitReason::FinalAnswer }
    );
}
