//! Snapshots: a session restored from its JSON snapshot, at any point of any drive,
//! decides exactly as the original; snapshots that are not sound are refused.

mod support;

use planloop::error::ErrorCode;
use planloop::json::decimals::Decimals;
use planloop::json::value::Value;
use planloop::session::approval::{
    ApproveOptions, ProposalStatus, RejectOptions, Scope, ToolClass, ToolPolicy, MAX_GRANTS,
};
use planloop::session::config::{
    ContinuationProtocol, Language, PlanReviewOptions, ReminderMode, SessionConfig, TodoDialect,
};
use planloop::session::exchange::{BeginTurn, Decision, ModelResponse, ToolCallInput, ToolResult};
use planloop::session::Session;
use support::{args, call, document, ok, plan, resealed, set, todos, Rng};

/// The session written to JSON text and read back.
fn roundtrip(session: &Session) -> Session {
    let text = session.snapshot().expect("snapshot").to_json(Decimals::RUST).expect("JSON");
    Session::restore_json(&text).unwrap_or_else(|e| panic!("restore: {e:?}\n{text}"))
}

/// One input to a session.
#[derive(Debug, Clone)]
enum Op {
    Begin(String),
    Respond(ModelResponse),
    Results(Vec<ToolResult>),
    Approve(String, Scope, Option<Value<'static>>),
    Reject(String),
}

/// What an input produced: a description of the result and events (to compare two
/// sessions), and the ids of the calls handed out to run.
struct Applied {
    described: String,
    handed_out: Vec<String>,
    /// The session refused the input (and must be as it was).
    refused: bool,
}

fn apply(session: &mut Session, op: &Op, now: f64) -> Applied {
    let before = session.clone();
    let applied = apply_to(session, op, now);
    if applied.refused {
        assert_eq!(*session, before, "a refused {op:?} changed the session");
    }
    applied
}

fn apply_to(session: &mut Session, op: &Op, now: f64) -> Applied {
    let ids = |decision: Option<&Decision>| match decision {
        Some(Decision::RunTools { calls, .. } | Decision::AwaitApproval { calls, .. }) => {
            calls.iter().map(|c| c.id.clone()).collect()
        }
        _ => Vec::new(),
    };
    let (outcome, handed_out, refused) = match op.clone() {
        Op::Begin(message) => {
            let input = BeginTurn { message, now_ms: now, ..Default::default() };
            let result = session.begin_turn(input);
            (format!("{result:?}"), Vec::new(), result.is_err())
        }
        Op::Respond(response) => {
            let result = session.handle_model_response(response, now);
            let handed_out = ids(result.as_ref().ok());
            (format!("{result:?}"), handed_out, result.is_err())
        }
        Op::Results(results) => {
            let result = session.handle_tool_results(results, now);
            (format!("{result:?}"), Vec::new(), result.is_err())
        }
        Op::Approve(id, scope, edited_args) => {
            let result = session.approve(&id, ApproveOptions { edited_args, scope }, now);
            let handed_out = ids(result.as_ref().ok().and_then(|o| o.resumed.as_ref()));
            (format!("{result:?}"), handed_out, result.is_err())
        }
        Op::Reject(id) => {
            let result = session.reject(&id, RejectOptions { message: Some("no".into()) }, now);
            let handed_out = ids(result.as_ref().ok().and_then(|o| o.resumed.as_ref()));
            (format!("{result:?}"), handed_out, result.is_err())
        }
    };
    Applied { described: format!("{outcome}\n{:?}", session.drain_events()), handed_out, refused }
}

fn random_config(rng: &mut Rng) -> SessionConfig {
    let mut config = SessionConfig {
        max_iterations: 2 + rng.below(7) as u32,
        language: *rng.pick(&[Language::En, Language::Zh]),
        plan_review: PlanReviewOptions { enabled: rng.below(4) == 0, ttl_minutes: 60 },
        continuation_protocol: ContinuationProtocol {
            enabled: rng.below(4) == 0,
            require_explicit_signal: rng.below(2) == 0,
        },
        todo_dialects: vec![TodoDialect::WriteTodos, TodoDialect::TodoWrite],
        tools: ToolPolicy {
            default: ToolClass::Approve,
            read: vec!["search".into(), "read".into()],
            ..ToolPolicy::default()
        },
        ..SessionConfig::default()
    };
    config.history.mode =
        *rng.pick(&[planloop::trail::reasoning::HistoryMode::Rolling, planloop::trail::reasoning::HistoryMode::Full]);
    config.reminder_mode = *rng.pick(&[ReminderMode::Interval, ReminderMode::Drift]);
    config.reminder_interval = 1 + rng.below(3) as u32;
    config
}

const TEXTS: &[&str] = &[
    "",
    "Looking.",
    "[Step] Find the notes\n[Step] Merge them\n[Step] File the result",
    "Found them. [Done]",
    "Now the merge.",
    "Next, filing.",
    "[步骤] 整理\n[步骤] 归档",
    "完成了。[完成]",
    "All done: the notes are merged.",
    "Task completed successfully.",
    "```json\n{\"continuation\":{\"status\":\"CONTINUE\",\"progress\":{\"current_step\":1,\"total_steps\":3}}}\n```",
];

/// Arguments as a JS host may pass them, which JSON cannot carry as they are: none at
/// all, `undefined` members and items, `-0`, numbers at the ends of the double range and
/// beyond it, a lone surrogate, a repeated key.
fn odd_value(rng: &mut Rng) -> Value<'static> {
    let number = *rng.pick(&[-0.0, 1e308, -1.7976931348623157e308, 5e-324, -2.5e-310, 1e21, f64::INFINITY, f64::NAN]);
    match rng.below(6) {
        0 => Value::Undefined,
        1 => Value::Object(vec![("path".into(), Value::String("a.md".into())), ("force".into(), Value::Undefined)]),
        2 => Value::Object(vec![
            ("n".into(), Value::Number(number)),
            ("list".into(), Value::Array(vec![Value::Undefined, Value::Number(number)])),
        ]),
        3 => Value::Object(vec![("k".into(), Value::Number(1.0)), ("k".into(), Value::Number(number))]),
        4 => Value::Object(vec![("note".into(), Value::IllFormedString("a\u{fffd}".into()))]),
        _ => Value::Number(number),
    }
}

