// The budget ledger through each middleware and the reference runner, filled from the
// framework's own usage fields, with each framework's fake models (no network): the
// turn's and the session's tallies after a run (generated and streamed where the
// framework has both), `maxTokens` hit mid-turn (planloop's pause summary is the run's
// last text, the next calls do not run), and a provider's odd counts left out.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as ai7 from "ai";
import { MockLanguageModelV4 } from "ai/test";
import * as ai6 from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";
import { tool as lcTool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { AIMessage, HumanMessage, createAgent, fakeModel } from "langchain";
import { Agent, Usage, run, tool as agentsTool } from "@openai/agents";
import { ScriptedModel, assistantMessage, functionCall } from "@openai/agents-core/testing";

import { createPlanloop as createPlanloop7 } from "../../pkg/ai-sdk.mjs";
import { planloopMiddleware } from "../../pkg/langchain.mjs";
import { createPlanloop as createAgentsPlanloop } from "../../pkg/openai-agents.mjs";
import { ChainRunner } from "../../target/www/runner/chain.js";
import { streamedText } from "./support/agents.mjs";
import { createPlanloop6, generated, scripted, streamed } from "./support/ai-sdk.mjs";
import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

const todos = (second) => ({ todos: [{ id: "find", content: "Find the Q3 note", status: "completed" }, { id: "write", content: "Summarize it", status: second }] });
const config = { tools: { read: ["search"] } };
/** A tally's counts (time is the host's clock: left out). */
const counts = ({ steps, inputTokens, outputTokens }) => ({ steps, inputTokens, outputTokens });
const ledgerOf = (session) => {
  const { turn, session: total } = session.progress().ledger;
  return { turn: counts(turn), session: counts(total) };
};
/** The turn paused at its token budget (`events`: the session's, unless the host drained them). */
function assertBudgetPause(session, text, events = session.drainEvents()) {
  assert.match(text, /token budget/);
  assert.deepEqual(session.snapshot().turn.ending, { how: "paused", words: text });
  assert.ok(events.some((e) => e.type === "TurnPaused" && e.reason === "budget_exhausted"), events.map((e) => e.type).join(", "));
  assert.ok(!events.some((e) => e.type === "TurnCompleted"));
}
/** Odd counts a provider may send, and what planloop keeps of them (`inputTokens` odd,
 * `outputTokens` 5): the odd count is left out, the run goes on. */
const ODD = [null, Number.NaN, -3, "12", 2.5, undefined, 2 ** 32];

// ---------------------------------------------------------------- AI SDK 7 and 6

const majors = [
  ["AI SDK 7", ai7, MockLanguageModelV4, async () => createPlanloop7],
  ["AI SDK 6", ai6, MockLanguageModelV3, () => createPlanloop6("middleware-ledger-v6")],
];
// Each response of the mocks reports 10 input and 5 output tokens (support/ai-sdk.mjs).
const TURN = [
  { calls: [["c1", "write_todos", todos("in_progress")], ["c2", "search", { query: "Q3" }]] },
  { text: "I found it." },
  { calls: [["c3", "write_todos", todos("completed")]] },
  { text: "Q3 revenue rose 4%." },
];

for (const [major, ai, Mock, load] of majors) {
  const searchTool = (ran = []) => ai.tool({ description: "Search the notes", inputSchema: ai.jsonSchema({ type: "object", properties: { query: { type: "string" } } }), execute: async ({ query }) => (ran.push(query), "finance/q3.md") });

  for (const streaming of [false, true]) {
    const how = streaming ? "streamText" : "generateText";
    const ask = async (options) => {
      if (!streaming) return (await ai.generateText(options)).text;
      const result = ai.streamText(options);
      for await (const _ of result.textStream);
      return await result.text;
    };

    test(`${major}, ${how}: the ledger sums the usage of each response; a second message starts a new turn tally`, async () => {
      const createPlanloop = await load();
      const pl = createPlanloop({ config, now: () => 1000 });
      const model = scripted(Mock, [...TURN, { text: "You're welcome." }]);
      const options = { model: ai.wrapLanguageModel({ model, middleware: pl.middleware }), tools: pl.tools({ search: searchTool() }), stopWhen: ai.stepCountIs(10) };
      assert.equal(await ask({ ...options, prompt: "Summarize the Q3 note" }), "Q3 revenue rose 4%.");
      assert.deepEqual(ledgerOf(pl.session), { turn: { steps: 4, inputTokens: 40, outputTokens: 20 }, session: { steps: 4, inputTokens: 40, outputTokens: 20 } });
      assert.deepEqual(pl.session.drainEvents().filter((e) => e.type === "TokensUsed").map((e) => [e.inputTokens, e.outputTokens]), [[10, 5], [10, 5], [10, 5], [10, 5]]);
      assert.equal(await ask({ ...options, prompt: "Thanks" }), "You're welcome.");
      assert.deepEqual(ledgerOf(pl.session), { turn: { steps: 1, inputTokens: 10, outputTokens: 5 }, session: { steps: 5, inputTokens: 50, outputTokens: 25 } });
    });

    test(`${major}, ${how}: at maxTokens the run ends with planloop's pause summary, the next calls not run`, async () => {
      const createPlanloop = await load();
      // 15 tokens a response: the third reaches 45 of 40.
      const pl = createPlanloop({ config: { ...config, maxTokens: 40 }, now: () => 1000 });
      const model = scripted(Mock, ["a", "b", "c", "d", "e"].map((q, i) => ({ calls: [[`s${i}`, "search", { query: q }]] })));
      const ran = [];
      const text = await ask({ model: ai.wrapLanguageModel({ model, middleware: pl.middleware }), prompt: "Search everything", tools: pl.tools({ search: searchTool(ran) }), stopWhen: ai.stepCountIs(10) });
      assert.deepEqual(ran, ["a", "b"], "the call of the response past the budget did not run");
      assert.equal((streaming ? model.doStreamCalls : model.doGenerateCalls).length, 3);
      assert.deepEqual(ledgerOf(pl.session).turn, { steps: 3, inputTokens: 30, outputTokens: 15 });
      assertBudgetPause(pl.session, text);
    });
  }

  test(`${major}: a provider's odd usage counts are left out, the run goes on`, async () => {
    const createPlanloop = await load();
    for (const odd of ODD) {
      const pl = createPlanloop({ config, now: () => 1000 });
      const usage = { inputTokens: { total: odd }, outputTokens: { total: 5 } };
      const model = new Mock({ doGenerate: async () => ({ ...generated({ text: "Done." }), usage }), doStream: async () => streamed({ text: "Done." }) });
      const result = await ai.generateText({ model: ai.wrapLanguageModel({ model, middleware: pl.middleware }), prompt: "Hello", tools: pl.tools({}) });
      assert.equal(result.text, "Done.", String(odd));
      assert.deepEqual(ledgerOf(pl.session).turn, { steps: 1, inputTokens: 0, outputTokens: 5 }, String(odd));
    }
    // No counts at all, in the stream's finish part: no usage, the response still counted as a step.
    const pl = createPlanloop({ config, now: () => 1000 });
    const parts = [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Done." }, { type: "text-end", id: "t" }, { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage: { inputTokens: { total: undefined }, outputTokens: { total: undefined } } }];
    const model = new Mock({ doStream: async () => ({ stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) }) });
    const result = ai.streamText({ model: ai.wrapLanguageModel({ model, middleware: pl.middleware }), prompt: "Hello", tools: pl.tools({}) });
    assert.equal(await result.text, "Done.");
    assert.deepEqual(ledgerOf(pl.session).turn, { steps: 1, inputTokens: 0, outputTokens: 0 });
    assert.ok(!pl.session.drainEvents().some((e) => e.type === "TokensUsed"));
  });
}

// ---------------------------------------------------------------- LangChain createAgent

const lcSearch = (ran = []) => lcTool(async ({ query }) => (ran.push(query), "finance/q3.md"), { name: "search", description: "Search the notes", schema: { type: "object", properties: { query: { type: "string" } } } });
const thread = (id) => ({ configurable: { thread_id: id } });
let lcId = 0;
/** An AI message as a provider's chat model returns it, with its `usage_metadata`. */
const aiMessage = (content, calls, input_tokens, output_tokens) =>
  new AIMessage({ id: `m${++lcId}`, content, ...(calls ? { tool_calls: calls.map(([id, name, args]) => ({ id, name, args, type: "tool_call" })) } : {}), usage_metadata: { input_tokens, output_tokens, total_tokens: 0 } });
const lcAgent = (model, middleware, ran, checkpointer = new MemorySaver()) => createAgent({ model, tools: [lcSearch(ran)], middleware: [middleware], checkpointer });
const lcText = (message) => (typeof message.content === "string" ? message.content : message.content.map((b) => b.text ?? "").join(""));

test("LangChain createAgent: the ledger sums usage_metadata; a second message, after a restart, starts a new turn tally", async () => {
  const checkpointer = new MemorySaver();
  const model = fakeModel()
    .respond(aiMessage("", [["c1", "write_todos", todos("in_progress")], ["c2", "search", { query: "Q3" }]], 100, 20))
    .respond(aiMessage("I found it.", null, 130, 4))
    .respond(aiMessage("", [["c3", "write_todos", todos("completed")]], 150, 30))
    .respond(aiMessage("Q3 revenue rose 4%.", null, 190, 8));
  const result = await lcAgent(model, planloopMiddleware({ config, now: () => 1000 }), [], checkpointer).invoke({ messages: [new HumanMessage("Summarize the Q3 note")] }, thread("l1"));
  assert.equal(lcText(result.messages.at(-1)), "Q3 revenue rose 4%.");
  const first = Session.restore(result.planloop.snapshot);
  assert.deepEqual(ledgerOf(first), { turn: { steps: 4, inputTokens: 570, outputTokens: 62 }, session: { steps: 4, inputTokens: 570, outputTokens: 62 } });
  // Another process: the session comes back from the checkpointer, its ledger with it.
  const later = fakeModel().respond(aiMessage("You're welcome.", null, 220, 6));
  const again = await lcAgent(later, planloopMiddleware({ config, now: () => 2000 }), [], checkpointer).invoke({ messages: [new HumanMessage("Thanks")] }, thread("l1"));
  assert.equal(lcText(again.messages.at(-1)), "You're welcome.");
  assert.deepEqual(ledgerOf(Session.restore(again.planloop.snapshot)), { turn: { steps: 1, inputTokens: 220, outputTokens: 6 }, session: { steps: 5, inputTokens: 790, outputTokens: 68 } });
});

test("LangChain: at maxTokens the run ends with planloop's pause summary, the next calls not run", async () => {
  const ran = [];
  const model = fakeModel()
    .respond(aiMessage("", [["s1", "search", { query: "a" }]], 300, 50))
    .respond(aiMessage("", [["s2", "search", { query: "b" }]], 400, 50))
    .respond(aiMessage("", [["s3", "search", { query: "c" }]], 500, 50));
  // planloop's events reach the agent's custom stream.
  const events = [];
  let result;
  const chunks = await lcAgent(model, planloopMiddleware({ config: { ...config, maxTokens: 800 }, now: () => 1000 }), ran).stream({ messages: [new HumanMessage("Search everything")] }, { ...thread("l2"), streamMode: ["custom", "values"] });
  for await (const [mode, chunk] of chunks) {
    if (mode === "custom" && chunk?.planloop) events.push(chunk.planloop);
    if (mode === "values") result = chunk;
  }
  const last = result.messages.at(-1);
  assert.equal(last.tool_calls?.length ?? 0, 0);
  assert.deepEqual(ran, ["a"]);
  assert.equal(model.callCount, 2);
  const session = Session.restore(result.planloop.snapshot);
  assert.deepEqual(ledgerOf(session).turn, { steps: 2, inputTokens: 700, outputTokens: 100 });
  assertBudgetPause(session, lcText(last), events);
});

test("LangChain: a provider's odd usage_metadata counts are left out, the run goes on", async () => {
  for (const [i, odd] of ODD.entries()) {
    const model = fakeModel().respond(aiMessage("Done.", null, odd, 5));
    const result = await lcAgent(model, planloopMiddleware({ config, now: () => 1000 })).invoke({ messages: [new HumanMessage("Hello")] }, thread(`odd${i}`));
    assert.equal(lcText(result.messages.at(-1)), "Done.", String(odd));
    assert.deepEqual(ledgerOf(Session.restore(result.planloop.snapshot)).turn, { steps: 1, inputTokens: 0, outputTokens: 5 }, String(odd));
  }
  // No usage_metadata at all.
  const model = fakeModel().respond(new AIMessage({ id: "bare", content: "Done." }));
  const result = await lcAgent(model, planloopMiddleware({ config, now: () => 1000 })).invoke({ messages: [new HumanMessage("Hello")] }, thread("bare"));
  assert.deepEqual(ledgerOf(Session.restore(result.planloop.snapshot)).turn, { steps: 1, inputTokens: 0, outputTokens: 0 });
});

// ---------------------------------------------------------------- OpenAI Agents SDK

const agentsSearch = (ran = []) =>
  agentsTool({ name: "search", description: "Search the notes", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false }, strict: false, execute: async ({ query }) => (ran.push(query), "finance/q3.md") });
