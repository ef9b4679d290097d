// The budget ledger through the JS API: `usage` on a model response counts per turn and
// per session (progress().ledger, a TokensUsed event), `maxTokens` and `maxSessionTokens`
// end a turn as budget_exhausted (never done), a child's tokens land in its parent's turn
// within a limit carved from the parent's, and hostile usage is refused by name.
import assert from "node:assert/strict";
import { test } from "node:test";

import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

const read = (id) => ({ id, name: "read", args: { path: `${id}.md` } });
const todos = (items) => ({ todos: items.map(([id, status]) => ({ id, content: `Do ${id}`, status })) });
const base = { tools: { read: ["read"] } };

test("usage counts per turn and per session, with an event per response that carried it", () => {
  const session = new Session(base);
  session.beginTurn({ message: "Read the notes", nowMs: 0 });
  const d = session.handleModelResponse({ text: null, toolCalls: [read("a")], usage: { inputTokens: 100, outputTokens: 10 } }, 1000);
  assert.equal(d.type, "runTools");
  assert.equal(d.next.tokensRemaining, null);
  session.handleToolResults([{ id: "a", output: "x" }], 2000);
  assert.equal(session.handleModelResponse({ text: "Done.", usage: { inputTokens: 50 } }, 3000).type, "finalize");
  const { turn, session: total } = session.progress().ledger;
  assert.deepEqual(turn, { steps: 2, inputTokens: 150, outputTokens: 10, timeMs: 3000 });
  assert.deepEqual(total, turn);
  const used = session.drainEvents().filter((e) => e.type === "TokensUsed");
  assert.deepEqual(
    used.map((e) => [e.inputTokens, e.outputTokens, e.ledger.turn.inputTokens, e.ledger.session.outputTokens]),
    [[100, 10, 100, 10], [50, 0, 150, 10]],
  );
  session.beginTurn({ message: "More", nowMs: 10_000 });
  session.handleModelResponse({ text: "Done too.", usage: { inputTokens: 7, outputTokens: 3 } }, 11_000);
  const ledger = session.progress().ledger;
  assert.deepEqual(ledger.turn, { steps: 1, inputTokens: 7, outputTokens: 3, timeMs: 1000 });
  assert.deepEqual(ledger.session, { steps: 3, inputTokens: 157, outputTokens: 13, timeMs: 4000 });
});

test("a turn at maxTokens pauses as budget_exhausted and its calls do not run", () => {
  const session = new Session({ ...base, maxTokens: 1000 });
  const start = session.beginTurn({ message: "Fix it", nowMs: 0 });
  assert.equal(start.next.tokensRemaining, 1000);
  assert.match(start.next.budgetLine, /Tokens remaining: 1000\./);
  const list = { id: "t", name: "write_todos", args: todos([["a", "in_progress"]]) };
  const first = session.handleModelResponse({ text: null, toolCalls: [list, read("a")], usage: { inputTokens: 500, outputTokens: 100 } }, 1);
  assert.equal(first.next.tokensRemaining, 400);
  session.handleToolResults([{ id: "a", output: "x" }], 2);
  const decision = session.handleModelResponse({ text: null, toolCalls: [read("b")], usage: { inputTokens: 400 } }, 3);
  assert.equal(decision.type, "pause");
  assert.equal(decision.exitReason, "budget_exhausted");
  assert.match(decision.summary, /token budget/);
  assert.throws(() => session.handleToolResults([{ id: "b", output: "x" }], 4), { code: "invalid_state" });
  const events = session.drainEvents();
  assert.ok(events.some((e) => e.type === "TurnPaused" && e.reason === "budget_exhausted"));
  assert.ok(!events.some((e) => e.type === "TurnCompleted"));
});

test("onLimit fail fails at the token limit; a final answer with nothing left is done", () => {
  const failing = new Session({ ...base, maxTokens: 100, onLimit: "fail" });
  failing.beginTurn({ message: "Fix it", nowMs: 0 });
  const failed = failing.handleModelResponse({ text: null, toolCalls: [read("a")], usage: { outputTokens: 100 } }, 1);
  assert.deepEqual([failed.type, failed.exitReason], ["fail", "budget_exhausted"]);
  const answering = new Session({ ...base, maxTokens: 100 });
  answering.beginTurn({ message: "Say hi", nowMs: 0 });
  const done = answering.handleModelResponse({ text: "Hi.", usage: { inputTokens: 90, outputTokens: 10 } }, 1);
  assert.deepEqual([done.type, done.exitReason], ["finalize", "final_answer"]);
});

