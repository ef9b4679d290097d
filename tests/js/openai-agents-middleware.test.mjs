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
import { streamedText } from "./support/agents.mjs";
import { Session } from "../../pkg/planloop.mjs";

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

// The tool's own needsApproval pauses the run (planloop classes the call as a read): the
// run context still carries planloop's state, so the plan written before the pause
// survives a restart, and resume takes it.
test("OpenAI Agents SDK: a run paused only by a tool's own needsApproval carries planloop's state; resume takes it", async () => {
  const asked = tool({ name: "search", description: "Search the notes", parameters: { type: "object", properties: {}, additionalProperties: false }, strict: false, needsApproval: true, execute: async () => "found" });
  const before = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
  const first = await run(agent(before, new ScriptedModel([[functionCall("write_todos", todos("in_progress"), { callId: "w1" }), functionCall("search", {}, { callId: "s1" })]]), [asked]), "Search");
  assert.deepEqual(first.interruptions.map((i) => i.rawItem.name), ["search"]);
  const saved = first.state.toString();
  const after = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 2000 });
  const model = new ScriptedModel([[functionCall("write_todos", todos("completed"), { callId: "w2" })], [assistantMessage("Found it.")]]);
  const resumedAgent = agent(after, model, [asked]);
  const state = await RunState.fromString(resumedAgent, saved);
  after.resume(state);
  assert.equal(after.session.todos().length, 2, "the plan written before the pause came back");
  state.approve(state.getInterruptions()[0]);
  const result = await run(resumedAgent, state);
  assert.equal(result.finalOutput, "Found it.");
  const answer = model.calls[0].request.input.find((i) => i.type === "function_call_result" && i.callId === "s1");
  assert.match(answer.output.text, /found/);
  assert.equal(after.session.progress().completed, 2);
});

test("OpenAI Agents SDK: resume is safe to call always: a run state carrying no planloop state changes nothing", async () => {
  // A frozen run context cannot carry planloop's state (nor can a run state saved before
  // planloop was added, or one restored with a context of the host's).
  const asked = tool({ name: "search", description: "Search the notes", parameters: { type: "object", properties: {}, additionalProperties: false }, strict: false, needsApproval: true, execute: async () => "found" });
  const first = await run(agent(createPlanloop({ config: { tools: { read: ["search"] } } }), new ScriptedModel([[functionCall("search", {}, { callId: "s1" })]]), [asked]), "Search", { context: Object.freeze({ user: "ada" }) });
  assert.equal(first.interruptions.length, 1);
  const planloop = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
  const model = new ScriptedModel([[assistantMessage("Found it.")]]);
  const resumedAgent = agent(planloop, model, [asked]);
  const state = await RunState.fromString(resumedAgent, first.state.toString());
  const before = JSON.stringify(planloop.snapshot());
  planloop.resume(state);
  assert.equal(JSON.stringify(planloop.snapshot()), before);
  state.approve(state.getInterruptions()[0]);
  assert.equal((await run(resumedAgent, state)).finalOutput, "Found it.");
});

// The bare SDK returns a parse error to the model for a malformed call to a tool whose
// needsApproval is not a function; for one that has an approval function it asks for
// approval (fail closed). planloop gives one only to the tools its policy can hold.
test("OpenAI Agents SDK: a malformed call to a read tool goes back to the model as a parse error; only gated tools pause", async () => {
  const deleted = [];
  const planloop = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
  const model = new ScriptedModel([[functionCall("search", '{"query": "Q3"', { callId: "s1" })], [functionCall("delete_note", '{"path": ', { callId: "d1" })]]);
  const result = await run(agent(planloop, model, [search, deleteNote(deleted)]), "Find the Q3 note and delete it");
  const parsed = model.calls[1].request.input.find((i) => i.type === "function_call_result" && i.callId === "s1");
  assert.match(parsed.output.text, /error occurred while parsing tool arguments/);
  assert.deepEqual(result.interruptions.map((i) => i.rawItem.callId), ["d1"], "the gated tool's malformed call is held, the read one was not");
  assert.deepEqual(deleted, []);
});

test("OpenAI Agents SDK: tools the policy never holds are handed to the SDK as given", () => {
  const planloop = createPlanloop({ config: { tools: { read: ["search"] } } });
  const remove = deleteNote([]);
  const [searchGiven, removeGiven] = planloop.tools([search, remove]);
  assert.equal(searchGiven, search);
  assert.notEqual(removeGiven, remove);
  assert.notEqual(removeGiven.needsApproval, remove.needsApproval);
});

test("OpenAI Agents SDK: a tool is left ungated exactly when the session holds none of its calls", () => {
  const rm = { tool: "t", argument: "command", prefixes: ["rm"], class: "approve" };
  const ls = { tool: "t", argument: "command", prefixes: ["ls"], class: "read" };
  const all = (cls) => ({ tool: "t", class: cls });
  // [policy, whether planloop leaves tool `t` as given]
  const cases = [
    [{}, false],
    [{ default: "read" }, true],
    [{ read: ["t"] }, true],
    [{ read: ["t"], approve: ["t"] }, false],
    [{ default: "read", approve: ["t"] }, false],
    [{ read: ["t"], rules: [rm] }, false],
    [{ rules: [ls] }, false],
    [{ rules: [all("read")] }, true],
    [{ rules: [all("read"), all("approve")] }, true],
    [{ rules: [ls, all("read")] }, true],
    [{ rules: [ls, all("approve")], read: ["t"] }, false],
    [{ default: "read", rules: [{ tool: "u", class: "approve" }] }, true],
  ];
  const calls = ["{}", '{"command":"ls"}', '{"command":"ls; rm x"}', '{"command":"rm -rf x"}', "{not json"];
  for (const [tools, ungated] of cases) {
    const given = tool({ name: "t", description: "T", parameters: { type: "object", properties: {}, additionalProperties: true }, strict: false, execute: async () => "" });
    assert.equal(createPlanloop({ config: { tools } }).tools([given])[0] === given, ungated, JSON.stringify(tools));
    const held = calls.filter((args) => {
      const session = new Session({ tools });
      session.beginTurn({ message: "go", nowMs: 1 });
      return session.handleModelResponse({ text: null, toolCalls: [{ id: "c", name: "t", args }] }, 2).type === "awaitApproval";
    });
    assert.equal(held.length === 0, ungated, `${JSON.stringify(tools)} holds ${held.join(" ")}`);
  }
});

