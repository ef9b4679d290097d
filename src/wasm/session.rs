//! The loop controller for JS: `Session`, `PlanReviewStore` and `composePrompt`. Each
//! call converts its arguments, calls the core, and converts the result.

use std::borrow::Cow;
use std::cell::RefCell;

use super::field_writers::{self, WriteFields};
use super::io::{fields, json, json_text, number, value};
use super::slab::{self, Slab};
use super::{arguments, compose, raw, Input};
use super::{Op, Status};
use crate::error::Result;
use crate::json::from_value::{from_value, FromValue};
use crate::json::value::Value;
use crate::prompts::compose::{Composed, Composition};

use crate::json::decimals::Decimals;
use crate::json::{Decoded, Parser};
use crate::session::exchange::{Decision, ModelResponse, ToolCallInput, ToolResult, Usage};
use crate::session::exchange::{MAX_TOOL_CALLS, NAME_MAX, STDERR_MAX, TEXT_MAX};
use crate::session::review::PlanReviewStore;
use crate::session::Session;
use crate::validate::schema::{ANY_MAX_DEPTH, ANY_MAX_NODES};
use crate::wasm::HOST;

/// What a session handle stands for: a session of its own, or the child at work on a
/// delegation of one (its root's handle, and the delegate calls down to it). A child
/// handle holds no state: a child lives in its parent, and its handle fails once the
/// delegation is finished or the root freed. (The slab boxes each entry, so a child's
/// is no smaller for boxing the session.)
#[allow(clippy::large_enum_variant)]
enum Entry {
    Own(Session),
    Child { root: u32, path: Vec<String> },
}

thread_local! {
    static SESSIONS: RefCell<Slab<Entry>> = const { RefCell::new(Slab::new()) };
    static REVIEWS: RefCell<Slab<PlanReviewStore>> = const { RefCell::new(Slab::new()) };
}

