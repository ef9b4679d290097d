//! Generated files are up to date with the Rust types they come from: the JSON Schemas of
//! the planner tools handed to LLM APIs (`src/schemas/`), every input schema compiled to
//! Rust (`src/validate/compiled.rs`), the JS layer's side of the boundary (`src/wasm/js/boundary.ts`) and the
//! module's writers of its field results (`src/wasm/field_writers.rs`), and
//! the TypeScript types of its JS API (`src/wasm/types.d.ts`, which the build puts in
//! `pkg/planloop.d.ts`).
//!
//! `PLANLOOP_BLESS=1 cargo test --test generated` rewrites them.

// Not built into the wasm modules, so any collection will do (clippy.toml).
#![allow(clippy::disallowed_types)]

use std::collections::BTreeMap;
use std::path::Path;

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{Map, Value};

use planloop::{
    error, error::issue, plan::dialects, plan::guard, plan::planner, plan::recorded as plan, plan::todos, plan::tools,
    prompts::compose, session::approval, session::config, session::delegate_call, session::delegation, session::events,
    session::evidence, session::exchange, session::goal, session::handoff, session::review, snapshot, trail::capsule,
    trail::reasoning,
};

#[path = "generated/fields.rs"]
mod fields;

fn check_or_bless(relative: &str, generated: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    if std::env::var_os("PLANLOOP_BLESS").is_some() {
        std::fs::write(&path, generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{relative} is stale: run `PLANLOOP_BLESS=1 cargo test --test generated` and commit the result"
    );
}

/// An input's JSON Schema with subschemas inlined, as zod's `toJSONSchema` writes
/// them, in compact JSON (it is embedded in the wasm module).
fn input_schema<T: JsonSchema>() -> Value {
    let settings = SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = true);
    settings.into_generator().into_root_schema_for::<T>().to_value()
}

fn compact(schema: &Value) -> String {
    serde_json::to_string(schema).unwrap() + "\n"
}

/// Tool schemas keep their descriptions: LLM APIs show them to the model.
#[test]
fn tool_schemas_are_current() {
    let check = |file: &str, schema: Value| check_or_bless(&format!("src/schemas/{file}"), &compact(&schema));
    check("write_todos.json", input_schema::<todos::WriteTodos>());
    check("plan.json", input_schema::<plan::PlanArgs>());
    check("plan_progress.json", input_schema::<plan::PlanProgressArgs>());
    check("todo_write.json", input_schema::<dialects::TodoWriteArgs>());
    check("update_plan.json", input_schema::<dialects::UpdatePlanArgs>());
    check("update_todo_list.json", input_schema::<dialects::UpdateTodoListArgs>());
    check("task_tracker.json", input_schema::<dialects::TaskTrackerArgs>());
    check("gemini_write_todos.json", input_schema::<dialects::GeminiWriteTodosArgs>());
    check("langchain_write_todos.json", input_schema::<dialects::LangChainWriteTodosArgs>());
    check("cursor_todo_write.json", input_schema::<dialects::CursorTodoWriteArgs>());
    check("opencode_todowrite.json", input_schema::<dialects::OpenCodeTodoWriteArgs>());
    check("droid_todo_write.json", input_schema::<dialects::DroidTodoWriteArgs>());
    check("task_create.json", input_schema::<dialects::TaskCreateArgs>());
    check("task_update.json", input_schema::<dialects::TaskUpdateArgs>());
    check("task_list.json", input_schema::<dialects::TaskListArgs>());
    check("task_get.json", input_schema::<dialects::TaskGetArgs>());
    check("task_progress.json", input_schema::<dialects::TaskProgressArgs>());
    check("delegate.json", input_schema::<delegate_call::DelegateArgs>());
}

/// The boundary's generated sides: the JS layer's tables, and the results that cross as
/// fields (see `generated/fields.rs`): the session's tool rounds, which come back on
/// every step of a turn, and the primitives' results.
/// `Issue`'s Rust variants, in order.
const ISSUES: [&str; 9] = [
    "InvalidType",
    "TooSmall",
    "TooBig",
    "InvalidValue",
    "UnrecognizedKeys",
    "InvalidUnion",
    "InvalidFormat",
    "InvalidJson",
    "Custom",
];

