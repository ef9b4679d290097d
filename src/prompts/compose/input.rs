//! What `composePrompt` takes and gives: the host's parts of a prompt (the base prompt,
//! components, toggles, values), the task's plan and budget, and the composed prompt.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::{key, read_or, struct_from_value, Case, Fields, FromValue, Mismatch};
use crate::json::value::Value;
use crate::prompts::Language;
use crate::validate::schema::Record;

/// The schema's limits (in characters) that the raw crossing of the texts checks too.
pub const BASE_MAX: usize = 1_000_000;
pub const COMPONENTS_MAX: usize = 256;
pub const NAME_MAX: usize = 64;
pub const TEXT_MAX: usize = 100_000;
pub const VALUE_MAX: usize = 1_000_000;

/// A component of the user's own, such as house rules or an output format.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PromptComponent {
    /// Lowercase letters, digits and `_`, starting with a letter. A shared component's
    /// name (`core`, `continuation_protocol`, `tool_guidelines`, `output_format`) replaces
    /// planloop's text for it, in its place.
    #[schemars(length(min = 1, max = NAME_MAX))]
    pub name: String,
    /// Used as it is, without a heading of planloop's.
    #[schemars(length(max = TEXT_MAX))]
    pub text: String,
}

struct_from_value!(PromptComponent { name, text });

/// Where the task stands, for seed 001's current-plan block.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct CurrentPlan {
    /// The task, as the user asked for it.
    #[schemars(length(min = 1, max = 10_000))]
    pub goal: String,
    /// The step under way; without one, the model is asked to plan its steps first.
    #[serde(default)]
    #[schemars(length(min = 1, max = 10_000))]
    pub step: Option<String>,
    /// The current step's number, from 1 (with `totalSteps`).
    #[serde(default)]
    #[schemars(with = "u32", range(min = 1, max = 10_000))]
    pub step_number: Option<u32>,
    /// How many steps the plan has (with `stepNumber`).
    #[serde(default)]
    #[schemars(with = "u32", range(min = 1, max = 10_000))]
    pub total_steps: Option<u32>,
}

struct_from_value!(CurrentPlan, "camelCase" { goal, step, step_number, total_steps });

/// The tool rounds left, as a session's `next` reports them.
#[derive(Debug, Clone, Copy, PartialEq, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Budget {
    /// Tool rounds left (at most `total`).
    #[schemars(range(max = 100_000))]
    pub remaining: u32,
    /// Tool rounds in all.
    #[schemars(range(min = 1, max = 100_000))]
    pub total: u32,
    /// Tokens left under a token limit: a session's own prompt shows them (a host
    /// composing its own has `next.budgetLine`).
    #[schemars(skip)]
    pub tokens: Option<u32>,
}

struct_from_value!(Budget { remaining, total, tokens = None });

/// The parts of a prompt the host writes: the base prompt, its components, the toggles
/// and the values. `Session::system_prompt` takes these alone and fills in the rest.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct PromptParts {
    /// The agent's own prompt; it comes first.
    #[schemars(length(max = BASE_MAX))]
    pub base: String,
    /// The user's components, each name once.
    #[serde(default)]
    #[schemars(length(max = COMPONENTS_MAX))]
    pub components: Vec<PromptComponent>,
    /// Parts on or off by name. On unless set: `core` (which cannot be turned off),
    /// `plan` and `budget` when given, `planner_tools`, `tool_guidelines`,
    /// `output_format` when it has a text, and the user's components. Off unless set:
    /// `continuation_protocol`. A name that is no part is an error.
    #[serde(default)]
    pub features: Record<bool>,
    /// Text for each `{{{key}}}` in the base prompt and the components (each value at
    /// most 1,000,000 characters). Keys without a value stay as written and are listed
    /// in `unresolved`.
    #[serde(default)]
    #[schemars(extend("additionalProperties" = {"type": "string", "maxLength": VALUE_MAX}))]
    pub values: Record<String>,
}

struct_from_value!(PromptParts, "camelCase" {
    base,
    components = Default::default(),
    features = Default::default(),
    values = Default::default(),
});

/// What `composePrompt` takes. Only `base` is required.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct ComposeInput {
    #[serde(flatten)]
    pub parts: PromptParts,
    /// The language of planloop's texts (`"en"` unless set).
    #[serde(default)]
    pub language: Language,
    /// The task and its current step.
    #[serde(default)]
    pub plan: Option<CurrentPlan>,
    /// The tool rounds left, as the last line.
    #[serde(default)]
    pub budget: Option<Budget>,
}

/// `parts` reads the members the other fields leave, as serde's `flatten` does.
impl FromValue for ComposeInput {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        let mut fields = Fields::new(value, mismatch);
        let language = read_or(fields.get(key!(Case::Camel; language)), Language::default, mismatch);
        let plan = Option::from_value(fields.get(key!(Case::Camel; plan)), mismatch);
        let budget = Option::from_value(fields.get(key!(Case::Camel; budget)), mismatch);
        ComposeInput { parts: PromptParts::from_value(&mut fields.rest(), mismatch), language, plan, budget }
    }
}

/// A composed system prompt.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Composed {
    pub prompt: String,
    /// The parts in the prompt, in order: `base` first (unless it is empty).
    pub components: Vec<String>,
    /// The `{{{keys}}}` left in the prompt for want of a value, each once, in order.
    pub unresolved: Vec<String>,
}
