// The reference chain runner's conversation after responses a provider or the session
// would refuse: tool calls that share an id (once, or in every response), responses the
// session refuses, and every other way a turn stops (approvals, a pause, results the
// session refuses, a plan review), then the next turn, and a runner restored from what
// the store holds. Every conversation the runner keeps, saves or sends must be one a
// provider accepts (support/conversation.mjs); every model here refuses any other.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ChainRunner } from "../../target/www/runner/chain.js";
import { assertWellFormed, checkingStore, scriptedModel, strictModel } from "./support/conversation.mjs";
import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

const search = { definition: { name: "search", description: "Search", parameters: { type: "object" } }, run: (args) => `found ${args.q}` };
const writeFile = { definition: { name: "write_file", description: "Write", parameters: { type: "object" } }, run: (args) => `wrote ${args.path}` };
const searchCall = (id, q) => ({ id, name: "search", args: { q } });
const done = (answer) => ({ type: "finalize", answer, exitReason: "final_answer" });

/** A runner over `model` with a checking store, its session configured by `config`. */
function runnerOf(model, config = { tools: { read: ["search"] } }, options = {}) {
  const store = options.store ?? checkingStore();
  const runner = new ChainRunner({ session: new Session(config), model, store, tools: [search, writeFile], now: () => 1000, ...options });
  return { runner, store };
}

/** A runner restored from `store`, over `model`. */
async function restored(store, model) {
  const runner = new ChainRunner({ session: new Session(), model, store, tools: [search, writeFile], now: () => 1000 });
  assert.equal(await runner.restore((snapshot) => Session.restore(snapshot)), true);
  assertWellFormed(runner.messages, "restored");
  return runner;
}

/** The tool messages of a conversation as [content, the name of the call it answers]. */
const answers = (messages) => messages.filter((m) => m.role === "tool").map((m) => [m.content, m.toolCallId]);

test("calls of one response that share an id each run and are answered under ids of their own, in the next turn and after a restore", async () => {
  const model = scriptedModel([
    { text: null, toolCalls: [searchCall("x", "a"), searchCall("x", "b")] },
    { text: "Found a and b." },
    // The next turn reuses the id of the last one.
    { text: null, toolCalls: [searchCall("x", "c")] },
    { text: "Found c." },
  ]);
  const { runner, store } = runnerOf(model);
  const outcome = await runner.send("find a and b").catch((error) => error);
  assertWellFormed(runner.messages, "turn 1");
  assert.deepEqual(outcome, done("Found a and b."));
  const [first, second] = runner.messages[1].toolCalls;
  assert.deepEqual([first.id, first.args, second.args], ["x", { q: "a" }, { q: "b" }]);
  assert.deepEqual(answers(runner.messages), [["found a", "x"], ["found b", second.id]]);

  assert.deepEqual(await runner.send("find c"), done("Found c."));
  assertWellFormed(runner.messages, "turn 2");
  assert.equal(answers(runner.messages).length, 3);

  const again = await restored(store, scriptedModel([{ text: null, toolCalls: [searchCall("x", "d"), searchCall("x", "e")] }, { text: "Found d and e." }]));
  assert.deepEqual(again.messages, runner.messages);
  assert.deepEqual(await again.send("find d and e"), done("Found d and e."));
  assertWellFormed(again.messages, "turn 3");
  assert.deepEqual(answers(again.messages).map(([content]) => content), ["found a", "found b", "found c", "found d", "found e"]);
});

test("a model that gives every call one id (or none) keeps working, turn after turn", async () => {
  // Two calls a response, two responses a turn, every call `call_0` (a server that numbers
  // the calls of each response) or without an id.
  for (const id of ["call_0", "", undefined]) {
    const model = strictModel((request) => {
      const since = request.messages.length - request.messages.findLastIndex((m) => m.role === "user");
      if (since > 4) return { text: "Done." };
      return { text: null, toolCalls: [{ id, name: "search", args: { q: `${since}a` } }, { id, name: "search", args: { q: `${since}b` } }] };
    });
    const { runner, store } = runnerOf(model);
    for (const turn of [1, 2]) {
      assert.deepEqual(await runner.send(`turn ${turn}`), done("Done."), `${id}, turn ${turn}`);
      assertWellFormed(runner.messages, `${id}, turn ${turn}`);
    }
    const again = await restored(store, model);
    assert.deepEqual(await again.send("turn 3"), done("Done."), `${id}, turn 3`);
    assertWellFormed(again.messages, `${id}, turn 3`);
    assert.equal(answers(again.messages).length, 12, `${id}: each of the 12 calls ran and was answered`);
  }
});

