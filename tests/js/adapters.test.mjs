// The LangChain.js and AI SDK adapters against the real libraries (the AI SDK in both
// supported majors, 6 and 7), each with its own scripted test model (no network):
// planloop's tool definitions reach the model, tool calls come back, tool results go in
// as each library's own messages, a turn finishes, and ids a model repeats are told apart.
import assert from "node:assert/strict";
import { test } from "node:test";

import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { MockLanguageModelV3, MockLanguageModelV4 } from "ai/test";
import { MockLanguageModelV3 as MockV6 } from "ai-v6/test";
import { build } from "esbuild";

import { aiSdkChatModel } from "../../target/www/runner/ai-sdk.js";
import { ChainRunner } from "../../target/www/runner/chain.js";
import { langChainChatModel } from "../../target/www/runner/langchain.js";
import { generated } from "./support/ai-sdk.mjs";
import { assertWellFormed } from "./support/conversation.mjs";
import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

const todos = (second) => ({ todos: [{ id: "find", content: "Find the Q3 note", status: "completed" }, { id: "write", content: "Summarize it", status: second }] });
const search = { definition: { name: "search", description: "Search the notes", parameters: { type: "object", properties: { query: { type: "string" } } } }, run: () => "finance/q3.md" };

/** Runs one turn through `model` and returns its outcome. */
async function runTurn(model) {
  const runner = new ChainRunner({ session: new Session({ tools: { read: ["search"] } }), model, tools: [search], now: () => 1000 });
  const outcome = await runner.send("Summarize the Q3 note");
  assertWellFormed(runner.messages, "after the turn");
  return outcome;
}

const finished = { type: "finalize", answer: "Q3 revenue rose 4%.", exitReason: "final_answer" };

/** A LangChain chat model that answers from a script and records what it was given. */
class ScriptedChatModel extends BaseChatModel {
  constructor(script) {
    super({});
    this.script = script;
    this.seen = [];
    this.bound = [];
  }

  _llmType() {
    return "scripted";
  }

  bindTools(tools) {
    this.bound.push(tools);
    return this;
  }

  async _generate(messages) {
    this.seen.push(messages);
    const message = this.script.shift();
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

test("LangChain.js: bindTools gets planloop's schemas; AIMessage.tool_calls and ToolMessage carry the turn", async () => {
  const model = new ScriptedChatModel([
    new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "write_todos", args: todos("in_progress") }, { id: "c2", name: "search", args: { query: "Q3" } }] }),
    new AIMessage({ content: "I found it." }),
    new AIMessage({ content: "", tool_calls: [{ id: "c3", name: "write_todos", args: todos("completed") }] }),
    new AIMessage({ content: [{ type: "text", text: "Q3 revenue rose 4%." }] }),
  ]);
  assert.deepEqual(await runTurn(langChainChatModel(model)), finished);
  assert.equal(model.seen.length, 4);
  const bound = model.bound[0].map((t) => t.function);
  assert.deepEqual(bound.slice(0, 3), new Session().toolDefinitions());
  assert.deepEqual(bound.map((t) => t.name), ["write_todos", "plan", "plan_progress", "search"]);
  const second = model.seen[1];
  assert.equal(second[0].getType(), "system");
  assert.deepEqual(second.filter((m) => m instanceof ToolMessage).map((m) => m.tool_call_id), ["c1", "c2"]);
  assert.deepEqual(second.find((m) => m instanceof AIMessage).tool_calls.map((c) => c.id), ["c1", "c2"]);
  assert.match(model.seen[2].at(-1).content, /^<plan-continuation>/, "the early stop was answered with a nudge");
});

