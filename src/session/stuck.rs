//! Noticing a model that goes in circles: the same call with the same result over and
//! over, the same call failing again and again, the same text reply, or two calls
//! alternating. Each detection is reported once and the counts start over, so a model
//! that keeps at it is detected again (and the session ends the turn after a few nudges).

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::from_value::struct_from_value;
use crate::session::config::StuckOptions;
use crate::text::fingerprint::{fnv1a_53, SAFE_INTEGER_MASK};

/// How a model is repeating itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "pattern", rename_all = "camelCase")]
pub enum Pattern {
    /// The same call returned the same result `times` times in a row.
    #[serde(rename_all = "camelCase")]
    SameCallSameResult { tool: String, times: u32 },
    /// The same call failed `times` times in a row.
    #[serde(rename_all = "camelCase")]
    SameFailingCall { tool: String, times: u32 },
    /// The same text reply `times` times in a row.
    #[serde(rename_all = "camelCase")]
    SameText { times: u32 },
    /// Two calls alternated over `steps` steps.
    #[serde(rename_all = "camelCase")]
    Alternation { first: String, second: String, steps: u32 },
}

impl Pattern {
    /// A short description for the model and the user.
    pub fn describe(&self) -> String {
        match self {
            Pattern::SameCallSameResult { tool, times } => {
                format!(
                    "{tool} was called {times} times with the same arguments and returned the same result each time"
                )
            }
            Pattern::SameFailingCall { tool, times } => {
                format!("{tool} failed {times} times in a row with the same arguments")
            }
            Pattern::SameText { times } => format!("the same reply was given {times} times"),
            Pattern::Alternation { first, second, steps } => {
                format!("{first} and {second} alternated over the last {steps} calls")
            }
        }
    }
}

/// One call as the detector remembers it (fingerprints fit a JSON number exactly).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(rename = "StuckStep")]
struct Step {
    tool: String,
    #[schemars(range(max = SAFE_INTEGER_MASK))]
    call: u64,
    #[schemars(range(max = SAFE_INTEGER_MASK))]
    result: u64,
    failed: bool,
}

struct_from_value!(Step, "camelCase" { tool, call, result, failed });

#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StuckDetector {
    pub(crate) options: StuckOptions,
    steps: VecDeque<Step>,
    same_result_run: u32,
    failing_run: u32,
    #[schemars(range(max = SAFE_INTEGER_MASK))]
    last_text: Option<u64>,
    same_text_run: u32,
}

struct_from_value!(StuckDetector, "camelCase" {
    options,
    steps,
    same_result_run,
    failing_run,
    last_text,
    same_text_run,
});

impl StuckDetector {
    pub fn new(options: StuckOptions) -> Self {
        StuckDetector {
            options,
            steps: VecDeque::new(),
            same_result_run: 0,
            failing_run: 0,
            last_text: None,
            same_text_run: 0,
        }
    }

    /// Forgets everything (a new turn starts).
    pub fn reset(&mut self) {
        *self = StuckDetector::new(self.options.clone());
    }

    /// Records one tool call and its result. `call` identifies the call (tool and
    /// arguments); calls and outputs are compared by hash.
    pub fn record_result(&mut self, tool: &str, call: &str, output: &str, failed: bool) -> Option<Pattern> {
        let step = Step { tool: tool.to_owned(), call: fnv1a_53(call), result: fnv1a_53(output), failed };
        let (same_call, same_result) = match self.steps.back() {
            Some(prev) => (prev.call == step.call, prev.call == step.call && prev.result == step.result),
            None => (false, false),
        };
        self.failing_run = match (failed, same_call && self.steps.back().is_some_and(|p| p.failed)) {
            (false, _) => 0,
            (true, true) => self.failing_run + 1,
            (true, false) => 1,
        };
        self.same_result_run = if same_result { self.same_result_run + 1 } else { 1 };
        self.steps.push_back(step);
        let window = self.options.alternation_window as usize;
        while self.steps.len() > window {
            self.steps.pop_front();
        }
        if self.failing_run >= self.options.same_failing_call {
            self.failing_run = 0;
            self.same_result_run = 0;
            return Some(Pattern::SameFailingCall { tool: tool.to_owned(), times: self.options.same_failing_call });
        }
        if self.same_result_run >= self.options.same_call_same_result {
            self.same_result_run = 0;
            return Some(Pattern::SameCallSameResult {
                tool: tool.to_owned(),
                times: self.options.same_call_same_result,
            });
        }
        self.alternation()
    }

