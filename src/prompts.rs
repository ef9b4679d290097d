//! Every text planloop puts in front of a model, in English and Chinese. Long templates
//! live in `src/prompts/*.md`; `{{{key}}}` marks where values go.

use crate::config::Language;

const CONTINUATION_EN: &str = include_str!("prompts/continuation.en.md");
const CONTINUATION_ZH: &str = include_str!("prompts/continuation.zh.md");
const REMINDER_EN: &str = include_str!("prompts/reminder.en.md");
const REMINDER_ZH: &str = include_str!("prompts/reminder.zh.md");
const RESUME_EN: &str = include_str!("prompts/resume.en.md");
const RESUME_ZH: &str = include_str!("prompts/resume.zh.md");

/// Replaces each `{{{key}}}` in `template` with its value; unknown keys stay as they are.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 3..];
        match after.find("}}}") {
            Some(end) => {
                let key = &after[..end];
                match values.iter().find(|(k, _)| *k == key) {
                    Some((_, value)) => out.push_str(value),
                    None => out.push_str(&rest[start..start + 3 + end + 3]),
                }
                rest = &after[end + 3..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// How the model marks its plan finished, named in the continuation message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinishBy {
    /// `plan_progress(plan_status="completed")`.
    PlanProgress,
    /// Marking every todo completed with the named todo tool.
    Todos(&'static str),
    /// Saying `[Done]` as each `[Step]` is finished.
    Steps,
}

/// Seed 000's continuation message for a text-only reply while the plan is unfinished.
pub fn continuation(language: Language, plan: &str, goal: &str, finish: FinishBy) -> String {
    let finish = match (language, finish) {
        (Language::En, FinishBy::PlanProgress) => {
            "If every step is done, call plan_progress(plan_status=\"completed\") to mark the plan completed."
                .to_owned()
        }
        (Language::Zh, FinishBy::PlanProgress) => {
            "如果所有步骤已完成，调用 plan_progress(plan_status=\"completed\") 标记计划完成。".to_owned()
        }
        (Language::En, FinishBy::Todos(tool)) => {
            format!("If every step is done, call {tool} with every item marked completed.")
        }
        (Language::Zh, FinishBy::Todos(tool)) => format!("如果所有步骤已完成，调用 {tool} 把每一项标记为 completed。"),
        (Language::En, FinishBy::Steps) => {
            "Say \"[Done]\" as you finish each step; when every step is done, give your final answer.".to_owned()
        }
        (Language::Zh, FinishBy::Steps) => "每完成一个步骤就说 \"[完成]\"；所有步骤完成后再给出最终答案。".to_owned(),
    };
    let template = match language {
        Language::En => CONTINUATION_EN,
        Language::Zh => CONTINUATION_ZH,
    };
    fill(template, &[("plan", plan), ("goal", goal), ("finish", &finish)]).trim_end().to_owned()
}

/// The goal/plan reminder appended to the last tool message of a batch.
pub fn reminder(language: Language, goal: &str, plan: &str) -> String {
    let template = match language {
        Language::En => REMINDER_EN,
        Language::Zh => REMINDER_ZH,
    };
    fill(template, &[("goal", goal), ("plan", plan)]).trim_end().to_owned()
}

/// The block put before "continue" when it resumes a paused plan (seed 001).
pub fn resume(language: Language, goal: &str, plan: &str, done: &str, next: Option<&str>) -> String {
    let template = match language {
        Language::En => RESUME_EN,
        Language::Zh => RESUME_ZH,
    };
    let none = match language {
        Language::En => "(see the plan)",
        Language::Zh => "（见计划）",
    };
    let values = [("goal", goal), ("plan", plan), ("done", done), ("next", next.unwrap_or(none))];
    fill(template, &values).trim_end().to_owned()
}

/// "Tool rounds remaining: X of Y", and what to do when none are left.
pub fn budget_line(language: Language, remaining: u32, total: u32) -> String {
    match (language, remaining) {
        (Language::En, 0) => format!("Tool rounds remaining: 0 of {total}. Give your final answer now, without tools."),
        (Language::En, _) => format!("Tool rounds remaining: {remaining} of {total}."),
        (Language::Zh, 0) => format!("剩余工具轮次: 0/{total}。请现在直接给出最终答案，不要再调用工具。"),
        (Language::Zh, _) => format!("剩余工具轮次: {remaining}/{total}。"),
    }
}

/// The nudge for a reply with neither text nor tool calls.
pub fn empty_reply(language: Language) -> String {
    match language {
        Language::En => "Your last reply was empty. Continue with the task, or give your final answer.".to_owned(),
        Language::Zh => "你的上一条回复是空的。请继续执行任务，或给出最终答案。".to_owned(),
    }
}

/// The nudge for an explicit CONTINUE signal (seed 003) without tool calls.
pub fn carry_on(language: Language) -> String {
    match language {
        Language::En => "Continue: take your next action.".to_owned(),
        Language::Zh => "请继续：执行你的下一步操作。".to_owned(),
    }
}

/// The nudge for a model repeating itself; `what` says how.
pub fn stuck(language: Language, what: &str) -> String {
    match language {
        Language::En => format!(
            "<stuck>You seem to be going in circles: {what}. Do not repeat it. Try a different approach, or give your final answer with what you have.</stuck>"
        ),
        Language::Zh => format!("<stuck>你似乎在原地打转：{what}。不要再重复。换一种方法，或根据已有信息给出最终答案。</stuck>"),
    }
}

/// A note at the end of tool output that was cut.
pub fn truncated(language: Language, kept: usize, total: usize) -> String {
    match language {
        Language::En => format!("\n[output cut: first {kept} of {total} characters]"),
        Language::Zh => format!("\n[输出已截断: 保留前 {kept} 个字符，共 {total} 个]"),
    }
}

/// Why `plan_progress` was not recorded: it must come alone.
pub fn plan_progress_alone(language: Language) -> String {
    match language {
        Language::En => "plan_progress() must be called alone, without other tools. Nothing was recorded.".to_owned(),
        Language::Zh => "plan_progress() 必须单独调用。".to_owned(),
    }
}

/// Why `plan_progress` was not recorded: there is no plan yet.
pub fn plan_first(language: Language) -> String {
    match language {
        Language::En => "There is no plan yet: call plan() with your goal and steps first.".to_owned(),
        Language::Zh => "还没有计划：请先调用 plan() 给出目标和步骤。".to_owned(),
    }
}

/// The progress summary of a turn paused at a limit.
pub fn paused(language: Language, limit: &str, done: &str, next: Option<&str>) -> String {
    match (language, next) {
        (Language::En, Some(next)) => {
            format!("Paused at the {limit}. Done so far: {done}. Next: {next}. Say \"continue\" to resume.")
        }
        (Language::En, None) => format!("Paused at the {limit}. Done so far: {done}. Say \"continue\" to resume."),
        (Language::Zh, Some(next)) => {
            format!("已在{limit}处暂停。已完成: {done}。下一步: {next}。回复“继续”即可恢复。")
        }
        (Language::Zh, None) => format!("已在{limit}处暂停。已完成: {done}。回复“继续”即可恢复。"),
    }
}

/// "2/5 steps", for progress summaries.
pub fn steps_done(language: Language, done: usize, total: usize) -> String {
    match language {
        Language::En => format!("{done}/{total} steps"),
        Language::Zh => format!("{done}/{total} 个步骤"),
    }
}

/// "3 recorded steps": steps reported with `plan_progress`.
pub fn recorded_steps(language: Language, count: usize) -> String {
    match language {
        Language::En => format!("{count} recorded steps"),
        Language::Zh => format!("已记录 {count} 个步骤"),
    }
}

pub fn no_steps(language: Language) -> &'static str {
    match language {
        Language::En => "no planned steps",
        Language::Zh => "尚无计划步骤",
    }
}

/// The names of the limits, for summaries.
pub fn limit_name(language: Language, timeout: bool) -> &'static str {
    match (language, timeout) {
        (Language::En, false) => "iteration limit",
        (Language::En, true) => "time limit",
        (Language::Zh, false) => "迭代次数上限",
        (Language::Zh, true) => "时间上限",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_substitutes_known_keys_only() {
        assert_eq!(fill("a {{{x}}} b {{{y}}} {{{x}}}", &[("x", "1")]), "a 1 b {{{y}}} 1");
        assert_eq!(fill("open {{{x", &[("x", "1")]), "open {{{x");
    }

    #[test]
    fn the_continuation_message_carries_plan_goal_and_how_to_finish() {
        let en = continuation(Language::En, "1. a\n2. b", "Ship it", FinishBy::PlanProgress);
        assert!(en.starts_with("<plan-continuation>") && en.ends_with("</plan-continuation>"));
        assert!(
            en.contains("1. a\n2. b")
                && en.contains("Ship it")
                && en.contains("plan_progress(plan_status=\"completed\")")
        );
        let zh = continuation(Language::Zh, "计划", "目标", FinishBy::Todos("write_todos"));
        assert!(zh.contains("你刚完成了计划中的一个步骤") && zh.contains("write_todos"));
    }
}
