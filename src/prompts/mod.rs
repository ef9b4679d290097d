//! Every text planloop puts in front of a model, in English and Chinese: the messages of
//! a turn and the parts of a composed system prompt. Long templates live in
//! `src/prompts/*.md`; `{{{key}}}` marks where values go.

pub mod compose;
pub mod delegation;
pub mod echo;
pub mod goal;

use std::ops::Range;

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::enum_from_value;
use crate::text::{part, push_decimal};

/// The language of the prompts planloop injects (continuation nudges, reminders).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    #[default]
    En,
    Zh,
}

enum_from_value!(Language, "lowercase" [En, Zh]);

const CONTINUATION_EN: &str = include_str!("continuation.en.md");
const CONTINUATION_ZH: &str = include_str!("continuation.zh.md");
const REMINDER_EN: &str = include_str!("reminder.en.md");
const REMINDER_ZH: &str = include_str!("reminder.zh.md");
const RESUME_EN: &str = include_str!("resume.en.md");
const RESUME_ZH: &str = include_str!("resume.zh.md");
const CORE_EN: &str = include_str!("core.en.md");
const CORE_ZH: &str = include_str!("core.zh.md");
const PLANNER_TOOLS_EN: &str = include_str!("planner_tools.en.md");
const PLANNER_TOOLS_ZH: &str = include_str!("planner_tools.zh.md");
const CONTINUATION_PROTOCOL_EN: &str = include_str!("continuation_protocol.en.md");
const CONTINUATION_PROTOCOL_ZH: &str = include_str!("continuation_protocol.zh.md");
const TOOL_GUIDELINES_EN: &str = include_str!("tool_guidelines.en.md");
const TOOL_GUIDELINES_ZH: &str = include_str!("tool_guidelines.zh.md");
const CURRENT_PLAN_EN: &str = include_str!("current_plan.en.md");
const CURRENT_PLAN_ZH: &str = include_str!("current_plan.zh.md");

/// The `{{{key}}}` placeholders of `template`, in order: where each lies (in bytes,
/// braces included) and its key. A key has no whitespace or
/// braces, so prose or code that happens to hold `{{{` is left alone, and `{{{{x}}}` is
/// `{` then `{{{x}}}`.
pub fn placeholders(template: &str) -> Placeholders<'_> {
    Placeholders { template, from: 0 }
}

/// The iterator [`placeholders`] returns. Prompts are tens of kilobytes with a placeholder
/// every few hundred bytes, so the text between them is skipped eight bytes at a time
/// (`find_brace`) and each `{` is looked at byte by byte; the text between
/// placeholders is the caller's to take as one run (this scan is most of
/// `composePrompt`'s time).
pub struct Placeholders<'t> {
    template: &'t str,
    from: usize,
}

impl<'t> Iterator for Placeholders<'t> {
    type Item = (Range<usize>, &'t str);

    fn next(&mut self) -> Option<(Range<usize>, &'t str)> {
        let bytes = self.template.as_bytes();
        while let Some(i) = find_brace(bytes.get(self.from..)?) {
            // (A `{` byte is always a whole character in UTF-8.)
            let at = self.from + i;
            match placeholder_key(self.template, at) {
                Some(key) => {
                    self.from = at + key.len() + 6;
                    return Some((at..self.from, key));
                }
                None => self.from = at + 1,
            }
        }
        self.from = bytes.len();
        None
    }
}

/// The first `{` in `bytes`, found eight bytes at a time: the module has 64-bit
/// integers but no SIMD (which some browsers still in use lack), and `memchr` reads a
/// machine word, four bytes in wasm32. Measured: `composePrompt` ~5 % faster than with
/// `memchr`, which the module then no longer carries.
fn find_brace(bytes: &[u8]) -> Option<usize> {
    // A byte of the word XOR `{`s is zero where `bytes` holds `{`; the lowest byte the
    // classic zero-byte test marks is always a true one (only higher ones can be false).
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const PATTERN: u64 = LO * b'{' as u64;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default()) ^ PATTERN;
        let found = word.wrapping_sub(LO) & !word & HI;
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks.remainder().iter().position(|&b| b == b'{').map(|i| at + i)
}

