// planloop/openai-agents as the Agents SDK's users drive it: scenarios rewritten from the
// SDK's own tests (packages/agents-core/test in openai/openai-agents-js) and docs
// (docs/src/content/docs/guides, examples/docs), each naming its source. They run on the
// SDK's scripted fake model (`ScriptedModel` from `@openai/agents-core/testing`, what the
// SDK's own scenario tests use), with no network.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Agent, MaxTurnsExceededError, MemorySession, RunState, run, tool, user } from "@openai/agents";
import { ScriptedModel, assistantMessage, functionCall, modelStreamResponder } from "@openai/agents-core/testing";

import { createPlanloop } from "../../pkg/openai-agents.mjs";
import { streamedText } from "./support/agents.mjs";

const READS = { tools: { read: ["search", "get_weather"] } };
const todos = (second) => ({ todos: [{ id: "find", content: "Find the note", status: "completed" }, { id: "write", content: "Summarize it", status: second }] });
const object = (properties) => ({ type: "object", properties, required: Object.keys(properties), additionalProperties: false });
const search = tool({ name: "search", description: "Search the notes", parameters: object({ query: { type: "string" } }), strict: false, execute: async ({ query }) => `notes/${query}.md` });
const textOf = (item) => (typeof item.content === "string" ? item.content : (item.content ?? []).map((p) => p.text ?? "").join(""));

/** A gated tool that records what it deleted. */
function deleter(deleted) {
  return tool({ name: "delete_note", description: "Delete a note", parameters: object({ path: { type: "string" } }), strict: false, execute: async ({ path }) => (deleted.push(path), `deleted ${path}`) });
}

function notesAgent(planloop, model, tools = [search]) {
  return new Agent({ name: "Notes", instructions: "You are a notes assistant.", model: planloop.model(model), tools: planloop.tools(tools) });
}

const decisions = (planloop) => record(planloop).filter((r) => r === "approved" || r === "rejected");

/** What the session recorded since the last call: turns started, completed, paused,
 * resumed and abandoned, and actions approved or rejected. */
function record(planloop) {
  return planloop.session.drainEvents().flatMap((e) => {
    switch (e.type) {
      case "TurnStarted":
        return ["started"];
      case "TurnCompleted":
        return [`completed:${e.exitReason}`];
      case "TurnPaused":
        return [`paused:${e.reason}`];
      case "TurnResumed":
        return ["resumed"];
      case "TurnAbandoned":
        return ["abandoned"];
      case "ActionResolved":
        return [e.status];
      default:
        return [];
    }
  });
}

/** The result of call `callId` in a model request's input. */
const resultIn = (request, callId) => request.input.find((i) => i.type === "function_call_result" && i.callId === callId);

// ---------------------------------------------------------------------------------------
// Multi-turn conversations on one planloop.

// Source: examples/docs/running-agents/chatLoop.ts (docs: guides/running-agents.mdx,
// "conversations / chat threads"): the thread is `result.history` plus the new message.
test("chat loop over result.history: each new user message opens a turn, the same words twice included", async () => {
  const planloop = createPlanloop({ config: READS, now: () => 1000 });
  const model = new ScriptedModel([[assistantMessage("San Francisco.")], [assistantMessage("California.")], [assistantMessage("Still California.")]]);
  const assistant = notesAgent(planloop, model);
  let thread = [];
  async function userSays(text) {
    const result = await run(assistant, thread.concat({ role: "user", content: text }));
    thread = result.history;
    return result.finalOutput;
  }
  assert.equal(await userSays("What city is the Golden Gate Bridge in?"), "San Francisco.");
  assert.equal(await userSays("What state is it in?"), "California.");
  assert.equal(await userSays("What state is it in?"), "Still California.");
  assert.deepEqual(record(planloop), ["started", "completed:final_answer", "started", "completed:final_answer", "started", "completed:final_answer"]);
  assert.equal(textOf(model.calls[2].request.input.at(-1)), "What state is it in?");
  assert.equal(thread.length, 6, "planloop adds nothing to the SDK's history");
});

