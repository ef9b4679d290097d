// planloop/openai-agents in an OpenAI Agents SDK run against a real model: the SDK's own
// chat-completions model over an `openai` client pointed at the local test server
// (SmolLM2-135M). The write is held as an interruption; the run state goes through
// RunState.toString()/fromString() into a fresh planloop, as after a restart, and the write
// is approved in one case and rejected in the other. Only invariants are checked.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { Agent, OpenAIChatCompletionsModel, RunState, run, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";

import { createPlanloop } from "../../pkg/openai-agents.mjs";
import { Session } from "../../pkg/planloop.mjs";
import { openAIChatModel } from "../../pkg/runner/openai.js";
import { CONFIG, EXIT_REASONS, MESSAGE, NOTE, PROMPT, READ, WRITE, assertRestoreDecidesAlike, report, served, startLive, steeringFetch, summary } from "./support.mjs";

/** Runs resumed after the first: one per round of approvals (the model may call the write
 * again after each). */
const MAX_ROUNDS = 3;
/** The SDK's own turn limit, above planloop's, so that planloop's limit is the one met. */
const MAX_TURNS = 10;

setTracingDisabled(true);

let live;
before(async () => {
  live = await startLive();
});
after(() => live?.close());

/** Checks the SDK's history as a provider would: each call id once, each result answering
 * an earlier call, and every call answered but those still waiting for a verdict. */
function assertHistoryWellFormed(history, waiting) {
  const calls = new Set();
  const answered = new Set();
  for (const [i, item] of history.entries()) {
    if (item.type === "function_call") {
      assert.ok(!calls.has(item.callId), `item ${i} repeats the call id ${item.callId}`);
      calls.add(item.callId);
    } else if (item.type === "function_call_result") {
      assert.ok(calls.has(item.callId) && !answered.has(item.callId), `item ${i} answers ${item.callId}, which is not open`);
      answered.add(item.callId);
    }
  }
  const open = [...calls].filter((id) => !answered.has(id) && !waiting.includes(id));
  assert.deepEqual(open, [], "calls left unanswered");
  return [...calls];
}

for (const approve of [true, false]) {
  test(`OpenAI Agents SDK, live model: a held write ${approve ? "approved" : "rejected"} after a restart keeps every invariant`, { timeout: 150_000 }, async (t) => {
    const started = performance.now();
    const from = live.log.length;
    const written = [];
    const client = new OpenAI({ baseURL: `${live.url}/v1`, apiKey: "local", maxRetries: 0, fetch: steeringFetch() });
    const chat = new OpenAIChatCompletionsModel(client, live.model);
    const tools = [
      tool({ ...READ, strict: false, execute: async () => NOTE }),
      tool({ ...WRITE, strict: false, execute: async (args) => (written.push(args), "saved") }),
    ];
    const agentOf = (planloop) => new Agent({ name: "Notes", instructions: PROMPT.base, model: planloop.model(chat), tools: planloop.tools(tools) });

    const first = createPlanloop({ config: CONFIG });
    let result = await run(agentOf(first), MESSAGE, { context: {}, maxTurns: MAX_TURNS });
    const events = first.session.drainEvents();
    const held = result.interruptions.map((i) => i.rawItem.name);
    assert.ok(held.includes(WRITE.name), `the write was held for approval (held: ${held})`);
    assert.deepEqual(written, []);

    // A restart: the run state as text, into a fresh planloop; each held call gets the verdict.
    const planloop = createPlanloop({ config: CONFIG });
    const agent = agentOf(planloop);
    let verdicts = 0;
    for (let round = 0; round < MAX_ROUNDS && result.interruptions.length > 0; round++) {
      const state = await RunState.fromString(agent, result.state.toString());
      planloop.resume(state);
      for (const interruption of state.getInterruptions()) {
        if (approve) state.approve(interruption);
        else state.reject(interruption, { message: "Not now: keep the notes as they are." });
        verdicts += 1;
      }
      result = await run(agent, state, { maxTurns: MAX_TURNS });
      events.push(...planloop.session.drainEvents());
    }
    report(t, live, from);
    const waiting = result.interruptions.map((i) => i.rawItem.callId);
    const ending = events.filter((e) => ["TurnCompleted", "TurnFailed", "TurnPaused"].includes(e.type)).at(-1);
    t.diagnostic(`ending: ${ending?.type} (${ending?.exitReason ?? ending?.reason}); final output: ${JSON.stringify(result.finalOutput ?? null)?.slice(0, 100)}; still held: ${waiting.length}; verdicts: ${verdicts}`);

    // It ends in a legal way: an answer or a limit (with a known reason), or calls held.
    if (waiting.length === 0) {
      assert.equal(typeof result.finalOutput, "string", "a run that holds nothing ends with an answer");
      assert.ok(ending && ending.type !== "TurnPaused" && EXIT_REASONS.includes(ending.exitReason), `ending: ${JSON.stringify(ending)}`);
    } else {
      assert.equal(ending?.type, "TurnPaused");
    }
    // Within its budget: the model calls of one turn never pass maxIterations.
    assert.ok(planloop.session.progress().iterations <= CONFIG.maxIterations, JSON.stringify(planloop.session.progress()));
    const turns = events.filter((e) => e.type === "TurnStarted").length;
    const requests = live.log.length - from;
    assert.ok(requests <= turns * CONFIG.maxIterations, `${requests} model calls in ${turns} turn(s)`);
    // Every call in the history came from the model through the adapter, and is answered.
    const ids = assertHistoryWellFormed(result.history, waiting);
    const issued = new Set(served(live, from).map((c) => c.split(" ")[0]));
    assert.ok(ids.length >= 1 && ids.every((id) => issued.has(id)), `history calls ${ids} against served ${[...issued]}`);
    // Each verdict was applied: only an approval ran the write.
    const resolved = events.filter((e) => e.type === "ActionResolved").map((e) => e.status);
    assert.ok(resolved.length >= 1 && resolved.every((s) => s === (approve ? "approved" : "rejected")), `resolved: ${resolved}`);
    if (!approve) assert.deepEqual(written, []);
    assert.ok(written.length <= verdicts);

    const next = await assertRestoreDecidesAlike({
      Session,
      session: planloop.session,
      saved: JSON.stringify(planloop.snapshot()),
      model: openAIChatModel({ baseUrl: `${live.url}/v1`, model: live.model, fetch: steeringFetch({ steer: false }) }),
      tools: [READ, WRITE],
    });
    t.diagnostic(`after restore(snapshot()), both sessions decided: ${summary(next)}; ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  });
}
