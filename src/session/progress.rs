//! Where the work stands: the goal, the plan as text, progress figures, the capsule,
//! and the plan tracked from the model's text.

use crate::plan::recorded::PlanState;
use crate::plan::steps::{self, PlanStatus, StepChange, StepPlan};
use crate::plan::todos::{self, TodoStatus};
use crate::prompts::compose::CurrentPlan;
use crate::prompts::{self};
use crate::session::events::EventKind;
use crate::session::exchange::{Progress, ProgressSource};
use crate::text::cap;
use crate::trail::capsule::{ContextCapsule, ContextCapsuleInput};

use super::reminder::Moved;
use super::Session;

/// The characters of a todo shown in a reminder or a continuation message: all of a
/// `write_todos` item, the start of a longer one from another agent's list (its state
/// keeps the whole text), so that a message about a long list stays readable.
const ITEM_SHOWN: usize = 140;

impl Session {
    /// Where the task stands, for the current-plan block of the system prompt: the goal
    /// and the current step of the todo list, else of the recorded plan, else of the
    /// text-tracked steps. `None` before the first turn.
    pub fn current_plan(&self) -> Option<CurrentPlan> {
        self.turn.as_ref()?;
        let goal = self.goal();
        let todos = self.planner.todos();
        let counted = |index: usize, total: usize, step: &str| CurrentPlan {
            goal: goal.clone(),
            step: Some(step.to_owned()),
            step_number: Some(index as u32 + 1),
            total_steps: Some(total as u32),
        };
        let current = todos
            .iter()
            .position(|t| t.status == TodoStatus::InProgress)
            .or_else(|| todos.iter().position(|t| t.status != TodoStatus::Completed));
        if let Some(index) = current {
            return Some(counted(index, todos.len(), &todos[index].content));
        }
        if let Some(plan) = &self.plan {
            return Some(CurrentPlan { goal, step: plan.next_step.clone(), step_number: None, total_steps: None });
        }
        match self.active_step_plan().and_then(|p| p.current().map(|step| (p, step))) {
            Some((plan, step)) => Some(counted(plan.current_step_index as usize, plan.steps.len(), &step.description)),
            None => Some(CurrentPlan { goal, step: None, step_number: None, total_steps: None }),
        }
    }

    /// How far the work has come: the model's own report when the continuation protocol
    /// gave one, else the todo list, else the plan's recorded steps.
    pub fn progress(&self) -> Progress {
        let iterations = self.turn.as_ref().map_or(0, super::Turn::used);
        let todos = self.planner.todos();
        let base = Progress {
            source: ProgressSource::None,
            completed: 0,
            total: 0,
            percentage: None,
            current: None,
            iterations,
            max_iterations: self.config.max_iterations,
            reported: self.reported.clone(),
            ledger: self.ledger(),
        };
        if let Some(reported) = &self.reported {
            let percentage = reported.completion_percentage.or(match (reported.current_step, reported.total_steps) {
                (Some(current), Some(total)) if total > 0 => {
                    Some(f64::from(current.min(total)) * 100.0 / f64::from(total))
                }
                _ => None,
            });
            return Progress {
                source: ProgressSource::Continuation,
                completed: reported.current_step.unwrap_or(0),
                total: reported.total_steps.unwrap_or(0),
                percentage,
                current: todos::in_progress(todos).map(|t| t.content.clone()),
                ..base
            };
        }
        if !todos.is_empty() {
            let (done, total) = todos::progress(todos);
            return Progress {
                source: ProgressSource::Todos,
                completed: done as u32,
                total: total as u32,
                percentage: Some(done as f64 * 100.0 / total as f64),
                current: todos::in_progress(todos).map(|t| t.content.clone()),
                ..base
            };
        }
        match &self.plan {
            Some(plan) => Progress {
                source: ProgressSource::Plan,
                completed: plan.steps_done.len() as u32,
                percentage: plan.completed.then_some(100.0),
                current: plan.next_step.clone(),
                ..base
            },
            None => match self.active_step_plan().filter(|p| !p.steps.is_empty()) {
                Some(steps) => {
                    let (done, total) = (steps.completed_count(), steps.steps.len());
                    Progress {
                        source: ProgressSource::Steps,
                        completed: done as u32,
                        total: total as u32,
                        percentage: Some(done as f64 * 100.0 / total as f64),
                        current: steps.current().map(|s| s.description.clone()),
                        ..base
                    }
                }
                None => base,
            },
        }
    }

    /// What the session knows, in a bounded package for a parent agent.
    pub fn capsule(&self) -> ContextCapsule {
        let snapshot = self.planner.snapshot();
        let next_actions =
            snapshot.todos.iter().filter(|t| t.status != TodoStatus::Completed).map(|t| t.content.clone());
        ContextCapsule::new(ContextCapsuleInput {
            goal: self.goal(),
            plan_snapshot: (snapshot.revision > 0).then(|| snapshot.clone()),
            key_findings: self.findings.iter().cloned().collect(),
            artifacts: Vec::new(),
            next_actions: next_actions.collect(),
        })
    }