#[test]
fn the_boundary_is_current() {
    let mut f = fields::Fields::default();
    f.add::<exchange::ToolCall>();
    f.add::<exchange::ToolMessage>();
    f.add::<exchange::NextCall>();
    f.add::<exchange::ToolResultsOutcome>();
    f.add::<delegate_call::Delegation>();
    f.variant::<exchange::Decision>("RunTools", "runTools");
    f.add::<planner::PlannerSnapshot>();
    f.add::<todos::Todo>().parts();
    f.enumeration::<todos::TodoStatus>();
    f.add::<reasoning::ReasoningEvent>();
    f.enumeration::<reasoning::Phase>();
    f.add::<guard::IterationVerdict>();
    f.enumeration::<guard::Refusal>();
    f.add::<capsule::ContextCapsule>();
    f.add::<capsule::Artifact>().renamed(&[("type", "kind"), ("ref", "reference")]);
    // zod's issues, and what holds them.
    f.union::<issue::Issue>(&ISSUES, false);
    f.add::<issue::InvalidTypeIssue>().parts();
    f.add::<issue::TooSmallIssue>().parts();
    f.add::<issue::TooBigIssue>().parts();
    f.add::<issue::InvalidValueIssue>().parts();
    f.add::<issue::UnrecognizedKeysIssue>();
    f.add::<issue::InvalidUnionIssue>();
    f.add::<issue::InvalidFormatIssue>().parts();
    f.add::<issue::InvalidJsonIssue>();
    f.add::<issue::CustomIssue>();
    f.union::<issue::PathSegment>(&["Key", "Index"], true);
    f.enumeration::<issue::Expected>();
    f.enumeration::<issue::Origin>();
    f.add::<error::Error>().untyped();
    f.add::<error::ErrorData>();
    f.enumeration::<error::ErrorCode>();
    // The composed prompt, which may be long, last.
    f.add::<compose::Composed>().written_as("crate::prompts::compose::Composition", "<'_>").ending("prompt");
    // `write_todos`: the arguments read (a key may hold `undefined`), and the ack.
    f.add::<todos::WriteTodos>().parts_only();
    f.alias("WriteTodosItem", "Todo");
    f.union::<planner::PlannerAck>(&["Accepted", "Rejected"], false);
    f.add::<planner::AcceptedAck>().parts();
    f.add::<planner::RejectedAck>().parts();
    f.union::<planner::AckError>(&["InvalidArguments", "Refused"], false);
    f.add::<planloop::wasm::arguments::ToolText>().untyped();
    check_or_bless("src/wasm/field_writers.rs", &f.rust());
    check_or_bless("src/wasm/field_parts.rs", &f.rust_parts());
    let (declared, types) = js_arguments(&f);
    check_or_bless("src/wasm/js/boundary.ts", &f.ts(&format!("{}{declared}", js_tables()), &types));
}

