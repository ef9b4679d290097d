//! Validation of host values against planloop's JSON Schemas, with zod 4's semantics.
//!
//! The schemas are generated from the Rust types by schemars and compiled to Rust
//! statics at build time (`compiled.rs`, by `tests/generated.rs`), so the JSON Schema an
//! LLM API receives, the TypeScript types, and what this module accepts all come from
//! one definition, and no schema is parsed at run time. This module validates the way
//! zod 4's `safeParse` does:
//! properties in schema order, unknown keys stripped (or reported, for strict objects),
//! strings measured in code points, an array over its `maxItems` reported alone,
//! length checks applied even to values of the wrong type when they have a `length`, and
//! records (`additionalProperties` with a schema) read as `z.record(z.string(), T)` reads
//! them.

use std::borrow::Cow;
use std::mem;

use crate::error::issue::{Expected, Issue, Origin, PathSegment};
use crate::error::Result;
use crate::json::decimals::Decimals;
use crate::json::from_value::{FromValue, Mismatch};
use crate::json::value::Value;
use crate::validate::input::{Input, Kind, Unread};

/// A compiled schema: the subset of JSON Schema planloop's types produce.
#[derive(Debug)]
pub enum Schema {
    Object {
        properties: &'static [Property],
        strict: bool,
    },
    /// An object used as a map (`additionalProperties: <schema>`, no `properties`): zod's
    /// `z.record(z.string(), values)`.
    Record(&'static Schema),
    Array {
        items: &'static Schema,
        min_items: Option<f64>,
        max_items: Option<f64>,
    },
    String {
        min_length: Option<f64>,
        max_length: Option<f64>,
    },
    /// A string out of a fixed set (`enum`, or `const` with one value).
    Enum(&'static [&'static str]),
    Number {
        integer: bool,
        minimum: Option<f64>,
        maximum: Option<f64>,
    },
    Boolean,
    Null,
    /// `type: [T, "null"]`.
    Nullable(&'static Schema),
    AnyOf(&'static [Schema]),
    /// Any value (`{}` in JSON Schema), copied as it is, within [`ANY_MAX_DEPTH`] and
    /// [`ANY_MAX_NODES`].
    Any,
}

/// How deep a value of schema `{}` may nest.
pub const ANY_MAX_DEPTH: usize = 64;
/// How many values a value of schema `{}` may hold in all.
pub const ANY_MAX_NODES: usize = 100_000;
/// How many items an array whose schema sets no `maxItems` may hold.
pub const ARRAY_MAX_ITEMS: usize = 100_000;

/// Whether `value` is plain JSON well inside a schema `{}`'s limits: then checking it
/// against `{}`, which copies it, can find nothing, and a caller holding a value already
/// read may skip that. Conservative (a host value, or a value near a limit, says no)
/// and allocation-free.
pub fn plainly_within_any_limits(value: &Value<'_>) -> bool {
    fn walk(value: &Value<'_>, depth: usize, nodes: &mut usize) -> bool {
        *nodes += 1;
        *nodes <= ANY_MAX_NODES
            && match value {
                Value::Host(_) => false,
                Value::Array(items) => depth < ANY_MAX_DEPTH && items.iter().all(|v| walk(v, depth + 1, nodes)),
                Value::Object(members) => {
                    depth < ANY_MAX_DEPTH && members.iter().all(|(_, v)| walk(v, depth + 1, nodes))
                }
                _ => true,
            }
    }
    walk(value, 0, &mut 0)
}

#[derive(Debug)]
pub struct Property {
    pub key: &'static str,
    pub schema: Schema,
    pub required: bool,
}

/// The validated value: unknown keys stripped, strings owned, keys borrowed from the
/// schema.
pub type Parsed<'s> = Value<'s>;

/// Validates `input`, returning the parsed value (unknown keys stripped) or the issues;
/// a `length` given as a decimal string is read with `decimals`.
pub fn validate<'s, 'a, I: Input<'a>>(
    schema: &'s Schema,
    input: I,
    decimals: Decimals,
) -> Result<std::result::Result<Parsed<'s>, Vec<Issue>>> {
    let mut run = Run { path: Vec::new(), issues: Vec::new(), decimals };
    let value = run.check(schema, &input)?;
    Ok(if run.issues.is_empty() { Ok(value) } else { Err(run.issues) })
}

