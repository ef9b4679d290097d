//! Results that cross as fields (`Out` in `src/wasm/io.rs`): for each, a writer in Rust
//! (`src/wasm/field_writers.rs`) and a reader in TypeScript
//! (`src/wasm/js/boundary.ts`, made in `readers.rs`), both from the type's JSON Schema, so that
//! no layout is written by hand on either side. A type declared here must have a fixed
//! layout: each property of a kind below (a schema this does not know stops the
//! generator).
//!
//! The layout, for each kind: a string, a number or a flag as `Out` writes it; a float
//! as its two halves; an enum of names as its index; a constant as nothing (the reader
//! knows it); a union as the index of its variant, then the variant; a list as a count,
//! then each item; an optional value as a flag, then the value; a key that may be left
//! out as 0 (left out), 1 (then the value) or 2 (given as `undefined`, which zod keeps).

use std::collections::BTreeMap;

// The TypeScript side: the readers.
#[path = "readers.rs"]
mod readers;

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
    /// Each union (an untagged enum), by name.
    unions: BTreeMap<String, Union>,
    /// Enum variants: (Rust enum path, variant name, tag value, schema).
    variants: Vec<(String, String, String, Map<String, Value>)>,
    /// Schema names that stand for a declared struct (`#[schemars(with = …)]`).
    aliases: BTreeMap<String, String>,
}

/// A struct that crosses as fields.
pub struct Struct {
    path: String,
    /// What follows the path in the Rust type (`<'_>`).
    generics: &'static str,
    schema: Map<String, Value>,
    /// The Rust names of the properties serde renames (JSON name → field name).
    renamed: Vec<(&'static str, &'static str)>,
    /// Whether the Rust type itself is written (`WriteFields`), and whether a `…Parts`
    /// writer is made, for a writer that has the fields but not the type.
    whole: bool,
    parts: bool,
    /// A string property written last, as the text's end (see `Out::last_string`).
    ending: Option<&'static str>,
    /// Whether the API's types name it (the reader's return type).
    typed: bool,
}

impl Struct {
    /// Serde renames these fields: each JSON name with its field's name.
    pub fn renamed(&mut self, renamed: &[(&'static str, &'static str)]) -> &mut Self {
        self.renamed = renamed.to_vec();
        self
    }

    /// Makes a `…Parts` writer too.
    pub fn parts(&mut self) -> &mut Self {
        self.parts = true;
        self
    }

    /// Makes only the `…Parts` writer (the Rust type cannot hold every value the
    /// layout carries).
    pub fn parts_only(&mut self) -> &mut Self {
        self.whole = false;
        self.parts()
    }

    /// Writes `key`, a string, last (it may be long: it is not counted).
    pub fn ending(&mut self, key: &'static str) -> &mut Self {
        self.ending = Some(key);
        self
    }

    /// The Rust type written is `path` (with `generics`), not the schema's own.
    pub fn written_as(&mut self, path: &str, generics: &'static str) -> &mut Self {
        self.path = path.to_owned();
        self.generics = generics;
        self
    }

    /// The API's types do not name it: its reader's type is inferred.
    pub fn untyped(&mut self) -> &mut Self {
        self.typed = false;
        self
    }
}

/// An untagged enum: its Rust path and, per variant, its Rust name and schema.
struct Union {
    path: String,
    variants: Vec<(String, Value)>,
    /// Whether each variant gets a writer of its own (for a `…Parts` writer's caller).
    parts: bool,
}

fn schema_of<T: JsonSchema>() -> Map<String, Value> {
    let settings = SchemaSettings::draft2020_12().for_serialize();
    settings.into_generator().into_root_schema_for::<T>().to_value().as_object().unwrap().clone()
}

fn rust_path<T>() -> String {
    std::any::type_name::<T>().replacen("planloop::", "crate::", 1)
}

