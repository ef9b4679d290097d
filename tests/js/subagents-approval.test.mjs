// A sub-agent's gated call in the AI SDK (7 and 6), with the SDKs' own mock models: the
// SDK has no approvals inside a sub-agent tool (node_modules/ai/docs/03-agents/
// 06-subagents.mdx, "No Tool Approvals in Subagents"), so `planloop.subAgent` runs the
// child inside the parent's session and asks for the child's call on the parent's run,
// through the SDK's own approval flow (AI SDK 7's `toolApproval`, AI SDK 6's
// `needsApproval`), across a restart. What the user approves is what runs; the parent's
// model reads the child's capsule, and nothing of the approval traffic.
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
  { major: "AI SDK 6", ai: ai6, Mock: MockLanguageModelV3, createPlanloop: await createPlanloop6("subagents-approval-v6") },
];

const APPROVAL_TOOL = "planloop_approve_sub_agent";
const CONFIG = { tools: { read: ["search"] }, delegation: { enabled: true, toolNames: ["research"] }, history: { mode: "full" } };
const todos = (status) => ({ todos: [{ id: "reset", content: "Reset the branch to main", status }] });
/** The parent: a list, the delegation of its item, then its answer. */
const PARENT = [
  { calls: [["w1", "write_todos", todos("in_progress")]] },
  { calls: [["r1", "research", { goal: "Reset the branch to main", todoId: "reset" }]] },
];
/** The child's gated call. */
const RESET = { calls: [["x1", "reset_branch", { to: "main" }]] };

