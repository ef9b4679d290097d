// Goals beside the checklist through each middleware and the reference runner, with each
// framework's fake models (no network): under `completion: {verify: "nudge"}` the model
// that stops with its list done is asked once to check the goal, and its next stop ends
// the run; under `"host"` the `verifyGoal` judge gets the goal, the answer and the
// evidence, a "not met" sends the model back with the reason, a "met" ends the run with
// the model's answer; "host" with no judge is refused when the middleware is made; a
// second message after a goal-checked turn, also after a restart, goes on.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as ai7 from "ai";
import { MockLanguageModelV4 } from "ai/test";
import * as ai6 from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";
import { tool as lcTool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { AIMessage, HumanMessage, createAgent, fakeModel } from "langchain";
import { Agent, run, tool as agentsTool } from "@openai/agents";
import { ScriptedModel, assistantMessage, functionCall } from "@openai/agents-core/testing";

import { createPlanloop as createPlanloop7 } from "../../pkg/ai-sdk.mjs";
import { planloopMiddleware } from "../../pkg/langchain.mjs";
import { createPlanloop as createAgentsPlanloop } from "../../pkg/openai-agents.mjs";
import { ChainRunner } from "../../target/www/runner/chain.js";
import { streamedText } from "./support/agents.mjs";
import { createPlanloop6, scripted } from "./support/ai-sdk.mjs";
import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

const GOAL = { statement: "Summarize the Q3 note accurately", criteria: ["The revenue figure is stated", "The source note is cited"] };
/** The goal of every message but a thank-you. */
const goal = (message) => (message === "Thanks" ? undefined : GOAL);
const nudging = { tools: { read: ["search"] }, completion: { verify: "nudge" } };
const hosting = { tools: { read: ["search"] }, completion: { verify: "host" } };
const REASON = "The source note is not cited";
const FIRST = "Q3 revenue rose 4%.";
const SECOND = "Q3 revenue rose 4% (finance/q3.md).";

const todos = (second) => ({ todos: [{ id: "find", content: "Find the Q3 note", status: "completed" }, { id: "write", content: "Summarize it", status: second }] });
/** A turn whose list is done before the model first stops: [text, calls] per response. */
const TURN = [
  [null, [["c1", "write_todos", todos("in_progress")], ["c2", "search", { query: "Q3" }]]],
  [null, [["c3", "write_todos", todos("completed")]]],
  [FIRST, []],
  [SECOND, []],
];

/** A judge that answers `verdicts` in order and keeps what it was asked. */
function judge(...verdicts) {
  const asked = [];
  const verifyGoal = async (check) => (asked.push(structuredClone(check)), verdicts[asked.length - 1]);
  return { asked, verifyGoal };
}

/** The goal check message: the goal and each criterion. */
function assertGoalCheck(text) {
  assert.match(text, /^<goal-check>/);
  assert.ok(text.includes(GOAL.statement), text);
  for (const criterion of GOAL.criteria) assert.ok(text.includes(criterion), text);
}

/** The judge was asked twice: the first answer, then the second, each with the goal and
 * the search's receipt behind the item it was done for. */
function assertJudged(asked) {
  assert.deepEqual(asked.map((c) => c.answer), [FIRST, SECOND]);
  for (const check of asked) {
    assert.deepEqual(check.goal, GOAL);
    assert.deepEqual(check.evidence.map((e) => e.todoId), ["find", "write"]);
    assert.deepEqual(check.evidence.flatMap((e) => e.receipts.map((r) => [e.todoId, r.id, r.name, r.ok])), [["write", "c2", "search", true]]);
  }
}

const unmet = (text) => assert.match(text, new RegExp(`^<goal-unmet>[\\s\\S]*${REASON}`));
const HOST_THROWS = /verifyGoal/;

// ---------------------------------------------------------------- AI SDK 7 and 6

const majors = [
  ["AI SDK 7", ai7, MockLanguageModelV4, async () => createPlanloop7],
  ["AI SDK 6", ai6, MockLanguageModelV3, () => createPlanloop6("middleware-goals-v6")],
];
const aiScript = (turn) => turn.map(([text, calls]) => ({ ...(text ? { text } : {}), calls }));
const lastUserText = (prompt) => prompt.filter((m) => m.role === "user").at(-1).content.map((p) => p.text ?? "").join("");

for (const [major, ai, Mock, load] of majors) {
  const searchTool = () => ai.tool({ description: "Search the notes", inputSchema: ai.jsonSchema({ type: "object", properties: { query: { type: "string" } } }), execute: async () => "finance/q3.md" });

  for (const streaming of [false, true]) {
    const how = streaming ? "streamText" : "generateText";
    const ask = async (pl, model, prompt) => {
      const options = { model: ai.wrapLanguageModel({ model, middleware: pl.middleware }), prompt, tools: pl.tools({ search: searchTool() }), stopWhen: ai.stepCountIs(10) };
      if (!streaming) return (await ai.generateText(options)).text;
      const result = ai.streamText(options);
      for await (const _ of result.textStream);
      return await result.text;
    };
    const callsOf = (model) => (streaming ? model.doStreamCalls : model.doGenerateCalls);

    test(`${major}, ${how}: verify "nudge" asks the model once to check the goal; its next stop ends the run`, async () => {
      const createPlanloop = await load();
      const pl = createPlanloop({ config: nudging, goal: GOAL, now: () => 1000 });
      const model = scripted(Mock, aiScript(TURN));
      assert.ok((await ask(pl, model, "Summarize the Q3 note")).endsWith(SECOND));
      const calls = callsOf(model);
      assert.equal(calls.length, 4);
      assertGoalCheck(lastUserText(calls[3].prompt));
      assert.equal(calls[3].prompt.filter((m) => m.role === "user" && lastUserText([m]).startsWith("<goal-check>")).length, 1);
      assert.equal(pl.session.snapshot().turn.ending.how, "finalized");
    });

    test(`${major}, ${how}: verify "host": not met sends the model back with the reason, met ends with its answer; a second message and a restart go on`, async () => {
      const createPlanloop = await load();
      const { asked, verifyGoal } = judge({ met: false, reason: REASON }, { met: true }, { met: true });
      const pl = createPlanloop({ config: hosting, goal, verifyGoal, now: () => 1000 });
      const model = scripted(Mock, [...aiScript(TURN), { text: "You're welcome." }]);
      assert.ok((await ask(pl, model, "Summarize the Q3 note")).endsWith(SECOND));
      assert.equal(callsOf(model).length, 4);
      unmet(lastUserText(callsOf(model)[3].prompt));
      assertJudged(asked);
      assert.equal(await ask(pl, model, "Thanks"), "You're welcome.");
      assert.equal(asked.length, 2, "the thank-you had no goal");
      // A new process: the saved session, the judge given again.
      const saved = JSON.stringify(pl.snapshot());
      assert.throws(() => createPlanloop({ snapshot: saved }), HOST_THROWS);
      const later = createPlanloop({ snapshot: saved, goal, verifyGoal, now: () => 2000 });
      const next = scripted(Mock, [{ text: SECOND }]);
      assert.ok((await ask(later, next, "Summarize the Q3 note again")).endsWith(SECOND));
      assert.deepEqual(asked.map((c) => c.answer), [FIRST, SECOND, SECOND]);
    });
  }

  test(`${major}: verify "host" with no verifyGoal is refused when the planloop is made`, async () => {
    const createPlanloop = await load();
    assert.throws(() => createPlanloop({ config: hosting }), /completion\.verify "host" but no verifyGoal/);
  });
}

// ---------------------------------------------------------------- LangChain createAgent

const lcSearch = lcTool(async () => "finance/q3.md", { name: "search", description: "Search the notes", schema: { type: "object", properties: { query: { type: "string" } } } });
const thread = (id) => ({ configurable: { thread_id: id } });
let lcId = 0;
const lcScript = (turn) =>
  turn.reduce((model, [text, calls]) => model.respond(new AIMessage({ id: `g${++lcId}`, content: text ?? "", ...(calls.length > 0 ? { tool_calls: calls.map(([id, name, args]) => ({ id, name, args, type: "tool_call" })) } : {}) })), fakeModel());
const lcAgent = (model, middleware, checkpointer = new MemorySaver()) => createAgent({ model, tools: [lcSearch], middleware: [middleware], checkpointer });
const lcText = (message) => (typeof message.content === "string" ? message.content : message.content.map((b) => b.text ?? "").join(""));

test(`LangChain createAgent: verify "nudge" asks the model once to check the goal; its next stop ends the run`, async () => {
  const model = lcScript(TURN);
  const result = await lcAgent(model, planloopMiddleware({ config: nudging, goal: GOAL, now: () => 1000 })).invoke({ messages: [new HumanMessage("Summarize the Q3 note")] }, thread("n1"));
  assert.equal(lcText(result.messages.at(-1)), SECOND);
  assert.equal(model.callCount, 4);
  assertGoalCheck(lcText(model.calls[3].messages.at(-1)));
  assert.equal(model.calls[3].messages.filter((m) => HumanMessage.isInstance(m) && lcText(m).startsWith("<goal-check>")).length, 1);
});

test(`LangChain: verify "host": not met sends the model back with the reason, met ends with its answer; after a restart a second message goes on`, async () => {
  const checkpointer = new MemorySaver();
  const { asked, verifyGoal } = judge({ met: false, reason: REASON }, { met: true }, { met: true });
  const model = lcScript(TURN);
  const result = await lcAgent(model, planloopMiddleware({ config: hosting, goal, verifyGoal, now: () => 1000 }), checkpointer).invoke({ messages: [new HumanMessage("Summarize the Q3 note")] }, thread("h1"));
  assert.equal(lcText(result.messages.at(-1)), SECOND);
  assert.equal(model.callCount, 4);
  unmet(lcText(model.calls[3].messages.at(-1)));
  assertJudged(asked);
  // Another process: a new middleware and agent over the same checkpointer.
  const later = lcScript([["You're welcome.", []], [SECOND, []]]);
  const graph = lcAgent(later, planloopMiddleware({ config: hosting, goal, verifyGoal, now: () => 2000 }), checkpointer);
  const thanks = await graph.invoke({ messages: [new HumanMessage("Thanks")] }, thread("h1"));
  assert.equal(lcText(thanks.messages.at(-1)), "You're welcome.");
  assert.equal(asked.length, 2, "the thank-you had no goal");
  const again = await graph.invoke({ messages: [new HumanMessage("Summarize the Q3 note again")] }, thread("h1"));
  assert.equal(lcText(again.messages.at(-1)), SECOND);
  assert.deepEqual(asked.map((c) => c.answer), [FIRST, SECOND, SECOND]);
});

test(`LangChain: verify "host" with no verifyGoal is refused when the middleware is made`, () => {
  assert.throws(() => planloopMiddleware({ config: hosting }), /completion\.verify "host" but no verifyGoal/);
});

// ---------------------------------------------------------------- OpenAI Agents SDK

const agentsSearch = agentsTool({ name: "search", description: "Search the notes", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false }, strict: false, execute: async () => "finance/q3.md" });
const agentsScript = (turn) =>
  new ScriptedModel(turn.map(([text, calls]) => [...(text ? [assistantMessage(text)] : []), ...calls.map(([id, name, args]) => functionCall(name, args, { callId: id }))]));
