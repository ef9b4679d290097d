//! Seed 003's PromptSystem: one system prompt from the agent's own prompt, planloop's
//! shared components and the user's, each toggled by name, with `{{{key}}}` values
//! filled in.
//!
//! The order is fixed, whatever order the input's keys come in, so the same settings
//! give the same prompt (and a provider's prompt cache keeps working): `base`, `core`,
//! `plan`, `planner_tools`, `continuation_protocol`, `tool_guidelines`, `output_format`,
//! the user's components in the order given, then `budget`, which changes every call.
//! Parts are joined with one blank line (line breaks at a part's ends are dropped); a
//! part with no text is left out.
//!
//! Values fill the texts the host and planloop write (the base prompt and every
//! component), once: a value's own text is never scanned again. The plan and the budget
//! are the state of the task, so they go in as they are: a goal that mentions
//! `{{{name}}}` keeps saying so.

mod input;
mod writer;

pub use input::{Budget, ComposeInput, Composed, CurrentPlan, PromptComponent, PromptParts};
pub use input::{BASE_MAX, COMPONENTS_MAX, NAME_MAX, TEXT_MAX, VALUE_MAX};

use std::borrow::Cow;

use crate::error::issue::{Issue, PathSegment};
use crate::error::{Error, Result};
use crate::prompts::Language;
use crate::prompts::{self};
use crate::text::index::Index;
use writer::{Values, Writer};

/// The parts planloop places between the base prompt and the user's components, in order.
const PARTS: [&str; 6] = ["core", "plan", "planner_tools", "continuation_protocol", "tool_guidelines", "output_format"];
/// Seed 003's shared components: a user component of one of these names replaces
/// planloop's text where it stands.
const SHARED: [&str; 4] = ["core", "continuation_protocol", "tool_guidelines", "output_format"];
/// Names only planloop fills; no component may take one.
const RESERVED: [&str; 4] = ["base", "plan", "planner_tools", "budget"];
/// A prompt longer than this serves no model; the cap also keeps a value repeated in
/// many placeholders from growing the prompt without bound.
pub const PROMPT_MAX_CHARS: usize = 10_000_000;

/// A part of the prompt and whether values fill it.
struct Part<'a> {
    name: &'a str,
    text: Cow<'a, str>,
    fill: bool,
}

/// The texts of the host's own parts: the base prompt and the components, as names and
/// texts. Borrowed, so that texts that crossed from JS raw are composed where they lie
/// (copying tens of kilobytes of prose into owned strings first was a fifth of
/// `composePrompt`'s time in the module).
pub struct Texts<'a> {
    pub base: &'a str,
    /// Each component's name and text.
    pub components: Vec<(&'a str, &'a str)>,
}

impl<'a> Texts<'a> {
    pub fn of(parts: &'a PromptParts) -> Self {
        let components = parts.components.iter().map(|c| (c.name.as_str(), c.text.as_str())).collect();
        Texts { base: &parts.base, components }
    }
}

/// A composed prompt whose part names are still borrowed (see [`Composed`]).
pub struct Composition<'a> {
    pub prompt: String,
    pub components: Vec<&'a str>,
    pub unresolved: Vec<String>,
}

impl Composition<'_> {
    pub fn into_owned(self) -> Composed {
        let components = self.components.into_iter().map(str::to_owned).collect();
        Composed { prompt: self.prompt, components, unresolved: self.unresolved }
    }
}

/// Composes the prompt `input` describes; a rule broken gives `invalid_options` with an
/// issue at the key at fault.
pub fn compose(input: &ComposeInput) -> Result<Composed> {
    compose_as(input, "input")
}

/// [`compose`], with errors naming `argument` as the caller's API calls it.
pub fn compose_as(input: &ComposeInput, argument: &'static str) -> Result<Composed> {
    compose_texts(input, &Texts::of(&input.parts), argument).map(Composition::into_owned)
}

