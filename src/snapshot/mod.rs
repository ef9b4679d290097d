//! A session saved as one JSON document, and restored from it: the plan survives a
//! restart, a page reload, or a move to another process.
//!
//! `Session::snapshot` writes everything the session needs to go on: the config, the
//! plan tracked from the model's text (in seed 001's `plan.json` shape, under `plan`),
//! the todo list, the recorded plan, the open turn with its counters and awaited calls,
//! the proposals, the reasoning trail and the stuck detector's memory. Undrained events
//! are not kept: drain them first.
//!
//! `Session::restore` fails closed. It refuses a document that is not a planloop
//! session snapshot, one of another major version or a newer minor one, one whose
//! checksum does not match (edited, or cut short), one of the wrong shape, and one whose
//! state breaks an invariant; it builds the session only when every check passed, so
//! nothing is ever half-restored. The checksum (FNV-1a over the document with sorted
//! keys) catches damage and casual edits; it is not a signature.

use std::borrow::Cow;
use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::json;
use crate::json::decimals::Decimals;
use crate::json::from_value::{from_value, struct_from_value};
use crate::json::value::{deeper_than, is_json, key_runs, Value};
use crate::json::write as json_text;
use crate::json::write_string;
use crate::plan::planner::PlannerState;
use crate::plan::recorded::PlanState;
use crate::plan::steps::StepPlan;
use crate::session::approval::{Grant, Proposal, ProposalStatus, MAX_GRANTS};
use crate::session::config::{ReminderMode, SessionConfig, TodoDialect};
use crate::session::continuation::ReportedProgress;
use crate::session::delegation::{Child, Link};
use crate::session::evidence::{ItemEvidence, ITEMS_KEPT};
use crate::session::exchange::MAX_TOOL_CALLS;
use crate::session::ledger::Tally;
use crate::session::review::PlanReview;
use crate::session::stuck::StuckDetector;
use crate::session::{Session, Turn, PROPOSALS_KEPT};
use crate::sort::sort_by;
use crate::text::{self, fingerprint::fnv1a};
use crate::trail::reasoning::ReasoningLog;
use crate::validate::compiled;
use crate::validate::schema::{self, ANY_MAX_DEPTH};

/// What every snapshot says it is.
pub const FORMAT: &str = "planloop.session";
/// The version this planloop writes; it reads `1.x` up to this minor version.
pub const VERSION: (u32, u32) = (1, 4);

/// How deep sub-agents nest at most (`delegation.maxDepth`'s own limit).
pub const MAX_DELEGATION_DEPTH: usize = 3;

/// How deep a snapshot nests at most: a proposal's arguments, themselves at most
/// [`ANY_MAX_DEPTH`] deep, sit a few levels below the root.
pub const MAX_DEPTH: usize = ANY_MAX_DEPTH + 16;

/// Everything a session needs to go on, as plain data.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionSnapshot {
    /// Always `"planloop.session"`.
    pub format: String,
    /// `"major.minor"` of the snapshot format.
    pub version: String,
    /// FNV-1a (16 hex digits) of the rest of the document, keys sorted.
    #[schemars(length(min = 16, max = 16))]
    pub checksum: String,
    pub config: SessionConfig,
    /// The plan tracked from the model's text, in seed 001's `plan.json` shape.
    pub plan: Option<StepPlan>,
    /// The todo list and the planner-overuse guard.
    pub planner: PlannerState,
    /// The plan recorded with the `plan` tool.
    pub recorded_plan: Option<PlanState>,
    /// The todo tool the model used last.
    pub todo_tool: TodoDialect,
    /// Turns begun so far.
    pub turns: u32,
    /// The open turn (or the last one), with its counters and awaited calls.
    pub turn: Option<Turn>,
    /// Proposals, newest last.
    #[schemars(length(max = PROPOSALS_KEPT))]
    pub proposals: Vec<Proposal>,
    /// Standing approvals (`scope: "always"`).
    #[schemars(length(max = MAX_GRANTS))]
    pub grants: Vec<Grant>,
    /// A plan review waiting for the user's next message.
    pub pending_review: Option<PlanReview>,
    /// The model's last `continuation.progress`.
    pub reported: Option<ReportedProgress>,
    /// The latest observations, for the context capsule.
    #[schemars(length(max = 8))]
    pub findings: Vec<String>,
    /// The reasoning trail.
    pub reasoning: ReasoningLog,
    /// What the stuck detector remembers.
    pub stuck: StuckDetector,
    /// The delegations a sub-agent's session descends from. (Absent for a session of
    /// its own, and from snapshots before 1.3.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 3))]
    pub lineage: Vec<Link>,
    /// The sub-agents at work on the open turn's delegations, each its own snapshot.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 8))]
    pub children: Vec<ChildSnapshot>,
    /// What the session's closed turns spent. (Absent when nothing, and before 1.4.)
    #[serde(default, skip_serializing_if = "Tally::is_zero")]
    pub spent: Tally,
    /// The receipts of the items of the todo list. (Absent when none, and before 1.4.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = ITEMS_KEPT))]
    pub evidence: Vec<ItemEvidence>,
}