// Source: examples/docs/running-agents/previousResponseId.ts (docs: guides/running-agents.mdx,
// "Choose one memory strategy": with previousResponseId or conversationId the next run
// passes only the new user turn), begun as agentScenarios.test.ts's "returns simple text
// output for a single-turn agent". Then the same words again, and result.history plus a
// new user item.
test("a second run(agent, text) without the earlier history opens a new turn; so do the same words again", async () => {
  const planloop = createPlanloop({ config: READS, now: () => 1000 });
  const model = new ScriptedModel([[assistantMessage("San Francisco.")], [assistantMessage("California.")], [assistantMessage("Still California.")], [assistantMessage("Noted.")]]);
  const assistant = notesAgent(planloop, model);
  const first = await run(assistant, "What city is the Golden Gate Bridge in?");
  assert.equal(first.finalOutput, "San Francisco.");
  assert.equal(first.history.length, 2, "planloop adds nothing to the SDK's history");
  const second = await run(assistant, "What state is it in?", { previousResponseId: first.lastResponseId });
  assert.equal(second.finalOutput, "California.");
  assert.equal(model.calls[1].request.previousResponseId, first.lastResponseId);
  assert.deepEqual(model.calls[1].request.input.map(textOf), ["What state is it in?"], "the request holds the new turn alone");
  assert.equal((await run(assistant, "What state is it in?", { previousResponseId: second.lastResponseId })).finalOutput, "Still California.");
  assert.equal((await run(assistant, [...first.history, user("Thanks")])).finalOutput, "Noted.");
  assert.deepEqual(record(planloop).filter((r) => r === "started").length, 4);
});

// Source: examples/docs/sessions/sessionInputCallback.ts (docs: guides/sessions.mdx,
// "Control how history and new items merge"): the callback keeps only recent history, so
// every model call sees the same number of user messages.
test("a MemorySession whose sessionInputCallback trims the history: each new message still opens a turn", async () => {
  const planloop = createPlanloop({ config: READS, now: () => 1000 });
  const model = new ScriptedModel([[assistantMessage("Added.")], [assistantMessage("Added too.")], [assistantMessage("Two items.")]]);
  const planner = notesAgent(planloop, model);
  const session = new MemorySession();
  const options = { session, sessionInputCallback: (history, newItems) => [...history.slice(-2), ...newItems] };
  for (const [text, answer] of [["Add booking a hotel to my todo list.", "Added."], ["Add renting a car.", "Added too."], ["How many items?", "Two items."]]) {
    const result = await run(planner, [user(text)], options);
    assert.equal(result.finalOutput, answer);
  }
  assert.deepEqual(
    model.calls.map((c) => c.request.input.filter((i) => i.role === "user").length),
    [1, 2, 2],
    "the trimmed history keeps the count of user messages",
  );
  assert.equal(record(planloop).filter((t) => t === "started").length, 3);
});

// Source: packages/agents-core/test/agentScenarios.test.ts ("loops until evaluator passes
// the outline (llm_as_judge)"): an outline agent under planloop and a plain judge agent
// share one conversation; each "Feedback: …" is a new turn for the outline agent.
test("LLM as a judge: the planloop agent takes the judge's feedback as a new turn", async () => {
  const planloop = createPlanloop({ config: READS, now: () => 1000 });
  const outline = notesAgent(planloop, new ScriptedModel([[assistantMessage("Outline v1")], [assistantMessage("Outline v2")]]));
  const judge = new Agent({ name: "judge", model: new ScriptedModel([[assistantMessage("needs_improvement: add suspense")], [assistantMessage("pass")]]) });
  let conversation = [user("Tell me a space story")];
  const outlines = [];
  for (;;) {
    const drafted = await run(outline, conversation);
    outlines.push(drafted.finalOutput);
    conversation = drafted.history;
    const verdict = (await run(judge, conversation)).finalOutput;
    if (verdict === "pass") break;
    conversation.push(user(`Feedback: ${verdict}`));
  }
  assert.deepEqual(outlines, ["Outline v1", "Outline v2"]);
  assert.deepEqual(record(planloop), ["started", "completed:final_answer", "started", "completed:final_answer"]);
});

