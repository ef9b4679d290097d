//! The TypeScript side of the results that cross as fields: the readers in
//! `src/wasm/js/boundary.ts`, one per declared type, each reading what the matching writer
//! in `field_writers.rs` writes, in the key order JSON would give.

use serde_json::Value;

use super::{constant, properties, Fields, Kind, Struct};

impl Fields {
    /// The TypeScript side: `tables` (the JS layer's other generated tables, which name
    /// the API's `types`), then the readers.
    pub fn ts(&self, tables: &str, types: &[String]) -> String {
        let mut names: Vec<&str> = self.structs.iter().filter(|(_, s)| s.typed).map(|(n, _)| n.as_str()).collect();
        names.extend(self.unions.keys().map(String::as_str));
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
        for (name, declared) in &self.structs {
            let returns = if declared.typed { format!(": {name}") } else { String::new() };
            let body = self.read_struct(declared, declared.typed.then_some(name.as_str()));
            out.push_str(&format!("\nexport function read{name}(r: Reader){returns} {{\n{body}}}\n"));
        }
        for (name, union) in &self.unions {
            let mut cases = String::new();
            for (index, (_, schema)) in union.variants.iter().enumerate() {
                let label =
                    if index + 1 == union.variants.len() { "default".to_owned() } else { format!("case {index}") };
                cases.push_str(&format!("    {label}:\n      return {};\n", read(&self.kind(schema))));
            }
            out.push_str(&format!(
                "\nexport function read{name}(r: Reader): {name} {{\n  switch (r.number()) {{\n{cases}  }}\n}}\n"
            ));
        }
        for (_, _, tag, schema) in &self.variants {
            let name = format!("read{}{}", tag[..1].to_uppercase(), &tag[1..]);
            let members: Vec<String> = properties(schema)
                .map(|(key, property, _)| match key.as_str() {
                    "type" => format!("type: \"{tag}\""),
                    _ => format!("{key}: {}", read(&self.kind(property))),
                })
                .collect();
            out.push_str(&format!(
                "\nexport function {name}(r: Reader): Decision {{\n  return {{ {} }};\n}}\n",
                members.join(", ")
            ));
        }
        out
    }

    /// A reader's body: an object literal of the properties in order (the ending read
    /// after the rest, into the place JSON gives it), then the keys that may be left out.
    /// `typed` names the type the object is declared as (when its keys are added).
    fn read_struct(&self, declared: &Struct, typed: Option<&str>) -> String {
        let mut body = String::new();
        let (mut members, mut keys) = (Vec::new(), Vec::new());
        for (key, property, required) in properties(&declared.schema) {
            let kind = self.kind(property);
            if !required {
                keys.push(format!("  r.key((r) => {}, (given) => (o.{key} = given));\n", read(&kind)));
                continue;
            }
            assert!(keys.is_empty(), "{key} comes after a key that may be left out: the key order would change");
            match declared.ending {
                Some(ending) if ending == key => members.push(format!("{key}: r.lastString()")),
                // (Read before the ending, which is written last.)
                Some(_) => {
                    body.push_str(&format!("  const {key} = {};\n", read(&kind)));
                    members.push(key.clone());
                }
                None => members.push(format!("{key}: {}", read(&kind))),
            }
        }
        let literal = if members.is_empty() { "{}".to_owned() } else { format!("{{ {} }}", members.join(", ")) };
        if keys.is_empty() {
            return format!("{body}  return {literal};\n");
        }
        let declared_as = typed.map_or_else(String::new, |name| format!(": {name}"));
        format!("{body}  const o{declared_as} = {literal};\n{}  return o;\n", keys.concat())
    }

    /// The reader of an operation's result, whose root schema is `schema`.
    pub fn result_reader(&self, schema: &Value) -> String {
        let title = schema.get("title").and_then(Value::as_str);
        match title.filter(|name| self.structs.contains_key(*name)) {
            Some(name) => format!("read{name}"),
            None => format!("(r: Reader) => {}", read(&self.kind(schema))),
        }
    }
}

fn read(kind: &Kind) -> String {
    match kind {
        Kind::Const(value) => value.to_string(),
        Kind::String => "r.string()".into(),
        Kind::Boolean => "r.flag()".into(),
        Kind::Number => "r.number()".into(),
        Kind::Float => "r.float()".into(),
        Kind::Json => "r.json()".into(),
        Kind::Enum(name) => format!("{}[r.number()]!", constant(name)),
        Kind::Struct(name) | Kind::Union(name) => format!("read{name}(r)"),
        Kind::List(item) => match item.as_ref() {
            Kind::String => "r.strings()".into(),
            Kind::Struct(name) | Kind::Union(name) => format!("r.list(read{name})"),
            other => format!("r.list((r) => {})", read(other)),
        },
        Kind::Optional(inner) => format!("r.flag() ? {} : null", read(inner)),
    }
}
