// Sub-agents through the JS API: a delegate call becomes a delegation, the child runs
// inside its parent through `child(callId)`, its capsule answers the call and completes
// the parent's item, its approval is answered on the parent, and a restart in the middle
// of a child resumes it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

const todos = (items) => JSON.stringify({ todos: items.map(([id, status]) => ({ id, content: `Do ${id}`, status })) });
const config = { tools: { default: "approve", read: ["read"] }, delegation: { enabled: true } };

/** A parent whose model lists two items and delegates the second. */
function delegating() {
  const parent = new Session(config);
  parent.beginTurn({ message: "Fix the parser and its docs", nowMs: 0 });
  parent.handleModelResponse({ text: null, toolCalls: [{ id: "t1", name: "write_todos", args: todos([["a", "completed"], ["b", "in_progress"]]) }] }, 1);
  const goal = { goal: "Fix number reading in parse.rs", todoId: "b", acceptance: ["tests pass"] };
  const decision = parent.handleModelResponse({ text: null, toolCalls: [{ id: "d1", name: "delegate", args: goal }] }, 2);
  return { parent, decision };
}

test("a delegate call is handed out as a delegation and the tool is offered", () => {
  const { parent, decision } = delegating();
  assert.equal(decision.type, "runTools");
  assert.deepEqual(decision.calls, []);
  assert.equal(decision.delegations.length, 1);
  const [d] = decision.delegations;
  assert.deepEqual(
    { callId: d.callId, goal: d.goal, todoId: d.todoId, acceptance: d.acceptance, depth: d.depth, maxIterations: d.maxIterations },
    { callId: "d1", goal: "Fix number reading in parse.rs", todoId: "b", acceptance: ["tests pass"], depth: 1, maxIterations: 10 },
  );
  assert.deepEqual(parent.delegations(), decision.delegations);
  assert.ok(parent.toolDefinitions().some((t) => t.name === "delegate" && t.parameters.required.includes("goal")));
  assert.ok(!new Session().toolDefinitions().some((t) => t.name === "delegate"));
});

test("the child runs inside its parent, and its done capsule completes the parent's item", () => {
  const { parent } = delegating();
  const start = parent.beginDelegation("d1", 3);
  assert.match(start.message, /Task: Fix number reading in parse\.rs/);
  const child = parent.child("d1");
  child.handleModelResponse({ text: null, toolCalls: [{ id: "r1", name: "read", args: { p: "parse.rs" } }] }, 4);
  child.handleToolResults([{ id: "r1", output: "fn number() {}" }], 5);
  assert.equal(child.handleModelResponse({ text: "Fixed number reading.", toolCalls: [] }, 6).type, "finalize");
  const outcome = parent.finishDelegation("d1", { transcriptRef: "runs/d1.jsonl" }, 7);
  assert.equal(outcome.capsule.status, "done");
  assert.equal(outcome.capsule.transcriptRef, "runs/d1.jsonl");
  assert.equal(outcome.messages[0].toolCallId, "d1");
  assert.match(outcome.messages[0].content, /^Sub-agent capsule \(done\)/);
  assert.equal(outcome.complete, true);
  assert.deepEqual(parent.todos().map((t) => t.status), ["completed", "completed"]);
  // The child's handle is gone with its delegation.
  assert.throws(() => child.todos(), (e) => e.code === "invalid_state");
  assert.equal(parent.handleModelResponse({ text: "Both are fixed.", toolCalls: [] }, 8).type, "finalize");
});

test("a child's approval is answered on the parent, across a restart", () => {
  for (const approve of [true, false]) {
    const { parent } = delegating();
    parent.beginDelegation("d1", 3);
    const waiting = parent.child("d1").handleModelResponse({ text: null, toolCalls: [{ id: "w1", name: "write_file", args: { path: "a" } }] }, 4);
    assert.equal(waiting.type, "awaitApproval");
    // A restart: the parent's snapshot holds the child, its proposal and all.
    const restored = Session.restore(JSON.stringify(parent.snapshot()));
    const [proposal] = restored.proposals();
    assert.equal(proposal.actionId, "d1/act-1-1");
    assert.deepEqual(proposal.chain, [{ turn: 1, callId: "d1" }]);
    const outcome = approve
      ? restored.approve(proposal.actionId, { scope: "once" }, 60_000)
      : restored.reject(proposal.actionId, { message: "not now" }, 60_000);
    assert.equal(outcome.delegation, "d1");
    assert.equal(outcome.resumed.type, "runTools");
    assert.equal(outcome.resumed.calls.length, approve ? 1 : 0);
    const child = restored.child("d1");
    if (approve) child.handleToolResults([{ id: "w1", output: "written" }], 60_001);
    child.handleModelResponse({ text: approve ? "Wrote it." : "The user said no.", toolCalls: [] }, 60_002);
    const done = restored.finishDelegation("d1", undefined, 60_003);
    assert.equal(done.capsule.status, "done");
  }
});