/// [`compose_as`] with the base prompt and the components taken from `texts` (those of
/// `input` are not read).
pub fn compose_texts<'a>(
    input: &'a ComposeInput,
    texts: &Texts<'a>,
    argument: &'static str,
) -> Result<Composition<'a>> {
    let issues = check(input, texts);
    if !issues.is_empty() {
        return Err(Error::invalid_options(argument, issues));
    }
    let on = |name: &str| input.parts.features.get(name).copied().unwrap_or(name != "continuation_protocol");
    let given = |name: &str| texts.components.iter().find(|(n, _)| *n == name).map(|&(_, text)| text);
    let mut parts = vec![Part { name: "base", text: Cow::Borrowed(texts.base), fill: true }];
    for name in PARTS.into_iter().filter(|name| on(name)) {
        parts.extend(match (name, &input.plan) {
            ("plan", Some(plan)) => {
                Some(Part { name, text: Cow::Owned(plan_block(input.language, plan)), fill: false })
            }
            ("plan", None) => None,
            _ => given(name).or_else(|| prompts::section(name, input.language)).map(|text| Part {
                name,
                text: Cow::Borrowed(text),
                fill: true,
            }),
        });
    }
    for &(name, text) in texts.components.iter().filter(|(name, _)| !SHARED.contains(name) && on(name)) {
        parts.push(Part { name, text: Cow::Borrowed(text), fill: true });
    }
    if let Some(budget) = input.budget.filter(|_| on("budget")) {
        let line = prompts::budget_line(input.language, budget.remaining, budget.total, budget.tokens);
        parts.push(Part { name: "budget", text: Cow::Owned(line), fill: false });
    }
    let values = Values::new(&input.parts.values.0);
    // Room for the texts and the breaks between them (values may need a little more).
    let mut writer = Writer::new(argument, parts.iter().map(|part| part.text.len() + 2).sum());
    for part in &parts {
        writer.part(part, &values)?;
    }
    Ok(writer.done())
}

fn plan_block(language: Language, plan: &CurrentPlan) -> String {
    prompts::current_plan(language, &plan.goal, plan.step.as_deref(), plan.step_number.zip(plan.total_steps))
}

/// The rules the schema cannot say, each reported at its key.
fn check(input: &ComposeInput, texts: &Texts<'_>) -> Vec<Issue> {
    let mut issues = Vec::new();
    let names: Vec<&str> = texts.components.iter().map(|&(name, _)| name).collect();
    let repeated = repeats(&names);
    for (i, &name) in names.iter().enumerate() {
        let problem = if !is_component_name(name) {
            format!("Invalid component name \"{name}\": use lowercase letters, digits and _, starting with a letter")
        } else if RESERVED.contains(&name) {
            format!("\"{name}\" is planloop's own section; no component can replace it")
        } else if repeated[i] {
            format!("Duplicate component name \"{name}\"")
        } else {
            continue;
        };
        let name_at =
            [PathSegment::Key("components".into()), PathSegment::Index(i as u32), PathSegment::Key("name".into())];
        issues.push(Issue::custom(problem, name_at.to_vec()));
    }
    if input.parts.features.get("core") == Some(&false) {
        let message = "core cannot be disabled: it keeps the agent on the user's goal and plan";
        issues.push(Issue::custom(message.to_owned(), at(&["features", "core"])));
    }
    if input.parts.features.get("output_format") == Some(&true) && !names.contains(&"output_format") {
        let message = "output_format has no built-in text: give it as a component {name: \"output_format\", text}";
        issues.push(Issue::custom(message.to_owned(), at(&["features", "output_format"])));
    }
    let known = |key: &str| PARTS.contains(&key) || key == "budget" || names.contains(&key);
    let unknown: Vec<String> = input.parts.features.0.iter().map(|(k, _)| k).filter(|k| !known(k)).cloned().collect();
    if !unknown.is_empty() {
        issues.push(Issue::unrecognized_keys(unknown, &at(&["features"])));
    }
    if let Some(plan) = &input.plan {
        let problem = match (plan.step.is_some(), plan.step_number, plan.total_steps) {
            (_, Some(n), Some(total)) if n > total => {
                Some(("stepNumber", format!("stepNumber ({n}) is over totalSteps ({total})")))
            }
            (false, Some(_), _) | (false, _, Some(_)) => {
                Some(("step", "stepNumber and totalSteps count the current step: give step too".to_owned()))
            }
            (true, Some(_), None) => Some(("totalSteps", "stepNumber and totalSteps go together".to_owned())),
            (true, None, Some(_)) => Some(("stepNumber", "stepNumber and totalSteps go together".to_owned())),
            _ => None,
        };
        if let Some((key, problem)) = problem {
            issues.push(Issue::custom(problem, at(&["plan", key])));
        }
    }
    if let Some(Budget { remaining, total, .. }) = input.budget.filter(|b| b.remaining > b.total) {
        let problem = format!("remaining ({remaining}) is over total ({total})");
        issues.push(Issue::custom(problem, at(&["budget", "remaining"])));
    }
    issues
}