// Source: examples/docs/running-agents/chatLoop.ts and previousResponseId.ts (the thread
// plus a new message, or the new message alone) after planloop's pause, whose summary asks
// the user to say "continue".
test('"continue" after a pause, without the history and with it, each opens a turn that goes on with the plan', async () => {
  const planloop = createPlanloop({ config: { ...READS, maxIterations: 2 }, now: () => 1000 });
  const model = new ScriptedModel([
    [functionCall("write_todos", todos("in_progress"), { callId: "w1" }), functionCall("search", { query: "q3" }, { callId: "s1" })],
    [functionCall("search", { query: "q3 again" }, { callId: "s2" })],
    [functionCall("search", { query: "q3 once more" }, { callId: "s3" })],
    [functionCall("search", { query: "q3 at last" }, { callId: "s4" })],
    [functionCall("write_todos", todos("completed"), { callId: "w2" })],
    [assistantMessage("Q3 revenue rose 4%.")],
  ]);
  const notes = notesAgent(planloop, model);
  const paused = await run(notes, "Summarize the Q3 note");
  assert.match(paused.finalOutput, /iteration limit/);
  const again = await run(notes, "continue");
  assert.match(again.finalOutput, /iteration limit/);
  assert.match(textOf(model.calls[2].request.input.at(-1)), /^<resume>[\s\S]*Goal: Summarize the Q3 note[\s\S]*\[-\] Summarize it[\s\S]*continue$/, "planloop's resume block goes with the bare word");
  const done = await run(notes, [...again.history, user("continue")]);
  assert.equal(done.finalOutput, "Q3 revenue rose 4%.");
  assert.deepEqual(record(planloop), ["started", "paused:max_iterations", "started", "paused:max_iterations", "started", "completed:final_answer"]);
  assert.equal(planloop.session.progress().completed, 2);
});

// ---------------------------------------------------------------------------------------
// Approvals.

// Source: packages/agents-core/test/hitlMemorySessionScenario.test.ts ("persists approvals,
// rehydration, and rejections across tools"): three messages on a MemorySession, each a
// gated call, approved, approved after the session is rehydrated, then rejected.
test("approvals on a MemorySession: approve, approve after rehydrating the session, reject", async () => {
  const ran = [];
  const note = tool({ name: "update_note", description: "Update a note", parameters: object({ query: { type: "string" } }), strict: false, execute: async ({ query }) => (ran.push(`update:${query}`), `updated:${query}`) });
  const echo = tool({ name: "echo", description: "Echo after approval", parameters: object({ query: { type: "string" } }), strict: false, execute: async ({ query }) => (ran.push(`echo:${query}`), `echoed:${query}`) });
  const planloop = createPlanloop({ now: () => 1000 });
  const steps = [
    ["Fetch profile for customer 104.", "echo", "approve"],
    ["Update note for customer 104.", "update_note", "approve"],
    ["Delete note for customer 104.", "echo", "reject"],
  ];
  const model = new ScriptedModel(steps.flatMap(([message, name], index) => [[functionCall(name, { query: message }, { callId: `call_${index}` })], [assistantMessage(`step ${index} done`)]]));
  const crm = notesAgent(planloop, model, [echo, note]);
  let session = new MemorySession();
  for (const [index, [message, name, decision]] of steps.entries()) {
    if (index === 1) session = new MemorySession({ sessionId: await session.getSessionId(), initialItems: await session.getItems() });
    const paused = await run(crm, message, { session });
    assert.deepEqual(paused.interruptions.map((i) => i.rawItem.name), [name]);
    if (decision === "approve") paused.state.approve(paused.interruptions[0]);
    else paused.state.reject(paused.interruptions[0]);
    const result = await run(crm, paused.state, { session });
    assert.equal(result.finalOutput, `step ${index} done`);
    const answer = resultIn(model.lastCall.request, `call_${index}`);
    assert.match(answer.output.text, decision === "approve" ? /(echoed|updated):/ : /rejected this action/);
  }
  assert.deepEqual(ran, ["echo:Fetch profile for customer 104.", "update:Update note for customer 104."]);
  assert.deepEqual(decisions(planloop), ["approved", "approved", "rejected"]);
});

