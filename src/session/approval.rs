//! Approval gates (seed 002): which tool calls run at once and which wait for a person.
//!
//! A tool is `read` (it only looks; it runs inline) or `approve` (it acts; it becomes a
//! proposal the user approves or rejects). A tool the configuration does not name needs
//! approval: the gate fails closed. Rules refine that by argument, such as "`run_bash`
//! whose `command` starts with `git status` is read", and a rule that lets a call run
//! without approval never matches an argument that chains or redirects commands.

use schemars::JsonSchema;
use serde::Serialize;

use crate::json::decimals::Decimals;
use crate::json::from_value::{enum_from_value, key, struct_from_value, Case, Fields, FromValue, Mismatch};
use crate::json::value::Value;
use crate::session::delegation::Link;
use crate::text::visible::visible;
use crate::text::{cap, find, signed_decimal};
use crate::trail::reasoning::describe_args;

const JUSTIFICATION_CAP: usize = 200;
const TOOL_CAP: usize = 60;
const RESULT_CAP: usize = 8_000;

/// Standing approvals a session keeps (and a snapshot holds) at most: each is one tool
/// (or rule) the user allowed, so this many is far past any real use.
pub const MAX_GRANTS: usize = 10_000;

/// What a tool call needs before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ToolClass {
    /// It only reads: it runs inline, without asking.
    Read,
    /// It acts: it waits for the user's approval.
    Approve,
}

enum_from_value!(ToolClass, "lowercase" [Read, Approve]);

/// A rule on a tool's arguments. The first rule that matches decides.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct ToolRule {
    /// The tool the rule is about.
    #[schemars(length(min = 1, max = 256))]
    pub tool: String,
    /// The argument to look at, such as `command`. Without it, the rule matches every
    /// call of the tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", length(min = 1, max = 256))]
    pub argument: Option<String>,
    /// The argument matches when it is one of these or starts with one followed by a
    /// space (`git status` matches `git status -s`, not `git statusx`).
    #[serde(default)]
    #[schemars(length(max = 256))]
    pub prefixes: Vec<String>,
    pub class: ToolClass,
}

struct_from_value!(ToolRule, "camelCase" { tool, argument, prefixes = Default::default(), class });

/// Which tools run at once and which wait for approval.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct ToolPolicy {
    /// The class of a tool named nowhere below.
    #[serde(default = "approve")]
    pub default: ToolClass,
    /// Tools that only read.
    #[serde(default)]
    #[schemars(length(max = 1024))]
    pub read: Vec<String>,
    /// Tools that act (approval wins when a tool is in both lists).
    #[serde(default)]
    #[schemars(length(max = 1024))]
    pub approve: Vec<String>,
    /// Rules on arguments, checked first, in order.
    #[serde(default)]
    #[schemars(length(max = 256))]
    pub rules: Vec<ToolRule>,
}

struct_from_value!(ToolPolicy, "camelCase" {
    default = approve(),
    read = Default::default(),
    approve = Default::default(),
    rules = Default::default(),
});

fn approve() -> ToolClass {
    ToolClass::Approve
}

impl Default for ToolPolicy {
    fn default() -> Self {
        ToolPolicy { default: ToolClass::Approve, read: Vec::new(), approve: Vec::new(), rules: Vec::new() }
    }
}

/// What decided a call's class, so that "always allow" can allow exactly that again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "by", rename_all = "camelCase")]
pub enum Basis {
    /// Rule number `index` of `tools.rules`.
    Rule { index: u32 },
    /// The tool's name (a list, or the default).
    Tool,
}

/// Tagged internally, as serde writes it: `{"by": "rule", "index": 0}` or `{"by": "tool"}`.
impl FromValue for Basis {
    fn from_value(value: &mut Value<'_>, mismatch: &mut Mismatch) -> Self {
        #[derive(Clone, Copy)]
        enum By {
            Rule,
            Tool,
        }
        enum_from_value!(By, "camelCase" [Rule, Tool]);
        let mut fields = Fields::new(value, mismatch);
        let basis = match By::from_value(fields.get(("by", Case::AsIs)), mismatch) {
            By::Rule => Basis::Rule { index: u32::from_value(fields.get(key!(Case::AsIs; index)), mismatch) },
            By::Tool => Basis::Tool,
        };
        fields.end(mismatch);
        basis
    }
}