fn at(keys: &[&str]) -> Vec<PathSegment> {
    keys.iter().map(|key| PathSegment::Key((*key).to_owned())).collect()
}

/// Which names repeat one before them.
fn repeats(names: &[&str]) -> Vec<bool> {
    let mut index = Index::with_capacity(names.len());
    names.iter().map(|name| index.insert(name).is_err()).collect()
}

/// `[a-z][a-z0-9_]*`: a name that reads the same in a toggle, a file name or a heading.
fn is_component_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_lowercase)
        && bytes.iter().all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::issue::format_path;
    use crate::json::decimals::Decimals;

    #[test]
    fn repeats_marks_each_name_that_stands_before() {
        assert_eq!(repeats(&["a", "b", "a", "c", "b", "a"]), [false, false, true, false, true, true]);
        assert_eq!(repeats(&[]), [] as [bool; 0]);
        // Many names in few slots' worth of fingerprints: held to the look back.
        let names: Vec<String> = (0..300u32).map(|i| format!("n{}", i * 7919 % 97)).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let look_back: Vec<bool> = (0..names.len()).map(|i| names[..i].contains(&names[i])).collect();
        assert_eq!(repeats(&names), look_back);
    }
    use crate::error::ErrorCode;

    /// Composes from JSON text through the schema, as `composePrompt` does from JS.
    fn run(input: &str) -> Result<Composed> {
        let document = crate::json::parse(input.as_bytes(), Decimals::RUST).expect("test input is JSON");
        compose(&crate::validate::args::options(
            &*document,
            "input",
            &crate::validate::compiled::COMPOSE_INPUT,
            Decimals::RUST,
        )?)
    }

    fn ok(input: &str) -> Composed {
        run(input).unwrap_or_else(|e| panic!("{input}: {e}"))
    }

    /// The issues of a refused input, as `path: message`.
    fn refused(input: &str) -> Vec<String> {
        let error = run(input).expect_err(input);
        assert_eq!(error.code, ErrorCode::InvalidOptions, "{error}");
        let issues = error.data.issues.unwrap_or_default();
        issues.iter().map(|i| format!("{}: {}", format_path(i.path()), i.message())).collect()
    }

    fn section(name: &str) -> &'static str {
        prompts::section(name, Language::En).unwrap()
    }

    #[test]
    fn by_default_the_base_comes_first_then_core_planner_tools_and_tool_guidelines() {
        let composed = ok(r#"{"base": "You are a research assistant.\n"}"#);
        assert_eq!(composed.components, ["base", "core", "planner_tools", "tool_guidelines"]);
        let expected =
            ["You are a research assistant.", section("core"), section("planner_tools"), section("tool_guidelines")];
        assert_eq!(composed.prompt, expected.join("\n\n"));
        assert!(composed.unresolved.is_empty());
    }

    #[test]
    fn the_order_is_fixed_whatever_the_order_of_the_input() {
        let composed = ok(r#"{
            "budget": {"remaining": 3, "total": 5},
            "features": {"house": true, "continuation_protocol": true},
            "components": [{"name": "house", "text": "House rules."}, {"name": "output_format", "text": "Answer in JSON."},
                           {"name": "extra", "text": "Extra."}],
            "plan": {"goal": "Ship it"},
            "base": "Base."
        }"#);
        let order = [
            "base",
            "core",
            "plan",
            "planner_tools",
            "continuation_protocol",
            "tool_guidelines",
            "output_format",
            "house",
            "extra",
            "budget",
        ];
        assert_eq!(composed.components, order);
        let parts: Vec<&str> = composed.prompt.split("\n\n## ").collect();
        assert_eq!(parts[0], "Base.");
        let headings: Vec<&str> = parts[1..].iter().map(|p| p.lines().next().unwrap()).collect();
        assert_eq!(
            headings,
            ["Core instructions", "Current plan", "Planning tools", "Continuation protocol", "Using tools"]
        );
        assert!(composed
            .prompt
            .ends_with("\n\nAnswer in JSON.\n\nHouse rules.\n\nExtra.\n\nTool rounds remaining: 3 of 5."));
    }

    #[test]
    fn toggles_turn_parts_off_and_continuation_protocol_on() {
        let composed = ok(r#"{"base": "B", "features": {"planner_tools": false, "tool_guidelines": false,
            "continuation_protocol": true, "house": false, "plan": false, "budget": false, "core": true},
            "components": [{"name": "house", "text": "H"}], "plan": {"goal": "g"}, "budget": {"remaining": 1, "total": 2}}"#);
        assert_eq!(composed.components, ["base", "core", "continuation_protocol"]);
        assert!(composed.prompt.contains(r#"{"continuation": {"status": "CONTINUE""#));
        // Turned on, plan and budget still need to be given.
        assert_eq!(ok(r#"{"base": "B", "features": {"plan": true, "budget": true}}"#).components.len(), 4);
    }

    #[test]
    fn core_cannot_be_disabled() {
        assert_eq!(
            refused(r#"{"base": "B", "features": {"core": false}}"#),
            ["features.core: core cannot be disabled: it keeps the agent on the user's goal and plan"]
        );
    }

    #[test]
    fn a_toggle_naming_no_part_is_an_error_listing_every_such_name_in_order() {
        let input = r#"{"base": "B", "features": {"tool_guideline": false, "house": true, "Core": true},
            "components": [{"name": "house", "text": "H"}]}"#;
        assert_eq!(refused(input), [r#"features: Unrecognized keys: "tool_guideline", "Core""#]);
        let error = run(input).unwrap_err();
        assert!(matches!(error.data.issues.as_deref(), Some([Issue::UnrecognizedKeys(_)])));
    }

    #[test]
    fn a_component_named_like_a_shared_one_replaces_its_text_in_place() {
        let composed = ok(r#"{"base": "B", "components": [{"name": "mine", "text": "Mine."},
            {"name": "tool_guidelines", "text": "Use {{{tool}}} only."}, {"name": "core", "text": "My core."}],
            "values": {"tool": "search"}}"#);
        assert_eq!(composed.components, ["base", "core", "planner_tools", "tool_guidelines", "mine"]);
        let expected = ["B", "My core.", section("planner_tools"), "Use search only.", "Mine."];
        assert_eq!(composed.prompt, expected.join("\n\n"));
        // A replacement does not turn a part on: the protocol stays off until asked for.
        let off = ok(r#"{"base": "B", "components": [{"name": "continuation_protocol", "text": "Mine."}]}"#);
        assert!(!off.components.iter().any(|c| c == "continuation_protocol"));
        let on = r#"{"base": "B", "components": [{"name": "continuation_protocol", "text": "Mine."}],
            "features": {"continuation_protocol": true, "planner_tools": false}}"#;
        assert_eq!(ok(on).prompt, ["B", section("core"), "Mine.", section("tool_guidelines")].join("\n\n"));
    }

    #[test]
    fn output_format_shows_only_with_a_text_of_the_users() {
        assert!(!ok(r#"{"base": "B"}"#).components.iter().any(|c| c == "output_format"));
        assert_eq!(
            refused(r#"{"base": "B", "features": {"output_format": true}}"#),
            [
                r#"features.output_format: output_format has no built-in text: give it as a component {name: "output_format", text}"#
            ]
        );
        let off = ok(r#"{"base": "B", "features": {"output_format": false},
            "components": [{"name": "output_format", "text": "JSON."}]}"#);
        assert!(!off.prompt.contains("JSON."));
    }

    #[test]
    fn names_planloop_fills_itself_bad_names_and_duplicates_are_refused() {
        let reserved = r#"{"base": "B", "components": [{"name": "plan", "text": "x"}, {"name": "planner_tools", "text": "x"},
            {"name": "budget", "text": "x"}, {"name": "base", "text": "x"}, {"name": "notes", "text": "x"},
            {"name": "notes", "text": "y"}]}"#;
        assert_eq!(
            refused(reserved),
            [
                r#"components[0].name: "plan" is planloop's own section; no component can replace it"#,
                r#"components[1].name: "planner_tools" is planloop's own section; no component can replace it"#,
                r#"components[2].name: "budget" is planloop's own section; no component can replace it"#,
                r#"components[3].name: "base" is planloop's own section; no component can replace it"#,
                r#"components[5].name: Duplicate component name "notes""#,
            ]
        );
        let bad =
            r#"{"base": "B", "components": [{"name": "Bad-Name", "text": "x"}, {"name": "9lives", "text": "x"}]}"#;
        assert_eq!(
            refused(bad),
            [
                r#"components[0].name: Invalid component name "Bad-Name": use lowercase letters, digits and _, starting with a letter"#,
                r#"components[1].name: Invalid component name "9lives": use lowercase letters, digits and _, starting with a letter"#,
            ]
        );
        // Past the first five problems, the rest are counted.
        let many: Vec<String> = (0..256).map(|i| format!(r#"{{"name": "N{i}", "text": "x"}}"#)).collect();
        let named = refused(&format!(r#"{{"base": "B", "components": [{}]}}"#, many.join(",")));
        assert_eq!(named.len(), 6);
        assert_eq!(named[5], ": …and 251 more issues");
    }

    #[test]
    fn values_fill_placeholders_once_and_a_value_is_never_scanned_again() {
        let composed = ok(
            r#"{"base": "Hi {{{user}}}, {{{loop}}}!", "values": {"user": "Ada", "loop": "{{{loop}}} {{{user}}}"},
            "features": {"planner_tools": false, "tool_guidelines": false}, "components": [{"name": "core", "text": "{{{user}}}"}]}"#,
        );
        assert_eq!(composed.prompt, "Hi Ada, {{{loop}}} {{{user}}}!\n\nAda");
        assert!(composed.unresolved.is_empty());
    }

    #[test]
    fn keys_without_a_value_stay_and_are_listed_once_in_order() {
        let composed = ok(r#"{"base": "{{{b}}} {{{a}}} {{{b}}} {{{not a key}}}", "values": {"c": "C"},
            "components": [{"name": "notes", "text": "{{{c}}}{{{z}}}{{{a}}}"}], "plan": {"goal": "Explain {{{q}}}"},
            "features": {"planner_tools": false, "tool_guidelines": false}}"#);
        assert_eq!(composed.unresolved, ["b", "a", "z"]);
        assert!(composed.prompt.starts_with("{{{b}}} {{{a}}} {{{b}}} {{{not a key}}}\n\n"));
        // The plan is the task's state: its text goes in as it is.
        assert!(
            composed.prompt.contains("Task: Explain {{{q}}}\n") && composed.prompt.ends_with("\n\nC{{{z}}}{{{a}}}")
        );
    }

    #[test]
    fn the_plan_block_in_english_and_chinese_with_and_without_a_current_step() {
        // From the plan's heading to the next part's.
        let block = |input: &str| {
            let prompt = ok(input).prompt;
            let start = prompt.find("## Current plan").or_else(|| prompt.find("## 当前任务规划")).unwrap();
            let end = prompt[start..].find("\n\n## ").map_or(prompt.len(), |i| start + i);
            prompt[start..end].to_owned()
        };
        let en = r#"{"base": "B", "plan": {"goal": "Summarize the Q3 note", "step": "Find the note", "stepNumber": 2, "totalSteps": 5}}"#;
        assert_eq!(
            block(en),
            "## Current plan\n\nTask: Summarize the Q3 note\nCurrent step (2/5): Find the note\n\nStep control:\n\
             - When a step is done, say \"[Done]\" to move on to the next one.\n\
             - Or begin with a transition word such as \"Now…\" or \"Next…\"."
        );
        let zh = r#"{"base": "B", "language": "zh", "plan": {"goal": "总结第三季度笔记", "step": "找到笔记", "stepNumber": 1, "totalSteps": 3}}"#;
        assert_eq!(
            block(zh),
            "## 当前任务规划\n\n当前任务: 总结第三季度笔记\n当前步骤 (1/3): 找到笔记\n\n步骤控制指令:\n\
             - 步骤完成后，说 \"[完成]\" 或 \"[Done]\" 推进到下一步\n\
             - 或使用 \"现在...\"、\"接下来...\" 等转换词"
        );
        assert!(block(r#"{"base": "B", "plan": {"goal": "G", "step": "S"}}"#).contains("\nCurrent step: S\n"));
        assert!(block(r#"{"base": "B", "plan": {"goal": "G", "step": null}}"#).contains(
            "Task: G\nPlan your steps first: one per line, as \"[Step] description\", then carry them out in order."
        ));
        assert!(block(r#"{"base": "B", "language": "zh", "plan": {"goal": "G"}}"#)
            .contains("当前任务: G\n请先规划任务步骤，每行一个，使用 \"[Step] 描述\" 格式，然后按顺序执行。"));
        assert!(!ok(zh).prompt.contains("plan.json"), "planloop keeps the state; the host stores it");
    }

    #[test]
    fn step_counts_go_together_with_a_step_and_within_the_plan() {
        let plan = |p: &str| refused(&format!(r#"{{"base": "B", "plan": {p}}}"#));
        assert_eq!(
            plan(r#"{"goal": "G", "step": "S", "stepNumber": 6, "totalSteps": 5}"#),
            ["plan.stepNumber: stepNumber (6) is over totalSteps (5)"]
        );
        assert_eq!(
            plan(r#"{"goal": "G", "step": "S", "stepNumber": 2}"#),
            ["plan.totalSteps: stepNumber and totalSteps go together"]
        );
        assert_eq!(
            plan(r#"{"goal": "G", "step": "S", "totalSteps": 2}"#),
            ["plan.stepNumber: stepNumber and totalSteps go together"]
        );
        assert_eq!(
            plan(r#"{"goal": "G", "stepNumber": 1, "totalSteps": 2}"#),
            ["plan.step: stepNumber and totalSteps count the current step: give step too"]
        );
        assert_eq!(plan(r#"{"goal": ""}"#), ["plan.goal: Too small: expected string to have >=1 characters"]);
    }

    #[test]
    fn the_budget_line_comes_last_in_the_prompts_language() {
        let en = ok(
            r#"{"base": "B", "budget": {"remaining": 0, "total": 4}, "components": [{"name": "notes", "text": "N"}]}"#,
        );
        assert!(en
            .prompt
            .ends_with("\n\nN\n\nTool rounds remaining: 0 of 4. Give your final answer now, without tools."));
        assert_eq!(en.components.last().map(String::as_str), Some("budget"));
        let zh = ok(r#"{"base": "B", "language": "zh", "budget": {"remaining": 2, "total": 4}}"#);
        assert!(zh.prompt.ends_with(&format!(
            "{}\n\n剩余工具轮次: 2/4。",
            prompts::section("tool_guidelines", Language::Zh).unwrap()
        )));
        assert_eq!(
            refused(r#"{"base": "B", "budget": {"remaining": 5, "total": 4}}"#),
            ["budget.remaining: remaining (5) is over total (4)"]
        );
    }

    #[test]
    fn features_and_values_are_records_checked_as_zod_checks_them() {
        assert_eq!(
            refused(r#"{"base": "B", "features": {"core": "yes", "plan": 1}, "values": []}"#),
            [
                "features.core: Invalid input: expected boolean, received string",
                "features.plan: Invalid input: expected boolean, received number",
                "values: Invalid input: expected record, received array",
            ]
        );
        assert_eq!(
            refused(r#"{"base": "B", "values": {"a": null}}"#),
            ["values.a: Invalid input: expected string, received null"]
        );
        assert_eq!(refused(r#"{"bass": "B"}"#)[0], "base: Invalid input: expected string, received undefined");
        assert!(
            ok(r#"{"base": "B", "features": {}, "values": {}, "plan": null, "budget": null}"#).components.len() == 4
        );
    }

    #[test]
    fn empty_parts_are_left_out_and_line_breaks_at_their_ends_dropped() {
        let composed =
            ok(r#"{"base": "", "components": [{"name": "a", "text": "\n\n  A\n\n"}, {"name": "b", "text": "\n"}],
            "features": {"core": true, "planner_tools": false, "tool_guidelines": false}}"#);
        assert_eq!(composed.components, ["core", "a"]);
        assert_eq!(composed.prompt, format!("{}\n\n  A", section("core")));
    }

    #[test]
    fn a_prompt_over_the_cap_is_refused_before_it_is_built() {
        let base = "{{{x}}}".repeat(1000);
        let input = format!(r#"{{"base": "{base}", "values": {{"x": "{}"}}}}"#, "y".repeat(20_000));
        assert_eq!(refused(&input), [format!(": The composed prompt would be over {PROMPT_MAX_CHARS} characters")]);
    }

    #[test]
    fn the_cap_counts_characters_not_bytes() {
        let features = r#""features": {"core": false, "planner_tools": false, "tool_guidelines": false}"#;
        let features = features.replace(r#""core": false, "#, "");
        let input = |n: usize| {
            format!(r#"{{"base": "{}", "values": {{"x": "{}"}}, {features}}}"#, "{{{x}}}".repeat(400), "é".repeat(n))
        };
        let composed = ok(&input(20_000));
        let core = section("core").chars().count() + 2;
        assert_eq!(composed.prompt.chars().count(), 8_000_000 + core, "16 MB of text, 8 million characters");
        assert_eq!(
            refused(&input(30_000)),
            [format!(": The composed prompt would be over {PROMPT_MAX_CHARS} characters")]
        );
    }
}