// Source: docs guides/human-in-the-loop.mdx ("Flow", step 4: resolve each pending item) and
// agentScenarios.test.ts (approval interruptions): several gated calls in one response,
// a read among them; one approved, one rejected in the same pass.
test("several gated calls in one step: one approved, one rejected; the read among them runs at once", async () => {
  const deleted = [];
  const planloop = createPlanloop({ config: READS, now: () => 1000 });
  const model = new ScriptedModel([
    [functionCall("delete_note", { path: "a.md" }, { callId: "d1" }), functionCall("search", { query: "b" }, { callId: "s1" }), functionCall("delete_note", { path: "b.md" }, { callId: "d2" })],
    [assistantMessage("Deleted a.md, kept b.md.")],
  ]);
  const notes = notesAgent(planloop, model, [search, deleter(deleted)]);
  const paused = await run(notes, "Delete a.md and b.md");
  assert.deepEqual(paused.interruptions.map((i) => i.rawItem.callId), ["d1", "d2"]);
  const [first, second] = paused.interruptions;
  paused.state.approve(first);
  paused.state.reject(second, { message: "b.md is still in use." });
  const result = await run(notes, paused.state);
  assert.equal(result.finalOutput, "Deleted a.md, kept b.md.");
  assert.deepEqual(deleted, ["a.md"]);
  const request = model.calls[1].request;
  assert.match(resultIn(request, "d1").output.text, /deleted a\.md/);
  assert.match(resultIn(request, "s1").output.text, /notes\/b\.md/);
  assert.match(resultIn(request, "d2").output.text, /b\.md is still in use\./);
  assert.deepEqual(decisions(planloop), ["approved", "rejected"]);
});

// Source: docs guides/human-in-the-loop.mdx ("You do not need to resolve every pending
// approval in the same pass") and "Dealing with longer approval times" (toString /
// fromString): one call approved, the run paused again for the other, a restart, then the
// other rejected. The approval given before the restart stays an approval.
test("partial decisions across a restart: the approved call ran before it, the rejected one after", async () => {
  const deleted = [];
  const before = createPlanloop({ config: READS, now: () => 1000 });
  const paused = await run(notesAgent(before, new ScriptedModel([[functionCall("delete_note", { path: "a.md" }, { callId: "d1" }), functionCall("delete_note", { path: "b.md" }, { callId: "d2" })]]), [search, deleter(deleted)]), "Delete a.md and b.md");
  paused.state.approve(paused.interruptions[0]);
  const partial = await run(notesAgent(before, new ScriptedModel([]), [search, deleter(deleted)]), paused.state);
  assert.deepEqual(partial.interruptions.map((i) => i.rawItem.callId), ["d2"]);
  assert.deepEqual(deleted, ["a.md"]);
  assert.deepEqual(decisions(before), ["approved"], "planloop approved the call as it ran");
  const saved = partial.state.toString();

  const after = createPlanloop({ config: READS, now: () => 5000 });
  const model = new ScriptedModel([[assistantMessage("Deleted a.md only.")]]);
  const notes = notesAgent(after, model, [search, deleter(deleted)]);
  const state = await RunState.fromString(notes, saved);
  after.resume(state);
  state.reject(state.getInterruptions()[0]);
  assert.equal((await run(notes, state)).finalOutput, "Deleted a.md only.");
  assert.deepEqual(deleted, ["a.md"]);
  assert.deepEqual(decisions(after), ["rejected"], "the call that ran before the restart is not taken for a refused one");
  assert.match(resultIn(model.calls[0].request, "d1").output.text, /deleted a\.md/);
});