/// The key of the placeholder that starts at byte `at` of `text`, if one does. Read as
/// bytes, sliced once: the module is built for size, and each `str` slice is a call.
fn placeholder_key(text: &str, at: usize) -> Option<&str> {
    let bytes = text.as_bytes();
    if !matches!(bytes.get(at..at + 3), Some(b"{{{")) {
        return None;
    }
    // Keys are mostly ASCII: bytes are read until one that ends the key (ASCII
    // whitespace is `\t` to `\r` and space) or is not ASCII, and only then characters
    // (a key ends at any Unicode whitespace).
    let start = at + 3;
    let mut end = start;
    while let Some(&b) = bytes.get(end) {
        match b {
            b'{' | b'}' | b'\t'..=b'\r' | b' ' => break,
            0x80.. => {
                end += text.get(end..)?.find(|c: char| c.is_whitespace() || c == '{' || c == '}')?;
                break;
            }
            _ => end += 1,
        }
    }
    match end > start && matches!(bytes.get(end..end + 3), Some(b"}}}")) {
        true => text.get(start..end),
        false => None,
    }
}

/// Replaces each `{{{key}}}` in `template` with its value, once: a value's own text is
/// never scanned. Unknown keys stay as they are.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut done = 0;
    for (place, key) in placeholders(template) {
        if let Some((_, value)) = values.iter().find(|(k, _)| *k == key) {
            out.push_str(part(template, done..place.start));
            out.push_str(value);
            done = place.end;
        }
    }
    out.push_str(part(template, done..));
    out
}

/// planloop's built-in text for a part of a composed system prompt (see `compose`),
/// under its own heading; `None` for a part it has no text for.
pub fn section(name: &str, language: Language) -> Option<&'static str> {
    let text = match (name, language) {
        ("core", Language::En) => CORE_EN,
        ("core", Language::Zh) => CORE_ZH,
        ("planner_tools", Language::En) => PLANNER_TOOLS_EN,
        ("planner_tools", Language::Zh) => PLANNER_TOOLS_ZH,
        ("continuation_protocol", Language::En) => CONTINUATION_PROTOCOL_EN,
        ("continuation_protocol", Language::Zh) => CONTINUATION_PROTOCOL_ZH,
        ("tool_guidelines", Language::En) => TOOL_GUIDELINES_EN,
        ("tool_guidelines", Language::Zh) => TOOL_GUIDELINES_ZH,
        _ => return None,
    };
    Some(text.trim_end())
}

/// Seed 001's current-plan block: the task, the current step (`counts` is its number and
/// the number of steps) and how to move on. Without a step, the model is asked to plan
/// its steps first, as `[Step]` lines (seed 001, problem 1).
pub fn current_plan(language: Language, goal: &str, step: Option<&str>, counts: Option<(u32, u32)>) -> String {
    let step = match (language, step, counts) {
        (Language::En, Some(step), Some((n, total))) => format!("Current step ({n}/{total}): {step}"),
        (Language::En, Some(step), None) => format!("Current step: {step}"),
        (Language::En, None, _) => {
            "Plan your steps first: one per line, as \"[Step] description\", then carry them out in order.".to_owned()
        }
        (Language::Zh, Some(step), Some((n, total))) => format!("当前步骤 ({n}/{total}): {step}"),
        (Language::Zh, Some(step), None) => format!("当前步骤: {step}"),
        (Language::Zh, None, _) => "请先规划任务步骤，每行一个，使用 \"[Step] 描述\" 格式，然后按顺序执行。".to_owned(),
    };
    let template = match language {
        Language::En => CURRENT_PLAN_EN,
        Language::Zh => CURRENT_PLAN_ZH,
    };
    fill(template, &[("goal", goal), ("step", &step)]).trim_end().to_owned()
}

