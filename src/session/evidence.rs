//! Evidence for each item: the receipts of the tool calls whose results came in while
//! an item was in progress, kept for the items of the current list (the last
//! [`ITEM_RECEIPTS_KEPT`] each). An item marked completed with none is unbacked: flagged
//! in `todos()`, an event and the trail (a 135M model wrote its whole list as done
//! before doing anything).

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::struct_from_value;
use crate::plan::todos::{Todo, TodoStatus};
use crate::prompts::goal as prompts;
use crate::session::events::EventKind;
use crate::session::turn::Receipt;

use super::Session;

/// The most receipts an item keeps.
pub const ITEM_RECEIPTS_KEPT: usize = 8;
/// The most items evidence is kept for (a list of another agent's dialect holds at most
/// this many).
pub const ITEMS_KEPT: usize = crate::plan::dialects::MAX_TODOS;
/// The longest observation a receipt keeps.
pub const OBSERVATION_KEPT: usize = 160;

/// The receipts of one item of the list.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ItemEvidence {
    #[schemars(length(max = 40))]
    pub todo_id: String,
    #[schemars(length(max = ITEM_RECEIPTS_KEPT))]
    pub receipts: Vec<Receipt>,
}

struct_from_value!(ItemEvidence, "camelCase" { todo_id, receipts });

// (The todo's fields are written out, not flattened: serde's flattening brought 0.9 KB
// gzip into the session module.)
/// A todo with what backs it, as `todos()` gives it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct EvidencedTodo {
    /// The item's id.
    pub id: String,
    pub content: String,
    /// `pending`, `in_progress` or `completed`.
    pub status: TodoStatus,
    /// The calls made while it was in progress, the last 8.
    pub receipts: Vec<Receipt>,
    /// Completed with no receipt: nothing shows the work was done.
    pub unbacked: bool,
}

impl Session {
    /// The list, each item with its receipts and whether it is unbacked.
    pub fn todos_with_evidence(&self) -> Vec<EvidencedTodo> {
        let mut todos = Vec::with_capacity(self.planner.todos().len());
        for todo in self.planner.todos() {
            let receipts = self.receipts_of(&todo.id).to_vec();
            let unbacked = todo.status == TodoStatus::Completed && receipts.is_empty();
            let (id, content, status) = (todo.id.clone(), todo.content.clone(), todo.status);
            todos.push(EvidencedTodo { id, content, status, receipts, unbacked });
        }
        todos
    }

    /// The evidence of each item of the list, in its order (no receipts for some).
    pub fn item_evidence(&self) -> Vec<ItemEvidence> {
        let mut items = Vec::with_capacity(self.planner.todos().len());
        for todo in self.planner.todos() {
            items.push(ItemEvidence { todo_id: todo.id.clone(), receipts: self.receipts_of(&todo.id).to_vec() });
        }
        items
    }

    pub(super) fn receipts_of(&self, id: &str) -> &[Receipt] {
        self.evidence.iter().find(|e| e.todo_id == id).map_or(&[], |e| e.receipts.as_slice())
    }

    /// The ids of the items in progress now, whose evidence a result coming in is.
    pub(super) fn in_progress_ids(&self) -> Vec<String> {
        let todos = self.planner.todos().iter();
        todos.filter(|t| t.status == TodoStatus::InProgress).map(|t| t.id.clone()).collect()
    }

    /// Adds `receipt` to the evidence of item `id` (in place of one of the same call),
    /// while the item is on the list.
    pub(super) fn attach(&mut self, id: &str, receipt: &Receipt) {
        if !self.planner.todos().iter().any(|t| t.id == id) {
            return;
        }
        let at = match self.evidence.iter().position(|e| e.todo_id == id) {
            Some(at) => at,
            None => {
                if self.evidence.len() == ITEMS_KEPT {
                    self.evidence.remove(0);
                }
                self.evidence.push(ItemEvidence { todo_id: id.to_owned(), receipts: Vec::new() });
                self.evidence.len() - 1
            }
        };
        let receipts = &mut self.evidence[at].receipts;
        match receipts.iter().position(|r| r.id == receipt.id) {
            Some(same) => receipts[same] = receipt.clone(),
            None => {
                if receipts.len() == ITEM_RECEIPTS_KEPT {
                    receipts.remove(0);
                }
                receipts.push(receipt.clone());
            }
        }
    }

    /// After the list changed: the evidence of items no longer on it goes, and each item
    /// newly completed with no receipt is flagged (an event, a note in the trail).
    pub(super) fn evidence_after(&mut self, before: &[Todo], iteration: u32, now: f64) {
        let todos = self.planner.todos();
        self.evidence.retain(|e| todos.iter().any(|t| t.id == e.todo_id));
        let done = |list: &[Todo], id: &str| list.iter().any(|t| t.id == id && t.status == TodoStatus::Completed);
        // Each item completed now: the trail names the calls that back it, or flags it.
        let mut notes = Vec::new();
        for todo in todos.iter().filter(|t| t.status == TodoStatus::Completed && !done(before, &t.id)) {
            let receipts = self.receipts_of(&todo.id);
            let calls: Vec<&str> = receipts.iter().map(|r| r.id.as_str()).collect();
            let note = match calls.is_empty() {
                true => prompts::unbacked_note(self.config.language, &todo.id),
                false => prompts::backed_note(self.config.language, &todo.id, &calls),
            };
            notes.push((note, calls.is_empty().then(|| todo.id.clone())));
        }
        for (note, unbacked) in notes {
            self.log.record_plan_note(&note, iteration, now);
            if let Some(id) = unbacked {
                self.emit(EventKind::ItemUnbacked { todo_id: id }, now);
            }
        }
    }

    /// Each item with its receipts, one line each, for the model.
    pub(super) fn evidence_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for todo in self.planner.todos().iter().take(prompts::ITEMS_SHOWN) {
            let receipts: Vec<String> = self.receipts_of(&todo.id).iter().map(Receipt::line).collect();
            lines.push(prompts::item_line(self.config.language, todo, &receipts));
        }
        lines
    }
}

impl Receipt {
    /// The receipt in one line: what the result said (the tool, ok or failed, the
    /// start of its output), then the call's id.
    pub fn line(&self) -> String {
        match self.observation.is_empty() {
            true => [self.name.as_str(), if self.ok { " ok (" } else { " failed (" }, &self.id, ")"].concat(),
            false => [self.observation.as_str(), " (", &self.id, ")"].concat(),
        }
    }
}
