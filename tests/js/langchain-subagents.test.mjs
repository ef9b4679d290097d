// planloop/langchain's `planloopTask`, a deepagents-style `task` tool, in LangChain.js v1
// agents with LangChain's own fake chat model and MemorySaver: the sub-agent (its own
// `createAgent` with planloop's middleware) runs in the parent's thread, hands back its
// capsule, and with the parent's `delegation` on for `task`, completes the parent's todo
// item; one middleware for parent and child keeps their sessions apart; the child's gated
// call pauses the parent's run and resumes it, across a restart.
import assert from "node:assert/strict";
import { test } from "node:test";

import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { AIMessage, HumanMessage, ToolMessage, createAgent, fakeModel } from "langchain";

import { planloopMiddleware, planloopTask } from "../../pkg/langchain.mjs";
import { planloop } from "./support/pkg.mjs";

const list = (first, second) => ({ todos: [{ id: "find", content: "Find the failing test", status: first }, { id: "fix", content: "Fix it", status: second }] });
const grep = tool(async ({ q }) => `tests/parse.test.ts:12 fails (${q})`, { name: "grep", description: "Search the code", schema: { type: "object", properties: { q: { type: "string" } } } });
const textOf = (message) => (typeof message.content === "string" ? message.content : message.content.map((b) => b.text ?? "").join(""));
const parentConfig = { tools: { read: ["grep", "task"] }, delegation: { enabled: true, toolNames: ["task"] }, history: { mode: "full" } };
const childConfig = { tools: { read: ["grep"] } };

/** A parent that lists two items and hands the first to a researcher; its child's model
 * is `childModel`; `shared` uses one middleware for both. */
function run({ childModel, deleteTool, shared = false, checkpointer = new MemorySaver(), parentModel }) {
  const parentMiddleware = planloopMiddleware({ config: parentConfig, now: () => 1000 });
  const childMiddleware = shared ? parentMiddleware : planloopMiddleware({ config: childConfig, now: () => 1000 });
  const child = createAgent({ model: childModel, tools: deleteTool ? [grep, deleteTool] : [grep], middleware: [childMiddleware] });
  const task = planloopTask({ subagents: { researcher: { description: "Finds things in the code", agent: child } }, now: () => 1000 });
  const model =
    parentModel ??
    fakeModel()
      .respondWithTools([{ name: "write_todos", args: list("in_progress", "pending"), id: "p1" }])
      .respondWithTools([{ name: "task", args: { goal: "Find the failing test", subagent_type: "researcher", todoId: "find" }, id: "k1" }])
      .respondWithTools([{ name: "write_todos", args: list("completed", "completed"), id: "p2" }])
      .respond(new AIMessage("The parser test fails on exponents; fixed."));
  const parent = createAgent({ model, tools: [grep, task], middleware: [parentMiddleware], checkpointer });
  return { parent, model };
}

const doneChild = () =>
  fakeModel()
    .respondWithTools([{ name: "grep", args: { q: "fail" }, id: "g1" }])
    .respond(new AIMessage("tests/parse.test.ts:12 fails: exponents are not read."));

for (const shared of [false, true]) {
  test(`LangChain task tool: the sub-agent's capsule completes the parent's item${shared ? " (one middleware for both)" : ""}`, async () => {
    const childModel = doneChild();
    const { parent, model } = run({ childModel, shared });
    const result = await parent.invoke({ messages: [new HumanMessage("Fix the failing test")] }, { configurable: { thread_id: "T" } });
    assert.equal(textOf(result.messages.at(-1)), "The parser test fails on exponents; fixed.");
    // The child got the goal, and nothing of the parent's conversation.
    assert.equal(textOf(childModel.calls[0].messages.at(-1)), "Find the failing test");
    assert.ok(!childModel.calls[0].messages.some((m) => textOf(m).includes("Fix the failing test")));
    // The parent's model read the capsule, made from the child's state.
    const capsule = model.calls[2].messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "k1");
    assert.match(textOf(capsule), /^Sub-agent capsule \(done\)\nGoal: Find the failing test\nSummary: tests\/parse\.test\.ts:12 fails/);
    assert.match(textOf(capsule), /- grep g1 ok/);
    // The delegation settled the parent's item before its model wrote the list again.
    const session = planloop.Session.restore(result.planloop.snapshot);
    assert.ok(session.steps().some((s) => s.includes("find: sub-agent k1: done")), session.steps().join("\n"));
    assert.deepEqual(session.todos().map((t) => t.status), ["completed", "completed"]);
  });
}

