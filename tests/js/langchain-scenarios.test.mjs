// planloop/langchain as LangChain.js users run it: scenarios rewritten from LangChain's own
// tests and docs, on `createAgent` with LangChain's fake models (`fakeModel` from
// @langchain/core/testing, `FakeToolCallingModel` from langchain's agent tests) and
// `MemorySaver`, no network. Each names its source. Threads go on over several messages
// (summarised and trimmed on the way); pauses are answered with every kind of decision
// (malformed ones refused whole), several gated calls share one step, and a restart
// falls between a pause and its answer; LangChain's todo list, LangGraph's recursion
// limit, modelCallLimitMiddleware and unparseable tool arguments meet planloop's loop.
import assert from "node:assert/strict";
import { test } from "node:test";

import { tool } from "@langchain/core/tools";
import { Command, MemorySaver, REMOVE_ALL_MESSAGES } from "@langchain/langgraph";
import { RemoveMessage } from "@langchain/core/messages";
import { AIMessage, FakeToolCallingModel, HumanMessage, ToolMessage, createAgent, createMiddleware, fakeModel, modelCallLimitMiddleware, summarizationMiddleware } from "langchain";

import { planloopMiddleware } from "../../pkg/langchain.mjs";
import { planloop } from "./support/pkg.mjs";

const config = (thread) => ({ configurable: { thread_id: thread } });
const textOf = (message) => (typeof message.content === "string" ? message.content : message.content.map((b) => b.text ?? "").join(""));
const object = (properties) => ({ type: "object", properties: Object.fromEntries(properties.map((p) => [p, {}])) });

/** The tools of LangChain's HITL tests and of a notes app; `ran` lists the calls that ran. */
function toolbox() {
  const ran = [];
  const make = (name, answer, properties) => tool(async (args) => (ran.push([name, args]), answer(args)), { name, description: name, schema: object(properties) });
  const tools = [
    make("search", () => "finance/q3.md", ["query"]),
    make("calculator", ({ a, b }) => `${a} * ${b} = ${a * b}`, ["a", "b", "operation"]),
    make("write_file", ({ filename, content }) => `Successfully wrote ${String(content).length} characters to ${filename}`, ["filename", "content"]),
    make("archive_file", ({ filename }) => `Archived ${filename}`, ["filename"]),
  ];
  return { ran, tools };
}

const READS = { tools: { read: ["search", "calculator"] } };

function agentWith(model, { tools, middleware = [], checkpointer = new MemorySaver(), options = {}, inner = [] }) {
  const planloop = planloopMiddleware({ config: { ...READS, ...options }, now: () => 1000 });
  return createAgent({ model, tools, checkpointer, systemPrompt: "You are a helpful assistant.", middleware: [...middleware, planloop, ...inner] });
}

/** A middleware inside planloop's: it lists the tools each model call is offered. */
function offered() {
  const names = [];
  const middleware = createMiddleware({
    name: "Offered",
    wrapModelCall: (request, handler) => {
      names.push(request.tools.map((t) => t.name));
      return handler(request);
    },
  });
  return { names, middleware };
}

/** One run of the agent on a thread: its last state, planloop's events on the custom
 * stream, and the approval request it paused on (if it did). */
async function send(agent, input, thread, options = {}) {
  const events = [];
  let values;
  let request;
  for await (const [mode, chunk] of await agent.stream(input, { ...config(thread), ...options, streamMode: ["custom", "values"] })) {
    if (mode === "custom") events.push(chunk.planloop.type);
    else if (chunk.__interrupt__ !== undefined) request = chunk.__interrupt__[0].value;
    else values = chunk;
  }
  return { values, events, request };
}

const sessionOf = (values) => planloop.Session.restore(values.planloop.snapshot);
const count = (events, type) => events.filter((e) => e === type).length;

// ---------------------------------------------------------------------------------------
// Turns on one thread: one per message the user sends, whatever happened to the history.

// Source: docs.langchain.com/oss/javascript/langchain/short-term-memory ("Usage": a
// checkpointer and a thread_id, invoked again with the next message) and the agents docs'
// human-in-the-loop "continue". A second message after a finished turn, then a run that
// pauses at planloop's limit, then "continue" on the same thread.
test("LangChain thread: a second message after a finished turn, and \"continue\" after a pause, each open one turn", async () => {
  const { ran, tools } = toolbox();
  const model = fakeModel()
    .respondWithTools([{ name: "search", args: { query: "Q3" }, id: "s1" }])
    .respond(new AIMessage("The Q3 note is finance/q3.md."))
    .respondWithTools([{ name: "search", args: { query: "Q4" }, id: "s2" }])
    .respondWithTools([{ name: "search", args: { query: "Q4 draft" }, id: "s3" }])
    .respondWithTools([{ name: "search", args: { query: "Q4 final" }, id: "s4" }])
    .respond(new AIMessage("The Q4 note is finance/q4.md."));
  const agent = agentWith(model, { tools, options: { maxIterations: 2 } });
  const first = await send(agent, { messages: [new HumanMessage("Find the Q3 note")] }, "memory");
  assert.equal(textOf(first.values.messages.at(-1)), "The Q3 note is finance/q3.md.");
  const second = await send(agent, { messages: [new HumanMessage("And the Q4 one?")] }, "memory");
  assert.match(textOf(second.values.messages.at(-1)), /iteration limit/, "the second turn paused at planloop's limit");
  const third = await send(agent, { messages: [new HumanMessage("continue")] }, "memory");
  assert.equal(textOf(third.values.messages.at(-1)), "The Q4 note is finance/q4.md.");
  assert.deepEqual([first, second, third].map((r) => count(r.events, "TurnStarted")), [1, 1, 1]);
  assert.equal(sessionOf(third.values).snapshot().turns, 3);
  // The call the model made at the limit (s3) never ran; "continue" went on with the plan.
  assert.deepEqual(ran.map(([, args]) => args.query), ["Q3", "Q4", "Q4 final"]);
  // "continue" reached the model as planloop's resume of the paused work.
  assert.match(textOf(model.calls[4].messages.at(-1)), /^<resume>/);
});

