// The reference chain runner under a careless host: sends that overlap (a double click, a
// send during a slow save or an approval wait), and a model, tool, approval callback or
// store that throws. Turns never cross, and the conversation the store holds is always
// one a provider accepts (support/conversation.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";

import { ChainRunner } from "../../target/www/runner/chain.js";
import { assertWellFormed, checkingStore, strictModel } from "./support/conversation.mjs";
import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

/** A model that answers each request by the last user message it sees, after a delay. */
function echoModel(delay = 5) {
  const seen = [];
  return {
    seen,
    async complete(request) {
      const users = request.messages.filter((m) => m.role === "user");
      const last = users.at(-1).content;
      seen.push(last);
      await tick(delay);
      return { text: `answer to ${last}`, toolCalls: [] };
    },
  };
}

test("two sends at once (a double click) run one after the other, each with its own answer", async () => {
  const model = echoModel();
  const store = checkingStore();
  const runner = new ChainRunner({ session: new Session(), model, store });
  const first = runner.send("one");
  const second = runner.send("two");
  assert.equal(runner.busy, true);
  assert.deepEqual(await Promise.all([first, second]), [
    { type: "finalize", answer: "answer to one", exitReason: "final_answer" },
    { type: "finalize", answer: "answer to two", exitReason: "final_answer" },
  ]);
  assert.equal(runner.busy, false);
  assert.deepEqual(model.seen, ["one", "two"]);
  assertWellFormed(runner.messages, "end");
  assert.deepEqual(runner.messages.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
});

test("a send during a slow save waits for it, and answers its own message", async () => {
  // Each message takes a search first, then the answer: the first turn saves (slowly)
  // after its search, while the second message arrives.
  const model = {
    async complete(request) {
      const at = request.messages.findLastIndex((m) => m.role === "user");
      const message = request.messages[at].content;
      await tick(1);
      if (!request.messages.slice(at).some((m) => m.role === "tool")) {
        return { text: null, toolCalls: [{ id: `s-${message}`, name: "search", args: { q: message } }] };
      }
      return { text: `answer to ${message}`, toolCalls: [] };
    },
  };
  const store = checkingStore(30);
  const tools = [{ definition: { name: "search", description: "Search", parameters: { type: "object" } }, run: () => "found" }];
  const runner = new ChainRunner({ session: new Session({ tools: { read: ["search"] } }), model, store, tools });
  const first = runner.send("first");
  await tick(15); // the first turn is saving after its search
  const second = runner.send("second");
  assert.equal((await first).answer, "answer to first");
  assert.equal((await second).answer, "answer to second");
  assert.equal(store.saved.length, 4);
  assertWellFormed(runner.messages, "end");
});

test("a send during an approval wait leaves no tool call unanswered in any saved conversation", async () => {
  let release;
  const decided = new Promise((resolve) => (release = resolve));
  const script = [
    { text: null, toolCalls: [{ id: "w1", name: "write_file", args: { path: "a.md" } }] },
    { text: "Wrote a.md.", toolCalls: [] },
    { text: "Hello again.", toolCalls: [] },
  ];
  const model = { complete: async () => script.shift() };
  const store = checkingStore();
  const runner = new ChainRunner({
    session: new Session(),
    model,
    store,
    tools: [{ definition: { name: "write_file", description: "Write", parameters: { type: "object" } }, run: () => "written" }],
    approve: async () => {
      await decided;
      return { approve: true };
    },
  });
  const first = runner.send("write a.md");
  await tick(10);
  const second = runner.send("hello");
  await tick(10);
  assert.equal(store.saved.length, 0, "nothing is saved while the approval waits");
  release();
  assert.equal((await first).answer, "Wrote a.md.");
  assert.equal((await second).answer, "Hello again.");
  assert.equal(store.saved.length, 3);
  assertWellFormed(runner.messages, "end");
});

test("when the model, the approval callback or the store throws, the error reaches the caller and the conversation stays well-formed", async () => {
  const calls = [{ id: "r1", name: "search", args: { q: "x" } }, { id: "w1", name: "write_file", args: { path: "a" } }];
  const tools = [
    { definition: { name: "search", description: "Search", parameters: { type: "object" } }, run: () => { throw new Error("search is down"); } },
    { definition: { name: "write_file", description: "Write", parameters: { type: "object" } }, run: () => "written" },
  ];
  const failures = {
    model: (runner) => { runner.options.model.complete = async () => { throw new Error("model unavailable"); }; },
    approve: (runner) => { runner.options.approve = async () => { throw new Error("dialog closed"); }; },
    store: (runner) => { runner.options.store.save = () => { throw new Error("disk full"); }; },
  };
  for (const [what, fail] of Object.entries(failures)) {
    let turn = 0;
    const model = { complete: async () => (turn++ === 0 ? { text: null, toolCalls: calls } : { text: "Done.", toolCalls: [] }) };
    const store = checkingStore();
    const runner = new ChainRunner({ session: new Session({ tools: { read: ["search"] } }), model, store, tools, approve: () => ({ approve: true }) });
    if (what === "model") {
      // The model fails on its second call, after a tool round.
      const complete = model.complete;
      model.complete = async (request) => { if (turn === 1) { turn++; throw new Error("model unavailable"); } return complete(request); };
    } else {
      fail(runner);
    }
    await assert.rejects(runner.send("go"), new RegExp({ model: "model unavailable", approve: "dialog closed", store: "disk full" }[what]), what);
    assertWellFormed(runner.messages, `after the ${what} threw`);
    assert.equal(runner.busy, false, what);
    // The runner takes the next message as a new turn.
    const healthy = new ChainRunner({ session: runner.session, model: strictModel(() => ({ text: "Back.", toolCalls: [] })) });
    healthy.messages = runner.messages;
    assert.equal((await healthy.send("again")).answer, "Back.", what);
    assertWellFormed(healthy.messages, `the turn after the ${what} threw`);
  }
});
