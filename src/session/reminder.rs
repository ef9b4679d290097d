//! When the goal/plan reminder is due (seed 000 §3): every `reminderInterval` iterations,
//! or, in `reminderMode: "drift"`, once that many pass with the plan standing still. The
//! plan is the one the reminder restates: the todo list, else the recorded plan, else
//! the text-tracked steps.

use crate::session::config::ReminderMode;

use super::Session;

/// Which plan moved on.
#[derive(Clone, Copy)]
pub(super) enum Moved {
    /// An item of the todo list changed status (or items came or went).
    Todos,
    /// A plan was recorded, or a step of it.
    Recorded,
    /// A text-tracked step started or finished.
    Steps,
}

impl Session {
    /// Notes progress at `iteration` on the plan the reminder restates (a plan that is not
    /// the one shown is left out): drift mode counts its quiet iterations from there.
    pub(super) fn moved(&mut self, what: Moved, iteration: u32) {
        let shown = match what {
            Moved::Todos => true,
            Moved::Recorded => self.planner.todos().is_empty(),
            Moved::Steps => self.planner.todos().is_empty() && self.plan.is_none(),
        };
        if shown {
            self.quiet_from(iteration);
        }
    }

    /// Drift mode counts quiet iterations from `iteration` (progress, or a reminder
    /// given); interval mode keeps no count.
    pub(super) fn quiet_from(&mut self, iteration: u32) {
        let drift = self.config.reminder_mode == ReminderMode::Drift;
        if let Some(turn) = self.turn.as_mut().filter(|_| drift) {
            turn.quiet_since = iteration;
        }
    }

    /// Whether the batch closing at `iteration` carries the reminder (once given, drift
    /// mode counts from there: see `close_batch`).
    pub(super) fn reminder_due(&self, iteration: u32) -> bool {
        let every = self.config.reminder_interval;
        match self.config.reminder_mode {
            ReminderMode::Interval => iteration > 0 && iteration % every == 0,
            ReminderMode::Drift => {
                let since = self.turn.as_ref().map_or(0, |t| t.quiet_since);
                iteration.saturating_sub(since) >= every
            }
        }
    }
}
