//! Typed values read out of validated input agree with the serde attributes the schemas
//! come from: every key a schema lets through is read, every variant name is known,
//! what a type writes it reads back the same, and an absent key gives the documented
//! default.
//!
//! The inputs are made from the compiled schemas themselves, with every property or only
//! the required ones, and each enum value, union alternative and `null` in turn.

use std::fmt::Debug;

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::Serialize;

use planloop::json::decimals::Decimals;
use planloop::json::from_value::{from_value, FromValue};
use planloop::json::value::Value;
use planloop::json::{parse, write};
use planloop::plan::{dialects, planner, recorded, todos};
use planloop::prompts::compose::{Budget, ComposeInput, CurrentPlan, PromptParts};
use planloop::prompts::Language;
use planloop::session::approval::{ApproveOptions, RejectOptions, Scope, ToolPolicy};
use planloop::session::config::{ContinuationProtocol, PlanReviewOptions, SessionConfig, StuckOptions};
use planloop::session::exchange::{BeginTurn, ModelResponse, ToolCallInput, ToolResult};
use planloop::session::review::{PlanReview, PlanReviewStore};
use planloop::snapshot::SessionSnapshot;
use planloop::trail::capsule::ContextCapsuleInput;
use planloop::trail::reasoning::HistoryOptions;
use planloop::validate::compiled as c;
use planloop::validate::schema::{validate, Record, Schema};

/// Choices made per input, so that every enum value and alternative comes up.
const CHOICES: usize = 12;

/// A value `schema` accepts, with every property (`full`) or only the required ones;
/// `k` picks the enum value, the union alternative, and whether a nullable is `null`.
fn instance(schema: &Schema, k: usize, full: bool) -> Value<'static> {
    match schema {
        Schema::Object { properties, .. } => Value::Object(
            properties
                .iter()
                .filter(|p| full || p.required)
                .map(|p| (p.key.into(), instance(&p.schema, k, full)))
                .collect(),
        ),
        Schema::Record(values) => Value::Object(vec![("some key".into(), instance(values, k, full))]),
        Schema::Array { items, min_items, max_items } => {
            let count = 2f64.max(min_items.unwrap_or(0.0)).min(max_items.unwrap_or(2.0)) as usize;
            Value::Array((0..count).map(|i| instance(items, k + i, full)).collect())
        }
        Schema::String { min_length, max_length } => {
            let length = 3f64.max(min_length.unwrap_or(0.0)).min(max_length.unwrap_or(3.0)) as usize;
            Value::String(("abcdefghijklmnopqrstuvwxyz"[k % 10..].chars().cycle().take(length)).collect())
        }
        Schema::Enum(values) => Value::String(values[k % values.len()].into()),
        Schema::Number { integer, minimum, maximum } => {
            let low = minimum.unwrap_or(0.0);
            let high = maximum.unwrap_or(low + 100.0);
            let n = (low + (k % 3) as f64).min(high);
            Value::Number(if *integer || n + 0.5 > high { n } else { n + 0.5 })
        }
        Schema::Boolean => Value::Bool(k % 2 == 0),
        Schema::Null => Value::Null,
        Schema::Nullable(_) if k % 3 == 1 => Value::Null,
        Schema::Nullable(inner) => instance(inner, k, full),
        Schema::AnyOf(options) => instance(&options[k % options.len()], k / options.len(), full),
        Schema::Any => parse(br#"{"command":"ls","list":[1,2.5,"x",null,true,{"nested":{}}]}"#, Decimals::RUST)
            .unwrap()
            .into_shallow(),
    }
}

