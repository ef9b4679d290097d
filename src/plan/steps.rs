//! Seed 001's plan, tracked from the model's own text: for models that do not call a
//! todo tool, steps come from `[Step] …` lines and advance on the model's words.
//!
//! Completion, in order of precedence (seed 001's final, "v3" strategy):
//! 1. an explicit marker (`[Done]`, `[完成]`, `[Step Done]`, `[步骤完成]`, …) completes the
//!    current step at once, one step per marker;
//! 2. a transition word opening a sentence ("Now…", "Next…", "接下来…", "现在…") completes
//!    it once it has run for at least one round;
//! 3. a step still open after [`STEP_TIMEOUT_ROUNDS`] rounds completes by timeout.
//!
//! Only the text of model responses is read: tool output never reaches this module, so a
//! marker inside a fetched page changes nothing.
//!
//! The serialized form keeps the field names of seed 001's `plan.json`.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::{enum_from_value, struct_from_value};
use crate::text::reflection::extract_reflection;
use crate::text::{cap, part};

/// Rounds after which a running step completes on its own.
pub const STEP_TIMEOUT_ROUNDS: u32 = 5;
/// Steps a plan holds; later declarations are ignored.
pub const MAX_STEPS: usize = 50;
/// Code points kept of a step's description.
pub const MAX_DESCRIPTION_CHARS: usize = 200;
/// Code points kept of a step's result.
const MAX_RESULT_CHARS: usize = 160;

/// Where a plan stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlanStatus {
    Running,
    /// Stopped at a limit; "continue" resumes it.
    Paused,
    Completed,
    Failed,
}

enum_from_value!(PlanStatus, "snake_case" [Running, Paused, Completed, Failed]);

/// Where a step stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Pending,
    Running,
    Completed,
    Failed,
}

enum_from_value!(StepStatus, "snake_case" [Pending, Running, Completed, Failed]);

/// Rounds the step has run, out of the rounds after which it completes by timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepProgress {
    pub current: u32,
    pub total: u32,
}

struct_from_value!(StepProgress { current, total });

/// One step of the plan.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// `step_1`, `step_2`, … in declaration order.
    #[schemars(length(min = 1, max = 16))]
    pub id: String,
    #[schemars(length(min = 1, max = 200))]
    pub description: String,
    pub status: StepStatus,
    /// What the step came to: the first sentence the model wrote when it closed.
    #[schemars(required, transform = crate::validate::schema::nullable, length(max = 160))]
    pub result: Option<String>,
    pub progress: StepProgress,
}

struct_from_value!(Step { id, description, status, result, progress });

/// How a step was completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CompletedBy {
    /// An explicit marker such as `[Done]`.
    Marker,
    /// A transition word, after at least one round in the step.
    Transition,
    /// It ran for [`STEP_TIMEOUT_ROUNDS`] rounds.
    Timeout,
    /// The model gave its final answer while this, the last step, was running.
    FinalAnswer,
}

/// A change a response made to the plan, for the session's events and trail.
#[derive(Debug, Clone, PartialEq)]
pub enum StepChange {
    Started { index: usize },
    Completed { index: usize, by: CompletedBy },
}

/// A plan in seed 001's `plan.json` shape.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepPlan {
    /// `plan_<nowMs>` of its creation.
    #[schemars(length(min = 1, max = 64))]
    pub id: String,
    #[schemars(length(max = 1_000_000))]
    pub goal: String,
    pub status: PlanStatus,
    #[schemars(length(max = 50))]
    pub steps: Vec<Step>,
    /// The running step, or the first one not completed (`steps.length` when all are).
    pub current_step_index: u32,
    /// Model responses since the plan was created, across pauses.
    pub iteration_count: u32,
}

struct_from_value!(StepPlan { id, goal, status, steps, current_step_index, iteration_count });

