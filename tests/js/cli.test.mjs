// `planloop` on the command line, run as npm installs it (pkg/bin/planloop.js): `audit`
// over recorded sessions, and the Claude Code Stop hook end to end, as Claude Code calls
// it (the hook's JSON on stdin, a session file on disk).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync, existsSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

const bin = new URL("../../pkg/bin/planloop.js", import.meta.url).pathname;
const traces = new URL("../fixtures/traces/", import.meta.url).pathname;

// Each test's files live in a directory of its own, removed when the tests are done.
const scratch = [];
after(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

function planloop(args, stdin = "") {
  const run = spawnSync(process.execPath, [bin, ...args], { input: stdin, encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test("audit --json reports each recorded session: todos, refused stops, a cut-off recording", () => {
  const { code, stdout } = planloop(["audit", "--json", traces]);
  assert.equal(code, 0);
  const reports = JSON.parse(stdout);
  assert.equal(reports.length, 18);
  const byName = (name) => reports.find((r) => `${r.file.split("/").pop()}${r.label}` === name);
  const codex = byName("codex_update_plan.jsonl#1");
  assert.deepEqual(codex.refusedStops.map((s) => s.turn), [85], "it stopped with a step in progress");
  assert.ok(codex.refusedStops[0].message.startsWith("<plan-continuation>"));
  assert.deepEqual(codex.todos, { done: 2, total: 3 });
  assert.deepEqual([codex.agent, codex.model], ["codex-cli 0.40.0", "gpt-5-codex"]);
  assert.deepEqual(byName("codex_update_plan.jsonl#2").refusedStops.map((s) => s.turn), [29, 30, 43]);
  const cut = byName("claude_code_todo.jsonl#12");
  assert.deepEqual(cut.todos, { done: 1, total: 7 });
  assert.match(cut.last, /3 of 3 calls unanswered/);
  assert.equal(byName("claude_code_todo.jsonl#1").last, "finalize");
  // Each item's evidence: the calls made while it was in progress; an item marked
  // completed with none is flagged.
  const built = byName("claude_code_todo.jsonl#1").items;
  assert.deepEqual(built.map((item) => [item.status, item.receipts.length, item.unbacked]), [
    ["completed", 0, true],
    ["completed", 0, true],
    ["completed", 0, true],
    ["completed", 2, false],
    ["completed", 0, true],
  ]);
  assert.deepEqual(built[3].receipts.map((r) => [r.name, r.ok, r.observation]), [["Task", true, "Task ok: ## Summary"], ["Task", true, built[3].receipts[1].observation]]);
  assert.ok(codex.items.every((item) => item.receipts.length > 0 && !item.unbacked), "each step of the plan was worked on");
  assert.ok(byName("codex_update_plan.jsonl#2").items.every((item) => item.unbacked), "a plan written as done at once");
});

test("audit prints a table and what planloop would have sent; a progress line only on a terminal", () => {
  const { code, stdout, stderr } = planloop(["audit", traces]);
  assert.equal(code, 0);
  assert.match(stdout.split("\n")[0], /^session\s+agent\s+model\s+turns\s+todos\s+stops refused at/);
  assert.match(stdout, /codex_update_plan\.jsonl#1 .* 2\/3 +85 /);
  assert.match(stdout, /codex_update_plan\.jsonl#1, turn 85: planloop would have sent\n  <plan-continuation>/);
  // The unbacked items, counted in the table and flagged under the session.
  assert.match(stdout.split("\n")[0], /last +unbacked$/);
  assert.match(stdout, /claude_code_todo\.jsonl#1 .* finalize +4\n/);
  assert.match(stdout, /claude_code_todo\.jsonl#1: todos and their evidence\n  \[x\] Set up Next\.js project structure and dependencies  UNBACKED: completed with no receipt\n/);
  assert.match(stdout, /  \[x\] Implement state management and CRUD operations  \(2 receipts\)\n      Task ok: ## Summary\n/);
  // Piped (a log, CI): no progress run together into one line.
  assert.equal(stderr, "");
});

test("audit shows its progress on a terminal", { skip: !existsSync("/usr/bin/script") && "no script(1) to give it a terminal" }, () => {
  // script(1) runs the command on a pseudo-terminal: stderr is a TTY there.
  const command = [process.execPath, bin, "audit", traces].map((word) => `'${word}'`).join(" ");
  const run = spawnSync("/usr/bin/script", ["-qec", command, "/dev/null"], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stdout);
  assert.match(run.stdout, /\[4\/4\] [^\n]*sweagent_fc\.jsonl/);
});

test("audit --policy reports the calls a policy would have held for approval", () => {
  const dir = scratchDir("planloop-cli-");
  writeFileSync(join(dir, "policy.json"), JSON.stringify({ default: "read", approve: ["Bash", "shell"] }));
  const { code, stdout } = planloop(["audit", "--json", "--policy", join(dir, "policy.json"), traces]);
  assert.equal(code, 0);
  const held = JSON.parse(stdout).flatMap((r) => r.held.map((h) => h.tool));
  assert.ok(held.length > 0 && held.every((tool) => tool === "Bash" || tool === "shell"), held.join(","));
});

test("audit reports a session it cannot replay and goes on with the others", () => {
  const dir = scratchDir("planloop-cli-");
  const turn = (calls) => ({ role: "assistant", text: "", tool_calls: calls, tool_results: [] });
  const record = (calls) => JSON.stringify({ agent: "x", model: [], turns: [{ role: "user", text: "go" }, turn(calls)] });
  // The same id twice in one response is refused by planloop.
  const twice = [{ id: "a", name: "read", args: {} }, { id: "a", name: "read", args: {} }];
  writeFileSync(join(dir, "two.jsonl"), `${record(twice)}\n${record([{ id: "b", name: "read", args: {} }])}\n`);
  const { code, stdout, stderr } = planloop(["audit", "--json", dir]);
  assert.equal(code, 1);
  assert.match(stderr, /two\.jsonl#1: .*/);
  assert.equal(JSON.parse(stdout).length, 1, "the other session is reported");
});

test("audit names the file and line it cannot read, and exits 1", () => {
  const dir = scratchDir("planloop-cli-");
  const file = join(dir, "broken.jsonl");
  writeFileSync(file, '{"type":"user","message":{"role":"user","content":"hi"}}\n{not json\n');
  const { code, stderr } = planloop(["audit", file]);
  assert.equal(code, 1);
  assert.match(stderr, /broken\.jsonl:2: not JSON/);
  assert.equal(planloop(["frobnicate"]).code, 2);
  // A file that is no log at all: its first 20 lines, then a count.
  writeFileSync(join(dir, "notes.jsonl"), "not json\n".repeat(25));
  const notes = planloop(["audit", join(dir, "notes.jsonl")]);
  assert.equal(notes.code, 1);
  assert.equal(notes.stderr.split("\n").filter(Boolean).length, 21);
  assert.match(notes.stderr, /notes\.jsonl:20: not JSON.*\n.*notes\.jsonl: 5 more lines not read\n$/);
});

test("audit reports each path it cannot read, never walks a link loop, and audits the rest", () => {
  const dir = scratchDir("planloop-cli-");
  const logs = join(dir, "logs");
  mkdirSync(logs);
  writeFileSync(join(logs, "a.jsonl"), claudeSession(["completed"]));
  symlinkSync(".", join(logs, "loop"));
  symlinkSync("self", join(logs, "self"));
  symlinkSync(join(dir, "nowhere"), join(logs, "dangling.jsonl"));
  const { code, stdout, stderr } = planloop(["audit", "--json", logs, join(dir, "missing")]);
  assert.equal(code, 1, stderr);
  const reports = JSON.parse(stdout);
  assert.deepEqual(reports.map((r) => r.file), [join(logs, "a.jsonl")], "a.jsonl, once");
  for (const path of [join(logs, "self"), join(logs, "dangling.jsonl"), join(dir, "missing")]) {
    assert.ok(stderr.includes(`${path}: `), `${path} is reported in:\n${stderr}`);
  }
});

test("audit reads past a byte order mark, reports each bad line and goes on with the next", () => {
  const dir = scratchDir("planloop-cli-");
  const lines = claudeSession(["completed", "in_progress"]).split("\n");
  // A bad line between the TodoWrite call and its result.
  const file = join(dir, "bom.jsonl");
  writeFileSync(file, `\uFEFF${[lines[0], lines[1], "{cut", ...lines.slice(2)].join("\n")}`);
  const { code, stdout, stderr } = planloop(["audit", "--json", file]);
  assert.equal(code, 1);
  assert.match(stderr, /bom\.jsonl:3: not JSON/);
  assert.doesNotMatch(stderr, /bom\.jsonl:1/);
  const [report] = JSON.parse(stdout);
  assert.deepEqual([report.turns, report.todos], [2, { done: 1, total: 2 }], "the lines after the bad one are read");
});

/** A Claude Code session file: the user's request, a TodoWrite, its result, then text. */
function claudeSession(statuses, { cut = false } = {}) {
  const line = (value) => JSON.stringify({ sessionId: "s1", isSidechain: false, version: "2.0.14", ...value });
  const todos = statuses.map((status, i) => ({ content: `Step ${i + 1}`, status, activeForm: `Doing step ${i + 1}` }));
  const lines = [
    line({ type: "user", message: { role: "user", content: "Migrate the service" } }),
    line({ type: "assistant", message: { id: "m1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id: "t1", name: "TodoWrite", input: { todos } }] } }),
    line({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "Todos have been modified successfully." }] } }),
    line({ type: "assistant", message: { id: "m2", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "I have started the migration." }] } }),
  ];
  const text = lines.join("\n") + "\n";
  return cut ? text + '{"type":"assistant","message":{"id":"m3"' : text;
}

/** `planloop` run without waiting for it, to run several at once. */
function planloopAsync(args, stdin) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data) => (stdout += data));
    child.stderr.on("data", (data) => (stderr += data));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

function hookIn(dir, content, event = "Stop") {
  const path = join(dir, "session.jsonl");
  writeFileSync(path, content);
  return JSON.stringify({ session_id: "s1", transcript_path: path, cwd: dir, hook_event_name: event, stop_hook_active: false });
}

test("the Stop hook blocks a stop while the list is unfinished, up to its limit, with planloop's message", () => {
  const dir = scratchDir("planloop-hook-");
  const input = hookIn(dir, claudeSession(["completed", "in_progress", "pending"]));
  for (let i = 0; i < 2; i++) {
    const { code, stdout } = planloop(["hook", "claude-code", "--max-continuations", "2"], input);
    assert.equal(code, 0);
    const answer = JSON.parse(stdout);
    assert.equal(answer.decision, "block");
    assert.match(answer.reason, /^<plan-continuation>/);
    assert.match(answer.reason, /\[-\] Step 2\n\[ \] Step 3/);
  }
  assert.deepEqual(JSON.parse(readFileSync(join(dir, "session.jsonl.planloop.json"), "utf8")), { blocked: 2 });
  const after = planloop(["hook", "claude-code", "--max-continuations", "2"], input);
  assert.deepEqual([after.code, after.stdout], [0, ""], "after the limit, the stop happens");
});

test("the Stop hook lets a finished list, a session with no list and a cut-off file stop as they should", () => {
  const dir = scratchDir("planloop-hook-");
  const finished = planloop(["hook", "claude-code"], hookIn(dir, claudeSession(["completed", "completed"])));
  assert.deepEqual([finished.code, finished.stdout], [0, ""]);
  assert.ok(!existsSync(join(dir, "session.jsonl.planloop.json")));
  const none = planloop(["hook", "claude-code"], hookIn(dir, claudeSession([])));
  assert.deepEqual([none.code, none.stdout], [0, ""]);
  // Still being written: read up to its last whole line, which ends unfinished.
  const cut = planloop(["hook", "claude-code"], hookIn(dir, claudeSession(["in_progress"], { cut: true })));
  assert.equal(JSON.parse(cut.stdout).decision, "block");
  const sub = JSON.stringify({ hook_event_name: "SubagentStop", transcript_path: "/nonexistent", agent_transcript_path: join(dir, "session.jsonl") });
  assert.equal(JSON.parse(planloop(["hook", "claude-code"], sub).stdout).decision, "block", "a sub-agent's own transcript");
  // A failing hook exits 1, never 2: Claude Code would block the stop on 2.
  const bad = planloop(["hook", "claude-code"], "not json");
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /not JSON/);
  assert.equal(planloop(["hook", "claude-code"], JSON.stringify({ transcript_path: join(dir, "nope.jsonl") })).code, 1);
});

test("audit reads a Codex CLI rollout: update_plan calls, their outputs and the answer", () => {
  const dir = scratchDir("planloop-cli-");
  const item = (payload) => JSON.stringify({ timestamp: "2026-08-17T14:00:00.000Z", type: "response_item", payload });
  const plan = (statuses) => JSON.stringify({ plan: statuses.map((status, i) => ({ step: `Step ${i + 1}`, status })) });
  const rollout = [
    JSON.stringify({ timestamp: "2026-08-17T14:00:00.000Z", type: "session_meta", payload: { id: "01a0", cwd: "/work", originator: "codex_cli_rs", cli_version: "0.42.0" } }),
    JSON.stringify({ timestamp: "2026-08-17T14:00:00.000Z", type: "turn_context", payload: { model: "gpt-5-codex" } }),
    item({ type: "message", role: "user", content: [{ type: "input_text", text: "Migrate the app" }] }),
    item({ type: "function_call", name: "update_plan", arguments: plan(["in_progress", "pending"]), call_id: "c1" }),
    item({ type: "function_call_output", call_id: "c1", output: "Plan updated" }),
    item({ type: "function_call", name: "shell", arguments: '{"command":["ls"]}', call_id: "c2" }),
    item({ type: "function_call_output", call_id: "c2", output: { content: "src\n", success: true } }),
    item({ type: "message", role: "assistant", content: [{ type: "output_text", text: "I looked around." }] }),
    JSON.stringify({ timestamp: "2026-08-17T14:00:09.000Z", type: "event_msg", payload: { type: "token_count" } }),
  ].join("\n");
  writeFileSync(join(dir, "rollout-2026-08-17T14-00-00-01a0.jsonl"), rollout + "\n");
  const { code, stdout } = planloop(["audit", "--json", dir]);
  assert.equal(code, 0);
  const [report] = JSON.parse(stdout);
  assert.deepEqual([report.agent, report.model, report.turns], ["codex", "gpt-5-codex", 3]);
  assert.deepEqual(report.todos, { done: 0, total: 2 });
  assert.deepEqual(report.refusedStops.map((s) => s.turn), [3], "it answered with the plan unfinished");
});

test("hooks run at once on one transcript: none fails, no count is lost, the limit holds", async () => {
  const dir = scratchDir("planloop-hook-");
  const input = hookIn(dir, claudeSession(["completed", "in_progress", "pending"]));
  const state = join(dir, "session.jsonl.planloop.json");
  const blocks = (runs) =>
    runs.filter((run) => {
      assert.equal(run.code, 0, run.stderr);
      return run.stdout !== "" && JSON.parse(run.stdout).decision === "block";
    }).length;
  let given = 0;
  for (let round = 0; round < 6; round++) {
    given += blocks(await Promise.all([1, 2, 3, 4].map(() => planloopAsync(["hook", "claude-code", "--max-continuations", "1000"], input))));
    assert.deepEqual(JSON.parse(readFileSync(state, "utf8")), { blocked: given }, `after round ${round + 1}`);
  }
  assert.equal(given, 24);
  rmSync(state);
  const capped = await Promise.all([1, 2, 3, 4, 5].map(() => planloopAsync(["hook", "claude-code", "--max-continuations", "3"], input)));
  assert.equal(blocks(capped), 3);
  assert.deepEqual(JSON.parse(readFileSync(state, "utf8")), { blocked: 3 });
  assert.deepEqual(readdirSync(dir).sort(), ["session.jsonl", "session.jsonl.planloop.json"], "no lock or temporary file is left");
});

test("a lock left behind by a hook that died does not hold the next one", () => {
  const dir = scratchDir("planloop-hook-");
  const input = hookIn(dir, claudeSession(["in_progress", "pending"]));
  // Lock files are `<count file>.lock.<time>.<pid>.<machine>.<random>`, the machine being
  // the FNV-1a hash of the host name in base 36.
  let hash = 0x811c9dc5;
  for (let i = 0; i < hostname().length; i++) hash = Math.imul(hash ^ hostname().charCodeAt(i), 0x01000193) >>> 0;
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
  const lock = (ticket) => join(dir, `session.jsonl.planloop.json.lock.${ticket}`);
  writeFileSync(lock(`000000001.${dead}.${hash.toString(36)}.aaaa`), "");
  // One from another machine, untouched for an hour.
  writeFileSync(lock("000000002.1.elsewhere.bbbb"), "");
  utimesSync(lock("000000002.1.elsewhere.bbbb"), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
  const run = planloop(["hook", "claude-code"], input);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).decision, "block");
  assert.deepEqual(readdirSync(dir).sort(), ["session.jsonl", "session.jsonl.planloop.json"]);
});

test("the Stop hook never writes through a link where its count is kept", () => {
  const dir = scratchDir("planloop-hook-");
  const outside = scratchDir("planloop-outside-");
  const input = hookIn(dir, claudeSession(["in_progress", "pending"]));
  const state = join(dir, "session.jsonl.planloop.json");
  // A link to another file that reads as a count, then a link to nowhere.
  writeFileSync(join(outside, "other.json"), '{"blocked":0}\n');
  symlinkSync(join(outside, "other.json"), state);
  const linked = planloop(["hook", "claude-code"], input);
  assert.equal(readFileSync(join(outside, "other.json"), "utf8"), '{"blocked":0}\n', "the link's target is left alone");
  assert.deepEqual([linked.code, linked.stdout], [1, ""], "no block on a count planloop cannot trust");
  assert.match(linked.stderr, /session\.jsonl\.planloop\.json: /);
  rmSync(state);
  symlinkSync(join(outside, "created.json"), state);
  assert.equal(planloop(["hook", "claude-code"], input).stdout, "");
  assert.deepEqual(readdirSync(outside), ["other.json"], "nothing is created outside the transcript's folder");
});

test("the Stop hook's limit holds whatever its count file says", () => {
  const dir = scratchDir("planloop-hook-");
  const input = hookIn(dir, claudeSession(["in_progress", "pending"]));
  const state = join(dir, "session.jsonl.planloop.json");
  for (const forged of ['{"blocked":-1000000}', '{"blocked":-1e308}', '{"blocked":1.5}', '{"blocked":"0"}', '{"blocked":null}', "[]", "{", ""]) {
    writeFileSync(state, forged);
    const run = planloop(["hook", "claude-code", "--max-continuations", "2"], input);
    assert.deepEqual([run.code, run.stdout], [0, ""], `no continuation on ${forged}`);
    assert.equal(readFileSync(state, "utf8"), forged);
  }
});

test("audit reads a Cline task: the task_progress checklist of its calls, its answers and the task", () => {
  const dir = scratchDir("planloop-cli-");
  const task = join(dir, "tasks", "1769053680585");
  mkdirSync(task, { recursive: true });
  const environment = { type: "text", text: "<environment_details>\n# Current Working Directory (/work/cards) Files\nActionSystem.cs\n\n# Current Mode\nACT MODE\n</environment_details>" };
  const steps = ["Review ActionSystem.cs", "Review the game actions", "Add BeginTurnGA", "Add DiscardCardGA", "Add DestroyCardGA", "Add ModifyCardGA", "Add EditCardGA", "Add test cards", "Run the golden tests"];
  const progress = (done) => steps.map((step, i) => `- [${i < done ? "x" : " "}] ${step}`).join("\n");
  const modelInfo = { modelId: "claude-sonnet-4-5-20250929", providerId: "anthropic", mode: "act" };
  const call = (id, name, input, text) => ({
    role: "assistant",
    content: [{ type: "thinking", thinking: "Next I read the file.", signature: "c2ln" }, ...(text ? [{ type: "text", text }] : []), { type: "tool_use", id, name, input }],
    modelInfo,
    metrics: { tokens: { prompt: 10, completion: 120, cached: 9000 } },
  });
  const answer = (label, output) => ({ role: "user", content: [{ type: "text", text: `[${label}] Result:\n${output}` }, environment] });
  const history = [
    {
      role: "user",
      content: [
        { type: "text", text: "<task>\nAdd the missing game actions to the card game\n</task>" },
        { type: "text", text: "\n# task_progress RECOMMENDED\n\nWhen starting a new task, it is recommended to include a todo list using the task_progress parameter.\n" },
        environment,
      ],
    },
    call("toolu_01", "read_file", { path: "ActionSystem.cs", task_progress: progress(0) }, "I'll start by reading the action system."),
    answer("read_file for 'ActionSystem.cs'", "public class ActionSystem {}"),
    call("toolu_02", "read_file", { path: "DrawCardGA.cs" }),
    answer("read_file for 'DrawCardGA.cs'", "public class DrawCardGA : GameAction {}"),
    call("toolu_03", "write_to_file", { absolutePath: "/work/cards/BeginTurnGA.cs", content: "public class BeginTurnGA : GameAction {}", task_progress: progress(2) }),
    answer("write_to_file for '/work/cards/BeginTurnGA.cs'", "The content was successfully saved to /work/cards/BeginTurnGA.cs."),
    { role: "assistant", content: [{ type: "text", text: "I have added BeginTurnGA; the other actions follow the same pattern." }], modelInfo },
  ];
  writeFileSync(join(task, "api_conversation_history.json"), JSON.stringify(history));
  writeFileSync(join(task, "ui_messages.json"), "[]");
  const { code, stdout, stderr } = planloop(["audit", "--json", dir]);
  assert.equal(code, 0, stderr);
  const [report] = JSON.parse(stdout);
  assert.deepEqual([report.agent, report.model, report.turns], ["cline", "claude-sonnet-4-5-20250929", 4]);
  assert.deepEqual(report.todos, { done: 2, total: 9 });
  assert.deepEqual(report.refusedStops.map((s) => s.turn), [4], "it stopped with 7 steps to go");
  assert.match(report.refusedStops[0].message, /Your goal:\nAdd the missing game actions to the card game\n/);
});

test("audit reads Factory Droid's TodoWrite, its numbered list included, in Droid's own session files", () => {
  const dir = scratchDir("planloop-cli-");
  const line = (id, role, content) => JSON.stringify({ type: "message", id, timestamp: "2026-01-28T16:57:01.391Z", message: { role, content } });
  const session = [
    JSON.stringify({ type: "session_start", id: "7df5bcf0", title: "Inspect the repository", sessionTitle: "Inspect the repository", owner: "me", version: 2, cwd: "/work/app" }),
    line("m1", "user", [{ type: "text", text: "Inspect the repository and summarize it" }]),
    line("m2", "assistant", [{ type: "tool_use", id: "call_1", name: "TodoWrite", input: { todos: "1. [in_progress] Inspect repository contents" } }]),
    line("m3", "user", [{ type: "tool_result", tool_use_id: "call_1", content: "Todos have been modified successfully." }]),
    JSON.stringify({ type: "todo_state", id: "t1", timestamp: "2026-01-28T16:57:02.000Z", todos: { todos: "1. [in_progress] Inspect repository contents" }, messageIndex: 2 }),
    line("m4", "assistant", [{ type: "tool_use", id: "call_2", name: "TodoWrite", input: { todos: "1. [completed] Inspect repository contents" } }]),
    line("m5", "user", [{ type: "tool_result", tool_use_id: "call_2", content: "Todos have been modified successfully." }]),
    line("m6", "assistant", [{ type: "text", text: "The repository holds a small web app." }]),
  ];
  writeFileSync(join(dir, "7df5bcf0.jsonl"), session.join("\n") + "\n");
  // The same numbered list in planloop's trace format, and Claude Code's list form beside it.
  const trace = (todos) => JSON.stringify({
    agent: "droid",
    model: [],
    turns: [
      { role: "user", text: "go" },
      { role: "assistant", text: "", tool_calls: [{ id: "a", name: "TodoWrite", args: { todos } }], tool_results: [{ tool_call_id: "a", content: "ok" }] },
    ],
  });
  writeFileSync(join(dir, "traces.jsonl"), `${trace("1. [completed] Read\n2. [in_progress] Write")}\n${trace([{ content: "Read", status: "completed", activeForm: "Reading" }])}\n`);
  const { code, stdout, stderr } = planloop(["audit", "--json", dir]);
  assert.equal(code, 0, stderr);
  const reports = JSON.parse(stdout);
  assert.deepEqual(reports.map((r) => [r.agent, r.todos]), [
    ["droid", { done: 1, total: 1 }],
    ["droid", { done: 1, total: 2 }],
    ["droid", { done: 1, total: 1 }],
  ]);
});

test("audit replays calls that have no recorded result as unanswered and goes on", () => {
  const dir = scratchDir("planloop-cli-");
  // A Cursor agent transcript: tool calls without ids and without results.
  const line = (role, content) => JSON.stringify({ role, message: { content } });
  const cursor = [
    line("user", [{ type: "text", text: "<user_query>\nFix the failing build\n</user_query>" }]),
    line("assistant", [{ type: "text", text: "Let me look." }, { type: "tool_use", name: "read_file", input: { path: "package.json" } }, { type: "tool_use", name: "read_file", input: { path: "tsconfig.json" } }]),
    line("assistant", [{ type: "tool_use", name: "run_terminal_cmd", input: { command: "npm run build" } }]),
    line("assistant", [{ type: "text", text: "The build passes now." }]),
  ];
  writeFileSync(join(dir, "cursor.jsonl"), cursor.join("\n") + "\n");
  const turn = (id) => ({ role: "assistant", text: "", tool_calls: [{ id, name: "read", args: {} }], tool_results: [] });
  const record = { agent: "cursor", model: [], turns: [{ role: "user", text: "go" }, turn("a"), turn("b"), { role: "assistant", text: "done", tool_calls: [], tool_results: [] }] };
  writeFileSync(join(dir, "trace.jsonl"), JSON.stringify(record) + "\n");
  const { code, stdout, stderr } = planloop(["audit", "--json", dir]);
  assert.equal(code, 0, stderr);
  const reports = JSON.parse(stdout);
  assert.deepEqual(reports.map((r) => [r.agent, r.turns, r.unanswered, r.last]), [
    ["cursor", 3, 3, "finalize"],
    ["cursor", 3, 2, "finalize"],
  ]);
});

test("audit takes the user's goal from Claude Code logs, not text a hook injected", () => {
  const dir = scratchDir("planloop-cli-");
  const lines = claudeSession(["completed", "in_progress"]).trimEnd().split("\n");
  const injected = (content) => JSON.stringify({ type: "user", sessionId: "s1", isSidechain: false, message: { role: "user", content } });
  const hook = "<user-prompt-submit-hook>Detected applicable skills: migrations. Read SKILL.md first.</user-prompt-submit-hook>";
  writeFileSync(join(dir, "a.jsonl"), [lines[0], injected(hook), ...lines.slice(1)].join("\n") + "\n");
  const prompt = JSON.stringify({ type: "user", sessionId: "s1", isSidechain: false, message: { role: "user", content: [{ type: "text", text: "Migrate the service" }, { type: "text", text: `<system-reminder>Today is Monday.</system-reminder>\n${hook}` }] } });
  writeFileSync(join(dir, "b.jsonl"), [prompt, ...lines.slice(1)].join("\n") + "\n");
  const { code, stdout } = planloop(["audit", "--json", dir]);
  assert.equal(code, 0);
  for (const report of JSON.parse(stdout)) {
    assert.equal(report.refusedStops.length, 1, report.file);
    assert.match(report.refusedStops[0].message, /Your goal:\nMigrate the service\n/, report.file);
  }
});

const sidechains = new URL("../fixtures/sidechains/", import.meta.url).pathname;

/** Each sub-agent's report in `children`, as `[call description or null, agent type, file name + label]`. */
const placed = (children) => children.map((c) => [c.call?.description ?? null, c.agentType, `${c.file.split("/").pop()}${c.label}`]);

test("audit reads Claude Code 1.0's sub-agents in the parent's file, each under the Task call that started it", () => {
  const { code, stdout, stderr } = planloop(["audit", "--json", join(sidechains, "claude-code-1.0")]);
  assert.equal(code, 0, stderr);
  const [report] = JSON.parse(stdout);
  assert.deepEqual([report.turns, report.todos, report.last], [5, { done: 2, total: 2 }, "finalize"], "the sidechain lines are not the parent's");
  const name = "0b6e3f2a-8c1d-4e5f-9a7b-2c3d4e5f6a7b.jsonl";
  // Finished tests first, then the survey: shown in call order. The same prompt twice: neither is linked.
  assert.deepEqual(placed(report.children), [
    ["Survey the modules", "Explore", `${name}:10`],
    ["Run the tests", "general-purpose", `${name}:6`],
    [null, "", `${name}:22`],
    [null, "", `${name}:24`],
  ]);
  const [survey, tests] = report.children;
  assert.deepEqual(survey.call, { id: "toolu_02", turn: 2, tool: "Task", description: "Survey the modules" });
  assert.deepEqual(survey.todoList, [
    { content: "Read the modules", status: "completed" },
    { content: "Write the summary", status: "in_progress" },
  ]);
  assert.deepEqual([survey.turns, survey.todos, survey.refusedStops.map((s) => s.turn)], [4, { done: 1, total: 2 }, [4]]);
  assert.match(survey.refusedStops[0].message, /Your goal:\nList the modules of the billing service/);
  assert.deepEqual([tests.turns, tests.todoList, tests.last], [2, [], "finalize"]);
  assert.ok(report.children.every((c) => c.children === undefined));

  const text = planloop(["audit", join(sidechains, "claude-code-1.0")]).stdout;
  assert.match(text, new RegExp(`\\n${name}: 4 sub-agents\\n  turn 2, Task "Survey the modules" \\(Explore\\): ${name}:10\\n    model [^\\n]*, turns 4, todos 1/2, stops refused at 4, [^\\n]*last continue\\n    \\[x\\] Read the modules  \\(1 receipt\\)\\n        Glob ok: src/invoice\\.ts\\n    \\[-\\] Write the summary\\n`));
  assert.match(text, /\n    turn 4: planloop would have sent\n      <plan-continuation>\n/);
  assert.match(text, new RegExp(`\\n  not linked to a call: ${name}:24\\n`));
});

test("audit reads Claude Code 2's sub-agent files with their session, under the Agent or Task call that names them", () => {
  const { code, stdout, stderr } = planloop(["audit", "--json", join(sidechains, "claude-code-2")]);
  assert.equal(code, 0, stderr);
  const reports = JSON.parse(stdout);
  assert.deepEqual(reports.map((r) => r.file.split("/").pop()), ["7d1c2b9e-5f0a-4c44-9a1e-3b2f6c8d0e11.jsonl"], "the sub-agents' files are not sessions of their own");
  const [report] = reports;
  // Linked by the result's toolUseResult.agentId, then by the id in its text; one no call names.
  assert.deepEqual(placed(report.children), [
    ["Find logger calls", "Explore", "agent-a1b2c3d.jsonl"],
    ["Update the config", "general-purpose", "agent-e4f5a6b.jsonl"],
    [null, "Plan", "agent-9a9a9a9.jsonl"],
  ]);
  const [explore, update, orphan] = report.children;
  assert.deepEqual([explore.call.tool, explore.todos, explore.last], ["Agent", { done: 2, total: 2 }, "finalize"]);
  assert.deepEqual(update.todoList.map((t) => t.status), ["completed", "in_progress"]);
  assert.deepEqual(update.refusedStops.map((s) => s.turn), [3]);
  assert.deepEqual(placed(update.children), [["Restart the service", "general-purpose", "agent-0c0ffee.jsonl"]], "a sub-agent's own sub-agent");
  assert.deepEqual(orphan.todoList, [{ content: "Draft the plan", status: "pending" }]);

  // Named on its own, a session still finds its sub-agents; a sub-agent's file is read whole.
  const alone = planloop(["audit", "--json", join(sidechains, "claude-code-2", "7d1c2b9e-5f0a-4c44-9a1e-3b2f6c8d0e11.jsonl")]);
  assert.equal(JSON.parse(alone.stdout)[0].children.length, 3);
  const agent = planloop(["audit", "--json", join(sidechains, "claude-code-2", "7d1c2b9e-5f0a-4c44-9a1e-3b2f6c8d0e11", "subagents", "agent-e4f5a6b.jsonl")]);
  assert.deepEqual(JSON.parse(agent.stdout).map((r) => [r.turns, r.todos]), [[3, { done: 1, total: 2 }]]);

  const text = planloop(["audit", join(sidechains, "claude-code-2")]).stdout;
  assert.match(text, /\n    1 sub-agent\n      turn 2, Agent "Restart the service" \(general-purpose\): agent-0c0ffee\.jsonl\n        model /);
  assert.match(text, /\n  not linked to a call \(Plan\): agent-9a9a9a9\.jsonl\n    model [^\n]*\n    \[ \] Draft the plan\n/);
});

test("the SubagentStop hook reads a sub-agent's own file, every line of which is a sidechain", () => {
  const agent = join(sidechains, "claude-code-2", "7d1c2b9e-5f0a-4c44-9a1e-3b2f6c8d0e11", "subagents", "agent-e4f5a6b.jsonl");
  const dir = scratchDir("planloop-hook-");
  const input = hookIn(dir, readFileSync(agent, "utf8"), "SubagentStop");
  const { code, stdout } = planloop(["hook", "claude-code"], input);
  assert.equal(code, 0);
  assert.match(JSON.parse(stdout).reason, /\[-\] Restart the service/);
});

test("audit survives hostile sub-agents: garbage sidechains, meta files that are no JSON, endless nesting", () => {
  const dir = scratchDir("planloop-cli-");
  const line = (value) => JSON.stringify({ type: "user", isSidechain: false, ...value });
  const say = (id, content, extra = {}) => line({ type: "assistant", message: { id, role: "assistant", content }, ...extra });
  const task = (id, input, name = "Task") => ({ type: "tool_use", id, name, input });
  const huge = `<system-reminder>${"\u0000\u202e<task>".repeat(400_000)}`;
  const side = (value) => JSON.stringify({ type: "user", isSidechain: true, ...value });
  const inline = [
    line({ message: { role: "user", content: "Go" } }),
    say("m1", [task("t1", { prompt: huge, description: "huge" }), task("t2", "not an object"), task("t3", { prompt: 42, description: {} }, "Agent")]),
    side({ parentUuid: null, uuid: "r1", message: { role: "user", content: huge } }),
    side({ parentUuid: "r1", uuid: "__proto__", type: "assistant", message: { id: "s1", role: "assistant", content: [{ type: "text", text: "done" }] } }),
    side({ parentUuid: null, uuid: "r2", message: { role: "user", content: 42 } }),
    side({ parentUuid: {}, uuid: "r3", message: { role: "user", content: [{ type: "text", text: {} }] } }),
    side({ parentUuid: "nowhere", message: null }),
    side({ parentUuid: null, message: "text" }),
    '{"isSidechain":true,',
    line({ message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] }, toolUseResult: { agentId: {} } }),
    line({ message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t3", content: "agentId: " + "x".repeat(100_000) }] }, toolUseResult: "no" }),
  ];
  writeFileSync(join(dir, "inline.jsonl"), inline.join("\n") + "\n");
  // Claude Code 2: a chain of sub-agents each starting the next, and broken files beside them.
  const depth = 20;
  const session = [line({ message: { role: "user", content: "Go" } })];
  const agents = join(dir, "s2", "subagents");
  mkdirSync(agents, { recursive: true });
  const spawnNext = (i) => [
    say(`n${i}`, [task(`c${i}`, { prompt: `level ${i + 1}`, description: `level ${i + 1}` }, "Agent")]),
    line({ message: { role: "user", content: [{ type: "tool_result", tool_use_id: `c${i}`, content: "ok" }] }, toolUseResult: { agentId: `d${i + 1}` } }),
  ];
  session.push(...spawnNext(0));
  for (let i = 1; i <= depth; i++) {
    const lines = [side({ agentId: `d${i}`, message: { role: "user", content: `level ${i}` } }), ...(i < depth ? spawnNext(i) : [])];
    writeFileSync(join(agents, `agent-d${i}.jsonl`), lines.map((l) => l.replace('"isSidechain":false', '"isSidechain":true')).join("\n") + "\n");
  }
  writeFileSync(join(dir, "s2.jsonl"), session.join("\n") + "\n");
  writeFileSync(join(agents, "agent-d1.meta.json"), "{not json");
  mkdirSync(join(agents, "agent-d2.meta.json"));
  writeFileSync(join(agents, "agent-d3.meta.json"), JSON.stringify({ agentType: "x".repeat(70_000) }));
  writeFileSync(join(agents, "agent-empty.jsonl"), "");
  mkdirSync(join(agents, "agent-folder.jsonl"));
  symlinkSync(join(dir, "nowhere"), join(agents, "agent-dangling.jsonl"));
  // A session whose sub-agents' folder is a file.
  writeFileSync(join(dir, "s3.jsonl"), session[0] + "\n");
  writeFileSync(join(dir, "s3"), "not a folder");

  const { code, stdout, stderr } = planloop(["audit", "--json", dir]);
  assert.equal(code, 1, "the files it cannot read are reported");
  assert.match(stderr, /agent-d1\.meta\.json: not JSON/);
  assert.match(stderr, /agent-d2\.meta\.json: not a regular file/);
  assert.match(stderr, /agent-d3\.meta\.json: larger than 64 KB/);
  assert.equal(stderr.match(/agent-dangling\.jsonl: no such file/g).length, 1, "told once");
  assert.match(stderr, /inline\.jsonl:9: not JSON/);
  assert.doesNotMatch(stderr, /RangeError|TypeError|Maximum call stack/);
  const reports = JSON.parse(stdout);
  assert.deepEqual(reports.map((r) => r.file.split("/").pop()), ["inline.jsonl", "s2.jsonl", "s3.jsonl"]);
  const [inlineReport, chain] = reports;
  // The huge prompt links its sidechain; the others are shown unlinked, a line with no known parent is left out.
  assert.deepEqual(placed(inlineReport.children), [["huge", "", "inline.jsonl:3"], [null, "", "inline.jsonl:5"], [null, "", "inline.jsonl:8"]]);
  // Each sub-agent once: nested 8 deep, the rest shown at the top.
  const depths = [];
  const walk = (children, level) => children.forEach((c) => (depths.push([c.file.split("/").pop(), level]), walk(c.children ?? [], level + 1)));
  walk(chain.children, 1);
  assert.equal(depths.length, depth, "d1…d20 (the empty file holds no session)");
  assert.equal(new Set(depths.map(([file]) => file)).size, depths.length);
  assert.equal(Math.max(...depths.map(([, level]) => level)), 8);
  assert.deepEqual(placed(chain.children).slice(0, 1), [["level 1", "", "agent-d1.jsonl"]]);
  assert.ok(planloop(["audit", dir]).stdout.includes("s2.jsonl: "), "the text report too");
});