const agentsAgent = (pl, model) => new Agent({ name: "Notes", instructions: "You are a notes assistant.", model: pl.model(model), tools: pl.tools([agentsSearch]) });
const inputText = (item) => (typeof item.content === "string" ? item.content : (item.content ?? []).map((p) => p.text ?? "").join(""));

for (const stream of [false, true]) {
  const how = stream ? "a streamed run" : "run";
  const ask = async (agent, input) => (stream ? streamedText(await run(agent, input, { stream: true })) : (await run(agent, input)).finalOutput);

  test(`OpenAI Agents SDK, ${how}: verify "nudge" asks the model once to check the goal; its next stop ends the run`, async () => {
    const pl = createAgentsPlanloop({ config: nudging, goal: GOAL, now: () => 1000 });
    const model = agentsScript(TURN);
    assert.ok((await ask(agentsAgent(pl, model), "Summarize the Q3 note")).endsWith(SECOND));
    assert.equal(model.calls.length, 4);
    const input = model.calls[3].request.input;
    assertGoalCheck(inputText(input.at(-1)));
    assert.equal(input.filter((i) => i.role === "user" && inputText(i).startsWith("<goal-check>")).length, 1);
  });

  test(`OpenAI Agents SDK, ${how}: verify "host": not met sends the model back with the reason, met ends with its answer; a second message and a restart go on`, async () => {
    const { asked, verifyGoal } = judge({ met: false, reason: REASON }, { met: true }, { met: true });
    const pl = createAgentsPlanloop({ config: hosting, goal, verifyGoal, now: () => 1000 });
    const model = agentsScript([...TURN, ["You're welcome.", []]]);
    const agent = agentsAgent(pl, model);
    assert.ok((await ask(agent, "Summarize the Q3 note")).endsWith(SECOND));
    assert.equal(model.calls.length, 4);
    unmet(inputText(model.calls[3].request.input.at(-1)));
    assertJudged(asked);
    assert.equal(await ask(agent, "Thanks"), "You're welcome.");
    assert.equal(asked.length, 2, "the thank-you had no goal");
    // A new process: the saved session, the judge given again.
    const saved = JSON.stringify(pl.snapshot());
    assert.throws(() => createAgentsPlanloop({ snapshot: saved }), HOST_THROWS);
    const later = createAgentsPlanloop({ snapshot: saved, goal, verifyGoal, now: () => 2000 });
    assert.ok((await ask(agentsAgent(later, agentsScript([[SECOND, []]])), "Summarize the Q3 note again")).endsWith(SECOND));
    assert.deepEqual(asked.map((c) => c.answer), [FIRST, SECOND, SECOND]);
  });
}