/** A complete model response with the SDK's `Usage`. */
const answered = (output, inputTokens, outputTokens) => ({ output, usage: new Usage({ requests: 1, inputTokens, outputTokens }) });
const agentsAgent = (pl, model, ran) => new Agent({ name: "Notes", instructions: "You are a notes assistant.", model: pl.model(model), tools: pl.tools([agentsSearch(ran)]) });
const agentsRun = async (agent, input, stream) => {
  if (!stream) return (await run(agent, input)).finalOutput;
  return streamedText(await run(agent, input, { stream: true }));
};

for (const stream of [false, true]) {
  const how = stream ? "a streamed run (response_done's usage)" : "run (ModelResponse.usage)";

  test(`OpenAI Agents SDK, ${how}: the ledger sums the usage; a second message starts a new turn tally`, async () => {
    const pl = createAgentsPlanloop({ config, now: () => 1000 });
    const model = new ScriptedModel([
      answered([functionCall("write_todos", todos("in_progress"), { callId: "c1" }), functionCall("search", { query: "Q3" }, { callId: "c2" })], 100, 20),
      answered([assistantMessage("I found it. ")], 130, 4),
      answered([functionCall("write_todos", todos("completed"), { callId: "c3" })], 150, 30),
      answered([assistantMessage("Q3 revenue rose 4%.")], 190, 8),
      answered([assistantMessage("You're welcome.")], 220, 6),
    ]);
    const agent = agentsAgent(pl, model);
    assert.match(await agentsRun(agent, "Summarize the Q3 note", stream), /Q3 revenue rose 4%\.$/);
    assert.deepEqual(ledgerOf(pl.session), { turn: { steps: 4, inputTokens: 570, outputTokens: 62 }, session: { steps: 4, inputTokens: 570, outputTokens: 62 } });
    assert.equal(await agentsRun(agent, "Thanks", stream), "You're welcome.");
    assert.deepEqual(ledgerOf(pl.session), { turn: { steps: 1, inputTokens: 220, outputTokens: 6 }, session: { steps: 5, inputTokens: 790, outputTokens: 68 } });
  });

  test(`OpenAI Agents SDK, ${how}: at maxTokens the run ends with planloop's pause summary, the next calls not run`, async () => {
    const pl = createAgentsPlanloop({ config: { ...config, maxTokens: 800 }, now: () => 1000 });
    const model = new ScriptedModel(["a", "b", "c"].map((q, i) => answered([functionCall("search", { query: q }, { callId: `s${i}` })], 300 + 100 * i, 50)));
    const ran = [];
    const text = await agentsRun(agentsAgent(pl, model, ran), "Search everything", stream);
    assert.deepEqual(ran, ["a"]);
    assert.equal(model.calls.length, 2);
    assert.deepEqual(ledgerOf(pl.session).turn, { steps: 2, inputTokens: 700, outputTokens: 100 });
    assertBudgetPause(pl.session, text);
  });
}