impl StepPlan {
    pub fn new(goal: &str, now_ms: f64) -> Self {
        StepPlan {
            id: format!("plan_{}", now_ms.max(0.0).floor() as u64),
            goal: goal.to_owned(),
            status: PlanStatus::Running,
            steps: Vec::new(),
            current_step_index: 0,
            iteration_count: 0,
        }
    }

    /// Reads one model response: closes the steps its text completes, then adds the
    /// steps it declares. The first step runs as soon as it exists.
    pub fn read(&mut self, text: &str) -> Vec<StepChange> {
        let mut changes = Vec::new();
        let tokens = scan(text);
        if let Some(index) = self.running() {
            let step = &mut self.steps[index];
            step.progress.current = step.progress.current.saturating_add(1);
            let rounds = step.progress.current;
            let result = result_of(text);
            let markers = tokens.markers;
            if markers > 0 {
                for _ in 0..markers {
                    if !self.complete(CompletedBy::Marker, result.clone(), &mut changes) {
                        break;
                    }
                }
            } else if tokens.transition && rounds >= 1 {
                self.complete(CompletedBy::Transition, result, &mut changes);
            } else if rounds >= STEP_TIMEOUT_ROUNDS {
                self.complete(CompletedBy::Timeout, result, &mut changes);
            }
        }
        for description in tokens.declared {
            let known = self.steps.iter().any(|s| s.description == description);
            if known || self.steps.len() == MAX_STEPS {
                continue;
            }
            let id = format!("step_{}", self.steps.len() + 1);
            let progress = StepProgress { current: 0, total: STEP_TIMEOUT_ROUNDS };
            self.steps.push(Step { id, description, status: StepStatus::Pending, result: None, progress });
        }
        if self.running().is_none() {
            self.start_next(&mut changes);
        }
        changes
    }

    /// A final answer completes the running step when it is the last one left.
    pub fn finish_last(&mut self, answer: &str) -> Option<StepChange> {
        let index = self.running()?;
        let others_open = self.steps.iter().enumerate().any(|(i, s)| i != index && s.status == StepStatus::Pending);
        if others_open {
            return None;
        }
        let mut changes = Vec::new();
        self.complete(CompletedBy::FinalAnswer, result_of(answer), &mut changes);
        changes.pop()
    }

    /// Steps declared and not all completed.
    pub fn unfinished(&self) -> bool {
        self.steps.iter().any(|s| matches!(s.status, StepStatus::Pending | StepStatus::Running))
    }

    pub fn current(&self) -> Option<&Step> {
        self.steps.get(self.current_step_index as usize)
    }

    pub fn completed_count(&self) -> usize {
        self.steps.iter().filter(|s| s.status == StepStatus::Completed).count()
    }

    /// The steps as a checklist: `[x]` done, `[-]` running, `[ ]` to do.
    pub fn checklist(&self) -> String {
        let lines: Vec<String> = self
            .steps
            .iter()
            .map(|s| {
                let mark = match s.status {
                    StepStatus::Completed => "[x]",
                    StepStatus::Running => "[-]",
                    StepStatus::Pending => "[ ]",
                    StepStatus::Failed => "[!]",
                };
                format!("{mark} {}", s.description)
            })
            .collect();
        lines.join("\n")
    }

    /// Why the plan is not self-consistent, if it is not (for restoring a snapshot).
    pub fn inconsistency(&self) -> Option<String> {
        for (i, step) in self.steps.iter().enumerate() {
            if step.id != format!("step_{}", i + 1) {
                return Some(format!("steps[{i}].id should be step_{}", i + 1));
            }
            if step.progress.total != STEP_TIMEOUT_ROUNDS {
                return Some(format!("steps[{i}].progress.total should be {STEP_TIMEOUT_ROUNDS}"));
            }
        }
        let running = self.steps.iter().filter(|s| s.status == StepStatus::Running).count();
        if running > 1 {
            return Some("more than one step is running".to_owned());
        }
        if self.current_step_index as usize != self.expected_index() {
            return Some(format!("current_step_index should be {}", self.expected_index()));
        }
        let open_before_current = self.steps[..self.expected_index()].iter().any(|s| s.status != StepStatus::Completed);
        let pending_with_nothing_running = running == 0 && self.unfinished();
        if open_before_current || pending_with_nothing_running {
            return Some("step statuses are out of order".to_owned());
        }
        None
    }

