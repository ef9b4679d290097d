//! Plan review (seed 000, channel integration): the user sees the plan before any action
//! runs, and the next message they send is read as feedback on it.
//!
//! A review waits in the session that asked for it, or in a [`PlanReviewStore`] the host
//! keeps (and saves) when each message gets a fresh session: the store is keyed by user
//! and chat, entries expire, and taking an entry removes it, so feedback is injected once.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::struct_from_value;
use crate::session::config::Language;

/// The reviews a store keeps at most; the oldest go first.
pub const MAX_REVIEWS: usize = 1000;

/// A plan waiting for the user's word.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanReview {
    /// The `userId` and `chatId` of the turn (null when it had none).
    #[schemars(required, transform = crate::validate::schema::nullable)]
    pub user_id: Option<String>,
    #[schemars(required, transform = crate::validate::schema::nullable)]
    pub chat_id: Option<String>,
    /// The turn that produced the plan.
    pub turn: u32,
    pub goal: String,
    /// The plan as the user sees it.
    pub plan: String,
    pub created_at_ms: f64,
    pub expires_at_ms: f64,
}

struct_from_value!(PlanReview, "camelCase" { user_id, chat_id, turn, goal, plan, created_at_ms, expires_at_ms });

impl PlanReview {
    fn is_for(&self, user_id: Option<&str>, chat_id: Option<&str>) -> bool {
        self.user_id.as_deref() == user_id && self.chat_id.as_deref() == chat_id
    }
}

/// Pending plan reviews by user and chat, for hosts that start a fresh session per
/// message. Plain data: serialize it with `toJSON()` and restore it with `fromJSON()`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanReviewStore {
    #[schemars(length(max = 1000))]
    pub reviews: Vec<PlanReview>,
}

struct_from_value!(PlanReviewStore, "camelCase" { reviews });

impl PlanReviewStore {
    /// Keeps `review`, replacing one pending for the same user and chat.
    pub fn put(&mut self, review: PlanReview) {
        self.reviews.retain(|r| !r.is_for(review.user_id.as_deref(), review.chat_id.as_deref()));
        if self.reviews.len() == MAX_REVIEWS {
            self.reviews.remove(0);
        }
        self.reviews.push(review);
    }

    /// Removes and returns the review pending for this user and chat, unless it expired
    /// (expired ones are dropped on the way).
    pub fn take(&mut self, user_id: Option<&str>, chat_id: Option<&str>, now_ms: f64) -> Option<PlanReview> {
        self.reviews.retain(|r| r.expires_at_ms > now_ms);
        let index = self.reviews.iter().position(|r| r.is_for(user_id, chat_id))?;
        Some(self.reviews.remove(index))
    }

    pub fn len(&self) -> usize {
        self.reviews.len()
    }

    pub fn is_empty(&self) -> bool {
        self.reviews.is_empty()
    }
}

/// What the user sees: seed 000's template ("计划确认", the plan, "reply OK or edits").
pub fn user_message(language: Language, goal: &str, plan: &str) -> String {
    match language {
        Language::En => {
            format!("Plan review\n\nGoal: {goal}\n\n{plan}\n\nReply OK to go ahead, or reply with your changes.")
        }
        Language::Zh => format!("计划确认\n\n目标: {goal}\n\n{plan}\n\n请回复 **OK** 继续，或直接回复修改意见。"),
    }
}

/// The block put before the user's next message (seed 000).
pub fn feedback_block(review: &PlanReview, feedback: &str) -> String {
    format!(
        "<plan_feedback>\nplan:\n{}\n\nuser_feedback:\n{}\n\ninstruction: If the feedback changes the plan, call plan() again; otherwise continue with the next step.\n</plan_feedback>",
        review.plan.trim(),
        feedback.trim()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn review(user: &str, chat: &str, expires: f64) -> PlanReview {
        PlanReview {
            user_id: Some(user.into()),
            chat_id: Some(chat.into()),
            turn: 1,
            goal: "g".into(),
            plan: "1. a".into(),
            created_at_ms: 0.0,
            expires_at_ms: expires,
        }
    }

    #[test]
    fn a_review_is_taken_once_by_its_user_and_chat() {
        let mut store = PlanReviewStore::default();
        store.put(review("u", "c", 100.0));
        store.put(review("u", "other", 100.0));
        assert_eq!(store.take(Some("u"), Some("x"), 1.0), None);
        assert_eq!(store.take(Some("u"), Some("c"), 1.0).map(|r| r.chat_id), Some(Some("c".into())));
        assert_eq!(store.take(Some("u"), Some("c"), 1.0), None, "injected once");
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn expired_reviews_are_dropped() {
        let mut store = PlanReviewStore::default();
        store.put(review("u", "c", 100.0));
        assert_eq!(store.take(Some("u"), Some("c"), 100.0), None);
        assert!(store.is_empty());
    }

    #[test]
    fn a_new_review_replaces_the_pending_one_of_the_same_chat() {
        let mut store = PlanReviewStore::default();
        store.put(review("u", "c", 100.0));
        store.put(PlanReview { plan: "2. b".into(), ..review("u", "c", 200.0) });
        assert_eq!(store.len(), 1);
        assert_eq!(store.take(Some("u"), Some("c"), 1.0).unwrap().plan, "2. b");
    }

    #[test]
    fn the_feedback_block_carries_plan_feedback_and_instruction() {
        let block = feedback_block(&review("u", "c", 1.0), "  Skip step 2  ");
        assert_eq!(
            block,
            "<plan_feedback>\nplan:\n1. a\n\nuser_feedback:\nSkip step 2\n\ninstruction: If the feedback changes the plan, call plan() again; otherwise continue with the next step.\n</plan_feedback>"
        );
        assert!(user_message(Language::Zh, "g", "1. a").starts_with("计划确认"));
    }
}
