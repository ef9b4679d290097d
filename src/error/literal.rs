//! Types that serialize to one fixed value, so that a union's discriminant (`code`,
//! `success`, `ok`) is a literal type in the generated JSON Schema and TypeScript.

/// Declares a unit struct that serializes as the string `$value`.
macro_rules! code_literal {
    ($name:ident = $value:literal) => {
        #[doc = concat!("The literal `\"", $value, "\"`.")]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct $name;

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str($value)
            }
        }

        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn inline_schema() -> bool {
                true
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "type": "string", "const": $value })
            }
        }
    };
}
pub(crate) use code_literal;

/// A boolean that is always `B`: `{success: true, ...}` versus `{success: false, ...}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flag<const B: bool>;

impl<const B: bool> serde::Serialize for Flag<B> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(B)
    }
}

impl<const B: bool> schemars::JsonSchema for Flag<B> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        if B { "True" } else { "False" }.into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "boolean", "const": B })
    }
}