/// A standing approval given with `scope: "always"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Grant {
    pub tool: String,
    pub basis: Basis,
}

struct_from_value!(Grant, "camelCase" { tool, basis });

/// Characters that chain, substitute or redirect shell commands.
const CHAINING: [&str; 9] = [";", "&", "|", "`", "$(", ">", "<", "\n", "\r"];

impl ToolPolicy {
    /// The class of a call, and what decided it; standing grants turn approval into read.
    pub fn classify(&self, tool: &str, args: &Value<'_>, grants: &[Grant]) -> (ToolClass, Basis) {
        let (class, basis) = self.base_class(tool, args);
        let granted = grants.iter().any(|g| g.tool == tool && g.basis == basis);
        (if granted { ToolClass::Read } else { class }, basis)
    }

    /// Whether some call of `tool` may need approval: `false` only when no call of it,
    /// whatever its arguments, can. Known before any call is made, so a host gives its
    /// framework's approval hook only to such tools (and a tool that always reads keeps
    /// the framework's own behaviour).
    /// The rules on the tool are read first, as `classify` reads them: an approve rule
    /// may match, a read rule on no argument matches every call; standing grants only
    /// ever turn approvals into reads.
    pub fn may_hold(&self, tool: &str) -> bool {
        for rule in self.rules.iter().filter(|rule| rule.tool == tool) {
            match (rule.class, &rule.argument) {
                (ToolClass::Approve, _) => return true,
                (ToolClass::Read, None) => return false,
                (ToolClass::Read, Some(_)) => {}
            }
        }
        // No rule decides every call: the lists and the default do (no arguments match no
        // rule on an argument).
        self.base_class(tool, &Value::Object(Vec::new())).0 == ToolClass::Approve
    }

    fn base_class(&self, tool: &str, args: &Value<'_>) -> (ToolClass, Basis) {
        for (index, rule) in self.rules.iter().enumerate() {
            if rule.tool == tool && rule.matches(args) {
                return (rule.class, Basis::Rule { index: index as u32 });
            }
        }
        let named = |list: &[String]| list.iter().any(|t| t == tool);
        let class = if named(&self.approve) {
            ToolClass::Approve
        } else if named(&self.read) {
            ToolClass::Read
        } else {
            self.default
        };
        (class, Basis::Tool)
    }
}

impl ToolRule {
    fn matches(&self, args: &Value<'_>) -> bool {
        let Some(argument) = &self.argument else { return true };
        let Some(value) = args.get(argument).and_then(Value::as_str) else { return false };
        let value = value.trim();
        if self.class == ToolClass::Read && CHAINING.iter().any(|c| find(value, c).is_some()) {
            return false;
        }
        self.prefixes.iter().any(|prefix| {
            let prefix = prefix.trim();
            value == prefix || value.strip_prefix(prefix).is_some_and(|rest| rest.starts_with(' '))
        })
    }
}

/// Where a proposal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ProposalStatus {
    Pending,
    Approved,
    Rejected,
}

enum_from_value!(ProposalStatus, "lowercase" [Pending, Approved, Rejected]);

/// A call that waits for the user.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Proposal {
    /// planloop's id for the action; pass it to `approve` or `reject`.
    pub action_id: String,
    /// The model's id for the call.
    pub call_id: String,
    pub tool: String,
    /// The arguments (as edited, once approved with `editedArgs`).
    pub args: Value<'static>,
    /// What the call would do, in a line: `Run: <command>`, `Fetch: <url>`, …
    pub justification: String,
    pub status: ProposalStatus,
    /// The turn the proposal belongs to, and the model response within it.
    pub turn: u32,
    pub iteration: u32,
    /// What decided it needs approval.
    pub basis: Basis,
    /// When a sub-agent made it: the delegations it came through, outermost first (the
    /// parent's turn and its delegate call). Absent for the session's own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 3))]
    pub chain: Vec<Link>,
}

