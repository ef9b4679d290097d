//! Cases run in both Chromium and Node: the exported API on real JS values, the errors
//! it throws, and the instance staying usable after bad input.

use js_sys::{Array, Reflect, JSON};
use planloop::wasm::api::{context_capsule, extract_reflection_js, tool_definitions, validate_write_todos};
use planloop::wasm::planner::PlannerState;
use planloop::wasm::reasoning::ReasoningLog;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

fn js(source: &str) -> JsValue {
    js_sys::eval(&format!("({source})")).expect("test fixture evaluates")
}

fn get(value: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(value.clone(), |v, key| match key.parse::<u32>() {
        Ok(i) => Reflect::get_u32(&v, i).unwrap(),
        Err(_) => Reflect::get(&v, &key.into()).unwrap(),
    })
}

fn json(value: &JsValue) -> String {
    JSON::stringify(value).unwrap().into()
}

fn error_code(thrown: JsValue) -> String {
    assert!(thrown.is_instance_of::<js_sys::Error>(), "a JS Error is thrown");
    assert_eq!(get(&thrown, "name").as_string().unwrap(), "PlanloopError");
    assert!(get(&thrown, "data").is_object(), "data is an object");
    get(&thrown, "code").as_string().unwrap()
}

const VALID: &str = r#"{"todos":[{"id":"read","content":"Read the note","status":"in_progress"}],"focus":"reading"}"#;

#[wasm_bindgen_test]
fn validates_objects_and_raw_json_text_alike() {
    let from_text = validate_write_todos(VALID.into()).unwrap();
    let from_object = validate_write_todos(js(VALID)).unwrap();
    assert_eq!(json(&from_text), json(&from_object));
    assert_eq!(get(&from_text, "success"), JsValue::TRUE);
    assert_eq!(get(&from_text, "data.todos.0.id").as_string().unwrap(), "read");
}

