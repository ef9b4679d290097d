// Sub-agents as the SDKs' docs build them, with the SDKs' own mock models: in the AI SDK
// (7 and 6; node_modules/ai/docs, "Subagents") a tool whose `execute` runs another agent
// and whose `toModelOutput` decides what the parent's model reads; in the OpenAI Agents
// SDK an agent used as a tool (`agent.asTool`). The child runs with a planloop of its own
// and hands back `planloop.handoff()`, so the parent's model reads the capsule, never the
// child's transcript, and never an empty result when the child stopped on a tool call.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as ai7 from "ai";
import { MockLanguageModelV4 } from "ai/test";
import * as ai6 from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";

import { createPlanloop as createPlanloop7 } from "../../pkg/ai-sdk.mjs";
import { createPlanloop6, scripted } from "./support/ai-sdk.mjs";

const majors = [
  { major: "AI SDK 7", ai: ai7, Mock: MockLanguageModelV4, createPlanloop: createPlanloop7 },
  { major: "AI SDK 6", ai: ai6, Mock: MockLanguageModelV3, createPlanloop: await createPlanloop6("subagents-v6") },
];

const todos = (status) => ({ todos: [{ id: "logs", content: "Read the build log", status }] });

for (const { major, ai, Mock, createPlanloop } of majors) {
  /** A `research` tool that runs a child agent over `childScript` (its own planloop,
   * `search` its only tool, `steps` model calls at most) and hands back its capsule;
   * `children` gets each child's planloop. */
  const research = (childScript, { steps = 10, children = [] } = {}) =>
    ai.tool({
      description: "Research a question with a sub-agent",
      inputSchema: ai.jsonSchema({ type: "object", properties: { task: { type: "string" } }, required: ["task"] }),
      execute: async ({ task }, { toolCallId }) => {
        const child = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1_000 });
        children.push(child);
        const search = ai.tool({
          description: "Search the build logs",
          inputSchema: ai.jsonSchema({ type: "object", properties: { q: { type: "string" } }, required: ["q"] }),
          execute: async ({ q }) => `build.log:12: error: missing semicolon (${q})`,
        });
        await ai.generateText({
          model: ai.wrapLanguageModel({ model: scripted(Mock, childScript), middleware: child.middleware }),
          tools: child.tools({ search }),
          prompt: task,
          stopWhen: ai.stepCountIs(steps),
        });
        return child.handoff({ transcriptRef: `runs/${toolCallId}.jsonl` });
      },
      toModelOutput: ({ output }) => ({ type: "text", value: output.text }),
    });

  /** The parent: one `research` call, then its answer; what its model was given each call. */
  const parentRun = async (tool) => {
    const parent = createPlanloop({ config: { tools: { read: ["research"] } } });
    const model = scripted(Mock, [{ calls: [["r1", "research", { task: "Find why the build fails" }]] }, { text: "The build fails on a missing semicolon." }]);
    const result = await ai.generateText({ model: ai.wrapLanguageModel({ model, middleware: parent.middleware }), tools: parent.tools({ research: tool }), prompt: "Fix the build", stopWhen: ai.stepCountIs(5) });
    const given = model.doGenerateCalls[1].prompt.filter((m) => m.role === "tool").flatMap((m) => m.content);
    return { result, given };
  };

  test(`${major}: a sub-agent tool hands the parent's model the child's capsule, not its transcript`, async () => {
    const children = [];
    const childScript = [
      { calls: [["w1", "write_todos", todos("in_progress")], ["s1", "search", { q: "error" }]] },
      { calls: [["w2", "write_todos", todos("completed")]] },
      { text: "The build fails because build.log line 12 reports a missing semicolon. Should I fix it?" },
    ];
    const { result, given } = await parentRun(research(childScript, { children }));
    const capsule = children[0].handoff({ transcriptRef: "runs/r1.jsonl" });
    assert.equal(capsule.status, "done");
    assert.deepEqual(capsule.evidence, [{ id: "s1", name: "search", ok: true, observation: "search ok: build.log:12: error: missing semicolon (error)" }]);
    assert.deepEqual(capsule.openQuestions, ["Should I fix it?"]);
    assert.equal(given.length, 1);
    assert.equal(given[0].toolCallId, "r1");
    assert.deepEqual(given[0].output, { type: "text", value: capsule.text });
    assert.match(capsule.text, /^Sub-agent capsule \(done\)\nGoal: Find why the build fails\nSummary: The build fails because build\.log line 12/);
    assert.match(capsule.text, /\nFull transcript: runs\/r1\.jsonl$/);
    // The child's own messages (its write_todos calls, its search output) stay out.
    assert.doesNotMatch(JSON.stringify(given), /write_todos|"w1"/);
    assert.equal(result.text, "The build fails on a missing semicolon.");
  });

  test(`${major}: a child the SDK stops on a tool call hands back a partial capsule, never an empty result`, async () => {
    const children = [];
    const childScript = [{ calls: [["w1", "write_todos", todos("in_progress")], ["s1", "search", { q: "error" }]] }];
    const { given } = await parentRun(research(childScript, { steps: 1, children }));
    const capsule = children[0].handoff();
    assert.equal(capsule.status, "partial");
    assert.match(capsule.summary, /^Stopped before a final answer\. Done so far: 0\/1\. Next: Read the build log\./);
    assert.deepEqual(capsule.nextActions, ["Read the build log"]);
    const value = given[0].output.value;
    assert.match(value, /^Sub-agent capsule \(partial\)\n/);
    assert.match(value, /\nTodos \(0\/1\):\n- \[~\] Read the build log\n/);
  });
}

