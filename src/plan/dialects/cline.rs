//! Cline's `task_progress`: not a tool but a parameter Cline adds to its ordinary tool
//! calls, a markdown checklist (`- [ ]` to do, `- [x]` done; some models join the lines
//! with `<br>`) that replaces the list each time. Cline marks no task in progress: the
//! first unchecked one is the current one.

use schemars::JsonSchema;

use super::roo::checklist;
use super::{Effect, Item, MAX_TODOS};
use crate::json::from_value::struct_from_value;
use crate::plan::todos::TodoStatus;
use crate::text::replace;

/// The parameter, as a call carries it.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
pub struct TaskProgressArgs {
    /// A checklist showing task progress after this tool use is completed.
    #[schemars(length(max = 400_000))]
    pub task_progress: String,
}

struct_from_value!(TaskProgressArgs { task_progress });

/// The checklist's items, the first unchecked one in progress; no answer of its own
/// (the tool it rides on answers).
pub(super) fn read(args: TaskProgressArgs) -> Result<Effect, String> {
    let text = replace(&args.task_progress, "<br/>", "\n");
    let text = replace(&replace(&text, "<br />", "\n"), "<br>", "\n");
    let mut items: Vec<Item> = checklist(&text).into_iter().map(|(content, status)| (None, content, status)).collect();
    if items.len() > MAX_TODOS {
        return Err(format!("This checklist has {} items; planloop follows at most {MAX_TODOS}.", items.len()));
    }
    if !items.iter().any(|(.., status)| *status == TodoStatus::InProgress) {
        if let Some(current) = items.iter_mut().find(|(.., status)| *status == TodoStatus::Pending) {
            current.2 = TodoStatus::InProgress;
        }
    }
    Ok(Effect::replace(items, ""))
}