/** Every human message the agent keeps that the user did not write. */
const sourced = (messages) => messages.filter((m) => HumanMessage.isInstance(m) && m.additional_kwargs?.lc_source !== undefined);

// Source: langchain's src/agents/middleware/tests/summarization.test.ts ("should trigger
// summarization when token count exceeds threshold", "should preserve AI/Tool message
// pairs together": the real middleware with a fake summarising model) and the
// short-term-memory docs' "Summarize messages". The summary is a human message that takes
// the id of the first message it replaces; once it replaces the message that opened the
// turn in progress, it must not open another.
test("LangChain thread: summarizationMiddleware shortens the history, between turns and inside one; each message opens one turn", async () => {
  const { ran, tools } = toolbox();
  const summariser = fakeModel();
  for (let i = 1; i <= 4; i++) summariser.respond(new AIMessage(`Summary ${i} of the notes found so far.`));
  const summarization = summarizationMiddleware({ model: summariser, trigger: { messages: 5 }, keep: { messages: 2 } });
  const model = fakeModel()
    .respondWithTools([{ name: "search", args: { query: "Q3" }, id: "s1" }])
    .respond(new AIMessage("The Q3 note is finance/q3.md."))
    .respondWithTools([{ name: "search", args: { query: "Q4" }, id: "s2" }])
    .respond(new AIMessage("The Q4 note is finance/q4.md."))
    .respondWithTools([{ name: "search", args: { query: "Q1" }, id: "s3" }])
    .respond(new AIMessage("The Q1 note is finance/q1.md."));
  const agent = agentWith(model, { tools, middleware: [summarization] });
  const runs = [];
  for (const text of ["Find the Q3 note", "And the Q4 one?", "And Q1?"]) runs.push(await send(agent, { messages: [new HumanMessage(text)] }, "summarised"));
  const last = runs.at(-1).values;
  assert.equal(textOf(last.messages.at(-1)), "The Q1 note is finance/q1.md.");
  assert.equal(summariser.callCount, 4, "the history was summarised at the start of turns 2 and 3, and inside each");
  assert.equal(sourced(last.messages).length, 1, "the thread holds the summary");
  // Inside turn 2 the model saw the summary in place of the user's message, and went on.
  const humans = (call) => model.calls[call].messages.filter((m) => HumanMessage.isInstance(m)).map(textOf);
  assert.deepEqual(humans(2).slice(-1), ["And the Q4 one?"]);
  assert.deepEqual(humans(3), ["Here is a summary of the conversation to date:\n\nSummary 2 of the notes found so far."]);
  assert.deepEqual(runs.map((r) => count(r.events, "TurnStarted")), [1, 1, 1]);
  assert.deepEqual(runs.map((r) => count(r.events, "TurnAbandoned")), [0, 0, 0]);
  assert.deepEqual(runs.map((r) => count(r.events, "TurnCompleted")), [1, 1, 1]);
  assert.equal(sessionOf(last).snapshot().turns, 3);
  assert.deepEqual(ran.map(([name]) => name), ["search", "search", "search"]);
});

// Source: docs.langchain.com/oss/javascript/langchain/short-term-memory ("Trim messages":
// a beforeModel middleware that keeps the first message and the last few, through
// RemoveMessage(REMOVE_ALL_MESSAGES)).
test("LangChain thread: a history trimmed before each model call keeps one turn per message", async () => {
  const { tools } = toolbox();
  const trim = createMiddleware({
    name: "TrimMessages",
    beforeModel: (state) => {
      const { messages } = state;
      if (messages.length <= 3) return undefined;
      const recent = messages.length % 2 === 0 ? messages.slice(-3) : messages.slice(-4);
      return { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), messages[0], ...recent] };
    },
  });
  const model = fakeModel()
    .respond(new AIMessage("Hi Bob."))
    .respond(new AIMessage("Noted: you like Q3 notes."))
    .respondWithTools([{ name: "search", args: { query: "Q3" }, id: "s1" }])
    .respond(new AIMessage("finance/q3.md"))
    .respond(new AIMessage("Your name is Bob."));
  const agent = agentWith(model, { tools, middleware: [trim] });
  const runs = [];
  for (const text of ["hi! I am Bob", "I like Q3 notes", "Find one", "what is my name?"]) runs.push(await send(agent, { messages: [new HumanMessage(text)] }, "trimmed"));
  assert.equal(textOf(runs.at(-1).values.messages.at(-1)), "Your name is Bob.");
  assert.ok(runs.at(-1).values.messages.length < 9, "the history was trimmed");
  assert.deepEqual(runs.map((r) => count(r.events, "TurnStarted")), [1, 1, 1, 1]);
  assert.deepEqual(runs.map((r) => count(r.events, "TurnAbandoned")), [0, 0, 0, 0]);
  assert.equal(sessionOf(runs.at(-1).values).snapshot().turns, 4);
});