impl Fields {
    /// A struct that crosses as fields (every struct, enum and union it holds must be
    /// declared too).
    pub fn add<T: JsonSchema>(&mut self) -> &mut Struct {
        let schema = schema_of::<T>();
        let name = schema["title"].as_str().unwrap().to_owned();
        let declared = Struct {
            path: rust_path::<T>(),
            generics: "",
            schema,
            renamed: Vec::new(),
            whole: true,
            parts: false,
            ending: None,
            typed: true,
        };
        self.structs.entry(name).or_insert(declared)
    }

    /// An enum of names (a fieldless enum serde writes as strings): it crosses as the index
    /// of its name, which must be its discriminant (the writers check that as they build).
    pub fn enumeration<T: JsonSchema>(&mut self) {
        let schema = schema_of::<T>();
        let name = schema["title"].as_str().unwrap().to_owned();
        let names = enum_names(&Value::Object(schema)).expect("an enum of names");
        self.enums.insert(name, (rust_path::<T>(), names));
    }

    /// An untagged enum whose Rust variants are `variants`, in order; with `parts`, a
    /// writer per variant too.
    pub fn union<T: JsonSchema>(&mut self, variants: &[&str], parts: bool) {
        let schema = schema_of::<T>();
        let name = schema["title"].as_str().unwrap().to_owned();
        let options = schema["anyOf"].as_array().expect("an untagged enum");
        assert_eq!(options.len(), variants.len(), "{name}: one Rust name per variant");
        let variants = variants.iter().zip(options).map(|(v, o)| (v.to_string(), o.clone())).collect();
        self.unions.insert(name, Union { path: rust_path::<T>(), variants, parts });
    }

    /// The schema names `alias` stands for the declared struct `name`.
    pub fn alias(&mut self, alias: &str, name: &str) {
        self.aliases.insert(alias.to_owned(), name.to_owned());
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
        let mut paths: Vec<&str> = self.structs.values().filter(|s| s.whole).map(|s| s.path.as_str()).collect();
        paths.extend(self.enums.values().map(|(path, _)| path.as_str()));
        paths.extend(self.unions.values().map(|u| u.path.as_str()));
        sort_paths(&mut paths);
        paths.iter().for_each(|path| out.push_str(&format!("use {path};\n")));
        out.push_str(
            "\n/// A result that crosses as fields.\n\
             pub trait WriteFields {\n    fn write(&self, out: &mut Out<'_>);\n}\n\n\
             /// A count, then each item.\n\
             pub fn list<T: WriteFields>(out: &mut Out<'_>, items: &[T]) {\n    \
             out.count(items.len());\n    items.iter().for_each(|item| item.write(out));\n}\n\n\
             impl<T: WriteFields> WriteFields for Vec<T> {\n    fn write(&self, out: &mut Out<'_>) {\n        list(out, self);\n    }\n}\n\n\
             /// A flag, then the value if there is one.\n\
             impl<T: WriteFields> WriteFields for Option<T> {\n    fn write(&self, out: &mut Out<'_>) {\n        out.flag(self.is_some());\n        if let Some(value) = self {\n            value.write(out);\n        }\n    }\n}\n\n\
             impl WriteFields for String {\n    fn write(&self, out: &mut Out<'_>) {\n        out.string(self);\n    }\n}\n",
        );
        for (name, (path, names)) in &self.enums {
            let name_of = short(path);
            out.push_str(&format!("\n// `{name}` crosses as its index in [{}].\n", names.join(", ")));
            for (index, value) in names.iter().enumerate() {
                out.push_str(&format!("const _: () = assert!({name_of}::{} as u32 == {index});\n", pascal(value)));
            }
        }
        for (name, declared) in &self.structs {
            if declared.whole {
                out.push_str(&self.struct_writer(name, declared));
            }
        }
        for (name, union) in &self.unions {
            out.push_str(&self.union_writer(name, union));
        }
        for (path, variant, tag, schema) in &self.variants {
            let fields: Vec<(&String, &Value)> =
                properties(schema).filter(|(key, _, _)| *key != "type").map(|(k, p, _)| (k, p)).collect();
            let params: Vec<String> =
                fields.iter().map(|(key, property)| format!("{}: {}", snake(key), self.param(property))).collect();
            let params: Vec<String> = ["out: &mut Out<'_>".to_owned()].into_iter().chain(params).collect();
            let line = format!("pub fn {}({}) {{", snake(tag), params.join(", "));
            // As rustfmt writes a signature past its 120 columns: a parameter a line.
            let signature = match line.len() > 120 {
                false => line,
                true => format!(
                    "pub fn {}(\n{}) {{",
                    snake(tag),
                    params.iter().map(|p| format!("    {p},\n")).collect::<String>()
                ),
            };
            out.push_str(&format!(
                "\n/// `{}::{variant}` (`type: \"{tag}\"`, which the reader knows).\n{signature}\n",
                short(path)
            ));
            for (key, property) in fields {
                let place = Place { by_ref: snake(key), by_value: snake(key) };
                out.push_str(&format!("    {}\n", self.write(&place, &self.kind(property), "    ")));
            }
            out.push_str("}\n");
        }
        out
    }

