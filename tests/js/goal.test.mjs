// Goal checks and evidence per item through the JS API, against the built package: a
// turn's goal checked when its list is done (a nudge, or a `verifyGoal` decision the
// host answers with `handleVerdict`), receipts in `todos()`, and hostile input refused
// by name with nothing changed.
import assert from "node:assert/strict";
import { test } from "node:test";

import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

const todos = (items) => JSON.stringify({ todos: items.map(([id, status]) => ({ id, content: `Do ${id}`, status })) });
const goal = { statement: "The parser reads every number", criteria: ["Negative numbers parse", "The tests pass"] };
const completing = (verify, requireEvidence = false) => ({ tools: { default: "read" }, completion: { verify, requireEvidence } });

/** A session whose one item is done with a test run behind it; `now` goes on from 10. */
function worked(config, turnGoal = goal) {
  const session = new Session(config);
  session.beginTurn({ message: "Fix the parser", nowMs: 0, goal: turnGoal });
  session.handleModelResponse({ text: null, toolCalls: [{ id: "t1", name: "write_todos", args: todos([["fix", "in_progress"]]) }] }, 1);
  const run = session.handleModelResponse({ text: null, toolCalls: [{ id: "r1", name: "run_tests", args: {} }] }, 2);
  assert.equal(run.type, "runTools");
  session.handleToolResults([{ id: "r1", output: "12 passed" }], 3);
  session.handleModelResponse({ text: null, toolCalls: [{ id: "t2", name: "write_todos", args: todos([["fix", "completed"]]) }] }, 4);
  return session;
}

const said = (text) => ({ text, toolCalls: [] });

test("todos() gives each item its receipts and flags one completed with none", () => {
  const session = new Session({ tools: { default: "read" } });
  session.beginTurn({ message: "Tidy", nowMs: 0 });
  session.handleModelResponse({ text: null, toolCalls: [{ id: "t1", name: "write_todos", args: todos([["scan", "in_progress"], ["fix", "pending"]]) }] }, 1);
  session.handleModelResponse({ text: null, toolCalls: [{ id: "r1", name: "search", args: { q: "x" } }] }, 2);
  session.handleToolResults([{ id: "r1", output: "3 notes\nmore" }], 3);
  session.handleModelResponse({ text: null, toolCalls: [{ id: "t2", name: "write_todos", args: todos([["scan", "completed"], ["fix", "completed"]]) }] }, 4);
  const [scan, fix] = session.todos();
  assert.deepEqual(scan, { id: "scan", content: "Do scan", status: "completed", receipts: [{ id: "r1", name: "search", ok: true, observation: "search ok: 3 notes" }], unbacked: false });
  assert.deepEqual(fix, { id: "fix", content: "Do fix", status: "completed", receipts: [], unbacked: true });
  const events = session.drainEvents();
  assert.deepEqual(events.filter((e) => e.type === "ItemUnbacked").map((e) => e.todoId), ["fix"]);
  assert.ok(session.steps().includes("[Plan] fix: completed with no receipt"));
  assert.match(session.handoff(undefined, 5).text, /- \[x\] Do scan\n  · search ok: 3 notes \(r1\)/);
});

test("the goal nudge asks once, with the goal, each criterion and the evidence", () => {
  const session = worked(completing("nudge"));
  const check = session.handleModelResponse(said("Done."), 10);
  assert.equal(check.type, "continue");
  assert.equal(check.reason, "goal_check");
  assert.equal(check.attempt, 1);
  assert.match(check.message, /^<goal-check>/);
  assert.match(check.message, /1\. Negative numbers parse\n2\. The tests pass/);
  assert.match(check.message, /\[x\] Do fix: run_tests ok: 12 passed \(r1\)/);
  const end = session.handleModelResponse(said("Both hold: r1 passed."), 11);
  assert.deepEqual(end, { type: "finalize", answer: "Both hold: r1 passed.", exitReason: "final_answer" });
});

test("a host verdict: met finalizes with the held answer, not met asks to re-plan", () => {
  const session = worked(completing("host"));
  const verify = session.handleModelResponse(said("The parser is fixed."), 10);
  assert.equal(verify.type, "verifyGoal");
  assert.deepEqual(verify.goal, goal);
  assert.equal(verify.answer, "The parser is fixed.");
  assert.deepEqual(verify.evidence.map((e) => [e.todoId, e.receipts.map((r) => r.id)]), [["fix", ["r1"]]]);
  // Nothing but the verdict moves the turn, and a refusal changes nothing.
  const before = JSON.stringify(session.snapshot());
  assert.throws(() => session.handleModelResponse(said("x"), 11), (e) => e.code === "invalid_state" && /handleVerdict/.test(e.message));
  assert.throws(() => session.handleToolResults([{ id: "r1", output: "x" }], 11), (e) => e.code === "invalid_state" && /handleVerdict/.test(e.message));
  assert.equal(JSON.stringify(session.snapshot()), before);
  const unmet = session.handleVerdict({ met: false, reason: "Negative numbers still fail" }, 12);
  assert.equal(unmet.type, "continue");
  assert.equal(unmet.reason, "goal_unmet");
  assert.match(unmet.message, /^<goal-unmet>\nThe goal was checked and is not met yet: Negative numbers still fail/);
  // None awaited now: refused, nothing changed.
  const after = JSON.stringify(session.snapshot());
  assert.throws(() => session.handleVerdict({ met: true }, 13), (e) => e.code === "invalid_state");
  assert.equal(JSON.stringify(session.snapshot()), after);
  assert.equal(session.handleModelResponse(said("Fixed now."), 14).type, "verifyGoal");
  assert.deepEqual(session.handleVerdict({ met: true }, 15), { type: "finalize", answer: "Fixed now.", exitReason: "final_answer" });
  const kinds = session.drainEvents().map((e) => e.type);
  assert.equal(kinds.filter((k) => k === "GoalCheck").length, 2);
  assert.equal(kinds.filter((k) => k === "GoalVerdict").length, 2);
});

