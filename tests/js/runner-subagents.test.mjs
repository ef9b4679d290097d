// The reference chain runner with sub-agents: a delegate call runs as a child session
// through the runner's own loop, with the sub-agent model, the same tools and the same
// approvals; the child's proposals are answered on the parent, and its capsule is what
// the parent's conversation keeps.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ChainRunner } from "../../target/www/runner/chain.js";
import { checkingStore, scriptedModel, strictModel } from "./support/conversation.mjs";
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
  // The child's events come through with the parent's. Each step is saved, the child's
  // three with its conversation beside the parent's, which waits on d1 meanwhile.
  assert.deepEqual(events.filter((e) => /^Turn(Started|Paused|Resumed)$|^Delegation/.test(e)), ["TurnStarted", "DelegationStarted", "TurnStarted", "TurnPaused", "TurnResumed", "DelegationEnded"]);
  assert.equal(store.saved.length, 5);
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
  // The approved call ran before the sub-agent: while one works, its parent waits on
  // nothing but the delegate call (what a restart resumes).
  assert.deepEqual(answered, ["t1", "w1", "d1"]);
  assert.deepEqual(model.requests[1].tools, []);
});

/** A model answering from `script` in order, throwing its errors as a provider would. */
function failingModel(script) {
  const left = [...script];
  return strictModel(() => {
    const next = left.shift();
    if (next instanceof Error) throw next;
    return next;
  });
}

const fixed = { text: "Fixed number parsing in parse.ts.", toolCalls: [] };
const answered = { text: "Number parsing is fixed.", toolCalls: [] };

/** A child that reads, then fails (its process dies, or its provider throws); the runner
 * that ran it, its store, and the models, which answer `then` afterwards. */
async function diedInAChild(then = { parent: [], child: [] }) {
  const { tools } = files();
  const store = checkingStore();
  const child = failingModel([{ text: "Reading it first.", toolCalls: [{ id: "r1", name: "read_file", args: { path: "parse.ts" } }] }, new Error("the process died"), ...then.child]);
  const parent = failingModel([delegate, ...then.parent]);
  const runner = new ChainRunner({ session: new Session(config), model: parent, subAgentModel: () => child, tools, store });
  await assert.rejects(runner.send("Fix number parsing"), /the process died/);
  return { runner, store, tools, parent, child };
}

/** A runner over `store`, after a restart, with the parent's and the child's next answers. */
function restarted(store, tools, { parent = [answered], child = [fixed] } = {}) {
  const parentModel = scriptedModel(parent);
  const childModel = scriptedModel(child);
  const runner = new ChainRunner({ session: new Session(config), model: parentModel, subAgentModel: () => childModel, tools, store });
  return { runner, parentModel, childModel };
}

test("after a restart in the middle of a sub-agent, \"continue\" resumes it where it was, then its parent", async () => {
  const { store, tools } = await diedInAChild();
  const saved = JSON.parse(store.text);
  assert.deepEqual(Object.keys(saved.children), ['["d1"]']);
  const { runner, parentModel, childModel } = restarted(store, tools);
  assert.equal(await runner.restore((snapshot) => Session.restore(snapshot)), true);
  const outcome = await runner.send("continue");
  assert.deepEqual(outcome, { type: "finalize", answer: "Number parsing is fixed.", exitReason: "final_answer" });
  // The child's model goes on from its own conversation: the task, its read and its result.
  const resumed = childModel.requests[0].messages.slice(1);
  assert.deepEqual(resumed, saved.children['["d1"]']);
  assert.deepEqual(resumed.map((m) => m.role), ["user", "assistant", "tool"]);
  // The parent's model next reads the capsule as d1's result; "continue" is not put in
  // its conversation, which waited on the delegate call.
  const given = parentModel.requests[0].messages;
  assert.equal(given.filter((m) => m.role === "user").length, 1);
  const capsule = given.at(-1);
  assert.deepEqual([capsule.role, capsule.toolCallId], ["tool", "d1"]);
  assert.match(capsule.content, /^Sub-agent capsule \(done\)\n[^]*Fixed number parsing in parse\.ts\./);
  assert.deepEqual(runner.session.todos().map((t) => t.status), ["completed"]);
  assert.equal(runner.session.delegations().length, 0);
});

test("a sub-agent whose conversation was lost is resumed from the session's brief; without a restart, from its own", async () => {
  const lost = await diedInAChild();
  const state = JSON.parse(lost.store.text);
  delete state.children;
  lost.store.text = JSON.stringify(state);
  const { runner, childModel } = restarted(lost.store, lost.tools);
  await runner.restore((snapshot) => Session.restore(snapshot));
  assert.equal((await runner.send("please continue")).type, "finalize");
  const given = childModel.requests[0].messages.slice(1);
  assert.equal(given.length, 1);
  assert.equal(given[0].role, "user");
  assert.match(given[0].content, /^<resume>\nYour work on this task was paused[^]*Goal: Fix number parsing in parse\.ts/);
  // The same runner, after its provider threw: it kept the child's conversation.
  const kept = await diedInAChild({ parent: [answered], child: [fixed] });
  assert.equal((await kept.runner.send("continue")).type, "finalize");
  const again = kept.child.requests.at(-1).messages.slice(1);
  assert.deepEqual(again.map((m) => m.role), ["user", "assistant", "tool"]);
  assert.match(again[0].content, /Task: Fix number parsing in parse\.ts/);
  assert.deepEqual(kept.runner.messages.filter((m) => m.toolCallId === "d1").length, 1);
  assert.deepEqual(kept.runner.session.todos().map((t) => t.status), ["completed"]);
  // Failing again once resumed, it keeps what it did since.
  const twice = await diedInAChild({ parent: [answered], child: [{ text: null, toolCalls: [{ id: "r2", name: "read_file", args: { path: "lex.ts" } }] }, new Error("the process died"), fixed] });
  await assert.rejects(twice.runner.send("continue"), /the process died/);
  assert.equal((await twice.runner.send("continue")).type, "finalize");
  assert.deepEqual(twice.child.requests.at(-1).messages.slice(1).map((m) => m.role), ["user", "assistant", "tool", "assistant", "tool"]);
});

test("after a restart in the middle of a sub-agent, another message ends the turn and the sub-agent with it", async () => {
  const { store, tools } = await diedInAChild();
  const { runner, parentModel, childModel } = restarted(store, tools, {
    parent: [{ text: null, toolCalls: [{ id: "t2", name: "write_todos", args: list("completed") }] }, { text: "Here are the docs.", toolCalls: [] }],
  });
  await runner.restore((snapshot) => Session.restore(snapshot));
  assert.equal((await runner.send("Forget that: show me the docs")).type, "finalize");
  assert.equal(childModel.requests.length, 0);
  assert.equal(runner.session.delegations().length, 0);
  const d1 = parentModel.requests[0].messages.find((m) => m.role === "tool" && m.toolCallId === "d1");
  assert.equal(d1.content, "Not run: the turn ended before this call ran.");
  assert.equal(parentModel.requests[0].messages.at(-1).content, "Forget that: show me the docs");
});