    /// The `…Parts` writers (`src/wasm/field_parts.rs`): for a writer that has a
    /// result's fields but not its Rust value, the same layout as `rust()`'s writers.
    pub fn rust_parts(&self) -> String {
        let mut body = String::new();
        let mut paths = Vec::new();
        for (name, declared) in self.structs.iter().filter(|(_, s)| s.parts) {
            body.push_str(&self.parts_writer(name, declared, &mut paths));
        }
        for (name, union) in self.unions.iter().filter(|(_, u)| u.parts) {
            body.push_str(&self.variant_writers(name, union));
        }
        let mut out = String::from(
            "//! The `…Parts` writers, for a writer that has the fields of a result but not its\n\
             //! Rust value (a fast path's places in a text, interned strings): each writes the\n\
             //! layout of that type's writer in `field_writers.rs`. Generated by\n\
             //! tests/generated/fields.rs. Do not edit.\n\n",
        );
        if paths.iter().any(|p: &String| self.unions.values().any(|u| &u.path == p)) {
            out.push_str("use super::field_writers::WriteFields;\n");
        }
        out.push_str("use super::io::Out;\n");
        sort_paths(&mut paths);
        paths.iter().for_each(|path| out.push_str(&format!("use {path};\n")));
        out.push_str(
            "\n/// A field of a `…Parts` writer that is not a plain value: a string, or what writes\n\
             /// the field.\n\
             pub trait Part {\n    fn put(self, out: &mut Out<'_>);\n}\n\n\
             impl Part for &str {\n    fn put(self, out: &mut Out<'_>) {\n        out.string(self);\n    }\n}\n\n\
             impl<F: FnOnce(&mut Out<'_>)> Part for F {\n    fn put(self, out: &mut Out<'_>) {\n        self(out);\n    }\n}\n\n\
             /// A key a `…Parts` writer may leave out.\n\
             pub enum Key<P> {\n    Absent,\n    Given(P),\n    /// Given as `undefined`, which zod keeps.\n    Undefined,\n}\n\n\
             impl<P: Part> Key<P> {\n    /// 0 (left out), 1 then the value, or 2 (`undefined`).\n    fn put(self, out: &mut Out<'_>) {\n        \
             match self {\n            Key::Absent => out.number(0),\n            Key::Given(value) => {\n                out.number(1);\n                value.put(out);\n            }\n            \
             Key::Undefined => out.number(2),\n        }\n    }\n}\n\n\
             /// A flag, then the value if there is one.\n\
             fn optional<P: Part>(out: &mut Out<'_>, value: Option<P>) {\n    out.flag(value.is_some());\n    if let Some(value) = value {\n        value.put(out);\n    }\n}\n",
        );
        out + &body
    }