test("maxSessionTokens spans turns, and a spent session refuses beginTurn, changing nothing", () => {
  const session = new Session({ ...base, maxSessionTokens: 1000 });
  session.beginTurn({ message: "One", nowMs: 0 });
  session.handleModelResponse({ text: "Done.", usage: { inputTokens: 700 } }, 1);
  const start = session.beginTurn({ message: "Two", nowMs: 2 });
  assert.equal(start.next.tokensRemaining, 300);
  const decision = session.handleModelResponse({ text: null, toolCalls: [read("a")], usage: { inputTokens: 300 } }, 3);
  assert.deepEqual([decision.type, decision.exitReason], ["pause", "budget_exhausted"]);
  session.drainEvents();
  const before = session.snapshot();
  assert.throws(() => session.beginTurn({ message: "Three", nowMs: 4 }), (e) => e.code === "invalid_state" && /maxSessionTokens/.test(e.message));
  assert.deepEqual(session.snapshot(), before);
  assert.deepEqual(session.drainEvents(), []);
});

test("a child's limit is carved from its parent's and its tokens land in the parent's turn", () => {
  const parent = new Session({ ...base, delegation: { enabled: true }, maxTokens: 1000 });
  parent.beginTurn({ message: "Fix the parser and its docs", nowMs: 0 });
  const list = { id: "t", name: "write_todos", args: todos([["a", "completed"], ["b", "in_progress"]]) };
  parent.handleModelResponse({ text: null, toolCalls: [list], usage: { inputTokens: 300, outputTokens: 100 } }, 1);
  const delegate = { id: "d1", name: "delegate", args: { goal: "Fix number reading", todoId: "b" } };
  assert.equal(parent.handleModelResponse({ text: null, toolCalls: [delegate] }, 2).delegations.length, 1);
  const start = parent.beginDelegation("d1", 3);
  assert.equal(start.next.tokensRemaining, 600);
  const child = parent.child("d1");
  const stopped = child.handleModelResponse({ text: null, toolCalls: [read("c")], usage: { inputTokens: 100, outputTokens: 20 } }, 4);
  assert.equal(stopped.type, "runTools");
  child.handleToolResults([{ id: "c", output: "x" }], 5);
  // Counted live while the child works.
  assert.deepEqual([parent.progress().ledger.turn.inputTokens, parent.progress().ledger.turn.outputTokens], [400, 120]);
  const out = child.handleModelResponse({ text: null, toolCalls: [read("d")], usage: { inputTokens: 480 } }, 6);
  assert.deepEqual([out.type, out.exitReason], ["pause", "budget_exhausted"]);
  child.free();
  const outcome = parent.finishDelegation("d1", {}, 7);
  assert.equal(outcome.capsule.status, "partial");
  assert.equal(outcome.next.tokensRemaining, 0);
  assert.equal(outcome.next.toolsWithheld, true);
  const { turn } = parent.progress().ledger;
  assert.deepEqual([turn.inputTokens, turn.outputTokens], [880, 120]);
  // Restored, the parent decides the same.
  const copy = Session.restore(parent.snapshot());
  assert.deepEqual(copy.progress().ledger, parent.progress().ledger);
  const next = { text: null, toolCalls: [read("e")] };
  const decided = parent.handleModelResponse(next, 8);
  assert.deepEqual(copy.handleModelResponse(next, 8), decided);
  assert.equal(decided.exitReason, "budget_exhausted");
});

test("hostile usage is refused by name and changes nothing", () => {
  const session = new Session({ ...base, maxTokens: 1000 });
  session.beginTurn({ message: "x", nowMs: 0 });
  session.drainEvents();
  const before = session.snapshot();
  const hostile = [{ inputTokens: -1 }, { inputTokens: 1.5 }, { outputTokens: 1e300 }, { inputTokens: "12" }, { outputTokens: 2 ** 32 }, { inputTokens: NaN }, { totalTokens: 3 }, 5, "many"];
  for (const usage of hostile) {
    assert.throws(
      () => session.handleModelResponse({ text: null, toolCalls: [read("a")], usage }, 1),
      (e) => e.code === "invalid_argument" && e.data.issues.some((i) => i.path.includes("usage")),
      JSON.stringify(usage),
    );
  }
  assert.deepEqual(session.snapshot(), before);
  assert.deepEqual(session.drainEvents(), []);
  // The largest counts are whole numbers in range: counted, saturating.
  const d = session.handleModelResponse({ text: "Done.", usage: { inputTokens: 4294967295, outputTokens: 0 } }, 1);
  assert.equal(d.type, "finalize");
  assert.equal(session.progress().ledger.session.inputTokens, 4294967295);
});