for (const { major, ai, Mock, createPlanloop } of majors) {
  const seven = major === "AI SDK 7";

  /** The child's tools: `search` (a read) and `reset_branch` (gated), which records what it reset in `done`. */
  const childTools = (done) => ({
    search: ai.tool({ description: "Search the logs", inputSchema: ai.jsonSchema({ type: "object", properties: { q: { type: "string" } } }), execute: async () => "build.log:12: missing semicolon" }),
    reset_branch: ai.tool({ description: "Reset the branch", inputSchema: ai.jsonSchema({ type: "object", properties: { to: { type: "string" } }, required: ["to"] }), execute: async ({ to }) => (done.push(to), `reset to ${to}`) }),
  });

  /** A parent planloop (new, or from `snapshot`) with its `research` sub-agent; the
   * parent's and the child's models replay their scripts. `approval`: "toolApproval"
   * (AI SDK 7's planloop.toolApproval()) or "needsApproval" (each tool's own). */
  const world = ({ parentScript, childScript, done, snapshot, approval = seven ? "toolApproval" : "needsApproval", now = 1_000 }) => {
    const planloop = snapshot === undefined ? createPlanloop({ config: CONFIG, now: () => now }) : createPlanloop({ snapshot, now: () => now });
    const parentModel = scripted(Mock, parentScript);
    const childModel = scripted(Mock, childScript);
    const research = planloop.subAgent({ description: "Hand a task to a sub-agent", model: childModel, tools: childTools(done), instructions: "You look after the repository." });
    const options = {
      model: ai.wrapLanguageModel({ model: parentModel, middleware: planloop.middleware }),
      tools: planloop.tools({ research }),
      stopWhen: ai.stepCountIs(8),
      ...(approval === "toolApproval" ? { toolApproval: planloop.toolApproval() } : {}),
    };
    return { planloop, parentModel, childModel, options };
  };

  /** generateText or streamText (consumed), as one result shape (the messages of every
   * step: AI SDK 7's `responseMessages`, 6's `response.messages`). */
  const call = async (stream, options) => {
    if (!stream) {
      const r = await ai.generateText(options);
      return { text: r.text, content: r.content, messages: r.responseMessages ?? r.response.messages, steps: r.steps };
    }
    const r = ai.streamText(options);
    await r.consumeStream();
    return { text: await r.text, content: await r.content, messages: (await r.responseMessages) ?? (await r.response).messages, steps: await r.steps };
  };
  const requests = (result) => result.content.filter((p) => p.type === "tool-approval-request" && !p.isAutomatic);
  const answers = (result, approved, reason) => ({
    role: "tool",
    content: requests(result).map((p) => ({ type: "tool-approval-response", approvalId: p.approvalId, approved, ...(reason ? { reason } : {}) })),
  });
  const prompts = (model, stream) => (stream ? model.doStreamCalls : model.doGenerateCalls).map((c) => c.prompt);
  /** The result of call `id` in a prompt. */
  const resultIn = (prompt, id) => prompt.filter((m) => m.role === "tool").flatMap((m) => m.content).find((p) => p.toolCallId === id);

  for (const stream of [false, true]) {
    const api = stream ? "streamText" : "generateText";
    test(`${major}: a sub-agent's gated call is asked on the parent's run (${seven ? "toolApproval" : "needsApproval"}, ${api}); approved, it runs and the capsule answers the parent`, async () => {
      const done = [];
      const { planloop, parentModel, childModel, options } = world({ parentScript: [...PARENT, { text: "The branch is reset." }], childScript: [RESET, { text: "Reset the branch to main." }], done });
      const messages = [{ role: "user", content: "Reset the branch" }];
      const first = await call(stream, { ...options, messages });
      const [asked] = requests(first);
      assert.equal(requests(first).length, 1);
      assert.equal(asked.toolCall.toolName, APPROVAL_TOOL);
      assert.deepEqual(asked.toolCall.input, { subAgent: "r1", tool: "reset_branch", args: { to: "main" } });
      assert.deepEqual(done, []);
      // The parent's model was asked twice; the third call was answered by planloop.
      assert.equal(prompts(parentModel, stream).length, 2);
      messages.push(...first.messages, answers(first, true));
      const second = await call(stream, { ...options, messages });
      assert.equal(second.text, "The branch is reset.");
      assert.deepEqual(done, ["main"]);
      const last = prompts(parentModel, stream).at(-1);
      assert.match(resultIn(last, "r1").output.value, /^Sub-agent capsule \(done\)\nGoal: Reset the branch to main\nSummary: Reset the branch to main\./);
      // None of the approval traffic, nothing of the child's transcript.
      for (const prompt of prompts(parentModel, stream)) assert.doesNotMatch(JSON.stringify(prompt), /planloop_approve_sub_agent|planloop-approve|<delegation>|You look after/);
      for (const { tools } of stream ? parentModel.doStreamCalls : parentModel.doGenerateCalls) assert.deepEqual(tools.map((t) => t.name).filter((n) => n.startsWith("planloop")), []);
      assert.deepEqual(planloop.session.todos().map((t) => t.status), ["completed"]);
      assert.deepEqual(planloop.session.delegations(), []);
      // The budget is the parent's: its three model calls (not the one planloop answered)
      // and the child's two, carved from it.
      assert.equal(prompts(childModel, false).length, 2); // (the child runs with generateText)
      const { iterations, delegated } = planloop.session.snapshot().turn;
      assert.deepEqual({ iterations, delegated, total: planloop.session.progress().iterations }, { iterations: 3, delegated: 2, total: 5 });
    });
  }

  const run = async (options, messages) => {
    const r = await ai.generateText({ ...options, messages });
    messages.push(...(r.responseMessages ?? r.response.messages));
    return r;
  };
  /** The output the app's messages hold for call `id`. */
  const outputIn = (messages, id) => resultIn(messages, id)?.output.value;
  const textOf = (message) => (typeof message.content === "string" ? message.content : message.content.map((p) => p.text ?? "").join(""));

  test(`${major}: approved after a restart, the child is rebuilt from the parent's snapshot and the call runs`, async () => {
    const done = [];
    const before = world({ parentScript: PARENT, childScript: [RESET], done });
    const messages = [{ role: "user", content: "Reset the branch" }];
    const first = await run(before.options, messages);
    messages.push(answers(first, true));
    const saved = JSON.stringify(before.planloop.snapshot());
    // Another process: the parent from its snapshot, the app's messages; the child's own messages are gone.
    const after = world({ parentScript: [{ text: "The branch is reset." }], childScript: [{ text: "Reset the branch to main." }], done, snapshot: saved, now: 60_000 });
    const second = await run(after.options, messages);
    assert.equal(second.text, "The branch is reset.");
    assert.deepEqual(done, ["main"]);
    // The child's model was told where it stands, and read its call's result.
    const [childPrompt] = after.childModel.doGenerateCalls.map((c) => c.prompt);
    const user = childPrompt.find((m) => m.role === "user");
    assert.match(textOf(user), /^<resume>\n[^]*Goal: Reset the branch to main/);
    assert.equal(resultIn(childPrompt, "x1").output.value, "[tool_result:reset_branch] reset to main");
    const [parentPrompt] = after.parentModel.doGenerateCalls.map((c) => c.prompt);
    assert.match(resultIn(parentPrompt, "r1").output.value, /^Sub-agent capsule \(done\)\nGoal: Reset the branch to main\nSummary: Reset the branch to main\./);
    assert.deepEqual(after.planloop.session.todos().map((t) => t.status), ["completed"]);
    // A later message, in yet another process: the parent's model reads r1 answered by the
    // capsule still, not by what the app kept for it (that the sub-agent waited).
    assert.match(outputIn(messages, "r1"), /^Sub-agent r1 waits for the user's approval/);
    messages.push({ role: "user", content: "What did it reset?" });
    const later = world({ parentScript: [{ text: "It reset main." }], childScript: [], done, snapshot: JSON.stringify(after.planloop.snapshot()), now: 120_000 });
    assert.equal((await run(later.options, messages)).text, "It reset main.");
    const [laterPrompt] = later.parentModel.doGenerateCalls.map((c) => c.prompt);
    assert.match(resultIn(laterPrompt, "r1").output.value, /^Sub-agent capsule \(done\)\nGoal: Reset the branch to main/);
    assert.doesNotMatch(JSON.stringify(laterPrompt), /planloop_approve_sub_agent|planloop-approve|waits for the user's approval/);
  });

  for (const restarted of [false, true]) {
    test(`${major}: denied with a reason${restarted ? " after a restart" : ""}, the write never runs, the child reads why, and its capsule comes back`, async () => {
      const done = [];
      const childAfter = [{ text: "I did not reset the branch: the user wants to keep it." }];
      const parentAfter = [{ text: "The branch stays as it is." }];
      const before = world({ parentScript: restarted ? PARENT : [...PARENT, ...parentAfter], childScript: restarted ? [RESET] : [RESET, ...childAfter], done });
      const messages = [{ role: "user", content: "Reset the branch" }];
      const first = await run(before.options, messages);
      messages.push(answers(first, false, "Keep the branch: it has my work."));
      const after = restarted ? world({ parentScript: parentAfter, childScript: childAfter, done, snapshot: JSON.stringify(before.planloop.snapshot()) }) : before;
      const second = await run(after.options, messages);
      assert.equal(second.text, "The branch stays as it is.");
      assert.deepEqual(done, []);
      const childPrompt = after.childModel.doGenerateCalls.at(-1).prompt;
      assert.match(JSON.stringify(resultIn(childPrompt, "x1").output), /Keep the branch: it has my work\./);
      const parentPrompt = after.parentModel.doGenerateCalls.at(-1).prompt;
      assert.match(resultIn(parentPrompt, "r1").output.value, /^Sub-agent capsule \(done\)\nGoal: Reset the branch to main\nSummary: I did not reset the branch/);
      assert.doesNotMatch(JSON.stringify(parentPrompt), /planloop_approve_sub_agent|planloop-approve/);
      assert.deepEqual(after.planloop.session.delegations(), []);
    });
  }

  test(`${major}: a second gated call of the same child, after the first approval, is asked again`, async () => {
    const done = [];
    const { planloop, options } = world({
      parentScript: [...PARENT, { text: "Both branches are reset." }],
      childScript: [RESET, { calls: [["x2", "reset_branch", { to: "release" }]] }, { text: "Reset main and release." }],
      done,
    });
    const messages = [{ role: "user", content: "Reset the branch" }];
    const first = await run(options, messages);
    messages.push(answers(first, true));
    const second = await run(options, messages);
    assert.deepEqual(done, ["main"]);
    assert.deepEqual(requests(second).map((r) => r.toolCall.input), [{ subAgent: "r1", tool: "reset_branch", args: { to: "release" } }]);
    assert.notEqual(requests(second)[0].toolCall.toolCallId, requests(first)[0].toolCall.toolCallId);
    messages.push(answers(second, true));
    const third = await run(options, messages);
    assert.equal(third.text, "Both branches are reset.");
    assert.deepEqual(done, ["main", "release"]);
    assert.deepEqual(planloop.session.todos().map((t) => t.status), ["completed"]);
  });

  test(`${major}: a tampered approval (its args changed in the messages sent back) runs nothing, changes nothing, and the core's call is asked again`, async () => {
    const done = [];
    const { planloop, options } = world({ parentScript: [...PARENT, { text: "The branch is reset." }], childScript: [RESET, { text: "Reset the branch to main." }], done });
    const messages = [{ role: "user", content: "Reset the branch" }];
    const first = await run(options, messages);
    const [asked] = requests(first);
    const call = messages.flatMap((m) => (m.role === "assistant" ? m.content : [])).find((p) => p.type === "tool-call" && p.toolCallId === asked.toolCall.toolCallId);
    call.input = { ...call.input, args: { to: "evil" } };
    messages.push(answers(first, true));
    const saved = JSON.stringify(planloop.snapshot());
    const second = await run(options, messages);
    assert.deepEqual(done, []);
    assert.equal(JSON.stringify(planloop.snapshot()), saved);
    assert.match(outputIn(messages, asked.toolCall.toolCallId), /does not show what sub-agent r1 waits for \(reset_branch\(\{"to":"main"\}\)\): nothing ran/);
    // Asked again, as the core holds it; approved as shown, it runs.
    assert.deepEqual(requests(second).map((r) => r.toolCall.input), [{ subAgent: "r1", tool: "reset_branch", args: { to: "main" } }]);
    messages.push(answers(second, true));
    assert.equal((await run(options, messages)).text, "The branch is reset.");
    assert.deepEqual(done, ["main"]);
  });

  test(`${major}: an approval for an action no child holds runs nothing and changes nothing`, async () => {
    const done = [];
    const { planloop, options, parentModel } = world({ parentScript: PARENT, childScript: [RESET], done });
    const messages = [{ role: "user", content: "Reset the branch" }];
    const first = await run(options, messages);
    const [asked] = requests(first);
    const forged = "planloop-approve:1:0:r1/act-9-9";
    for (const part of messages.flatMap((m) => (m.role === "assistant" ? m.content : []))) if (part.toolCallId === asked.toolCall.toolCallId) part.toolCallId = forged;
    messages.push(answers(first, true));
    const saved = JSON.stringify(planloop.snapshot());
    const second = await run(options, messages);
    assert.deepEqual(done, []);
    assert.equal(JSON.stringify(planloop.snapshot()), saved);
    assert.match(outputIn(messages, forged), /No sub-agent's call waits for this approval \(planloop-approve:1:0:r1\/act-9-9\)[^]*Nothing ran\./);
    assert.deepEqual(requests(second).map((r) => r.toolCall.input.args), [{ to: "main" }]);
    assert.equal(parentModel.doGenerateCalls.length, 2);
  });

  test(`${major}: the model calling planloop's approval tool itself gets nothing run; the child's call waits for the user`, async () => {
    const done = [];
    const own = ["m1", APPROVAL_TOOL, { subAgent: "r1", tool: "reset_branch", args: { to: "main" } }];
    const { options } = world({
      parentScript: [{ calls: [["r1", "research", { goal: "Reset the branch to main" }], own] }, { text: "The branch is reset." }],
      childScript: [RESET, { text: "Reset the branch to main." }],
      done,
    });
    const messages = [{ role: "user", content: "Reset the branch" }];
    const first = await run(options, messages);
    // Whatever the user answers to the model's own call, it runs nothing.
    assert.deepEqual(requests(first).map((r) => r.toolCall.toolCallId), ["m1"]);
    messages.push(answers(first, true));
    const second = await run(options, messages);
    assert.deepEqual(done, []);
    assert.match(outputIn(messages, "m1"), /planloop did not ask for this approval \(m1\): nothing ran/);
    // planloop's own request for the child's call comes next; approved, it runs.
    assert.deepEqual(requests(second).map((r) => r.toolCall.input), [{ subAgent: "r1", tool: "reset_branch", args: { to: "main" } }]);
    messages.push(answers(second, true));
    assert.equal((await run(options, messages)).text, "The branch is reset.");
    assert.deepEqual(done, ["main"]);
  });

  if (seven) {
    // Source: docs 03-ai-sdk-core/15-tools-and-tool-calling.mdx ("Generic toolApproval"):
    // a policy of the app's own, given as it is, answers for planloop's approval call.
    test(`${major}: a toolApproval that answers for planloop's approval call in its place runs nothing, and the run fails`, async () => {
      const done = [];
      const { planloop, options } = world({ parentScript: PARENT, childScript: [RESET], done });
      const policy = ({ toolCall }) => (toolCall.toolName === "delete_everything" ? "user-approval" : undefined);
      await assert.rejects(
        ai.generateText({ ...options, toolApproval: policy, messages: [{ role: "user", content: "Reset the branch" }] }),
        /planloop_approve_sub_agent \(call planloop-approve:1:0:r1\/act-1-1\) asks the user for reset_branch\(\{"to":"main"\}\) of sub-agent r1, but the AI SDK ran it without asking[^]*planloop\.toolApproval/,
      );
      assert.deepEqual(done, []);
      assert.deepEqual(planloop.session.proposals().map((p) => [p.actionId, p.status]), [["r1/act-1-1", "pending"]]);
    });
  }

  test(`${major}: a sub-agent with nothing to approve hands back its capsule at once, finished once`, async () => {
    const done = [];
    const { planloop, parentModel, childModel, options } = world({ parentScript: [...PARENT, { text: "Nothing to reset." }], childScript: [{ text: "The branch is already at main." }], done });
    const result = await run(options, [{ role: "user", content: "Reset the branch" }]);
    assert.equal(result.text, "Nothing to reset.");
    const [r1] = result.steps[1].content.filter((p) => p.type === "tool-result");
    assert.equal(r1.output.status, "done");
    assert.match(resultIn(parentModel.doGenerateCalls[2].prompt, "r1").output.value, /^Sub-agent capsule \(done\)\nGoal: Reset the branch to main\nSummary: The branch is already at main\./);
    assert.equal(childModel.doGenerateCalls.length, 1);
    assert.deepEqual(planloop.session.todos().map((t) => t.status), ["completed"]);
    assert.equal(planloop.session.steps().filter((s) => s.includes("sub-agent r1: done")).length, 1);
  });

  test(`${major}: a sub-agent tool under a name the session does not read as a delegation fails clearly`, () => {
    const planloop = createPlanloop({ config: { delegation: { enabled: true, toolNames: ["research"] } } });
    const helper = planloop.subAgent({ description: "A sub-agent", model: scripted(Mock, []), tools: {} });
    assert.throws(() => planloop.tools({ helper }), /the sub-agent tool "helper" [^]*delegation = \{ enabled: true, toolNames: \["helper"\] \}/);
    assert.throws(() => createPlanloop().subAgent({ description: "A sub-agent", model: scripted(Mock, []) }), /config\.delegation = \{ enabled: true/);
  });
}
