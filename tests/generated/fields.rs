//! Results that cross as fields (`src/wasm/out.rs`): for each, a writer in Rust
//! (`src/wasm/field_writers.rs`) and a reader in TypeScript (`src/wasm/js/field_readers.ts`), both made
//! here from the type's JSON Schema, so that no layout is written by hand on either side.
//! A type declared here must have a fixed layout: every property required, each of a
//! kind below (a schema this does not know stops the generator).

use std::collections::BTreeMap;

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{Map, Value};

/// The declared results and the types they hold.
#[derive(Default)]
pub struct Fields {
    /// Each type's name (its schema title) → its Rust path and schema.
    types: BTreeMap<String, (String, Map<String, Value>)>,
    /// Enum variants: (Rust enum path, variant name, tag value, schema).
    variants: Vec<(String, String, String, Map<String, Value>)>,
}

fn schema_of<T: JsonSchema>() -> Map<String, Value> {
    let settings = SchemaSettings::draft2020_12().for_serialize();
    settings.into_generator().into_root_schema_for::<T>().to_value().as_object().unwrap().clone()
}

fn rust_path<T>() -> String {
    std::any::type_name::<T>().replacen("planloop::", "crate::", 1)
}

impl Fields {
    /// A struct that crosses as fields (and every struct it holds must be added too).
    pub fn add<T: JsonSchema>(&mut self) {
        let schema = schema_of::<T>();
        let name = schema["title"].as_str().unwrap().to_owned();
        self.types.insert(name, (rust_path::<T>(), schema));
    }

    /// One variant of an enum tagged by `type` (`#[serde(tag = "type")]`): the one whose
    /// tag is `tag`; its Rust name is `variant`.
    pub fn variant<T: JsonSchema>(&mut self, variant: &str, tag: &str) {
        let schema = schema_of::<T>();
        let options = schema["oneOf"].as_array().expect("a tagged enum");
        let option = options.iter().find(|o| o["properties"]["type"]["const"] == tag).expect("the variant's tag");
        let option = option.as_object().unwrap().clone();
        self.variants.push((rust_path::<T>(), variant.to_owned(), tag.to_owned(), option));
    }

    pub fn rust(&self) -> String {
        let mut out = String::from(
            "//! The writers of the results that cross as fields, one per type, for the readers in\n\
             //! `js/field_readers.ts`. Generated from the types' JSON Schemas by tests/generated/fields.rs.\n\
             //! Do not edit.\n\n\
             use super::out::Out;\n",
        );
        let mut paths: Vec<&str> = self.types.values().map(|(path, _)| path.as_str()).collect();
        paths.sort_unstable();
        paths.dedup();
        paths.iter().for_each(|path| out.push_str(&format!("use {path};\n")));
        out.push_str(
            "\n/// A result that crosses as fields.\n\
             pub trait WriteFields {\n    fn write(&self, out: &mut Out<'_>);\n}\n\n\
             /// A count, then each item.\n\
             fn list<T: WriteFields>(out: &mut Out<'_>, items: &[T]) {\n    \
             out.count(items.len());\n    items.iter().for_each(|item| item.write(out));\n}\n",
        );
        for (name, (path, schema)) in &self.types {
            out.push_str(&format!("\n/// `{name}`.\nimpl WriteFields for {} {{", short(path)));
            out.push_str("\n    fn write(&self, out: &mut Out<'_>) {\n");
            for (key, property) in properties(schema) {
                out.push_str(&format!("        {}\n", self.write(&format!("self.{}", snake(key)), property, true)));
            }
            out.push_str("    }\n}\n");
        }
        for (path, variant, tag, schema) in &self.variants {
            let fields: Vec<(&String, &Value)> = properties(schema).filter(|(key, _)| *key != "type").collect();
            let params: Vec<String> =
                fields.iter().map(|(key, property)| format!("{}: {}", snake(key), self.param(property))).collect();
            out.push_str(&format!(
                "\n/// `{}::{variant}` (`type: \"{tag}\"`, which the reader knows).\n\
                 pub fn {}(out: &mut Out<'_>, {}) {{\n",
                short(path),
                snake(tag),
                params.join(", ")
            ));
            for (key, property) in fields {
                out.push_str(&format!("    {}\n", self.write(&snake(key), property, false)));
            }
            out.push_str("}\n");
        }
        out
    }

    /// The statement writing `place` of schema `property`; `owned` when `place` is a
    /// field, not a reference.
    fn write(&self, place: &str, property: &Value, owned: bool) -> String {
        let by_ref = if owned { format!("&{place}") } else { place.to_owned() };
        let by_value = place;
        match kind(property) {
            Kind::String => format!("out.string({by_ref});"),
            Kind::Boolean => format!("out.flag({by_value});"),
            Kind::Number => format!("out.number({by_value});"),
            Kind::Float => format!("out.float({by_value});"),
            Kind::Json => format!("out.json({by_ref});"),
            Kind::Struct(name) => {
                self.known(&name);
                format!("{place}.write(out);")
            }
            Kind::List(item) => match *item {
                Kind::String => format!("out.strings({by_ref});"),
                Kind::Struct(name) => {
                    self.known(&name);
                    format!("list(out, {by_ref});")
                }
                _ => panic!("no field layout for a list of {property}"),
            },
        }
    }

