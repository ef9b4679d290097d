//! The budget ledger: the steps, tokens and time a turn and a session spent, children's
//! included, and the token limits (`maxTokens`, `maxSessionTokens`) they are held to.

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::json::from_value::struct_from_value;
use crate::session::events::EventKind;
use crate::session::exchange::Usage;

use super::{Session, Turn};

/// What was spent: model responses, tokens, and the agent's time.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Tally {
    pub steps: u32,
    pub input_tokens: u32,
    pub output_tokens: u32,
    #[schemars(range(min = 0))]
    pub time_ms: f64,
}

struct_from_value!(Tally, "camelCase" { steps, input_tokens, output_tokens, time_ms });

/// The ledger of the current (or last) turn and of the whole session.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ledger {
    pub turn: Tally,
    pub session: Tally,
}

impl Tally {
    pub(crate) fn is_zero(&self) -> bool {
        *self == Tally::default()
    }

    pub(crate) fn tokens(&self) -> u32 {
        self.input_tokens.saturating_add(self.output_tokens)
    }

    /// Both tallies, saturating (and time finite, as a snapshot needs it).
    pub(crate) fn plus(self, other: Tally) -> Tally {
        Tally {
            steps: self.steps.saturating_add(other.steps),
            input_tokens: self.input_tokens.saturating_add(other.input_tokens),
            output_tokens: self.output_tokens.saturating_add(other.output_tokens),
            time_ms: (self.time_ms + other.time_ms).min(f64::MAX),
        }
    }

    fn of(turn: &Turn) -> Tally {
        Tally {
            steps: turn.used(),
            input_tokens: turn.input_tokens,
            output_tokens: turn.output_tokens,
            time_ms: turn.time_ms,
        }
    }
}

impl Session {
    /// The ledger, with the tokens and steps of the children at work counted as they stand.
    pub fn ledger(&self) -> Ledger {
        let mut turn = self.turn.as_ref().map(Tally::of).unwrap_or_default();
        for child in &self.children {
            let child = child.session.ledger().session;
            turn = turn.plus(Tally { time_ms: 0.0, ..child });
        }
        let open = self.turn.as_ref().is_some_and(|t| t.open);
        let session = if open { self.spent.plus(turn) } else { self.spent };
        Ledger { turn, session }
    }

    /// Tokens the open turn may still use under `maxTokens` and `maxSessionTokens`
    /// (children at work counted), `None` without a token limit.
    pub(crate) fn tokens_left(&self) -> Option<u32> {
        let Ledger { turn, session } = self.ledger();
        let per_turn = self.config.max_tokens.map(|max| max.saturating_sub(turn.tokens()));
        let per_session = self.config.max_session_tokens.map(|max| max.saturating_sub(session.tokens()));
        match (per_turn, per_session) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Counts a response's tokens in the open turn, with an event; true when a token
    /// limit is now reached.
    pub(super) fn count_usage(&mut self, usage: Option<Usage>, now: f64) -> bool {
        if let Some(usage) = usage {
            let (input_tokens, output_tokens) = (usage.input_tokens.unwrap_or(0), usage.output_tokens.unwrap_or(0));
            if let Some(turn) = self.turn.as_mut() {
                turn.input_tokens = turn.input_tokens.saturating_add(input_tokens);
                turn.output_tokens = turn.output_tokens.saturating_add(output_tokens);
            }
            let ledger = self.ledger();
            self.emit(EventKind::TokensUsed { input_tokens, output_tokens, ledger }, now);
        }
        self.tokens_left() == Some(0)
    }

    /// Refuses a new turn once the session's tokens are used up: it could only end at
    /// its first response.
    pub(super) fn check_session_tokens(&self) -> Result<()> {
        let used = self.ledger().session.tokens();
        match self.config.max_session_tokens {
            Some(max) if used >= max => Err(Error::invalid_state(
                "beginTurn",
                "a session with tokens left: this one has used its maxSessionTokens, start a new one",
            )),
            _ => Ok(()),
        }
    }

    /// Adds the turn that ends now to the session's tally, with what its children still
    /// at work spent (they end with it: what they spent was spent all the same).
    pub(super) fn close_books(&mut self, now: f64) {
        let Some(turn) = self.turn.as_mut().filter(|t| t.open) else { return };
        turn.time_ms = turn.elapsed(now).max(0.0);
        self.spent = self.spent.plus(self.ledger().turn);
    }

    /// Counts a child's tokens (all its turns') in the open turn, as its capsule comes in.
    pub(super) fn count_child(&mut self, child: &Session) {
        let spent = child.ledger().session;
        if let Some(turn) = self.turn.as_mut() {
            turn.input_tokens = turn.input_tokens.saturating_add(spent.input_tokens);
            turn.output_tokens = turn.output_tokens.saturating_add(spent.output_tokens);
        }
    }
}
