// planloop/langchain in a LangChain.js v1 agent (`createAgent`), with LangChain's own
// fake chat model and MemorySaver (no network): a whole turn with a refused stop, the
// planner tools answered by planloop, gated calls paused through interrupt() and resumed
// with approve / edit / reject decisions (also after a restart), a pause at the limit,
// planloop's events on the agent's custom stream, and the LangChain todo shape.
import assert from "node:assert/strict";
import { test } from "node:test";

import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { AIMessage, HumanMessage, ToolMessage, createAgent, fakeModel } from "langchain";

import { planloopMiddleware } from "../../pkg/langchain.mjs";
import { planloop } from "./support/pkg.mjs";

const todos = (second) => ({ todos: [{ id: "find", content: "Find the Q3 note", status: "completed" }, { id: "write", content: "Summarize it", status: second }] });
const search = tool(async () => "finance/q3.md", { name: "search", description: "Search the notes", schema: { type: "object", properties: { query: { type: "string" } } } });
const config = (thread) => ({ configurable: { thread_id: thread } });
const textOf = (message) => (typeof message.content === "string" ? message.content : message.content.map((b) => b.text ?? "").join(""));

function agent(model, middleware, tools = [search], checkpointer = new MemorySaver()) {
  return createAgent({ model, tools, middleware: [middleware], checkpointer, systemPrompt: "You are a notes assistant." });
}

test("LangChain createAgent: the turn goes on past a premature stop; planloop answers write_todos and writes the prompt", async () => {
  const model = fakeModel()
    .respondWithTools([{ name: "write_todos", args: todos("in_progress"), id: "c1" }, { name: "search", args: { query: "Q3" }, id: "c2" }])
    .respond(new AIMessage("I found it."))
    .respondWithTools([{ name: "write_todos", args: todos("completed"), id: "c3" }])
    .respond(new AIMessage("Q3 revenue rose 4%."));
  const result = await agent(model, planloopMiddleware({ config: { tools: { read: ["search"] } }, now: () => 1000 })).invoke({ messages: [new HumanMessage("Summarize the Q3 note")] }, config("t1"));
  assert.equal(textOf(result.messages.at(-1)), "Q3 revenue rose 4%.");
  assert.equal(model.callCount, 4, "the refused stop went back to the model");
  const [first, second, third] = model.calls.map((c) => c.messages);
  assert.match(textOf(first[0]), /^You are a notes assistant\./);
  assert.match(textOf(second[0]), /## Current plan[\s\S]*Summarize it/);
  assert.match(textOf(third.at(-1)), /^<plan-continuation>/);
  // planloop's ack answered write_todos; the search result reached the model as planloop wrote it.
  const answers = second.filter((m) => ToolMessage.isInstance(m));
  assert.match(textOf(answers.find((m) => m.tool_call_id === "c1")), /"ok":true,"revision":1/);
  assert.match(textOf(answers.find((m) => m.tool_call_id === "c2")), /finance\/q3\.md/);
  // The session lives in the agent state, where the checkpointer keeps it.
  assert.equal(planloop.Session.restore(result.planloop.snapshot).progress().completed, 2);
});

const deleteNote = (deleted) => tool(async ({ path }) => (deleted.push(path), `deleted ${path}`), { name: "delete_note", description: "Delete a note", schema: { type: "object", properties: { path: { type: "string" } } } });

for (const [decision, expectDeleted, expectSeen] of [
  [{ type: "approve" }, ["q3.md"], /deleted q3\.md/],
  [{ type: "edit", editedAction: { name: "delete_note", args: { path: "q3-draft.md" } } }, ["q3-draft.md"], /deleted q3-draft\.md/],
  [{ type: "reject", message: "Keep it: it is the only copy." }, [], /rejected this action: Keep it: it is the only copy\./],
]) {
  test(`LangChain: a gated call pauses through interrupt(); ${decision.type} resumes it with Command({resume})`, async () => {
    const model = fakeModel().respondWithTools([{ name: "delete_note", args: { path: "q3.md" }, id: "d1" }]).respond(new AIMessage("Done."));
    const deleted = [];
    const graph = agent(model, planloopMiddleware({ config: { tools: { read: ["search"] } }, now: () => 1000 }), [search, deleteNote(deleted)]);
    const paused = await graph.invoke({ messages: [new HumanMessage("Delete the Q3 note")] }, config("t2"));
    const [request] = paused.__interrupt__;
    assert.deepEqual(request.value.actionRequests.map((a) => [a.name, a.args]), [["delete_note", { path: "q3.md" }]]);
    assert.deepEqual(request.value.reviewConfigs[0].allowedDecisions, ["approve", "edit", "reject"]);
    assert.deepEqual(deleted, []);
    const result = await graph.invoke(new Command({ resume: { decisions: [decision] } }), config("t2"));
    assert.deepEqual(deleted, expectDeleted);
    assert.equal(textOf(result.messages.at(-1)), "Done.");
    const answer = model.calls[1].messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "d1");
    assert.match(textOf(answer), expectSeen);
  });
}