test("\"continue\" after a restart goes on with the child at work; its waiting write stays the user's to approve", () => {
  const { parent } = delegating();
  parent.beginDelegation("d1", 3);
  parent.child("d1").handleModelResponse({ text: null, toolCalls: [{ id: "w1", name: "write_file", args: { path: "a" } }] }, 4);
  const restored = Session.restore(JSON.stringify(parent.snapshot()));
  const start = restored.beginTurn({ message: "continue", nowMs: 3_600_000 });
  assert.equal(start.turn, 1);
  assert.deepEqual(start.delegations.map((d) => d.callId), ["d1"]);
  assert.match(start.delegations[0].message, /^<resume>\n[^]*Goal: Fix number reading in parse\.rs/);
  // "continue" approves nothing: the proposal waits as it did, and is answered as before.
  const [proposal] = restored.proposals();
  assert.deepEqual([proposal.actionId, proposal.status], ["d1/act-1-1", "pending"]);
  const outcome = restored.approve(proposal.actionId, { scope: "once" }, 3_600_001);
  assert.deepEqual([outcome.delegation, outcome.resumed.type, outcome.resumed.calls.length], ["d1", "runTools", 1]);
  // Anything else ends the turn and the child with it, as before.
  const ended = Session.restore(JSON.stringify(parent.snapshot())).beginTurn({ message: "now the docs", nowMs: 3_600_000 });
  assert.deepEqual(ended.delegations, []);
  assert.equal(ended.turn, 2);
});

test("bad delegation calls are refused by name and change nothing", () => {
  const { parent } = delegating();
  const before = JSON.stringify(parent.snapshot());
  assert.throws(() => parent.beginDelegation("nope", 3), (e) => e.code === "invalid_state");
  assert.throws(() => parent.child("d1"), (e) => e.code === "invalid_state");
  assert.throws(() => parent.finishDelegation("d1", { maxChars: 5 }, 3), (e) => e.code === "invalid_options");
  assert.throws(() => parent.beginDelegation(42, 3), (e) => e.code === "invalid_argument");
  assert.equal(JSON.stringify(parent.snapshot()), before);
  // A delegate tool named as a planner tool is a config error.
  assert.throws(
    () => new Session({ delegation: { enabled: true, toolNames: ["write_todos"] } }),
    (e) => e.code === "invalid_options" && /planner tool/.test(e.message),
  );
  // A freed root takes its children's handles with it.
  parent.beginDelegation("d1", 3);
  const child = parent.child("d1");
  parent.free();
  assert.throws(() => child.todos(), (e) => e.code === "invalid_state");
});

test("a recorded Claude Code session: its Task calls run as children from their sidechains, each handing back a capsule", () => {
  const traces = new URL("../fixtures/traces/claude_code_todo.jsonl", import.meta.url);
  const records = readFileSync(traces, "utf8").trim().split("\n").map((line) => JSON.parse(line));
  const main = records[0];
  // A sidechain links to its Task call by its first message, the call's prompt.
  const sides = new Map(records.filter((r) => r.thread.startsWith("side:")).map((r) => [r.turns[0].text, r]));
  const config = { tools: { default: "read" }, todoDialects: ["TodoWrite"], todoMode: "observe", maxIterations: 200, timeoutMs: 86_400_000, history: { mode: "full" } };
  const parent = new Session({ ...config, delegation: { enabled: true, toolNames: ["Task"], maxInFlight: 3, maxIterations: 100 } });
  let now = 0;
  parent.beginTurn({ message: main.turns[1].text, nowMs: (now += 10) });
  const sizes = [];
  for (const turn of main.turns.slice(2, 9)) {
    const calls = turn.tool_calls.map((c) => ({ id: c.id, name: c.name, args: c.args }));
    const decision = parent.handleModelResponse({ text: turn.text || null, toolCalls: calls }, (now += 10));
    if (decision.type !== "runTools") {
      assert.equal(decision.type, "finalize");
      break;
    }
    for (const delegation of decision.delegations) {
      const side = sides.get(delegation.goal);
      assert.ok(side, `a sidechain for ${delegation.title}`);
      parent.beginDelegation(delegation.callId, (now += 10));
      const child = parent.child(delegation.callId);
      let transcript = delegation.goal.length;
      for (const step of side.turns.slice(1).filter((t) => t.role === "assistant")) {
        const childCalls = step.tool_calls.map((c) => ({ id: c.id, name: c.name, args: c.args }));
        const d = child.handleModelResponse({ text: step.text || null, toolCalls: childCalls }, (now += 10));
        transcript += step.text.length + JSON.stringify(childCalls).length + step.tool_results.reduce((n, r) => n + String(r.content).length, 0);
        const run = d.type === "runTools" ? step.tool_results.filter((r) => d.calls.some((c) => c.id === r.tool_call_id)) : [];
        if (run.length > 0) child.handleToolResults(run.map((r) => ({ id: r.tool_call_id, output: String(r.content), isError: r.is_error === true })), (now += 10));
        if (d.type === "finalize") break;
      }
      const outcome = parent.finishDelegation(delegation.callId, { transcriptRef: side.thread }, (now += 10));
      assert.equal(outcome.capsule.status, "done", outcome.capsule.text);
      // (The call's message is the capsule, then any reminder planloop adds to a batch.)
      assert.ok(outcome.messages[0].content.startsWith(outcome.capsule.text));
      sizes.push([transcript, outcome.capsule.text.length]);
    }
    const hostResults = turn.tool_results.filter((r) => decision.calls.some((c) => c.id === r.tool_call_id));
    if (hostResults.length > 0) parent.handleToolResults(hostResults.map((r) => ({ id: r.tool_call_id, output: String(r.content), isError: false })), (now += 10));
  }
  assert.equal(sizes.length, 5);
  // Each capsule is within its cap, and a small part of the child's transcript.
  for (const [transcript, capsule] of sizes) assert.ok(capsule <= 4000 && capsule * 4 < transcript, `${capsule} of ${transcript}`);
  // The parent's trail shows each child's steps under its Task call.
  assert.ok(parent.steps().some((s) => /^\[Act\] toolu_\w+ › /.test(s)), parent.steps().join("\n"));
});