    /// `impl WriteFields` for a struct.
    fn struct_writer(&self, name: &str, declared: &Struct) -> String {
        let mut out = format!(
            "\n/// `{name}`.\nimpl WriteFields for {}{} {{\n    fn write(&self, out: &mut Out<'_>) {{\n",
            short(&declared.path),
            declared.generics
        );
        let field = |key: &str| {
            declared.renamed.iter().find(|(json, _)| *json == key).map_or_else(|| snake(key), |(_, f)| f.to_string())
        };
        for (key, property, required) in properties(&declared.schema) {
            if declared.ending == Some(key.as_str()) {
                continue;
            }
            let place = Place { by_ref: format!("&self.{}", field(key)), by_value: format!("self.{}", field(key)) };
            let kind = self.kind(property);
            let kind = if required { kind } else { Kind::Optional(Box::new(kind)) };
            if let Some(statement) = self.statement(&place, &kind, "        ") {
                out.push_str(&format!("        {statement}\n"));
            }
        }
        if let Some(ending) = declared.ending {
            out.push_str(&format!("        out.last_string(&self.{});\n", field(ending)));
        }
        out.push_str("    }\n}\n");
        out
    }

    /// `…Parts`: the struct's fields, values where they are plain and [`Part`]s where not,
    /// and the writer that writes them in order (the union's index first, when the struct
    /// is a union's variant).
    fn parts_writer(&self, name: &str, declared: &Struct, paths: &mut Vec<String>) -> String {
        let (mut members, mut generics, mut body) = (Vec::new(), Vec::new(), Vec::new());
        if let Some((index, union)) = self.member_of(name) {
            body.push(format!("out.number({index}); // its variant of `{union}`"));
        }
        for (key, property, required) in properties(&declared.schema) {
            let field = snake(key);
            let kind = self.kind(property);
            let place = Place { by_ref: format!("self.{field}"), by_value: format!("self.{field}") };
            let plain = match &kind {
                Kind::Const(_) => continue,
                Kind::Boolean => Some("bool".to_owned()),
                Kind::Number => Some("u32".to_owned()),
                Kind::Float => Some("f64".to_owned()),
                Kind::Enum(name) => Some(self.enums[name].0.clone()),
                Kind::Union(name) => Some(self.unions[name].path.clone()),
                _ => None,
            };
            let plain = plain.map(|ty| match ty.contains("::") {
                true => {
                    paths.push(ty.clone());
                    short(&ty).to_owned()
                }
                false => ty,
            });
            let (ty, write) = match (plain, required, kind) {
                (Some(ty), true, kind) => (ty, self.statement(&place, &kind, "        ").unwrap()),
                (None, true, Kind::Optional(_)) => {
                    let part = format!("{}Part", pascal(&field));
                    generics.push(part.clone());
                    (format!("Option<{part}>"), format!("optional(out, self.{field});"))
                }
                (None, true, _) => {
                    let part = format!("{}Part", pascal(&field));
                    generics.push(part.clone());
                    (part, format!("self.{field}.put(out);"))
                }
                (None, false, _) => {
                    let part = format!("{}Part", pascal(&field));
                    generics.push(part.clone());
                    (format!("Key<{part}>"), format!("self.{field}.put(out);"))
                }
                (Some(_), false, kind) => panic!("a plain key that may be left out: {kind:?}"),
            };
            members.push(format!("    pub {field}: {ty},"));
            body.push(write);
        }
        let params = if generics.is_empty() { String::new() } else { format!("<{}>", generics.join(", ")) };
        let bounds: Vec<String> = generics.iter().map(|g| format!("{g}: Part")).collect();
        let bounds = if bounds.is_empty() { String::new() } else { format!("<{}>", bounds.join(", ")) };
        let body: Vec<String> = body.iter().map(|line| format!("        {line}\n")).collect();
        format!(
            "\n/// `{name}`'s fields, for a writer that has them but no `{name}` value.\n\
             pub struct {name}Parts{params} {{\n{}\n}}\n\n\
             impl{bounds} {name}Parts{params} {{\n    pub fn write(self, out: &mut Out<'_>) {{\n{}    }}\n}}\n",
            members.join("\n"),
            body.concat()
        )
    }