test(`OpenAI Agents SDK: verify "host" with no verifyGoal is refused when the planloop is made`, () => {
  assert.throws(() => createAgentsPlanloop({ config: hosting }), /completion\.verify "host" but no verifyGoal/);
});

// ---------------------------------------------------------------- the reference runner

/** A ChatModel answering `turn` in order, recording requests. */
function chatModel(turn) {
  const requests = [];
  return {
    requests,
    async complete(request) {
      requests.push(request);
      const [text, calls] = turn[requests.length - 1];
      return { text, toolCalls: calls.map(([id, name, args]) => ({ id, name, args })) };
    },
  };
}
const runnerSearch = { definition: { name: "search", description: "Search the notes", parameters: { type: "object", properties: { query: { type: "string" } } } }, run: () => "finance/q3.md" };
const lastUser = (request) => request.messages.filter((m) => m.role === "user").at(-1).content;

test(`ChainRunner: verify "nudge" asks the model once to check the goal; its next stop ends the turn`, async () => {
  const model = chatModel(TURN);
  const runner = new ChainRunner({ session: new Session(nudging), model, tools: [runnerSearch], goal: GOAL, now: () => 1000 });
  assert.deepEqual(await runner.send("Summarize the Q3 note"), { type: "finalize", answer: SECOND, exitReason: "final_answer" });
  assert.equal(model.requests.length, 4);
  assertGoalCheck(lastUser(model.requests[3]));
  assert.equal(model.requests[3].messages.filter((m) => m.role === "user" && m.content.startsWith("<goal-check>")).length, 1);
});