/// Where the validator is, as borrowed keys: an owned path is made only for an issue.
enum Step<'s> {
    Key(&'s str),
    /// A record's key, which comes from the input rather than the schema.
    Entry(String),
    Index(u32),
}

struct Run<'s> {
    path: Vec<Step<'s>>,
    issues: Vec<Issue>,
    decimals: Decimals,
}

impl<'s> Run<'s> {
    fn here(&self) -> Vec<PathSegment> {
        self.path
            .iter()
            .map(|step| match step {
                Step::Key(key) => PathSegment::Key((*key).to_owned()),
                Step::Entry(key) => PathSegment::Key(key.clone()),
                Step::Index(i) => PathSegment::Index(*i),
            })
            .collect()
    }

    fn check<'a, I: Input<'a>>(&mut self, schema: &'s Schema, input: &I) -> Result<Parsed<'s>> {
        match schema {
            Schema::Object { properties, strict } => self.object(properties, *strict, input),
            Schema::Record(values) => self.record(values, input),
            Schema::Array { items, min_items, max_items } => self.array(items, *min_items, *max_items, input),
            Schema::String { min_length, max_length } => self.string(*min_length, *max_length, input),
            Schema::Enum(values) => self.one_of(values, input),
            Schema::Number { integer, minimum, maximum } => self.number(*integer, *minimum, *maximum, input),
            Schema::Boolean => match input.kind() {
                Kind::Boolean => Ok(Value::Bool(input.boolean())),
                _ => self.wrong_type(Expected::Boolean, input),
            },
            Schema::Null => match input.kind() {
                Kind::Null => Ok(Value::Null),
                _ => self.wrong_type(Expected::Null, input),
            },
            Schema::Nullable(inner) => match input.kind() {
                Kind::Null => Ok(Value::Null),
                _ => self.check(inner, input),
            },
            Schema::AnyOf(options) => self.any_of(options, input),
            Schema::Any => self.any(input, 0, &mut 0),
        }
    }

    fn object<'a, I: Input<'a>>(&mut self, properties: &'s [Property], strict: bool, input: &I) -> Result<Parsed<'s>> {
        if input.kind() != Kind::Object {
            return self.wrong_type(Expected::Object, input);
        }
        let mut members = Vec::new();
        for property in properties {
            let present = input.property(property.key)?;
            let is_present = present.is_some();
            let value = present.unwrap_or_else(I::undefined);
            let key = Cow::Borrowed(property.key);
            if !property.required && value.kind() == Kind::Undefined {
                if is_present {
                    members.push((key, Value::Undefined));
                }
                continue;
            }
            self.path.push(Step::Key(property.key));
            let parsed = self.check(&property.schema, &value);
            self.path.pop();
            members.push((key, parsed?));
        }
        if strict {
            let unknown: Vec<String> =
                input.keys()?.into_iter().filter(|key| !properties.iter().any(|p| p.key == key)).collect();
            if !unknown.is_empty() {
                self.issues.push(Issue::unrecognized_keys(unknown, &self.here()));
            }
        }
        Ok(Value::Object(members))
    }

    /// zod's record: a plain object only, its own enumerable keys in order (`__proto__`
    /// skipped, as zod skips it), each value checked with the key in its path.
    fn record<'a, I: Input<'a>>(&mut self, values: &'s Schema, input: &I) -> Result<Parsed<'s>> {
        if !input.is_plain_object()? {
            return self.wrong_type(Expected::Record, input);
        }
        let mut members = Vec::new();
        for (key, value) in input.entries()?.into_iter().filter(|(key, _)| key != "__proto__") {
            self.path.push(Step::Entry(key.clone()));
            let parsed = self.check(values, &value);
            self.path.pop();
            members.push((Cow::Owned(key), parsed?));
        }
        Ok(Value::Object(members))
    }

    fn array<'a, I: Input<'a>>(
        &mut self,
        items: &'s Schema,
        min: Option<f64>,
        max: Option<f64>,
        input: &I,
    ) -> Result<Parsed<'s>> {
        if input.kind() != Kind::Array {
            self.wrong_type(Expected::Array, input)?;
            return self.length_checks(min, max, input);
        }
        let count = input.item_count()?;
        // zod reports an oversized array alone, before reading any element. An array whose
        // schema sets no maximum still has one: a host's sparse `new Array(2 ** 32 - 1)`
        // must not be walked, nor its length allocated.
        let max = max.unwrap_or(ARRAY_MAX_ITEMS as f64);
        if count as f64 > max {
            self.issues.push(Issue::too_big(Origin::Array, max, &self.here()));
            return Ok(Value::Undefined);
        }
        let mut parsed = Vec::with_capacity(count);
        for index in 0..count {
            self.path.push(Step::Index(u32::try_from(index).unwrap_or(u32::MAX)));
            let item = input.item(index).and_then(|item| self.check(items, &item));
            self.path.pop();
            parsed.push(item?);
        }
        self.size_checks(Origin::Array, count as f64, min, None);
        Ok(Value::Array(parsed))
    }

    fn string<'a, I: Input<'a>>(&mut self, min: Option<f64>, max: Option<f64>, input: &I) -> Result<Parsed<'s>> {
        if input.kind() != Kind::String {
            self.wrong_type(Expected::String, input)?;
            return self.length_checks(min, max, input);
        }
        let text = input.text()?;
        // A string has at least a quarter as many characters as bytes and at most as
        // many: they are counted only when that range reaches past a limit.
        let bytes = text.value.len();
        let surely_within =
            min.is_none_or(|min| (bytes / 4) as f64 >= min) && max.is_none_or(|max| bytes as f64 <= max);
        let length = if surely_within { bytes } else { text.value.chars().count() };
        self.size_checks(Origin::String, length as f64, min, max);
        if !text.well_formed {
            self.issues.push(Issue::lone_surrogate(&self.here()));
        }
        Ok(Value::String(Cow::Owned(text.value.into_owned())))
    }

    fn one_of<'a, I: Input<'a>>(&mut self, values: &[&str], input: &I) -> Result<Parsed<'s>> {
        if input.kind() == Kind::String {
            let text = input.text()?;
            if text.well_formed && values.iter().any(|v| *v == text.value) {
                return Ok(Value::String(Cow::Owned(text.value.into_owned())));
            }
        }
        self.issues.push(Issue::invalid_value(values, &self.here()));
        Ok(Value::Undefined)
    }

