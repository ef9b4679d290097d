//! The session's own system prompt: the host's parts composed with what the session
//! knows (its language, the current step, the budget, the continuation protocol).

use crate::error::Result;
use crate::prompts::compose::{compose_as, Budget, ComposeInput, Composed, PromptParts};
use crate::session::Session;

impl Session {
    /// The system prompt for the next model call: the host's parts, with the session's
    /// language, its current-plan block and budget line, and the continuation protocol's
    /// instructions when the protocol is on (unless `features` says otherwise).
    pub fn system_prompt(&self, mut parts: PromptParts, now: f64) -> Result<Composed> {
        let config = self.config();
        if config.continuation_protocol.enabled && parts.features.get("continuation_protocol").is_none() {
            parts.features.0.push(("continuation_protocol".to_owned(), true));
        }
        let next = self.next_call(now);
        let total = config.max_iterations.saturating_sub(1);
        let budget = (total > 0).then_some(Budget {
            remaining: next.tool_rounds_remaining,
            total,
            tokens: next.tokens_remaining,
        });
        let input = ComposeInput { parts, language: config.language, plan: self.current_plan(), budget };
        compose_as(&input, "parts")
    }
}