test("OpenAI Agents SDK: a provider's odd usage counts are left out, the run goes on", async () => {
  for (const stream of [false, true]) {
    // (The SDK's own stream refuses a NaN or a string count in response_done, planloop or not.)
    for (const odd of stream ? ODD.filter((n) => typeof n !== "string" && !Number.isNaN(n)) : ODD) {
      const pl = createAgentsPlanloop({ config, now: () => 1000 });
      const usage = new Usage({ requests: 1, outputTokens: 5 });
      usage.inputTokens = odd; // as a provider's adapter may leave it
      const text = await agentsRun(agentsAgent(pl, new ScriptedModel([{ output: [assistantMessage("Done.")], usage }])), "Hello", stream);
      assert.equal(text, "Done.", String(odd));
      assert.deepEqual(ledgerOf(pl.session).turn, { steps: 1, inputTokens: 0, outputTokens: 5 }, `${odd}, stream: ${stream}`);
    }
  }
});

// ---------------------------------------------------------------- the reference runner

/** A ChatModel answering `script` in order ({text, toolCalls, usage} each), recording requests. */
function chatModel(script) {
  const requests = [];
  return {
    requests,
    async complete(request) {
      requests.push(request);
      const next = script[requests.length - 1];
      if (next === undefined) throw new Error("script exhausted");
      return next;
    },
  };
}
const runnerSearch = (ran = []) => ({ definition: { name: "search", description: "Search the notes", parameters: { type: "object", properties: { query: { type: "string" } } } }, run: ({ query }) => (ran.push(query), "finance/q3.md") });
const call = (id, name, args) => ({ id, name, args });