/// Runs one session call; `None` when `op` is not one.
///
/// The getters' typed results, `beginTurn`'s and the review store's cross as JS values
/// ([`value`]): 5–48 % faster than as JSON text (interleaved runs), for 5.7 KB gzip.
/// `drainEvents` and `proposals` stay JSON text (24–48 % slower as values: each key of a
/// flattened event crosses as a string of its own), and so do `approve`/`reject`, the
/// decisions and `toolDefinitions`: no faster as values (0.9–1.1), and each adds 1.9–4.2
/// KB gzip, which takes the module past its 176 KB budget.
pub fn call(op: Op, handle: u32, given: Input<'_>) -> Option<Result<Status>> {
    let input = given.bytes;
    let with = |work: &dyn Fn(&mut Session) -> Result<Status>| with_session(handle, work);
    Some(match op {
        Op::ComposePrompt => compose::encoded(input),
        Op::ComposeTexts => compose::raw(given),
        Op::SessionNew => arguments::SessionNew::read(input).and_then(|a| {
            let config = a.config;
            config.check("config")?;
            let session = Session::with_decimals(config, HOST);
            number(slab::insert(&SESSIONS, Entry::Own(session))?)
        }),
        Op::SessionFree => {
            slab::remove(&SESSIONS, handle);
            Ok(Status::Nothing)
        }
        Op::SessionRestore => arguments::SessionRestore::read(input)
            .and_then(|a| number(slab::insert(&SESSIONS, Entry::Own(restored(&a.snapshot)?))?)),
        Op::SessionSnapshot => with(&|s| json_text(s.snapshot_json()?.as_bytes())),
        Op::SessionStepPlan => with(&|s| value(&s.step_plan())),
        Op::SessionSystemPrompt => with(&|s| {
            let a = arguments::SessionSystemPrompt::read(input)?;
            let Composed { prompt, components, unresolved } = s.system_prompt(a.parts, a.now_ms)?;
            let components = components.iter().map(String::as_str).collect();
            fields(|out| Composition { prompt, components, unresolved }.write(out))
        }),
        Op::SessionBeginTurn => with(&|s| value(&s.begin_turn(arguments::SessionBeginTurn::read(input)?.input)?)),
        Op::SessionApprove => with(&|s| {
            let a = arguments::SessionApprove::read(input)?;
            json(&s.approve(&a.action_id, a.options, a.now_ms)?)
        }),
        Op::SessionReject => with(&|s| {
            let a = arguments::SessionReject::read(input)?;
            json(&s.reject(&a.action_id, a.options, a.now_ms)?)
        }),
        Op::SessionProposals => with(&|s| json(&s.proposals())),
        Op::SessionHandleModelResponse => with(&|s| {
            let (response, now_ms) = value_and_time(input, model_response, response_in_general)?;
            match s.handle_model_response(response, now_ms)? {
                Decision::RunTools { calls, delegations, replies, next } => {
                    fields(|out| field_writers::run_tools(out, &calls, &delegations, &replies, &next))
                }
                decision => json(&decision),
            }
        }),
        Op::SessionHandleToolResults | Op::SessionHandleToolResultsRaw => with(&|s| {
            let (results, now_ms) = match op {
                Op::SessionHandleToolResultsRaw => raw_results(given)?,
                _ => value_and_time(input, tool_results, results_in_general)?,
            };
            let outcome = s.handle_tool_results(results, now_ms)?;
            fields(|out| outcome.write(out))
        }),
        Op::SessionDrainEvents => with(&|s| json(&s.drain_events())),
        Op::SessionTodos => with(&|s| value(&s.todos_with_evidence())),
        Op::SessionPlan => with(&|s| value(&s.plan())),
        Op::SessionProgress => with(&|s| value(&s.progress())),
        Op::SessionCapsule => with(&|s| value(&s.capsule())),
        Op::SessionSteps => with(&|s| value(&s.steps())),
        Op::SessionReasoning => with(&|s| value(&s.reasoning().collect::<Vec<_>>())),
        Op::SessionToolDefinitions => with(&|s| json(&s.tool_definitions(HOST)?)),
        Op::SessionMayHold => {
            with(&|s| json(&s.config().tools.may_hold(&arguments::SessionMayHold::read(input)?.tool)))
        }
        Op::SessionNextCall => with(&|s| value(&s.next_call(arguments::SessionNextCall::read(input)?.now_ms))),
        Op::SessionHandoff => with(&|s| {
            let a = arguments::SessionHandoff::read(input)?;
            value(&s.handoff(a.options, a.now_ms))
        }),
        Op::SessionDelegations => with(&|s| json(&s.delegations())),
        Op::SessionBeginDelegation => with(&|s| {
            let a = arguments::SessionBeginDelegation::read(input)?;
            value(&s.begin_delegation(&a.call_id, a.now_ms)?)
        }),
        Op::SessionChild => arguments::SessionChild::read(input).and_then(|a| {
            // Checked now, so that a handle is only made for a child at work.
            with(&|s| s.child(&a.call_id).map(|_| Status::Nothing))?;
            let (root, mut path) = route(handle)?;
            path.push(a.call_id);
            number(slab::insert(&SESSIONS, Entry::Child { root, path })?)
        }),
        Op::SessionFinishDelegation => with(&|s| {
            let a = arguments::SessionFinishDelegation::read(input)?;
            // A child run elsewhere comes as its snapshot.
            let outcome = match &a.child {
                Value::Undefined => s.finish_delegation(&a.call_id, a.options, a.now_ms)?,
                given => s.finish_delegation_from(&a.call_id, restored(given)?, a.options, a.now_ms)?,
            };
            json(&outcome)
        }),
        Op::SessionHandleVerdict => with(&|s| {
            let a = arguments::SessionHandleVerdict::read(input)?;
            json(&s.handle_verdict(a.verdict, a.now_ms)?)
        }),
        Op::ReviewsNew => number(slab::insert(&REVIEWS, PlanReviewStore::default()).unwrap_or(0)),
        Op::ReviewsFree => {
            slab::remove(&REVIEWS, handle);
            Ok(Status::Nothing)
        }
        Op::ReviewsFromJson => {
            arguments::ReviewsFromJson::read(input).and_then(|a| number(slab::insert(&REVIEWS, a.data)?))
        }
        Op::ReviewsPut => slab::with(&REVIEWS, handle, |store| {
            store.put(arguments::ReviewsPut::read(input)?.review);
            Ok(Status::Nothing)
        }),
        Op::ReviewsTake => slab::with(&REVIEWS, handle, |store| {
            let a = arguments::ReviewsTake::read(input)?;
            value(&store.take(a.user_id.as_deref(), a.chat_id.as_deref(), a.now_ms))
        }),
        Op::ReviewsSize => slab::with(&REVIEWS, handle, |store| number(store.len() as u32)),
        Op::ReviewsToJson => slab::with(&REVIEWS, handle, |store| value(store)),
        _ => return None,
    })
}