    fn running(&self) -> Option<usize> {
        self.steps.iter().position(|s| s.status == StepStatus::Running)
    }

    fn expected_index(&self) -> usize {
        self.running()
            .or_else(|| self.steps.iter().position(|s| s.status != StepStatus::Completed))
            .unwrap_or(self.steps.len())
    }

    /// Completes the running step and starts the next; false when none was running.
    fn complete(&mut self, by: CompletedBy, result: Option<String>, changes: &mut Vec<StepChange>) -> bool {
        let Some(index) = self.running() else { return false };
        let step = &mut self.steps[index];
        step.status = StepStatus::Completed;
        step.result = result;
        changes.push(StepChange::Completed { index, by });
        self.start_next(changes);
        true
    }

    fn start_next(&mut self, changes: &mut Vec<StepChange>) {
        if let Some(index) = self.steps.iter().position(|s| s.status == StepStatus::Pending) {
            self.steps[index].status = StepStatus::Running;
            changes.push(StepChange::Started { index });
        }
        self.current_step_index = self.expected_index() as u32;
    }
}

/// Whether `text` declares at least one `[Step]`.
pub fn declares_steps(text: &str) -> bool {
    text.lines().any(|line| declaration(strip_bullet(line.trim())).is_some())
}

/// What one text says about steps.
#[derive(Debug, Default, PartialEq)]
struct Tokens {
    declared: Vec<String>,
    markers: usize,
    transition: bool,
}

fn scan(text: &str) -> Tokens {
    let mut tokens = Tokens::default();
    for line in text.lines() {
        let line = strip_bullet(line.trim());
        if let Some(description) = declaration(line) {
            tokens.declared.push(description);
            continue;
        }
        tokens.markers += brackets(line).filter(|b| is_marker(b)).count();
        tokens.transition |= sentences(line).any(opens_with_transition);
    }
    tokens
}

/// `- `, `* `, `1. ` and the like before a line's content.
fn strip_bullet(line: &str) -> &str {
    let rest = line.trim_start_matches(['-', '*', '•']).trim_start();
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    match part(rest, digits..).strip_prefix(['.', ')']) {
        Some(after) if digits > 0 => after.trim_start(),
        _ => rest,
    }
}

/// The description of a `[Step] …` (or `[Step 2] …`, `[步骤] …`) line.
fn declaration(line: &str) -> Option<String> {
    let inner = line.strip_prefix('[')?;
    let close = inner.find(']')?;
    // ASCII case is enough: the tags are English or have no case (see `intent::is_continue`).
    let tag = part(inner, ..close).trim().to_ascii_lowercase();
    let number = tag.strip_prefix("step").or_else(|| tag.strip_prefix("步骤"))?.trim();
    if !number.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let description = part(inner, close + 1..).trim_start_matches([':', '：', ' ', '-']).trim();
    (!description.is_empty()).then(|| cap(description, MAX_DESCRIPTION_CHARS))
}

/// The text inside each `[…]` of a line.
fn brackets(line: &str) -> impl Iterator<Item = &str> {
    line.split('[').skip(1).filter_map(|piece| piece.find(']').map(|end| part(piece, ..end).trim()))
}

fn is_marker(tag: &str) -> bool {
    const MARKERS: &[&str] = &[
        "done",
        "step done",
        "step complete",
        "step completed",
        "completed",
        "complete",
        "finished",
        "完成",
        "已完成",
        "步骤完成",
        "完成步骤",
    ];
    let tag = tag.to_ascii_lowercase();
    let tag = tag.trim_end_matches(['!', '.', '！', '。']);
    MARKERS.contains(&tag)
}

