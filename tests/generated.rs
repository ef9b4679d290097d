//! Generated files are up to date with the Rust types they come from: the JSON Schemas
//! planloop validates with (`src/schemas/`) and the TypeScript types of its JS API
//! (`src/wasm/types.d.ts`, which wasm-bindgen copies into `pkg/planloop.d.ts`).
//!
//! `PLANLOOP_BLESS=1 cargo test --test generated` rewrites them.

use std::collections::BTreeMap;
use std::path::Path;

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{Map, Value};

use planloop::{
    error, plan::dialects, plan::guard, plan::planner, plan::recorded as plan, plan::todos, plan::tools,
    prompts::compose, session::approval, session::config, session::events, session::exchange, session::review,
    snapshot, trail::capsule, trail::reasoning,
};

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
}

/// Schemas used only to validate host input need no prose (the TypeScript types carry it).
#[test]
fn options_and_input_schemas_are_current() {
    let check =
        |file: &str, schema: Value| check_or_bless(&format!("src/schemas/{file}"), &compact(&strip_docs(&schema)));
    check("planner_options.json", input_schema::<planner::PlannerOptions>());
    check("history_options.json", input_schema::<reasoning::HistoryOptions>());
    check("planner_snapshot.json", input_schema::<planner::PlannerSnapshot>());
    check("context_capsule_input.json", input_schema::<capsule::ContextCapsuleInput>());
    check("compose_input.json", input_schema::<compose::ComposeInput>());
    check("prompt_parts.json", input_schema::<compose::PromptParts>());
    check("session_config.json", input_schema::<config::SessionConfig>());
    check("begin_turn.json", input_schema::<exchange::BeginTurn>());
    check("model_response.json", input_schema::<exchange::ModelResponse>());
    check("tool_results.json", input_schema::<Vec<exchange::ToolResult>>());
    check("approve_options.json", input_schema::<approval::ApproveOptions>());
    check("reject_options.json", input_schema::<approval::RejectOptions>());
    check("plan_review.json", input_schema::<review::PlanReview>());
    check("plan_review_store.json", input_schema::<review::PlanReviewStore>());
    check("session_snapshot.json", input_schema::<snapshot::SessionSnapshot>());
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
    ts.add::<review::PlanReview>(Contract::Output);

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

/// The JS layer calls the binding by number: its table comes from the Rust one.
#[test]
fn the_js_operation_table_is_current() {
    use planloop::error::issue::{Expected, Origin};
    use planloop::wasm::ops::{Op, Status};
    let table = |name: &str, entries: &[(&str, u32)]| {
        let lines: Vec<String> = entries.iter().map(|(key, code)| format!("  {key}: {code},")).collect();
        format!("export const {name} = {{\n{}\n}} as const;\n", lines.join("\n"))
    };
    let names = |name: &str, names: Vec<&str>| {
        let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
        format!("export const {name} = [{}] as const;\n", quoted.join(", "))
    };
    let ts = format!(
        "// Generated from src/wasm/ops.rs and src/error/issue.rs by tests/generated.rs. Do not edit.\n\n/** The operations of src/wasm/ops.rs. */\n{}\n/** What a call's status says to read. */\n{}\n/** An issue's `expected` and `origin`, by number (see src/wasm/issues.rs). */\n{}{}",
        table("Op", Op::ALL),
        table("Status", Status::ALL),
        names("EXPECTED", Expected::ALL.iter().map(|e| e.as_str()).collect()),
        names("ORIGINS", Origin::ALL.iter().map(|o| o.as_str()).collect()),
    );
    check_or_bless("src/wasm/js/ops.ts", &ts);
}