/// A session from a snapshot: the object `snapshot()` returned, or its JSON text.
fn restored(snapshot: &Value<'_>) -> Result<Session> {
    match snapshot {
        Value::String(text) => Session::restore_json_with_decimals(text, HOST),
        value => Session::restore_with_decimals(value, HOST),
    }
}

/// The root handle and the delegate calls down to the session of `handle`.
fn route(handle: u32) -> Result<(u32, Vec<String>)> {
    slab::with(&SESSIONS, handle, |entry| {
        Ok(match entry {
            Entry::Own(_) => (handle, Vec::new()),
            Entry::Child { root, path } => (*root, path.clone()),
        })
    })
}

/// Runs `work` on the session of `handle`: its own, or a child found from its root.
fn with_session(handle: u32, work: &dyn Fn(&mut Session) -> Result<Status>) -> Result<Status> {
    slab::with(&SESSIONS, handle, |entry| match entry {
        Entry::Own(session) => work(session),
        // (The child's entry is out of the table meanwhile; its root's is another.)
        Entry::Child { root, path } => slab::with(&SESSIONS, *root, |entry| {
            let Entry::Own(session) = entry else { return Err(crate::error::Error::internal("a child's root")) };
            let mut session = session;
            for call_id in path.iter() {
                session = session.child(call_id)?;
            }
            work(session)
        }),
    })
}

/// `[results, nowMs]` with each result's `output` given as its length (no lengths come
/// before the head), and the outputs raw after the head (see [`raw`]): a tool's output
/// is most of a result, often kilobytes of lines and quotes.
fn raw_results(given: Input<'_>) -> Result<(Vec<ToolResult>, f64)> {
    let (_, head, mut raw) = raw::split(given, "handleToolResults")?;
    let (mut results, now_ms) = value_and_time(head, tool_results, results_in_general)?;
    for result in &mut results {
        let length = match result.output {
            Value::Number(n) => n,
            _ => f64::NAN,
        };
        result.output = Value::String(Cow::Owned(raw.next(length, usize::MAX)?.to_owned()));
    }
    raw.finish()?;
    Ok((results, now_ms))
}

/// `[value, nowMs]` read by its plain reader where it can, else by `general`, the
/// declared arguments' reader, which also says what is wrong.
fn value_and_time<T: FromValue>(input: &[u8], hot: Hot<T>, general: General) -> Result<(T, f64)> {
    match hot(input, HOST) {
        Some(read) => Ok(read),
        None => {
            let (value, now_ms) = general(input)?;
            Ok((from_value(value)?, now_ms))
        }
    }
}

/// A declared `[value, nowMs]` read the general way (the value as its schema passes it).
type General = fn(&[u8]) -> Result<(Value<'static>, f64)>;

fn response_in_general(input: &[u8]) -> Result<(Value<'static>, f64)> {
    arguments::SessionHandleModelResponse::read(input).map(|a| (a.response, a.now_ms))
}

fn results_in_general(input: &[u8]) -> Result<(Value<'static>, f64)> {
    arguments::SessionHandleToolResults::read(input).map(|a| (a.results, a.now_ms))
}

// --- The two hot inputs ----------------------------------------------------------
//
// The session's two hot inputs, a model response and a batch of tool results, read
// straight from the JS layer's encoding into their types.
//
// A session call's arguments usually cross as plain JSON (the JS layer's encoding of
// plain values is JSON) of a plain shape. Reading that into the types directly skips
// the general path's value tree, its schema walk (which copies every string) and the
// conversion into types: it was two thirds of a decision's time. Whatever is not plain
// — a host value the encoding marks (`undefined`, `NaN`, a tag), a key the schema does
// not know or that repeats, a lone surrogate, a value out of its schema's limits, a
// wrong type — makes these readers give up (`None`), and the general path reads the
// same input and reports exactly what is wrong. So the answer never depends on which
// path ran; the tests (`session_tests.rs`) hold the two to each other on generated inputs.

/// A reader of `[value, nowMs]` when plain, its numbers read with the decimals given.
pub type Hot<T> = fn(&[u8], Decimals) -> Option<(T, f64)>;

/// `[response, nowMs]`, when plain.
pub fn model_response(input: &[u8], decimals: Decimals) -> Option<(ModelResponse, f64)> {
    let mut r = PlainJson::new(input, decimals);
    r.p.eat(b'[').then_some(())?;
    let mut response = ModelResponse { text: None, tool_calls: Vec::new(), usage: None };
    r.fields(&["text", "toolCalls", "usage"], &mut |r, field| {
        match field {
            0 => {
                response.text = match r.p.peek()? {
                    b'n' => r.p.literal("null").ok().map(|_| None)?,
                    _ => Some(r.string(0, TEXT_MAX)?),
                }
            }
            1 => response.tool_calls = r.array(MAX_TOOL_CALLS, PlainJson::tool_call)?,
            _ => {
                response.usage = match r.p.peek()? {
                    b'n' => r.p.literal("null").ok().map(|_| None)?,
                    _ => Some(r.usage()?),
                }
            }
        }
        Some(())
    })?;
    Some((response, r.time()?))
}

/// `[results, nowMs]`, when plain.
pub fn tool_results(input: &[u8], decimals: Decimals) -> Option<(Vec<ToolResult>, f64)> {
    let mut r = PlainJson::new(input, decimals);
    r.p.eat(b'[').then_some(())?;
    let results = r.array(usize::MAX, PlainJson::tool_result)?;
    Some((results, r.time()?))
}

/// The most members an object of any keys may have on this path: each key is compared
/// with those before it, so more would make the walk quadratic.
pub(super) const MEMBERS_CHECKED: usize = 32;

/// A reader of plain JSON in the JS layer's encoding; each method gives up (`None`) on
/// anything else.
pub(super) struct PlainJson<'a> {
    pub(super) p: Parser<'a>,
    pub(super) decimals: Decimals,
}