test("OpenAI Agents SDK: resume refuses a run state whose session gates a tool planloop.tools() left ungated", async () => {
  const deleted = [];
  const first = await run(agent(createPlanloop(), new ScriptedModel([[functionCall("delete_note", { path: "a" }, { callId: "d1" })]]), [search, deleteNote(deleted)]), "Delete a");
  const planloop = createPlanloop({ config: { tools: { read: ["search", "delete_note"] } } });
  const resumedAgent = agent(planloop, new ScriptedModel([]), [search, deleteNote(deleted)]);
  const state = await RunState.fromString(resumedAgent, first.state.toString());
  const before = JSON.stringify(planloop.snapshot());
  assert.throws(() => planloop.resume(state), /can hold search, delete_note for approval, which planloop\.tools\(\) left ungated/);
  assert.equal(JSON.stringify(planloop.snapshot()), before, "the refused resume changed nothing");
});

test("OpenAI Agents SDK: a streamed run refuses a premature stop, the events streamed as they come", async () => {
  const planloop = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
  const model = new ScriptedModel([
    [functionCall("write_todos", todos("in_progress"), { callId: "c1" }), functionCall("search", { query: "Q3" }, { callId: "c2" })],
    [assistantMessage("I found it. ")],
    [functionCall("write_todos", todos("completed"), { callId: "c3" })],
    [assistantMessage("Q3 revenue rose 4%.")],
  ]);
  const streamed = await run(agent(planloop, model), "Summarize the Q3 note", { stream: true });
  assert.equal(await streamedText(streamed), "I found it. Q3 revenue rose 4%.");
  assert.equal(streamed.finalOutput, "Q3 revenue rose 4%.");
  assert.deepEqual(model.calls.map((c) => c.streamed), [true, true, true, true]);
  assert.match(textOf(model.calls[2].request.input.at(-1)), /^<plan-continuation>/, "the refused stop went back to the model");
  assert.equal(planloop.session.progress().completed, 2);
});

test("OpenAI Agents SDK: the wrapped model passes each streamed event on before planloop decides on the response", async () => {
  const planloop = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
  const model = planloop.model(new ScriptedModel([[assistantMessage("Hello")]]));
  const events = model.getStreamedResponse({ input: "Hi", modelSettings: {}, tools: [], outputType: { type: "text" }, handoffs: [], tracing: false })[Symbol.asyncIterator]();
  assert.equal((await events.next()).value.type, "response_started");
  const delta = (await events.next()).value;
  assert.deepEqual([delta.type, delta.delta], ["output_text_delta", "Hello"]);
  assert.equal(planloop.session.snapshot().turn.iterations, 0, "the response is not decided on yet");
  const done = (await events.next()).value;
  assert.equal(done.type, "response_done");
  assert.equal(planloop.session.snapshot().turn.open, false, "its end came after planloop's decision");
  assert.equal((await events.next()).done, true);
});

test("OpenAI Agents SDK: a streamed run interrupts a gated call; the resumed run streams on", async () => {
  const deleted = [];
  const planloop = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
  const model = new ScriptedModel([[functionCall("delete_note", { path: "q3.md" }, { callId: "d1" })], [assistantMessage("Deleted.")]]);
  const notes = agent(planloop, model, [search, deleteNote(deleted)]);
  const first = await run(notes, "Delete the Q3 note", { stream: true });
  await first.completed;
  assert.deepEqual(first.interruptions.map((i) => i.rawItem.callId), ["d1"]);
  assert.deepEqual(deleted, []);
  first.state.approve(first.interruptions[0]);
  const second = await run(notes, first.state, { stream: true });
  assert.equal(await streamedText(second), "Deleted.");
  assert.deepEqual(deleted, ["q3.md"]);
  assert.deepEqual(planloop.session.drainEvents().filter((e) => e.type === "ActionResolved").map((e) => e.status), ["approved"]);
});

test("OpenAI Agents SDK: at the iteration limit a streamed run ends with planloop's pause summary, streamed too", async () => {
  const planloop = createPlanloop({ config: { maxIterations: 2, tools: { read: ["search"] } }, now: () => 1000 });
  const model = new ScriptedModel([[functionCall("search", { query: "a" }, { callId: "s1" })], [functionCall("search", { query: "b" }, { callId: "s2" })]]);
  const streamed = await run(agent(planloop, model), "Search everything", { stream: true });
  const text = await streamedText(streamed);
  assert.match(streamed.finalOutput, /iteration limit/);
  assert.equal(text, streamed.finalOutput);
  assert.equal(model.calls.length, 2);
  assert.deepEqual(model.calls[1].request.tools, []);
});