/// A sub-agent in a snapshot: its delegate call, and its own snapshot as JSON text
/// (checked as any snapshot is when it is restored).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChildSnapshot {
    #[schemars(length(max = 256))]
    pub call_id: String,
    pub snapshot: String,
}

struct_from_value!(ChildSnapshot, "camelCase" { call_id, snapshot });

struct_from_value!(SessionSnapshot, "camelCase" {
    format,
    version,
    checksum,
    config,
    plan,
    planner,
    recorded_plan,
    todo_tool,
    turns,
    turn,
    proposals,
    grants,
    pending_review,
    reported,
    findings,
    reasoning,
    stuck,
    lineage = Default::default(),
    children = Default::default(),
    spent = Default::default(),
    evidence = Default::default(),
});

impl ChildSnapshot {
    fn of(child: &Child) -> Result<ChildSnapshot> {
        Ok(ChildSnapshot { call_id: child.call_id.clone(), snapshot: child.session.snapshot_json()? })
    }
}

impl SessionSnapshot {
    /// The snapshot as JSON text, for a file or a key-value store, its decimal numbers
    /// written with `decimals`.
    pub fn to_json(&self, decimals: Decimals) -> Result<String> {
        Ok(json_text::to_string(self, decimals))
    }
}

impl Session {
    /// The session as a snapshot document (see the module docs).
    pub fn snapshot(&self) -> Result<SessionSnapshot> {
        Ok(self.written()?.0)
    }

    /// [`Session::snapshot`] as JSON text, as [`SessionSnapshot::to_json`] writes it
    /// (written once: what a host saves after every step).
    pub fn snapshot_json(&self) -> Result<String> {
        Ok(self.written()?.1)
    }

    /// The snapshot, and its JSON text. The checksum covers the document as written: it
    /// is written with a placeholder checksum of the same length (which the checksum
    /// leaves out), read back and summed, and the sum put in the placeholder's place.
    fn written(&self) -> Result<(SessionSnapshot, String)> {
        const PLACEHOLDER: &str = "0000000000000000";
        let version = format!("{}.{}", VERSION.0, VERSION.1);
        let mut snapshot = SessionSnapshot {
            format: FORMAT.to_owned(),
            version: version.clone(),
            checksum: PLACEHOLDER.to_owned(),
            config: self.config.clone(),
            plan: self.step_plan.clone(),
            planner: self.planner.clone(),
            recorded_plan: self.plan.clone(),
            todo_tool: self.todo_tool,
            turns: self.turns,
            turn: self.turn.clone(),
            proposals: self.proposals.iter().cloned().collect(),
            grants: self.grants.clone(),
            pending_review: self.pending_review.clone(),
            reported: self.reported.clone(),
            findings: self.findings.iter().cloned().collect(),
            reasoning: self.log.clone(),
            stuck: self.stuck.clone(),
            lineage: self.lineage.clone(),
            children: self.children.iter().map(ChildSnapshot::of).collect::<Result<_>>()?,
            spent: self.spent,
            evidence: self.evidence.clone(),
        };
        let mut text = json_text::to_string(&snapshot, self.decimals);
        let document = json::parse(text.as_bytes(), self.decimals).map_err(|e| Error::internal(&e.message))?;
        // Parsed from what was just written: JSON as it is.
        snapshot.checksum = json_checksum(&document, self.decimals);
        drop(document);
        // The first three members are the format, the version and the checksum, in that order.
        let head = ["{\"format\":\"", FORMAT, "\",\"version\":\"", &version, "\",\"checksum\":\""].concat();
        if !text.starts_with(&head) || text.get(head.len()..head.len() + PLACEHOLDER.len()) != Some(PLACEHOLDER) {
            return Err(Error::internal("a snapshot written without its checksum first"));
        }
        text.replace_range(head.len()..head.len() + PLACEHOLDER.len(), &snapshot.checksum);
        Ok((snapshot, text))
    }

