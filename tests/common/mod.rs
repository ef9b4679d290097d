//! Cases run in both Chromium and Node, inside the wasm module itself: the binding's
//! protocol (the input buffer, `pl_call`, the header and its outputs) and the core under
//! wasm's small stack, where hostile depth would do its damage.

use std::sync::atomic::{AtomicU32, Ordering};

use planloop::error::ErrorCode;
use planloop::wasm::HOST;
use planloop::wasm::{pl_call, pl_header, pl_input};
use planloop::wasm::{Op, Status};
use wasm_bindgen_test::wasm_bindgen_test;

#[path = "../../src/test_rng.rs"]
mod test_rng;
use test_rng::Rng;

/// Calls `op` with `input` as the JS layer would (saying whether it is ASCII); the
/// status, the text and the numbers.
fn call(op: Op, handle: u32, input: &str, now_ms: f64) -> (u32, String, Vec<u32>) {
    let ptr = pl_input(input.len());
    // SAFETY: `pl_input` returned a buffer of at least `input.len()` bytes.
    unsafe { std::ptr::copy_nonoverlapping(input.as_ptr(), ptr, input.len()) };
    let status = pl_call(op as u32, handle, input.len(), now_ms, input.is_ascii());
    let (text, numbers) = outputs();
    (status, text, numbers)
}

/// The text and the numbers the last call wrote.
fn outputs() -> (String, Vec<u32>) {
    // SAFETY: the header is four words the module keeps at this address.
    let header = unsafe { std::slice::from_raw_parts(pl_header(), 4) };
    let word = |i: usize| header[i].load(Ordering::Relaxed) as usize;
    // SAFETY: the header names the outputs of the last calls, which live in memory (an
    // output not yet written has length 0).
    let text = match word(1) {
        0 => &[][..],
        len => unsafe { std::slice::from_raw_parts(word(0) as *const u8, len) },
    };
    let numbers = match word(3) {
        0 => &[][..],
        len => unsafe { std::slice::from_raw_parts(word(2) as *const u32, len) },
    };
    (String::from_utf8(text.to_vec()).unwrap(), numbers.to_vec())
}

fn ok(status: u32, text: &str) {
    assert_ne!(status, Status::Error as u32, "{text}");
}

const VALID: &str = r#"{"todos":[{"id":"réad","content":"Read the note","status":"in_progress"}],"focus":"now"}"#;

#[wasm_bindgen_test]
fn valid_text_comes_back_as_the_places_of_its_strings_in_utf16_units() {
    let (status, _, numbers) = call(Op::ValidateText, 0, VALID, 0.0);
    assert_eq!(status, Status::Spans as u32);
    // One todo: its id and its content (each with no escapes (0), start, end, in UTF-16
    // units: "é" is one unit, of two bytes) and its status (in progress).
    assert_eq!(&numbers[..8], &[1, 0, 17, 21, 0, 34, 47, 1]);
    // `focus` given (1), at 83..86; no `note` (0).
    assert_eq!(&numbers[8..], &[1, 0, 83, 86, 0]);
}