#[test]
fn typescript_types_are_current() {
    let mut ts = Typescript::default();
    // What planloop returns: the serialized shape.
    ts.add::<todos::WriteTodosValidation>(Contract::Output);
    ts.add::<planner::PlannerAck>(Contract::Output);
    ts.add::<planner::PlannerSnapshot>(Contract::Output);
    ts.add::<guard::IterationVerdict>(Contract::Output);
    ts.add::<reasoning::ReasoningEvent>(Contract::Output);
    ts.add::<capsule::ContextCapsule>(Contract::Output);
    ts.add::<compose::Composed>(Contract::Output);
    ts.add::<tools::ToolDefinition>(Contract::Output);
    ts.add::<error::ErrorCode>(Contract::Output);
    ts.add::<error::ErrorData>(Contract::Output);
    ts.add::<exchange::Decision>(Contract::Output);
    ts.add::<exchange::TurnStart>(Contract::Output);
    ts.add::<exchange::ToolResultsOutcome>(Contract::Output);
    ts.add::<exchange::Progress>(Contract::Output);
    ts.add::<events::Event>(Contract::Output);
    ts.add::<plan::PlanState>(Contract::Output);
    ts.add::<exchange::ApprovalOutcome>(Contract::Output);
    ts.add::<approval::Proposal>(Contract::Output);
    ts.add::<handoff::Handoff>(Contract::Output);
    ts.add::<delegation::DelegationOutcome>(Contract::Output);
    ts.add::<delegate_call::Delegation>(Contract::Output);
    ts.add::<review::PlanReview>(Contract::Output);
    ts.add::<evidence::EvidencedTodo>(Contract::Output);

    // What planloop takes: the accepted shape (optional keys may be left out).
    ts.add::<planner::PlannerOptions>(Contract::Input);
    ts.add::<reasoning::HistoryOptions>(Contract::Input);
    ts.add::<capsule::ContextCapsuleInput>(Contract::Input);
    ts.add::<compose::ComposeInput>(Contract::Input);
    ts.add::<compose::PromptParts>(Contract::Input);
    ts.add::<config::SessionConfig>(Contract::Input);
    ts.add::<exchange::BeginTurn>(Contract::Input);
    ts.add::<exchange::ModelResponse>(Contract::Input);
    ts.add::<exchange::ToolResult>(Contract::Input);
    ts.add::<approval::ApproveOptions>(Contract::Input);
    ts.add::<approval::RejectOptions>(Contract::Input);
    ts.add::<handoff::HandoffOptions>(Contract::Input);
    ts.add::<goal::Verdict>(Contract::Input);
    // A snapshot is written whole and read back: the shape `restore` accepts.
    ts.add::<snapshot::SessionSnapshot>(Contract::Input);
    ts.add_as::<review::PlanReviewStore>(Contract::Output, "PlanReviewStoreData");
    check_or_bless("src/wasm/types.d.ts", &ts.render());
}

#[derive(Clone, Copy, PartialEq)]
enum Contract {
    Input,
    Output,
}

/// Named JSON Schemas, rendered as TypeScript type aliases.
#[derive(Default)]
struct Typescript {
    types: BTreeMap<String, Value>,
}

impl Typescript {
    fn add<T: JsonSchema>(&mut self, contract: Contract) {
        self.add_named::<T>(contract, None);
    }

    /// Adds `T` under another name (when its own is taken by a JS class).
    fn add_as<T: JsonSchema>(&mut self, contract: Contract, name: &str) {
        self.add_named::<T>(contract, Some(name));
    }

    fn add_named<T: JsonSchema>(&mut self, contract: Contract, rename: Option<&str>) {
        let settings = match contract {
            Contract::Input => SchemaSettings::draft2020_12().for_deserialize(),
            Contract::Output => SchemaSettings::draft2020_12().for_serialize(),
        };
        let root = settings.into_generator().into_root_schema_for::<T>().to_value();
        let mut root = root.as_object().unwrap().clone();
        let defs = root.remove("$defs").and_then(|d| d.as_object().cloned()).unwrap_or_default();
        let name = rename.map_or_else(|| root["title"].as_str().unwrap().to_owned(), str::to_owned);
        let mut named: Vec<(String, Value)> = defs.into_iter().collect();
        named.push((name, Value::Object(root)));
        for (name, schema) in named {
            match self.types.get(&name) {
                Some(existing) if strip_docs(existing) != strip_docs(&schema) => {
                    panic!("two different shapes are both named {name}; give one of them its own type name")
                }
                _ => {
                    self.types.insert(name, schema);
                }
            }
        }
    }

    fn render(&self) -> String {
        let mut out = String::from(
            "// Generated from the Rust types by tests/generated.rs. Do not edit.\n\n\
             /** An error planloop throws: a JS `Error` with a stable `code` and a `data` object. */\n\
             export interface PlanloopError extends Error {\n    name: \"PlanloopError\";\n    code: ErrorCode;\n    data: ErrorData;\n}\n",
        );
        for (name, schema) in &self.types {
            out.push('\n');
            out.push_str(&doc_comment(schema, ""));
            out.push_str(&format!("export type {name} = {};\n", type_of(schema, "")));
        }
        out
    }
}