    /// A session from a snapshot document, or an `invalid_snapshot` error; it reads and
    /// writes decimal numbers as Rust does.
    pub fn restore(document: &Value<'_>) -> Result<Session> {
        Session::restore_with_decimals(document, Decimals::RUST)
    }

    /// [`Session::restore`], for a session that reads and writes decimal numbers with
    /// `decimals`.
    pub fn restore_with_decimals(document: &Value<'_>, decimals: Decimals) -> Result<Session> {
        Session::restore_at(document, decimals, 0)
    }

    /// [`Session::restore_with_decimals`] for a session `depth` delegations below the
    /// document's root: its children are restored one level further down, at most
    /// [`MAX_DELEGATION_DEPTH`] (so a document nesting children deeper is refused however
    /// its lineages read).
    fn restore_at(document: &Value<'_>, decimals: Decimals, depth: usize) -> Result<Session> {
        check_header(document)?;
        // Before anything walks it recursively (the checksum, the shape check).
        if deeper_than(document, MAX_DEPTH) {
            let why = format!("it nests deeper than a snapshot can ({MAX_DEPTH} levels)");
            return Err(Error::invalid_snapshot(&why, None));
        }
        let written = document.get("checksum").and_then(Value::as_str).unwrap_or_default();
        if written != checksum(document, decimals) {
            return Err(Error::invalid_snapshot(
                "its checksum does not match its content: it was changed or cut short after it was written",
                None,
            ));
        }
        let valid = match schema::validate(&compiled::SESSION_SNAPSHOT, document, decimals)? {
            Ok(value) => value,
            Err(issues) => {
                return Err(Error::invalid_snapshot("it does not have the shape of a snapshot", Some(issues)))
            }
        };
        // Written before `reminderMode` was (1.3 and older): the session reminded on the
        // interval, and goes on as it ran.
        let interval = valid.get("config").and_then(|c| c.get("reminderMode")).is_none();
        let mut snapshot: SessionSnapshot = from_value(valid)?;
        if interval {
            snapshot.config.reminder_mode = ReminderMode::Interval;
        }
        if !snapshot.children.is_empty() && depth >= MAX_DELEGATION_DEPTH {
            let why = format!("its sub-agents nest deeper than {MAX_DELEGATION_DEPTH} levels");
            return Err(Error::invalid_snapshot(&why, None));
        }
        let mut children = Vec::with_capacity(snapshot.children.len());
        for child in std::mem::take(&mut snapshot.children) {
            let restored = Session::restore_json_at(&child.snapshot, decimals, depth + 1);
            let session = restored.map_err(|e| of_child(e, &child.call_id))?;
            children.push(Child { call_id: child.call_id, session });
        }
        let mut session = Session::from_snapshot(snapshot, decimals);
        session.children = children;
        if let Some(why) = session.inconsistency() {
            return Err(Error::invalid_snapshot(&format!("its state is inconsistent: {why}"), None));
        }
        Ok(session)
    }

    /// A session from JSON text, as [`Session::restore`] (a cut-off text is refused).
    pub fn restore_json(text: &str) -> Result<Session> {
        Session::restore_json_with_decimals(text, Decimals::RUST)
    }

    /// [`Session::restore_json`], for a session that reads and writes decimal numbers
    /// with `decimals`.
    pub fn restore_json_with_decimals(text: &str, decimals: Decimals) -> Result<Session> {
        Session::restore_json_at(text, decimals, 0)
    }

    /// [`Session::restore_json_with_decimals`] for a session `depth` delegations down.
    fn restore_json_at(text: &str, decimals: Decimals, depth: usize) -> Result<Session> {
        let document = json::parse(text.as_bytes(), decimals)
            .map_err(|e| Error::invalid_snapshot(&format!("it is not JSON ({} at {})", e.message, e.position), None))?;
        Session::restore_at(&document, decimals, depth)
    }

