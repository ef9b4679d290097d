// Sub-agents as the AI SDK's docs build them (node_modules/ai/docs, "Subagents": a tool
// whose `execute` runs another agent, and whose `toModelOutput` decides what the parent's
// model reads), in AI SDK 7 and 6 with the SDK's mock models: the child runs with a
// planloop of its own and hands back `planloop.handoff()`, so the parent's model reads
// the capsule, never the child's transcript, and never an empty result when the child
// stopped on a tool call.
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
    assert.deepEqual(capsule.evidence, [{ id: "s1", name: "search", ok: true }]);
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