// Source: examples/docs/human-in-the-loop/index.ts (the docs' approval loop: the state
// written to a file, read back with RunState.fromString, every interruption decided, run
// again until none is left) with its get_weather tool, whose own needsApproval asks only
// for San Francisco. Each round is a new process: a new planloop that resumes.
test("the docs' approval loop with a restart per round: the tool's own needsApproval and planloop's gate", async () => {
  const weather = tool({
    name: "get_weather",
    description: "Get the weather for a given city",
    parameters: object({ location: { type: "string" } }),
    strict: false,
    needsApproval: async (_context, { location }) => location === "San Francisco",
    execute: async ({ location }) => `The weather in ${location} is sunny`,
  });
  const deleted = [];
  const script = [
    [functionCall("write_todos", todos("in_progress"), { callId: "w1" }), functionCall("get_weather", { location: "Oakland" }, { callId: "g1" }), functionCall("get_weather", { location: "San Francisco" }, { callId: "g2" })],
    [functionCall("delete_note", { path: "old-forecast.md" }, { callId: "d1" })],
    [functionCall("write_todos", todos("completed"), { callId: "w2" })],
    [assistantMessage("Sunny in both; the old forecast is gone.")],
  ];
  const model = new ScriptedModel(script);
  const process = (planloop) => notesAgent(planloop, model, [weather, deleter(deleted)]);
  let planloop = createPlanloop({ config: READS, now: () => 1000 });
  let result = await run(process(planloop), "What is the weather in Oakland and San Francisco? Then drop the old forecast.");
  const asked = [];
  while (result.interruptions.length > 0) {
    const stored = JSON.stringify(result.state);
    planloop = createPlanloop({ config: READS, now: () => 2000 });
    const agent = process(planloop);
    const state = await RunState.fromString(agent, stored);
    planloop.resume(state);
    for (const interruption of state.getInterruptions()) {
      asked.push(interruption.name);
      state.approve(interruption);
    }
    result = await run(agent, state);
  }
  assert.equal(result.finalOutput, "Sunny in both; the old forecast is gone.");
  assert.deepEqual(asked, ["get_weather", "delete_note"], "Oakland ran without asking; San Francisco asked by the tool's own rule");
  assert.deepEqual(deleted, ["old-forecast.md"]);
  assert.equal(planloop.session.progress().completed, 2, "the plan written before the first restart lasted to the end");
  assert.deepEqual(decisions(planloop), ["approved"]);
});

// Source: docs guides/human-in-the-loop.mdx (step 4: `{ alwaysApprove: true }` keeps the
// tool approved for the rest of the run): the SDK then runs planloop's later held call of
// that tool without asking; planloop records it as approved, as the user decided.
test("alwaysApprove: a later held call of the same tool runs within the run, recorded as approved", async () => {
  const deleted = [];
  const planloop = createPlanloop({ config: READS, now: () => 1000 });
  const model = new ScriptedModel([[functionCall("delete_note", { path: "a.md" }, { callId: "d1" })], [functionCall("delete_note", { path: "b.md" }, { callId: "d2" })], [assistantMessage("Both gone.")]]);
  const notes = notesAgent(planloop, model, [search, deleter(deleted)]);
  const paused = await run(notes, "Delete a.md, then b.md");
  paused.state.approve(paused.interruptions[0], { alwaysApprove: true });
  const result = await run(notes, paused.state);
  assert.equal(result.finalOutput, "Both gone.");
  assert.deepEqual(deleted, ["a.md", "b.md"]);
  assert.deepEqual(decisions(planloop), ["approved", "approved"]);
});

// ---------------------------------------------------------------------------------------
// Streaming.

// Source: examples/docs/streaming/streamedHITL.ts (docs: guides/streaming.mdx, "Human in
// the loop while streaming"), with the state saved and restored between the pause and
// the decision (guides/human-in-the-loop.mdx, "Dealing with longer approval times").
test("streamed human in the loop with a restart: the text streams, the gated call waits, the resumed run streams on", async () => {
  const deleted = [];
  const before = createPlanloop({ config: READS, now: () => 1000 });
  const model = new ScriptedModel([[assistantMessage("Let me delete it. "), functionCall("delete_note", { path: "q3.md" }, { callId: "d1" })], [assistantMessage("Deleted.")]]);
  let stream = await run(notesAgent(before, model, [search, deleter(deleted)]), "Delete the Q3 note", { stream: true });
  assert.equal(await streamedText(stream), "Let me delete it. ");
  assert.deepEqual(stream.interruptions.map((i) => i.rawItem.callId), ["d1"]);
  const saved = stream.state.toString();
  const after = createPlanloop({ config: READS, now: () => 5000 });
  const notes = notesAgent(after, model, [search, deleter(deleted)]);
  const state = await RunState.fromString(notes, saved);
  after.resume(state);
  state.approve(state.getInterruptions()[0]);
  stream = await run(notes, state, { stream: true });
  assert.equal(await streamedText(stream), "Deleted.");
  assert.deepEqual(deleted, ["q3.md"]);
  assert.deepEqual(decisions(after), ["approved"]);
});

