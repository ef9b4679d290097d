//! Proposals: write calls waiting for the user, their action ids, and how a turn
//! resumes when the last one is resolved.

use crate::error::{Error, ErrorCode, Result};
use crate::json::value::Value;
use crate::session::approval::{Basis, Proposal, ProposalStatus};
use crate::session::events::EventKind;
use crate::session::exchange::{ApprovalOutcome, Decision, ToolCall, MAX_TOOL_CALLS};

use super::turn::span;
use super::{approval, arguments, Pending, Session};

/// Proposals kept (of every turn) to answer `approve`/`reject` precisely: the pending
/// ones of the open turn (at most [`MAX_TOOL_CALLS`]) and as many settled ones.
pub(crate) const PROPOSALS_KEPT: usize = 2 * MAX_TOOL_CALLS;

impl Session {
    /// Finds a proposal `approve`/`reject` may resolve.
    pub(super) fn pending_proposal(&self, action_id: &str) -> Result<usize> {
        let index = self.proposals.iter().position(|p| p.action_id == action_id);
        let index = index.ok_or_else(|| Error::action(ErrorCode::UnknownAction, action_id))?;
        let proposal = &self.proposals[index];
        let current = self.turn.as_ref().filter(|t| t.open).map(|t| t.number);
        if current != Some(proposal.turn) {
            return Err(Error::action(ErrorCode::ActionOfAnotherTurn, action_id));
        }
        if proposal.status != ProposalStatus::Pending {
            return Err(Error::action(ErrorCode::ActionAlreadyResolved, action_id));
        }
        Ok(index)
    }

    /// After a proposal was resolved: when it was the last, the turn resumes with the
    /// approved calls to run and the rejections to append.
    pub(super) fn resolved(&mut self, index: usize, edited: bool, always: bool, now: f64) -> Result<ApprovalOutcome> {
        let proposal = self.proposals[index].clone();
        let kind = EventKind::ActionResolved {
            action_id: proposal.action_id.clone(),
            status: proposal.status,
            edited,
            always,
        };
        self.emit(kind, now);
        let turn_number = proposal.turn;
        let pending =
            self.proposals.iter().filter(|p| p.turn == turn_number && p.status == ProposalStatus::Pending).count()
                as u32;
        if pending > 0 {
            return Ok(ApprovalOutcome { proposal, pending, resumed: None, delegation: None });
        }
        let iteration = self.turn.as_ref().map_or(0, |t| t.iterations);
        let approved: Vec<Proposal> = self
            .proposals
            .iter()
            .filter(|p| p.turn == turn_number && p.iteration == iteration && p.status == ProposalStatus::Approved)
            .cloned()
            .collect();
        let mut calls = Vec::with_capacity(approved.len());
        for p in &approved {
            self.log.record_act(&p.tool, &&p.args, iteration, now, self.decimals)?;
            let signature = arguments::signature(&p.tool, &p.args, self.decimals);
            let pending = Pending {
                id: p.call_id.clone(),
                name: p.tool.clone(),
                signature,
                approved: true,
                answered: false,
                observed: self.progress_of(&p.args),
                delegation: None,
                items: Vec::new(),
            };
            self.turn_mut()?.pending.push(pending);
            calls.push(ToolCall { id: p.call_id.clone(), name: p.tool.clone(), args: p.args.clone() });
        }
        let turn = self.turn_mut()?;
        if let Some(at) = turn.paused_at.take() {
            turn.waited_ms = (turn.waited_ms + span(at, now)).min(f64::MAX);
        }
        let mut replies = std::mem::take(&mut turn.rejections);
        self.settle(&mut replies, iteration, now)?;
        let steps_remaining = self.steps_remaining();
        self.emit(EventKind::TurnResumed { steps_remaining }, now);
        let delegations = Vec::new();
        let resumed = Decision::RunTools { calls, delegations, replies, next: self.next_call(now) };
        Ok(ApprovalOutcome { proposal, pending: 0, resumed: Some(resumed), delegation: None })
    }

    pub(super) fn awaiting_approval(&self) -> bool {
        let turn = self.turn.as_ref().filter(|t| t.open).map_or(0, |t| t.number);
        self.proposals.iter().any(|p| p.turn == turn && p.status == ProposalStatus::Pending)
    }

    /// Makes a call wait for the user.
    pub(super) fn propose(
        &mut self,
        call_id: String,
        tool: String,
        args: Value<'static>,
        basis: Basis,
        iteration: u32,
        now: f64,
    ) -> Proposal {
        let (turn, sequence) = match self.turn.as_mut() {
            Some(t) => {
                t.proposed = t.proposed.saturating_add(1);
                (t.number, t.proposed)
            }
            None => (0, 0),
        };
        let proposal = Proposal {
            // A sub-agent's action ids name the delegate call, so they never pass for
            // the parent's own or a sibling's.
            action_id: match self.lineage.last() {
                Some(link) => format!("{}/act-{turn}-{sequence}", link.call_id),
                None => format!("act-{turn}-{sequence}"),
            },
            call_id,
            justification: approval::justification(&tool, &args, self.decimals),
            tool,
            args,
            status: ProposalStatus::Pending,
            turn,
            iteration,
            basis,
            chain: self.lineage.clone(),
        };
        self.forget_a_proposal_if_full();
        self.proposals.push_back(proposal.clone());
        let kind = EventKind::ActionProposed {
            action_id: proposal.action_id.clone(),
            tool: proposal.tool.clone(),
            justification: proposal.justification.clone(),
        };
        self.emit(kind, now);
        proposal
    }

    /// Makes room for one more proposal: the oldest one that can no longer be resolved
    /// (resolved, or of a turn that ended) goes. The open turn's pending proposals are
    /// never forgotten, and they come from one response (at most 256 calls), so there is
    /// always one to drop.
    pub(super) fn forget_a_proposal_if_full(&mut self) {
        if self.proposals.len() < PROPOSALS_KEPT {
            return;
        }
        let open = self.turn.as_ref().filter(|t| t.open).map_or(0, |t| t.number);
        let settled = self.proposals.iter().position(|p| p.turn != open || p.status != ProposalStatus::Pending);
        if let Some(index) = settled {
            self.proposals.remove(index);
        }
    }
}
