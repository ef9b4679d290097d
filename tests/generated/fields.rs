//! Results that cross as fields (`Out` in `src/wasm/io.rs`): for each, a writer in Rust
//! (`src/wasm/field_writers.rs`) and a reader in TypeScript
//! (`src/wasm/js/boundary.ts`), both made here from the type's JSON Schema, so that
//! no layout is written by hand on either side. A type declared here must have a fixed
//! layout: every property required, each of a kind below (a schema this does not know
//! stops the generator).

use std::collections::BTreeMap;

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{Map, Value};

/// The declared results and the types they hold.
#[derive(Default)]
pub struct Fields {
    /// Each struct, by name (its schema title).
    structs: BTreeMap<String, Struct>,
    /// Each enum of names (crossing as its index) → its Rust path and the names, in order.
    enums: BTreeMap<String, (String, Vec<String>)>,
    /// Enum variants: (Rust enum path, variant name, tag value, schema).
    variants: Vec<(String, String, String, Map<String, Value>)>,
}

/// A struct that crosses as fields.
struct Struct {
    path: String,
    schema: Map<String, Value>,
    /// The Rust names of the properties serde renames (JSON name → field name).
    renamed: Vec<(&'static str, &'static str)>,
}

fn schema_of<T: JsonSchema>() -> Map<String, Value> {
    let settings = SchemaSettings::draft2020_12().for_serialize();
    settings.into_generator().into_root_schema_for::<T>().to_value().as_object().unwrap().clone()
}

fn rust_path<T>() -> String {
    std::any::type_name::<T>().replacen("planloop::", "crate::", 1)
}

impl Fields {
    /// A struct that crosses as fields (every struct and enum it holds must be added too).
    pub fn add<T: JsonSchema>(&mut self) {
        self.add_renamed::<T>(&[]);
    }

    /// [`Fields::add`] for a struct some of whose fields serde renames: `renamed` pairs
    /// each JSON name with its field's name.
    pub fn add_renamed<T: JsonSchema>(&mut self, renamed: &[(&'static str, &'static str)]) {
        let schema = schema_of::<T>();
        let name = schema["title"].as_str().unwrap().to_owned();
        self.structs.insert(name, Struct { path: rust_path::<T>(), schema, renamed: renamed.to_vec() });
    }