impl<'a> PlainJson<'a> {
    pub(super) fn new(input: &'a [u8], decimals: Decimals) -> Self {
        PlainJson { p: Parser::unchecked(input), decimals }
    }

    /// `,nowMs]` and the end: a finite number.
    fn time(&mut self) -> Option<f64> {
        self.p.eat(b',').then_some(())?;
        let now = self.p.number(self.decimals).ok().filter(|n| n.is_finite())?;
        (self.p.eat(b']') && self.p.at_end()).then_some(now)
    }

    fn tool_call(&mut self) -> Option<ToolCallInput> {
        let (mut id, mut name, mut args) = (None, None, None);
        self.fields(&["id", "name", "args"], &mut |r, field| match field {
            0 => r.string(1, NAME_MAX).map(|s| id = Some(s)),
            1 => r.string(1, NAME_MAX).map(|s| name = Some(s)),
            _ => r.any(0, &mut 0).map(|v| args = Some(v)),
        })?;
        Some(ToolCallInput { id: id?, name: name?, args: args.unwrap_or(Value::Undefined) })
    }

    fn usage(&mut self) -> Option<Usage> {
        let mut usage = Usage::default();
        self.fields(&["inputTokens", "outputTokens"], &mut |r, field| {
            let count = Some(r.count()?);
            match field {
                0 => usage.input_tokens = count,
                _ => usage.output_tokens = count,
            }
            Some(())
        })?;
        Some(usage)
    }