/** A scripted streamed response that sends `text` and then waits until the request is
 * aborted (what a slow model does when the user stops it). */
function hangingAfter(text) {
  return modelStreamResponder((call) =>
    (async function* () {
      yield { type: "response_started" };
      yield { type: "output_text_delta", delta: text };
      await new Promise((_resolve, reject) => {
        const abort = () => reject(Object.assign(new Error("Aborted"), { name: "AbortError" }));
        if (call.request.signal?.aborted) abort();
        else call.request.signal?.addEventListener("abort", abort, { once: true });
      });
    })(),
  );
}

// Source: packages/agents-core/test/run.stream.test.ts ("cancels streaming promptly when
// the consumer cancels the stream") and docs guides/streaming.mdx ("To stop a streaming run
// early, abort the signal you passed to run() or cancel a reader ... If you want to
// continue that unfinished turn later, rerun the same agent with stream.state"): stopped
// either way, the turn goes on from the run state, or from the same message sent again;
// a new message after it opens a new turn.
for (const stop of ["signal", "cancel"]) {
  for (const goOn of ["state", "message"]) {
    test(`stopped mid-stream (${stop === "signal" ? "AbortSignal" : "the consumer cancels"}), the turn goes on from ${goOn === "state" ? "stream.state" : "the same message"}`, async () => {
      const planloop = createPlanloop({ config: READS, now: () => 1000 });
      const model = new ScriptedModel([hangingAfter("Once upon"), [assistantMessage("Once upon a time.")], [assistantMessage("Short story.")]]);
      const teller = notesAgent(planloop, model);
      const controller = new AbortController();
      const stream = await run(teller, "Tell me a story", { stream: true, signal: controller.signal });
      const reader = stream.toTextStream().getReader();
      assert.deepEqual(await reader.read(), { done: false, value: "Once upon" });
      if (stop === "signal") controller.abort();
      else await reader.cancel("enough");
      await stream.completed;
      assert.equal(stream.cancelled, true);
      assert.equal(stream.finalOutput, undefined);
      const again = await run(teller, goOn === "state" ? stream.state : "Tell me a story", { stream: true });
      assert.equal(await streamedText(again), "Once upon a time.");
      assert.equal((await run(teller, "A shorter one")).finalOutput, "Short story.");
      assert.deepEqual(record(planloop), ["started", "completed:final_answer", "started", "completed:final_answer"]);
    });
  }
}

// ---------------------------------------------------------------------------------------
// Invalid JSON arguments. The Agents SDK has no repair of malformed arguments: a function
// tool's call that does not parse goes back to the model as an error, or, for a tool with
// an approval function, asks for approval first (docs guides/human-in-the-loop.mdx: "Malformed
// JSON and non-object values fail closed ... Approving that call still does not execute
// the tool").

// Source: packages/agents-core/test/run.stream.test.ts ("streams a redacted invalid-argument
// output back to the model").
test("streamed: a read tool's malformed call goes back to the model as a parse error, and the run recovers", async () => {
  const planloop = createPlanloop({ config: READS, now: () => 1000 });
  const model = new ScriptedModel([[functionCall("search", "SECRET_STREAMING_MODEL_OUTPUT_123", { callId: "s1" })], [assistantMessage("stream recovered")]]);
  const streamed = await run(notesAgent(planloop, model), "start", { stream: true });
  assert.equal(await streamedText(streamed), "stream recovered");
  assert.equal(streamed.interruptions.length, 0);
  assert.equal(resultIn(model.calls[1].request, "s1").output.text, "An error occurred while parsing tool arguments. Please try again with valid JSON.");
});