test("LangChain task tool: a child that stops at its limit hands back a partial capsule, and the parent's item stays open", async () => {
  const childModel = fakeModel()
    .respondWithTools([{ name: "grep", args: { q: "a" }, id: "g1" }])
    .respondWithTools([{ name: "grep", args: { q: "b" }, id: "g2" }]);
  const parentMiddleware = planloopMiddleware({ config: { ...parentConfig, maxPlanContinuations: 1 }, now: () => 1000 });
  const child = createAgent({ model: childModel, tools: [grep], middleware: [planloopMiddleware({ config: { ...childConfig, maxIterations: 2 }, now: () => 1000 })] });
  const task = planloopTask({ subagents: { researcher: { description: "Finds things", agent: child } } });
  const model = fakeModel()
    .respondWithTools([{ name: "write_todos", args: list("in_progress", "pending"), id: "p1" }])
    .respondWithTools([{ name: "task", args: { goal: "Find it", subagent_type: "researcher", todoId: "find" }, id: "k1" }])
    .respond(new AIMessage("I could not find it yet."))
    .respond(new AIMessage("Still looking."));
  const result = await createAgent({ model, tools: [grep, task], middleware: [parentMiddleware], checkpointer: new MemorySaver() }).invoke(
    { messages: [new HumanMessage("Fix the failing test")] },
    { configurable: { thread_id: "T2" } },
  );
  const capsule = model.calls[2].messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "k1");
  assert.match(textOf(capsule), /^Sub-agent capsule \(partial\)/);
  const session = planloop.Session.restore(result.planloop.snapshot);
  assert.equal(session.todos()[0].status, "in_progress");
  // The guard saw the open item: the parent's first stop went back to its model.
  assert.match(textOf(model.calls[3].messages.at(-1)), /^<plan-continuation>/);
});

test("LangChain task tool: the child's gated call pauses the parent's run; approved after a restart, both go on", async () => {
  const checkpointer = new MemorySaver();
  const deleted = [];
  const deleteNote = tool(async ({ path }) => (deleted.push(path), `deleted ${path}`), { name: "delete_note", description: "Delete a file", schema: { type: "object", properties: { path: { type: "string" } } } });
  const childScript = () => fakeModel().respondWithTools([{ name: "delete_note", args: { path: "old.test.ts" }, id: "x1" }]).respond(new AIMessage("Deleted the stale test."));
  const parentScript = () =>
    fakeModel()
      .respondWithTools([{ name: "write_todos", args: list("in_progress", "pending"), id: "p1" }])
      .respondWithTools([{ name: "task", args: { goal: "Delete the stale test", subagent_type: "researcher", todoId: "find" }, id: "k1" }])
      .respondWithTools([{ name: "write_todos", args: list("completed", "completed"), id: "p2" }])
      .respond(new AIMessage("Done."));
  const first = run({ childModel: childScript(), deleteTool: deleteNote, checkpointer, parentModel: parentScript() });
  const paused = await first.parent.invoke({ messages: [new HumanMessage("Clean up the tests")] }, { configurable: { thread_id: "T3" } });
  const [request] = paused.__interrupt__;
  assert.deepEqual(request.value.actionRequests.map((a) => [a.name, a.args]), [["delete_note", { path: "old.test.ts" }]]);
  assert.deepEqual(deleted, []);
  // Another process: new middleware, agents and models over the same checkpointer.
  const childModel = fakeModel().respond(new AIMessage("Deleted the stale test."));
  // (Message ids of their own: a fake model numbers its messages from 0 again, and the
  // graph would take a repeated id as an update of the first process's message.)
  const parentModel = fakeModel()
    .respond(new AIMessage({ content: "", tool_calls: [{ name: "write_todos", args: list("completed", "completed"), id: "p2" }], id: "second-1" }))
    .respond(new AIMessage({ content: "Done.", id: "second-2" }));
  const second = run({ childModel, deleteTool: deleteNote, checkpointer, parentModel });
  const result = await second.parent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), { configurable: { thread_id: "T3" } });
  assert.deepEqual(deleted, ["old.test.ts"]);
  assert.equal(textOf(result.messages.at(-1)), "Done.");
  const capsule = parentModel.calls[0].messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "k1");
  assert.match(textOf(capsule), /^Sub-agent capsule \(done\)/);
  assert.match(textOf(capsule), /- delete_note x1 ok/);
});

test("LangChain task tool: an unknown sub-agent is refused by name, a sub-agent without planloop too", async () => {
  assert.throws(() => planloopTask({ subagents: {} }), /at least one sub-agent/);
  const bare = createAgent({ model: fakeModel().respond(new AIMessage("hi")), tools: [] });
  const task = planloopTask({ subagents: { bare: { description: "no planloop", agent: bare } } });
  const call = (subagent) => task.invoke({ id: "k9", name: "task", args: { goal: "x", subagent_type: subagent }, type: "tool_call" });
  await assert.rejects(call("bare"), /sub-agent bare runs without planloopMiddleware/);
  await assert.rejects(call("nobody"), /subagent_type/);
});

test("LangChain task tool: with the parent's delegation off, the capsule is the task's plain result", async () => {
  const parentMiddleware = planloopMiddleware({ config: { tools: { read: ["task"] } }, now: () => 1000 });
  const child = createAgent({ model: doneChild(), tools: [grep], middleware: [planloopMiddleware({ config: childConfig, now: () => 1000 })] });
  const task = planloopTask({ subagents: { researcher: { description: "Finds things", agent: child } } });
  const model = fakeModel()
    .respondWithTools([{ name: "task", args: { goal: "Find the failing test", subagent_type: "researcher" }, id: "k1" }])
    .respond(new AIMessage("Found it."));
  const result = await createAgent({ model, tools: [task], middleware: [parentMiddleware], checkpointer: new MemorySaver() }).invoke(
    { messages: [new HumanMessage("Why does CI fail?")] },
    { configurable: { thread_id: "T4" } },
  );
  assert.equal(textOf(result.messages.at(-1)), "Found it.");
  const capsule = model.calls[1].messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "k1");
  assert.match(textOf(capsule), /^Sub-agent capsule \(done\)/);
});