test("ChainRunner: the ledger sums the ChatModel's usage; a second message, after a restart, starts a new turn tally", async () => {
  let stored = null;
  const store = { load: () => stored, save: (text) => void (stored = text) };
  const model = chatModel([
    { text: null, toolCalls: [call("c1", "write_todos", todos("in_progress")), call("c2", "search", { query: "Q3" })], usage: { inputTokens: 100, outputTokens: 20 } },
    { text: "I found it.", usage: { inputTokens: 130, outputTokens: 4 } },
    { text: null, toolCalls: [call("c3", "write_todos", todos("completed"))], usage: { inputTokens: 150, outputTokens: 30 } },
    { text: "Q3 revenue rose 4%.", usage: { inputTokens: 190, outputTokens: 8 } },
  ]);
  const runner = new ChainRunner({ session: new Session(config), model, tools: [runnerSearch()], store, now: () => 1000 });
  assert.equal((await runner.send("Summarize the Q3 note")).answer, "Q3 revenue rose 4%.");
  assert.deepEqual(ledgerOf(runner.session), { turn: { steps: 4, inputTokens: 570, outputTokens: 62 }, session: { steps: 4, inputTokens: 570, outputTokens: 62 } });
  const later = new ChainRunner({ session: new Session(), model: chatModel([{ text: "You're welcome.", usage: { inputTokens: 220, outputTokens: 6 } }]), tools: [runnerSearch()], store, now: () => 2000 });
  assert.equal(await later.restore((snapshot) => Session.restore(snapshot)), true);
  assert.equal((await later.send("Thanks")).answer, "You're welcome.");
  assert.deepEqual(ledgerOf(later.session), { turn: { steps: 1, inputTokens: 220, outputTokens: 6 }, session: { steps: 5, inputTokens: 790, outputTokens: 68 } });
});