// Source: docs guides/human-in-the-loop.mdx (the fail-closed rule quoted above).
test("a gated tool's malformed call asks for approval; approved, it still does not run and the model reads the parse error", async () => {
  const deleted = [];
  const planloop = createPlanloop({ config: READS, now: () => 1000 });
  const model = new ScriptedModel([[functionCall("delete_note", '{"path": "q3.md"', { callId: "d1" })], [assistantMessage("I will fix the call.")]]);
  const notes = notesAgent(planloop, model, [search, deleter(deleted)]);
  const paused = await run(notes, "Delete the Q3 note");
  assert.deepEqual(paused.interruptions.map((i) => i.rawItem.callId), ["d1"]);
  paused.state.approve(paused.interruptions[0]);
  assert.equal((await run(notes, paused.state)).finalOutput, "I will fix the call.");
  assert.deepEqual(deleted, []);
  assert.match(resultIn(model.calls[1].request, "d1").output.text, /error occurred while parsing tool arguments/);
  // The call never ran: planloop's record says it was not carried out, with the SDK's reason.
  assert.deepEqual(decisions(planloop), ["rejected"]);
});

// ---------------------------------------------------------------------------------------
// maxTurns: the SDK's limit on its own turns, beside planloop's iteration limit.

// Source: packages/agents-core/test/run.stream.test.ts ("enforces maxTurns across multiple
// streamed model calls") and docs guides/running-agents.mdx (maxTurns,
// MaxTurnsExceededError). A stop planloop refuses goes back to the model inside the same
// SDK turn, so it costs no turn of maxTurns; a run the SDK stops leaves the turn open,
// and the next message goes on.
for (const stream of [false, true]) {
  test(`maxTurns${stream ? " (streamed)" : ""}: a refused stop costs no SDK turn; MaxTurnsExceededError leaves the planloop usable`, async () => {
    const script = () => [
      [functionCall("write_todos", todos("in_progress"), { callId: "w1" }), functionCall("search", { query: "q3" }, { callId: "s1" })],
      [assistantMessage("I found it.")],
      [functionCall("write_todos", todos("completed"), { callId: "w2" })],
      [assistantMessage("Q3 revenue rose 4%.")],
    ];
    const finish = async (result) => (stream ? (await result.completed, result.finalOutput) : result.finalOutput);
    // Four model calls in three SDK turns.
    const enough = createPlanloop({ config: READS, now: () => 1000 });
    assert.equal(await finish(await run(notesAgent(enough, new ScriptedModel(script())), "Summarize the Q3 note", { stream, maxTurns: 3 })), "Q3 revenue rose 4%.");

    const planloop = createPlanloop({ config: READS, now: () => 1000 });
    const model = new ScriptedModel([...script().slice(0, 3), [assistantMessage("Q3 revenue rose 4%.")]]);
    const notes = notesAgent(planloop, model);
    await assert.rejects(async () => finish(await run(notes, "Summarize the Q3 note", { stream, maxTurns: 2 })), MaxTurnsExceededError);
    assert.equal(model.calls.length, 3);
    const result = await run(notes, "Go on: summarize the Q3 note");
    assert.equal(result.finalOutput, "Q3 revenue rose 4%.");
    assert.deepEqual(record(planloop), ["started", "abandoned", "started", "completed:final_answer"]);
  });
}

// Source: packages/agents-core/test/run.stream.test.ts ("handles maxTurns errors with an
// error handler"): the SDK ends the run with the handler's output; planloop's turn stays
// open and a retry of the same message goes on with it.
test("maxTurns with an error handler: the run ends with the handler's output; a retry goes on with the turn", async () => {
  const planloop = createPlanloop({ config: READS, now: () => 1000 });
  const model = new ScriptedModel([
    [functionCall("write_todos", todos("in_progress"), { callId: "w1" })],
    [functionCall("write_todos", todos("completed"), { callId: "w2" })],
    [assistantMessage("Q3 revenue rose 4%.")],
  ]);
  const notes = notesAgent(planloop, model);
  const stopped = await run(notes, "Summarize the Q3 note", { maxTurns: 1, errorHandlers: { maxTurns: () => ({ finalOutput: "Stopped: too many turns." }) } });
  assert.equal(stopped.finalOutput, "Stopped: too many turns.");
  const retried = await run(notes, "Summarize the Q3 note");
  assert.equal(retried.finalOutput, "Q3 revenue rose 4%.");
  assert.deepEqual(record(planloop), ["started", "completed:final_answer"]);
  assert.equal(planloop.session.progress().completed, 2, "the retry went on with the plan the stopped run wrote");
});
