//! `ContextCapsule` (seed 004 §7): what a run found, in a bounded package, so a parent
//! agent (or the next turn) gets the gist instead of the transcript.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::struct_from_value;
use crate::plan::planner::PlannerSnapshot;
use crate::text::cap;

const GOAL_CAP: usize = 400;
const FINDINGS_MAX: usize = 8;
const FINDING_CAP: usize = 240;
const ARTIFACTS_MAX: usize = 8;
const ARTIFACT_TYPE_CAP: usize = 32;
const ARTIFACT_REF_CAP: usize = 200;
const ARTIFACT_SUMMARY_CAP: usize = 240;
const NEXT_ACTIONS_MAX: usize = 5;
const NEXT_ACTION_CAP: usize = 140;

/// Something a run produced or relied on: a note, a file, a URL.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Artifact {
    /// What kind of thing it is, such as `note`, `file` or `url` (at most 32 characters).
    #[serde(rename = "type")]
    pub kind: String,
    /// Where to find it (at most 200 characters).
    #[serde(rename = "ref")]
    pub reference: String,
    /// Why it matters (at most 240 characters).
    pub summary: String,
}

struct_from_value!(Artifact { kind as "type", reference as "ref", summary });

/// What goes into a capsule; anything over a cap is cut, never refused.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct ContextCapsuleInput {
    /// The goal the run worked on (at most 400 characters).
    pub goal: String,
    /// The planner state at the end of the run.
    #[serde(default)]
    pub plan_snapshot: Option<PlannerSnapshot>,
    /// What the run learned (the first 8 are kept, each at most 240 characters).
    #[serde(default)]
    pub key_findings: Vec<String>,
    /// What it produced or relied on (the first 8 are kept).
    #[serde(default)]
    pub artifacts: Vec<Artifact>,
    /// What should happen next (the first 5 are kept, each at most 140 characters).
    #[serde(default)]
    pub next_actions: Vec<String>,
}

struct_from_value!(ContextCapsuleInput, "camelCase" {
    goal,
    plan_snapshot,
    key_findings = Default::default(),
    artifacts = Default::default(),
    next_actions = Default::default(),
});

/// A bounded summary of a run, for a parent agent or the next turn.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextCapsule {
    pub goal: String,
    pub plan_snapshot: Option<PlannerSnapshot>,
    pub key_findings: Vec<String>,
    pub artifacts: Vec<Artifact>,
    pub next_actions: Vec<String>,
}

impl ContextCapsule {
    /// Builds a capsule, cutting every list and string to its cap.
    pub fn new(input: ContextCapsuleInput) -> Self {
        let capped = |items: Vec<String>, max: usize, each: usize| -> Vec<String> {
            items.iter().take(max).map(|s| cap(s, each)).collect()
        };
        ContextCapsule {
            goal: cap(&input.goal, GOAL_CAP),
            plan_snapshot: input.plan_snapshot,
            key_findings: capped(input.key_findings, FINDINGS_MAX, FINDING_CAP),
            artifacts: input
                .artifacts
                .into_iter()
                .take(ARTIFACTS_MAX)
                .map(|a| Artifact {
                    kind: cap(&a.kind, ARTIFACT_TYPE_CAP),
                    reference: cap(&a.reference, ARTIFACT_REF_CAP),
                    summary: cap(&a.summary, ARTIFACT_SUMMARY_CAP),
                })
                .collect(),
            next_actions: capped(input.next_actions, NEXT_ACTIONS_MAX, NEXT_ACTION_CAP),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_and_string_is_capped() {
        let long = "z".repeat(1000);
        let capsule = ContextCapsule::new(ContextCapsuleInput {
            goal: long.clone(),
            plan_snapshot: None,
            key_findings: vec![long.clone(); 20],
            artifacts: vec![Artifact { kind: long.clone(), reference: long.clone(), summary: long.clone() }; 20],
            next_actions: vec![long.clone(); 20],
        });
        assert_eq!(capsule.goal.chars().count(), GOAL_CAP);
        assert!(capsule.goal.ends_with('…'));
        assert_eq!(capsule.key_findings.len(), FINDINGS_MAX);
        assert!(capsule.key_findings.iter().all(|f| f.chars().count() == FINDING_CAP));
        assert_eq!(capsule.artifacts.len(), ARTIFACTS_MAX);
        let a = &capsule.artifacts[0];
        let lens = (a.kind.chars().count(), a.reference.chars().count(), a.summary.chars().count());
        assert_eq!(lens, (ARTIFACT_TYPE_CAP, ARTIFACT_REF_CAP, ARTIFACT_SUMMARY_CAP));
        assert_eq!(capsule.next_actions.len(), NEXT_ACTIONS_MAX);
        assert!(capsule.next_actions.iter().all(|f| f.chars().count() == NEXT_ACTION_CAP));
    }

    #[test]
    fn short_content_passes_unchanged() {
        let input = ContextCapsuleInput {
            goal: "Summarize Q3".into(),
            plan_snapshot: None,
            key_findings: vec!["Revenue up 4%".into()],
            artifacts: vec![Artifact {
                kind: "note".into(),
                reference: "finance/q3.md".into(),
                summary: "source".into(),
            }],
            next_actions: vec![],
        };
        let capsule = ContextCapsule::new(input.clone());
        assert_eq!(
            (capsule.goal, capsule.key_findings, capsule.artifacts),
            (input.goal, input.key_findings, input.artifacts)
        );
    }
}