test("ChainRunner: at maxTokens the turn pauses as budget_exhausted, the next calls not run", async () => {
  const ran = [];
  const model = chatModel(["a", "b", "c"].map((q, i) => ({ text: null, toolCalls: [call(`s${i}`, "search", { query: q })], usage: { inputTokens: 300 + 100 * i, outputTokens: 50 } })));
  const events = [];
  const runner = new ChainRunner({ session: new Session({ ...config, maxTokens: 800 }), model, tools: [runnerSearch(ran)], onEvent: (e) => events.push(e), now: () => 1000 });
  const outcome = await runner.send("Search everything");
  assert.equal(outcome.type, "pause");
  assert.equal(outcome.exitReason, "budget_exhausted");
  assert.deepEqual(ran, ["a"]);
  assert.equal(model.requests.length, 2);
  assertBudgetPause(runner.session, outcome.summary, events);
});

test("ChainRunner: a ChatModel's odd usage counts are left out, the turn goes on", async () => {
  for (const odd of ODD) {
    const runner = new ChainRunner({ session: new Session(config), model: chatModel([{ text: "Done.", usage: { inputTokens: odd, outputTokens: 5 } }]), now: () => 1000 });
    assert.equal((await runner.send("Hello")).answer, "Done.", String(odd));
    assert.deepEqual(ledgerOf(runner.session).turn, { steps: 1, inputTokens: 0, outputTokens: 5 }, String(odd));
  }
});