    /// The union `name` is a variant of, and its index there.
    fn member_of(&self, name: &str) -> Option<(usize, &str)> {
        let mut found = self.unions.iter().filter_map(|(union_name, union)| {
            let index = union.variants.iter().position(|(_, schema)| reference(schema) == Some(name))?;
            Some((index, union_name.as_str()))
        });
        let first = found.next();
        assert!(found.next().is_none(), "{name} is a variant of two unions");
        first
    }

    /// `impl WriteFields` for a union.
    fn union_writer(&self, name: &str, union: &Union) -> String {
        let ty = short(&union.path);
        let mut out = format!(
            "\n/// `{name}`: its variant's index, then the variant.\nimpl WriteFields for {ty} {{\n    fn write(&self, out: &mut Out<'_>) {{\n        match self {{\n"
        );
        for (index, (variant, schema)) in union.variants.iter().enumerate() {
            let place = Place { by_ref: "value".into(), by_value: "*value".into() };
            match self.statement(&place, &self.kind(schema), "                ") {
                None => out.push_str(&format!("            {ty}::{variant}(_) => out.number({index}),\n")),
                Some(write) => out.push_str(&format!(
                    "            {ty}::{variant}(value) => {{\n                out.number({index});\n                {write}\n            }}\n"
                )),
            }
        }
        out.push_str("        }\n    }\n}\n");
        out
    }

    /// A writer per variant of a union (of scalars), for a `…Parts` writer's caller.
    fn variant_writers(&self, name: &str, union: &Union) -> String {
        let ty = short(&union.path);
        let mut out = String::new();
        for (index, (variant, schema)) in union.variants.iter().enumerate() {
            let (param, write) = match self.kind(schema) {
                Kind::String => ("impl Part", "value.put(out);"),
                Kind::Number => ("u32", "out.number(value);"),
                other => panic!("no variant writer for {other:?}"),
            };
            out.push_str(&format!(
                "\n/// `{ty}::{variant}`, as a `{name}`.\npub fn {}_{}(out: &mut Out<'_>, value: {param}) {{\n    out.number({index});\n    {write}\n}}\n",
                snake(name).trim_start_matches('_'),
                snake(variant).trim_start_matches('_')
            ));
        }
        out
    }

    /// [`Fields::statement`] for a kind that is written.
    fn write(&self, place: &Place, kind: &Kind, indent: &str) -> String {
        self.statement(place, kind, indent).expect("a value that is written")
    }