test(`ChainRunner: verify "host": not met sends the model back with the reason, met ends with its answer; after a restart a second message goes on`, async () => {
  let stored = null;
  const store = { load: () => stored, save: (text) => void (stored = text) };
  const { asked, verifyGoal } = judge({ met: false, reason: REASON }, { met: true }, { met: true });
  const model = chatModel(TURN);
  const runner = new ChainRunner({ session: new Session(hosting), model, tools: [runnerSearch], goal, verifyGoal, store, now: () => 1000 });
  assert.deepEqual(await runner.send("Summarize the Q3 note"), { type: "finalize", answer: SECOND, exitReason: "final_answer" });
  assert.equal(model.requests.length, 4);
  unmet(lastUser(model.requests[3]));
  assertJudged(asked);
  // Another process: the runner from its store, the judge given again.
  const later = new ChainRunner({ session: new Session(hosting), model: chatModel([["You're welcome.", []], [SECOND, []]]), tools: [runnerSearch], goal, verifyGoal, store, now: () => 2000 });
  assert.equal(await later.restore((snapshot) => Session.restore(snapshot)), true);
  assert.equal((await later.send("Thanks")).answer, "You're welcome.");
  assert.equal(asked.length, 2, "the thank-you had no goal");
  assert.equal((await later.send("Summarize the Q3 note again")).answer, SECOND);
  assert.deepEqual(asked.map((c) => c.answer), [FIRST, SECOND, SECOND]);
});

test(`ChainRunner: verify "host" with no verifyGoal is refused when the runner is made`, () => {
  assert.throws(() => new ChainRunner({ session: new Session(hosting), model: chatModel([]) }), /completion\.verify is "host": give the runner verifyGoal/);
});