    /// An enum of names (a fieldless enum serde writes as strings): it crosses as the index
    /// of its name, which must be its discriminant (the writers check that as they build).
    pub fn enumeration<T: JsonSchema>(&mut self) {
        let schema = schema_of::<T>();
        let name = schema["title"].as_str().unwrap().to_owned();
        let names = enum_names(&Value::Object(schema)).expect("an enum of names");
        self.enums.insert(name, (rust_path::<T>(), names));
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
             //! `js/boundary.ts`. Generated from the types' JSON Schemas by\n\
             //! tests/generated/fields.rs. Do not edit.\n\n\
             use super::io::Out;\n",
        );
        let mut paths: Vec<&str> = self.structs.values().map(|s| s.path.as_str()).collect();
        paths.extend(self.enums.values().map(|(path, _)| path.as_str()));
        paths.sort_unstable();
        paths.iter().for_each(|path| out.push_str(&format!("use {path};\n")));
        out.push_str(
            "\n/// A result that crosses as fields.\n\
             pub trait WriteFields {\n    fn write(&self, out: &mut Out<'_>);\n}\n\n\
             /// A count, then each item.\n\
             fn list<T: WriteFields>(out: &mut Out<'_>, items: &[T]) {\n    \
             out.count(items.len());\n    items.iter().for_each(|item| item.write(out));\n}\n",
        );
        for (name, (path, names)) in &self.enums {
            let name_of = short(path);
            out.push_str(&format!("\n// `{name}` crosses as its index in [{}].\n", names.join(", ")));
            for (index, value) in names.iter().enumerate() {
                out.push_str(&format!("const _: () = assert!({name_of}::{} as u32 == {index});\n", pascal(value)));
            }
        }
        for (name, Struct { path, schema, renamed }) in &self.structs {
            out.push_str(&format!("\n/// `{name}`.\nimpl WriteFields for {} {{\n", short(path)));
            out.push_str("    fn write(&self, out: &mut Out<'_>) {\n");
            for (key, property) in properties(schema) {
                let field =
                    renamed.iter().find(|(json, _)| json == key).map_or_else(|| snake(key), |(_, f)| f.to_string());
                let place = Place { by_ref: format!("&self.{field}"), by_value: format!("self.{field}") };
                out.push_str(&format!("        {}\n", self.write(&place, &self.kind(property), "        ")));
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
                let place = Place { by_ref: snake(key), by_value: snake(key) };
                out.push_str(&format!("    {}\n", self.write(&place, &self.kind(property), "    ")));
            }
            out.push_str("}\n");
        }
        out
    }

    /// The statement writing `place`, of kind `kind`, at `indent`.
    fn write(&self, place: &Place, kind: &Kind, indent: &str) -> String {
        let (by_ref, by_value) = (&place.by_ref, &place.by_value);
        match kind {
            Kind::String => format!("out.string({by_ref});"),
            Kind::Boolean => format!("out.flag({by_value});"),
            Kind::Number => format!("out.number({by_value});"),
            Kind::Float => format!("out.float({by_value});"),
            Kind::Json => format!("out.json({by_ref});"),
            Kind::Enum(_) => format!("out.number({by_value} as u32);"),
            // (A method call takes its receiver by reference.)
            Kind::Struct(_) => format!("{}.write(out);", by_ref.trim_start_matches('&')),
            Kind::List(item) => match item.as_ref() {
                Kind::String => format!("out.strings({by_ref});"),
                Kind::Struct(_) => format!("list(out, {by_ref});"),
                other => panic!("no field layout for a list of {other:?}"),
            },
            Kind::Optional(inner) => {
                let some = self.write(&Place { by_ref: "value".into(), by_value: "*value".into() }, inner, "");
                format!(
                    "match {by_ref} {{\n{indent}    Some(value) => {{\n{indent}        out.flag(true);\n{indent}        {some}\n{indent}    }}\n{indent}    None => out.flag(false),\n{indent}}}"
                )
            }
        }
    }

    /// The Rust type of a parameter holding `property`.
    fn param(&self, property: &Value) -> String {
        match self.kind(property) {
            Kind::String => "&str".into(),
            Kind::Boolean => "bool".into(),
            Kind::Number => "u32".into(),
            Kind::Float => "f64".into(),
            Kind::Json => "&crate::json::value::Value<'_>".into(),
            Kind::Struct(name) => format!("&{}", short(&self.structs[&name].path)),
            Kind::List(item) => match *item {
                Kind::String => "&[String]".into(),
                Kind::Struct(name) => format!("&[{}]", short(&self.structs[&name].path)),
                other => panic!("no field layout for a list of {other:?}"),
            },
            other => panic!("no parameter for {other:?}"),
        }
    }

    /// The TypeScript side: `tables` (the JS layer's other generated tables, which name
    /// the API's `types`), then the readers.
    pub fn ts(&self, tables: &str, types: &[String]) -> String {
        let mut names: Vec<&str> = self.structs.keys().map(String::as_str).collect();
        if !self.variants.is_empty() {
            names.push("Decision");
        }
        names.extend(types.iter().map(String::as_str));
        names.sort_unstable();
        names.dedup();
        let mut out = format!(
            "// The JS layer's side of the boundary, generated from the Rust side by\n\
             // tests/generated.rs. Do not edit. Its tables, then the readers of the results that\n\
             // cross as fields, one per type, for the writers in src/wasm/field_writers.rs: each\n\
             // builds an object literal in the key order JSON would give.\n\
             import type {{ {} }} from \"../types\";\n\
             import type {{ Reader }} from \"./engine.js\";\n{tables}",
            names.join(", ")
        );
        for (name, (_, values)) in &self.enums {
            let quoted: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
            out.push_str(&format!(
                "\n/** `{name}` by index. */\nexport const {} = [{}] as const;\n",
                constant(name),
                quoted.join(", ")
            ));
        }
        for (name, Struct { schema, .. }) in &self.structs {
            let read = self.read_object(schema, None);
            out.push_str(&format!("\nexport function read{name}(r: Reader): {name} {{\n  return {read};\n}}\n"));
        }
        for (_, _, tag, schema) in &self.variants {
            let name = format!("read{}{}", tag[..1].to_uppercase(), &tag[1..]);
            let read = self.read_object(schema, Some(tag));
            out.push_str(&format!("\nexport function {name}(r: Reader): Decision {{\n  return {read};\n}}\n"));
        }
        out
    }

    /// An object literal reading `schema`'s properties in order; `tag` is the `type` it has.
    fn read_object(&self, schema: &Map<String, Value>, tag: Option<&str>) -> String {
        let members: Vec<String> = properties(schema)
            .map(|(key, property)| match (key.as_str(), tag) {
                ("type", Some(tag)) => format!("type: \"{tag}\""),
                _ => format!("{key}: {}", read(&self.kind(property))),
            })
            .collect();
        format!("{{ {} }}", members.join(", "))
    }

    /// What a property is, as a field.
    fn kind(&self, schema: &Value) -> Kind {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let name = reference.rsplit('/').next().unwrap().to_owned();
            return match (self.structs.contains_key(&name), self.enums.contains_key(&name)) {
                (true, _) => Kind::Struct(name),
                (_, true) => Kind::Enum(name),
                _ => panic!("{name} crosses as fields inside another result: add it"),
            };
        }
        if let Some([some, none]) = schema.get("anyOf").and_then(Value::as_array).map(Vec::as_slice) {
            assert_eq!(none, &serde_json::json!({"type": "null"}), "only [T, null] unions: {schema}");
            return Kind::Optional(Box::new(self.kind(some)));
        }
        if let Some(Value::Array(types)) = schema.get("type") {
            let [Value::String(t), null] = types.as_slice() else { panic!("type list {types:?}") };
            assert_eq!(null, "null", "only [T, \"null\"] type lists");
            let mut single = schema.as_object().unwrap().clone();
            single.insert("type".into(), Value::String(t.clone()));
            return Kind::Optional(Box::new(self.kind(&Value::Object(single))));
        }
        match (schema.get("type").and_then(Value::as_str), schema.get("format").and_then(Value::as_str)) {
            (Some("string"), _) if schema.get("const").is_none() && schema.get("enum").is_none() => Kind::String,
            (Some("boolean"), _) => Kind::Boolean,
            (Some("integer"), Some("uint32")) => Kind::Number,
            (Some("number"), Some("double")) => Kind::Float,
            (Some("array"), _) => Kind::List(Box::new(self.kind(&schema["items"]))),
            (None, _) if schema.as_object().is_some_and(|m| m.keys().all(|k| k == "description")) => Kind::Json,
            _ => panic!("no field layout for {schema}"),
        }
    }
}