test("LangChain.js: tool calls without an id, in response after response, each get one of their own", async () => {
  const searching = () => new AIMessage({ content: "", tool_calls: [{ name: "search", args: { query: "Q3" } }, { name: "search", args: { query: "Q4" } }] });
  const model = new ScriptedChatModel([searching(), searching(), new AIMessage({ content: "Q3 revenue rose 4%." })]);
  assert.deepEqual(await runTurn(langChainChatModel(model)), finished);
  // What LangChain was given last: every call and its answer under one id of its own.
  const last = model.seen.at(-1);
  const calls = last.filter((m) => m instanceof AIMessage).flatMap((m) => m.tool_calls.map((c) => c.id));
  assert.equal(new Set(calls).size, 4, calls.join(" "));
  assert.deepEqual(last.filter((m) => m instanceof ToolMessage).map((m) => m.tool_call_id), calls);
});

/** The AI SDK adapter bound to AI SDK 6 (installed as `ai-v6`), as a user of 6 gets it. */
async function aiSdk6Adapter() {
  const outfile = new URL("../../target/adapters/ai-sdk-v6.mjs", import.meta.url).pathname;
  await build({
    entryPoints: [new URL("../../target/www/runner/ai-sdk.js", import.meta.url).pathname],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    alias: { ai: "ai-v6" },
    packages: "external",
    logLevel: "error",
  });
  return (await import(outfile)).aiSdkChatModel;
}

const majors = [
  ["7", MockLanguageModelV4, async () => aiSdkChatModel],
  ["7 (a V3 model)", MockLanguageModelV3, async () => aiSdkChatModel],
  ["6", MockV6, aiSdk6Adapter],
];

for (const [major, Mock, adapter] of majors) {
  test(`AI SDK ${major}: tools as JSON Schemas, the system prompt as \`system\`, toolCalls back, results as tool-result parts`, async () => {
    const model = new Mock({
      doGenerate: [
        generated({ calls: [["c1", "write_todos", todos("in_progress")], ["c2", "search", { query: "Q3" }]] }),
        generated({ text: "I found it." }),
        generated({ calls: [["c3", "write_todos", todos("completed")]] }),
        generated({ text: "Q3 revenue rose 4%." }),
      ],
    });
    const warnings = [];
    const warn = console.warn;
    console.warn = (...args) => warnings.push(args.join(" "));
    try {
      assert.deepEqual(await runTurn((await adapter())(model)), finished);
    } finally {
      console.warn = warn;
    }
    assert.deepEqual(warnings, []);
    const calls = model.doGenerateCalls;
    assert.equal(calls.length, 4);
    const sent = calls[0].tools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema }));
    assert.deepEqual(sent.slice(0, 3), new Session().toolDefinitions());
    // The provider still gets the system prompt, first, from `system`.
    assert.equal(calls[0].prompt[0].role, "system");
    assert.equal(calls[0].prompt.filter((m) => m.role === "system").length, 1);
    const second = calls[1].prompt;
    const results = second.filter((m) => m.role === "tool").flatMap((m) => m.content).map((p) => [p.toolCallId, p.output.type]);
    assert.deepEqual(results, [["c1", "text"], ["c2", "text"]]);
    assert.match(calls[2].prompt.at(-1).content[0].text, /^<plan-continuation>/);
  });
}

test("AI SDK: a tool call id repeated from an earlier response gets one of its own", async () => {
  const model = new MockLanguageModelV4({
    doGenerate: [generated({ calls: [["c1", "search", { query: "Q3" }]] }), generated({ calls: [["c1", "search", { query: "Q4" }]] }), generated({ text: "Q3 revenue rose 4%." })],
  });
  assert.deepEqual(await runTurn(aiSdkChatModel(model)), finished);
  const prompt = model.doGenerateCalls.at(-1).prompt;
  const parts = (role) => prompt.filter((m) => m.role === role).flatMap((m) => m.content);
  const calls = parts("assistant").filter((p) => p.type === "tool-call").map((p) => p.toolCallId);
  assert.equal(new Set(calls).size, 2, calls.join(" "));
  assert.deepEqual(parts("tool").map((p) => p.toolCallId), calls);
});
