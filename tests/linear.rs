//! Every walk over untrusted input is linear: the work a call does on a model's text, a
//! tool's output, result ids, a user's message or a todo checklist grows in proportion to
//! their size, however they are made.
//!
//! Work is counted, not timed: each workload runs in a child process of this test's own
//! executable under valgrind's instruction counter (callgrind), at sizes n, 2n and 4n.
//! What a call costs at any size (a session set up, the glue around the call) cancels in
//! the differences, so `(I(4n) - I(n)) / (I(2n) - I(n))` is 3 for linear work, 5 for
//! quadratic work, and about 3.2 for `n log n` (a sort) at these sizes. The counts do
//! not depend on the machine or its load: the bound is not a timing.
//!
//! The bound is 3.5, not 4: this build is unoptimized, so the linear part of a call is
//! large, while a quadratic scan that runs on the standard library's optimized `memchr`
//! is cheap per byte; at sizes valgrind gets through in a minute, such a scan is a
//! minority of the work, and shows as 3.7 to 4.2 (as `<think ` repeated did), not 5.

mod support;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;

use planloop::json::decimals::Decimals;
use planloop::json::value::Value;
use planloop::plan::dialects::{self, DialectArgs, DroidTodoWriteArgs, DroidTodos};
use planloop::plan::dialects::{TaskProgressArgs, UpdateTodoListArgs};
use planloop::prompts::compose::{compose, ComposeInput, PromptParts};
use planloop::session::approval::{ApproveOptions, Scope, ToolPolicy};
use planloop::session::config::{ContinuationProtocol, SessionConfig};
use planloop::session::exchange::{BeginTurn, Decision, ModelResponse, ToolCallInput, ToolResult};
use planloop::session::Session;
use planloop::text::reflection::extract_reflection;
use support::{call, config, ok, Drive};

/// The workloads a child process runs, by number: `3,7,11`.
const WORKLOADS: &str = "PLANLOOP_LINEAR_WORKLOADS";
/// Each workload runs at these multiples of its `n`.
const SIZES: [usize; 3] = [1, 2, 4];
/// The sizes below suit an unoptimized build; an optimized one (`make fuzz`) does the
/// same work in fewer instructions, so it measures larger inputs.
const SCALE: usize = if cfg!(debug_assertions) { 1 } else { 8 };
/// The ratio from which work counts as superlinear (see the module's docs).
const MAX_RATIO: f64 = 3.5;
/// Instructions a workload must add from n to 2n to be measured well: the glue around a
/// call varies by a few thousand.
const MIN_GROWTH: u64 = 1_000_000;

/// A workload: its name, the `n` it is measured at, and what it runs at a size.
type Workload = (String, usize, Box<dyn Fn(usize) + Sync>);

/// A text `n` pieces long.
type Text = fn(usize) -> String;

/// Text a model may write, `n` pieces long: the start of something a scan looks for,
/// never finished, or finished over and over; and the `n` each is measured at.
const TEXTS: &[(&str, usize, Text)] = &[
    ("opening tags with attributes", 2_000, |n| "<think ".repeat(n)),
    ("less-than signs", 1_000, |n| "<".repeat(n)),
    ("closing tags cut short", 300, |n| "</think".repeat(n)),
    ("orphan closing tags", 400, |n| "</think>x".repeat(n)),
    ("opening tags inside one", 300, |n| "<thinking a>".repeat(n)),
    ("open brackets", 2_000, |n| "[".repeat(n)),
    ("step tags on one line", 1_000, |n| "[Step] ".repeat(n)),
    ("step lines", 400, |n| "[Step] s\n".repeat(n)),
    ("markers", 400, |n| "[Done] ".repeat(n)),
    ("fences on one line", 2_000, |n| "```".repeat(n)),
    ("fence lines", 400, |n| "```\n".repeat(n)),
    ("one long line", 400, |n| "word ".repeat(n)),
    ("many lines", 500, |n| "a\n".repeat(n)),
    ("abbreviations", 300, |n| "e.g. ".repeat(n)),
    ("transitions", 400, |n| "Now. ".repeat(n)),
    ("signal words", 100, |n| "CONTINUE continued need more ".repeat(n)),
    ("protocol objects cut short", 150, |n| "{\"continuation\": ".repeat(n)),
    ("fenced objects cut short", 150, |n| "```json\n{\"continuation\":".repeat(n)),
    ("open braces", 2_000, |n| "{".repeat(n)),
    ("status keys", 250, |n| "\"status\": ".repeat(n)),
];

