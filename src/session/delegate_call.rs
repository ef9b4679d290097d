//! A delegate call read into a [`Delegation`]: planloop's own shape, or the shapes of
//! the delegate tools agents already have (deepagents' `task`, Claude Code's `Agent`),
//! checked against the session's limits before anything starts.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::{from_value, struct_from_value};
use crate::prompts::delegation::{self, Refusal};
use crate::session::exchange::ToolCallInput;
use crate::validate::compiled;

use super::calls::{invalid_args, validated};
use super::Session;

/// The longest goal, context and criterion a delegation carries.
const GOAL_MAX: usize = 20_000;
const CONTEXT_MAX: usize = 20_000;
const CRITERION_MAX: usize = 500;

/// The arguments of planloop's delegate tool, as the model is offered them.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DelegateArgs {
    /// The task, in full: the sub-agent sees nothing of this conversation.
    #[schemars(length(min = 1, max = GOAL_MAX))]
    pub goal: String,
    /// The id of the todo item the task completes.
    #[serde(default)]
    #[schemars(with = "String", length(max = 40))]
    pub todo_id: Option<String>,
    /// What the sub-agent needs to know: files, findings, constraints.
    #[serde(default)]
    #[schemars(with = "String", length(max = CONTEXT_MAX))]
    pub context: Option<String>,
    /// How to tell the task is done, one criterion each.
    #[serde(default)]
    #[schemars(length(max = 8), inner(length(max = CRITERION_MAX)))]
    pub acceptance: Vec<String>,
}

/// Every delegate call's arguments as they are read: planloop's shape, deepagents'
/// `task` (`description`, `subagent_type`), Claude Code's `Agent` (`description`,
/// `prompt`, `subagent_type`) or an OpenAI Agents agent used as a tool (`input`). Keys of
/// none of them are left out.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DelegateCall {
    #[serde(default)]
    #[schemars(with = "String", length(max = GOAL_MAX))]
    pub goal: Option<String>,
    #[serde(default)]
    #[schemars(with = "String", length(max = 40))]
    pub todo_id: Option<String>,
    #[serde(default)]
    #[schemars(with = "String", length(max = CONTEXT_MAX))]
    pub context: Option<String>,
    #[serde(default)]
    #[schemars(length(max = 8), inner(length(max = CRITERION_MAX)))]
    pub acceptance: Vec<String>,
    #[serde(default)]
    #[schemars(with = "String", length(max = GOAL_MAX))]
    pub description: Option<String>,
    #[serde(default)]
    #[schemars(with = "String", length(max = GOAL_MAX))]
    pub prompt: Option<String>,
    #[serde(default, rename = "subagent_type")]
    #[schemars(with = "String", length(max = 64))]
    pub subagent_type: Option<String>,
    #[serde(default)]
    #[schemars(with = "String", length(max = GOAL_MAX))]
    pub input: Option<String>,
}

struct_from_value!(DelegateCall, "camelCase" {
    goal,
    todo_id,
    context,
    acceptance = Default::default(),
    description,
    prompt,
    subagent_type as "subagent_type",
    input,
});

/// A delegate call the host is to run as a child session (`beginDelegation`), or answer
/// itself like any tool call.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Delegation {
    /// The delegate call's id: the child's capsule answers it.
    #[schemars(length(max = 256))]
    pub call_id: String,
    #[schemars(length(max = 256))]
    pub tool: String,
    /// The child's task.
    #[schemars(length(max = GOAL_MAX))]
    pub goal: String,
    #[schemars(length(max = 8), inner(length(max = CRITERION_MAX)))]
    pub acceptance: Vec<String>,
    /// The child's budget, carved from what the turn has left.
    #[schemars(range(min = 1))]
    pub max_iterations: u32,
    #[schemars(range(min = 1))]
    pub timeout_ms: u32,
    /// The child's depth: 1 for a child of the root.
    #[schemars(range(min = 1, max = 3))]
    pub depth: u32,
    /// A short title, when the call gave one apart from the goal (Claude Code's
    /// `description`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", length(max = GOAL_MAX))]
    pub title: Option<String>,
    /// The kind of sub-agent asked for (`subagent_type`), for a host that has several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", length(max = 64))]
    pub agent: Option<String>,
    /// The parent's todo item it completes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", length(max = 40))]
    pub todo_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", length(max = CONTEXT_MAX))]
    pub context: Option<String>,
}

struct_from_value!(Delegation, "camelCase" {
    call_id,
    tool,
    goal,
    title,
    agent,
    todo_id,
    context,
    acceptance,
    max_iterations,
    timeout_ms,
    depth,
});

fn given(text: Option<String>) -> Option<String> {
    text.filter(|t| !t.trim().is_empty())
}

impl Session {
    /// Whether `name` is a delegate tool of this session.
    pub(super) fn delegates(&self, name: &str) -> bool {
        let options = &self.config.delegation;
        options.enabled && options.tool_names.iter().any(|tool| tool == name)
    }

    /// The delegation `call` asks for, or the reply that refuses it (nothing started).
    pub(super) fn delegation(
        &self,
        call: &ToolCallInput,
        now: f64,
    ) -> crate::error::Result<Result<Delegation, String>> {
        let language = self.config.language;
        let refuse = |why: Refusal<'_>| Ok(Err(delegation::refusal(language, &call.name, why)));
        let args: DelegateCall = match validated(&compiled::DELEGATE_CALL, &call.args, self.decimals)? {
            Ok(value) => from_value(value)?,
            Err(issues) => return Ok(Err(invalid_args(&call.name, issues))),
        };
        // Claude Code's `Agent`: the prompt is the task, the description its title;
        // an agent used as a tool: its input; deepagents' `task`: the description.
        let asked = given(args.goal).or(given(args.prompt)).or(given(args.input));
        let (goal, title) = match (asked, given(args.description)) {
            (Some(goal), title) => (goal, title),
            (None, Some(description)) => (description, None),
            (None, None) => return refuse(Refusal::NoGoal),
        };
        let options = &self.config.delegation;
        let depth = self.depth() + 1;
        if depth > options.max_depth {
            return refuse(Refusal::TooDeep(options.max_depth));
        }
        if self.delegations().len() >= options.max_in_flight as usize {
            return refuse(Refusal::TooMany(options.max_in_flight));
        }
        let todo_id = given(args.todo_id);
        if let Some(id) = &todo_id {
            let todos = self.planner.todos();
            if !todos.iter().any(|t| &t.id == id) {
                let ids: Vec<&str> = todos.iter().map(|t| t.id.as_str()).collect();
                return refuse(Refusal::UnknownTodo(id, &ids.join(", ")));
            }
        }
        // The child's calls count against this turn: it gets what is left, less the
        // parent's own last call, and never more than `maxIterations`.
        let left = self.steps_remaining().saturating_sub(1);
        let max_iterations = options.max_iterations.min(left);
        let time_left = self.time_left(now);
        if max_iterations < 2 || time_left < 1.0 {
            return refuse(Refusal::NoBudget);
        }
        Ok(Ok(Delegation {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            goal,
            title,
            agent: given(args.subagent_type),
            todo_id,
            context: given(args.context),
            acceptance: args.acceptance,
            max_iterations,
            timeout_ms: time_left.min(f64::from(self.config.timeout_ms)) as u32,
            depth,
        }))
    }
}
