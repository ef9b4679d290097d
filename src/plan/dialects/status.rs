//! The four statuses of Cursor's and OpenCode's todos: planloop's three and `cancelled`,
//! a dropped task, which counts as finished.

use schemars::JsonSchema;

use crate::json::from_value::enum_from_value;
use crate::plan::todos::TodoStatus;

/// A todo's status in Cursor and OpenCode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CancellableStatus {
    Pending,
    InProgress,
    Completed,
    Cancelled,
}

enum_from_value!(CancellableStatus, "snake_case" [Pending, InProgress, Completed, Cancelled]);

impl CancellableStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            CancellableStatus::Cancelled => "cancelled",
            other => other.todo_status().as_str(),
        }
    }

    /// planloop's status: cancelled is finished.
    pub fn todo_status(self) -> TodoStatus {
        match self {
            CancellableStatus::Pending => TodoStatus::Pending,
            CancellableStatus::InProgress => TodoStatus::InProgress,
            CancellableStatus::Completed | CancellableStatus::Cancelled => TodoStatus::Completed,
        }
    }
}
