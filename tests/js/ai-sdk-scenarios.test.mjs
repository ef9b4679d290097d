// planloop/ai-sdk as the AI SDK's users use it, in both supported majors (7, and 6 as
// `ai-v6`), with the SDK's own mock models: scenarios rewritten from the SDK's docs (they
// ship in node_modules/ai/docs) and its test suites (vercel/ai packages/ai/src/
// generate-text/generate-text.test.ts and stream-text.test.ts), each naming its source.
// What they hold to: each new user message opens one turn and nothing throws; a pending
// approval survives a restart; no gated call runs without the user's approval, however
// the SDK is configured; a stopped stream leaves the session usable.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as ai7 from "ai";
import { MockLanguageModelV4 } from "ai/test";
import * as ai6 from "ai-v6";
import { MockLanguageModelV3 } from "ai-v6/test";

import { createPlanloop as createPlanloop7 } from "../../pkg/ai-sdk.mjs";
import { createPlanloop6, generated, scripted, streamed } from "./support/ai-sdk.mjs";

const majors = [
  { major: "AI SDK 7", ai: ai7, Mock: MockLanguageModelV4, createPlanloop: createPlanloop7 },
  { major: "AI SDK 6", ai: ai6, Mock: MockLanguageModelV3, createPlanloop: await createPlanloop6("ai-sdk-scenarios-v6") },
];

const todos = (second) => ({ todos: [{ id: "find", content: "Find the Q3 note", status: "completed" }, { id: "write", content: "Summarize it", status: second }] });
/** A turn with a plan: a premature stop planloop sends back, then the plan finished. */
const PLANNED = (answer) => [
  { calls: [["w1", "write_todos", todos("in_progress")], ["s1", "search", { query: "Q3" }]] },
  { text: "I found it." },
  { calls: [["w2", "write_todos", todos("completed")]] },
  { text: answer },
];
const CONFIG = { tools: { read: ["search"] } };
const TURN_EVENTS = new Set(["TurnStarted", "TurnAbandoned", "TurnCompleted", "TurnPaused", "TurnResumed", "ActionProposed", "ActionResolved"]);

/** The session's turn and approval events since the last call, as `Type` or `Type:status`. */
const events = (planloop) =>
  planloop.session
    .drainEvents()
    .filter((e) => TURN_EVENTS.has(e.type))
    .map((e) => (e.type === "ActionResolved" ? `${e.type}:${e.status}` : e.type));
const textOf = (message) => (typeof message.content === "string" ? message.content : message.content.map((p) => p.text ?? "").join(""));
/** The tool-result parts the model got in its `index`th call. */
const resultsIn = (calls, index) => calls[index].prompt.filter((m) => m.role === "tool").flatMap((m) => m.content);