/// Where a value is, as a reference and as a value.
struct Place {
    by_ref: String,
    by_value: String,
}

fn read(kind: &Kind) -> String {
    match kind {
        Kind::String => "r.string()".into(),
        Kind::Boolean => "r.flag()".into(),
        Kind::Number => "r.number()".into(),
        Kind::Float => "r.float()".into(),
        Kind::Json => "r.json()".into(),
        Kind::Enum(name) => format!("{}[r.number()]!", constant(name)),
        Kind::Struct(name) => format!("read{name}(r)"),
        Kind::List(item) => match item.as_ref() {
            Kind::String => "r.strings()".into(),
            Kind::Struct(name) => format!("r.list(read{name})"),
            other => format!("r.list((r) => {})", read(other)),
        },
        Kind::Optional(inner) => format!("r.flag() ? {} : null", read(inner)),
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

/// The names of an enum serde writes as strings: `enum`, or `oneOf` of `const`s.
fn enum_names(schema: &Value) -> Option<Vec<String>> {
    let names: Option<Vec<&Value>> = match (schema.get("enum"), schema.get("oneOf")) {
        (Some(Value::Array(values)), _) => Some(values.iter().collect()),
        (_, Some(Value::Array(options))) => options.iter().map(|o| o.get("const")).collect(),
        _ => None,
    };
    names?.into_iter().map(|v| v.as_str().map(str::to_owned)).collect()
}

#[derive(Debug)]
enum Kind {
    String,
    Boolean,
    /// A `u32`.
    Number,
    /// An `f64`.
    Float,
    /// Any JSON value (`json::value::Value`), as JSON text.
    Json,
    /// An enum of names, as its index.
    Enum(String),
    Struct(String),
    List(Box<Kind>),
    /// A flag, then the value if there is one (`null` if not).
    Optional(Box<Kind>),
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

/// `in_progress` → `InProgress`.
fn pascal(name: &str) -> String {
    name.split('_').map(|word| word[..1].to_uppercase() + &word[1..]).collect()
}

/// `TodoStatus` → `TODO_STATUS`.
fn constant(name: &str) -> String {
    snake(name).trim_start_matches('_').to_uppercase()
}