#[wasm_bindgen_test]
fn strips_unknown_keys_and_keeps_an_undefined_optional_key_like_zod() {
    let result = validate_write_todos(js(
        r#"{todos: [{id: "a", content: "b", status: "pending", x: 1}], focus: undefined, y: 2}"#,
    ))
    .unwrap();
    let data = get(&result, "data");
    assert_eq!(json(&data), r#"{"todos":[{"id":"a","content":"b","status":"pending"}]}"#);
    assert!(Reflect::has(&data, &"focus".into()).unwrap(), "zod keeps a key given as undefined");
    assert!(!Reflect::has(&data, &"y".into()).unwrap());
}

#[wasm_bindgen_test]
fn reads_objects_the_way_zod_does() {
    // Inherited properties count, class instances are named by their constructor.
    let inherited =
        validate_write_todos(js(r#"Object.create({todos: [{id: "a", content: "b", status: "pending"}]})"#)).unwrap();
    assert_eq!(get(&inherited, "success"), JsValue::TRUE);
    let date = validate_write_todos(js("{todos: new Date(0)}")).unwrap();
    assert_eq!(
        get(&date, "error.issues.0.message").as_string().unwrap(),
        "Invalid input: expected array, received Date"
    );
    let function = validate_write_todos(js("{todos: function (a) {}}")).unwrap();
    assert_eq!(get(&function, "error.issues.length").as_f64(), Some(1.0), "a function with length 1 passes min(1)");
}

#[wasm_bindgen_test]
fn malformed_json_text_is_one_invalid_json_issue() {
    let result = validate_write_todos(r#"{"todos": [}"#.into()).unwrap();
    assert_eq!(get(&result, "error.issues.length").as_f64(), Some(1.0));
    assert_eq!(get(&result, "error.issues.0.code").as_string().unwrap(), "invalid_json");
    assert_eq!(get(&result, "error.issues.0.position").as_f64(), Some(11.0));
}

#[wasm_bindgen_test]
fn lone_surrogates_are_reported_not_silently_replaced() {
    let object = validate_write_todos(js(r#"{todos: [{id: "a\ud800", content: "b", status: "pending"}]}"#)).unwrap();
    assert_eq!(get(&object, "error.issues.0.format").as_string().unwrap(), "well_formed_utf16");
    assert_eq!(json(&get(&object, "error.issues.0.path")), r#"["todos",0,"id"]"#);
    // The same string inside raw JSON text, escaped or not.
    let escaped =
        validate_write_todos(r#"{"todos":[{"id":"a\ud800","content":"b","status":"pending"}]}"#.into()).unwrap();
    assert_eq!(json(&get(&escaped, "error.issues")), json(&get(&object, "error.issues")));
    let literal =
        validate_write_todos(js(r#"'{"todos":[{"id":"a\ud800","content":"b","status":"pending"}]}'"#)).unwrap();
    assert_eq!(json(&get(&literal, "error.issues")), json(&get(&object, "error.issues")));
    // In a key zod never reads, a lone surrogate changes nothing.
    let ignored =
        validate_write_todos(js(r#"'{"x":"\ud800","todos":[{"id":"a","content":"b","status":"pending"}]}'"#)).unwrap();
    assert_eq!(get(&ignored, "success"), JsValue::TRUE);
}

#[wasm_bindgen_test]
fn a_throwing_getter_is_a_host_exception_and_the_planner_survives_it() {
    let mut planner = PlannerState::new(JsValue::UNDEFINED).unwrap();
    let hostile = js(r#"{get todos() { throw new Error("boom") }}"#);
    assert_eq!(error_code(planner.apply_write_todos(hostile, 1.0.into()).unwrap_err()), "host_exception");
    let ack = planner.apply_write_todos(VALID.into(), 2.0.into()).unwrap();
    assert_eq!(json(&ack), r#"{"ok":true,"revision":1,"todoCount":1,"inProgress":"read"}"#);
}

#[wasm_bindgen_test]
fn planner_acks_follow_seed_004() {
    let mut planner = PlannerState::new(js("{maxPlannerOnlyStreak: 2}")).unwrap();
    let names = Array::of1(&"write_todos".into());
    for revision in 1..=2 {
        let verdict = planner.record_iteration(names.clone().into()).unwrap();
        assert_eq!(get(&verdict, "refusal"), JsValue::NULL);
        let ack = planner.apply_write_todos(VALID.into(), f64::from(revision).into()).unwrap();
        assert_eq!(get(&ack, "revision").as_f64(), Some(f64::from(revision)));
    }
    let third = planner.record_iteration(names.into()).unwrap();
    assert_eq!(get(&third, "refusal").as_string().unwrap(), "planner_overuse_execute_next_step");
    let refused = planner.apply_write_todos(VALID.into(), 3.0.into()).unwrap();
    assert_eq!(get(&refused, "error").as_string().unwrap(), "planner_overuse_execute_next_step");
    assert_eq!(get(&planner.snapshot().unwrap(), "revision").as_f64(), Some(2.0), "state unchanged");
}

#[wasm_bindgen_test]
fn invalid_arguments_leave_the_state_untouched_and_say_why() {
    let mut planner = PlannerState::new(JsValue::UNDEFINED).unwrap();
    planner.apply_write_todos(VALID.into(), 1.0.into()).unwrap();
    let before = json(&planner.snapshot().unwrap());
    let ack = planner.apply_write_todos(js(r#"{todos: []}"#), 2.0.into()).unwrap();
    assert_eq!(get(&ack, "ok"), JsValue::FALSE);
    assert_eq!(get(&ack, "error").as_string().unwrap(), "invalid_arguments");
    assert_eq!(get(&ack, "issues.0.code").as_string().unwrap(), "too_small");
    assert_eq!(json(&planner.snapshot().unwrap()), before);
}

#[wasm_bindgen_test]
fn bad_arguments_throw_planloop_errors_with_issues() {
    let mut planner = PlannerState::new(JsValue::UNDEFINED).unwrap();
    let thrown = planner.apply_write_todos(VALID.into(), "soon".into()).unwrap_err();
    assert_eq!(error_code(thrown.clone()), "invalid_argument");
    assert_eq!(get(&thrown, "data.argument").as_string().unwrap(), "nowMs");
    assert_eq!(get(&thrown, "data.issues.0.code").as_string().unwrap(), "invalid_type");
    assert_eq!(error_code(PlannerState::new(js("{plannerTools: 'write_todos'}")).err().unwrap()), "invalid_options");
    assert_eq!(error_code(ReasoningLog::new(js("{mode: 'all'}")).err().unwrap()), "invalid_options");
    assert_eq!(error_code(extract_reflection_js(5.into(), JsValue::UNDEFINED).unwrap_err()), "invalid_argument");
    assert_eq!(error_code(extract_reflection_js("x".into(), 0.into()).unwrap_err()), "invalid_argument");
    assert_eq!(error_code(context_capsule(js("[]")).unwrap_err()), "invalid_argument");
    // And everything still works.
    assert_eq!(planner.apply_write_todos(VALID.into(), 1.0.into()).map(|a| get(&a, "ok")), Ok(JsValue::TRUE));
}

#[wasm_bindgen_test]
fn the_reasoning_trail_is_tagged() {
    let mut log = ReasoningLog::new(js("{mode: 'full'}")).unwrap();
    let mut planner = PlannerState::new(JsValue::UNDEFINED).unwrap();
    planner.apply_write_todos(VALID.into(), 1.0.into()).unwrap();
    log.record_plan(planner.snapshot().unwrap(), 1.into(), 1.0.into()).unwrap();
    log.record_act("search_vault".into(), js(r#"{query: "q3 report", limit: 5}"#), 1.into(), 2.0.into()).unwrap();
    log.record_obs("search_vault".into(), "3 notes\nmore".into(), JsValue::FALSE, 1.into(), 3.0.into()).unwrap();
    log.record_reflection(
        "<think>secret</think>Found the report. Reading it next.".into(),
        1.into(),
        4.0.into(),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert_eq!(
        json(&log.steps().unwrap()),
        r#"["[Plan] 0/1 done · now: read","[Act] search_vault(\"q3 report\")","[Obs] search_vault ok: 3 notes","[Reflect] Found the report."]"#
    );
}

#[wasm_bindgen_test]
fn tool_definitions_carry_the_schema_and_the_rules() {
    let tools = tool_definitions().unwrap();
    assert_eq!(get(&tools, "0.name").as_string().unwrap(), "write_todos");
    assert_eq!(get(&tools, "0.parameters.properties.todos.maxItems").as_f64(), Some(8.0));
    assert!(get(&tools, "0.description").as_string().unwrap().contains("planner_overuse_execute_next_step"));
}

#[wasm_bindgen_test]
fn a_session_refuses_an_early_stop_and_finishes_the_plan() {
    use planloop::wasm::session::Session;
    let mut session = Session::new(js("{tools: {read: ['grep']}}")).unwrap();
    session.begin_turn(js("{message: 'Fix the bug', nowMs: 0}")).unwrap();
    let todos = r#"{todos: [{id: 'find', content: 'Find it', status: 'in_progress'}, {id: 'fix', content: 'Fix it', status: 'pending'}]}"#;
    let first = session
        .handle_model_response(js(&format!("{{toolCalls: [{{id: 't', name: 'write_todos', args: {todos}}}, {{id: 's', name: 'grep', args: '{{\"q\":\"bug\"}}'}}]}}")), 1.0.into())
        .unwrap();
    assert_eq!(get(&first, "type").as_string().unwrap(), "runTools");
    assert_eq!(get(&first, "calls.0.args.q").as_string().unwrap(), "bug");
    let outcome = session.handle_tool_results(js("[{id: 's', output: 'src/lib.rs:42'}]"), 2.0.into()).unwrap();
    assert_eq!(get(&outcome, "complete"), JsValue::TRUE);
    let early = session.handle_model_response(js("{text: 'Found it.'}"), 3.0.into()).unwrap();
    assert_eq!(get(&early, "type").as_string().unwrap(), "continue");
    let done = r#"{todos: [{id: 'find', content: 'Find it', status: 'completed'}, {id: 'fix', content: 'Fix it', status: 'completed'}]}"#;
    session
        .handle_model_response(
            js(&format!("{{toolCalls: [{{id: 't2', name: 'write_todos', args: {done}}}]}}")),
            4.0.into(),
        )
        .unwrap();
    let last = session.handle_model_response(js("{text: 'Fixed.'}"), 5.0.into()).unwrap();
    assert_eq!(json(&last), r#"{"type":"finalize","answer":"Fixed.","exitReason":"final_answer"}"#);
    let wrong = session.handle_tool_results(js("[]"), 6.0.into()).unwrap_err();
    assert_eq!(error_code(wrong), "invalid_state");
}

#[wasm_bindgen_test]
fn a_write_action_waits_for_approval_and_a_rejection_reaches_the_model() {
    use planloop::wasm::session::Session;
    let mut session = Session::new(JsValue::UNDEFINED).unwrap();
    session.begin_turn(js("{message: 'Deploy', nowMs: 0}")).unwrap();
    let calls = "{toolCalls: [{id: 'd', name: 'deploy', args: {env: 'prod'}}, {id: 'm', name: 'send_mail', args: {to: 'ops'}}]}";
    let paused = session.handle_model_response(js(calls), 1.0.into()).unwrap();
    assert_eq!(get(&paused, "type").as_string().unwrap(), "awaitApproval");
    assert_eq!(json(&get(&paused, "calls")), "[]", "an unnamed tool fails closed");
    let (deploy, mail) = (get(&paused, "proposals.0.actionId"), get(&paused, "proposals.1.actionId"));
    let early = session.handle_tool_results(js("[{id: 'd', output: 'deployed'}]"), 2.0.into()).unwrap_err();
    assert_eq!(error_code(early), "invalid_state");
    let first = session.approve(deploy.clone(), js("{scope: 'once'}"), 3.0.into()).unwrap();
    assert_eq!(get(&first, "resumed"), JsValue::NULL);
    assert_eq!(
        error_code(session.approve(deploy, JsValue::UNDEFINED, 4.0.into()).unwrap_err()),
        "action_already_resolved"
    );
    let last = session.reject(mail, js("{message: 'no mail on Fridays'}"), 5.0.into()).unwrap();
    assert_eq!(json(&get(&last, "resumed.calls")), r#"[{"id":"d","name":"deploy","args":{"env":"prod"}}]"#);
    assert_eq!(
        get(&last, "resumed.replies.0.content").as_string().unwrap(),
        "[tool_result:send_mail] The user rejected this action: no mail on Fridays"
    );
    let wrong = session.approve("act-1-9".into(), JsValue::UNDEFINED, 6.0.into()).unwrap_err();
    assert_eq!(error_code(wrong), "unknown_action");
}

#[wasm_bindgen_test]
fn a_plan_review_store_round_trips_through_json_and_expires() {
    use planloop::wasm::review::PlanReviewStore;
    let review = "{userId: 'u', chatId: 'c', turn: 1, goal: 'g', plan: '1. a', createdAtMs: 0, expiresAtMs: 100}";
    let mut store = PlanReviewStore::new();
    store.put(js(review)).unwrap();
    let saved = JSON::parse(&json(&store.to_json().unwrap())).unwrap();
    let mut restored = PlanReviewStore::from_json(saved).unwrap();
    assert_eq!(restored.size(), 1);
    assert_eq!(restored.take("u".into(), "c".into(), 200.0.into()).unwrap(), JsValue::NULL, "expired");
    assert_eq!(restored.size(), 0);
    let taken = store.take("u".into(), "c".into(), 50.0.into()).unwrap();
    assert_eq!(get(&taken, "plan").as_string().unwrap(), "1. a");
    assert_eq!(error_code(store.put(js("{userId: 'u'}")).unwrap_err()), "invalid_argument");
}

#[wasm_bindgen_test]
fn a_snapshot_restores_to_a_session_that_resumes_the_paused_plan() {
    use planloop::wasm::session::Session;
    let mut session = Session::new(js("{maxIterations: 2, tools: {read: ['fetch']}}")).unwrap();
    session.begin_turn(js("{message: 'Chart it', nowMs: 0}")).unwrap();
    let steps = r#"{text: "[Step] Fetch\n[Step] Chart", toolCalls: [{id: '1', name: 'fetch', args: {}}]}"#;
    session.handle_model_response(js(steps), 1.0.into()).unwrap();
    session.handle_tool_results(js("[{id: '1', output: 'ok'}]"), 2.0.into()).unwrap();
    let paused =
        session.handle_model_response(js("{toolCalls: [{id: '2', name: 'fetch', args: {}}]}"), 3.0.into()).unwrap();
    assert_eq!(get(&paused, "type").as_string().unwrap(), "pause");
    let text = json(&session.snapshot().unwrap());
    let mut restored = Session::restore(text.clone().into()).unwrap();
    assert_eq!(json(&restored.snapshot().unwrap()), text);
    let start = restored.begin_turn(js("{message: 'continue', nowMs: 9}")).unwrap();
    assert!(get(&start, "message").as_string().unwrap().starts_with("<resume>"));
    assert_eq!(get(&restored.step_plan().unwrap(), "status").as_string().unwrap(), "running");
    let refused = Session::restore(text.replace("Chart it", "Chart that").into()).err().unwrap();
    assert_eq!(error_code(refused), "invalid_snapshot");
}