fn strip_docs(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "description" | "title" | "$schema" | "default"))
                .map(|(k, v)| (k.clone(), if k == "properties" { strip_docs_of_properties(v) } else { strip_docs(v) }))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(strip_docs).collect()),
        other => other.clone(),
    }
}

/// The keys of `properties` are names the user chose (a tool policy has a `default`).
fn strip_docs_of_properties(properties: &Value) -> Value {
    match properties {
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), strip_docs(v))).collect()),
        other => strip_docs(other),
    }
}

/// A JSDoc block from `description`, `default` and the size limits.
fn doc_comment(schema: &Value, indent: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    if let Some(description) = schema.get("description").and_then(Value::as_str) {
        lines.extend(description.lines().map(str::to_owned));
    }
    let limits = [
        ("minLength", "At least", " character"),
        ("maxLength", "At most", " character"),
        ("minItems", "At least", " item"),
        ("maxItems", "At most", " item"),
        ("minimum", "At least", ""),
        ("maximum", "At most", ""),
    ];
    for (key, bound, unit) in limits {
        if let Some(n) = schema.get(key).and_then(Value::as_f64) {
            let plural = if n != 1.0 && !unit.is_empty() { "s" } else { "" };
            if !(key == "minimum" && n == 0.0) {
                lines.push(format!("{bound} {n}{unit}{plural}."));
            }
        }
    }
    // An absent option means "none"; `@default null` would suggest `null` is accepted.
    if let Some(default) = schema.get("default").filter(|d| !d.is_null()) {
        lines.push(format!("@default {default}"));
    }
    match lines.as_slice() {
        [] => String::new(),
        [one] => format!("{indent}/** {one} */\n"),
        many => {
            let body: String = many.iter().map(|l| format!("{indent} * {l}\n")).collect();
            format!("{indent}/**\n{body}{indent} */\n")
        }
    }
}

fn type_of(schema: &Value, indent: &str) -> String {
    let Some(map) = schema.as_object() else {
        return "unknown".into();
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        return reference.rsplit('/').next().unwrap().to_owned();
    }
    if let Some(options) = map.get("oneOf").or_else(|| map.get("anyOf")).and_then(Value::as_array) {
        let union = options.iter().map(|o| type_of(o, indent)).collect::<Vec<_>>().join(" | ");
        // Fields shared by every alternative (a flattened enum) sit next to `oneOf`.
        return match map.contains_key("properties") {
            true => format!("{} & ({union})", object_type(map, indent)),
            false => union,
        };
    }
    if let Some(value) = map.get("const") {
        return value.to_string();
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        return values.iter().map(Value::to_string).collect::<Vec<_>>().join(" | ");
    }
    match map.get("type") {
        Some(Value::Array(types)) => types
            .iter()
            .map(|t| {
                let mut single = map.clone();
                single.insert("type".into(), t.clone());
                type_of(&Value::Object(single), indent)
            })
            .collect::<Vec<_>>()
            .join(" | "),
        Some(Value::String(t)) => match t.as_str() {
            "string" => "string".into(),
            "integer" | "number" => "number".into(),
            "boolean" => "boolean".into(),
            "null" => "null".into(),
            "array" => {
                let item = type_of(map.get("items").unwrap_or(&Value::Null), indent);
                if item.contains(' ') {
                    format!("({item})[]")
                } else {
                    format!("{item}[]")
                }
            }
            "object" => object_type(map, indent),
            other => panic!("no TypeScript for JSON Schema type {other}"),
        },
        _ => "unknown".into(),
    }
}

