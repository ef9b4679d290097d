// planloop/ai-sdk in the AI SDK's own loop, in both supported majors (7, and 6 installed
// as `ai-v6`), with the SDK's mock models (no network): generateText and streamText over
// a whole turn with a refused stop, the planner tools answered by planloop, the system
// prompt and tool messages written by planloop, gated tools through the SDK's approval
// flow (denied and approved), a pause at the iteration limit, a session saved and resumed.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as ai7 from "ai";
import { MockLanguageModelV4 } from "ai/test";
import * as ai6 from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";

import { createPlanloop as createPlanloop7 } from "../../pkg/ai-sdk.mjs";
import { createPlanloop6, scripted } from "./support/ai-sdk.mjs";

const majors = [
  ["AI SDK 7", ai7, MockLanguageModelV4, async () => createPlanloop7],
  ["AI SDK 6", ai6, MockLanguageModelV3, () => createPlanloop6("ai-sdk-middleware-v6")],
];

const todos = (second) => ({ todos: [{ id: "find", content: "Find the Q3 note", status: "completed" }, { id: "write", content: "Summarize it", status: second }] });
const TURN = [
  { calls: [["c1", "write_todos", todos("in_progress")], ["c2", "search", { query: "Q3" }]] },
  { text: "I found it." }, // stops with the list unfinished
  { calls: [["c3", "write_todos", todos("completed")]] },
  { text: "Q3 revenue rose 4%." },
];

const textOf = (message) => (typeof message.content === "string" ? message.content : message.content.map((p) => p.text ?? "").join(""));