    /// A, B, A, B, … over the whole window, with A and B different calls.
    fn alternation(&mut self) -> Option<Pattern> {
        let steps: Vec<&Step> = self.steps.iter().collect();
        let full = steps.len() == self.options.alternation_window as usize;
        let alternating = full && steps[0].call != steps[1].call && steps.windows(3).all(|w| w[0].call == w[2].call);
        if !alternating {
            return None;
        }
        let pattern = Pattern::Alternation {
            first: steps[0].tool.clone(),
            second: steps[1].tool.clone(),
            steps: self.options.alternation_window,
        };
        self.steps.clear();
        Some(pattern)
    }

    /// Records a text-only reply (`None` for a reply that called tools, which breaks a run).
    pub fn record_text(&mut self, text: Option<&str>) -> Option<Pattern> {
        let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
            self.last_text = None;
            self.same_text_run = 0;
            return None;
        };
        let hash = fnv1a_53(text);
        self.same_text_run = if self.last_text == Some(hash) { self.same_text_run + 1 } else { 1 };
        self.last_text = Some(hash);
        if self.same_text_run >= self.options.same_text {
            self.same_text_run = 0;
            self.last_text = None;
            return Some(Pattern::SameText { times: self.options.same_text });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detector() -> StuckDetector {
        StuckDetector::new(StuckOptions::default())
    }

    #[test]
    fn the_same_call_with_the_same_result_four_times() {
        let mut d = detector();
        for _ in 0..3 {
            assert_eq!(d.record_result("ls", "ls {}", "a b", false), None);
        }
        assert_eq!(
            d.record_result("ls", "ls {}", "a b", false),
            Some(Pattern::SameCallSameResult { tool: "ls".into(), times: 4 })
        );
        // A different result breaks the run.
        let mut d = detector();
        for output in ["a", "a", "b", "b", "b"] {
            assert_eq!(d.record_result("ls", "ls {}", output, false), None);
        }
    }

    #[test]
    fn the_same_failing_call_three_times() {
        let mut d = detector();
        assert_eq!(d.record_result("cat", "cat x", "ENOENT", true), None);
        assert_eq!(d.record_result("cat", "cat x", "ENOENT 2", true), None);
        assert_eq!(
            d.record_result("cat", "cat x", "ENOENT 3", true),
            Some(Pattern::SameFailingCall { tool: "cat".into(), times: 3 })
        );
        // Failures of different calls are not a run.
        let mut d = detector();
        for call in ["cat a", "cat b", "cat c", "cat d"] {
            assert_eq!(d.record_result("cat", call, "ENOENT", true), None);
        }
    }

    #[test]
    fn two_calls_alternating_over_six_steps() {
        let mut d = detector();
        let mut found = None;
        for i in 0..6 {
            let (tool, call) = if i % 2 == 0 { ("open", "open a") } else { ("close", "close a") };
            found = d.record_result(tool, call, &format!("r{i}"), false);
        }
        assert_eq!(found, Some(Pattern::Alternation { first: "open".into(), second: "close".into(), steps: 6 }));
        // A, B, A, C breaks it.
        let mut d = detector();
        for call in ["a", "b", "a", "c", "a", "b"] {
            assert_eq!(d.record_result(call, call, "r", false), None);
        }
    }

    #[test]
    fn the_same_text_three_times_and_tool_calls_break_the_run() {
        let mut d = detector();
        assert_eq!(d.record_text(Some("Done.")), None);
        assert_eq!(d.record_text(Some(" Done. ")), None);
        assert_eq!(d.record_text(Some("Done.")), Some(Pattern::SameText { times: 3 }));
        assert_eq!(d.record_text(Some("Done.")), None, "counting starts over after a detection");
        let mut d = detector();
        d.record_text(Some("x"));
        d.record_text(Some("x"));
        d.record_text(None);
        assert_eq!(d.record_text(Some("x")), None);
    }
}