fn object_type(map: &Map<String, Value>, indent: &str) -> String {
    let empty = Map::new();
    let properties = map.get("properties").and_then(Value::as_object).unwrap_or(&empty);
    if properties.is_empty() {
        // A record (`additionalProperties` with a schema), or any object.
        let values = match map.get("additionalProperties") {
            Some(values @ Value::Object(_)) => type_of(values, indent),
            _ => "unknown".into(),
        };
        return format!("{{ [key: string]: {values} }}");
    }
    let required: Vec<&str> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let inner = format!("{indent}    ");
    let mut out = String::from("{\n");
    for (key, property) in properties {
        let optional = if required.contains(&key.as_str()) { "" } else { "?" };
        out.push_str(&doc_comment(property, &inner));
        out.push_str(&format!("{inner}{key}{optional}: {};\n", type_of(property, &inner)));
    }
    out.push_str(indent);
    out.push('}');
    out
}

/// Each declared operation's arguments (`src/wasm/arguments.rs`) as a TypeScript function
/// that puts them in their order, typed as the JS API takes them: the operation, and the
/// arguments to encode; and the API types they name.
fn js_arguments(f: &fields::Fields) -> (String, Vec<String>) {
    use planloop::wasm::arguments::ALL;
    let mut out = String::from(
        "\n/** Each declared operation's arguments in their order (see src/wasm/arguments.rs). */\nexport const declared = {\n",
    );
    for planloop::wasm::arguments::Declared { op, arguments, .. } in ALL {
        let params: Vec<String> = arguments.iter().map(|(name, ts)| format!("{name}: {ts}")).collect();
        let names: Vec<&str> = arguments.iter().map(|(name, _)| *name).collect();
        out.push_str(&format!("  {op}: ({}): Declared => [Op.{op}, [{}]],\n", params.join(", "), names.join(", ")));
    }
    out.push_str("} as const;\n\n/** An operation, and its arguments in their order. */\nexport type Declared = readonly [op: number, args: readonly unknown[]];\n");
    out.push_str("\n/** The reader of each declared operation's result (see src/wasm/arguments.rs). */\nexport const results = {\n");
    for declared in ALL {
        if let Some(schema) = declared.result {
            out.push_str(&format!("  {}: {},\n", declared.op, f.result_reader(&schema().to_value())));
        }
    }
    out.push_str("} as const;\n");
    let named = |ts: &&str| {
        ts.split(" | ")
            .map(|t| t.trim_end_matches("[]"))
            .filter(|t| t.starts_with(|c: char| c.is_ascii_uppercase()))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let types = ALL.iter().flat_map(|declared| declared.arguments.iter().flat_map(|(_, ts)| named(ts))).collect();
    (out, types)
}

/// The JS layer's tables, from the Rust ones: the operations it calls by number, what a
/// call's status says to read, and the limits it checks before a call crosses.
fn js_tables() -> String {
    use planloop::wasm::{Op, Status};
    let table = |name: &str, entries: &[(&str, u32)]| {
        let lines: Vec<String> = entries.iter().map(|(key, code)| format!("  {key}: {code},")).collect();
        format!("export const {name} = {{\n{}\n}} as const;\n", lines.join("\n"))
    };
    use planloop::prompts::compose::{BASE_MAX, COMPONENTS_MAX, NAME_MAX, TEXT_MAX};
    let limits =
        [("BASE_MAX", BASE_MAX), ("COMPONENTS_MAX", COMPONENTS_MAX), ("NAME_MAX", NAME_MAX), ("TEXT_MAX", TEXT_MAX)];
    let limits: Vec<(&str, u32)> = limits.iter().map(|(name, n)| (*name, *n as u32)).collect();
    use planloop::validate::write_todos::MAX_TODOS;
    use planloop::wasm::{INTERNED, KEPT};
    format!(
        "\n/** The operations of src/wasm/mod.rs. */\n{}\n/** What a call's status says to read. */\n{}\n/** A string the JS layer keeps: its mark, and the start that says it has it (see `Out` in src/wasm/io.rs). */\n{}\n/** `composePrompt`'s limits, in characters (see src/prompts/compose/input.rs). */\n{}\n/** The most todos a `write_todos` list may hold (see src/validate/write_todos/mod.rs). */\n{}",
        table("Op", Op::ALL),
        table("Status", Status::ALL),
        table("Interned", &[("MARK", INTERNED), ("KEPT", KEPT)]),
        table("COMPOSE_LIMITS", &limits),
        table("WRITE_TODOS", &[("TODOS_MAX", MAX_TODOS as u32)]),
    )
}

/// Every input schema, compiled to Rust statics the validator walks: no JSON Schema is
/// parsed or interpreted at run time (`src/validate/compiled.rs`).
#[test]
fn compiled_schemas_are_current() {
    let inputs: Vec<(&str, Value)> = vec![
        ("WRITE_TODOS", input_schema::<todos::WriteTodos>()),
        ("PLAN", input_schema::<plan::PlanArgs>()),
        ("PLAN_PROGRESS", input_schema::<plan::PlanProgressArgs>()),
        ("TODO_WRITE", input_schema::<dialects::TodoWriteArgs>()),
        ("UPDATE_PLAN", input_schema::<dialects::UpdatePlanArgs>()),
        ("UPDATE_TODO_LIST", input_schema::<dialects::UpdateTodoListArgs>()),
        ("TASK_TRACKER", input_schema::<dialects::TaskTrackerArgs>()),
        ("GEMINI_WRITE_TODOS", input_schema::<dialects::GeminiWriteTodosArgs>()),
        ("LANGCHAIN_WRITE_TODOS", input_schema::<dialects::LangChainWriteTodosArgs>()),
        ("CURSOR_TODO_WRITE", input_schema::<dialects::CursorTodoWriteArgs>()),
        ("OPENCODE_TODOWRITE", input_schema::<dialects::OpenCodeTodoWriteArgs>()),
        ("DROID_TODO_WRITE", input_schema::<dialects::DroidTodoWriteArgs>()),
        ("TASK_CREATE", input_schema::<dialects::TaskCreateArgs>()),
        ("TASK_UPDATE", input_schema::<dialects::TaskUpdateArgs>()),
        ("TASK_LIST", input_schema::<dialects::TaskListArgs>()),
        ("TASK_GET", input_schema::<dialects::TaskGetArgs>()),
        ("TASK_PROGRESS", input_schema::<dialects::TaskProgressArgs>()),
        ("PLANNER_OPTIONS", input_schema::<planner::PlannerOptions>()),
        ("HISTORY_OPTIONS", input_schema::<reasoning::HistoryOptions>()),
        ("PLANNER_SNAPSHOT", input_schema::<planner::PlannerSnapshot>()),
        ("CONTEXT_CAPSULE_INPUT", input_schema::<capsule::ContextCapsuleInput>()),
        ("COMPOSE_INPUT", input_schema::<compose::ComposeInput>()),
        ("PROMPT_PARTS", input_schema::<compose::PromptParts>()),
        ("SESSION_CONFIG", input_schema::<config::SessionConfig>()),
        ("BEGIN_TURN", input_schema::<exchange::BeginTurn>()),
        ("MODEL_RESPONSE", input_schema::<exchange::ModelResponse>()),
        ("TOOL_RESULTS", input_schema::<Vec<exchange::ToolResult>>()),
        ("APPROVE_OPTIONS", input_schema::<approval::ApproveOptions>()),
        ("REJECT_OPTIONS", input_schema::<approval::RejectOptions>()),
        ("HANDOFF_OPTIONS", input_schema::<handoff::HandoffOptions>()),
        ("DELEGATE_CALL", input_schema::<delegate_call::DelegateCall>()),
        ("PLAN_REVIEW", input_schema::<review::PlanReview>()),
        ("PLAN_REVIEW_STORE", input_schema::<review::PlanReviewStore>()),
        ("SESSION_SNAPSHOT", input_schema::<snapshot::SessionSnapshot>()),
        ("VERDICT", input_schema::<goal::Verdict>()),
    ];
    let mut out = String::from(
        "//! The input schemas compiled to Rust: what the validator walks, made from the same\n\
         //! JSON Schemas handed to LLM APIs. Generated by tests/generated.rs. Do not edit.\n\n\
         use super::schema::{Property, Schema};\n",
    );
    for (name, schema) in inputs {
        out.push_str(&format!("\npub static {name}: Schema = {};\n", compile_schema(&schema)));
    }
    check_or_bless("src/validate/compiled.rs", &out);
}

/// A JSON Schema (as schemars writes it, subschemas inlined) as a Rust `Schema` expression.
fn compile_schema(schema: &Value) -> String {
    if let Some(Value::Array(types)) = schema.get("type") {
        let [Value::String(t), Value::String(null)] = types.as_slice() else { panic!("type list {types:?}") };
        assert_eq!(null, "null", "only [T, \"null\"] type lists");
        return format!("Schema::Nullable(&{})", compile_typed(schema, Some(t)));
    }
    compile_typed(schema, None)
}

fn compile_typed(schema: &Value, type_name: Option<&str>) -> String {
    let number = |key: &str| match schema.get(key).and_then(Value::as_f64) {
        Some(n) => format!("Some({n:?})"),
        None => "None".to_owned(),
    };
    let strings = |values: &[Value]| {
        let quoted: Vec<String> = values.iter().map(|v| format!("{:?}", v.as_str().expect("a string enum"))).collect();
        format!("Schema::Enum(&[{}])", quoted.join(", "))
    };
    if let Some(Value::Array(options)) = schema.get("anyOf").or_else(|| schema.get("oneOf")) {
        let options: Vec<String> = options.iter().map(compile_schema).collect();
        return format!("Schema::AnyOf(&[{}])", options.join(", "));
    }
    if let Some(value) = schema.get("const") {
        return strings(std::slice::from_ref(value));
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return strings(values);
    }
    match type_name.or_else(|| schema.get("type").and_then(Value::as_str)) {
        Some("object") => compile_object(schema),
        Some("array") => format!(
            "Schema::Array {{ items: &{}, min_items: {}, max_items: {} }}",
            compile_schema(schema.get("items").expect("an array's items")),
            number("minItems"),
            number("maxItems")
        ),
        Some("string") => {
            format!("Schema::String {{ min_length: {}, max_length: {} }}", number("minLength"), number("maxLength"))
        }
        Some(numeric @ ("integer" | "number")) => {
            let format_max = match schema.get("format").and_then(Value::as_str) {
                Some("uint8") => Some(f64::from(u8::MAX)),
                Some("uint16") => Some(f64::from(u16::MAX)),
                Some("uint32" | "uint") => Some(f64::from(u32::MAX)),
                _ => None,
            };
            let maximum = schema.get("maximum").and_then(Value::as_f64).or(format_max);
            format!(
                "Schema::Number {{ integer: {}, minimum: {}, maximum: {} }}",
                numeric == "integer",
                number("minimum"),
                maximum.map_or("None".to_owned(), |n| format!("Some({n:?})"))
            )
        }
        Some("boolean") => "Schema::Boolean".to_owned(),
        Some("null") => "Schema::Null".to_owned(),
        None if schema.as_object().is_some_and(|members| {
            members.keys().all(|key| matches!(key.as_str(), "description" | "title" | "default" | "$schema"))
        }) || schema == &Value::Bool(true) =>
        {
            "Schema::Any".to_owned()
        }
        other => panic!("unsupported schema {other:?}: {schema}"),
    }
}

/// An object with `properties`, or a record (`additionalProperties` holding a schema).
fn compile_object(schema: &Value) -> String {
    let properties = schema.get("properties").and_then(Value::as_object);
    match (schema.get("additionalProperties"), properties) {
        (Some(values @ Value::Object(_)), None) => format!("Schema::Record(&{})", compile_schema(values)),
        (Some(Value::Object(_)), Some(_)) => panic!("properties next to an additionalProperties schema"),
        (additional, _) => {
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|keys| keys.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let compiled: Vec<String> = properties
                .into_iter()
                .flatten()
                .map(|(key, property)| {
                    format!(
                        "Property {{ key: {key:?}, schema: {}, required: {} }}",
                        compile_schema(property),
                        required.contains(&key.as_str())
                    )
                })
                .collect();
            format!(
                "Schema::Object {{ properties: &[{}], strict: {} }}",
                compiled.join(", "),
                additional == Some(&Value::Bool(false))
            )
        }
    }
}
