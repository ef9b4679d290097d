// planloop/openai-agents in an OpenAI Agents SDK run (`@openai/agents`), with the SDK's
// own scripted model (no network): a whole turn with a refused stop, the planner tools
// answered by planloop and its instructions given to the model, gated calls as
// needsApproval interruptions resolved with state.approve / state.reject after a
// RunState.toString() / fromString() round trip into a fresh planloop, and a pause.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Agent, RunState, run, tool } from "@openai/agents";
import { ScriptedModel, assistantMessage, functionCall } from "@openai/agents-core/testing";

import { createPlanloop } from "../../pkg/openai-agents.mjs";

const todos = (second) => ({ todos: [{ id: "find", content: "Find the Q3 note", status: "completed" }, { id: "write", content: "Summarize it", status: second }] });
const search = tool({ name: "search", description: "Search the notes", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false }, strict: false, execute: async () => "finance/q3.md" });
const textOf = (item) => (typeof item.content === "string" ? item.content : (item.content ?? []).map((p) => p.text ?? "").join(""));

function agent(planloop, model, tools = [search]) {
  return new Agent({ name: "Notes", instructions: "You are a notes assistant.", model: planloop.model(model), tools: planloop.tools(tools) });
}

test("OpenAI Agents SDK: the run goes on past a premature stop; planloop answers write_todos and gives the instructions", async () => {
  const planloop = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
  const model = new ScriptedModel([
    [functionCall("write_todos", todos("in_progress"), { callId: "c1" }), functionCall("search", { query: "Q3" }, { callId: "c2" })],
    [assistantMessage("I found it.")],
    [functionCall("write_todos", todos("completed"), { callId: "c3" })],
    [assistantMessage("Q3 revenue rose 4%.")],
  ]);
  const result = await run(agent(planloop, model), "Summarize the Q3 note");
  assert.equal(result.finalOutput, "Q3 revenue rose 4%.");
  assert.equal(model.calls.length, 4, "the refused stop went back to the model");
  const [first, second, third] = model.calls.map((c) => c.request);
  assert.match(first.systemInstructions, /^You are a notes assistant\./);
  assert.match(second.systemInstructions, /## Current plan[\s\S]*Summarize it/);
  assert.match(textOf(third.input.at(-1)), /^<plan-continuation>/);
  const results = second.input.filter((i) => i.type === "function_call_result");
  assert.match(results.find((i) => i.callId === "c1").output.text, /"ok":true,"revision":1/);
  assert.match(results.find((i) => i.callId === "c2").output.text, /finance\/q3\.md/);
  assert.deepEqual(first.tools.map((t) => t.name).sort(), ["plan", "plan_progress", "search", "write_todos"]);
  assert.equal(planloop.session.progress().completed, 2);
});

const deleteNote = (deleted) =>
  tool({ name: "delete_note", description: "Delete a note", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false }, strict: false, execute: async ({ path }) => (deleted.push(path), `deleted ${path}`) });

for (const approved of [true, false]) {
  test(`OpenAI Agents SDK: a gated call is an interruption; after RunState.toString()/fromString() into a fresh planloop, ${approved ? "state.approve runs it" : "state.reject tells the model why"}`, async () => {
    const deleted = [];
    const before = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
    const first = await run(agent(before, new ScriptedModel([[functionCall("delete_note", { path: "q3.md" }, { callId: "d1" })]]), [search, deleteNote(deleted)]), "Delete the Q3 note", { context: {} });
    assert.deepEqual(first.interruptions.map((i) => i.rawItem.name), ["delete_note"]);
    assert.deepEqual(deleted, []);
    const saved = first.state.toString();
    // Another process: a fresh planloop, the run state from its string.
    const after = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 5000 });
    // After the decision the model searches once more: the resolved call is handed over once only.
    const model = new ScriptedModel([[functionCall("search", { query: "Q3" }, { callId: "s1" })], [assistantMessage(approved ? "Deleted." : "Kept it.")]]);
    const resumedAgent = agent(after, model, [search, deleteNote(deleted)]);
    const state = await RunState.fromString(resumedAgent, saved);
    after.resume(state);
    const [interruption] = state.getInterruptions();
    if (approved) state.approve(interruption);
    else state.reject(interruption, { message: "Keep it: it is the only copy." });
    const result = await run(resumedAgent, state);
    assert.equal(result.finalOutput, approved ? "Deleted." : "Kept it.");
    assert.deepEqual(deleted, approved ? ["q3.md"] : []);
    const answer = model.calls[0].request.input.find((i) => i.type === "function_call_result" && i.callId === "d1");
    assert.match(answer.output.text, approved ? /deleted q3\.md/ : /rejected this action: Keep it: it is the only copy\./);
    const resolved = after.session.drainEvents().filter((e) => e.type === "ActionResolved");
    assert.deepEqual(resolved.map((e) => e.status), [approved ? "approved" : "rejected"]);
  });
}

test("OpenAI Agents SDK: at the iteration limit the run ends with planloop's pause summary", async () => {
  const planloop = createPlanloop({ config: { maxIterations: 2, tools: { read: ["search"] } }, now: () => 1000 });
  const model = new ScriptedModel([[functionCall("search", { query: "a" }, { callId: "s1" })], [functionCall("search", { query: "b" }, { callId: "s2" })]]);
  const result = await run(agent(planloop, model), "Search everything");
  assert.match(result.finalOutput, /iteration limit/);
  assert.equal(model.calls.length, 2);
  assert.deepEqual(model.calls[1].request.tools, []);
});

test("OpenAI Agents SDK: a run state planloop did not pause is refused by resume, saying why", async () => {
  // The tool's own needsApproval pauses the run; planloop classes the call as a read.
  const asked = tool({ name: "search", description: "Search the notes", parameters: { type: "object", properties: {}, additionalProperties: false }, strict: false, needsApproval: true, execute: async () => "found" });
  const planloop = createPlanloop({ config: { tools: { read: ["search"] } } });
  const first = await run(agent(planloop, new ScriptedModel([[functionCall("search", {}, { callId: "s1" })]]), [asked]), "Search");
  assert.equal(first.interruptions.length, 1);
  const state = await RunState.fromString(agent(createPlanloop(), new ScriptedModel([]), [asked]), first.state.toString());
  assert.throws(() => createPlanloop().resume(state), /carries no planloop state/);
});

test("OpenAI Agents SDK: streaming is refused with a clear error, not a silent bypass", async () => {
  const planloop = createPlanloop();
  await assert.rejects(async () => {
    const streamed = await run(agent(planloop, new ScriptedModel([[assistantMessage("hi")]])), "hi", { stream: true });
    await streamed.completed;
  }, /run without `stream: true`/);
});