for (const { major, ai, Mock, createPlanloop } of majors) {
  test(`${major}: with the parent's delegation on for the sub-agent tool, its capsule completes the parent's item`, async () => {
    const research = ai.tool({
      description: "Research a question with a sub-agent",
      inputSchema: ai.jsonSchema({ type: "object", properties: { goal: { type: "string" }, todoId: { type: "string" } }, required: ["goal"] }),
      execute: async ({ goal }) => {
        const child = createPlanloop({ config: { tools: { read: ["search"] } }, now: () => 1_000 });
        const search = ai.tool({ description: "Search the build logs", inputSchema: ai.jsonSchema({ type: "object", properties: { q: { type: "string" } } }), execute: async () => "build.log:12: missing semicolon" });
        const childModel = scripted(Mock, [{ calls: [["s1", "search", { q: "error" }]] }, { text: "A missing semicolon at build.log line 12." }]);
        await ai.generateText({ model: ai.wrapLanguageModel({ model: childModel, middleware: child.middleware }), tools: child.tools({ search }), prompt: goal, stopWhen: ai.stepCountIs(5) });
        return child.handoff();
      },
      toModelOutput: ({ output }) => ({ type: "text", value: output.text }),
    });
    const parent = createPlanloop({ config: { tools: { read: ["research"] }, delegation: { enabled: true, toolNames: ["research"] }, history: { mode: "full" } }, now: () => 1_000 });
    const model = scripted(Mock, [
      { calls: [["w1", "write_todos", todos("in_progress")]] },
      { calls: [["r1", "research", { goal: "Find why the build fails", todoId: "logs" }]] },
      { text: "The build fails on a missing semicolon." },
    ]);
    const result = await ai.generateText({ model: ai.wrapLanguageModel({ model, middleware: parent.middleware }), tools: parent.tools({ research }), prompt: "Fix the build", stopWhen: ai.stepCountIs(6) });
    assert.equal(result.text, "The build fails on a missing semicolon.");
    // The capsule, made from the child's session, completed the item: the parent's stop was final.
    assert.deepEqual(parent.session.todos().map((t) => t.status), ["completed"]);
    assert.ok(parent.session.steps().some((s) => s.includes("logs: sub-agent r1: done")), parent.session.steps().join("\n"));
    const given = model.doGenerateCalls[2].prompt.filter((m) => m.role === "tool").flatMap((m) => m.content).find((p) => p.toolCallId === "r1");
    assert.match(given.output.value, /^Sub-agent capsule \(done\)/);
    assert.equal(model.doGenerateCalls.length, 3);
  });
}