/// `document` as `schema`'s validation leaves it.
fn validated(schema: &Schema, document: &Value<'_>) -> Value<'static> {
    match validate(schema, document, Decimals::RUST) {
        Ok(Ok(valid)) => valid.into_owned(),
        other => panic!("the test's own input is invalid: {other:?}\n{}", write::stringify(document, Decimals::RUST)),
    }
}

/// Each input made from `schema` reads as a `T`.
fn reads<T: FromValue>(name: &str, schema: &Schema) {
    for k in 0..CHOICES {
        for full in [true, false] {
            let document = instance(schema, k, full);
            if let Err(error) = from_value::<T>(validated(schema, &document)) {
                panic!(
                    "{name} (choice {k}, full {full}): {}\n{}",
                    error.message,
                    write::stringify(&document, Decimals::RUST)
                );
            }
        }
    }
}

#[test]
fn every_key_and_variant_name_each_input_schema_lets_through_is_read() {
    reads::<todos::WriteTodos>("WRITE_TODOS", &c::WRITE_TODOS);
    reads::<recorded::PlanArgs>("PLAN", &c::PLAN);
    reads::<recorded::PlanProgressArgs>("PLAN_PROGRESS", &c::PLAN_PROGRESS);
    reads::<dialects::TodoWriteArgs>("TODO_WRITE", &c::TODO_WRITE);
    reads::<dialects::UpdatePlanArgs>("UPDATE_PLAN", &c::UPDATE_PLAN);
    reads::<dialects::UpdateTodoListArgs>("UPDATE_TODO_LIST", &c::UPDATE_TODO_LIST);
    reads::<dialects::TaskTrackerArgs>("TASK_TRACKER", &c::TASK_TRACKER);
    reads::<planner::PlannerOptions>("PLANNER_OPTIONS", &c::PLANNER_OPTIONS);
    reads::<HistoryOptions>("HISTORY_OPTIONS", &c::HISTORY_OPTIONS);
    reads::<planner::PlannerSnapshot>("PLANNER_SNAPSHOT", &c::PLANNER_SNAPSHOT);
    reads::<ContextCapsuleInput>("CONTEXT_CAPSULE_INPUT", &c::CONTEXT_CAPSULE_INPUT);
    reads::<ComposeInput>("COMPOSE_INPUT", &c::COMPOSE_INPUT);
    reads::<PromptParts>("PROMPT_PARTS", &c::PROMPT_PARTS);
    reads::<SessionConfig>("SESSION_CONFIG", &c::SESSION_CONFIG);
    reads::<BeginTurn>("BEGIN_TURN", &c::BEGIN_TURN);
    reads::<ModelResponse>("MODEL_RESPONSE", &c::MODEL_RESPONSE);
    reads::<Vec<ToolResult>>("TOOL_RESULTS", &c::TOOL_RESULTS);
    reads::<ApproveOptions>("APPROVE_OPTIONS", &c::APPROVE_OPTIONS);
    reads::<RejectOptions>("REJECT_OPTIONS", &c::REJECT_OPTIONS);
    reads::<PlanReview>("PLAN_REVIEW", &c::PLAN_REVIEW);
    reads::<PlanReviewStore>("PLAN_REVIEW_STORE", &c::PLAN_REVIEW_STORE);
    reads::<SessionSnapshot>("SESSION_SNAPSHOT", &c::SESSION_SNAPSHOT);
}

/// `value` with every object's members in key order, for comparing documents.
fn sorted(value: Value<'static>) -> Value<'static> {
    match value {
        Value::Object(mut members) => {
            members.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(members.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// A type written as JSON text reads back equal; a document with every property reads
/// into a value that writes that same document.
fn round_trips<T: FromValue + Serialize + PartialEq + Debug>(name: &str, schema: &Schema) {
    let write_read = |value: &T| {
        let text = write::to_string(value, Decimals::RUST);
        let valid = validated(schema, &parse(text.as_bytes(), Decimals::RUST).unwrap());
        (from_value::<T>(valid.clone()).unwrap(), sorted(valid))
    };
    for k in 0..CHOICES {
        for full in [true, false] {
            let document = validated(schema, &instance(schema, k, full));
            let value: T = from_value(document.clone()).unwrap();
            let (again, written) = write_read(&value);
            assert_eq!(again, value, "{name} (choice {k}, full {full})");
            if full {
                assert_eq!(written, sorted(document), "{name} (choice {k}) writes what it read");
            }
        }
    }
}

#[test]
fn what_a_type_writes_it_reads_back_the_same() {
    round_trips::<todos::WriteTodos>("WRITE_TODOS", &c::WRITE_TODOS);
    round_trips::<HistoryOptions>("HISTORY_OPTIONS", &c::HISTORY_OPTIONS);
    round_trips::<planner::PlannerSnapshot>("PLANNER_SNAPSHOT", &c::PLANNER_SNAPSHOT);
    round_trips::<SessionConfig>("SESSION_CONFIG", &c::SESSION_CONFIG);
    round_trips::<PlanReview>("PLAN_REVIEW", &c::PLAN_REVIEW);
    round_trips::<PlanReviewStore>("PLAN_REVIEW_STORE", &c::PLAN_REVIEW_STORE);
    round_trips::<SessionSnapshot>("SESSION_SNAPSHOT", &c::SESSION_SNAPSHOT);
}

fn read<T: FromValue>(json: &str) -> T {
    from_value(parse(json.as_bytes(), Decimals::RUST).unwrap().into_shallow()).unwrap()
}

/// An empty options object reads as `Default::default()`, and as the defaults the JSON
/// Schema documents (from the serde attributes) for each of its keys.
fn defaults_agree<T: FromValue + Serialize + JsonSchema + Default + PartialEq + Debug>() {
    let empty: T = read("{}");
    assert_eq!(empty, T::default());
    let settings = SchemaSettings::draft2020_12().for_deserialize().with(|s| s.inline_subschemas = true);
    let schema = settings.into_generator().into_root_schema_for::<T>().to_value();
    let written = serde_json::to_value(&empty).unwrap();
    let properties = schema["properties"].as_object().unwrap();
    for (key, property) in properties {
        // A key with no default (a limit that is off unless set) is absent by default.
        let default = property.get("default").unwrap_or(&serde_json::Value::Null);
        assert_eq!(&written[key], default, "{}.{key}", std::any::type_name::<T>());
    }
}

#[test]
fn an_absent_key_reads_as_its_documented_default() {
    defaults_agree::<SessionConfig>();
    defaults_agree::<ContinuationProtocol>();
    defaults_agree::<StuckOptions>();
    defaults_agree::<PlanReviewOptions>();
    defaults_agree::<HistoryOptions>();
    defaults_agree::<ToolPolicy>();
    defaults_agree::<planloop::session::config::DelegationOptions>();

    let options: planner::PlannerOptions = read("{}");
    assert_eq!(options.max_planner_only_streak, 2);
    assert_eq!(options.planner_tools, [planner::PlannerToolName("write_todos".into())]);
    assert_eq!(read::<ApproveOptions>("{}"), ApproveOptions { edited_args: None, scope: Scope::Once });
    assert_eq!(read::<ApproveOptions>(r#"{"editedArgs":null}"#).edited_args, None);
    assert_eq!(read::<RejectOptions>("{}"), RejectOptions { message: None });
    let parts =
        PromptParts { base: "b".into(), components: vec![], features: Record::default(), values: Record::default() };
    assert_eq!(read::<PromptParts>(r#"{"base":"b"}"#), parts);
    let compose = ComposeInput { parts, language: Language::En, plan: None, budget: None };
    assert_eq!(read::<ComposeInput>(r#"{"base":"b"}"#), compose);
    let plan = CurrentPlan { goal: "g".into(), step: None, step_number: None, total_steps: None };
    let with_plan: ComposeInput = read(r#"{"base":"b","plan":{"goal":"g"},"budget":{"remaining":1,"total":2}}"#);
    assert_eq!((with_plan.plan, with_plan.budget), (Some(plan), Some(Budget { remaining: 1, total: 2, tokens: None })));
    let capsule: ContextCapsuleInput = read(r#"{"goal":"g"}"#);
    assert_eq!(
        capsule,
        ContextCapsuleInput {
            goal: "g".into(),
            plan_snapshot: None,
            key_findings: vec![],
            artifacts: vec![],
            next_actions: vec![]
        }
    );
    let response: ModelResponse = read(r#"{"toolCalls":[{"id":"1","name":"n"}]}"#);
    let call = ToolCallInput { id: "1".into(), name: "n".into(), args: Value::Undefined };
    assert_eq!(response, ModelResponse { text: None, tool_calls: vec![call], usage: None });
    assert_eq!(read::<ModelResponse>("{}"), ModelResponse { text: None, tool_calls: vec![], usage: None });
    let result = ToolResult {
        id: "1".into(),
        output: Value::String("o".into()),
        stderr: None,
        is_error: false,
        duration_ms: None,
        exit_code: None,
    };
    assert_eq!(read::<Vec<ToolResult>>(r#"[{"id":"1","output":"o"}]"#), [result]);
    let turn = BeginTurn { message: "m".into(), now_ms: 1.0, ..Default::default() };
    assert_eq!(read::<BeginTurn>(r#"{"message":"m","nowMs":1}"#), turn);
}

#[test]
fn a_turn_without_a_proposal_count_reads_it_as_zero() {
    let mut document = validated(&c::SESSION_SNAPSHOT, &instance(&c::SESSION_SNAPSHOT, 2, true));
    let Value::Object(members) = &mut document else { panic!("an object") };
    let Some((_, Value::Object(turn))) = members.iter_mut().find(|(k, _)| k == "turn") else { panic!("a turn") };
    assert!(turn.iter().any(|(k, v)| k == "proposed" && *v != Value::Number(0.0)));
    turn.retain(|(k, _)| k != "proposed");
    let snapshot: SessionSnapshot = from_value(document).unwrap();
    let written = serde_json::to_value(&snapshot).unwrap();
    assert_eq!(written["turn"]["proposed"], 0);
}
