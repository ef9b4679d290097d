// The reference chain runner with sub-agents: a delegate call runs as a child session
// through the runner's own loop, with the sub-agent model, the same tools and the same
// approvals; the child's proposals are answered on the parent, and its capsule is what
// the parent's conversation keeps.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ChainRunner } from "../../target/www/runner/chain.js";
import { checkingStore, scriptedModel } from "./support/conversation.mjs";
import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

const config = { tools: { read: ["read_file"] }, delegation: { enabled: true }, history: { mode: "full" } };
const list = (status) => ({ todos: [{ id: "fix", content: "Fix number parsing", status }] });
const delegate = { text: "A sub-agent takes this.", toolCalls: [{ id: "t1", name: "write_todos", args: list("in_progress") }, { id: "d1", name: "delegate", args: { goal: "Fix number parsing in parse.ts", todoId: "fix" } }] };
const write = { text: null, toolCalls: [{ id: "w1", name: "write_file", args: { path: "parse.ts", content: "fixed" } }] };

/** The host's tools; `written` records what write_file was run with. */
function files() {
  const written = [];
  const tools = [
    { definition: { name: "read_file", description: "Read a file", parameters: { type: "object" } }, run: () => "fn number() {}" },
    { definition: { name: "write_file", description: "Write a file", parameters: { type: "object" } }, run: (args) => { written.push(args); return "written"; } },
  ];
  return { written, tools };
}

test("a sub-agent's gated call waits for the user, is approved through the parent, and its capsule completes the item", async () => {
  const { written, tools } = files();
  const asked = [];
  const events = [];
  const store = checkingStore();
  const parent = scriptedModel([delegate, { text: "Number parsing is fixed in parse.ts.", toolCalls: [] }]);
  const child = scriptedModel([
    { text: "Reading it first.", toolCalls: [{ id: "r1", name: "read_file", args: { path: "parse.ts" } }] },
    write,
    { text: "Fixed number parsing in parse.ts.", toolCalls: [] },
  ]);
  const delegations = [];
  // The verdict goes to the parent, which hands it to the child that made the proposal.
  const session = new Session(config);
  const approve = session.approve.bind(session);
  const routed = [];
  session.approve = (actionId, options, nowMs) => {
    const outcome = approve(actionId, options, nowMs);
    routed.push([actionId, outcome.delegation, outcome.resumed?.type]);
    return outcome;
  };
  const runner = new ChainRunner({
    session,
    model: parent,
    subAgentModel: (delegation) => {
      delegations.push(delegation);
      return child;
    },
    tools,
    approve: (proposal) => {
      asked.push(proposal);
      return { approve: true };
    },
    onEvent: (event) => events.push(event.type),
    store,
  });
  const outcome = await runner.send("Fix number parsing");
  assert.deepEqual(outcome, { type: "finalize", answer: "Number parsing is fixed in parse.ts.", exitReason: "final_answer" });
  assert.deepEqual(delegations.map((d) => [d.callId, d.goal, d.todoId]), [["d1", "Fix number parsing in parse.ts", "fix"]]);
  // The child's proposal, as the parent holds it, and the call it let through.
  assert.deepEqual(asked.map((p) => [p.actionId, p.tool, p.chain]), [["d1/act-1-1", "write_file", [{ turn: 1, callId: "d1" }]]]);
  assert.deepEqual(routed, [["d1/act-1-1", "d1", "runTools"]]);
  assert.deepEqual(written, [{ path: "parse.ts", content: "fixed" }]);
  // The child talks in its own conversation: the task first, its tools without delegate.
  assert.match(child.requests[0].messages[1].content, /Task: Fix number parsing in parse\.ts/);
  assert.ok(!child.requests[0].tools.some((t) => t.name === "delegate"));
  assert.ok(parent.requests[0].tools.some((t) => t.name === "delegate"));
  const last = child.requests.at(-1).messages.at(-1);
  assert.deepEqual([last.role, last.toolCallId], ["tool", "w1"]);
  assert.match(last.content, /^\[tool_result:write_file\] written/);
  // The parent's conversation keeps the capsule, not the child's messages.
  const results = runner.messages.filter((m) => m.role === "tool");
  assert.deepEqual(results.map((m) => m.name), ["write_todos", "delegate"]);
  assert.match(results[1].content, /^Sub-agent capsule \(done\)\n[^]*Summary: Fixed number parsing in parse\.ts\./);
  assert.deepEqual(runner.session.todos().map((t) => t.status), ["completed"]);
  assert.ok(runner.session.steps().includes('[Act] d1 › write_file("parse.ts")'), runner.session.steps().join("\n"));
  // The child's events come through with the parent's; only the parent's steps are saved.
  assert.deepEqual(events.filter((e) => /^Turn(Started|Paused|Resumed)$|^Delegation/.test(e)), ["TurnStarted", "DelegationStarted", "TurnStarted", "TurnPaused", "TurnResumed", "DelegationEnded"]);
  assert.equal(store.saved.length, 2);
});