// The OpenAI Agents SDK: an agent used as a tool (`agent.asTool`, docs "Agents as tools")
// whose `customOutputExtractor` gives the child's capsule; the child's planloop keeps its
// state under a context key of its own, as the parent and the child share the run context.
const { Agent, RunState, run, tool: agentsTool } = await import("@openai/agents");
const { ScriptedModel, assistantMessage, functionCall } = await import("@openai/agents-core/testing");
const { createPlanloop: createAgentsPlanloop } = await import("../../pkg/openai-agents.mjs");

const objectOf = (properties) => ({ type: "object", properties, required: Object.keys(properties), additionalProperties: false });
const searchLogs = agentsTool({ name: "search", description: "Search the build logs", parameters: objectOf({ q: { type: "string" } }), strict: false, execute: async () => "build.log:12: missing semicolon" });
const resetBranch = (done) => agentsTool({ name: "reset_branch", description: "Reset the branch", parameters: objectOf({ to: { type: "string" } }), strict: false, execute: async ({ to }) => (done.push(to), `reset to ${to}`) });

/** A parent agent whose `research` tool is a child agent; each with its own planloop. */
function agents({ parentModel, childModel, done = [], now = 1_000, wrapped = false }) {
  // `wrapped`: the child is made a tool by its planloop, and the parent delegates to it.
  const delegation = wrapped ? { delegation: { enabled: true, toolNames: ["research"] }, history: { mode: "full" } } : {};
  const parentLoop = createAgentsPlanloop({ config: { tools: { read: ["research"] }, ...delegation }, now: () => now });
  const childLoop = createAgentsPlanloop({ config: { tools: { read: ["search"] } }, contextKey: "planloop:research", now: () => now });
  const child = new Agent({ name: "Researcher", instructions: "Research the question.", model: childLoop.model(childModel), tools: childLoop.tools([searchLogs, resetBranch(done)]) });
  const options = { toolName: "research", toolDescription: "Research a question with a sub-agent" };
  const research = wrapped ? childLoop.asTool(child, options) : child.asTool({ ...options, customOutputExtractor: () => childLoop.handoff().text });
  const parent = new Agent({ name: "Lead", instructions: "Fix the build.", model: parentLoop.model(parentModel), tools: parentLoop.tools([research]) });
  return { parent, parentLoop, childLoop };
}

test("OpenAI Agents SDK: an agent used as a tool hands the parent's model its capsule; both planloops keep their state", async () => {
  const childModel = new ScriptedModel([[functionCall("search", { q: "error" }, { callId: "s1" })], [assistantMessage("It fails on a missing semicolon at build.log line 12.")]]);
  const parentModel = new ScriptedModel([[functionCall("research", { input: "Find why the build fails" }, { callId: "r1" })], [assistantMessage("Fixed the semicolon.")]]);
  const { parent, parentLoop, childLoop } = agents({ parentModel, childModel });
  const context = {};
  const result = await run(parent, "Fix the build", { context });
  assert.equal(result.finalOutput, "Fixed the semicolon.");
  const capsule = childLoop.handoff();
  assert.equal(capsule.status, "done");
  assert.deepEqual(capsule.evidence, [{ id: "s1", name: "search", ok: true, observation: "search ok: build.log:12: missing semicolon" }]);
  const given = parentModel.calls[1].request.input.find((i) => i.type === "function_call_result" && i.callId === "r1");
  assert.equal(given.output.text, capsule.text);
  assert.match(capsule.text, /^Sub-agent capsule \(done\)\nGoal: Find why the build fails\n/);
  // Each planloop's state under its own key of the shared context.
  assert.equal(context.planloop.snapshot.turn.message, "Fix the build");
  assert.equal(context["planloop:research"].snapshot.turn.message, "Find why the build fails");
  assert.equal(parentLoop.session.todos().length, 0);
});

