// A gated write a model repeats word for word in one response (SmolLM2-135M sent the same
// write_note four times: tests/fixtures/live/repeated-writes.json), as each way in meets
// it: the reference runner and the three framework middlewares, with the frameworks' own
// fake models. The user is asked once; approved, the write runs once; rejected, never;
// and every copy is answered, so the conversation stays well-formed.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as ai from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { tool as lcTool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { AIMessage, HumanMessage, ToolMessage, createAgent, fakeModel } from "langchain";
import { Agent, run, tool as agentsTool } from "@openai/agents";
import { ScriptedModel, assistantMessage, functionCall } from "@openai/agents-core/testing";

import { ChainRunner } from "../../target/www/runner/chain.js";
import { createPlanloop as createAiSdk } from "../../pkg/ai-sdk.mjs";
import { planloopMiddleware } from "../../pkg/langchain.mjs";
import { createPlanloop as createAgents } from "../../pkg/openai-agents.mjs";
import { scripted } from "./support/ai-sdk.mjs";
import { assertWellFormed } from "./support/conversation.mjs";
import { planloop } from "./support/pkg.mjs";

const NOTE = { path: "hello.md", text: "hello" };
const COPIES = ["w0", "w1", "w2", "w3"];
const schema = { type: "object", properties: { path: { type: "string" }, text: { type: "string" } }, required: ["path", "text"] };

for (const approved of [true, false]) {
  const verdict = approved ? "approved" : "rejected";

  test(`runner: a write sent four times in one response is asked about once and runs ${approved ? "once" : "never"}`, async () => {
    const ran = [];
    const asked = [];
    const script = [{ text: null, toolCalls: COPIES.map((id) => ({ id, name: "write_note", args: JSON.stringify(NOTE) })) }, { text: "Saved.", toolCalls: [] }];
    const runner = new ChainRunner({
      session: new planloop.Session(),
      model: { complete: async () => script.shift() },
      tools: [{ definition: { name: "write_note", description: "Write a note", parameters: schema }, run: (args) => (ran.push(args), "written") }],
      approve: (proposal) => (asked.push(proposal.callId), approved ? { approve: true } : { approve: false }),
    });
    assert.equal((await runner.send("Write hello to hello.md.")).type, "finalize");
    assert.deepEqual(asked, ["w0"]);
    assert.equal(ran.length, approved ? 1 : 0);
    assertWellFormed(runner.messages);
  });

  test(`AI SDK 7: a write sent four times in one response is asked about once and runs ${approved ? "once" : "never"}`, async () => {
    const ran = [];
    const loop = createAiSdk({ now: () => 1000 });
    const model = scripted(MockLanguageModelV4, [{ calls: COPIES.map((id) => [id, "write_note", NOTE]) }, { text: "Saved." }]);
    const tools = loop.tools({ write_note: ai.tool({ description: "Write a note", inputSchema: ai.jsonSchema(schema), execute: async (args) => (ran.push(args), "written") }) });
    const options = { model: ai.wrapLanguageModel({ model, middleware: loop.middleware }), tools, toolApproval: loop.toolApproval(), stopWhen: ai.stepCountIs(5) };
    const messages = [{ role: "user", content: "Write hello to hello.md." }];
    const first = await ai.generateText({ ...options, messages });
    const requests = first.content.filter((p) => p.type === "tool-approval-request" && !p.isAutomatic);
    assert.deepEqual(requests.map((p) => p.toolCall.toolCallId), ["w0"]);
    assert.deepEqual(ran, [], "nothing runs before the user answers");
    const answer = { role: "tool", content: requests.map((p) => ({ type: "tool-approval-response", approvalId: p.approvalId, approved })) };
    messages.push(...first.response.messages, answer);
    assert.equal((await ai.generateText({ ...options, messages })).text, "Saved.");
    assert.equal(ran.length, approved ? 1 : 0);
    const events = loop.session.drainEvents().filter((e) => e.type === "ActionResolved").map((e) => e.status);
    assert.deepEqual(events, [verdict]);
  });

  test(`LangChain createAgent: a write sent four times in one step is asked about once and runs ${approved ? "once" : "never"}`, async () => {
    const ran = [];
    const write = lcTool(async (args) => (ran.push(args), "written"), { name: "write_note", description: "Write a note", schema });
    const model = fakeModel()
      .respondWithTools(COPIES.map((id) => ({ name: "write_note", args: NOTE, id })))
      .respond(new AIMessage("Saved."));
    const agent = createAgent({ model, tools: [write], checkpointer: new MemorySaver(), middleware: [planloopMiddleware({ now: () => 1000 })] });
    const config = { configurable: { thread_id: `copies-${verdict}` } };
    const paused = await agent.invoke({ messages: [new HumanMessage("Write hello to hello.md.")] }, config);
    const request = paused.__interrupt__?.[0]?.value;
    assert.deepEqual(request?.actionRequests.map((a) => a.name), ["write_note"]);
    assert.deepEqual(ran, [], "nothing runs before the reviewer answers");
    const decision = approved ? { type: "approve" } : { type: "reject", message: "Not now." };
    const done = await agent.invoke(new Command({ resume: { decisions: [decision] } }), config);
    assert.equal(done.messages.at(-1).content, "Saved.");
    assert.equal(ran.length, approved ? 1 : 0);
    const answered = done.messages.filter((m) => ToolMessage.isInstance(m)).map((m) => m.tool_call_id).sort();
    assert.deepEqual(answered, COPIES);
  });

  test(`OpenAI Agents SDK: a write sent four times in one response is one interruption and runs ${approved ? "once" : "never"}`, async () => {
    const ran = [];
    const loop = createAgents({ now: () => 1000 });
    const write = agentsTool({ name: "write_note", description: "Write a note", parameters: { ...schema, additionalProperties: false }, strict: false, execute: async (args) => (ran.push(args), "written") });
    const model = new ScriptedModel([COPIES.map((id) => functionCall("write_note", NOTE, { callId: id })), [assistantMessage("Saved.")]]);
    const agent = new Agent({ name: "Notes", instructions: "You write notes.", model: loop.model(model), tools: loop.tools([write]) });
    const paused = await run(agent, "Write hello to hello.md.");
    assert.deepEqual(paused.interruptions.map((i) => i.rawItem.callId), ["w0"]);
    assert.deepEqual(ran, [], "nothing runs before the user answers");
    if (approved) paused.state.approve(paused.interruptions[0]);
    else paused.state.reject(paused.interruptions[0]);
    const done = await run(agent, paused.state);
    assert.equal(done.finalOutput, "Saved.");
    assert.equal(ran.length, approved ? 1 : 0);
  });
}