/// Texts a reflection gets through in a few instructions a byte (enough prose soon, code
/// fences skipped, or one fast search): too little work to measure at these sizes.
const READ_QUICKLY: [&str; 4] = ["step lines", "fences on one line", "many lines", "fenced objects cut short"];

/// A session whose turn has a step plan running and the continuation protocol read by
/// its wording: a response's text goes through every reading there is.
fn reading_text() -> Drive {
    let protocol = ContinuationProtocol { enabled: true, require_explicit_signal: false };
    let mut d = Drive::new(SessionConfig { continuation_protocol: protocol, max_iterations: 50, ..config() });
    d.begin("Chart the revenue");
    d.act("[Step] Read the data\n[Step] Draw the chart", vec![call("c1", "read", "{}")]);
    d
}

fn respond(d: &mut Drive, calls: Vec<ToolCallInput>) -> Option<Decision> {
    black_box(
        d.session.handle_model_response(ModelResponse { text: None, tool_calls: calls, usage: None }, 9_000.0).ok(),
    )
}

fn results(d: &mut Drive, results: Vec<ToolResult>) {
    black_box(d.session.handle_tool_results(results, 9_000.0).ok());
}

/// A session waiting for the results of `n` calls (`call-0` …), whose output is never cut.
fn awaiting(n: usize) -> Drive {
    let mut d = Drive::new(SessionConfig { max_tool_output_chars: 10_000_000, ..config() });
    d.begin("Go");
    respond(&mut d, (0..n).map(|i| call(&format!("call-{i}"), "read", "{}")).collect());
    d
}

/// A session waiting for the result of one call the user approved.
fn approved() -> Drive {
    let mut d =
        Drive::new(SessionConfig { tools: ToolPolicy::default(), max_tool_output_chars: 10_000_000, ..config() });
    d.begin("Go");
    let Some(Decision::AwaitApproval { proposals, .. }) = respond(&mut d, vec![call("c", "shell", "{}")]) else {
        panic!("a proposal")
    };
    let once = ApproveOptions { edited_args: None, scope: Scope::Once };
    d.session.approve(&proposals[0].action_id, once, 9_000.0).expect("approved");
    d
}

/// A session whose step plan paused at the iteration limit: its next message is read
/// as a request to resume or not.
fn paused() -> Session {
    let mut d = Drive::new(SessionConfig { max_iterations: 1, ..config() });
    d.begin("Chart the revenue");
    let pause = d.respond("[Step] Read the data", vec![call("c1", "read", "{}")]);
    assert!(matches!(pause, Decision::Pause { .. }), "{pause:?}");
    d.session
}

fn dialect(args: DialectArgs) {
    black_box(dialects::request(args, &[], Decimals::RUST).ok());
}

fn workload(name: String, n: usize, run: impl Fn(usize) + Sync + 'static) -> Workload {
    (name, n * SCALE, Box::new(run))
}