// Source: langchain's createAgent middleware docs (an afterModel hook that adds a message
// and jumps back to the model: `jumpTo: "model"`). planloop's own nudge after a premature
// stop is such a human message; the tools the model then calls belong to the same turn.
test("LangChain thread: planloop's nudge is not the user's message: the turn goes on past it", async () => {
  const { tools } = toolbox();
  const todos = (status) => ({ todos: [{ id: "find", content: "Find the Q3 note", status: "completed" }, { id: "sum", content: "Summarize it", status }] });
  const model = fakeModel()
    .respondWithTools([{ name: "write_todos", args: todos("in_progress"), id: "t1" }, { name: "search", args: { query: "Q3" }, id: "s1" }])
    .respond(new AIMessage("I found it."))
    .respondWithTools([{ name: "write_todos", args: todos("completed"), id: "t2" }])
    .respond(new AIMessage("Q3 revenue rose 4%."));
  const { values, events } = await send(agentWith(model, { tools }), { messages: [new HumanMessage("Summarize the Q3 note")] }, "nudged");
  assert.equal(textOf(values.messages.at(-1)), "Q3 revenue rose 4%.");
  assert.equal(count(events, "TurnStarted"), 1, events.join(", "));
  assert.equal(count(events, "TurnAbandoned"), 0, events.join(", "));
  assert.equal(sourced(values.messages).length, 1, "the nudge is in the thread, marked as planloop's");
  assert.equal(sessionOf(values).snapshot().turns, 1);
  assert.equal(sessionOf(values).progress().completed, 2);
});

// ---------------------------------------------------------------------------------------
// Approvals, with the FakeToolCallingModel of LangChain's HITL tests: it answers each call
// with the next of its scripted tool calls (none: a text reply), cycling.

const write = (id, filename, content = `${filename} content`) => ({ id, name: "write_file", args: { filename, content } });

/** Answers a pause again after a refused decision: LangGraph keeps the answer a run was
 * resumed with, so the pause is taken up anew from the model's step first. */
async function reopen(agent, thread) {
  await agent.graph.updateState(config(thread), {}, "model_request");
}

const statuses = (values) => sessionOf(values).snapshot().proposals.map((p) => p.status);

// Source: langchain's src/agents/middleware/tests/hitl.test.ts: "should throw error when
// edited action is missing", "should throw error when edited action has invalid name",
// "... has invalid arguments", "should throw if response is not a string", "should not
// allow me to approve if I don't have approve in allowedDecisions" (an unexpected decision
// throws "Unexpected human decision"), with the decisions of the issue ("deny",
// "rejected", "ignore") and other garbage. Each is refused: the run throws, nothing ran,
// and the call still waits; answered again, it is rejected as a pending call is.
for (const [label, decision] of [
  ["type \"deny\"", { type: "deny" }],
  ["type \"rejected\"", { type: "rejected" }],
  ["type \"ignore\"", { type: "ignore" }],
  ["no type", { message: "no" }],
  ["a bare string", "approve"],
  ["null", null],
  ["an edit without editedAction", { type: "edit" }],
  ["an edit whose name is not a string", { type: "edit", editedAction: { name: 123, args: { filename: "test.txt", content: "test" } } }],
  ["an edit whose args are not an object", { type: "edit", editedAction: { name: "write_file", args: "not an object" } }],
  ["a rejection whose message is not a string", { type: "reject", message: { action: "write_file", args: "File operation not allowed" } }],
]) {
  test(`LangChain approvals: a decision with ${label} is refused; nothing runs and the call still waits`, async () => {
    const { ran, tools } = toolbox();
    const model = new FakeToolCallingModel({ toolCalls: [[write("call_1", "test.txt")], []] });
    const agent = agentWith(model, { tools });
    const thread = `malformed ${label}`;
    const { request } = await send(agent, { messages: [new HumanMessage("Write test file")] }, thread);
    assert.deepEqual(request.actionRequests.map((a) => a.name), ["write_file"]);
    await assert.rejects(agent.invoke(new Command({ resume: { decisions: [decision] } }), config(thread)), /unexpected human decision 1 of 1 \(on `write_file`\)/);
    assert.deepEqual(ran, []);
    // The thread is still at the pause, its request unanswered.
    const paused = (await agent.graph.getState(config(thread))).tasks.flatMap((t) => t.interrupts.map((i) => i.value.actionRequests[0].name));
    assert.deepEqual(paused, ["write_file"]);
    await reopen(agent, thread);
    const result = await agent.invoke(new Command({ resume: { decisions: [{ type: "reject", message: "Not now." }] } }), config(thread));
    assert.deepEqual(ran, []);
    assert.deepEqual(statuses(result), ["rejected"]);
    const answer = result.messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "call_1");
    assert.match(textOf(answer), /rejected this action: Not now\./);
  });
}