    /// The statement writing `place`, of kind `kind`, at `indent` (none for a constant).
    fn statement(&self, place: &Place, kind: &Kind, indent: &str) -> Option<String> {
        let (by_ref, by_value) = (&place.by_ref, &place.by_value);
        Some(match kind {
            Kind::Const(_) => return None,
            Kind::String => format!("out.string({by_ref});"),
            Kind::Boolean => format!("out.flag({by_value});"),
            Kind::Number => format!("out.number({by_value});"),
            Kind::Float => format!("out.float({by_value});"),
            Kind::Json => format!("out.json({by_ref});"),
            Kind::Enum(_) => format!("out.number({by_value} as u32);"),
            // (A method call takes its receiver by reference.)
            Kind::Struct(_) | Kind::Union(_) => format!("{}.write(out);", by_ref.trim_start_matches('&')),
            Kind::List(item) => match item.as_ref() {
                Kind::String => format!("out.strings({by_ref});"),
                Kind::Struct(_) | Kind::Union(_) => format!("list(out, {by_ref});"),
                other => {
                    let each = self.write(&Place { by_ref: "item".into(), by_value: "*item".into() }, other, "");
                    format!(
                        "out.count({}.len());\n{indent}for item in {by_ref} {{\n{indent}    {each}\n{indent}}}",
                        by_ref.trim_start_matches('&')
                    )
                }
            },
            Kind::Optional(inner) => {
                let some = self.write(&Place { by_ref: "value".into(), by_value: "*value".into() }, inner, "");
                format!(
                    "match {by_ref} {{\n{indent}    Some(value) => {{\n{indent}        out.flag(true);\n{indent}        {some}\n{indent}    }}\n{indent}    None => out.flag(false),\n{indent}}}"
                )
            }
        })
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

    /// What a property is, as a field.
    fn kind(&self, schema: &Value) -> Kind {
        if let Some(name) = reference(schema) {
            let name = self.aliases.get(name).map_or(name, String::as_str).to_owned();
            return match (self.structs.contains_key(&name), self.enums.contains_key(&name)) {
                (true, _) => Kind::Struct(name),
                (_, true) => Kind::Enum(name),
                _ if self.unions.contains_key(&name) => Kind::Union(name),
                _ => panic!("{name} crosses as fields inside another result: add it"),
            };
        }
        if let Some(value) = schema.get("const") {
            return Kind::Const(value.clone());
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
            (Some("string"), _) if schema.get("enum").is_none() => Kind::String,
            (Some("boolean"), _) => Kind::Boolean,
            (Some("integer"), Some("uint32")) => Kind::Number,
            (Some("number"), Some("double")) => Kind::Float,
            (Some("array"), _) => Kind::List(Box::new(self.kind(&schema["items"]))),
            (None, _) if schema.as_object().is_some_and(|m| m.keys().all(|k| k == "description")) => Kind::Json,
            _ => panic!("no field layout for {schema}"),
        }
    }
}

/// `paths` as rustfmt orders `use`s (modules before types), each once.
fn sort_paths<P: AsRef<str> + PartialEq>(paths: &mut Vec<P>) {
    paths.sort_by(|a, b| {
        let key = |p: &P| {
            p.as_ref().split("::").map(|s| (s.starts_with(char::is_uppercase), s.to_owned())).collect::<Vec<_>>()
        };
        key(a).cmp(&key(b))
    });
    paths.dedup();
}

/// The name a `$ref` names (`#` is the root, which only a union refers to from inside).
fn reference(schema: &Value) -> Option<&str> {
    schema.get("$ref").and_then(Value::as_str).map(|r| r.rsplit('/').next().unwrap())
}

/// Where a value is, as a reference and as a value.
struct Place {
    by_ref: String,
    by_value: String,
}

/// A schema's properties, in order, each with whether it is required.
fn properties(schema: &Map<String, Value>) -> impl Iterator<Item = (&String, &Value, bool)> {
    let required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let properties = schema["properties"].as_object().unwrap();
    properties.iter().map(move |(key, property)| (key, property, required.contains(&key.as_str())))
}

/// The names of an enum serde writes as strings: `enum`, or `oneOf` of `const`s and `enum`s.
fn enum_names(schema: &Value) -> Option<Vec<String>> {
    let names: Vec<&Value> = match (schema.get("enum"), schema.get("oneOf")) {
        (Some(Value::Array(values)), _) => values.iter().collect(),
        (_, Some(Value::Array(options))) => {
            let mut names = Vec::new();
            for option in options {
                match (option.get("const"), option.get("enum")) {
                    (Some(name), _) => names.push(name),
                    (_, Some(Value::Array(values))) => names.extend(values),
                    _ => return None,
                }
            }
            names
        }
        _ => return None,
    };
    names.into_iter().map(|v| v.as_str().map(str::to_owned)).collect()
}

#[derive(Debug)]
enum Kind {
    /// A value the schema fixes: nothing crosses.
    Const(Value),
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
    /// An untagged enum: its variant's index, then the variant.
    Union(String),
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