/// How the model marks its plan finished, named in the continuation message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinishBy {
    /// `plan_progress(plan_status="completed")`.
    PlanProgress,
    /// Marking every todo completed with the named todo tool.
    Todos(&'static str),
    /// Checking every item of a `task_progress` checklist (Cline).
    Checklist,
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
        (Language::En, FinishBy::Checklist) => {
            "If every step is done, pass task_progress with every item checked ([x]) in your next tool call.".to_owned()
        }
        (Language::Zh, FinishBy::Checklist) => {
            "如果所有步骤已完成，在下一次工具调用中传入 task_progress，并勾选每一项（[x]）。".to_owned()
        }
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

/// "Tool rounds remaining: X of Y", the tokens left under a token limit, and what to do
/// when no rounds are left.
pub fn budget_line(language: Language, remaining: u32, total: u32, tokens: Option<u32>) -> String {
    // Written, not formatted, into one string: this line is written on every decision.
    let mut line = Vec::with_capacity(128);
    let (start, of, end, tokens_left, answer_now) = match language {
        Language::En => (
            "Tool rounds remaining: ",
            " of ",
            ".",
            " Tokens remaining: ",
            " Give your final answer now, without tools.",
        ),
        Language::Zh => ("剩余工具轮次: ", "/", "。", "剩余令牌: ", "请现在直接给出最终答案，不要再调用工具。"),
    };
    line.extend_from_slice(start.as_bytes());
    push_decimal(&mut line, remaining.into());
    line.extend_from_slice(of.as_bytes());
    push_decimal(&mut line, total.into());
    line.extend_from_slice(end.as_bytes());
    if let Some(tokens) = tokens {
        line.extend_from_slice(tokens_left.as_bytes());
        push_decimal(&mut line, tokens.into());
        line.extend_from_slice(end.as_bytes());
    }
    if remaining == 0 {
        line.extend_from_slice(answer_now.as_bytes());
    }
    String::from_utf8(line).unwrap_or_default()
}

/// The nudge for a reply with neither tool calls nor text of the model's own.
pub fn empty_reply(language: Language) -> String {
    match language {
        Language::En => "Your last reply had no answer of your own (it was empty, or only repeated these instructions). Continue with the task, or give your final answer.".to_owned(),
        Language::Zh => "你的上一条回复没有你自己的内容（为空，或只是重复了这些指示）。请继续执行任务，或给出最终答案。".to_owned(),
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

/// The nudge for a reply that is a tool call written out as text and cut short, or not
/// valid: it did not run, and it is no answer.
pub fn cut_off_call(language: Language) -> String {
    match language {
        Language::En => "<cut-off-call>Your last reply was a tool call written out as text, cut off before its end (or not valid JSON), so it did not run. Make the call again with shorter arguments, through the tools you were given, or give your final answer in plain words.</cut-off-call>".to_owned(),
        Language::Zh => "<cut-off-call>你的上一条回复是以文本写出的工具调用，在结尾之前被截断（或不是有效的 JSON），因此没有执行。请通过提供给你的工具重新调用，并缩短参数；或用普通文字给出最终答案。</cut-off-call>".to_owned(),
    }
}

/// The nudge for a reply that is a whole tool call written out as text: it did not run,
/// and it is no answer.
pub fn call_as_text(language: Language) -> String {
    match language {
        Language::En => "<call-as-text>Your last reply was a tool call written out as text, so it did not run. Make the call through the tools you were given, or give your final answer in plain words.</call-as-text>".to_owned(),
        Language::Zh => "<call-as-text>你的上一条回复是以文本写出的工具调用，因此没有执行。请通过提供给你的工具进行调用，或用普通文字给出最终答案。</call-as-text>".to_owned(),
    }
}

/// A note at the end of tool output that was cut.
pub fn truncated(language: Language, kept: usize, total: usize) -> String {
    match language {
        Language::En => format!("\n[output cut: first {kept} of {total} characters]"),
        Language::Zh => format!("\n[输出已截断: 保留前 {kept} 个字符，共 {total} 个]"),
    }
}

/// The reply to a call that repeats an earlier call of the same reply (same tool, same
/// arguments): taken once, so a model that doubles its calls is not refused or asked twice.
pub fn same_call(language: Language, first: &str) -> String {
    match language {
        Language::En => format!(
            "This call repeats call {first} of the same reply (same tool, same arguments): it was taken once, as {first}; that call's result answers both."
        ),
        Language::Zh => {
            format!("此调用与同一回复中的调用 {first} 完全相同（同一工具、同样参数）：只按 {first} 执行一次；其结果即两者的结果。")
        }
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

/// The summary of a run that handed back with no words of its own.
pub fn stopped_short(language: Language, done: &str, next: Option<&str>) -> String {
    match (language, next) {
        (Language::En, Some(next)) => format!("Stopped before a final answer. Done so far: {done}. Next: {next}."),
        (Language::En, None) => format!("Stopped before a final answer. Done so far: {done}."),
        (Language::Zh, Some(next)) => format!("在给出最终答复前停止。已完成: {done}。下一步: {next}。"),
        (Language::Zh, None) => format!("在给出最终答复前停止。已完成: {done}。"),
    }
}

/// The headings of a handoff's text (see `session::handoff`).
pub struct HandoffHeadings {
    pub capsule: &'static str,
    pub goal: &'static str,
    pub summary: &'static str,
    pub todos: &'static str,
    pub findings: &'static str,
    pub evidence: &'static str,
    pub questions: &'static str,
    pub budget: &'static str,
    pub transcript: &'static str,
    /// The last line of a text cut at its cap.
    pub cut: &'static str,
}

pub fn handoff_headings(language: Language) -> HandoffHeadings {
    match language {
        Language::En => HandoffHeadings {
            capsule: "Sub-agent capsule",
            goal: "Goal",
            summary: "Summary",
            todos: "Todos",
            findings: "Findings",
            evidence: "Evidence (tool calls)",
            questions: "Open questions",
            budget: "Model calls · time",
            transcript: "Full transcript",
            cut: "(cut to fit; the full transcript has the rest)",
        },
        Language::Zh => HandoffHeadings {
            capsule: "子代理结果摘要",
            goal: "目标",
            summary: "概述",
            todos: "待办",
            findings: "发现",
            evidence: "依据（工具调用）",
            questions: "待解决的问题",
            budget: "模型调用 · 用时",
            transcript: "完整记录",
            cut: "（已截断；其余内容见完整记录）",
        },
    }
}

/// The reply to a call that waits with the plan for the user's review.
pub fn not_run_awaiting_review(language: Language) -> &'static str {
    match language {
        Language::En => "Not run: the plan is waiting for the user's review.",
        Language::Zh => "未执行：计划正在等待用户确认。",
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

/// A limit a turn stops at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Iterations,
    Time,
    Tokens,
}

/// The names of the limits, for summaries.
pub fn limit_name(language: Language, limit: Limit) -> &'static str {
    match (language, limit) {
        (Language::En, Limit::Iterations) => "iteration limit",
        (Language::En, Limit::Time) => "time limit",
        (Language::En, Limit::Tokens) => "token budget",
        (Language::Zh, Limit::Iterations) => "迭代次数上限",
        (Language::Zh, Limit::Time) => "时间上限",
        (Language::Zh, Limit::Tokens) => "令牌预算",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::decimals::Decimals;

    #[test]
    fn the_budget_line_shows_tokens_only_under_a_token_limit() {
        assert_eq!(budget_line(Language::En, 3, 19, None), "Tool rounds remaining: 3 of 19.");
        assert_eq!(
            budget_line(Language::En, 3, 19, Some(1200)),
            "Tool rounds remaining: 3 of 19. Tokens remaining: 1200."
        );
        assert_eq!(
            budget_line(Language::En, 0, 19, Some(0)),
            "Tool rounds remaining: 0 of 19. Tokens remaining: 0. Give your final answer now, without tools."
        );
        assert_eq!(budget_line(Language::Zh, 3, 19, Some(1200)), "剩余工具轮次: 3/19。剩余令牌: 1200。");
        assert_eq!(
            budget_line(Language::Zh, 0, 19, None),
            "剩余工具轮次: 0/19。请现在直接给出最终答案，不要再调用工具。"
        );
    }

    #[test]
    fn find_brace_finds_the_first_brace_wherever_it_lies() {
        // Every length to past two words, a brace at each place, bytes around it that
        // differ from `{` by one bit (`z`, `;`, `\xFB`), which a word test could take for it.
        for len in 0..20 {
            for filler in [b'z', b';', 0xFB, b'}'] {
                let mut bytes = vec![filler; len];
                assert_eq!(find_brace(&bytes), None, "{len} {filler}");
                for at in (0..len).rev() {
                    bytes[at] = b'{';
                    assert_eq!(find_brace(&bytes), Some(at), "{len} {filler} {at}");
                }
            }
        }
    }

    #[test]
    fn fill_substitutes_known_keys_only() {
        assert_eq!(fill("a {{{x}}} b {{{y}}} {{{x}}}", &[("x", "1")]), "a 1 b {{{y}}} 1");
        assert_eq!(fill("open {{{x", &[("x", "1")]), "open {{{x");
        assert_eq!(fill("{{{x}}}", &[("x", "{{{x}}}")]), "{{{x}}}", "a value is not scanned again");
    }

    #[test]
    fn a_placeholder_key_has_no_whitespace_or_braces() {
        let all = |t: &'static str| placeholders(t).map(|(place, key)| (place.start, key)).collect::<Vec<_>>();
        assert_eq!(all("{{{{x}}}}"), [(1, "x")]);
        let text = "{{{a b}}} {{{}}} {{{a{{{b}}}";
        assert_eq!(all(text), [(text.find("{{{b").unwrap(), "b")]);
        assert_eq!(all("é{{{ü}}} {{{x}}}"), [(2, "ü"), (11, "x")]);
        assert_eq!(all(""), []);
        assert_eq!(all("{"), []);
        // Any Unicode whitespace ends a key, ASCII or not, in its first character or later.
        for text in ["{{{a\u{b}b}}}", "{{{a\u{85}b}}}", "{{{ké\u{3000}x}}}", "{{{\u{a0}}}}", "{{{a\u{c}}}}"] {
            assert_eq!(all(text), [], "{text:?}");
        }
        assert_eq!(all("{{{ké_1}}}"), [(0, "ké_1")]);
        assert_eq!(all("{{{é}}}"), [(0, "é")]);
    }

    #[test]
    fn the_continuation_protocol_shows_the_object_planloop_reads_where_it_says_to_put_it() {
        use crate::session::continuation::{read, ReportedProgress, Source, Status};
        for language in [Language::En, Language::Zh] {
            let text = section("continuation_protocol", language).unwrap();
            let example = text.split("```json\n").nth(1).and_then(|rest| rest.split("\n```").next()).unwrap();
            for reply in [format!("Step 3 is done.\n{example}"), format!("Step 3 is done.\n```json\n{example}\n```")] {
                let reading = read(&reply, true, Decimals::RUST);
                assert_eq!(reading.answer, "Step 3 is done.");
                assert_eq!((reading.signal.status, reading.signal.source), (Status::Continue, Source::Explicit));
                let progress =
                    ReportedProgress { current_step: Some(3), total_steps: Some(5), completion_percentage: Some(60.0) };
                assert_eq!(reading.signal.progress, Some(progress));
            }
        }
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