struct_from_value!(Proposal, "camelCase" {
    action_id,
    call_id,
    tool,
    args,
    justification,
    status,
    turn,
    iteration,
    basis,
    chain = Default::default(),
});

/// How long a grant lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// This call only.
    Once,
    /// This tool (or rule) for the rest of the session.
    Always,
}

enum_from_value!(Scope, "lowercase" [Once, Always]);

/// The options of `approve`.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct ApproveOptions {
    /// Arguments to run the call with instead of the model's.
    #[serde(default)]
    #[schemars(with = "Option<Value<'static>>")]
    pub edited_args: Option<Value<'static>>,
    #[serde(default = "once")]
    pub scope: Scope,
}

struct_from_value!(ApproveOptions, "camelCase" { edited_args, scope = once() });

fn once() -> Scope {
    Scope::Once
}

/// The options of `reject`.
#[derive(Debug, Clone, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(deny_unknown_fields)]
pub struct RejectOptions {
    /// Why, for the model to read.
    #[serde(default)]
    #[schemars(with = "String", length(max = 4000))]
    pub message: Option<String>,
}

struct_from_value!(RejectOptions, "camelCase" { message });

/// What a call would do, from its arguments: `Run: <command>`, `Fetch: <url>`,
/// `Search: <query>`, else its primary argument (or all of them), shown as they are to
/// the user who decides on it: line breaks and hidden characters visible, and a long text
/// cut in its middle, never its end ([`visible`]).
pub fn justification(tool: &str, args: &Value<'_>, decimals: Decimals) -> String {
    let text = |key: &str| args.get(key).and_then(Value::as_str).map(|s| visible(s, JUSTIFICATION_CAP));
    if let Some(command) = text("command").or_else(|| text("cmd")) {
        return format!("Run: {command}");
    }
    if let Some(url) = text("url") {
        return format!("Fetch: {url}");
    }
    if let Some(query) = text("query") {
        return format!("Search: {query}");
    }
    let tool = visible(tool, TOOL_CAP);
    match describe_args(&args, decimals).ok().flatten() {
        Some(arg) => format!("{tool}: {}", visible(&arg, JUSTIFICATION_CAP)),
        None => format!("{tool} (no arguments)"),
    }
}

/// The result of an approved action as seed 002 writes it:
/// `[tool_result:NAME] <stdout>\n<stderr>\nexit: N (1.2s)`, capped.
pub fn format_result(
    tool: &str,
    stdout: &str,
    stderr: Option<&str>,
    exit_code: Option<i32>,
    duration_ms: Option<f64>,
) -> String {
    let mut out = format!("[tool_result:{tool}] {}", stdout.trim_end());
    if let Some(stderr) = stderr.map(str::trim_end).filter(|s| !s.is_empty()) {
        out.push('\n');
        out.push_str(stderr);
    }
    let seconds = duration_ms.map(|ms| {
        // Whole tenths of a second, split in integers: `ms % 1000.0` brought the float
        // remainder's 128-bit division into the session module (the same figures for 50
        // million durations checked against it).
        let tenths = (ms / 100.0) as u64;
        format!("({}.{}s)", tenths / 10, tenths % 10)
    });
    match (exit_code, seconds) {
        (Some(code), Some(seconds)) => out.push_str(&format!("\nexit: {} {seconds}", signed_decimal(code.into()))),
        (Some(code), None) => out.push_str(&format!("\nexit: {}", signed_decimal(code.into()))),
        (None, Some(seconds)) => out.push_str(&format!("\n{seconds}")),
        (None, None) => {}
    }
    cap(&out, RESULT_CAP)
}