/// A model response: some text, some calls (ids unique within the drive, but for a
/// response now and then that repeats one, which the session refuses).
fn random_response(rng: &mut Rng, step: usize) -> ModelResponse {
    let text = rng.pick(TEXTS);
    let count = rng.pick(&[0, 0, 1, 1, 2, 3]);
    let repeat = rng.below(12) == 0;
    let mut calls: Vec<ToolCallInput> = (0..*count)
        .map(|i| {
            let id = format!("c{step}-{i}");
            if rng.below(5) == 0 {
                // A tool of its own now and then: "always" grants pile up.
                let own = format!("tool{step}");
                let name = *rng.pick(&["empty_trash", "search", "deploy", own.as_str()]);
                return ToolCallInput { id, name: name.to_owned(), args: odd_value(rng) };
            }
            let todo_args = todos(&[("a", "completed"), ("b", "in_progress")]);
            let plan_args = plan("complex");
            let (name, args) = *rng.pick(&[
                ("search", r#"{"query":"notes"}"#),
                ("read", r#"{"path":"a.md"}"#),
                ("deploy", r#"{"env":"prod"}"#),
                ("run_bash", r#"{"command":"rm -rf tmp"}"#),
                ("write_todos", todo_args.as_str()),
                ("write_todos", r#"{"todos":[{"id":"a","content":"x","status":"done"}]}"#),
                ("TodoWrite", r#"{"todos":[{"content":"Merge","status":"in_progress","activeForm":"Merging"}]}"#),
                ("plan", plan_args.as_str()),
                ("plan_progress", r#"{"step_id":"find","step_summary":"found"}"#),
                ("plan_progress", r#"{"plan_status":"completed"}"#),
            ]);
            call(&id, name, args)
        })
        .collect();
    if let Some(first) = calls.first().filter(|_| repeat).cloned() {
        calls.push(first);
    }
    ModelResponse { text: (!text.is_empty()).then(|| (*text).to_owned()), tool_calls: calls, usage: None }
}

/// Times a host may pass: the drive's clock, or now and then one at an end of the
/// double range (two finite times can be further apart than any double).
fn random_time(rng: &mut Rng, now: f64) -> f64 {
    match rng.below(30) {
        0 => *rng.pick(&[-1.7e308, 1.7e308, f64::MAX, -f64::MAX, 0.0, -1.0]),
        _ => now,
    }
}

/// What a host would do next, given what the session last asked for.
struct Host {
    awaiting: Vec<String>,
    proposals: Vec<String>,
    /// Action ids already approved or rejected, to try again (a careless host).
    resolved: Vec<String>,
}

impl Host {
    fn next(&mut self, rng: &mut Rng, step: usize) -> Op {
        match rng.below(14) {
            0 => {
                let messages = ["Merge my notes", "continue", "don't continue", "继续", "thanks", "<resume>\nGoal: x"];
                Op::Begin((*rng.pick(&messages)).to_owned())
            }
            // Inputs a careless host sends, which the session refuses.
            12 => match rng.below(3) {
                0 => Op::Results(vec![ok("nope", ""), ok("nope", "")]),
                1 if !self.resolved.is_empty() => Op::Approve(rng.pick(&self.resolved).clone(), Scope::Once, None),
                _ => Op::Reject(format!("act-{}-9999", step)),
            },
            1 | 2 if !self.proposals.is_empty() => {
                let id = self.proposals.remove(rng.below(self.proposals.len()));
                self.resolved.push(id.clone());
                match rng.below(4) {
                    0 => Op::Reject(id),
                    1 => Op::Approve(id, Scope::Always, None),
                    2 => Op::Approve(id, Scope::Once, Some(odd_value(rng))),
                    _ => Op::Approve(id, Scope::Once, None),
                }
            }
            3..=6 if !self.awaiting.is_empty() => {
                let take = 1 + rng.below(self.awaiting.len());
                let ids: Vec<String> = self.awaiting.drain(..take).collect();
                let result = |id: &String, rng: &mut Rng| match rng.below(4) {
                    0 => ToolResult { output: odd_value(rng), ..ok(id, "") },
                    _ => ok(id, &format!("result of {id}")),
                };
                Op::Results(ids.iter().map(|id| result(id, rng)).collect())
            }
            _ => Op::Respond(random_response(rng, step)),
        }
    }

    /// Reads what the original session answered.
    fn observe(&mut self, op: &Op, session: &Session, applied: &Applied) {
        if let Op::Begin(_) = op {
            self.awaiting.clear();
        }
        self.awaiting.extend(applied.handed_out.iter().cloned());
        let pending = session.proposals().into_iter().filter(|p| p.status == ProposalStatus::Pending);
        self.proposals = pending.map(|p| p.action_id.clone()).collect();
    }
}

/// What the drives of [`drive`] went through, to check that they reach each case.
#[derive(Default)]
struct Reached {
    restores: usize,
    mid_approval: usize,
    mid_results: usize,
    paused_plans: usize,
    refusals: usize,
    grants: usize,
}

/// Drives `original` for `steps` random inputs, restoring a copy from its snapshot about
/// once every `restore_every` inputs: the copy must decide exactly as the original from there on, and any input
/// either session refuses must leave it as it was (checked in `apply`).
fn drive(seed: u64, rng: &mut Rng, mut original: Session, steps: usize, restore_every: usize, reached: &mut Reached) {
    let mut restored: Option<Session> = None;
    let mut host = Host { awaiting: Vec::new(), proposals: Vec::new(), resolved: Vec::new() };
    let mut now = 1_000.0;
    apply(&mut original, &Op::Begin("Merge my notes into one file".into()), now);
    for step in 0..steps {
        now += 250.0 + rng.below(3) as f64 * 1_000.0;
        if rng.below(restore_every) == 0 {
            let from = restored.as_ref().unwrap_or(&original);
            let copy = roundtrip(from);
            assert_eq!(
                copy.snapshot().unwrap(),
                original.snapshot().unwrap(),
                "seed {seed} step {step}: the copy is the same state"
            );
            reached.restores += 1;
            reached.mid_approval += usize::from(!host.proposals.is_empty());
            reached.mid_results += usize::from(!host.awaiting.is_empty());
            reached.paused_plans += usize::from(
                original.step_plan().is_some_and(|p| p.status == planloop::plan::steps::PlanStatus::Paused),
            );
            restored = Some(copy);
        }
        let op = host.next(rng, step);
        let at = random_time(rng, now);
        let expected = apply(&mut original, &op, at);
        reached.refusals += usize::from(expected.refused);
        if let Some(copy) = restored.as_mut() {
            let got = apply(copy, &op, at);
            assert_eq!(got.described, expected.described, "seed {seed} step {step}: {op:?}");
        }
        host.observe(&op, &original, &expected);
    }
    let copy = roundtrip(&original);
    assert_eq!(copy.snapshot().unwrap(), original.snapshot().unwrap(), "seed {seed}: the end state restores");
    if let Some(copy) = &restored {
        assert_eq!(copy.snapshot().unwrap(), original.snapshot().unwrap(), "seed {seed}: the end states agree");
    }
    reached.grants = reached.grants.max(original.snapshot().unwrap().grants.len());
}

#[test]
fn a_restored_session_decides_exactly_as_the_original_from_any_point() {
    let mut reached = Reached::default();
    for seed in support::seeds(400) {
        let mut rng = Rng::seeded(seed);
        let config = random_config(&mut rng);
        drive(seed, &mut rng, Session::new(config), 60, 8, &mut reached);
    }
    let Reached { restores, mid_approval, mid_results, paused_plans, refusals, .. } = reached;
    assert!(
        restores > 2_000 && mid_approval > 100 && mid_results > 100 && paused_plans > 50 && refusals > 1_000,
        "restores {restores}, mid-approval {mid_approval}, mid-results {mid_results}, paused plans {paused_plans}, refusals {refusals}"
    );
}

#[test]
fn a_session_at_its_standing_approvals_cap_still_snapshots_what_it_restores() {
    // Sessions a grant short of the cap (as a long-lived one gets), forged here
    // rather than driven there: ten thousand approvals take a while.
    let grants: Vec<Value<'static>> =
        (0..MAX_GRANTS - 1).map(|i| args(&format!(r#"{{"tool":"old{i}","basis":{{"by":"tool"}}}}"#))).collect();
    let mut reached = Reached::default();
    for seed in support::seeds(4) {
        let mut rng = Rng::seeded(seed);
        let mut near = document(&Session::new(random_config(&mut rng)));
        set(&mut near, &["grants"], Value::Array(grants.clone()));
        let start = Session::restore(&resealed(near)).expect("a live session could reach it");
        drive(seed, &mut rng, start, 150, 30, &mut reached);
    }
    assert_eq!(reached.grants, MAX_GRANTS, "the drives reach the cap");
}

/// A driven session: a text-tracked plan, a todo list, a proposal waiting.
fn busy_session() -> Session {
    let config = SessionConfig {
        tools: ToolPolicy { read: vec!["search".into()], ..ToolPolicy::default() },
        ..SessionConfig::default()
    };
    let mut session = Session::new(config);
    session.begin_turn(BeginTurn { message: "Merge the notes".into(), now_ms: 1.0, ..Default::default() }).unwrap();
    let response = ModelResponse {
        text: Some("[Step] Find\n[Step] Merge".into()),
        tool_calls: vec![call("1", "write_todos", &todos(&[("find", "in_progress")])), call("2", "deploy", "{}")],
        usage: None,
    };
    let decision = session.handle_model_response(response, 2.0).unwrap();
    assert!(matches!(decision, Decision::AwaitApproval { .. }));
    session
}

fn refusal(value: &Value<'static>) -> planloop::error::Error {
    let error = Session::restore(value).expect_err("refused");
    assert_eq!(error.code, ErrorCode::InvalidSnapshot);
    error
}

#[test]
fn the_snapshot_keeps_seed_001s_plan_fields_and_restores_mid_approval() {
    let session = busy_session();
    let value = document(&session);
    let plan = value.get("plan").unwrap();
    let keys: Vec<&str> = match plan {
        Value::Object(members) => members.iter().map(|(k, _)| k.as_ref()).collect(),
        _ => panic!(),
    };
    assert_eq!(keys, ["id", "goal", "status", "steps", "current_step_index", "iteration_count"]);
    let step = match plan.get("steps") {
        Some(Value::Array(steps)) => &steps[0],
        _ => panic!(),
    };
    assert_eq!(step.get("status").and_then(Value::as_str), Some("running"));
    assert_eq!(value.get("version").and_then(Value::as_str), Some("1.4"));
    // Restored mid-approval: the proposal can be approved, and the call then runs.
    let mut copy = Session::restore(&value).unwrap();
    let action = copy.proposals()[0].action_id.clone();
    let outcome = copy.approve(&action, ApproveOptions { edited_args: None, scope: Scope::Once }, 3.0).unwrap();
    assert!(matches!(outcome.resumed, Some(Decision::RunTools { ref calls, .. }) if calls[0].id == "2"));
}

#[test]
fn snapshots_of_other_versions_or_changed_after_writing_are_refused() {
    let value = document(&busy_session());
    let mut other_major = value.clone();
    set(&mut other_major, &["version"], Value::String("2.0".into()));
    assert!(refusal(&resealed(other_major)).message.contains("this planloop reads 1.x"));
    let mut newer_minor = value.clone();
    set(&mut newer_minor, &["version"], Value::String("1.5".into()));
    assert!(refusal(&resealed(newer_minor)).message.contains("newer planloop"));
    let mut edited = value.clone();
    set(&mut edited, &["plan", "goal"], Value::String("Delete everything".into()));
    assert!(refusal(&edited).message.contains("checksum does not match"));
    let text = busy_session().snapshot().unwrap().to_json(Decimals::RUST).unwrap();
    let cut = Session::restore_json(&text[..text.len() / 2]).unwrap_err();
    assert_eq!(cut.code, ErrorCode::InvalidSnapshot);
    assert!(cut.message.contains("not JSON"), "{}", cut.message);
    assert!(refusal(&args(r#"{"todos":[]}"#)).message.contains("not a planloop session snapshot"));
}

#[test]
fn snapshots_of_the_wrong_shape_or_inconsistent_state_are_refused_even_with_a_matching_checksum() {
    let value = document(&busy_session());
    let mut wrong_type = value.clone();
    set(&mut wrong_type, &["turn", "iterations"], Value::String("three".into()));
    let error = refusal(&resealed(wrong_type));
    let issue = &error.data.issues.as_ref().unwrap()[0];
    assert!(format!("{issue:?}").contains(r#"path: [Key("turn"), Key("iterations")]"#), "{issue:?}");
    let mut unknown_key = value.clone();
    if let Value::Object(members) = &mut unknown_key {
        members.push(("extra".into(), Value::Bool(true)));
    }
    assert!(refusal(&resealed(unknown_key)).data.issues.is_some());
    let cases: [(&[&str], Value<'static>, &str); 4] = [
        (&["plan", "current_step_index"], Value::Number(1.0), "current_step_index should be 0"),
        (&["turn", "iterations"], Value::Number(99.0), "more iterations than maxIterations"),
        (&["turn", "pausedAt"], Value::Null, "its pause does not match"),
        (&["config", "maxPlannerOnlyStreak"], Value::Number(7.0), "settings differ from the config"),
    ];
    for (path, new, why) in cases {
        let mut broken = value.clone();
        set(&mut broken, path, new);
        let error = refusal(&resealed(broken));
        assert!(error.message.contains(why), "{path:?}: {}", error.message);
    }
    // The untouched document still restores: the refusals were about the edits.
    assert!(Session::restore(&value).is_ok());
}

/// Every path to a value in `value`, as keys and indices.
fn paths(value: &Value<'static>, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(at.clone());
    let children: Vec<(String, &Value<'static>)> = match value {
        Value::Object(members) => members.iter().map(|(k, v)| (k.to_string(), v)).collect(),
        Value::Array(items) => items.iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
        _ => Vec::new(),
    };
    for (key, child) in children {
        at.push(key);
        paths(child, at, out);
        at.pop();
    }
}

#[test]
fn any_value_anywhere_with_a_matching_checksum_restores_or_is_an_invalid_snapshot_never_an_internal_error() {
    let value = document(&busy_session());
    let mut all = Vec::new();
    paths(&value, &mut Vec::new(), &mut all);
    let odd = [
        Value::Number(1.5),
        Value::Number(-1.0),
        // Past the integers a JSON number carries exactly (a fingerprint's limit).
        Value::Number(1e20),
        Value::Number(4_294_967_296.0),
        Value::String("x".into()),
        Value::String("".into()),
        Value::Null,
        Value::Bool(true),
        Value::Array(Vec::new()),
        Value::Object(Vec::new()),
    ];
    for path in all.iter().filter(|p| !p.is_empty() && p[0] != "checksum") {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        for new in &odd {
            let mut forged = value.clone();
            set(&mut forged, &path, new.clone());
            if let Err(error) = Session::restore(&resealed(forged)) {
                assert_eq!(error.code, ErrorCode::InvalidSnapshot, "{path:?} = {new:?}: {}", error.message);
            }
        }
    }
}

#[test]
fn a_snapshot_nested_too_deep_is_refused_before_anything_walks_it() {
    // A store entry holding a valid header and a very deep value: the checksum and the
    // shape check would recurse through it. The session (and the process) must survive.
    for depth in [100, 10_000, 1_000_000] {
        for (open, close) in [("[", "]"), (r#"{"a":"#, "}")] {
            let text = format!(
                r#"{{"format":"planloop.session","version":"1.0","x":{}1{}}}"#,
                open.repeat(depth),
                close.repeat(depth)
            );
            let error = Session::restore_json(&text).expect_err("refused");
            assert_eq!(error.code, ErrorCode::InvalidSnapshot);
            assert!(error.message.contains("nests deeper than a snapshot can"), "{depth}: {}", error.message);
        }
    }
    // As deep as a snapshot legitimately gets (arguments at their deepest) still restores;
    // arguments any deeper are refused when they come in.
    let nested = |levels: usize| {
        let mut json = String::from("1");
        for _ in 0..levels {
            json = format!("[{json}]");
        }
        json
    };
    let mut session = Session::new(SessionConfig::default());
    let begin = BeginTurn { message: "go".into(), now_ms: 1.0, ..Default::default() };
    session.begin_turn(begin).unwrap();
    let deepest = planloop::validate::schema::ANY_MAX_DEPTH;
    let too_deep =
        ModelResponse { text: None, tool_calls: vec![call("1", "deploy", &nested(deepest + 1))], usage: None };
    let error = session.handle_model_response(too_deep, 2.0).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    let response = ModelResponse { text: None, tool_calls: vec![call("1", "deploy", &nested(deepest))], usage: None };
    assert!(matches!(session.handle_model_response(response, 2.0).unwrap(), Decision::AwaitApproval { .. }));
    roundtrip(&session);
}

/// A snapshot an earlier planloop wrote (and a host stored as `JSON.stringify` of it):
/// mid-approval, with todos, a trail, escapes, non-ASCII text and fractional numbers.
const STORED_1_1: &str = include_str!("fixtures/snapshot-1.1.json");

#[test]
fn a_stored_snapshot_restores_and_is_written_again_with_the_same_content_and_checksum() {
    // The checksum is a contract with every snapshot already stored: summed the same way.
    // (Restoring checks it.)
    let session = Session::restore_json(STORED_1_1).expect("a stored snapshot restores");
    let written = session.snapshot_json().unwrap();
    let parsed =
        |text: &str| planloop::json::parse(text.as_bytes(), Decimals::RUST).unwrap().into_shallow().into_owned();
    // Written again in today's format, 1.4, whose new fields it does not use: the same
    // document, but for its version, the config's new keys (their defaults, but for
    // `reminderMode`: it ran with interval reminders and keeps them) and so its checksum.
    let as_1_4 = STORED_1_1.replace(r#""version":"1.1""#, r#""version":"1.4""#);
    let delegation = r#""delegation":{"enabled":false,"toolNames":["delegate"],"maxDepth":1,"maxInFlight":2,"maxIterations":10,"capsuleChars":4000}"#;
    let reminders = r#""reminderMode":"interval""#;
    let completion = r#""completion":{"verify":"off","requireEvidence":false}"#;
    let as_1_4 = as_1_4.replace(
        r#""maxToolOutputChars":20000}"#,
        &format!(r#""maxToolOutputChars":20000,{delegation},{reminders},{completion}}}"#),
    );
    let as_1_4 = as_1_4.replace(r#""checksum":"83db8f5e5360a720""#, r#""checksum":"2c6b4cb0b02aeae1""#);
    assert_eq!(parsed(&written), parsed(&as_1_4));
    // The text is the snapshot document, checksum and all, as serializing it writes it.
    assert_eq!(written, session.snapshot().unwrap().to_json(Decimals::RUST).unwrap());
    // Any change to what it sums is caught.
    let changed = STORED_1_1.replace("\"turns\":1", "\"turns\":2");
    assert_eq!(Session::restore_json(&changed).err().map(|e| e.code), Some(ErrorCode::InvalidSnapshot));
}

/// A snapshot written by planloop 1.3 (before goals and per-item evidence): a list with
/// an item done and one in progress, and a call of it awaiting its result.
const STORED_1_3: &str = include_str!("fixtures/snapshot-1.3.json");

#[test]
fn a_format_1_3_snapshot_restores_with_no_evidence_and_goes_on() {
    let mut session = Session::restore_json(STORED_1_3).expect("a 1.3 snapshot restores");
    // Its receipts had no observation, and its items no evidence.
    assert!(session.todos_with_evidence().iter().all(|t| t.receipts.is_empty()));
    let outcome = session.handle_tool_results(vec![ok("r2", "edited a.md")], 50_000.0).unwrap();
    assert!(outcome.complete);
    // A result coming in now is the evidence of the item in progress.
    let todos = session.todos_with_evidence();
    assert_eq!(todos[1].receipts.len(), 1);
    assert_eq!(todos[1].receipts[0].observation, "edit ok: edited a.md");
    assert_eq!(roundtrip(&session), session);
}

#[test]
fn a_format_1_0_snapshot_still_restores_and_numbers_its_next_proposal_after_the_kept_ones() {
    let mut value = document(&busy_session());
    set(&mut value, &["version"], Value::String("1.0".into()));
    if let Some(Value::Object(turn)) = match &mut value {
        Value::Object(members) => members.iter_mut().find(|(k, _)| k == "turn").map(|(_, v)| v),
        _ => None,
    } {
        turn.retain(|(k, _)| k != "proposed");
    }
    let mut session = Session::restore(&resealed(value)).expect("a 1.0 snapshot restores");
    let action = session.proposals()[0].action_id.clone();
    assert_eq!(action, "act-1-1");
    let outcome = session.approve(&action, ApproveOptions { edited_args: None, scope: Scope::Once }, 3.0).unwrap();
    let Some(Decision::RunTools { calls, .. }) = outcome.resumed else { panic!("resumes") };
    session.handle_tool_results(calls.iter().map(|c| ok(&c.id, "done")).collect(), 4.0).unwrap();
    let response =
        ModelResponse { text: None, tool_calls: vec![call("9", "deploy", r#"{"env":"staging"}"#)], usage: None };
    let Decision::AwaitApproval { proposals, .. } = session.handle_model_response(response, 5.0).unwrap() else {
        panic!("a proposal")
    };
    assert_eq!(proposals[0].action_id, "act-1-2");
}

#[test]
fn arguments_with_many_keys_cost_linear_time_to_take_in_snapshot_and_restore() {
    // 99,000 distinct keys (just under the 100,000 values `{}` allows): looking each one
    // up by name was quadratic.
    let keys: Vec<String> = (0..99_000).map(|i| format!(r#""k{i}":{i}"#)).collect();
    let text = format!("{{{}}}", keys.join(","));
    let mut session = Session::new(SessionConfig::default());
    let begin = BeginTurn { message: "go".into(), now_ms: 1.0, ..Default::default() };
    session.begin_turn(begin).unwrap();
    let calls = vec![ToolCallInput { id: "1".into(), name: "deploy".into(), args: Value::String(text.into()) }];
    let decision =
        session.handle_model_response(ModelResponse { text: None, tool_calls: calls, usage: None }, 2.0).unwrap();
    let Decision::AwaitApproval { proposals, .. } = decision else { panic!("a proposal") };
    assert!(matches!(&proposals[0].args, Value::Object(members) if members.len() == 99_000));
    roundtrip(&session);
}
