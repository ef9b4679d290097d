//! The turn in progress, as a snapshot carries it: its counters, the calls it awaits,
//! the rejections it will hand out and the time it spent waiting for the user.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::{enum_from_value, struct_from_value};
use crate::json::value::Value;
use crate::plan::dialects::TodoDialect;
use crate::session::delegate_call::Delegation;
use crate::session::evidence::{ITEMS_KEPT, OBSERVATION_KEPT};
use crate::session::exchange::{ToolMessage, TEXT_MAX};
use crate::session::goal::Goal;

/// A call handed to the host, waiting for its result.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "PendingCall")]
pub struct Pending {
    pub(crate) id: String,
    pub(crate) name: String,
    /// The tool and its arguments as text, to recognise a repeated call.
    pub(crate) signature: String,
    /// It ran after the user approved it: its result is written in seed 002's format.
    pub(crate) approved: bool,
    pub(crate) answered: bool,
    /// A todo call the host's own tool answers (`todoMode: "observe"`), to follow once
    /// its result is in.
    #[serde(default)]
    pub(crate) observed: Option<Observed>,
    /// A delegate call: the delegation it became, to run as a sub-agent. (Absent from
    /// snapshots before 1.3.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Delegation")]
    pub(crate) delegation: Option<Delegation>,
    /// The todo items in progress where the call stood in its reply, whose evidence its
    /// result is; when none were, those in progress as the result comes in. (Absent when
    /// none, and before 1.4.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = ITEMS_KEPT), inner(length(max = 40)))]
    pub(crate) items: Vec<String>,
}

struct_from_value!(Pending, "camelCase" {
    id,
    name,
    signature,
    approved,
    answered,
    observed,
    delegation,
    items = Default::default(),
});

/// A todo call of another agent's tool, and its dialect.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Observed {
    pub(crate) dialect: TodoDialect,
    pub(crate) args: Value<'static>,
}

struct_from_value!(Observed { dialect, args });

/// The turn in progress (or the last one), as a snapshot carries it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "SnapshotTurn")]
pub struct Turn {
    pub(crate) number: u32,
    pub(crate) message: String,
    pub(crate) started_at: f64,
    pub(crate) iterations: u32,
    /// Nudges so far (plan continuations, empty replies, CONTINUE signals, stuck text).
    pub(crate) continuations: u32,
    pub(crate) stuck_nudges: u32,
    /// Stuck past its nudges: the next response ends the turn.
    pub(crate) stuck_out: bool,
    pub(crate) open: bool,
    #[schemars(length(max = 1024))]
    pub(crate) pending: Vec<Pending>,
    /// A stuck nudge waiting for the last tool message of the batch.
    pub(crate) batch_nudge: Option<String>,
    /// Tool messages for rejected proposals, handed out when the turn resumes.
    #[schemars(length(max = 1024))]
    pub(crate) rejections: Vec<ToolMessage>,
    /// Proposals made in this turn so far: the next one's action id is `act-<turn>-<n+1>`.
    /// (Absent from 1.0 snapshots, which counted the turn's kept proposals instead.)
    #[serde(default)]
    pub(crate) proposed: u32,
    /// When the turn paused for approval, and the time it has waited in all: the user's
    /// time to decide is not the agent's time, so the time limit leaves it out.
    pub(crate) paused_at: Option<f64>,
    pub(crate) waited_ms: f64,
    /// Who sent the message and where, for a plan review.
    pub(crate) user_id: Option<String>,
    pub(crate) chat_id: Option<String>,
    /// The turn's tool calls whose results came in, the last [`RECEIPTS_KEPT`]: what
    /// backs what the turn found. (Absent from 1.0 and 1.1 snapshots.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = RECEIPTS_KEPT))]
    pub(crate) receipts: Vec<Receipt>,
    /// How the turn ended, once it has. (Absent from 1.0 and 1.1 snapshots.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ending: Option<Ending>,
    /// Model calls its sub-agents made: the turn's budget too, but not its responses
    /// (a response's proposals are told by its iteration). Absent when none (and before
    /// 1.3).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub(crate) delegated: u32,
    /// The iteration of the plan's last progress (an item changed status) or of the last
    /// reminder, whichever came later: `reminderMode: "drift"` reminds `reminderInterval`
    /// iterations after it (`"interval"` keeps no count). Absent when 0, the turn's start
    /// (and before 1.4).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub(crate) quiet_since: u32,
    /// Tokens its responses used, and its sub-agents' once their capsules came in.
    /// (Absent when none, and before 1.4.)
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub(crate) input_tokens: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub(crate) output_tokens: u32,
    /// The agent's time in the turn as of its last response, or its end (`progress()`
    /// has no clock). (Absent when none, and before 1.4.)
    #[serde(default, skip_serializing_if = "no_time")]
    #[schemars(range(min = 0))]
    pub(crate) time_ms: f64,
    /// The goal the turn began with, checked when its list is done. (Absent when none,
    /// and before 1.4.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) goal: Option<Goal>,
    /// The answer of a `verifyGoal` decision waiting for the host's verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = TEXT_MAX))]
    pub(crate) held: Option<String>,
    /// Times the model was asked to check the goal (`verify: "nudge"`): once a turn.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub(crate) goal_nudges: u32,
    /// Times the model was asked for the work behind unbacked items: once a turn.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub(crate) evidence_nudges: u32,
    /// Verdicts that found the goal not met.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = 1))]
    pub(crate) goal_unmet: u32,
}