// Source: hitl.test.ts, "should throw if not all tool calls have a response", "should
// throw error when decisions array is not provided", "... is not an array".
for (const [label, resume] of [
  ["one decision for two calls", { decisions: [{ type: "approve" }] }],
  ["no decisions", {}],
  ["decisions that are not an array", { decisions: "not an array" }],
]) {
  test(`LangChain approvals: resuming with ${label} is refused and nothing runs`, async () => {
    const { ran, tools } = toolbox();
    const model = new FakeToolCallingModel({ toolCalls: [[write("call_1", "a.txt"), write("call_2", "b.txt")], []] });
    const agent = agentWith(model, { tools });
    await send(agent, { messages: [new HumanMessage("Write two files")] }, label);
    await assert.rejects(agent.invoke(new Command({ resume }), config(label)), /one decision per paused call \(2\)/);
    assert.deepEqual(ran, []);
  });
}

// Source: hitl.test.ts, "should execute approved tools while returning rejection messages
// for rejected tools", turned around: a malformed decision after a valid one. The valid
// one must not be applied before the malformed one is found.
for (const [label, malformed] of [
  ["an unknown type", { type: "deny" }],
  ["an edit without editedAction", { type: "edit" }],
]) {
  test(`LangChain approvals: ${label} after a valid decision refuses both; answered again, each applies`, async () => {
    const { ran, tools } = toolbox();
    const model = new FakeToolCallingModel({ toolCalls: [[write("call_1", "a.txt"), write("call_2", "b.txt")], []] });
    const agent = agentWith(model, { tools });
    const thread = `halfway ${label}`;
    const { request } = await send(agent, { messages: [new HumanMessage("Write two files")] }, thread);
    assert.equal(request.actionRequests.length, 2);
    await assert.rejects(agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }, malformed] } }), config(thread)), /unexpected human decision 2 of 2/);
    assert.deepEqual(ran, []);
    await reopen(agent, thread);
    const result = await agent.invoke(new Command({ resume: { decisions: [{ type: "reject", message: "Not a.txt." }, { type: "approve" }] } }), config(thread));
    assert.deepEqual(ran.map(([, args]) => args.filename), ["b.txt"]);
    assert.deepEqual(statuses(result), ["rejected", "approved"]);
  });
}

// The same, where the session refuses the second decision: edited arguments deeper than
// planloop takes (64 levels). The approval before it, applied in memory, is dropped with
// the failed step, so the pause is answered again whole.
test("LangChain approvals: a decision the session refuses after a valid one leaves both calls waiting", async () => {
  const { ran, tools } = toolbox();
  const model = new FakeToolCallingModel({ toolCalls: [[write("call_1", "a.txt"), write("call_2", "b.txt")], []] });
  const agent = agentWith(model, { tools });
  await send(agent, { messages: [new HumanMessage("Write two files")] }, "deep");
  let deep = { content: "x" };
  for (let i = 0; i < 100; i++) deep = { nested: deep };
  const edit = { type: "edit", editedAction: { name: "write_file", args: { filename: "b.txt", content: deep } } };
  await assert.rejects(agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }, edit] } }), config("deep")), /at most 64 levels/);
  assert.deepEqual(ran, []);
  await reopen(agent, "deep");
  const result = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }, { type: "reject" }] } }), config("deep"));
  assert.deepEqual(ran.map(([, args]) => args.filename), ["a.txt"]);
  assert.deepEqual(statuses(result), ["approved", "rejected"]);
});

// Source: hitl.test.ts, "should handle edit response type" (an edit carries the tool's
// name with its arguments), with a name changed: write_file edited into archive_file. The
// call planloop gated and showed was write_file; a renamed call is refused, and nothing
// runs. Rejected with a message naming archive_file, the model calls archive_file, which
// planloop gates and shows on its own.
test("LangChain approvals: an edit that renames the tool is refused; the renamed tool, called by the model, is reviewed on its own", async () => {
  const { ran, tools } = toolbox();
  const model = new FakeToolCallingModel({ toolCalls: [[write("call_1", "report.txt")], [{ id: "call_2", name: "archive_file", args: { filename: "report.txt" } }], []] });
  const agent = agentWith(model, { tools });
  await send(agent, { messages: [new HumanMessage("Save the report")] }, "rename");
  const rename = { type: "edit", editedAction: { name: "archive_file", args: { filename: "report.txt" } } };
  await assert.rejects(agent.invoke(new Command({ resume: { decisions: [rename] } }), config("rename")), /cannot rename the call to "archive_file"/);
  assert.deepEqual(ran, []);
  await reopen(agent, "rename");
  const next = await send(agent, new Command({ resume: { decisions: [{ type: "reject", message: "Archive it instead." }] } }), "rename");
  assert.deepEqual(ran, []);
  assert.deepEqual(next.request.actionRequests.map((a) => [a.name, a.args]), [["archive_file", { filename: "report.txt" }]]);
  const result = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config("rename"));
  assert.deepEqual(ran, [["archive_file", { filename: "report.txt" }]]);
  assert.deepEqual(sessionOf(result).snapshot().proposals.map((p) => [p.tool, p.status]), [["write_file", "rejected"], ["archive_file", "approved"]]);
});