    fn number<'a, I: Input<'a>>(
        &mut self,
        integer: bool,
        min: Option<f64>,
        max: Option<f64>,
        input: &I,
    ) -> Result<Parsed<'s>> {
        let n = input.number();
        if input.kind() != Kind::Number || !n.is_finite() {
            return self.wrong_type(Expected::Number, input);
        }
        if integer && n.fract() != 0.0 {
            return self.wrong_type(Expected::Int, input);
        }
        if let Some(min) = min.filter(|&min| n < min) {
            self.issues.push(Issue::too_small(Origin::Number, min, &self.here()));
        }
        if let Some(max) = max.filter(|&max| n > max) {
            self.issues.push(Issue::too_big(Origin::Number, max, &self.here()));
        }
        Ok(Value::Number(n))
    }

    /// The first alternative that passes wins; otherwise each one's issues are reported,
    /// with paths relative to the union, as zod does.
    fn any_of<'a, I: Input<'a>>(&mut self, options: &'s [Schema], input: &I) -> Result<Parsed<'s>> {
        let mut errors = Vec::new();
        for option in options {
            let mut alternative = Run { path: Vec::new(), issues: Vec::new(), decimals: self.decimals };
            let value = alternative.check(option, input)?;
            if alternative.issues.is_empty() {
                return Ok(value);
            }
            errors.push(alternative.issues);
        }
        self.issues.push(Issue::invalid_union(errors, &self.here()));
        Ok(Value::Undefined)
    }

    /// A copy of any value, bounded in depth and size (an `args` object from a model).
    fn any<'a, I: Input<'a>>(&mut self, input: &I, depth: usize, nodes: &mut usize) -> Result<Parsed<'s>> {
        *nodes += 1;
        let unread = input.unread();
        let deep = depth > ANY_MAX_DEPTH || unread == Some(Unread::Deep);
        let many = unread == Some(Unread::Many) || (input.kind() == Kind::Array && input.item_count()? > ANY_MAX_NODES);
        if deep || *nodes > ANY_MAX_NODES || many {
            let (limit, what) = if deep { (ANY_MAX_DEPTH, "levels") } else { (ANY_MAX_NODES, "values") };
            self.issues.push(
                Issue::too_big(Origin::Unknown, limit as f64, &self.here())
                    .with_message(&format!("Too big: expected a value of at most {limit} {what}")),
            );
            return Ok(Value::Undefined);
        }
        Ok(match input.kind() {
            Kind::Undefined | Kind::Other => Value::Undefined,
            Kind::Null => Value::Null,
            Kind::Boolean => Value::Bool(input.boolean()),
            Kind::Number => Value::Number(input.number()),
            Kind::String => {
                let text = input.text()?;
                match text.well_formed {
                    true => Value::String(Cow::Owned(text.value.into_owned())),
                    false => Value::IllFormedString(Cow::Owned(text.value.into_owned())),
                }
            }
            Kind::Array => {
                let (mut items, issues) = (Vec::new(), self.issues.len());
                for index in 0..input.item_count()? {
                    items.push(self.any(&input.item(index)?, depth + 1, nodes)?);
                    if self.issues.len() > issues {
                        break;
                    }
                }
                Value::Array(items)
            }
            Kind::Object => {
                let (mut members, issues) = (Vec::new(), self.issues.len());
                for (key, value) in input.entries()? {
                    let copied = self.any(&value, depth + 1, nodes)?;
                    members.push((Cow::Owned(key), copied));
                    if self.issues.len() > issues {
                        break;
                    }
                }
                Value::Object(members)
            }
        })
    }

    /// zod's min/max length checks run on any value that has a `length`, even one that
    /// already failed its type check.
    fn length_checks<'a, I: Input<'a>>(&mut self, min: Option<f64>, max: Option<f64>, input: &I) -> Result<Parsed<'s>> {
        if min.is_none() && max.is_none() {
            return Ok(Value::Undefined);
        }
        if let Some(length) = input.length(self.decimals)? {
            let origin = match input.kind() {
                Kind::String => Origin::String,
                Kind::Array => Origin::Array,
                _ => Origin::Unknown,
            };
            self.size_checks(origin, length, min, max);
        }
        Ok(Value::Undefined)
    }

    // Written as zod compares (`!(length >= min)`), so that a NaN length fails both checks.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    fn size_checks(&mut self, origin: Origin, length: f64, min: Option<f64>, max: Option<f64>) {
        if let Some(min) = min.filter(|&min| !(length >= min)) {
            self.issues.push(Issue::too_small(origin, min, &self.here()));
        }
        if let Some(max) = max.filter(|&max| !(length <= max)) {
            self.issues.push(Issue::too_big(origin, max, &self.here()));
        }
    }

    fn wrong_type<'a, I: Input<'a>>(&mut self, expected: Expected, input: &I) -> Result<Parsed<'s>> {
        self.issues.push(Issue::invalid_type(expected, &input.type_name()?, &self.here()));
        Ok(Value::Undefined)
    }
}