/** A value nested `depth` objects deep. */
const nested = (depth) => (depth === 0 ? 1 : { a: nested(depth - 1) });

test("a response the session refuses is kept out of the conversation and send rejects with ResponseRefusedError, however often it comes", async () => {
  const refused = {
    "arguments nested too deep": { text: "Writing.", toolCalls: [{ id: "x", name: "search", args: nested(80) }, searchCall("x", "b")] },
    "more calls than a response may carry": { text: null, toolCalls: Array.from({ length: 300 }, (_, i) => searchCall(`c${i}`, "q")) },
    "a call without a name": { text: null, toolCalls: [{ id: "x", name: "", args: {} }] },
  };
  for (const [what, response] of Object.entries(refused)) {
    // One good round, then the refused response, three times over; then a good turn.
    let refusals = 3;
    const model = strictModel((request) => {
      const last = request.messages.at(-1);
      if (last.role === "user" && last.content === "go") return { text: null, toolCalls: [searchCall("s", "first")] };
      if (refusals-- > 0) return response;
      return { text: "Back." };
    });
    const { runner, store } = runnerOf(model);
    await assert.rejects(runner.send("go"), (error) => {
      assert.equal(error.name, "ResponseRefusedError", what);
      assert.equal(error.code, "response_refused", what);
      assert.equal(error.cause.code, "invalid_argument", what);
      assert.equal(error.response.toolCalls.length, response.toolCalls.length, what);
      return true;
    });
    assertWellFormed(runner.messages, `${what}: after the refusal`);
    assert.deepEqual(runner.messages.map((m) => m.role), ["user", "assistant", "tool"], `${what}: the refused response is not kept`);
    for (const message of ["again", "once more"]) {
      await assert.rejects(runner.send(message), { name: "ResponseRefusedError" }, what);
      assertWellFormed(runner.messages, `${what}: after "${message}"`);
    }
    assert.equal(runner.messages.filter((m) => m.role === "assistant").length, 1, what);
    assert.deepEqual(await runner.send("and now?"), done("Back."), what);
    assertWellFormed(runner.messages, `${what}: the turn after`);
    const again = await restored(store, scriptedModel([{ text: "Still here." }]));
    assert.deepEqual(await again.send("hello"), done("Still here."), what);
    assertWellFormed(again.messages, `${what}: after the restore`);
  }
});