fn no_time(ms: &f64) -> bool {
    *ms == 0.0
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The most receipts a turn keeps.
pub const RECEIPTS_KEPT: usize = 32;
/// The most characters of a turn's last words an [`Ending`] keeps.
pub const LAST_WORDS_KEPT: usize = 4000;

/// A tool call whose result came in: its id, its tool, and whether it succeeded.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Receipt {
    #[schemars(length(max = 256))]
    pub id: String,
    #[schemars(length(max = 256))]
    pub name: String,
    pub ok: bool,
    /// What the result said, as the trail's observation shows it (the start of it).
    /// (Absent before 1.4.)
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[schemars(length(max = OBSERVATION_KEPT))]
    pub observation: String,
}

struct_from_value!(Receipt { id, name, ok, observation = Default::default() });

/// How a turn ended, and its last words: the answer, or the summary of a stop.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Ending {
    pub(crate) how: EndedAs,
    #[schemars(length(max = LAST_WORDS_KEPT))]
    pub(crate) words: String,
}

struct_from_value!(Ending, "camelCase" { how, words });

/// Which decision ended a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum EndedAs {
    /// `finalize`.
    Finalized,
    /// `pause`, at a limit.
    Paused,
    /// `fail`, at a limit.
    Failed,
}

enum_from_value!(EndedAs, "camelCase" [Finalized, Paused, Failed]);

struct_from_value!(Turn, "camelCase" {
    number,
    message,
    started_at,
    iterations,
    continuations,
    stuck_nudges,
    stuck_out,
    open,
    pending,
    batch_nudge,
    rejections,
    proposed = Default::default(),
    paused_at,
    waited_ms,
    user_id,
    chat_id,
    receipts = Default::default(),
    ending,
    delegated = Default::default(),
    quiet_since = Default::default(),
    input_tokens = Default::default(),
    output_tokens = Default::default(),
    time_ms = Default::default(),
    goal,
    held,
    goal_nudges = Default::default(),
    evidence_nudges = Default::default(),
    goal_unmet = Default::default(),
});

impl Turn {
    /// The model calls the turn has used of its budget: its own responses and its
    /// sub-agents'.
    pub(crate) fn used(&self) -> u32 {
        self.iterations.saturating_add(self.delegated)
    }

    /// The agent's time in this turn: since it started, less the time spent waiting for
    /// approvals.
    pub(crate) fn elapsed(&self, now: f64) -> f64 {
        let waiting = self.paused_at.map_or(0.0, |at| span(at, now));
        span(self.started_at, now) - self.waited_ms - waiting
    }
}

/// The time from `from` to `to`, none if `to` comes first, and finite however far apart
/// the two are (times come from the host: two finite ones can be more than `f64::MAX`
/// apart, and an infinite sum would not survive a snapshot).
pub(crate) fn span(from: f64, to: f64) -> f64 {
    (to - from).clamp(0.0, f64::MAX)
}