for (const approved of [true, false]) {
  test(`OpenAI Agents SDK: a sub-agent's gated call surfaces on the root run; after a restart, ${approved ? "approved, it runs" : "rejected, it does not"}, and the capsule comes back`, async () => {
    const done = [];
    const first = agents({
      parentModel: new ScriptedModel([[functionCall("research", { input: "Reset the branch to main" }, { callId: "r1" })]]),
      childModel: new ScriptedModel([[functionCall("reset_branch", { to: "main" }, { callId: "x1" })]]),
      done,
    });
    const paused = await run(first.parent, "Fix the build", { context: {} });
    assert.deepEqual(paused.interruptions.map((i) => [i.agent.name, i.rawItem.name]), [["Researcher", "reset_branch"]]);
    assert.equal(first.childLoop.handoff().status, "blocked");
    const saved = paused.state.toString();
    // Another process: fresh planloops and agents, the run state from its string.
    const after = agents({
      parentModel: new ScriptedModel([[assistantMessage(approved ? "The branch is reset." : "Left the branch alone.")]]),
      childModel: new ScriptedModel([[assistantMessage(approved ? "Reset to main." : "I did not reset it: the user said no.")]]),
      done,
      now: 5_000,
    });
    const state = await RunState.fromString(after.parent, saved);
    after.parentLoop.resume(state);
    after.childLoop.resume(state);
    const [interruption] = state.getInterruptions();
    if (approved) state.approve(interruption);
    else state.reject(interruption, { message: "Keep the branch." });
    const result = await run(after.parent, state);
    assert.equal(result.finalOutput, approved ? "The branch is reset." : "Left the branch alone.");
    assert.deepEqual(done, approved ? ["main"] : []);
    const capsule = after.childLoop.handoff();
    assert.equal(capsule.status, "done");
    // (A rejected call did not run: no result backs anything.)
    assert.deepEqual(capsule.evidence, approved ? [{ id: "x1", name: "reset_branch", ok: true, observation: "reset_branch ok: reset to main" }] : []);
    assert.equal(capsule.summary, approved ? "Reset to main." : "I did not reset it: the user said no.");
  });
}

test("OpenAI Agents SDK: planloop.asTool gives the capsule; with delegation on, the parent's result is made from the child's session, across an approval and a restart", async () => {
  const done = [];
  const first = agents({
    parentModel: new ScriptedModel([[functionCall("research", { input: "Reset the branch to main" }, { callId: "r1" })]]),
    childModel: new ScriptedModel([[functionCall("reset_branch", { to: "main" }, { callId: "x1" })]]),
    done,
    wrapped: true,
  });
  const paused = await run(first.parent, "Fix the build", { context: {} });
  assert.deepEqual(paused.interruptions.map((i) => i.rawItem.name), ["reset_branch"]);
  assert.deepEqual(first.parentLoop.session.delegations().map((d) => [d.callId, d.goal]), [["r1", "Reset the branch to main"]]);
  const saved = paused.state.toString();
  const parentModel = new ScriptedModel([[assistantMessage("The branch is reset.")]]);
  const after = agents({ parentModel, childModel: new ScriptedModel([[assistantMessage("Reset to main.")]]), done, now: 5_000, wrapped: true });
  const state = await RunState.fromString(after.parent, saved);
  after.parentLoop.resume(state);
  after.childLoop.resume(state);
  state.approve(state.getInterruptions()[0]);
  const result = await run(after.parent, state);
  assert.equal(result.finalOutput, "The branch is reset.");
  assert.deepEqual(done, ["main"]);
  const given = parentModel.calls[0].request.input.find((i) => i.type === "function_call_result" && i.callId === "r1");
  assert.match(given.output.text, /^Sub-agent capsule \(done\)\nGoal: Reset the branch to main\nSummary: Reset to main\./);
  // Finished from the child's session: its steps are under the parent's call.
  const steps = after.parentLoop.session.steps();
  assert.ok(steps.includes('[Act] r1 › reset_branch("main")'), steps.join("\n"));
  assert.equal(after.parentLoop.session.delegations().length, 0);
});