test("every way a turn stops leaves each call answered: approvals, a pause, results the session refuses, a plan review", async () => {
  // Approvals: of two writes that share an id, one approved, one rejected.
  {
    const model = scriptedModel([
      { text: null, toolCalls: [{ id: "w", name: "write_file", args: { path: "a.md" } }, { id: "w", name: "write_file", args: { path: "b.md" } }, searchCall("w", "c")] },
      { text: "Wrote a.md." },
    ]);
    const { runner } = runnerOf(model, { tools: { read: ["search"] } }, { approve: (proposal) => ({ approve: proposal.args.path === "a.md" }) });
    assert.deepEqual(await runner.send("write a and b"), done("Wrote a.md."));
    assertWellFormed(runner.messages, "approvals");
    const contents = answers(runner.messages).map(([content]) => content);
    assert.equal(contents.length, 3);
    assert.match(contents.join(" | "), /^found c \| .*rejected.* \| .*wrote a\.md\n/);
  }
  // A pause at the iteration limit, with calls of the last response not run; then "continue".
  {
    const model = scriptedModel([
      { text: null, toolCalls: [searchCall("s", "a")] },
      { text: null, toolCalls: [searchCall("s", "b"), searchCall("s", "c")] },
      { text: "Done." },
    ]);
    const { runner, store } = runnerOf(model, { tools: { read: ["search"] }, maxIterations: 2 });
    const outcome = await runner.send("search");
    assert.equal(outcome.type, "pause");
    assertWellFormed(runner.messages, "pause");
    assertWellFormed(JSON.parse(store.text).messages, "pause, saved");
    assert.deepEqual(await runner.send("continue"), done("Done."));
    assertWellFormed(runner.messages, "after the pause");
  }
  // A tool whose output the session refuses (a cycle): the turn stops with that error.
  {
    const cyclic = {};
    cyclic.self = cyclic;
    const model = scriptedModel([{ text: null, toolCalls: [searchCall("s", "a"), { id: "s", name: "loop", args: {} }] }, { text: "Back." }]);
    const loop = { definition: { name: "loop", description: "Loops", parameters: { type: "object" } }, run: () => cyclic };
    const { runner } = runnerOf(model, { tools: { read: ["search", "loop"] } }, { tools: [search, loop] });
    await assert.rejects(runner.send("go"), { name: "PlanloopError", code: "invalid_argument" });
    assertWellFormed(runner.messages, "results refused");
    assert.deepEqual(await runner.send("again"), done("Back."));
    assertWellFormed(runner.messages, "after the results were refused");
  }
  // A plan review asked for next to other calls of the same response.
  {
    const plan = { id: "p", name: "plan", args: { overall_goal_ui: "Write the summary", internal_plan: "1. Find\n2. Write", complexity: "complex" } };
    const model = scriptedModel([{ text: null, toolCalls: [plan, searchCall("p", "a")] }]);
    const { runner } = runnerOf(model, { tools: { read: ["search"] }, planReview: { enabled: true } });
    const outcome = await runner.send("summarize");
    assert.equal(outcome.type, "awaitPlanReview");
    assertWellFormed(runner.messages, "plan review");
  }
});

test("restore mends a saved conversation a provider would refuse: repeated ids, unanswered calls, stray results", async () => {
  const broken = [
    { role: "user", content: "find a and b" },
    { role: "assistant", content: null, toolCalls: [searchCall("x", "a"), searchCall("x", "b")] },
    { role: "tool", toolCallId: "x", name: "search", content: "found a", isError: false },
    { role: "tool", toolCallId: "x", name: "search", content: "found b", isError: false },
    { role: "tool", toolCallId: "x", name: "search", content: "a third answer", isError: false },
    { role: "assistant", content: "Found a and b.", toolCalls: [] },
    { role: "user", content: "find c" },
    { role: "assistant", content: null, toolCalls: [searchCall("y", "c")] },
    { role: "user", content: "hello?" },
    { role: "tool", toolCallId: "z", name: "search", content: "answers nothing", isError: false },
  ];
  const store = checkingStore();
  store.text = JSON.stringify({ snapshot: new Session().snapshot(), messages: broken });
  const runner = await restored(store, scriptedModel([{ text: "Hello." }]));
  assert.deepEqual(runner.messages.map((m) => m.role), ["user", "assistant", "tool", "tool", "assistant", "user", "assistant", "tool", "user"]);
  const [first, second] = runner.messages[1].toolCalls;
  assert.deepEqual(answers(runner.messages).slice(0, 2), [["found a", first.id], ["found b", second.id]]);
  assert.equal(runner.messages[7].toolCallId, "y");
  assert.equal(runner.messages[7].isError, true);
  assert.deepEqual(await runner.send("hi"), done("Hello."));
  assertWellFormed(runner.messages, "the turn after the restore");

  // What is not a conversation at all is refused, and the runner keeps what it had.
  for (const messages of [null, "text", [{ role: "wizard", content: "hi" }], [{ role: "assistant", content: null, toolCalls: "x" }]]) {
    store.text = JSON.stringify({ snapshot: new Session().snapshot(), messages });
    const kept = runner.messages;
    const session = runner.session;
    await assert.rejects(runner.restore((snapshot) => Session.restore(snapshot)), TypeError, JSON.stringify(messages));
    assert.equal(runner.messages, kept);
    assert.equal(runner.session, session);
  }
});
