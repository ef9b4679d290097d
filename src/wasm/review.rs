//! `PlanReviewStore` for JS.

use wasm_bindgen::prelude::*;

use super::convert::{object, string_or_absent, time, to_js};
use crate::session::review::{self, PlanReview, PLAN_REVIEW_STORE_SCHEMA};

/// Plan reviews waiting for their user's next message, by user and chat; keep one per
/// app and save it (`toJSON`) when each message gets a fresh `Session`.
#[wasm_bindgen(js_name = PlanReviewStore)]
pub struct PlanReviewStore(pub(crate) review::PlanReviewStore);

#[wasm_bindgen(js_class = PlanReviewStore)]
impl PlanReviewStore {
    #[wasm_bindgen(constructor)]
    pub fn new() -> PlanReviewStore {
        PlanReviewStore(review::PlanReviewStore::default())
    }

    /// A store from what `toJSON()` returned.
    #[wasm_bindgen(js_name = fromJSON)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "PlanReviewStoreData")] data: JsValue,
    ) -> Result<PlanReviewStore, JsValue> {
        Ok(PlanReviewStore(object(data, "data", PLAN_REVIEW_STORE_SCHEMA)?))
    }

    /// Keeps the review of an `awaitPlanReview` decision (replacing one pending for the
    /// same user and chat).
    pub fn put(&mut self, #[wasm_bindgen(unchecked_param_type = "PlanReview")] review: JsValue) -> Result<(), JsValue> {
        let review: PlanReview = object(review, "review", review::PLAN_REVIEW_SCHEMA)?;
        self.0.put(review);
        Ok(())
    }

    /// Removes and returns the review pending for this user and chat, or `null`
    /// (expired reviews are dropped).
    #[wasm_bindgen(unchecked_return_type = "PlanReview | null")]
    pub fn take(
        &mut self,
        #[wasm_bindgen(js_name = userId, unchecked_param_type = "string | null | undefined")] user_id: JsValue,
        #[wasm_bindgen(js_name = chatId, unchecked_param_type = "string | null | undefined")] chat_id: JsValue,
        #[wasm_bindgen(js_name = nowMs, unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (user_id, chat_id) = (string_or_absent(user_id, "userId")?, string_or_absent(chat_id, "chatId")?);
        to_js(&self.0.take(user_id.as_deref(), chat_id.as_deref(), time(now_ms, "nowMs")?))
    }

    /// Reviews waiting.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.0.len() as u32
    }

    /// The store as plain data, for `fromJSON`.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "PlanReviewStoreData")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        to_js(&self.0)
    }
}

impl Default for PlanReviewStore {
    fn default() -> Self {
        PlanReviewStore::new()
    }
}
