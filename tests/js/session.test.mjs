// Session from JS: a whole turn driven by a scripted model, the shapes a host sees, and
// the errors it gets for calls out of order or bad input.
import assert from "node:assert/strict";
import { test } from "node:test";

import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

/** Plays `script` (one model response per entry) through a session; returns every decision. */
function play(session, script, { tool = (call) => `${call.name} ok` } = {}) {
  let now = 1_000;
  const decisions = [];
  session.beginTurn({ message: "Summarize the Q3 notes", nowMs: now });
  for (const response of script) {
    now += 1_000;
    const decision = session.handleModelResponse(response, now);
    decisions.push(decision);
    if (decision.type === "runTools" && decision.calls.length > 0) {
      session.handleToolResults(decision.calls.map((call) => ({ id: call.id, output: tool(call) })), now);
    }
    if (decision.type === "finalize" || decision.type === "pause" || decision.type === "fail") break;
  }
  return decisions;
}

const plan = JSON.stringify({ overall_goal_ui: "Summarize Q3", internal_plan: "1. find\n2. read\n3. write", complexity: "complex" });

test("a three-step plan is carried to completion through a refused early stop", () => {
  const session = new Session();
  const decisions = play(session, [
    { text: "Planning.", toolCalls: [{ id: "p", name: "plan", args: plan }] },
    { text: null, toolCalls: [{ id: "1", name: "search", args: { query: "Q3" } }] },
    { text: "I found the notes.", toolCalls: [] },
    { text: "", toolCalls: [{ id: "2", name: "read", args: '{"path":"q3.md"}' }] },
    { toolCalls: [{ id: "3", name: "write", args: { path: "summary.md" } }] },
    { toolCalls: [{ id: "pp", name: "plan_progress", args: { plan_status: "completed" } }] },
    { text: "The summary is in summary.md.", toolCalls: [] },
  ]);
  assert.deepEqual(decisions.map((d) => d.type), ["runTools", "runTools", "continue", "runTools", "runTools", "runTools", "finalize"]);
  const refused = decisions[2];
  assert.equal(refused.reason, "plan_unfinished");
  assert.deepEqual([refused.attempt, refused.maxAttempts], [1, 5]);
  assert.match(refused.message, /^<plan-continuation>/);
  assert.deepEqual(decisions[1].calls, [{ id: "1", name: "search", args: { query: "Q3" } }]);
  assert.deepEqual(decisions[3].calls[0].args, { path: "q3.md" }, "JSON text arguments come back parsed");
  assert.deepEqual(decisions.at(-1), { type: "finalize", answer: "The summary is in summary.md.", exitReason: "final_answer" });
  const events = session.drainEvents();
  assert.ok(events.every((e) => typeof e.type === "string" && e.turn === 1 && typeof e.iteration === "number" && typeof e.atMs === "number"));
  assert.deepEqual(events.filter((e) => e.type === "PlanContinuation").map((e) => e.attempt), [1]);
  assert.deepEqual(session.drainEvents(), [], "drained");
  assert.equal(session.plan().completed, true);
});

test("runTools carries planloop's replies, the next call and the budget line", () => {
  const session = new Session({ maxIterations: 3 });
  session.beginTurn({ message: "Go", nowMs: 0 });
  const todos = { todos: [{ id: "a", content: "Do a", status: "in_progress" }] };
  const decision = session.handleModelResponse({ text: null, toolCalls: [{ id: "t", name: "write_todos", args: todos }, { id: "s", name: "search", args: {} }] }, 1);
  assert.equal(decision.type, "runTools");
  assert.deepEqual(decision.replies, [{ toolCallId: "t", name: "write_todos", content: '{"ok":true,"revision":1,"todoCount":1,"inProgress":"a"}', isError: false }]);
  assert.deepEqual(decision.next, { iteration: 2, toolsWithheld: false, toolRoundsRemaining: 1, budgetLine: "Tool rounds remaining: 1 of 2." });
  const outcome = session.handleToolResults([{ id: "s", output: { hits: 3 }, durationMs: 12 }], 2);
  assert.deepEqual(outcome.messages, [{ toolCallId: "s", name: "search", content: '{"hits":3}', isError: false }]);
  assert.equal(outcome.complete, true);
  assert.deepEqual(session.todos(), [{ id: "a", content: "Do a", status: "in_progress" }]);
  assert.deepEqual(session.progress(), { source: "todos", completed: 0, total: 1, percentage: 0, current: "Do a", iterations: 1, maxIterations: 3, reported: null });
  assert.deepEqual(session.steps(), ["[Plan] 0/1 done · now: a", "[Act] search()", "[Obs] search ok: {\"hits\":3}"]);
});

test("the session's tool definitions follow its configuration", () => {
  const names = (config) => new Session(config).toolDefinitions().map((t) => t.name);
  assert.deepEqual(names(), ["write_todos", "plan", "plan_progress"]);
  assert.deepEqual(names({ todoDialects: ["TodoWrite", "update_plan"] }), ["TodoWrite", "update_plan", "plan", "plan_progress"]);
  for (const tool of new Session({ todoDialects: ["write_todos", "TodoWrite", "update_plan", "update_todo_list", "task_tracker"] }).toolDefinitions()) {
    assert.equal(tool.parameters.type, "object", tool.name);
    assert.ok(tool.description.length > 40, tool.name);
  }
});

test("calls out of order and bad input are PlanloopErrors that change nothing", () => {
  const session = new Session();
  assert.throws(() => session.handleModelResponse({ text: "hi" }, 1), { name: "PlanloopError", code: "invalid_state" });
  assert.throws(() => session.beginTurn({ message: "x" }), (e) => e.code === "invalid_argument" && e.data.issues[0].path[0] === "nowMs");
  assert.throws(() => new Session({ maxIteration: 3 }), (e) => e.code === "invalid_options" && e.data.issues[0].keys[0] === "maxIteration");
  assert.throws(() => new Session({ language: "fr" }), { code: "invalid_options" });
  session.beginTurn({ message: "x", nowMs: 0 });
  assert.throws(() => session.handleModelResponse({ text: "x", toolCalls: [{ id: "", name: "x" }] }, 1), { code: "invalid_argument" });
  session.handleModelResponse({ toolCalls: [{ id: "a", name: "x", args: {} }] }, 1);
  assert.throws(() => session.handleToolResults([{ id: "b", output: "?" }], 2), (e) => e.code === "invalid_argument" && e.data.issues[0].code === "custom");
  assert.throws(() => session.handleModelResponse({ text: "done" }, 2), { code: "invalid_state" });
  assert.equal(session.handleToolResults([{ id: "a", output: "fine" }], 2).complete, true);
  assert.equal(session.handleModelResponse({ text: "done" }, 3).type, "finalize");
});

test("Chinese prompts and a time limit that pauses the turn with a summary", () => {
  const session = new Session({ language: "zh", timeoutMs: 5_000 });
  session.beginTurn({ message: "整理笔记", nowMs: 0 });
  session.handleModelResponse({ toolCalls: [{ id: "p", name: "plan", args: plan }] }, 100);
  const nudge = session.handleModelResponse({ text: "完成了第一步。" }, 200);
  assert.match(nudge.message, /你刚完成了计划中的一个步骤/);
  const late = session.handleModelResponse({ toolCalls: [{ id: "s", name: "search", args: {} }] }, 9_000);
  assert.equal(late.type, "pause");
  assert.equal(late.exitReason, "timeout");
  assert.match(late.summary, /^已在时间上限处暂停/);
});