/// Any JSON Schema document, for fields that carry one.
pub struct JsonSchemaObject;

impl schemars::JsonSchema for JsonSchemaObject {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "JsonSchema".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A JSON Schema document (draft 2020-12).",
            "type": "object",
            "additionalProperties": true
        })
    }
}

/// A JSON object used as a map, as zod's `z.record(z.string(), T)` reads it: its entries
/// in input order (so issues and output follow what the host wrote), keys unique.
#[derive(Debug, Clone, PartialEq)]
pub struct Record<T>(pub Vec<(String, T)>);

impl<T> Record<T> {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl<T> Default for Record<T> {
    fn default() -> Self {
        Record(Vec::new())
    }
}

impl<T: FromValue> FromValue for Record<T> {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        match value {
            Value::Object(members) => Record(
                members
                    .iter_mut()
                    .map(|(key, value)| (mem::take(key).into_owned(), T::from_value(value, mismatch)))
                    .collect(),
            ),
            _ => {
                mismatch.note("an object");
                Record::default()
            }
        }
    }
}

impl<T: schemars::JsonSchema> schemars::JsonSchema for Record<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Record_of_{}", T::schema_name()).into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "object", "additionalProperties": generator.subschema_for::<T>() })
    }
}

/// A schemars transform for `Option` fields that must be present but may be `null`
/// (`#[schemars(required, transform = nullable)]`).
pub fn nullable(schema: &mut schemars::Schema) {
    if let Some(single) = schema.get("type").cloned() {
        schema.insert("type".to_owned(), serde_json::Value::from(vec![single, "null".into()]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::issue::summarize;

    fn check(schema: &Schema, json: &str) -> std::result::Result<Value<'static>, String> {
        let document = crate::json::parse(json.as_bytes(), Decimals::RUST).unwrap();
        let outcome = validate(schema, &*document, Decimals::RUST).unwrap();
        outcome.map(Value::into_owned).map_err(|issues| summarize(&issues))
    }

    #[test]
    fn a_value_said_plainly_within_limits_passes_any_and_one_near_them_is_checked() {
        let nested = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let wide = |n: usize| format!("[{}]", vec!["0"; n].join(","));
        for (json, plain) in [
            (r#"{"q":"bug","o":{"n":[1,2.5,null,true]}}"#.to_owned(), true),
            (nested(ANY_MAX_DEPTH), true),
            (nested(ANY_MAX_DEPTH + 1), false),
            (wide(ANY_MAX_NODES - 1), true),
            (wide(ANY_MAX_NODES), false),
        ] {
            let document = crate::json::parse(json.as_bytes(), Decimals::RUST).unwrap();
            assert_eq!(plainly_within_any_limits(&document), plain, "{}", &json[..json.len().min(40)]);
            if plain {
                assert!(check(&Schema::Any, &json).is_ok(), "what it passes, {{}} passes");
            }
        }
        assert!(check(&Schema::Any, &nested(ANY_MAX_DEPTH + 2)).is_err(), "just past it, {{}} refuses");
        let host = Value::Host(Box::new(crate::json::value::Host::Cut));
        assert!(!plainly_within_any_limits(&Value::Array(vec![host])));
    }

    #[test]
    fn a_record_checks_each_value_at_its_key_and_keeps_the_input_order() {
        let schema = Schema::Record(&Schema::Boolean);
        assert_eq!(
            check(&schema, r#"{"b": true, "__proto__": 5, "a": false}"#),
            Ok(Value::Object(vec![("b".into(), Value::Bool(true)), ("a".into(), Value::Bool(false))])),
            "zod skips __proto__"
        );
        assert_eq!(
            check(&schema, r#"{"z": 1, "a": true, "b": "no"}"#),
            Err("z: Invalid input: expected boolean, received number\nb: Invalid input: expected boolean, received string"
                .into())
        );
        assert_eq!(check(&schema, "[]"), Err("Invalid input: expected record, received array".into()));
        assert_eq!(check(&schema, "null"), Err("Invalid input: expected record, received null".into()));
    }
}