#[wasm_bindgen_test]
fn invalid_text_comes_back_as_zods_issues() {
    let (status, text, numbers) =
        call(Op::ValidateText, 0, r#"{"todos":[{"id":"a","content":"b","status":"done"}]}"#, 0.0);
    assert_eq!(status, Status::Issues as u32);
    // One issue, an invalid value (the fourth kind), of three values.
    assert_eq!(&numbers[..3], &[1, 3, 3]);
    assert!(text.contains("Invalid option: expected one of"), "{text}");
}

#[wasm_bindgen_test]
fn a_bad_argument_is_an_error_with_a_code_and_data() {
    let (status, text, numbers) = call(Op::ExtractReflection, 0, "[5]", 0.0);
    assert_eq!(status, Status::Error as u32);
    // The code (by index), the message, then the argument it names (present) and its issues.
    assert_eq!(numbers[0], ErrorCode::InvalidArgument as u32);
    assert!(text.starts_with("Invalid argument `text`"), "{text}");
    assert_eq!(numbers[3], 1, "the argument is named");
    assert!(text.contains("expected string, received number"), "{text}");
}

#[wasm_bindgen_test]
fn a_planner_lives_in_the_module_by_handle_until_it_is_freed() {
    let (status, _, numbers) = call(Op::PlannerNew, 0, "[undefined]", 0.0);
    assert_eq!(status, Status::Number as u32);
    let handle = numbers[0];
    let (status, _, ack) = call(Op::PlannerApplyText, handle, VALID, 5.0);
    assert_eq!(status, Status::Spans as u32);
    assert_eq!(ack, [0, 1, 1, 1, 0, 17, 21], "accepted, revision 1, one todo, the id in progress at 17..21");
    let (status, text, numbers) = call(Op::PlannerSnapshot, handle, "[]", 0.0);
    ok(status, &text);
    assert_eq!(text, "réadRead the notenow");
    // The time of the change, last: present, then the two halves of 5.0's bits.
    let bits = 5.0f64.to_bits();
    assert_eq!(&numbers[numbers.len() - 3..], &[1, bits as u32, (bits >> 32) as u32]);
    call(Op::PlannerFree, handle, "", 0.0);
    let (status, _, numbers) = call(Op::PlannerSnapshot, handle, "[]", 0.0);
    assert_eq!(status, Status::Error as u32);
    assert_eq!(numbers[0], ErrorCode::InvalidState as u32);
}

#[wasm_bindgen_test]
fn a_tool_round_crosses_as_fields_with_its_arguments_as_json() {
    let (_, _, numbers) = call(Op::SessionNew, 0, r#"[{"tools":{"read":["grep"]}}]"#, 0.0);
    let session = numbers[0];
    let (status, text, _) = call(Op::SessionBeginTurn, session, r#"[{"message":"Fix it","nowMs":0}]"#, 0.0);
    ok(status, &text);
    let response = r#"[{"toolCalls":[{"id":"s","name":"grep","args":"{\"q\":\"bück\",\"__proto__\":{\"x\":1}}"}]},1]"#;
    let (status, text, numbers) = call(Op::SessionHandleModelResponse, session, response, 0.0);
    assert_eq!(status, Status::Fields as u32, "{text}");
    let args = r#"{"q":"bück","__proto__":{"x":1}}"#;
    let budget = "Tool rounds remaining: 18 of 19.";
    assert_eq!(text, format!("sgrep{args}{budget}"));
    // One call (id, name, args as JSON text, each its start and length in UTF-16 units),
    // no delegations, no replies, then the next call: iteration 2, tools not withheld,
    // 18 rounds left, no token limit.
    let units = args.encode_utf16().count() as u32;
    assert_eq!(numbers, [1, 0, 1, 1, 4, 5, units, 0, 0, 2, 0, 18, 5 + units, budget.len() as u32, 0]);
    let results = r#"[[{"id":"s","output":"3 hits"}],2]"#;
    let (status, text, numbers) = call(Op::SessionHandleToolResults, session, results, 0.0);
    assert_eq!(status, Status::Fields as u32, "{text}");
    assert_eq!(text, format!("sgrep3 hits{budget}"));
    // One message (its id, tool, content, not an error), complete, then the next call.
    assert_eq!(numbers, [1, 0, 1, 1, 4, 5, 6, 0, 1, 2, 0, 18, 11, budget.len() as u32, 0]);
    call(Op::SessionFree, session, "", 0.0);
}

#[wasm_bindgen_test]
fn host_values_cross_with_what_json_cannot_carry() {
    let input = r#"[{"todos":<o"Date",0>{},"focus":undefined,"n":NaN,"f":<f2>,"x":<x"boom">}]"#;
    let (status, text, numbers) = call(Op::ContextCapsule, 0, input, 0.0);
    assert_eq!(status, Status::Error as u32);
    assert_eq!(numbers[0], ErrorCode::InvalidArgument as u32);
    assert!(text.starts_with("Invalid argument `input`"), "{text}");
    let value = r#"{"todos":<o"Date",0>{}}"#;
    let (status, text, _) = call(Op::ValidateValue, 0, value, 0.0);
    assert_eq!(status, Status::Issues as u32);
    assert!(text.contains("Invalid input: expected array, received Date"), "{text}");
    let thrown = r#"{"todos":<x"boom">}"#;
    let (status, text, numbers) = call(Op::ValidateValue, 0, thrown, 0.0);
    assert_eq!(status, Status::Error as u32);
    assert_eq!(numbers[0], ErrorCode::HostException as u32);
    assert!(text.ends_with("boom"), "{text}");
}

#[wasm_bindgen_test]
fn hostile_depth_is_refused_within_wasms_stack_and_the_module_lives_on() {
    for depth in [10_000, 100_000] {
        let deep = format!(
            r#"{{"format":"planloop.session","version":"1.0","x":{}1{}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let (status, text, numbers) = call(Op::SessionRestore, 0, &format!("[{}]", serde_json_string(&deep)), 0.0);
        assert_eq!(status, Status::Error as u32);
        assert_eq!(numbers[0], ErrorCode::InvalidSnapshot as u32);
        assert!(text.contains("nests deeper"), "{text}");
        let arguments = format!("[{}1{}]", "[".repeat(depth), "]".repeat(depth));
        let (status, _, _) = call(Op::ExtractReflection, 0, &arguments, 0.0);
        assert_eq!(status, Status::Error as u32);
        let (status, _, _) = call(Op::ValidateText, 0, &format!("{}{}", "[".repeat(depth), "]".repeat(depth)), 0.0);
        assert_eq!(status, Status::Issues as u32);
    }
    valid_text_comes_back_as_the_places_of_its_strings_in_utf16_units();
}

/// Calls `op` with `lengths`, `head` then `body` as the JS layer's `callSplit` does: the
/// head's length and the lengths as little-endian words (a count, then each), then the
/// texts; the status.
fn call_raw(op: Op, handle: u32, lengths: &[u32], head: &str, body: &str) -> u32 {
    let words = [head.len() as u32, lengths.len() as u32].into_iter().chain(lengths.iter().copied());
    let mut input: Vec<u8> = words.flat_map(u32::to_le_bytes).collect();
    input.extend_from_slice(head.as_bytes());
    input.extend_from_slice(body.as_bytes());
    let ptr = pl_input(input.len());
    // SAFETY: `pl_input` returned a buffer of at least `input.len()` bytes.
    unsafe { std::ptr::copy_nonoverlapping(input.as_ptr(), ptr, input.len()) };
    pl_call(op as u32, handle, input.len(), 0.0, head.is_ascii() && body.is_ascii())
}

#[wasm_bindgen_test]
fn raw_tool_outputs_cross_after_their_lengths_and_malformed_ones_are_an_error_not_a_trap() {
    let (_, _, numbers) = call(Op::SessionNew, 0, r#"[{"tools":{"read":["cat"]}}]"#, 0.0);
    let session = numbers[0];
    ok(call(Op::SessionBeginTurn, session, r#"[{"message":"Read","nowMs":0}]"#, 0.0).0, "begin");
    let response = r#"[{"toolCalls":[{"id":"a","name":"cat","args":{}},{"id":"b","name":"cat","args":{}}]},1]"#;
    ok(call(Op::SessionHandleModelResponse, session, response, 0.0).0, "response");
    // Lengths that do not cover the outputs exactly, an output that is not a length, a
    // length inside a character: errors, and the session is as it was.
    for (head, body) in [
        (r#"[[{"id":"a","output":9},{"id":"b","output":1}],2]"#, "héllo\"x"),
        (r#"[[{"id":"a","output":5},{"id":"b","output":1}],2]"#, "héllo\"x!"),
        (r#"[[{"id":"a","output":"5"},{"id":"b","output":1}],2]"#, "héllo\\"),
        (r#"[[{"id":"a","output":1},{"id":"b","output":1}],2]"#, "😀"),
    ] {
        assert_eq!(
            call_raw(Op::SessionHandleToolResultsRaw, session, &[], head, body),
            Status::Error as u32,
            "{head}{body}"
        );
    }
    let head = r#"[[{"id":"a","output":5},{"id":"b","output":1}],2]"#;
    assert_eq!(call_raw(Op::SessionHandleToolResultsRaw, session, &[], head, "héllo\\"), Status::Fields as u32);
    let (text, _) = outputs();
    assert!(text.starts_with("acathéllobcat\\"), "{text}");
    call(Op::SessionFree, session, "", 0.0);
}

#[wasm_bindgen_test]
fn raw_prompt_texts_compose_and_malformed_ones_are_an_error_not_a_trap() {
    let call_split = |lengths: &[u32], head: &str, body: &str| call_raw(Op::ComposeTexts, 0, lengths, head, body);
    let head = r#"[{"base":"","features":{"planner_tools":false,"tool_guidelines":false},"values":{"u":"Ada"}}]"#;
    // The base "Hi {{{u}}}" is 10 units, not 6: the lengths must cover the texts exactly.
    assert_eq!(call_split(&[6, 5, 8], head, "Hi {{{u}}}rulesBe kind."), Status::Error as u32);
    assert_eq!(
        call_split(&[10, 5, 8], head, "Hé {{{u}}}rulesBe kind."),
        Status::Fields as u32,
        "é is one unit, two bytes"
    );
    let (text, _) = outputs();
    // The part names, then the prompt, which ends the text.
    assert!(text.starts_with("basecorerulesHé Ada\n\n## Core") && text.ends_with("Be kind."), "{text}");
    let head = r#"[{"base":""}]"#;
    // Past the texts, an empty name, a name without its text, no base, a length inside a
    // character, a length no text has.
    for (lengths, body) in
        [(&[3][..], "ab"), (&[1, 0, 1], "abc"), (&[1, 1], "ab"), (&[], ""), (&[1], "😀"), (&[u32::MAX], "ab")]
    {
        assert_eq!(call_split(lengths, head, body), Status::Error as u32, "{lengths:?} {body}");
    }
    // As many components as the schema allows, and one more.
    for (count, status) in [(256, Status::Fields), (257, Status::Error)] {
        let names: Vec<String> = (0..count).map(|i| format!("c{i}")).collect();
        let lengths: Vec<u32> =
            std::iter::once(0).chain(names.iter().flat_map(|name| [name.len() as u32, 1])).collect();
        let body: String = names.iter().map(|name| format!("{name}.")).collect();
        assert_eq!(call_split(&lengths, head, &body), status as u32, "{count} components");
    }
    // A head longer than the input.
    let ptr = pl_input(2);
    // SAFETY: as above.
    unsafe { std::ptr::copy_nonoverlapping(b"[]".as_ptr(), ptr, 2) };
    assert_eq!(pl_call(Op::ComposeTexts as u32, 0, 2, 99.0, true), Status::Error as u32);
    valid_text_comes_back_as_the_places_of_its_strings_in_utf16_units();
}

/// `text` as a JSON string literal (it holds no character that needs escaping but `"`).
fn serde_json_string(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\\\""))
}

/// The header is where the JS layer looks for it: four words, as the module says.
#[wasm_bindgen_test]
fn the_header_is_four_words() {
    let header: *const AtomicU32 = pl_header();
    assert!(!header.is_null());
    assert_eq!(header as usize % 4, 0);
}

/// In the module, number literals that are not small integers are read by the host's
/// `parseFloat` ([`HOST`], which the module passes in): each reads to the very double `JSON.parse`
/// gives, halfway cases, subnormals, overflow and long mantissas included.
#[wasm_bindgen_test]
fn number_literals_read_as_json_parse_reads_them() {
    let mut literals: Vec<String> = [
        "0.1",
        "-0.0",
        "1e23",
        "9007199254740993",
        "123456789012345678901234567890",
        "1.5e-7",
        "1E+2",
        "2.2250738585072011e-308",
        "2.2250738585072014e-308",
        "4.9e-324",
        "2.4703282292062328e-324",
        "2.4703282292062327e-324",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "1e999",
        "-1e999",
        "1e-999",
        "0.30000000000000004",
        "179769313486231580793728971405301e276",
        "7.038531e-26",
    ]
    .map(str::to_owned)
    .to_vec();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut next = |n: u64| rng.next() % n;
    for _ in 0..2_000 {
        let digits: String = (0..1 + next(25)).map(|_| char::from(b'0' + next(10) as u8)).collect();
        let digits = digits.trim_start_matches('0');
        let mantissa = match next(3) {
            0 if digits.is_empty() => "0".to_owned(),
            0 => digits.to_owned(),
            _ if digits.len() > 1 => format!("{}.{}", &digits[..1], &digits[1..]),
            _ => format!("0.{digits}0"),
        };
        let sign = if next(4) == 0 { "-" } else { "" };
        literals.push(format!("{sign}{mantissa}e{}", next(660) as i64 - 340));
    }
    for literal in &literals {
        let ours = match *planloop::json::parse(literal.as_bytes(), HOST).expect(literal) {
            planloop::json::value::Value::Number(n) => n,
            ref other => panic!("{literal}: {other:?}"),
        };
        let theirs = js_sys::JSON::parse(literal).unwrap().as_f64().unwrap();
        assert_eq!(ours.to_bits(), theirs.to_bits(), "{literal}: {ours} against {theirs}");
    }
}

/// In the module, floats are written from the host's shortest digits ([`HOST`], by
/// `json::float::write_float`): byte for byte what serde_json writes, ties between two
/// shortest digit strings (`1658206780088562.2`) and every layout included.
#[wasm_bindgen_test]
fn floats_are_written_as_serde_json_writes_them() {
    let mut numbers = vec![1.6582067800885623e15, 0.1, 1e-5, 1e-6, 1.5e16, 5e-324, f64::MAX, -0.0, 1e21, 0.1 + 0.2];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let x = rng.next();
        numbers.push(f64::from_bits(x));
        numbers.push((x % 100_000_000) as f64 / 1024.0 * 1e-3);
    }
    for n in numbers {
        let mut ours = Vec::new();
        planloop::json::float::write_float(&mut ours, n, HOST);
        assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&n).unwrap(), "{n:e}");
    }
}

/// A typed result crosses as a JS value the module builds (`wasm::to_js`), and the
/// free-form JSON in it (a proposal's arguments, a tool's schema) as text for `JSON.parse`:
/// a `__proto__` key there stays an own property, where an object built key by key
/// would take it as its prototype; `constructor` and `toString` keys are members too. The
/// whole is what `JSON.parse` of the result's JSON text gives, key order included.
#[wasm_bindgen_test]
fn free_form_json_in_a_typed_result_keeps_its_proto_keys_as_own_properties() {
    use js_sys::{Object, Reflect, JSON};
    use planloop::json::value::Value;
    use planloop::plan::tools::ToolDefinition;
    use planloop::session::config::SessionConfig;
    use planloop::session::exchange::{BeginTurn, Decision, ModelResponse, ToolCallInput};
    use planloop::session::Session;
    use planloop::wasm::to_js::to_js;
    use wasm_bindgen::{JsCast, JsValue};

    let text = r#"{"__proto__":{"command":"rm -rf ~"},"constructor":{"__proto__":[1]},"toString":2}"#;
    let mut session = Session::with_decimals(SessionConfig::default(), HOST);
    let turn =
        BeginTurn { message: "Clean up".into(), now_ms: 0.0, user_id: None, chat_id: None, review: None, goal: None };
    session.begin_turn(turn).unwrap();
    let call = ToolCallInput { id: "1".into(), name: "run_bash".into(), args: Value::String(text.into()) };
    let response = ModelResponse { text: None, tool_calls: vec![call], usage: None };
    assert!(matches!(session.handle_model_response(response, 1.0).unwrap(), Decision::AwaitApproval { .. }));
    let proposals = session.proposals();
    let parameters = planloop::json::parse(text.as_bytes(), HOST).unwrap().into_shallow().into_owned();
    let definitions = [ToolDefinition { name: "t".into(), description: "d".into(), parameters }];

    let plain = Object::get_prototype_of(&Object::new().into());
    let key = |value: &JsValue, key: &str| Reflect::get(value, &key.into()).unwrap();
    for (built, json, field) in [
        (to_js(&proposals), planloop::json::write::to_string(&proposals, HOST), "args"),
        (to_js(&definitions), planloop::json::write::to_string(&definitions, HOST), "parameters"),
    ] {
        let built = built.unwrap();
        let free = key(&key(&built, "0"), field);
        assert_eq!(Object::get_prototype_of(&free), plain, "{field}: no prototype set");
        let own = |value: &JsValue| Object::has_own(value.unchecked_ref::<Object>(), &"__proto__".into());
        assert!(own(&free), "{field}: __proto__ is its own");
        assert!(key(&free, "command").is_undefined(), "{field}: nothing inherited");
        assert!(own(&key(&free, "constructor")), "{field}: nested too");
        assert_eq!(JSON::stringify(&built).unwrap(), json, "{field}: what JSON.parse of the JSON text gives");
        assert_eq!(String::from(JSON::stringify(&free).unwrap()), text);
    }
}
