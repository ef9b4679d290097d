// planloop's reference runner (planloop/runner over planloop/runner/openai) against a real
// model: SmolLM2-135M on the local test server. One short turn with a write held for
// approval, approved in one case and rejected in the other. Only invariants are checked.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { ChainRunner } from "../../pkg/runner/chain.js";
import { openAIChatModel } from "../../pkg/runner/openai.js";
import { Session } from "../../pkg/planloop.mjs";
import { assertWellFormed, checkingStore } from "../js/support/conversation.mjs";
import { CONFIG, ENDINGS, EXIT_REASONS, MAX_TOKENS, MESSAGE, NOTE, PROMPT, READ, WRITE, assertRestoreDecidesAlike, report, served, startLive, steeringFetch, summary } from "./support.mjs";

let live;
before(async () => {
  live = await startLive();
});
after(() => live?.close());

for (const approve of [true, false]) {
  test(`runner, live model: a capped turn with the write ${approve ? "approved" : "rejected"} keeps every invariant`, { timeout: 150_000 }, async (t) => {
    const started = performance.now();
    const from = live.log.length;
    const asked = [];
    const written = [];
    const events = [];
    const store = checkingStore();
    const model = openAIChatModel({ baseUrl: `${live.url}/v1`, model: live.model, maxTokens: MAX_TOKENS, temperature: 0, timeoutMs: 60_000, fetch: steeringFetch() });
    const runner = new ChainRunner({
      session: new Session(CONFIG),
      model,
      prompt: PROMPT,
      tools: [
        { definition: READ, run: () => NOTE },
        { definition: WRITE, run: (args) => (written.push(args), "saved") },
      ],
      approve: (proposal) => {
        asked.push(proposal.tool);
        return approve ? { approve: true } : { approve: false, message: "Not now: keep the notes as they are." };
      },
      onEvent: (event) => events.push(event),
      store,
    });

    const outcome = await runner.send(MESSAGE);
    report(t, live, from);
    t.diagnostic(`outcome: ${outcome.type} (${outcome.exitReason ?? "-"}); asked: ${asked.join(", ") || "nothing"}`);

    // It ends in a legal way, within its budget.
    assert.ok(ENDINGS.includes(outcome.type), `the turn ended with ${outcome.type}`);
    if (outcome.exitReason !== undefined) assert.ok(EXIT_REASONS.includes(outcome.exitReason), outcome.exitReason);
    const requests = live.log.length - from;
    assert.ok(requests >= 1 && requests <= CONFIG.maxIterations, `${requests} model calls for maxIterations ${CONFIG.maxIterations}`);
    assert.ok(runner.session.progress().iterations <= CONFIG.maxIterations);
    // Every call the model made arrived through the adapter, in order, and was answered.
    const recorded = runner.messages.flatMap((m) => (m.role === "assistant" ? m.toolCalls.map((c) => `${c.id} ${c.name}`) : []));
    assert.deepEqual(recorded, served(live, from));
    assert.ok(recorded.length >= 1, "the steered first call reached the runner");
    assertWellFormed(runner.messages, "the conversation");
    assert.ok(store.saved.length >= 1, "the conversation was saved");
    // The held write asked the user; the verdict was applied, and only an approval ran it.
    assert.ok(asked.includes(WRITE.name), `the write was held for approval (asked: ${asked})`);
    const resolved = events.filter((e) => e.type === "ActionResolved").map((e) => e.status);
    assert.ok(resolved.length === asked.length && resolved.every((s) => s === (approve ? "approved" : "rejected")), `resolved: ${resolved}`);
    if (!approve) assert.deepEqual(written, []);
    assert.ok(written.length <= asked.length);

    const next = await assertRestoreDecidesAlike({
      Session,
      session: runner.session,
      saved: JSON.stringify(JSON.parse(store.text).snapshot),
      model,
      tools: [READ, WRITE],
    });
    t.diagnostic(`after restore(snapshot()), both sessions decided: ${summary(next)}; ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  });
}