// ---------------------------------------------------------------------------------------
// LangChain's HITL scenarios, with planloop as the gate: search and calculator are reads,
// write_file and archive_file pause for approval.

const named = (ran) => ran.map(([name, args]) => `${name} ${args.filename ?? `${args.a}${args.operation === "add" ? "+" : "*"}${args.b}`}`);
const calc = (id, a, b, operation = "add") => ({ id, name: "calculator", args: { a, b, operation } });

// Source: hitl.test.ts, "should auto-approve safe tools and interrupt for tools requiring
// approval": a read runs on its own in one turn; in the next turn on the same thread a
// write pauses, and runs once approved.
test("LangChain HITL: a read runs unasked; a write in the next turn pauses, and runs once approved", async () => {
  const { ran, tools } = toolbox();
  const model = new FakeToolCallingModel({ toolCalls: [[calc("call_1", 42, 17, "multiply")], [], [write("call_2", "greeting.txt", "Hello World")], []] });
  const agent = agentWith(model, { tools });
  const first = await send(agent, { messages: [new HumanMessage("Calculate 42 * 17")] }, "hitl");
  assert.equal(first.request, undefined);
  assert.deepEqual(named(ran), ["calculator 42*17"]);
  assert.ok(first.values.messages.some((m) => ToolMessage.isInstance(m) && textOf(m).includes("42 * 17 = 714")));
  const second = await send(agent, { messages: [new HumanMessage("Write 'Hello World' to greeting.txt")] }, "hitl");
  // The request has humanInTheLoopMiddleware's shape; its description is planloop's line.
  assert.deepEqual(second.request.actionRequests, [{ name: "write_file", args: { filename: "greeting.txt", content: "Hello World" }, description: "write_file: Hello World" }]);
  assert.deepEqual(second.request.reviewConfigs, [{ actionName: "write_file", allowedDecisions: ["approve", "edit", "reject"] }]);
  assert.deepEqual(named(ran), ["calculator 42*17"], "the write waits");
  const done = await send(agent, new Command({ resume: { decisions: [{ type: "approve" }] } }), "hitl");
  assert.deepEqual(named(ran), ["calculator 42*17", "write_file greeting.txt"]);
  const answer = done.values.messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "call_2");
  assert.match(textOf(answer), /Successfully wrote 11 characters to greeting\.txt/);
  assert.deepEqual([first, second, done].map((r) => count(r.events, "TurnStarted")), [1, 1, 0]);
  assert.equal(count(done.events, "TurnCompleted"), 1);
});

// Source: hitl.test.ts, "should handle edit response type".
test("LangChain HITL: an edit runs the call with the edited arguments, and planloop's record says so", async () => {
  const { ran, tools } = toolbox();
  const model = new FakeToolCallingModel({ toolCalls: [[write("call_1", "dangerous.txt", "Dangerous content")], []] });
  const agent = agentWith(model, { tools });
  await send(agent, { messages: [new HumanMessage("Write dangerous content")] }, "edit");
  const edit = { type: "edit", editedAction: { name: "write_file", args: { filename: "safe.txt", content: "Safe content" } } };
  const result = await agent.invoke(new Command({ resume: { decisions: [edit] } }), config("edit"));
  assert.deepEqual(ran, [["write_file", { filename: "safe.txt", content: "Safe content" }]]);
  const [proposal] = sessionOf(result).snapshot().proposals;
  assert.deepEqual([proposal.status, proposal.args], ["approved", { filename: "safe.txt", content: "Safe content" }]);
  assert.equal(proposal.justification, "write_file: Safe content");
});

// Source: hitl.test.ts, "should execute approved tools while returning rejection messages
// for rejected tools": two gated calls in one step, one approved, one rejected.
test("LangChain HITL: two gated calls in one step: the approved one runs, the rejected one is answered with the reason", async () => {
  const { ran, tools } = toolbox();
  const model = new FakeToolCallingModel({ toolCalls: [[calc("call_1", 5, 5), write("call_2", "approved.txt", "approved")], []] });
  const agent = createAgent({ model, tools, checkpointer: new MemorySaver(), middleware: [planloopMiddleware({ now: () => 1000 })] });
  const { request } = await send(agent, { messages: [new HumanMessage("Calculate 5+5 and write to file")] }, "mixed");
  assert.deepEqual(request.actionRequests.map((a) => a.name), ["calculator", "write_file"]);
  const result = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }, { type: "reject", message: "File write not allowed" }] } }), config("mixed"));
  assert.deepEqual(named(ran), ["calculator 5+5"]);
  const answers = result.messages.filter((m) => ToolMessage.isInstance(m));
  const rejected = answers.find((m) => m.tool_call_id === "call_2");
  assert.equal(rejected.status, "error");
  assert.equal(rejected.name, "write_file");
  assert.match(textOf(rejected), /rejected this action: File write not allowed/);
  // The AI message keeps both calls, as the model made them.
  const ai = result.messages.find((m) => AIMessage.isInstance(m) && m.tool_calls?.length === 2);
  assert.deepEqual(ai.tool_calls.map((c) => [c.id, c.name]), [["call_1", "calculator"], ["call_2", "write_file"]]);
});