/// Every workload, by entry point.
fn workloads() -> Vec<Workload> {
    let mut all = Vec::new();
    for &(name, n, text) in TEXTS {
        all.push(workload(format!("handleModelResponse: {name}"), n, move |n| {
            let mut d = reading_text();
            let response = ModelResponse { text: Some(text(n)), tool_calls: vec![], usage: None };
            black_box(d.session.handle_model_response(response, 9_000.0).ok());
        }));
        if !READ_QUICKLY.contains(&name) {
            all.push(workload(format!("extractReflection: {name}"), 2 * n, move |n| {
                black_box(extract_reflection(&text(n), 160));
            }));
        }
    }
    let outputs: [(&str, usize, Text); 3] = [
        ("opening tags with attributes", 2_000, |n| "<think ".repeat(n)),
        ("one long line", 2_000, |n| "word ".repeat(n)),
        ("blank lines, then text", 2_000, |n| " \n".repeat(n) + "x"),
    ];
    for (name, n, text) in outputs {
        all.push(workload(format!("handleToolResults, output: {name}"), n, move |n| {
            results(&mut awaiting(1), vec![ok("call-0", &text(n))]);
        }));
        all.push(workload(format!("handleToolResults, approved call's output: {name}"), n, move |n| {
            let mut result = ok("c", &text(n));
            result.stderr = Some(text(n));
            results(&mut approved(), vec![result]);
        }));
    }
    all.push(workload("handleToolResults: unknown ids".into(), 1_000, |n| {
        results(&mut awaiting(2), (0..n).map(|i| ok(&format!("unknown-{i}"), "x")).collect());
    }));
    all.push(workload("handleToolResults: each result twice".into(), 300, |n| {
        results(&mut awaiting(n), (0..2 * n).map(|i| ok(&format!("call-{}", i % n), "x")).collect());
    }));
    all.push(workload("handleToolResults: the results of many calls".into(), 300, |n| {
        results(&mut awaiting(n), (0..n).map(|i| ok(&format!("call-{i}"), "x")).collect());
    }));
    all.push(workload("handleModelResponse: calls sharing an id".into(), 1_000, |n| {
        let mut d = Drive::new(config());
        d.begin("Go");
        respond(&mut d, (0..n).map(|_| call("same", "read", "{}")).collect());
    }));
    all.push(workload("handleModelResponse: a call's long argument".into(), 1_000, |n| {
        let mut d = Drive::new(config());
        d.begin("Go");
        respond(&mut d, vec![call("c", "read", &format!("{{\"command\":\"{}\"}}", "<think ".repeat(n)))]);
    }));
    all.push(workload("handleModelResponse: a proposed call's argument, not JSON".into(), 2_000, |n| {
        let mut d = Drive::new(SessionConfig { tools: ToolPolicy::default(), ..config() });
        d.begin("Go");
        let args = Value::String("word [".repeat(n).into());
        respond(&mut d, vec![ToolCallInput { id: "c".into(), name: "shell".into(), args }]);
    }));
    let messages: [(&str, usize, Text); 5] = [
        ("words, then continue", 500, |n| "word ".repeat(n) + "continue"),
        ("negations, then continue", 1_000, |n| "don't ".repeat(n) + "continue"),
        ("keyword prefixes", 2_000, |n| "go o".repeat(n)),
        ("openers, then continue", 400, |n| "please ".repeat(n) + "continue"),
        ("chinese negations, then continue", 600, |n| "不继".repeat(n) + "续"),
    ];
    for (name, n, message) in messages {
        all.push(workload(format!("beginTurn: {name}"), n, move |n| {
            let input = BeginTurn { message: message(n), now_ms: 9_000.0, ..Default::default() };
            black_box(paused().begin_turn(input).ok());
        }));
    }
    let checklists: [(&str, usize, Text); 4] = [
        ("items", 2_000, |n| "- [ ] x\n".repeat(n)),
        ("numbered items", 2_000, |n| "1. [pending] x\n".repeat(n)),
        ("digits", 4_000, |n| "1".repeat(n)),
        ("line breaks", 2_000, |n| "<br".repeat(n)),
    ];
    for (name, n, text) in checklists {
        all.push(workload(format!("update_todo_list: {name}"), n, move |n| {
            dialect(DialectArgs::UpdateTodoList(UpdateTodoListArgs { todos: text(n) }));
        }));
        all.push(workload(format!("task_progress: {name}"), n, move |n| {
            dialect(DialectArgs::TaskProgress(TaskProgressArgs { task_progress: text(n) }));
        }));
        // (Droid reads a line only when it opens with its number and status.)
        if name != "line breaks" {
            all.push(workload(format!("droid TodoWrite: {name}"), n, move |n| {
                dialect(DialectArgs::DroidTodoWrite(DroidTodoWriteArgs { todos: DroidTodos::Lines(text(n)) }));
            }));
        }
    }
    let bases: [(&str, usize, Text); 3] = [
        ("placeholders cut short", 2_000, |n| "{{{x".repeat(n)),
        ("open braces", 4_000, |n| "{".repeat(n)),
        ("placeholders", 500, |n| "{{{x}}}".repeat(n)),
    ];
    for (name, n, base) in bases {
        all.push(workload(format!("composePrompt: {name}"), n, move |n| {
            let parts = PromptParts {
                base: base(n),
                components: vec![],
                features: Default::default(),
                values: Default::default(),
            };
            let input = ComposeInput { parts, language: Default::default(), plan: None, budget: None };
            black_box(compose(&input).ok());
        }));
    }
    all
}