/// The tool result the model sees for an action the user rejected.
pub fn rejection(tool: &str, message: Option<&str>) -> String {
    match message.map(str::trim).filter(|m| !m.is_empty()) {
        Some(message) => format!("[tool_result:{tool}] The user rejected this action: {}", cap(message, 4000)),
        None => format!("[tool_result:{tool}] The user rejected this action."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_no_call_of_which_can_be_held_is_told_so_before_any_call() {
        let tools = ["run_bash", "search", "deploy"];
        let rule = |rng: &mut crate::test_rng::Rng| ToolRule {
            tool: (*rng.pick(&tools)).into(),
            argument: rng.pick(&[None, Some("command")]).map(str::to_owned),
            prefixes: (0..rng.below(3)).map(|_| (*rng.pick(&["git status", "ls", "", "rm"])).to_owned()).collect(),
            class: *rng.pick(&[ToolClass::Read, ToolClass::Approve]),
        };
        let list = |rng: &mut crate::test_rng::Rng| (0..rng.below(3)).map(|_| (*rng.pick(&tools)).to_owned()).collect();
        let mut rng = crate::test_rng::Rng::for_test(0x6A09_E667_F3BC_C908);
        let (mut held, mut never) = (0, 0);
        for _ in 0..crate::test_rng::rounds(5_000) {
            let policy = ToolPolicy {
                default: *rng.pick(&[ToolClass::Read, ToolClass::Approve]),
                read: list(&mut rng),
                approve: list(&mut rng),
                rules: (0..rng.below(4)).map(|_| rule(&mut rng)).collect(),
            };
            for tool in tools {
                // Calls that match each rule, miss it, or chain a command after it.
                let mut calls = vec![args("{}"), args(r#"{"command":"zzz"}"#), args(r#"{"command":7}"#)];
                for prefix in policy.rules.iter().flat_map(|r| r.prefixes.iter()) {
                    for command in [prefix.clone(), format!("{prefix} -x"), format!("{prefix}; rm -rf ~")] {
                        calls.push(Value::Object(vec![("command".into(), Value::String(command.into()))]));
                    }
                }
                let any_held = calls.iter().any(|call| policy.classify(tool, call, &[]).0 == ToolClass::Approve);
                if !policy.may_hold(tool) {
                    assert!(!any_held, "{policy:?} {tool}: a call is held after all");
                    never += 1;
                } else {
                    held += usize::from(any_held);
                }
            }
        }
        assert!(never > 1_000 && held > 1_000, "never {never}, held {held}");
    }

    fn args(json: &str) -> Value<'static> {
        crate::json::parse(json.as_bytes(), Decimals::RUST).unwrap().into_shallow().into_owned()
    }

    fn policy() -> ToolPolicy {
        ToolPolicy {
            default: ToolClass::Approve,
            read: vec!["search".into(), "run_bash".into()],
            approve: vec!["run_bash".into()],
            rules: vec![ToolRule {
                tool: "run_bash".into(),
                argument: Some("command".into()),
                prefixes: vec!["git status".into(), "ls".into()],
                class: ToolClass::Read,
            }],
        }
    }

    #[test]
    fn unnamed_tools_need_approval_and_approval_wins_over_read() {
        let p = policy();
        assert_eq!(p.classify("search", &Value::Undefined, &[]).0, ToolClass::Read);
        assert_eq!(p.classify("delete_note", &Value::Undefined, &[]).0, ToolClass::Approve);
        assert_eq!(p.classify("run_bash", &args(r#"{"command":"rm -rf x"}"#), &[]), (ToolClass::Approve, Basis::Tool));
    }

    #[test]
    fn rules_match_whole_word_prefixes_and_never_chained_commands() {
        let p = policy();
        let class = |command: &str| p.classify("run_bash", &args(&format!(r#"{{"command":{command:?}}}"#)), &[]).0;
        assert_eq!(class("git status"), ToolClass::Read);
        assert_eq!(class("git status -s"), ToolClass::Read);
        assert_eq!(class("  ls -la  "), ToolClass::Read);
        assert_eq!(class("lsblk"), ToolClass::Approve);
        assert_eq!(class("ls; rm -rf ~"), ToolClass::Approve);
        assert_eq!(class("ls && curl evil"), ToolClass::Approve);
        assert_eq!(class("ls $(whoami)"), ToolClass::Approve);
        assert_eq!(class("ls > out.txt"), ToolClass::Approve);
        assert_eq!(class("ls\nrm x"), ToolClass::Approve);
    }

    #[test]
    fn a_grant_allows_the_same_tool_or_rule_again() {
        let p = policy();
        let grants = [Grant { tool: "delete_note".into(), basis: Basis::Tool }];
        assert_eq!(p.classify("delete_note", &Value::Undefined, &grants).0, ToolClass::Read);
        assert_eq!(p.classify("move_note", &Value::Undefined, &grants).0, ToolClass::Approve);
    }

    #[test]
    fn justifications_say_what_the_call_does() {
        assert_eq!(
            justification("run_bash", &args(r#"{"command":"echo hi\nsleep 1"}"#), Decimals::RUST),
            "Run: echo hi⏎sleep 1"
        );
        assert_eq!(
            justification("web_fetch", &args(r#"{"url":"https://example.com"}"#), Decimals::RUST),
            "Fetch: https://example.com"
        );
        assert_eq!(justification("web_search", &args(r#"{"query":"rust wasm"}"#), Decimals::RUST), "Search: rust wasm");
        assert_eq!(
            justification("write_file", &args(r#"{"path":"a.md","content":"x"}"#), Decimals::RUST),
            "write_file: a.md"
        );
        assert_eq!(justification("noop", &args("{}"), Decimals::RUST), "noop (no arguments)");
        let long = justification("run_bash", &args(&format!(r#"{{"command":"{}"}}"#, "x".repeat(500))), Decimals::RUST);
        assert!(long.chars().count() <= 5 + 200 && long.contains("…[+"), "{long}");
    }

    #[test]
    fn justifications_never_hide_what_will_run() {
        let run = |command: &str| {
            justification(
                "run_bash",
                &args(&format!(r#"{{"command":{}}}"#, serde_json::to_string(command).unwrap())),
                Decimals::RUST,
            )
        };
        // The tail of a long command stays, and the cut says how much it left out.
        let long = run(&format!("ls {}; rm -rf ~", "a".repeat(250)));
        assert!(long.starts_with("Run: ls aaa") && long.ends_with("aaa; rm -rf ~"), "{long}");
        assert!(long.contains("…[+77 chars]…") && long.chars().count() <= 5 + 200, "{long}");
        // A line break is no space.
        assert_eq!(run("echo hi\n\n\nrm -rf ~"), "Run: echo hi⏎⏎⏎rm -rf ~");
        // No override reorders it, no escape sequence reaches a terminal.
        assert_eq!(run("cat \u{202E}txt.sh\u{1b}[2K"), "Run: cat \\u{202E}txt.sh\\u{1B}[2K");
        // The tool's name, and arguments shown as JSON, likewise; a long JSON keeps its end.
        let call = r#"{"__proto__":{"pad":"PAD","command":"rm -rf ~"}}"#.replace("PAD", &"x".repeat(2000));
        let json = justification("run\u{1b}]0;ok\u{7}", &args(&call), Decimals::RUST);
        assert!(json.starts_with("run\\u{1B}]0;ok\\u{7}: {\"__proto__\":{\"pad\":\"xxx"), "{json}");
        assert!(json.ends_with(r#"xxx","command":"rm -rf ~"}}"#), "{json}");
    }

    #[test]
    fn results_are_written_as_seed_002_writes_them() {
        assert_eq!(
            format_result("run_bash", "line 1\nline 2\n", Some("warn\n"), Some(0), Some(1234.0)),
            "[tool_result:run_bash] line 1\nline 2\nwarn\nexit: 0 (1.2s)"
        );
        assert_eq!(format_result("run_bash", "ok", None, Some(2), None), "[tool_result:run_bash] ok\nexit: 2");
        assert_eq!(format_result("fetch", "body", Some(""), None, Some(50.0)), "[tool_result:fetch] body\n(0.0s)");
        // Tenths are cut, never rounded: just under a second is 0.9s.
        let seconds =
            |ms: f64| format_result("t", "", None, None, Some(ms)).rsplit('\n').next().unwrap_or("").to_owned();
        assert_eq!(
            [seconds(999.999_999_999_999_9), seconds(1_000.0), seconds(61_049.0)],
            ["(0.9s)", "(1.0s)", "(61.0s)"]
        );
        assert!(format_result("cat", &"y".repeat(20_000), None, None, None).chars().count() <= RESULT_CAP);
        assert_eq!(
            rejection("run_bash", Some("not on prod")),
            "[tool_result:run_bash] The user rejected this action: not on prod"
        );
    }
}