    fn from_snapshot(s: SessionSnapshot, decimals: Decimals) -> Session {
        Session {
            config: s.config,
            planner: s.planner,
            plan: s.recorded_plan,
            step_plan: s.plan,
            todo_tool: s.todo_tool,
            log: s.reasoning,
            stuck: s.stuck,
            events: VecDeque::new(),
            turns: s.turns,
            turn: s.turn.map(|mut turn| {
                // A 1.0 snapshot did not count the turn's proposals: they are all still kept.
                if turn.proposed == 0 {
                    turn.proposed = s.proposals.iter().filter(|p| p.turn == turn.number).count() as u32;
                }
                turn
            }),
            reported: s.reported,
            findings: s.findings.into(),
            proposals: s.proposals.into(),
            grants: s.grants,
            pending_review: s.pending_review,
            lineage: s.lineage,
            children: Vec::new(),
            decimals,
            spent: s.spent,
            evidence: s.evidence,
        }
    }

    /// Why this state could not have come from a session, if it could not.
    fn inconsistency(&self) -> Option<String> {
        let fresh = Session::with_decimals(self.config.clone(), self.decimals);
        if !self.planner.same_settings(&fresh.planner) || self.log.options != fresh.log.options {
            return Some("the planner or trail settings differ from the config".to_owned());
        }
        if self.stuck.options != fresh.stuck.options {
            return Some("the stuck settings differ from the config".to_owned());
        }
        if let Some((a, b)) = TodoDialect::clash(&self.config.todo_dialects) {
            return Some(format!("two todo dialects answer {}: {} and {}", a.tool_name(), a.as_str(), b.as_str()));
        }
        if let Some(why) = self.step_plan.as_ref().and_then(StepPlan::inconsistency) {
            return Some(format!("plan: {why}"));
        }
        if self.planner.snapshot().revision == 0 && !self.planner.todos().is_empty() {
            return Some("todos exist at revision 0".to_owned());
        }
        if let Some(why) = self.turn.as_ref().and_then(|turn| self.turn_inconsistency(turn)) {
            return Some(format!("turn: {why}"));
        }
        if repeats(self.proposals.iter().map(|p| p.action_id.as_str())) {
            return Some("two proposals share an action id".to_owned());
        }
        if self.proposals.iter().any(|p| p.turn == 0 || p.turn > self.turns) {
            return Some("a proposal belongs to a turn that never began".to_owned());
        }
        if self.proposals.iter().any(|p| p.chain != self.lineage) {
            return Some("a proposal's chain is not the session's lineage".to_owned());
        }
        let listed = |e: &ItemEvidence| self.planner.todos().iter().any(|t| t.id == e.todo_id);
        if repeats(self.evidence.iter().map(|e| e.todo_id.as_str())) || !self.evidence.iter().all(listed) {
            return Some("evidence is kept twice for an item, or for one not on the list".to_owned());
        }
        self.children_inconsistency().map(str::to_owned)
    }