// Source: hitl.test.ts, "should handle manual response type" and "should generate default
// rejection message when message is not provided".
for (const [label, decision, expected] of [
  ["its message", { type: "reject", message: "File operation not allowed in demo mode" }, /rejected this action: File operation not allowed in demo mode/],
  ["planloop's default message", { type: "reject" }, /rejected this action/],
]) {
  test(`LangChain HITL: a rejection answers the call with ${label}; the tool does not run`, async () => {
    const { ran, tools } = toolbox();
    const model = new FakeToolCallingModel({ toolCalls: [[write("call_1", "manual.txt")], []] });
    const agent = agentWith(model, { tools });
    await send(agent, { messages: [new HumanMessage("Write to manual file")] }, "manual");
    const result = await agent.invoke(new Command({ resume: { decisions: [decision] } }), config("manual"));
    assert.deepEqual(ran, []);
    const answer = result.messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "call_1");
    assert.match(textOf(answer), expected);
    // The model read the rejection.
    assert.ok(result.messages.at(-1).content.includes(textOf(answer)));
  });
}

// Source: hitl.test.ts, "should allow to interrupt multiple tools at the same time":
// one request for both, answered with an approval and an edit.
test("LangChain HITL: several gated calls pause together; an approval and an edit each apply to their call", async () => {
  const { ran, tools } = toolbox();
  const model = new FakeToolCallingModel({ toolCalls: [[calc("call_1", 42, 17, "multiply"), write("call_2", "greeting.txt", "Hello World")], []] });
  const agent = createAgent({ model, tools, checkpointer: new MemorySaver(), middleware: [planloopMiddleware({ now: () => 1000 })] });
  const { request } = await send(agent, { messages: [new HumanMessage("Calculate 42 * 17 and write to greeting.txt")] }, "both");
  assert.deepEqual(ran, []);
  const decisions = request.actionRequests.map((action) =>
    action.name === "calculator" ? { type: "approve" } : { type: "edit", editedAction: { name: "write_file", args: { filename: "safe.txt", content: "Safe content" } } },
  );
  await agent.invoke(new Command({ resume: { decisions } }), config("both"));
  assert.deepEqual(named(ran), ["calculator 42*17", "write_file safe.txt"]);
});

// Source: hitl.test.ts, "tool call ordering": "should preserve original order when mixing
// auto-approved and interrupt tool calls", "... when some interrupt calls are rejected",
// "... when editing interrupt tool calls". Reads and writes interleaved in one step: only
// the writes are asked about, in their order; the calls keep the model's order.
for (const [label, decisions, expected] of [
  ["both approved", [{ type: "approve" }, { type: "approve" }], ["calculator 1+2", "write_file file1.txt", "calculator 3+4", "write_file file2.txt"]],
  ["the second rejected", [{ type: "approve" }, { type: "reject", message: "File 2 not allowed" }], ["calculator 1+2", "write_file file1.txt", "calculator 3+4"]],
  ["the first edited", [{ type: "edit", editedAction: { name: "write_file", args: { filename: "edited1.txt", content: "Edited 1" } } }, { type: "approve" }], ["calculator 1+2", "write_file edited1.txt", "calculator 3+4", "write_file file2.txt"]],
]) {
  test(`LangChain HITL: reads and writes interleaved in one step keep their order (${label})`, async () => {
    const { ran, tools } = toolbox();
    const model = new FakeToolCallingModel({ toolCalls: [[calc("call_1", 1, 2), write("call_2", "file1.txt"), calc("call_3", 3, 4), write("call_4", "file2.txt")], []] });
    const agent = agentWith(model, { tools });
    const { request } = await send(agent, { messages: [new HumanMessage("Calculate 1+2, write file1, calculate 3+4, write file2")] }, "order");
    assert.deepEqual(request.actionRequests.map((a) => a.args.filename), ["file1.txt", "file2.txt"]);
    assert.deepEqual(ran, [], "nothing runs before the decisions, reads included");
    const result = await agent.invoke(new Command({ resume: { decisions } }), config("order"));
    assert.deepEqual(named(ran), expected);
    const ai = result.messages.find((m) => AIMessage.isInstance(m) && m.tool_calls?.length === 4);
    assert.deepEqual(ai.tool_calls.map((c) => c.id), ["call_1", "call_2", "call_3", "call_4"]);
    if (label === "the second rejected") assert.match(textOf(result.messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "call_4")), /File 2 not allowed/);
  });
}

// Source: hitl.test.ts, "when predicate" ("auto-approves the tool call when `when`
// returns false", "interrupts for the tool call when `when` returns true"): planloop's
// rules class a call by its arguments.
test("LangChain HITL: a rule classes a call by its arguments: a write to scratch.txt runs, one to danger.txt pauses", async () => {
  const { ran, tools } = toolbox();
  const model = new FakeToolCallingModel({ toolCalls: [[write("call_1", "scratch.txt")], [], [write("call_2", "danger.txt")], []] });
  const rules = [{ tool: "write_file", argument: "filename", prefixes: ["scratch.txt"], class: "read" }];
  const agent = agentWith(model, { tools, options: { tools: { read: ["search", "calculator"], rules } } });
  const safe = await send(agent, { messages: [new HumanMessage("Write to scratch.txt")] }, "when");
  assert.equal(safe.request, undefined);
  assert.deepEqual(named(ran), ["write_file scratch.txt"]);
  const danger = await send(agent, { messages: [new HumanMessage("Write to danger.txt")] }, "when");
  assert.deepEqual(danger.request.actionRequests.map((a) => a.args.filename), ["danger.txt"]);
  assert.deepEqual(named(ran), ["write_file scratch.txt"]);
});