test("a host that never finds the goal met cannot keep the turn going", () => {
  const session = worked({ ...completing("host"), maxPlanContinuations: 2 });
  const decisions = [];
  for (let i = 0; i < 6; i++) {
    // (Worded anew each time: the same reply thrice is a model going in circles.)
    const verify = session.handleModelResponse(said(`Fixed, take ${i + 1}.`), 10 + 2 * i);
    if (verify.type !== "verifyGoal") break;
    const next = session.handleVerdict({ met: false, reason: "no" }, 11 + 2 * i);
    decisions.push(next.type);
    if (next.type !== "continue") {
      assert.deepEqual(next, { type: "finalize", answer: "Fixed, take 3.", exitReason: "safety_valve" });
      break;
    }
  }
  assert.deepEqual(decisions, ["continue", "continue", "finalize"]);
});

test("a verdict awaited survives a restart, and the restored session decides as the original", () => {
  const session = worked(completing("host"));
  assert.equal(session.handleModelResponse(said("The parser is fixed."), 10).type, "verifyGoal");
  const stored = JSON.stringify(session.snapshot());
  const restored = Session.restore(stored);
  assert.deepEqual(restored.handleVerdict({ met: true }, 11), { type: "finalize", answer: "The parser is fixed.", exitReason: "final_answer" });
  const again = Session.restore(stored);
  const unmet = { met: false, reason: "Not yet" };
  assert.deepEqual(again.handleVerdict(unmet, 11), session.handleVerdict(unmet, 11));
  assert.deepEqual(again.snapshot(), session.snapshot());
  assert.deepEqual(again.todos(), session.todos());
});

test("requireEvidence asks once for the work behind items completed with no receipt", () => {
  const session = new Session(completing("off", true));
  session.beginTurn({ message: "Write the report", nowMs: 0 });
  session.handleModelResponse({ text: null, toolCalls: [{ id: "t1", name: "write_todos", args: todos([["draft", "completed"], ["send", "completed"]]) }] }, 1);
  const ask = session.handleModelResponse(said("Written and sent."), 2);
  assert.equal(ask.type, "continue");
  assert.equal(ask.reason, "evidence_missing");
  assert.match(ask.message, /^<evidence-missing>[^]*- Do draft\n- Do send/);
  assert.equal(session.handleModelResponse(said("It is done."), 3).type, "finalize");
  // In Chinese too.
  const zh = new Session({ ...completing("off", true), language: "zh" });
  zh.beginTurn({ message: "写报告", nowMs: 0 });
  zh.handleModelResponse({ text: null, toolCalls: [{ id: "t1", name: "write_todos", args: todos([["draft", "completed"]]) }] }, 1);
  assert.match(zh.handleModelResponse(said("完成了。"), 2).message, /没有任何工具调用/);
});

test("hostile goals, verdicts and configs are refused by name and change nothing", () => {
  const session = worked(completing("host"));
  const before = JSON.stringify(session.snapshot());
  const refused = (call, name) =>
    assert.throws(call, (e) => e.name === "PlanloopError" && ["invalid_argument", "invalid_options"].includes(e.code) && e.message.includes(name), name);
  const begin = (turnGoal) => () => session.beginTurn({ message: "m", nowMs: 20, goal: turnGoal });
  refused(begin({ statement: "x".repeat(10_000_000) }), "input");
  refused(begin({ statement: "s", criteria: Array.from({ length: 1000 }, (_, i) => `c${i}`) }), "input");
  refused(begin({ statement: "" }), "input");
  refused(begin({ statement: 5 }), "input");
  refused(begin({ statement: "s", criteria: "all" }), "input");
  refused(begin("a goal"), "input");
  assert.equal(JSON.stringify(session.snapshot()), before);
  assert.equal(session.handleModelResponse(said("Fixed."), 21).type, "verifyGoal");
  const waiting = JSON.stringify(session.snapshot());
  refused(() => session.handleVerdict({ met: false, reason: "r".repeat(1_000_000) }, 22), "verdict");
  refused(() => session.handleVerdict({ met: "yes" }, 22), "verdict");
  refused(() => session.handleVerdict({}, 22), "verdict");
  refused(() => session.handleVerdict(undefined, 22), "verdict");
  refused(() => session.handleVerdict({ met: true, extra: 1 }, 22), "verdict");
  refused(() => session.handleVerdict({ met: true }, "now"), "nowMs");
  assert.equal(JSON.stringify(session.snapshot()), waiting);
  refused(() => new Session({ completion: { verify: "always" } }), "config");
  refused(() => new Session({ completion: { requireEvidence: "yes" } }), "config");
  assert.deepEqual(session.handleVerdict({ met: true }, 23), { type: "finalize", answer: "Fixed.", exitReason: "final_answer" });
});
