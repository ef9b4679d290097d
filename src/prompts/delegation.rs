//! What a session says about sub-agents: the delegate tool's description, a child's
//! first message, and the replies to a delegate call planloop refuses.

use super::{fill, Language};

/// The delegate tool's description, for the model.
pub const TOOL_DESCRIPTION: &str = include_str!("delegation/tool.md");

const BRIEF_EN: &str = include_str!("delegation/brief.en.md");
const BRIEF_ZH: &str = include_str!("delegation/brief.zh.md");

/// What a child gets as its first message: its task, the parent's item it serves, the
/// context it was given, and how to tell it is done.
pub fn brief(
    language: Language,
    goal: &str,
    item: Option<&str>,
    context: Option<&str>,
    acceptance: &[String],
) -> String {
    let (item_label, context_label, acceptance_label) = match language {
        Language::En => ("Part of the plan item", "Context", "Done when"),
        Language::Zh => ("所属计划项", "背景", "完成标准"),
    };
    let mut details = String::new();
    if let Some(item) = item {
        details.push_str(&format!("{item_label}: {item}\n"));
    }
    if let Some(context) = context {
        details.push_str(&format!("{context_label}:\n{context}\n"));
    }
    if !acceptance.is_empty() {
        details.push_str(&format!("{acceptance_label}:\n"));
        for criterion in acceptance {
            details.push_str(&format!("- {criterion}\n"));
        }
    }
    let template = match language {
        Language::En => BRIEF_EN,
        Language::Zh => BRIEF_ZH,
    };
    fill(template, &[("goal", goal), ("details", &details)]).trim_end().to_owned()
}

/// Why a delegate call was refused, for the model; nothing was started.
pub enum Refusal<'a> {
    /// Sub-agents nest no deeper than `maxDepth`.
    TooDeep(u32),
    /// A turn has at most `maxInFlight` children at a time.
    TooMany(u32),
    /// Fewer than two model calls are left to the turn.
    NoBudget,
    /// No item of the list has this id; the ids there are.
    UnknownTodo(&'a str, &'a str),
    /// The call names no goal.
    NoGoal,
}

pub fn refusal(language: Language, tool: &str, refusal: Refusal<'_>) -> String {
    let why = match (language, refusal) {
        (Language::En, Refusal::TooDeep(max)) => {
            format!("sub-agents nest at most {max} deep, and this one would go deeper. Do the task yourself")
        }
        (Language::En, Refusal::TooMany(max)) => {
            format!("{max} sub-agents are already at work. Wait for their results before you hand out more")
        }
        (Language::En, Refusal::NoBudget) => {
            "too few model calls are left in this turn for a sub-agent. Finish the task yourself".to_owned()
        }
        (Language::En, Refusal::UnknownTodo(id, ids)) => {
            format!("no todo item has the id \"{id}\" (the ids are: {ids})")
        }
        (Language::En, Refusal::NoGoal) => "it names no task: give the goal in full".to_owned(),
        (Language::Zh, Refusal::TooDeep(max)) => format!("子代理最多嵌套 {max} 层，此调用超出限制。请自己完成这项任务"),
        (Language::Zh, Refusal::TooMany(max)) => format!("已有 {max} 个子代理在工作。请等它们返回结果后再分派"),
        (Language::Zh, Refusal::NoBudget) => "本轮剩余的模型调用次数不足以启动子代理。请自己完成这项任务".to_owned(),
        (Language::Zh, Refusal::UnknownTodo(id, ids)) => format!("没有 id 为 \"{id}\" 的待办项（现有 id: {ids}）"),
        (Language::Zh, Refusal::NoGoal) => "没有给出任务：请完整写明目标".to_owned(),
    };
    match language {
        Language::En => format!("Not started: {tool} refused, {why}."),
        Language::Zh => format!("未启动：{tool} 调用被拒绝，{why}。"),
    }
}

/// The note a parent's list gets when a child settles its item.
pub fn settled_note(language: Language, call_id: &str, status: &str) -> String {
    match language {
        Language::En => format!("sub-agent {call_id}: {status}"),
        Language::Zh => format!("子代理 {call_id}: {status}"),
    }
}