    /// A whole number of `0..=u32::MAX`.
    fn count(&mut self) -> Option<u32> {
        let n = self.p.number(self.decimals).ok()?;
        (n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&n)).then_some(n as u32)
    }

    fn tool_result(&mut self) -> Option<ToolResult> {
        let mut result = ToolResult {
            id: String::new(),
            output: Value::Undefined,
            stderr: None,
            is_error: false,
            duration_ms: None,
            exit_code: None,
        };
        let seen = self.fields(&["id", "output", "stderr", "isError", "durationMs", "exitCode"], &mut |r, field| {
            match field {
                0 => result.id = r.string(1, NAME_MAX)?,
                1 => result.output = r.any(0, &mut 0)?,
                2 => result.stderr = Some(r.string(0, STDERR_MAX)?),
                3 => result.is_error = r.boolean()?,
                4 => result.duration_ms = Some(r.p.number(r.decimals).ok().filter(|n| n.is_finite() && *n >= 0.0)?),
                _ => {
                    let code = r.p.number(r.decimals).ok()?;
                    let whole = code.fract() == 0.0 && code >= f64::from(i32::MIN) && code <= f64::from(i32::MAX);
                    result.exit_code = Some(whole.then_some(code as i32)?);
                }
            }
            Some(())
        })?;
        // `output` is required (and `undefined` is not plain).
        (seen & 0b11 == 0b11).then_some(result)
    }

    /// An object whose keys are among `keys`, each at most once: `member` reads the value
    /// of `keys[field]`. Gives which of them the object had, as bits (`1 << field`).
    /// (One instance for every object read here: `member` is called through a `dyn`.)
    pub(super) fn fields(
        &mut self,
        keys: &[&str],
        member: &mut dyn FnMut(&mut Self, usize) -> Option<()>,
    ) -> Option<u32> {
        let mut seen = 0u32;
        self.object(|r, key| {
            let field = keys.iter().position(|k| *k == key)?;
            let bit = 1 << field;
            if seen & bit != 0 {
                return None;
            }
            seen |= bit;
            member(r, field)
        })?;
        Some(seen)
    }

    /// An object's members, each key once and at most [`MEMBERS_CHECKED`] of them, each
    /// value read by `item`.
    pub(super) fn members<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<(Cow<'static, str>, T)>> {
        let mut members: Vec<(Cow<'static, str>, T)> = Vec::new();
        self.object(|r, key| {
            // A key twice (JSON.parse keeps the last), or more keys than a look back over
            // them stays cheap for: the general path knows how.
            if members.len() == MEMBERS_CHECKED || members.iter().any(|(k, _)| k == key) {
                return None;
            }
            let key = Cow::Owned(key.to_owned());
            members.push((key, item(r)?));
            Some(())
        })?;
        Some(members)
    }

    /// An object's members after checking its `{`: `member` reads each value after its
    /// key (and says `None` to give up on a key it does not know or has seen).
    pub(super) fn object(&mut self, mut member: impl FnMut(&mut Self, &str) -> Option<()>) -> Option<()> {
        self.p.eat(b'{').then_some(())?;
        if self.p.eat(b'}') {
            return Some(());
        }
        loop {
            self.p.eat(b'"').then_some(())?;
            let key = self.text()?;
            self.p.eat(b':').then_some(())?;
            member(self, &key)?;
            if self.p.eat(b'}') {
                return Some(());
            }
            self.p.eat(b',').then_some(())?;
        }
    }

    /// An array of at most `max` items, each read by `item`.
    fn array<T>(&mut self, max: usize, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.p.eat(b'[').then_some(())?;
        let mut items = Vec::new();
        if self.p.eat(b']') {
            return Some(items);
        }
        loop {
            if items.len() == max {
                return None;
            }
            items.push(item(self)?);
            if self.p.eat(b']') {
                return Some(items);
            }
            self.p.eat(b',').then_some(())?;
        }
    }

    /// A string of `min..=max` code points.
    pub(super) fn string(&mut self, min: usize, max: usize) -> Option<String> {
        self.p.eat(b'"').then_some(())?;
        let text = self.text()?;
        let length = text.chars().count();
        (min..=max).contains(&length).then(|| text.into_owned())
    }

    /// A string's content after its opening quote; `None` for a lone surrogate.
    fn text(&mut self) -> Option<Cow<'a, str>> {
        match self.p.string_body().ok()? {
            Decoded::Utf8(text) => Some(Cow::Borrowed(text)),
            Decoded::Escaped(text) => Some(Cow::Owned(text)),
            Decoded::Units(units) => String::from_utf16(&units).ok().map(Cow::Owned),
        }
    }

    pub(super) fn boolean(&mut self) -> Option<bool> {
        match self.p.scalar(self.decimals).ok()? {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// Any JSON value within a schema `{}`'s limits, as the general path copies it.
    fn any(&mut self, depth: usize, nodes: &mut usize) -> Option<Value<'static>> {
        *nodes += 1;
        if *nodes > ANY_MAX_NODES {
            return None;
        }
        Some(match self.p.peek()? {
            b'"' => {
                self.p.eat(b'"');
                Value::String(Cow::Owned(self.text()?.into_owned()))
            }
            b'{' if depth < ANY_MAX_DEPTH => Value::Object(self.members(|r| r.any(depth + 1, nodes))?),
            b'[' if depth < ANY_MAX_DEPTH => Value::Array(self.array(usize::MAX, |r| r.any(depth + 1, nodes))?),
            // (Not reading host values, the parser's scalars are JSON's.)
            _ => self.p.scalar(self.decimals).ok()?,
        })
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