#[test]
fn every_walk_over_untrusted_input_is_linear() {
    let workloads = workloads();
    if let Ok(chosen) = std::env::var(WORKLOADS) {
        // A child: the chosen workloads, each at n, 2n and 4n. Each first runs once
        // more at n, uncounted: so what the one before left on the heap (free memory
        // the allocator sorts the first time it looks) is not counted with it.
        measured(&|_| {}, 0);
        for w in chosen.split(',').map(|w| w.parse::<usize>().expect("a workload's number")) {
            let (_, n, run) = &workloads[w];
            measured(run, *n);
            for times in SIZES {
                measured(run, n * times);
            }
        }
        return;
    }
    let valgrind = valgrind();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("linear-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let children = std::thread::available_parallelism().map_or(1, |n| n.get()).min(4);
    let groups: Vec<Vec<usize>> =
        (0..children).map(|c| (0..workloads.len()).filter(|w| w % children == c).collect()).collect();
    let counts: Vec<Vec<u64>> = std::thread::scope(|scope| {
        let running: Vec<_> = groups
            .iter()
            .enumerate()
            .map(|(c, group)| {
                let (valgrind, dir) = (&valgrind, &dir);
                scope.spawn(move || instructions(valgrind, &dir.join(format!("child-{c}")), group))
            })
            .collect();
        running.into_iter().map(|child| child.join().expect("a child's counts")).collect()
    });
    std::fs::remove_dir_all(&dir).ok();
    let mut superlinear = Vec::new();
    for (group, counts) in groups.iter().zip(counts) {
        for (&w, sizes) in group.iter().zip(counts.chunks(SIZES.len())) {
            let (name, n, _) = &workloads[w];
            let [one, two, four] = [sizes[0], sizes[1], sizes[2]];
            let (grown, more) = (two.saturating_sub(one), four.saturating_sub(one));
            let ratio = more as f64 / grown as f64;
            let line = format!("{name} (n = {n}): {one} / {two} / {four} instructions, ratio {ratio:.2}");
            println!("{line}");
            if grown < MIN_GROWTH {
                superlinear.push(format!("{line}: too little work to measure (make n larger)"));
            } else if ratio >= MAX_RATIO {
                superlinear.push(line);
            }
        }
    }
    assert!(superlinear.is_empty(), "work grows faster than the input:\n{}", superlinear.join("\n"));
}

/// Runs one workload at size `n`. When it returns, callgrind writes the instructions
/// counted since it last wrote (`--dump-after`): each call is measured apart.
#[inline(never)]
fn measured(run: &(dyn Fn(usize) + Sync), n: usize) {
    run(black_box(n));
}

/// valgrind, which a fresh machine gets from `scripts/setup.sh`.
fn valgrind() -> PathBuf {
    let found = Command::new("valgrind").arg("--version").output();
    match found {
        Ok(output) if output.status.success() => PathBuf::from("valgrind"),
        _ => panic!("valgrind counts the work of each call here, and it is missing: run scripts/setup.sh (it installs valgrind with apt)"),
    }
}

/// The instructions of each call of `group`'s workloads (at n, 2n and 4n, in order),
/// counted in one child process of this test under callgrind, its output in `out.N`.
fn instructions(valgrind: &Path, out: &Path, group: &[usize]) -> Vec<u64> {
    let chosen: Vec<String> = group.iter().map(usize::to_string).collect();
    let output = Command::new(valgrind)
        .args(["--tool=callgrind", "--dump-after=linear::measured"])
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(std::env::current_exe().expect("this test's executable"))
        .args(["every_walk_over_untrusted_input_is_linear", "--exact", "--test-threads=1"])
        .env(WORKLOADS, chosen.join(","))
        .output()
        .expect("valgrind runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    // Dump 1 is the start of the process; then each workload's uncounted run and its
    // counted ones.
    let calls = SIZES.len() + 1;
    (0..group.len() * calls)
        .filter(|call| call % calls != 0)
        .map(|call| {
            let dump = 2 + call;
            let text = std::fs::read_to_string(format!("{}.{dump}", out.display())).expect("callgrind's dump");
            let summary = text.lines().find_map(|line| line.strip_prefix("summary:")).expect("a summary line");
            summary.trim().parse().expect("an instruction count")
        })
        .collect()
}