/// The sentences of a line (split after `.`, `!`, `?`, `。`, `！`, `？`).
fn sentences(line: &str) -> impl Iterator<Item = &str> {
    line.split_inclusive(['.', '!', '?', '。', '！', '？']).map(str::trim_start)
}

fn opens_with_transition(sentence: &str) -> bool {
    const ENGLISH: &[&str] = &["now", "next", "then", "moving on", "after that"];
    const CHINESE: &[&str] = &["现在", "接下来", "然后", "下一步"];
    let sentence = sentence.trim_start_matches(['*', '_', '#', ' ']);
    if CHINESE.iter().any(|w| sentence.starts_with(w)) {
        return true;
    }
    let lower = sentence.to_ascii_lowercase();
    ENGLISH.iter().any(|word| {
        lower.strip_prefix(word).is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '\''))
    })
}

/// A step's result: the first sentence of the text, without its markers.
fn result_of(text: &str) -> Option<String> {
    let mut plain = String::with_capacity(text.len());
    for line in text.lines() {
        let line = strip_bullet(line.trim());
        if declaration(line).is_some() {
            continue;
        }
        let mut rest = line;
        while let Some(open) = rest.find('[') {
            let Some(close) = part(rest, open..).find(']').map(|c| open + c) else { break };
            plain.push_str(part(rest, ..open));
            if !is_marker(part(rest, open + 1..close)) {
                plain.push_str(part(rest, open..=close));
            }
            rest = part(rest, close + 1..);
        }
        plain.push_str(rest);
        plain.push('\n');
    }
    extract_reflection(&plain, MAX_RESULT_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(texts: &[&str]) -> (StepPlan, Vec<StepChange>) {
        let mut plan = StepPlan::new("Make the charts", 1_771_945_970_128.0);
        let mut changes = Vec::new();
        for text in texts {
            changes.extend(plan.read(text));
        }
        (plan, changes)
    }

    fn statuses(plan: &StepPlan) -> Vec<StepStatus> {
        plan.steps.iter().map(|s| s.status).collect()
    }

    use StepStatus::{Completed as C, Pending as P, Running as R};

    #[test]
    fn declarations_create_steps_and_the_first_runs_at_once() {
        let (plan, changes) =
            plan(&["I'll plan first.\n[Step] Download the reports\n- [Step 2]: Extract the data\n3. [步骤] 制作图表"]);
        assert_eq!(plan.id, "plan_1771945970128");
        let described: Vec<&str> = plan.steps.iter().map(|s| s.description.as_str()).collect();
        assert_eq!(described, ["Download the reports", "Extract the data", "制作图表"]);
        assert_eq!(statuses(&plan), [R, P, P]);
        assert_eq!((plan.current_step_index, plan.steps[0].id.as_str()), (0, "step_1"));
        assert_eq!(changes, [StepChange::Started { index: 0 }]);
        assert_eq!(plan.inconsistency(), None);
    }

    #[test]
    fn steps_may_be_declared_later_and_repeats_are_ignored() {
        let (plan, _) = plan(&["Looking around first.", "[Step] A\n[Step] B", "[Step] A\n[Step] C"]);
        assert_eq!(plan.steps.len(), 3);
        assert_eq!(statuses(&plan), [R, P, P]);
    }

    #[test]
    fn each_marker_completes_the_current_step_immediately() {
        for marker in ["[Done]", "[done]", "[完成]", "[Step Done]", "[步骤完成]", "[Completed]", "[DONE!]"] {
            let (plan, changes) = plan(&["[Step] A\n[Step] B", &format!("Downloaded everything. {marker}")]);
            assert_eq!(statuses(&plan), [C, R], "{marker}");
            assert_eq!(plan.steps[0].result.as_deref(), Some("Downloaded everything."), "{marker}");
            assert!(changes.contains(&StepChange::Completed { index: 0, by: CompletedBy::Marker }));
        }
        // Two markers close two steps; a marker in the declaring response counts too.
        let (two, _) = plan(&["[Step] A\n[Step] B\n[Step] C", "A [Done]. B [Done]."]);
        assert_eq!(statuses(&two), [C, C, R]);
        assert_eq!(two.current_step_index, 2);
    }

    #[test]
    fn a_transition_word_completes_the_step_after_one_round_in_it() {
        // In the declaring response the step has not run yet: "Now" starts it.
        let (fresh, _) = plan(&["[Step] A\n[Step] B\nNow I start with A."]);
        assert_eq!(statuses(&fresh), [R, P]);
        for text in
            ["Now the extraction.", "Next, the charts.", "Got it. Then the totals.", "接下来处理数据。", "现在开始画图"]
        {
            let (plan, changes) = plan(&["[Step] A\n[Step] B", text]);
            assert_eq!(statuses(&plan), [C, R], "{text}");
            assert!(changes.contains(&StepChange::Completed { index: 0, by: CompletedBy::Transition }), "{text}");
        }
        // Words that only look like one do not count.
        for text in ["Nowhere to be found.", "I now see the table.", "Nextcloud is down.", "Then's the question."] {
            let (plan, _) = plan(&["[Step] A\n[Step] B", text]);
            assert_eq!(statuses(&plan), [R, P], "{text}");
        }
    }

    #[test]
    fn a_step_open_for_five_rounds_completes_by_timeout() {
        let mut texts = vec!["[Step] A\n[Step] B"];
        texts.extend(["Working."; 4]);
        let (four, _) = plan(&texts);
        assert_eq!((statuses(&four), four.steps[0].progress), (vec![R, P], StepProgress { current: 4, total: 5 }));
        texts.push("Still working.");
        let (five, changes) = plan(&texts);
        assert_eq!(statuses(&five), [C, R]);
        assert_eq!(changes.last(), Some(&StepChange::Started { index: 1 }));
        assert!(changes.contains(&StepChange::Completed { index: 0, by: CompletedBy::Timeout }));
    }

    #[test]
    fn a_final_answer_closes_only_the_last_step() {
        let (mut plan, _) = plan(&["[Step] A\n[Step] B", "[Done]"]);
        assert_eq!(
            plan.finish_last("All charts are in charts/."),
            Some(StepChange::Completed { index: 1, by: CompletedBy::FinalAnswer })
        );
        assert!(!plan.unfinished());
        assert_eq!(plan.current_step_index, 2);
        let (mut early, _) = self::plan(&["[Step] A\n[Step] B"]);
        assert_eq!(early.finish_last("Done, I think."), None, "B is still to do");
        assert!(early.unfinished());
    }

    #[test]
    fn descriptions_are_capped_and_plans_hold_at_most_fifty_steps() {
        let many: String = (0..60).map(|i| format!("[Step] step number {i}\n")).collect();
        let long = format!("[Step] {}", "x".repeat(500));
        let (plan, _) = plan(&[&many, &long]);
        assert_eq!(plan.steps.len(), MAX_STEPS);
        let (capped, _) = self::plan(&[&long]);
        assert_eq!(capped.steps[0].description.chars().count(), MAX_DESCRIPTION_CHARS);
    }

    #[test]
    fn inconsistent_plans_are_named() {
        let (mut plan, _) = plan(&["[Step] A\n[Step] B"]);
        plan.current_step_index = 1;
        assert_eq!(plan.inconsistency().as_deref(), Some("current_step_index should be 0"));
        plan.current_step_index = 0;
        plan.steps[1].status = StepStatus::Running;
        assert_eq!(plan.inconsistency().as_deref(), Some("more than one step is running"));
        plan.steps[0].status = StepStatus::Pending;
        plan.current_step_index = 1;
        assert_eq!(plan.inconsistency().as_deref(), Some("step statuses are out of order"));
    }
}