test("without a sub-agent model the runner's own works the sub-agent, whose rejection and budget are the parent's", async () => {
  const { written, tools } = files();
  const model = scriptedModel([
    delegate,
    write,
    { text: "The user did not want parse.ts written.", toolCalls: [] },
    { text: "Nothing changed: you declined the write.", toolCalls: [] },
  ]);
  // Four model calls: the sub-agent's two leave the parent's last without tools.
  const session = new Session({ ...config, maxIterations: 4 });
  const runner = new ChainRunner({ session, model, tools, approve: () => ({ approve: false, message: "not now" }) });
  const outcome = await runner.send("Fix number parsing");
  assert.equal(outcome.type, "finalize");
  assert.deepEqual(written, []);
  const [, first, third, last] = model.requests;
  assert.deepEqual(last.tools, []);
  assert.match(first.messages[1].content, /Task: Fix number parsing in parse\.ts/);
  const rejected = third.messages.at(-1);
  assert.deepEqual([rejected.toolCallId, rejected.isError], ["w1", true]);
  assert.match(rejected.content, /The user rejected this action: not now/);
  const capsule = runner.messages.find((m) => m.name === "delegate");
  assert.match(capsule.content, /^Sub-agent capsule \(\w+\)\n[^]*The user did not want parse\.ts written\./);
});

test("a delegation beside a gated call runs once the user has answered, and the approved call runs too", async () => {
  const { written, tools } = files();
  const order = [];
  const model = scriptedModel([
    { text: null, toolCalls: [...delegate.toolCalls, ...write.toolCalls] },
    { text: "Checked and written.", toolCalls: [] },
  ]);
  const child = scriptedModel([
    { text: null, toolCalls: [{ id: "r1", name: "read_file", args: { path: "parse.ts" } }] },
    { text: "parse.ts reads numbers right.", toolCalls: [] },
  ]);
  const runner = new ChainRunner({
    // Four model calls: the parent's, the sub-agent's two, and the parent's last, which the
    // sub-agent's calls leave without tools.
    session: new Session({ ...config, maxIterations: 4 }),
    model,
    subAgentModel: () => ({ complete: (request) => (order.push("sub-agent"), child.complete(request)) }),
    tools,
    approve: (proposal) => (order.push(`asked ${proposal.tool}`), { approve: true }),
    store: checkingStore(),
  });
  assert.equal((await runner.send("Fix number parsing")).type, "finalize");
  assert.deepEqual(order, ["asked write_file", "sub-agent", "sub-agent"]);
  assert.equal(written.length, 1);
  const answered = model.requests[1].messages.filter((m) => m.role === "tool").map((m) => m.toolCallId);
  assert.deepEqual(answered, ["t1", "d1", "w1"]);
  assert.deepEqual(model.requests[1].tools, []);
});