// Source: hitl.test.ts's checkpointer-backed resumes, with a restart between the pause and
// its answer (LangGraph's persistence docs: the interrupt is in the checkpoint): a new
// model, middleware and agent over the same MemorySaver take the edit, then a second turn.
test("LangChain HITL: a restart between the pause and its answer: the new agent applies the edit and takes the next turn", async () => {
  const checkpointer = new MemorySaver();
  const before = toolbox();
  const paused = await send(agentWith(new FakeToolCallingModel({ toolCalls: [[write("call_1", "draft.txt")]] }), { tools: before.tools, checkpointer }), { messages: [new HumanMessage("Save the draft")] }, "restart");
  assert.deepEqual(paused.request.actionRequests.map((a) => a.name), ["write_file"]);
  // Another process: a model whose replies go on from the first one's (ids "1", "2", …).
  const after = toolbox();
  const model = new FakeToolCallingModel({ toolCalls: [[], [], [{ id: "call_2", name: "search", args: { query: "Q4" } }], []], index: 1 });
  const agent = agentWith(model, { tools: after.tools, checkpointer });
  const edit = { type: "edit", editedAction: { name: "write_file", args: { filename: "final.txt", content: "Final" } } };
  const resumed = await send(agent, new Command({ resume: { decisions: [edit] } }), "restart");
  assert.deepEqual(before.ran, []);
  assert.deepEqual(after.ran, [["write_file", { filename: "final.txt", content: "Final" }]]);
  assert.equal(count(resumed.events, "TurnCompleted"), 1);
  const next = await send(agent, { messages: [new HumanMessage("Now find the Q4 note")] }, "restart");
  assert.deepEqual(after.ran.at(-1), ["search", { query: "Q4" }]);
  assert.equal(count(next.events, "TurnStarted"), 1);
  assert.equal(count(next.events, "TurnCompleted"), 1);
  const snapshot = sessionOf(next.values).snapshot();
  assert.equal(snapshot.turns, 2);
  assert.deepEqual(snapshot.proposals.map((p) => [p.status, p.args.filename]), [["approved", "final.txt"]]);
});

// ---------------------------------------------------------------------------------------
// LangChain's todoListMiddleware scenarios, with planloop answering LangChain's write_todos.

const TODOS = { todoDialects: ["langchain_write_todos"] };

// Source: langchain's src/agents/middleware/tests/todoList.test.ts, "should add the system
// prompt to the model request": the agent's own prompt first, then the planner's.
test("LangChain todos: the agent's system prompt comes first, planloop's planning rules after it, with write_todos offered", async () => {
  const { tools } = toolbox();
  const model = fakeModel().respond(new AIMessage("Hello!"));
  const seen = offered();
  const { values } = await send(agentWith(model, { tools, options: TODOS, inner: [seen.middleware] }), { messages: [new HumanMessage("Hello, world!")] }, "prompt");
  assert.equal(textOf(values.messages.at(-1)), "Hello!");
  const [system] = model.calls[0].messages;
  assert.match(textOf(system), /^You are a helpful assistant\.\n\n[\s\S]*write_todos/);
  assert.deepEqual(seen.names, [["search", "calculator", "write_file", "archive_file", "write_todos", "plan", "plan_progress"]]);
});

// Source: todoList.test.ts, "parallel write_todos detection": "should reject parallel
// write_todos calls with error messages", "... even when mixed with other tools". Both
// write_todos calls are refused with an error; the other call runs; the turn goes on.
test("LangChain todos: write_todos called twice in one step is refused both times; a call beside them runs", async () => {
  const { ran, tools } = toolbox();
  const list = (content) => ({ todos: [{ content, status: "pending" }] });
  const model = fakeModel()
    .respondWithTools([{ name: "search", args: { query: "value" }, id: "call_other" }, { name: "write_todos", args: list("Task 1"), id: "call_1" }, { name: "write_todos", args: list("Task 2"), id: "call_2" }])
    .respond(new AIMessage("Done."));
  const { values, events } = await send(agentWith(model, { tools, options: TODOS }), { messages: [new HumanMessage("Hello")] }, "parallel");
  assert.deepEqual(ran.map(([name]) => name), ["search"]);
  const answers = model.calls[1].messages.filter((m) => ToolMessage.isInstance(m));
  const answer = (id) => answers.find((m) => m.tool_call_id === id);
  for (const id of ["call_1", "call_2"]) {
    assert.equal(answer(id).status, "error");
    assert.match(textOf(answer(id)), /planner was called more than once/);
  }
  assert.equal(answer("call_other").status, "success");
  assert.deepEqual(sessionOf(values).todos(), []);
  assert.equal(count(events, "TurnCompleted"), 1);
});

