//! Seed 001 through a `Session`: steps tracked from the model's text, the plan paused at
//! the iteration limit, and "continue" resuming it from its current step.

mod support;

use planloop::plan::steps::{CompletedBy, PlanStatus, StepStatus};
use planloop::session::config::{Language, SessionConfig};
use planloop::session::events::EventKind;
use planloop::session::exchange::{ContinueReason, Decision, ExitReason, ProgressSource};
use support::{call, ok, Drive};

fn config() -> SessionConfig {
    let mut config = SessionConfig::default();
    config.tools.default = planloop::session::approval::ToolClass::Read;
    config
}

fn statuses(d: &Drive) -> Vec<StepStatus> {
    d.session.step_plan().map(|p| p.steps.iter().map(|s| s.status).collect()).unwrap_or_default()
}

use StepStatus::{Completed as C, Pending as P, Running as R};

#[test]
fn steps_declared_in_text_advance_on_markers_and_the_final_answer_closes_the_last() {
    let history =
        planloop::trail::reasoning::HistoryOptions { mode: planloop::trail::reasoning::HistoryMode::Full, size: 4 };
    let mut d = Drive::new(SessionConfig { history, ..config() });
    d.begin("Download Tencent's last five annual reports and chart the revenue");
    d.act(
        "I'll work in three steps.\n[Step] Download the reports\n[Step] Extract the revenue\n[Step] Draw the chart",
        vec![call("1", "browser", r#"{"url":"https://www.tencent.com/en-us/investors.html"}"#)],
    );
    assert_eq!(statuses(&d), [R, P, P], "the first step runs at once");
    let plan = d.session.step_plan().unwrap();
    assert_eq!(
        (plan.goal.as_str(), plan.status, plan.iteration_count),
        ("Download Tencent's last five annual reports and chart the revenue", PlanStatus::Running, 1)
    );
    d.act("All five reports are saved. [Done]", vec![call("2", "read_pdf", r#"{"path":"2023.pdf"}"#)]);
    assert_eq!(statuses(&d), [C, R, P]);
    assert_eq!(d.session.step_plan().unwrap().steps[0].result.as_deref(), Some("All five reports are saved."));
    d.act("Revenue for 2019-2023 extracted. [完成]", vec![call("3", "plot", "{}")]);
    let progress = d.session.progress();
    assert_eq!((progress.source, progress.completed, progress.total), (ProgressSource::Steps, 2, 3));
    assert_eq!(progress.current.as_deref(), Some("Draw the chart"));
    let last = d.respond("Here is the chart: revenue grew every year.", vec![]);
    assert!(matches!(last, Decision::Finalize { exit_reason: ExitReason::FinalAnswer, .. }), "{last:?}");
    assert_eq!(statuses(&d), [C, C, C]);
    assert_eq!(d.session.step_plan().unwrap().status, PlanStatus::Completed);
    let by: Vec<CompletedBy> = d
        .events
        .iter()
        .filter_map(|e| if let EventKind::StepCompleted { by, .. } = e.kind { Some(by) } else { None })
        .collect();
    assert_eq!(by, [CompletedBy::Marker, CompletedBy::Marker, CompletedBy::FinalAnswer]);
    assert!(d.session.steps().contains(&"[Plan] step_1 done · now: Extract the revenue".to_owned()));
}

#[test]
fn a_final_answer_with_steps_left_is_refused_and_told_how_to_mark_steps() {
    let mut d = Drive::new(config());
    d.begin("Make the charts");
    d.act("[Step] Gather\n[Step] Chart", vec![call("1", "search", "{}")]);
    let early = d.respond("Gathered everything.", vec![]);
    let Decision::Continue { reason: ContinueReason::PlanUnfinished, message, .. } = &early else {
        panic!("{early:?}")
    };
    assert!(message.contains("[-] Gather\n[ ] Chart"), "{message}");
    assert!(message.contains("Say \"[Done]\" as you finish each step"), "{message}");
}

#[test]
fn transition_words_and_the_timeout_complete_steps_and_tool_output_never_does() {
    let mut d = Drive::new(config());
    d.begin("Tidy the notes");
    d.respond("[Step] Read\n[Step] Merge\n[Step] File", vec![call("1", "read", "{}")]);
    // A marker in tool output is not the model speaking.
    d.results(vec![ok("1", "Notes: [Done] [完成] Now merge. Next file.")]);
    assert_eq!(statuses(&d), [R, P, P]);
    d.act("Next, I merge the duplicates.", vec![call("2", "merge", "{}")]);
    assert_eq!(statuses(&d), [C, R, P], "a transition word after a round in the step");
    for i in 0..5 {
        d.act("Still merging.", vec![call(&format!("m{i}"), "merge", &format!(r#"{{"part":{i}}}"#))]);
    }
    assert_eq!(statuses(&d), [C, C, R], "five rounds in a step complete it");
}

#[test]
fn the_iteration_limit_pauses_the_plan_and_continue_resumes_it_with_a_fresh_budget() {
    let mut d = Drive::new(SessionConfig { max_iterations: 3, ..config() });
    d.begin("Chart five years of revenue");
    d.act("[Step] Download\n[Step] Extract\n[Step] Chart", vec![call("1", "download", "{}")]);
    d.act("Downloaded. [Done]", vec![call("2", "extract", "{}")]);
    let paused = d.respond("", vec![call("3", "extract", r#"{"year":2021}"#)]);
    let Decision::Pause { exit_reason: ExitReason::MaxIterations, summary } = &paused else { panic!("{paused:?}") };
    assert_eq!(
        summary,
        "Paused at the iteration limit. Done so far: 1/3 steps. Next: Extract. Say \"continue\" to resume."
    );
    assert_eq!(d.session.step_plan().unwrap().status, PlanStatus::Paused);

    // A negated request does not resume, and the plan stays paused.
    let start = d.begin("Don't continue, just tell me where you are.");
    assert!(!start.message.contains("<resume>"));
    assert_eq!(d.session.step_plan().unwrap().status, PlanStatus::Paused);
    d.respond("I extracted 2019 and 2020; the chart is not done.", vec![]);

    let start = d.begin("continue");
    assert!(start.message.starts_with("<resume>\n"), "{}", start.message);
    assert!(start.message.contains("Goal: Chart five years of revenue\nDone so far: 1/3 steps\nNext: Extract"));
    assert!(start.message.contains("[x] Download\n[-] Extract\n[ ] Chart"));
    assert!(start.message.ends_with("</resume>\n\ncontinue"));
    assert_eq!((start.next.iteration, start.next.tools_withheld), (1, false), "a fresh budget");
    let plan = d.session.step_plan().unwrap();
    assert_eq!((plan.status, plan.current_step_index), (PlanStatus::Running, 1));
    assert_eq!(d.count(|e| matches!(e, EventKind::PlanResumed { step_index: 1, .. })), 1);
    d.act("Extracted every year. [Done]", vec![call("4", "plot", "{}")]);
    let done = d.respond("The chart is in revenue.png.", vec![]);
    assert!(matches!(done, Decision::Finalize { exit_reason: ExitReason::FinalAnswer, .. }));
    assert_eq!(d.session.step_plan().unwrap().status, PlanStatus::Completed);
    assert_eq!(d.session.step_plan().unwrap().iteration_count, 5, "counted across the pause");
}

#[test]
fn chinese_continue_resumes_with_a_chinese_summary() {
    let mut d = Drive::new(SessionConfig { max_iterations: 2, language: Language::Zh, ..config() });
    d.begin("下载财报并制作图表");
    d.act("[步骤] 下载财报\n[步骤] 制作图表", vec![call("1", "download", "{}")]);
    let paused = d.respond("", vec![call("2", "download", r#"{"year":2020}"#)]);
    assert!(matches!(paused, Decision::Pause { .. }));
    let start = d.begin("好的，继续吧");
    assert!(
        start.message.contains("目标: 下载财报并制作图表\n已完成: 0/2 个步骤\n下一步: 下载财报"),
        "{}",
        start.message
    );
}

#[test]
fn the_system_prompt_carries_the_current_step_and_the_budget() {
    use planloop::prompts::compose::PromptParts;
    let parts = || PromptParts {
        base: "You are a finance assistant.".into(),
        components: Vec::new(),
        features: Default::default(),
        values: Default::default(),
    };
    let mut d = Drive::new(SessionConfig { max_iterations: 5, ..config() });
    assert!(d.session.current_plan().is_none(), "no turn, no plan block");
    d.begin("Chart the revenue");
    let first = d.session.system_prompt(parts(), d.now).unwrap();
    assert_eq!(first.components, ["base", "core", "plan", "planner_tools", "tool_guidelines", "budget"]);
    assert!(first.prompt.contains("Task: Chart the revenue\nPlan your steps first"), "{}", first.prompt);
    assert!(first.prompt.ends_with("Tool rounds remaining: 4 of 4."));
    d.act("[Step] Download\n[Step] Extract\n[Step] Chart", vec![call("1", "fetch", "{}")]);
    d.act("[Done]", vec![call("2", "fetch", "{}")]);
    let later = d.session.system_prompt(parts(), d.now).unwrap().prompt;
    assert!(later.contains("Task: Chart the revenue\nCurrent step (2/3): Extract"), "{later}");
    assert!(later.ends_with("Tool rounds remaining: 2 of 4."), "{later}");
    // A todo list, when there is one, is the plan the block shows.
    d.act("", vec![call("t", "write_todos", &support::todos(&[("a", "completed"), ("b", "in_progress")]))]);
    let todos = d.session.system_prompt(parts(), d.now).unwrap().prompt;
    assert!(todos.contains("Current step (2/2): Do b"), "{todos}");
    // The continuation protocol's instructions come with the protocol, in the session's language.
    let mut zh = Drive::new(SessionConfig {
        language: Language::Zh,
        continuation_protocol: planloop::session::config::ContinuationProtocol {
            enabled: true,
            require_explicit_signal: true,
        },
        ..config()
    });
    zh.begin("整理笔记");
    let composed = zh.session.system_prompt(parts(), zh.now).unwrap();
    assert!(composed.components.contains(&"continuation_protocol".to_owned()));
    assert!(composed.prompt.contains("当前任务: 整理笔记"), "{}", composed.prompt);
    // A bad toggle names the argument as the session's API does.
    let mut bad = parts();
    bad.features.0.push(("core".into(), false));
    let error = zh.session.system_prompt(bad, zh.now).unwrap_err();
    assert_eq!(error.data.argument.as_deref(), Some("parts"));
}