    /// The work done so far, in a phrase, and the next step: from the todo list, else the
    /// plan, else the text-tracked steps.
    pub(super) fn done_and_next(&self) -> (String, Option<String>) {
        let language = self.config.language;
        let todos = self.planner.todos();
        let steps = self.active_step_plan().filter(|p| !p.steps.is_empty());
        match (&self.plan, todos.is_empty()) {
            (_, false) => {
                let (completed, total) = todos::progress(todos);
                let names: Vec<String> = todos
                    .iter()
                    .filter(|t| t.status == TodoStatus::Completed)
                    .map(|t| cap(&t.content, ITEM_SHOWN))
                    .collect();
                let done = match names.is_empty() {
                    true => format!("{completed}/{total}"),
                    false => format!("{completed}/{total} ({})", names.join("; ")),
                };
                let next = todos.iter().find(|t| t.status != TodoStatus::Completed).map(|t| t.content.clone());
                (done, next)
            }
            (Some(plan), true) => (prompts::recorded_steps(language, plan.steps_done.len()), plan.next_step.clone()),
            (None, true) => match steps {
                Some(steps) => {
                    let done = prompts::steps_done(language, steps.completed_count(), steps.steps.len());
                    (done, steps.current().map(|s| s.description.clone()))
                }
                None => (prompts::no_steps(language).to_owned(), None),
            },
        }
    }

    pub(super) fn unfinished(&self) -> bool {
        let todos_open = self.planner.todos().iter().any(|t| t.status != TodoStatus::Completed);
        let steps_open = self.active_step_plan().is_some_and(StepPlan::unfinished);
        todos_open || steps_open || self.plan.as_ref().is_some_and(PlanState::unfinished)
    }

    /// The text-tracked plan while it is running or paused.
    pub(super) fn active_step_plan(&self) -> Option<&StepPlan> {
        self.step_plan.as_ref().filter(|p| matches!(p.status, PlanStatus::Running | PlanStatus::Paused))
    }

    /// The goal: the turn's stated goal, else the plan's, else the text-tracked plan's,
    /// else the message that started the turn.
    /// What the model is told when the user asks it to go on with this session's work:
    /// the goal, what is done, what comes next, the plan.
    pub(super) fn resume_block(&self) -> String {
        let (done, next) = self.done_and_next();
        let (goal, plan) = (self.goal(), self.plan_text());
        prompts::resume(self.config.language, goal.trim(), plan.trim(), &done, next.as_deref())
    }

    pub(super) fn goal(&self) -> String {
        // The goal the user stated, when the turn has one, before the model's own words.
        if let Some(goal) = self.turn.as_ref().and_then(|t| t.goal.as_ref()) {
            return goal.statement.clone();
        }
        if let Some(plan) = &self.plan {
            return plan.goal.clone();
        }
        match self.active_step_plan() {
            Some(plan) => plan.goal.clone(),
            None => self.turn.as_ref().map(|t| t.message.clone()).unwrap_or_default(),
        }
    }

    /// Seed 001: the plan tracked from the model's text. A response that acts or
    /// declares steps starts a plan when none is running; each response moves it on.
    pub(super) fn track_steps(&mut self, text: &str, acts: bool, iteration: u32, now: f64) {
        let running = self.step_plan.as_ref().is_some_and(|p| p.status == PlanStatus::Running);
        if !running {
            if !acts && !steps::declares_steps(text) {
                return;
            }
            let goal = self.turn.as_ref().map(|t| t.message.clone()).unwrap_or_default();
            let plan = StepPlan::new(&goal, now);
            self.emit(EventKind::StepPlanCreated { plan_id: plan.id.clone() }, now);
            self.step_plan = Some(plan);
        }
        let Some(plan) = self.step_plan.as_mut() else { return };
        plan.iteration_count = plan.iteration_count.saturating_add(1);
        let changes = plan.read(text);
        self.step_changes(changes, iteration, now);
    }

    /// A final answer closes the last running step. True when work is still unfinished.
    pub(super) fn finish_last_step(&mut self, answer: &str, iteration: u32, now: f64) -> bool {
        let change =
            self.step_plan.as_mut().filter(|p| p.status == PlanStatus::Running).and_then(|p| p.finish_last(answer));
        if let Some(change) = change {
            self.step_changes(vec![change], iteration, now);
        }
        self.unfinished()
    }

    /// Events and trail lines for what a response did to the text-tracked plan.
    pub(super) fn step_changes(&mut self, changes: Vec<StepChange>, iteration: u32, now: f64) {
        for change in changes {
            let Some(plan) = &self.step_plan else { return };
            let (kind, note) = match change {
                StepChange::Started { index } => {
                    let step = &plan.steps[index];
                    (EventKind::StepStarted { step_id: step.id.clone(), description: step.description.clone() }, None)
                }
                StepChange::Completed { index, by } => {
                    let step = &plan.steps[index];
                    let note = match plan.current() {
                        Some(next) => format!("{} done · now: {}", step.id, next.description),
                        None => format!("{} done · every step done", step.id),
                    };
                    let kind = EventKind::StepCompleted { step_id: step.id.clone(), by, result: step.result.clone() };
                    (kind, Some(note))
                }
            };
            if let Some(note) = note {
                self.log.record_plan_note(&note, iteration, now);
            }
            self.moved(Moved::Steps, iteration);
            self.emit(kind, now);
        }
    }

    pub(super) fn set_step_plan_status(&mut self, status: PlanStatus) {
        if let Some(plan) = self.step_plan.as_mut().filter(|p| p.status == PlanStatus::Running) {
            plan.status = status;
        }
    }

    /// The plan as text: the todo list as a checklist, else the plan's own text.
    pub(super) fn plan_text(&self) -> String {
        let todos = self.planner.todos();
        if !todos.is_empty() {
            let lines: Vec<String> =
                todos.iter().map(|t| format!("{} {}", t.status.mark(), cap(&t.content, ITEM_SHOWN))).collect();
            return lines.join("\n");
        }
        match (&self.plan, self.active_step_plan()) {
            (Some(plan), _) => plan.plan.clone(),
            (None, Some(steps)) => steps.checklist(),
            (None, None) => String::new(),
        }
    }
}