// ---------------------------------------------------------------------------------------
// Limits: LangGraph's recursionLimit, LangChain's modelCallLimitMiddleware, planloop's
// maxIterations. Whichever ends a run, the thread's next message opens one turn.

const searches = (model, n) => {
  for (let i = 1; i <= n; i++) model.respondWithTools([{ name: "search", args: { query: `q${i}` }, id: `s${i}` }]);
  return model;
};

// Source: LangGraph's recursion limit (docs.langchain.com/oss/javascript/langgraph/
// graph-api, "Recursion limit": GraphRecursionError once a run takes more steps).
test("LangChain limits: a run stopped by recursionLimit throws GraphRecursionError; the next message opens one turn", async () => {
  const { tools } = toolbox();
  const model = searches(fakeModel(), 5).respond(new AIMessage("Here is what I found."));
  const agent = agentWith(model, { tools });
  await assert.rejects(agent.invoke({ messages: [new HumanMessage("Search everything")] }, { ...config("recursion"), recursionLimit: 8 }), { name: "GraphRecursionError" });
  const stopped = model.callCount;
  assert.ok(stopped < 5, `${stopped} model calls`);
  // The scripted searches go on; then the answer.
  const next = await send(agent, { messages: [new HumanMessage("Go on, then answer")] }, "recursion");
  assert.equal(textOf(next.values.messages.at(-1)), "Here is what I found.");
  // The stopped turn is ended by the new message, which opens the next.
  assert.deepEqual(next.events.filter((e) => e.startsWith("Turn")), ["TurnAbandoned", "TurnStarted", "TurnCompleted"]);
  assert.equal(count(next.events, "TurnStarted"), 1);
  assert.equal(count(next.events, "TurnCompleted"), 1);
  assert.equal(sessionOf(next.values).snapshot().turns, 2);
});

// Source: langchain's src/agents/middleware/tests/modelCallLimit.test.ts (runLimit with
// exitBehavior "end": the run ends with the limit's message). The run's count is kept
// when the limit ends it, so the next message comes with a larger runLimit in the
// runtime context, as the middleware's context schema allows.
test("LangChain limits: modelCallLimitMiddleware ends a run first; the next message opens one turn", async () => {
  const { tools } = toolbox();
  const model = searches(fakeModel(), 2).respond(new AIMessage("Two searches done."));
  const agent = agentWith(model, { tools, middleware: [modelCallLimitMiddleware({ runLimit: 2, exitBehavior: "end" })] });
  const first = await send(agent, { messages: [new HumanMessage("Search twice")] }, "call limit");
  assert.match(textOf(first.values.messages.at(-1)), /Model call limits exceeded/);
  assert.equal(model.callCount, 2);
  assert.equal(count(first.events, "TurnCompleted"), 0, "the limit ended the run, not planloop");
  const next = await send(agent, { messages: [new HumanMessage("Sum it up")] }, "call limit", { context: { runLimit: 10 } });
  assert.equal(textOf(next.values.messages.at(-1)), "Two searches done.");
  assert.equal(count(next.events, "TurnStarted"), 1);
  assert.equal(count(next.events, "TurnCompleted"), 1);
});

// Source: the same recursion-limit docs, with planloop's maxIterations under
// recursionLimit: planloop ends the run first, with its summary, and the model is offered
// no tools on the last iteration.
test("LangChain limits: planloop's maxIterations ends the run before recursionLimit, with its summary", async () => {
  const { ran, tools } = toolbox();
  const model = searches(fakeModel(), 3);
  const seen = offered();
  const agent = agentWith(model, { tools, options: { maxIterations: 3 }, inner: [seen.middleware] });
  const result = await agent.invoke({ messages: [new HumanMessage("Search everything")] }, { ...config("max iterations"), recursionLimit: 50 });
  assert.match(textOf(result.messages.at(-1)), /iteration limit/);
  assert.equal(ran.length, 2);
  assert.deepEqual(seen.names.map((names) => names.length > 0), [true, true, false]);
});

// ---------------------------------------------------------------------------------------
// Source: @langchain/core's AIMessage `invalid_tool_calls` (docs.langchain.com/oss/
// javascript/langchain/messages, "Tool calls": a provider's arguments that are not JSON
// land there, not in `tool_calls`), which createAgent never runs. planloop follows: such a
// call neither runs nor pauses, and the empty reply is sent back to the model.
test("LangChain: a call whose arguments are not JSON neither runs nor pauses; the empty reply goes back to the model", async () => {
  const { ran, tools } = toolbox();
  const broken = new AIMessage({ content: "", invalid_tool_calls: [{ type: "invalid_tool_call", id: "w1", name: "write_file", args: '{"filename": "a.txt", ', error: "Malformed args." }] });
  const model = fakeModel().respond(broken).respond(new AIMessage("I could not write the file."));
  const { values, events, request } = await send(agentWith(model, { tools }), { messages: [new HumanMessage("Write a.txt")] }, "invalid json");
  assert.equal(request, undefined);
  assert.deepEqual(ran, []);
  assert.equal(textOf(values.messages.at(-1)), "I could not write the file.");
  assert.match(textOf(model.calls[1].messages.at(-1)), /empty/);
  assert.equal(count(events, "TurnCompleted"), 1);
});