    /// The Rust type of a parameter holding `property`.
    fn param(&self, property: &Value) -> String {
        let path = |name: &str| {
            self.known(name);
            short(&self.types[name].0).to_owned()
        };
        match kind(property) {
            Kind::String => "&str".into(),
            Kind::Boolean => "bool".into(),
            Kind::Number => "u32".into(),
            Kind::Float => "f64".into(),
            Kind::Json => "&crate::json::value::Value<'_>".into(),
            Kind::Struct(name) => format!("&{}", path(&name)),
            Kind::List(item) => match *item {
                Kind::String => "&[String]".into(),
                Kind::Struct(name) => format!("&[{}]", path(&name)),
                _ => panic!("no field layout for a list of {property}"),
            },
        }
    }

    pub fn ts(&self) -> String {
        let mut names: Vec<&str> = self.types.keys().map(String::as_str).collect();
        if !self.variants.is_empty() {
            names.push("Decision");
        }
        names.sort_unstable();
        let mut out = format!(
            "// The readers of the results that cross as fields, one per type, for the writers in\n\
             // src/wasm/field_writers.rs. Generated from the types' JSON Schemas by tests/generated/fields.rs.\n\
             // Do not edit. Each builds an object literal in the key order JSON would give.\n\
             import type {{ {} }} from \"../types\";\n\
             import type {{ Reader }} from \"./reader.js\";\n",
            names.join(", ")
        );
        for (name, (_, schema)) in &self.types {
            out.push_str(&format!(
                "\nexport function read{name}(r: Reader): {name} {{\n  return {};\n}}\n",
                read(schema, None)
            ));
        }
        for (_, _, tag, schema) in &self.variants {
            let name = format!("read{}{}", tag[..1].to_uppercase(), &tag[1..]);
            out.push_str(&format!(
                "\nexport function {name}(r: Reader): Decision {{\n  return {};\n}}\n",
                read(schema, Some(tag))
            ));
        }
        out
    }

    fn known(&self, name: &str) {
        assert!(self.types.contains_key(name), "{name} crosses as fields inside another result: add it");
    }
}

/// An object literal reading `schema`'s properties in order; `tag` is the `type` it has.
fn read(schema: &Map<String, Value>, tag: Option<&str>) -> String {
    let members: Vec<String> = properties(schema)
        .map(|(key, property)| match (key.as_str(), tag) {
            ("type", Some(tag)) => format!("type: \"{tag}\""),
            _ => format!("{key}: {}", read_kind(&kind(property))),
        })
        .collect();
    format!("{{ {} }}", members.join(", "))
}

fn read_kind(kind: &Kind) -> String {
    match kind {
        Kind::String => "r.string()".into(),
        Kind::Boolean => "r.flag()".into(),
        Kind::Number => "r.number()".into(),
        Kind::Float => "r.float()".into(),
        Kind::Json => "r.json()".into(),
        Kind::Struct(name) => format!("read{name}(r)"),
        Kind::List(item) => match item.as_ref() {
            Kind::String => "r.strings()".into(),
            Kind::Struct(name) => format!("r.list(read{name})"),
            other => format!("r.list((r) => {})", read_kind(other)),
        },
    }
}

/// A schema's properties, in order, each of them required.
fn properties(schema: &Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
    let required: Vec<&str> = schema["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    let properties = schema["properties"].as_object().unwrap();
    for key in properties.keys() {
        assert!(required.contains(&key.as_str()), "{key} may be left out: its layout would not be fixed");
    }
    properties.iter()
}

/// What a property is, as a field.
enum Kind {
    String,
    Boolean,
    /// A `u32`.
    Number,
    /// An `f64`.
    Float,
    /// Any JSON value (`json::value::Value`), as JSON text.
    Json,
    Struct(String),
    List(Box<Kind>),
}

fn kind(schema: &Value) -> Kind {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return Kind::Struct(reference.rsplit('/').next().unwrap().to_owned());
    }
    match (schema.get("type").and_then(Value::as_str), schema.get("format").and_then(Value::as_str)) {
        (Some("string"), _) if schema.get("const").is_none() && schema.get("enum").is_none() => Kind::String,
        (Some("boolean"), _) => Kind::Boolean,
        (Some("integer"), Some("uint32")) => Kind::Number,
        (Some("number"), Some("double")) => Kind::Float,
        (Some("array"), _) => Kind::List(Box::new(kind(&schema["items"]))),
        (None, _) if schema.as_object().is_some_and(|m| m.keys().all(|k| k == "description")) => Kind::Json,
        _ => panic!("no field layout for {schema}"),
    }
}

/// A type's name without its module path (the generated file imports it).
fn short(path: &str) -> &str {
    path.rsplit("::").next().unwrap()
}

/// `toolCallId` → `tool_call_id`.
fn snake(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}