test("LangChain: a pause survives a restart: a new middleware and agent over the same checkpointer resume it", async () => {
  const checkpointer = new MemorySaver();
  const deleted = [];
  const script = () => fakeModel().respondWithTools([{ name: "delete_note", args: { path: "q3.md" }, id: "d1" }]).respond(new AIMessage("Deleted."));
  const before = agent(script(), planloopMiddleware({ config: { tools: { read: ["search"] } }, now: () => 1000 }), [search, deleteNote(deleted)], checkpointer);
  await before.invoke({ messages: [new HumanMessage("Delete the Q3 note")] }, config("t3"));
  // Another process: nothing in memory but what the checkpointer kept.
  const model = fakeModel().respond(new AIMessage("Deleted."));
  const after = agent(model, planloopMiddleware({ config: { tools: { read: ["search"] } }, now: () => 5000 }), [search, deleteNote(deleted)], checkpointer);
  const result = await after.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config("t3"));
  assert.deepEqual(deleted, ["q3.md"]);
  assert.equal(textOf(result.messages.at(-1)), "Deleted.");
  const resolved = planloop.Session.restore(result.planloop.snapshot).proposals().map((p) => p.status);
  assert.ok(resolved.every((s) => s === "approved"));
});

test("LangChain: at the iteration limit the run ends with planloop's pause summary", async () => {
  const model = fakeModel()
    .respondWithTools([{ name: "search", args: { query: "a" }, id: "s1" }])
    .respondWithTools([{ name: "search", args: { query: "b" }, id: "s2" }]);
  const result = await agent(model, planloopMiddleware({ config: { maxIterations: 2, tools: { read: ["search"] } }, now: () => 1000 })).invoke({ messages: [new HumanMessage("Search everything")] }, config("t4"));
  const last = result.messages.at(-1);
  assert.match(textOf(last), /iteration limit/);
  assert.equal(last.tool_calls?.length ?? 0, 0);
  assert.equal(model.callCount, 2);
  // The last iteration is offered no tools.
  assert.equal(model.calls[1].options.tools?.length ?? 0, 0);
});

test("LangChain: planloop's events reach the agent's custom stream; LangChain's own todo shape is a dialect", async () => {
  const langchainTodos = { todos: [{ content: "Find the Q3 note", status: "completed" }, { content: "Summarize it", status: "completed" }] };
  const model = fakeModel().respondWithTools([{ name: "write_todos", args: langchainTodos, id: "c1" }]).respond(new AIMessage("Q3 revenue rose 4%."));
  const middleware = planloopMiddleware({ config: { todoDialects: ["langchain_write_todos"] }, now: () => 1000 });
  const events = [];
  for await (const chunk of await agent(model, middleware).stream({ messages: [new HumanMessage("Summarize the Q3 note")] }, { ...config("t5"), streamMode: "custom" })) {
    if (chunk?.planloop) events.push(chunk.planloop.type);
  }
  assert.ok(events.includes("TodosUpdated"), events.join(", "));
  const answer = model.calls[1].messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "c1");
  assert.match(textOf(answer), /^Updated todo list to /);
});