    /// Why this session's children could not be its own, if they could not: each works
    /// on an unanswered delegation of the open turn, one child each, no more than
    /// `maxInFlight`, with the lineage, tool policy and budget its delegation gave it.
    fn children_inconsistency(&self) -> Option<&'static str> {
        if self.depth() > self.config.delegation.max_depth {
            return Some("its lineage is deeper than maxDepth");
        }
        if self.children.len() > self.config.delegation.max_in_flight as usize {
            return Some("more sub-agents are at work than maxInFlight allows");
        }
        if repeats(self.children.iter().map(|c| c.call_id.as_str())) {
            return Some("two sub-agents work on one delegation");
        }
        let delegations = self.delegations();
        for child in &self.children {
            let Some(delegation) = delegations.iter().find(|d| d.call_id == child.call_id) else {
                return Some("a sub-agent works on no waiting delegation");
            };
            let turn = self.turn.as_ref().map_or(0, |t| t.number);
            let link = Link { turn, call_id: child.call_id.clone() };
            if !child.session.lineage.iter().eq(self.lineage.iter().chain([&link])) {
                return Some("a sub-agent's lineage does not lead to its delegation");
            }
            let config = &child.session.config;
            if config.tools != self.config.tools || config.delegation != self.config.delegation {
                return Some("a sub-agent's tool policy differs from its parent's");
            }
            if config.max_iterations > delegation.max_iterations || config.timeout_ms > delegation.timeout_ms {
                return Some("a sub-agent's budget is more than its delegation gave");
            }
        }
        None
    }

    fn turn_inconsistency(&self, turn: &Turn) -> Option<&'static str> {
        if turn.number == 0 || turn.number > self.turns {
            return Some("its number is out of range");
        }
        if turn.used() > self.config.max_iterations {
            return Some("it used more iterations than maxIterations allows");
        }
        if turn.quiet_since > turn.iterations {
            return Some("its plan moved on at an iteration it has not reached");
        }
        if repeats(turn.pending.iter().map(|p| p.id.as_str())) {
            return Some("two awaited calls share an id");
        }
        if self.proposals.iter().filter(|p| p.turn == turn.number).count() > turn.proposed as usize {
            return Some("it kept more proposals than it made");
        }
        if u64::from(turn.proposed) > u64::from(turn.iterations) * MAX_TOOL_CALLS as u64 {
            return Some("it made more proposals than its responses had calls");
        }
        let awaiting = self.proposals.iter().any(|p| p.turn == turn.number && p.status == ProposalStatus::Pending);
        if !turn.open && (!turn.pending.is_empty() || awaiting) {
            return Some("it is closed but still awaits results or approvals");
        }
        if awaiting != turn.paused_at.is_some() {
            return Some("its pause does not match its pending proposals");
        }
        if turn.held.is_some() && (!turn.open || !turn.pending.is_empty() || awaiting || turn.goal.is_none()) {
            return Some("it awaits a verdict on no goal, or while closed or awaiting calls");
        }
        None
    }
}

/// A child's refusal, as its parent's: which sub-agent, and why.
fn of_child(error: Error, call_id: &str) -> Error {
    let why = error.data.detail.unwrap_or(error.message);
    let why = format!("sub-agent {}: {why}", crate::text::cap(call_id, 64));
    Error::invalid_snapshot(&why, error.data.issues)
}

/// Whether any of `ids` comes twice.
fn repeats<'a>(ids: impl Iterator<Item = &'a str>) -> bool {
    let mut ids: Vec<&str> = ids.collect();
    sort_by(&mut ids, |a, b| a < b);
    ids.windows(2).any(|pair| pair[0] == pair[1])
}

/// The format and version checks, first, so the error names the real problem.
fn check_header(document: &Value<'_>) -> Result<()> {
    if !matches!(document, Value::Object(_)) || document.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(Error::invalid_snapshot(
            "it is not a planloop session snapshot (no `format: \"planloop.session\"`)",
            None,
        ));
    }
    let version = document.get("version").and_then(Value::as_str).unwrap_or_default();
    let parsed = version.split_once('.').and_then(|(major, minor)| Some((major.parse().ok()?, minor.parse().ok()?)));
    let (major, minor): (u32, u32) = match parsed {
        Some(version) => version,
        None => {
            let why = format!("its version \"{}\" is not \"major.minor\"", crate::text::cap(version, 40));
            return Err(Error::invalid_snapshot(&why, None));
        }
    };
    let (our_major, our_minor) = VERSION;
    if major != our_major {
        let why = format!("it is format version {major}.{minor}; this planloop reads {our_major}.x");
        return Err(Error::invalid_snapshot(&why, None));
    }
    if minor > our_minor {
        let why = format!(
            "it was written by a newer planloop (format {major}.{minor}; this one reads up to {our_major}.{our_minor})"
        );
        return Err(Error::invalid_snapshot(&why, None));
    }
    Ok(())
}

/// FNV-1a of the document without its `checksum`, written with sorted keys, so a store
/// that reorders keys or reformats numbers does not break it. A host value (a snapshot
/// object given back) is summed as JSON carries it. Its decimal numbers are written with
/// `decimals`.
pub fn checksum(document: &Value<'_>, decimals: Decimals) -> String {
    match is_json(document) {
        true => json_checksum(document, decimals),
        false => json_checksum(&document.clone().into_json().unwrap_or(Value::Null), decimals),
    }
}