for (const [major, ai, Mock, load] of majors) {
  const searchTool = () => ai.tool({ description: "Search the notes", inputSchema: ai.jsonSchema({ type: "object", properties: { query: { type: "string" } } }), execute: async () => "finance/q3.md" });

  test(`${major}, generateText: the turn goes on past a premature stop, planloop answers write_todos and writes the prompt`, async () => {
    const createPlanloop = await load();
    const planloop = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
    const model = scripted(Mock, TURN);
    const result = await ai.generateText({
      model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }),
      system: "You are a notes assistant.",
      prompt: "Summarize the Q3 note",
      tools: planloop.tools({ search: searchTool() }),
      stopWhen: ai.stepCountIs(10),
    });
    assert.equal(result.text, "Q3 revenue rose 4%.");
    const calls = model.doGenerateCalls;
    assert.equal(calls.length, 4, "the refused stop was sent back to the model");
    // One system message: the caller's, then planloop's parts (the plan once there is one).
    for (const call of calls) assert.deepEqual(call.prompt.filter((m) => m.role === "system").length, 1);
    assert.match(calls[0].prompt[0].content, /^You are a notes assistant\./);
    assert.match(calls[1].prompt[0].content, /Summarize it/);
    assert.deepEqual(calls[0].tools.map((t) => t.name).sort(), ["plan", "plan_progress", "search", "write_todos"]);
    // planloop's ack answers write_todos; the search result reaches the model as planloop wrote it.
    const results = calls[1].prompt.filter((m) => m.role === "tool").flatMap((m) => m.content);
    assert.match(results.find((p) => p.toolCallId === "c1").output.value, /"ok":true,"revision":1/);
    assert.match(results.find((p) => p.toolCallId === "c2").output.value, /finance\/q3\.md/);
    assert.match(textOf(calls[2].prompt.at(-1)), /^<plan-continuation>/);
    assert.equal(planloop.session.progress().completed, 2);
  });

  test(`${major}, streamText: the same turn streamed; tool calls are held until planloop has decided`, async () => {
    const createPlanloop = await load();
    const planloop = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
    const model = scripted(Mock, TURN);
    const result = ai.streamText({
      model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }),
      prompt: "Summarize the Q3 note",
      tools: planloop.tools({ search: searchTool() }),
      stopWhen: ai.stepCountIs(10),
    });
    let streamedText = "";
    for await (const delta of result.textStream) streamedText += delta;
    assert.equal(await result.text, "Q3 revenue rose 4%.");
    assert.equal(streamedText, "I found it.Q3 revenue rose 4%.");
    assert.equal(model.doStreamCalls.length, 4);
    assert.match(textOf(model.doStreamCalls[2].prompt.at(-1)), /^<plan-continuation>/);
    assert.equal(planloop.session.progress().completed, 2);
  });

  test(`${major}, ToolLoopAgent: instructions become the base of planloop's system prompt; the turn finishes`, async () => {
    const createPlanloop = await load();
    const planloop = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
    const model = scripted(Mock, TURN);
    const agent = new ai.ToolLoopAgent({
      model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }),
      instructions: "You are a notes assistant.",
      tools: planloop.tools({ search: searchTool() }),
      stopWhen: ai.stepCountIs(10),
    });
    const result = await agent.generate({ prompt: "Summarize the Q3 note" });
    assert.equal(result.text, "Q3 revenue rose 4%.");
    assert.match(model.doGenerateCalls[3].prompt[0].content, /^You are a notes assistant\.[\s\S]*## Current plan/);
  });

  for (const approved of [false, true]) {
    test(`${major}: a gated tool waits for the SDK's approval; ${approved ? "approved, it runs" : "denied, the model reads why"}`, async () => {
      const createPlanloop = await load();
      const planloop = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1000 });
      // After the decision the model searches once more: the resolved call is handed over once only.
      const model = scripted(Mock, [{ calls: [["d1", "delete_note", { path: "q3.md" }]] }, { calls: [["s1", "search", { query: "Q3" }]] }, { text: approved ? "Deleted." : "Kept it." }]);
      const deleted = [];
      const tools = planloop.tools({
        search: searchTool(),
        delete_note: ai.tool({ description: "Delete a note", inputSchema: ai.jsonSchema({ type: "object" }), execute: async (input) => (deleted.push(input.path), "deleted") }),
      });
      const wrapped = ai.wrapLanguageModel({ model, middleware: planloop.middleware });
      const messages = [{ role: "user", content: "Delete the Q3 note" }];
      const first = await ai.generateText({ model: wrapped, messages, tools, stopWhen: ai.stepCountIs(5) });
      const request = first.content.find((p) => p.type === "tool-approval-request");
      assert.equal(request?.toolCall.toolName, "delete_note");
      assert.deepEqual(planloop.session.proposals().map((p) => [p.tool, p.status]), [["delete_note", "pending"]]);
      assert.deepEqual(deleted, []);
      messages.push(...first.response.messages, {
        role: "tool",
        content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved, ...(approved ? {} : { reason: "Keep it: it is the only copy." }) }],
      });
      const second = await ai.generateText({ model: wrapped, messages, tools, stopWhen: ai.stepCountIs(5) });
      assert.equal(second.text, approved ? "Deleted." : "Kept it.");
      assert.deepEqual(deleted, approved ? ["q3.md"] : []);
      const resolved = planloop.session.drainEvents().filter((e) => e.type === "ActionResolved");
      assert.deepEqual(resolved.map((e) => e.status), [approved ? "approved" : "rejected"]);
      const result = model.doGenerateCalls[1].prompt.filter((m) => m.role === "tool").flatMap((m) => m.content).find((p) => p.toolCallId === "d1");
      assert.match(result.output.value, approved ? /deleted/ : /rejected this action: Keep it: it is the only copy\./);
    });
  }

  test(`${major}: at the iteration limit the loop ends with planloop's pause summary, the calls dropped`, async () => {
    const createPlanloop = await load();
    const planloop = createPlanloop({ config: { maxIterations: 2, tools: { read: ["search"] } }, now: () => 1000 });
    const model = scripted(Mock, [{ calls: [["s1", "search", { query: "a" }]] }, { calls: [["s2", "search", { query: "b" }]] }, { calls: [["s3", "search", { query: "c" }]] }]);
    const result = await ai.generateText({
      model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }),
      prompt: "Search everything",
      tools: planloop.tools({ search: searchTool() }),
      stopWhen: ai.stepCountIs(10),
    });
    assert.match(result.text, /iteration limit/);
    assert.equal(result.steps.at(-1).toolCalls.length, 0);
    assert.equal(model.doGenerateCalls.length, 2);
    // The last iteration is offered no tools.
    assert.deepEqual(model.doGenerateCalls[1].toolChoice, { type: "none" });
  });

  test(`${major}: a saved session goes on in a new process, and "continue" resumes its plan`, async () => {
    const createPlanloop = await load();
    const first = createPlanloop({ config: { maxIterations: 2, tools: { read: ["search"] } }, now: () => 1000 });
    const paused = await ai.generateText({
      model: ai.wrapLanguageModel({ model: scripted(Mock, [{ calls: [["c1", "write_todos", todos("pending")], ["c2", "search", { query: "Q3" }]] }, { calls: [["c3", "search", { query: "Q3 revenue" }]] }]), middleware: first.middleware }),
      prompt: "Summarize the Q3 note",
      tools: first.tools({ search: searchTool() }),
      stopWhen: ai.stepCountIs(5),
    });
    assert.match(paused.text, /Say "continue" to resume/);
    const saved = JSON.stringify(first.snapshot());
    const later = createPlanloop({ snapshot: saved, now: () => 2000 });
    const model = scripted(Mock, [{ calls: [["c4", "write_todos", todos("completed")]] }, { text: "Q3 revenue rose 4%." }]);
    const done = await ai.generateText({
      model: ai.wrapLanguageModel({ model, middleware: later.middleware }),
      prompt: "continue",
      tools: later.tools({ search: searchTool() }),
      stopWhen: ai.stepCountIs(5),
    });
    assert.match(textOf(model.doGenerateCalls[0].prompt.at(-1)), /^<resume>[\s\S]*Next: Summarize it[\s\S]*continue$/);
    assert.equal(done.text, "Q3 revenue rose 4%.");
  });
}
