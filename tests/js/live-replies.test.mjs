// Replies a real model (SmolLM2-135M) sent, recorded in tests/fixtures/live/, replayed
// through the reference runner as a host meets them: a tool call cut off by the token cap
// and returned as text, planloop's own nudge echoed back, the same planner call twice.
// None may end the turn as its answer; the turn goes on to the model's real answer.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { ChainRunner } from "../../target/www/runner/chain.js";
import { assertWellFormed } from "./support/conversation.mjs";
import { planloop } from "./support/pkg.mjs";

const replies = (name) => JSON.parse(readFileSync(new URL(`../fixtures/live/${name}`, import.meta.url), "utf8")).replies;
const open = { todos: [{ id: "read", content: "Read the notes", status: "in_progress" }, { id: "sum", content: "Write the summary", status: "pending" }] };
const done = { todos: open.todos.map((t) => ({ ...t, status: "completed" })) };
const todoCall = (id, args) => ({ id, name: "write_todos", args: JSON.stringify(args) });

/** A runner over `script` (model responses in order); the requests it made. */
function runner(script) {
  const requests = [];
  const model = { complete: async (request) => (requests.push(request), script.shift() ?? { text: "(script ended)", toolCalls: [] }) };
  return { requests, runner: new ChainRunner({ session: new planloop.Session(), model }) };
}

test("a recorded tool call cut off by the token cap is not the answer: the turn goes on to the real one", async () => {
  for (const cut of replies("cut-off-calls.json")) {
    const { runner: r, requests } = runner([{ text: cut, toolCalls: [] }, { text: "Both notes are summarised.", toolCalls: [] }]);
    const outcome = await r.send("Read notes a.md and b.md, then summarise them.");
    assert.deepEqual(outcome, { type: "finalize", answer: "Both notes are summarised.", exitReason: "final_answer" });
    // The model was told its call was cut off and did not run.
    assert.match(requests[1].messages.at(-1).content, /^<cut-off-call>.*cut off.*did not run/s);
    assertWellFormed(r.messages);
    assert.ok(r.session.steps().every((s) => !s.includes("tool_calls")), r.session.steps().join("\n"));
  }
});

test("recorded echoes of planloop's continuation are never the answer nor a reflection", async () => {
  for (const echo of replies("echoed-nudges.json")) {
    const script = [{ text: null, toolCalls: [todoCall("t1", open)] }, { text: echo, toolCalls: [] }, { text: null, toolCalls: [todoCall("t2", done)] }, { text: "Summary written.", toolCalls: [] }];
    const { runner: r } = runner(script);
    const outcome = await r.send("Summarise my notes a.md and b.md.");
    assert.deepEqual(outcome, { type: "finalize", answer: "Summary written.", exitReason: "final_answer" });
    assert.ok(r.session.steps().every((s) => !s.includes("You have just finished")), r.session.steps().join("\n"));
  }
});

test("a recorded reply with the same write_todos call twice records the list once", async () => {
  const [reply] = replies("doubled-planner-calls.json");
  const calls = JSON.parse(reply).tool_calls.map((c, i) => ({ id: `c${i}`, name: c.name, args: JSON.stringify(c.arguments) }));
  const { runner: r } = runner([{ text: null, toolCalls: calls }, { text: "Planned.", toolCalls: [] }]);
  await r.send("Plan your work with write_todos.");
  assert.equal(r.session.snapshot().planner.state.revision, 1);
  const answers = r.messages.filter((m) => m.role === "tool").map((m) => m.content);
  assert.match(answers[0], /^\{"ok":true/);
  assert.match(answers[1], /repeats call c0/);
});