/// [`checksum`] of a document JSON carries as it is (a parsed text).
fn json_checksum(document: &Value<'_>, decimals: Decimals) -> String {
    let mut text = Vec::with_capacity(4096);
    match document {
        Value::Object(members) => write_sorted_members(&mut text, members, Some("checksum"), decimals),
        other => write_sorted(&mut text, other, decimals),
    }
    text::hex(fnv1a(&text), 16, b"0123456789abcdef")
}

/// `value` as compact JSON with every object's members sorted by key (the last of a
/// repeated key kept) and `-0` written as `0`: the form the checksum sums, written
/// without copying the document.
fn write_sorted(out: &mut Vec<u8>, value: &Value<'_>, decimals: Decimals) {
    match value {
        Value::Object(members) => write_sorted_members(out, members, None, decimals),
        Value::Array(items) => json_text::write_array(out, items, |out, item| write_sorted(out, item, decimals)),
        Value::Number(n) if *n == 0.0 => json_text::write_number(out, 0.0, decimals),
        other => json_text::write_value(out, other, decimals),
    }
}

/// An object's members in key order, each key once with its last value (see
/// [`key_runs`]); a member named `leave_out` is left out.
fn write_sorted_members(
    out: &mut Vec<u8>,
    members: &[(Cow<'_, str>, Value<'_>)],
    leave_out: Option<&str>,
    decimals: Decimals,
) {
    out.push(b'{');
    let mut first = true;
    for (_, last) in key_runs(members) {
        let (key, value) = &members[last];
        if leave_out == Some(key.as_ref()) {
            continue;
        }
        if !first {
            out.push(b',');
        }
        first = false;
        write_string(out, key);
        out.push(b':');
        write_sorted(out, value, decimals);
    }
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksum_ignores_key_order_whitespace_and_negative_zero() {
        let a = json::parse(br#"{"checksum":"x","b":[1,{"y":2,"x":-0}],"a":"s"}"#, Decimals::RUST).unwrap();
        let b = json::parse(b"{ \"a\" : \"s\", \"b\" : [1, {\"x\": 0, \"y\": 2.0}] }", Decimals::RUST).unwrap();
        assert_eq!(checksum(&a, Decimals::RUST), checksum(&b, Decimals::RUST));
        let c = json::parse(br#"{"a":"s","b":[1,{"x":0,"y":3}]}"#, Decimals::RUST).unwrap();
        assert_ne!(checksum(&a, Decimals::RUST), checksum(&c, Decimals::RUST));
        assert_eq!(checksum(&a, Decimals::RUST).len(), 16);
    }

    #[test]
    fn a_host_value_is_summed_as_json_carries_it() {
        // A snapshot given back as an object: `undefined` members dropped, a class
        // instance as its own members (sorted, like any object's), `NaN` as null.
        let host =
            json::parse_host(br#"{"checksum":"x","b":<o"Thing",0>{"z":1,"a":[NaN,-0]},"c":undefined}"#, Decimals::RUST)
                .unwrap();
        let json = json::parse(br#"{"b":{"a":[null,0],"z":1}}"#, Decimals::RUST).unwrap();
        assert_eq!(checksum(&host, Decimals::RUST), checksum(&json, Decimals::RUST));
    }

    #[test]
    fn headers_of_other_formats_and_versions_are_refused_by_name() {
        let refused = |text: &str| {
            check_header(&json::parse(text.as_bytes(), Decimals::RUST).unwrap()).unwrap_err().data.detail.unwrap()
        };
        assert!(refused(r#"{"version":"1.0"}"#).contains("not a planloop session snapshot"));
        assert!(refused(r#"[1]"#).contains("not a planloop session snapshot"));
        assert!(refused(r#"{"format":"planloop.session","version":"2.0"}"#).contains("this planloop reads 1.x"));
        assert!(refused(r#"{"format":"planloop.session","version":"1.7"}"#).contains("newer planloop"));
        assert!(refused(r#"{"format":"planloop.session","version":"one"}"#).contains("not \"major.minor\""));
        assert!(check_header(
            &json::parse(br#"{"format":"planloop.session","version":"1.0"}"#, Decimals::RUST).unwrap()
        )
        .is_ok());
    }
}