for (const { major, ai, Mock, createPlanloop } of majors) {
  const seven = major === "AI SDK 7";
  /** The notes tools: `search` (a read), `delete_note` and `run_command` (gated), each
   * recording what ran in `ran`. */
  const notes = (ran = []) => ({
    search: ai.tool({ description: "Search the notes", inputSchema: ai.jsonSchema({ type: "object", properties: { query: { type: "string" } }, required: ["query"] }), execute: async ({ query }) => (ran.push(`search ${query}`), "finance/q3.md") }),
    delete_note: ai.tool({ description: "Delete a note", inputSchema: ai.jsonSchema({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }), execute: async ({ path }) => (ran.push(`delete ${path}`), "deleted") }),
    run_command: ai.tool({ description: "Run a shell command", inputSchema: ai.jsonSchema({ type: "object", properties: { command: { type: "string" } }, required: ["command"] }), execute: async ({ command }) => (ran.push(`run ${command}`), "ok") }),
  });
  /** generateText or streamText (consumed), as one result shape. */
  const call = async (stream, options) => {
    if (!stream) {
      const r = await ai.generateText(options);
      return { text: r.text, content: r.content, messages: r.response.messages };
    }
    const r = ai.streamText(options);
    await r.consumeStream();
    return { text: await r.text, content: await r.content, messages: (await r.response).messages };
  };
  const modelCalls = (model, stream) => (stream ? model.doStreamCalls : model.doGenerateCalls);
  /** The approval requests of a result, answered: `approve` maps a call id to true/false. */
  const answers = (result, approve, reason) => ({
    role: "tool",
    content: result.content
      .filter((p) => p.type === "tool-approval-request" && !p.isAutomatic)
      .map((p) => ({ type: "tool-approval-response", approvalId: p.approvalId, approved: approve(p.toolCall.toolCallId), ...(reason ? { reason } : {}) })),
  });

  // ---- Item 1: each new user message opens one turn ----

  for (const stream of [false, true]) {
    const api = stream ? "streamText" : "generateText";
    // Source: docs 03-ai-sdk-core/05-generating-text.mdx (one call per prompt) with
    // stream-text.test.ts / generate-text.test.ts "options.prompt": a server answers
    // each request with a fresh call, the planloop kept from the first.
    test(`${major}: a second and third ${api}({prompt}) on one planloop each open a turn`, async () => {
      const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
      const model = scripted(Mock, [...PLANNED("Q3 revenue rose 4%."), { text: "Q4 is not written yet." }, { text: "Still not written." }]);
      const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes()), stopWhen: ai.stepCountIs(10) };
      assert.equal((await call(stream, { ...options, prompt: "Summarize the Q3 note" })).text, "Q3 revenue rose 4%.");
      assert.equal((await call(stream, { ...options, prompt: "And Q4?" })).text, "Q4 is not written yet.");
      // The same words again: the turn they opened has ended, so they open another.
      assert.equal((await call(stream, { ...options, prompt: "And Q4?" })).text, "Still not written.");
      assert.deepEqual(events(planloop), ["TurnStarted", "TurnCompleted", "TurnStarted", "TurnCompleted", "TurnStarted", "TurnCompleted"]);
      // Each turn's model call sees its own message (and the plan of the first in the system prompt).
      assert.equal(textOf(modelCalls(model, stream)[4].prompt.at(-1)), "And Q4?");
    });

    // Source: docs 03-agents/04-loop-control.mdx ("Stop Conditions": a limit stops the
    // loop mid-task) — the user answers planloop's pause with "continue" in a new call.
    test(`${major}: ${api}({prompt: "continue"}) after a pause resumes the plan on the same planloop`, async () => {
      const planloop = createPlanloop({ config: { ...CONFIG, maxIterations: 2 }, now: () => 1000 });
      const model = scripted(Mock, [
        { calls: [["w1", "write_todos", todos("pending")], ["s1", "search", { query: "Q3" }]] },
        { calls: [["s2", "search", { query: "Q3 revenue" }]] },
        { calls: [["w2", "write_todos", todos("completed")]] },
        { text: "Q3 revenue rose 4%." },
      ]);
      const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes()), stopWhen: ai.stepCountIs(5) };
      const paused = await call(stream, { ...options, prompt: "Summarize the Q3 note" });
      assert.match(paused.text, /Say "continue" to resume/);
      const done = await call(stream, { ...options, prompt: "continue" });
      assert.equal(done.text, "Q3 revenue rose 4%.");
      assert.match(textOf(modelCalls(model, stream)[2].prompt.at(-1)), /^<resume>[\s\S]*Next: Summarize it[\s\S]*continue$/);
      assert.deepEqual(events(planloop), ["TurnStarted", "TurnPaused", "TurnStarted", "TurnCompleted"]);
    });
  }

  // Source: docs 04-ai-sdk-ui/03-chatbot-message-persistence.mdx ("Sending only the last
  // message"): the client sends a window of the chat, not all of it.
  test(`${major}: a chat that sends only its last few messages opens one turn per user message`, async () => {
    const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
    const model = scripted(Mock, [{ text: "Q3 rose 4%." }, { text: "Q4 fell 1%." }, { calls: [["s1", "search", { query: "Q1" }]] }, { text: "Q1 was flat." }, { text: "You are welcome." }]);
    const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes()), stopWhen: ai.stepCountIs(5) };
    const chat = [{ role: "user", content: "How did Q3 go?" }];
    chat.push(...(await ai.generateText({ ...options, messages: chat })).response.messages, { role: "user", content: "And Q4?" });
    // The window holds the last two messages: the answer and the new question.
    chat.push(...(await ai.generateText({ ...options, messages: chat.slice(-2) })).response.messages, { role: "user", content: "And Q1?" });
    chat.push(...(await ai.generateText({ ...options, messages: chat.slice(-1) })).response.messages, { role: "user", content: "Thanks" });
    await ai.generateText({ ...options, messages: chat.slice(-1) });
    assert.deepEqual(events(planloop), ["TurnStarted", "TurnCompleted", "TurnStarted", "TurnCompleted", "TurnStarted", "TurnCompleted", "TurnStarted", "TurnCompleted"]);
    assert.equal(model.doGenerateCalls.length, 5);
  });

  // Source: docs 04-ai-sdk-ui/02-chatbot.mdx (the route handler: streamText over
  // convertToModelMessages(messages) of the whole UI history, once per user message).
  test(`${major}: useChat-style UI messages, one streamText per user message, each opens one turn`, async () => {
    const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
    const model = scripted(Mock, [{ text: "Hello." }, { calls: [["s1", "search", { query: "Q3" }]] }, { text: "It is in finance/q3.md." }, { text: "Yes." }, { text: "Yes, again." }]);
    const ui = [];
    const say = async (id, text) => {
      ui.push({ id, role: "user", parts: [{ type: "text", text }] });
      const result = ai.streamText({ model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), messages: await ai.convertToModelMessages(ui), tools: planloop.tools(notes()), stopWhen: ai.stepCountIs(5) });
      ui.push({ id: `${id}-answer`, role: "assistant", parts: [{ type: "text", text: await result.text }] });
    };
    await say("m1", "Hi");
    await say("m2", "Where is the Q3 note?");
    await say("m3", "Sure?");
    await say("m4", "Sure?"); // the same words: a new message all the same
    assert.deepEqual(ui.filter((m) => m.role === "assistant").map((m) => m.parts[0].text), ["Hello.", "It is in finance/q3.md.", "Yes.", "Yes, again."]);
    assert.equal(events(planloop).filter((e) => e === "TurnStarted").length, 4);
  });

  // ---- Approvals ----

  // Source: generate-text.test.ts "tool execution approval" ("when two calls from a
  // single tool that needs approval are approved", "... is denied"); docs
  // 03-agents/06-tool-approvals.mdx ("Handle Manual Approvals").
  for (const [label, approve] of [
    ["both approved", () => true],
    ["one approved, one denied", (id) => id === "d1"],
  ]) {
    for (const stream of [false, true]) {
      test(`${major}: two gated calls in one step, ${label} (${stream ? "streamText" : "generateText"}); the turn goes on`, async () => {
        const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
        const ran = [];
        const model = scripted(Mock, [
          { calls: [["d1", "delete_note", { path: "q3.md" }], ["d2", "delete_note", { path: "q4.md" }]] },
          { calls: [["s1", "search", { query: "left" }]] },
          { text: "Done." },
        ]);
        const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes(ran)), stopWhen: ai.stepCountIs(5) };
        const messages = [{ role: "user", content: "Delete the Q3 and Q4 notes" }];
        const first = await call(stream, { ...options, messages });
        assert.deepEqual(first.content.filter((p) => p.type === "tool-approval-request").map((p) => p.toolCall.toolCallId), ["d1", "d2"]);
        messages.push(...first.messages, answers(first, approve, "Keep it"));
        const second = await call(stream, { ...options, messages });
        assert.equal(second.text, "Done.");
        const both = approve("d2");
        assert.deepEqual(ran, [...(both ? ["delete q3.md", "delete q4.md"] : ["delete q3.md"]), "search left"]);
        const resolved = events(planloop).filter((e) => e.startsWith("ActionResolved"));
        assert.deepEqual(resolved.sort(), both ? ["ActionResolved:approved", "ActionResolved:approved"] : ["ActionResolved:approved", "ActionResolved:rejected"]);
        const seen = resultsIn(modelCalls(model, stream), 1);
        assert.match(seen.find((p) => p.toolCallId === "d2").output.value, both ? /deleted/ : /rejected this action: Keep it/);
        // Each result reaches the session once: the step after has both still in the prompt.
        assert.equal(resultsIn(modelCalls(model, stream), 2).length, 3);
        assert.equal(planloop.session.snapshot().turn.open, false);
      });
    }
  }

  // Source: generate-text.test.ts "when a call from a single tool that needs approval is
  // approved and the tool throws".
  test(`${major}: an approved call whose tool throws: approved, and the model reads the error`, async () => {
    const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
    const model = scripted(Mock, [{ calls: [["d1", "delete_note", { path: "q3.md" }]] }, { text: "It failed." }]);
    const tools = planloop.tools({ ...notes(), delete_note: ai.tool({ description: "Delete a note", inputSchema: ai.jsonSchema({ type: "object" }), execute: async () => { throw new Error("disk is read-only"); } }) });
    const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools, stopWhen: ai.stepCountIs(5) };
    const messages = [{ role: "user", content: "Delete the Q3 note" }];
    const first = await ai.generateText({ ...options, messages });
    messages.push(...first.response.messages, answers({ content: first.content }, () => true));
    assert.equal((await ai.generateText({ ...options, messages })).text, "It failed.");
    assert.deepEqual(events(planloop).filter((e) => e.startsWith("ActionResolved")), ["ActionResolved:approved"]);
    const seen = resultsIn(model.doGenerateCalls, 1).find((p) => p.toolCallId === "d1");
    assert.equal(seen.output.type, "error-text");
    assert.match(seen.output.value, /disk is read-only/);
  });

  // ---- Item 4: a restart between an approval request and its answer ----

  // Source: docs 03-agents/06-tool-approvals.mdx ("Handle Manual Approvals": two calls,
  // the messages kept between them) with 04-ai-sdk-ui/03-chatbot-message-persistence.mdx
  // (the server keeps the chat, not the process): the answer reaches a new process.
  for (const [label, approved, stream] of [
    ["approved, generateText", true, false],
    ["denied, generateText", false, false],
    ["approved, streamText", true, true],
  ]) {
    test(`${major}: a restart between an approval request and its answer (${label}): the call is resolved and the turn goes on`, async () => {
      const ran = [];
      const before = createPlanloop({ config: CONFIG, now: () => 1000 });
      const messages = [{ role: "user", content: "Delete the Q3 note" }];
      const first = await call(stream, {
        model: ai.wrapLanguageModel({ model: scripted(Mock, [{ calls: [["d1", "delete_note", { path: "q3.md" }]] }]), middleware: before.middleware }),
        messages,
        tools: before.tools(notes(ran)),
        stopWhen: ai.stepCountIs(5),
      });
      const saved = JSON.stringify(before.snapshot());
      messages.push(...first.messages, answers(first, () => approved, approved ? undefined : "Keep it"));

      const after = createPlanloop({ snapshot: saved, now: () => 2000 });
      const model = scripted(Mock, [{ calls: [["s1", "search", { query: "Q3" }]] }, { text: approved ? "Deleted." : "Kept it." }]);
      const second = await call(stream, { model: ai.wrapLanguageModel({ model, middleware: after.middleware }), messages, tools: after.tools(notes(ran)), stopWhen: ai.stepCountIs(5) });
      assert.equal(second.text, approved ? "Deleted." : "Kept it.");
      assert.deepEqual(ran, approved ? ["delete q3.md", "search Q3"] : ["search Q3"]);
      assert.deepEqual(events(after), [`ActionResolved:${approved ? "approved" : "rejected"}`, "TurnResumed", "TurnCompleted"]);
      const seen = resultsIn(modelCalls(model, stream), 0).find((p) => p.toolCallId === "d1");
      assert.match(seen.output.value, approved ? /^\[tool_result:delete_note\] deleted/ : /rejected this action: Keep it/);
    });
  }

  // ---- Item 5 and its kin: no gated call runs without the user's approval ----

  // Source: docs 03-ai-sdk-core/15-tools-and-tool-calling.mdx ("Tool Execution
  // Approval"): the tools go in as the app has them.
  test(`${major}: a tool that reaches the model without planloop.tools() fails the first model call, before anything runs`, async () => {
    const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
    const ran = [];
    const model = scripted(Mock, [{ calls: [["d1", "delete_note", { path: "q3.md" }]] }, { text: "Deleted." }]);
    const { delete_note, ...rest } = notes(ran);
    await assert.rejects(
      ai.generateText({ model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), prompt: "Delete the Q3 note", tools: { ...planloop.tools(rest), delete_note }, stopWhen: ai.stepCountIs(5) }),
      /"delete_note" reaches the model without planloop\.tools\(\)/,
    );
    assert.equal(model.doGenerateCalls.length, 0);
    assert.deepEqual(ran, []);
  });

  if (seven) {
    // Source: docs 03-ai-sdk-core/15-tools-and-tool-calling.mdx ("Generic toolApproval
    // function": runCommand asks, every other tool `undefined`).
    const docsPolicy = ({ toolCall }) => (toolCall.toolName === "run_command" ? "user-approval" : undefined);

    test(`${major}: toolApproval from the docs, given as it is, cannot run a gated call: it is refused and generateText fails`, async () => {
      const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
      const ran = [];
      const model = scripted(Mock, [{ calls: [["d1", "delete_note", { path: "q3.md" }]] }, { text: "Deleted." }]);
      await assert.rejects(
        ai.generateText({ model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), prompt: "Delete the Q3 note", tools: planloop.tools(notes(ran)), toolApproval: docsPolicy, stopWhen: ai.stepCountIs(5) }),
        /delete_note \(call d1\) waits for the user's approval, but the AI SDK ran it without asking[\s\S]*planloop\.toolApproval/,
      );
      assert.deepEqual(ran, []);
      // planloop's record says so: the call was not approved.
      assert.deepEqual(planloop.session.proposals().map((p) => [p.tool, p.status]), [["delete_note", "rejected"]]);
    });

    test(`${major}: the same with the default stopWhen: the step's result is planloop's refusal, and the next call fails`, async () => {
      const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
      const ran = [];
      const model = scripted(Mock, [{ calls: [["d1", "delete_note", { path: "q3.md" }]] }, { text: "Deleted." }]);
      const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes(ran)), toolApproval: docsPolicy };
      const messages = [{ role: "user", content: "Delete the Q3 note" }];
      const first = await ai.generateText({ ...options, messages });
      const refused = first.content.find((p) => p.type === "tool-error");
      assert.match(String(refused?.error), /waits for the user's approval, but the AI SDK ran it without asking/);
      assert.deepEqual(ran, []);
      messages.push(...first.response.messages);
      await assert.rejects(ai.generateText({ ...options, messages }), /waits for the user's approval/);
      // Once said, the session goes on: the call was not run, and its proposal is rejected.
      const later = await ai.generateText({ ...options, toolApproval: planloop.toolApproval(docsPolicy), messages });
      assert.equal(later.text, "Deleted.");
      assert.deepEqual(ran, []);
      assert.deepEqual(events(planloop), ["TurnStarted", "ActionProposed", "TurnPaused", "ActionResolved:rejected", "TurnResumed", "TurnCompleted"]);
    });

    for (const [label, policy] of [
      ["an automatic approval", { delete_note: "approved" }],
      ["not-applicable", { delete_note: "not-applicable" }],
    ]) {
      // Source: generate-text.test.ts "when a single tool is automatically approved";
      // docs 03-agents/06-tool-approvals.mdx ("Statuses").
      test(`${major}: toolApproval {delete_note: ${label}} given as it is: the call is refused, never run`, async () => {
        const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
        const ran = [];
        const model = scripted(Mock, [{ calls: [["d1", "delete_note", { path: "q3.md" }]] }]);
        const result = await ai.generateText({ model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), prompt: "Delete the Q3 note", tools: planloop.tools(notes(ran)), toolApproval: policy });
        assert.deepEqual(ran, []);
        assert.match(String(result.content.find((p) => p.type === "tool-error")?.error), /ran it without asking/);
      });
    }

    // Source: docs 03-agents/06-tool-approvals.mdx ("Require Approval for a Tool": a
    // per-tool map that names other tools only leaves the tool's own needsApproval).
    test(`${major}: a per-tool toolApproval naming other tools keeps planloop's gate`, async () => {
      const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
      const ran = [];
      const model = scripted(Mock, [{ calls: [["d1", "delete_note", { path: "q3.md" }], ["r1", "run_command", { command: "ls" }]] }, { text: "Done." }]);
      const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes(ran)), toolApproval: { run_command: "user-approval" }, stopWhen: ai.stepCountIs(5) };
      const messages = [{ role: "user", content: "Clean up" }];
      const first = await ai.generateText({ ...options, messages });
      assert.deepEqual(first.content.filter((p) => p.type === "tool-approval-request").map((p) => p.toolCall.toolName), ["delete_note", "run_command"]);
      messages.push(...first.response.messages, answers(first, () => true));
      assert.equal((await ai.generateText({ ...options, messages })).text, "Done.");
      assert.deepEqual(ran, ["delete q3.md", "run ls"]);
    });

    // Source: docs 03-ai-sdk-core/15-tools-and-tool-calling.mdx ("Generic toolApproval
    // function") and 03-agents/06-tool-approvals.mdx ("Handle Manual Approvals").
    test(`${major}: planloop.toolApproval(yours): your rules and planloop's gate, both asked; approved, both run`, async () => {
      // planloop holds delete_note only; the docs' rule asks for run_command only.
      const planloop = createPlanloop({ config: { tools: { read: ["search", "run_command"] } }, now: () => 1000 });
      const ran = [];
      const model = scripted(Mock, [{ calls: [["d1", "delete_note", { path: "q3.md" }], ["r1", "run_command", { command: "ls" }], ["s1", "search", { query: "Q3" }]] }, { text: "Done." }]);
      const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes(ran)), toolApproval: planloop.toolApproval(docsPolicy), stopWhen: ai.stepCountIs(5) };
      const messages = [{ role: "user", content: "Clean up" }];
      const first = await ai.generateText({ ...options, messages });
      assert.deepEqual(first.content.filter((p) => p.type === "tool-approval-request").map((p) => p.toolCall.toolName), ["delete_note", "run_command"]);
      assert.deepEqual(ran, ["search Q3"]);
      messages.push(...first.response.messages, answers(first, () => true));
      assert.equal((await ai.generateText({ ...options, messages })).text, "Done.");
      assert.deepEqual(ran, ["search Q3", "delete q3.md", "run ls"]);
      assert.deepEqual(events(planloop).filter((e) => e.startsWith("ActionResolved")), ["ActionResolved:approved"]);
    });

    // Source: docs 03-agents/06-tool-approvals.mdx ("Statuses", "Decide Based on Tool
    // Input": an automatic denial with a reason).
    test(`${major}: planloop.toolApproval(yours): the stricter status wins (your approval still asks, your denial denies)`, async () => {
      const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
      const ran = [];
      const model = scripted(Mock, [{ calls: [["d1", "delete_note", { path: "q3.md" }], ["r1", "run_command", { command: "rm -rf /" }]] }, { text: "Done." }]);
      const yours = { delete_note: "approved", run_command: async ({ command }) => (command.includes("rm") ? { type: "denied", reason: "No rm here" } : undefined) };
      const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes(ran)), toolApproval: planloop.toolApproval(yours), stopWhen: ai.stepCountIs(5) };
      const messages = [{ role: "user", content: "Clean up" }];
      const first = await ai.generateText({ ...options, messages });
      const requests = first.content.filter((p) => p.type === "tool-approval-request");
      assert.deepEqual(requests.map((p) => [p.toolCall.toolName, p.isAutomatic === true]), [["delete_note", false], ["run_command", true]]);
      assert.deepEqual(ran, []);
      assert.deepEqual(planloop.session.proposals().map((p) => [p.tool, p.status]), [["delete_note", "pending"], ["run_command", "pending"]]);
      messages.push(...first.response.messages, answers(first, () => true));
      assert.equal((await ai.generateText({ ...options, messages })).text, "Done.");
      assert.deepEqual(ran, ["delete q3.md"]);
      assert.deepEqual(events(planloop).filter((e) => e.startsWith("ActionResolved")).sort(), ["ActionResolved:approved", "ActionResolved:rejected"]);
      assert.match(resultsIn(model.doGenerateCalls, 1).find((p) => p.toolCallId === "r1").output.value, /rejected this action: No rm here/);
    });

    // Source: docs 03-agents/06-tool-approvals.mdx (toolApproval on a ToolLoopAgent) with
    // the restart of item 4: the approval is re-read by planloop's toolApproval.
    test(`${major}: ToolLoopAgent with toolApproval: planloop.toolApproval(), restarted between request and answer`, async () => {
      const ran = [];
      const agentOf = (planloop, script) =>
        new ai.ToolLoopAgent({ model: ai.wrapLanguageModel({ model: scripted(Mock, script), middleware: planloop.middleware }), tools: planloop.tools(notes(ran)), toolApproval: planloop.toolApproval(), stopWhen: ai.stepCountIs(5) });
      const before = createPlanloop({ config: CONFIG, now: () => 1000 });
      const messages = [{ role: "user", content: "Delete the Q3 note" }];
      const first = await agentOf(before, [{ calls: [["d1", "delete_note", { path: "q3.md" }]] }]).generate({ messages });
      messages.push(...first.response.messages, answers(first, () => true));
      const after = createPlanloop({ snapshot: before.snapshot(), now: () => 2000 });
      const done = await agentOf(after, [{ text: "Deleted." }]).generate({ messages });
      assert.equal(done.text, "Deleted.");
      assert.deepEqual(ran, ["delete q3.md"]);
      assert.deepEqual(events(after), ["ActionResolved:approved", "TurnResumed", "TurnCompleted"]);
    });
  }

  // ---- Loop control ----

  // Source: generate-text.test.ts "options.stopWhen" ("2 steps: initial, tool-result")
  // and docs 03-agents/04-loop-control.mdx: the SDK's default stops after one step; the
  // app calls again with the response messages, and the same turn goes on.
  test(`${major}: the SDK stops first (default stopWhen); the next call with the same history goes on with the same turn`, async () => {
    const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
    const model = scripted(Mock, PLANNED("Q3 revenue rose 4%."));
    const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes()) };
    const messages = [{ role: "user", content: "Summarize the Q3 note" }];
    // One SDK step per call: the calls, then the refused stop and the plan finished, then the answer.
    const texts = [];
    for (let request = 0; request < 3; request++) {
      const result = await ai.generateText({ ...options, messages });
      messages.push(...result.response.messages);
      texts.push(result.text);
    }
    assert.deepEqual(texts, ["", "", "Q3 revenue rose 4%."]);
    assert.equal(model.doGenerateCalls.length, 4);
    assert.deepEqual(events(planloop), ["TurnStarted", "TurnCompleted"]);
    assert.equal(planloop.session.progress().completed, 2);
  });

  // Source: docs 03-agents/04-loop-control.mdx ("Combine Multiple Conditions":
  // hasToolCall) — the loop stops at a tool; the user then asks something else.
  test(`${major}: hasToolCall stops the loop mid-turn; the user's next message opens the next turn`, async () => {
    const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
    const model = scripted(Mock, [{ calls: [["s1", "search", { query: "Q3" }]] }, { text: "Q4 is not written yet." }]);
    const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes()), stopWhen: [ai.stepCountIs(5), ai.hasToolCall("search")] };
    const messages = [{ role: "user", content: "Summarize the Q3 note" }];
    messages.push(...(await ai.generateText({ ...options, messages })).response.messages, { role: "user", content: "Never mind. And Q4?" });
    assert.equal((await ai.generateText({ ...options, messages })).text, "Q4 is not written yet.");
    assert.deepEqual(events(planloop), ["TurnStarted", "TurnAbandoned", "TurnStarted", "TurnCompleted"]);
  });

  // Source: generate-text.test.ts "2 steps: initial, tool-result with prepareStep" and
  // docs 03-agents/04-loop-control.mdx ("Tool Selection", "Context Management":
  // pruneMessages in prepareStep).
  test(`${major}: prepareStep narrows tools and prunes old tool calls; planloop still withholds tools at its last iteration`, async () => {
    const planloop = createPlanloop({ config: { ...CONFIG, maxIterations: 3 }, now: () => 1000 });
    const model = scripted(Mock, [
      { calls: [["s1", "search", { query: "Q3" }]] },
      { calls: [["w1", "write_todos", todos("completed")]] },
      { text: "Q3 revenue rose 4%." },
    ]);
    const result = await ai.generateText({
      model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }),
      tools: planloop.tools(notes()),
      prompt: "Summarize the Q3 note",
      stopWhen: ai.stepCountIs(5),
      prepareStep: ({ stepNumber, messages }) =>
        stepNumber === 0
          ? { activeTools: ["search"], toolChoice: "required" }
          : { toolChoice: "auto", messages: ai.pruneMessages({ messages, toolCalls: "before-last-2-messages", emptyMessages: "remove" }) },
    });
    assert.equal(result.text, "Q3 revenue rose 4%.");
    const calls = model.doGenerateCalls;
    assert.deepEqual(calls[0].tools.map((t) => t.name), ["search"]);
    assert.deepEqual(calls[0].toolChoice, { type: "required" });
    assert.deepEqual(calls[1].toolChoice, { type: "auto" });
    // The search call and its result were pruned from the third call's prompt.
    assert.equal(resultsIn(calls, 2).some((p) => p.toolCallId === "s1"), false);
    // The third call is planloop's last iteration: no tools, whatever prepareStep asked.
    assert.deepEqual(calls[2].toolChoice, { type: "none" });
    assert.match(resultsIn(calls, 2).find((p) => p.toolCallId === "w1").output.value, /"ok":true/);
    assert.deepEqual(events(planloop), ["TurnStarted", "TurnCompleted"]);
  });

  // ---- Stopping streams ----

  /** A model whose stream sends `text` and then is aborted by `controller`. */
  const aborting = (controller, text) => ({
    stream: new ReadableStream({
      start(c) {
        c.enqueue({ type: "stream-start", warnings: [] });
        c.enqueue({ type: "text-start", id: "t" });
        c.enqueue({ type: "text-delta", id: "t", delta: text });
      },
      pull(c) {
        controller.abort();
        c.error(new DOMException("The user aborted a request.", "AbortError"));
      },
    }),
  });

  // Source: stream-text.test.ts "abort signal" ("basic abort", "abort in 2nd step") and
  // docs 06-advanced/02-stopping-streams.mdx (abortSignal, onAbort).
  for (const [label, before] of [
    ["in its first step", []],
    ["in its second step", [{ calls: [["s1", "search", { query: "Q3" }]] }]],
    ["in a response after a refused stop", [{ calls: [["w1", "write_todos", todos("in_progress")]] }, { text: "Stopping here." }]],
  ]) {
    test(`${major}: a stream aborted ${label} leaves the session usable: the retry and the next message go on`, async () => {
      const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
      const controller = new AbortController();
      let next = 0;
      const script = [...before, null, ...(label.includes("refused") ? [{ calls: [["w2", "write_todos", todos("completed")]] }] : []), { text: "Q3 rose 4%." }, { text: "Q4 fell." }];
      const model = new Mock({ doStream: async () => (script[next] === null ? (next++, aborting(controller, "Q3 ro")) : streamed(script[next++])) });
      const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes()), stopWhen: ai.stepCountIs(5) };
      const messages = [{ role: "user", content: "How did Q3 go?" }];
      const aborted = [];
      const first = ai.streamText({ ...options, messages, abortSignal: controller.signal, onAbort: ({ steps }) => aborted.push(steps.length) });
      await first.consumeStream();
      assert.deepEqual(aborted, [before.length > 0 ? 1 : 0]);
      // What the session keeps restores; the turn is still open, nothing was decided on the cut response.
      const snapshot = planloop.snapshot();
      assert.equal(snapshot.turn.open, true);
      assert.doesNotThrow(() => createPlanloop({ snapshot: JSON.stringify(snapshot) }));
      // The app retries the same request, then the user asks on.
      const retried = ai.streamText({ ...options, messages });
      assert.equal(await retried.text, "Q3 rose 4%.");
      messages.push(...(await retried.response).messages, { role: "user", content: "And Q4?" });
      assert.equal(await ai.streamText({ ...options, messages }).text, "Q4 fell.");
      const turns = events(planloop).filter((e) => e.startsWith("Turn"));
      assert.deepEqual(turns, ["TurnStarted", "TurnCompleted", "TurnStarted", "TurnCompleted"]);
    });
  }

  // ---- Language model middleware ----

  // Source: docs 03-ai-sdk-core/40-middleware.mdx ("Multiple middlewares", "Extract
  // Reasoning"): planloop outside extractReasoningMiddleware reads the answer, not the thinking.
  test(`${major}: with extractReasoningMiddleware inside, planloop decides on the answer without the reasoning`, async () => {
    const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
    const model = scripted(Mock, [{ text: "<think>The note says 4%.</think>Q3 revenue rose 4%." }]);
    const result = await ai.generateText({
      model: ai.wrapLanguageModel({ model, middleware: [planloop.middleware, ai.extractReasoningMiddleware({ tagName: "think" })] }),
      tools: planloop.tools(notes()),
      prompt: "How did Q3 go?",
    });
    assert.equal(result.text, "Q3 revenue rose 4%.");
    assert.equal(result.reasoningText, "The note says 4%.");
    assert.deepEqual(planloop.session.steps(), ["[Reflect] Q3 revenue rose 4%."]);
  });

  // Source: docs 03-ai-sdk-core/40-middleware.mdx ("Simulate Streaming") and
  // ("Implementing Language Model Middleware": a logging middleware outside).
  test(`${major}: streamText over a generate-only model (simulateStreamingMiddleware), a logging middleware outside`, async () => {
    const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
    let next = 0;
    const script = PLANNED("Q3 revenue rose 4%.");
    const model = new Mock({ doGenerate: async () => generated(script[next++]) });
    const logged = [];
    const logger = { specificationVersion: seven ? "v4" : "v3", wrapStream: async ({ doStream, params }) => (logged.push(params.prompt.length), doStream()) };
    const result = ai.streamText({
      model: ai.wrapLanguageModel({ model, middleware: [logger, planloop.middleware, ai.simulateStreamingMiddleware()] }),
      tools: planloop.tools(notes()),
      prompt: "Summarize the Q3 note",
      stopWhen: ai.stepCountIs(5),
    });
    assert.equal(await result.text, "Q3 revenue rose 4%.");
    assert.equal(model.doGenerateCalls.length, 4);
    // The logger sees the SDK's three steps; planloop's nudge went on inside the second.
    assert.equal(logged.length, 3);
    assert.equal(planloop.session.progress().completed, 2);
  });

  // ---- Invalid JSON arguments ----

  // Source: generate-text.test.ts "invalid tool calls" ("single invalid tool call") and
  // docs 03-ai-sdk-core/15-tools-and-tool-calling.mdx ("Tool Call Repair").
  test(`${major}: calls with arguments that are not JSON, no repair: the SDK refuses them, nothing runs, no approval is recorded`, async () => {
    const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
    const ran = [];
    const model = scripted(Mock, [{ calls: [["d1", "delete_note", '{"path": "q3.md"'], ["s1", "search", '{"query": ']] }, { text: "Sorry, let me try again later." }]);
    const result = await ai.generateText({ model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes(ran)), prompt: "Delete the Q3 note", stopWhen: ai.stepCountIs(5) });
    assert.equal(result.text, "Sorry, let me try again later.");
    assert.deepEqual(ran, []);
    assert.deepEqual(events(planloop), ["TurnStarted", "ActionProposed", "TurnPaused", "ActionResolved:rejected", "TurnResumed", "TurnCompleted"]);
    // The model reads why each call failed.
    const seen = resultsIn(model.doGenerateCalls, 1);
    assert.match(seen.find((p) => p.toolCallId === "d1").output.value, /Invalid input for tool delete_note/);
    assert.match(seen.find((p) => p.toolCallId === "s1").output.value, /Invalid input for tool search/);
  });

  test(`${major}: calls with arguments that are not JSON, repaired (experimental_repairToolCall): the read runs, the gated call asks first`, async () => {
    const planloop = createPlanloop({ config: CONFIG, now: () => 1000 });
    const ran = [];
    const model = scripted(Mock, [{ calls: [["d1", "delete_note", '{"path": "q3.md"'], ["s1", "search", '{"query": ']] }, { text: "Deleted." }]);
    const repair = async ({ toolCall }) => ({ ...toolCall, input: toolCall.toolName === "search" ? '{"query":"Q3"}' : `${toolCall.input}}` });
    const options = { model: ai.wrapLanguageModel({ model, middleware: planloop.middleware }), tools: planloop.tools(notes(ran)), experimental_repairToolCall: repair, stopWhen: ai.stepCountIs(5) };
    const messages = [{ role: "user", content: "Delete the Q3 note" }];
    const first = await ai.generateText({ ...options, messages });
    assert.deepEqual(first.content.filter((p) => p.type === "tool-approval-request").map((p) => p.toolCall.input), [{ path: "q3.md" }]);
    assert.deepEqual(ran, ["search Q3"]);
    messages.push(...first.response.messages, answers({ content: first.content }, () => true));
    assert.equal((await ai.generateText({ ...options, messages })).text, "Deleted.");
    assert.deepEqual(ran, ["search Q3", "delete q3.md"]);
    // planloop's record holds what ran: the repaired input, as an edit of the proposed one.
    const resolved = planloop.session.drainEvents().filter((e) => e.type === "ActionResolved");
    assert.deepEqual(resolved.map((e) => [e.status, e.edited]), [["approved", true]]);
    assert.ok(planloop.session.reasoning().some((e) => e.phase === "act" && e.summary === 'delete_note("q3.md")'));
  });
}
