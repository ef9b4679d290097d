// Snapshots from JS: a session saved as JSON and restored (from the object or the text)
// decides as the original did; "continue" resumes a plan paused at the limit; snapshots
// that are not sound are refused with invalid_snapshot and nothing else happens.
import assert from "node:assert/strict";
import { test } from "node:test";

import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

const config = { maxIterations: 3, tools: { read: ["fetch", "plot"] } };

/** A session paused at the iteration limit in the middle of a three-step plan. */
function pausedSession() {
  const session = new Session(config);
  session.beginTurn({ message: "Chart five years of revenue", nowMs: 0 });
  const first = session.handleModelResponse({ text: "[Step] Download\n[Step] Extract\n[Step] Chart", toolCalls: [{ id: "1", name: "fetch", args: { year: 2019 } }] }, 1);
  session.handleToolResults(first.calls.map((c) => ({ id: c.id, output: "ok" })), 2);
  session.handleModelResponse({ text: "Downloaded. [Done]", toolCalls: [{ id: "2", name: "fetch", args: { year: 2020 } }] }, 3);
  session.handleToolResults([{ id: "2", output: "ok" }], 4);
  const paused = session.handleModelResponse({ text: "", toolCalls: [{ id: "3", name: "fetch", args: { year: 2021 } }] }, 5);
  assert.equal(paused.type, "pause");
  return session;
}

/** Finishes the plan after "continue"; returns every decision and the plan's final state. */
function finish(session) {
  const start = session.beginTurn({ message: "continue", nowMs: 10_000 });
  const decisions = [start];
  decisions.push(session.handleModelResponse({ text: "Extracted. [Done]", toolCalls: [{ id: "4", name: "plot", args: {} }] }, 10_001));
  decisions.push(session.handleToolResults([{ id: "4", output: "revenue.png" }], 10_002));
  decisions.push(session.handleModelResponse({ text: "The chart is in revenue.png." }, 10_003));
  return { decisions, plan: session.stepPlan(), events: session.drainEvents().map((e) => e.type) };
}

test("a snapshot restored from its object or its JSON text goes on exactly like the original", () => {
  const original = pausedSession();
  original.drainEvents();
  const snapshot = original.snapshot();
  assert.equal(snapshot.format, "planloop.session");
  assert.equal(snapshot.version, "1.4");
  assert.match(snapshot.checksum, /^[0-9a-f]{16}$/);
  assert.deepEqual(Object.keys(snapshot.plan), ["id", "goal", "status", "steps", "current_step_index", "iteration_count"]);
  assert.deepEqual(snapshot.plan.steps.map((s) => [s.id, s.status, s.result]), [["step_1", "completed", "Downloaded."], ["step_2", "running", null], ["step_3", "pending", null]]);
  assert.deepEqual([snapshot.plan.status, snapshot.plan.current_step_index, snapshot.plan.iteration_count], ["paused", 1, 3]);
  const fromText = Session.restore(JSON.stringify(snapshot));
  const fromObject = Session.restore(snapshot);
  const expected = finish(original);
  assert.deepEqual(finish(fromText), expected);
  assert.deepEqual(finish(fromObject), expected);
  assert.match(expected.decisions[0].message, /^<resume>\n[^]*Done so far: 1\/3 steps\nNext: Extract/);
  assert.equal(expected.decisions.at(-1).type, "finalize");
  assert.equal(expected.plan.status, "completed");
  assert.ok(expected.events.includes("PlanResumed"));
});

test("a store that reorders keys and reformats the text does not break a snapshot", () => {
  const sortKeys = (value) => Array.isArray(value)
    ? value.map(sortKeys)
    : value && typeof value === "object"
      ? Object.fromEntries(Object.keys(value).sort().reverse().map((k) => [k, sortKeys(value[k])]))
      : value;
  const snapshot = pausedSession().snapshot();
  const stored = JSON.stringify(sortKeys(snapshot), null, 2);
  assert.deepEqual(Session.restore(stored).snapshot(), snapshot);
});

test("snapshots that are not sound are refused with invalid_snapshot, and say why", () => {
  const snapshot = pausedSession().snapshot();
  const refused = (input, why) => assert.throws(() => Session.restore(input), (e) => {
    assert.equal(e.name, "PlanloopError");
    assert.equal(e.code, "invalid_snapshot");
    assert.equal(e.data.argument, "snapshot");
    assert.match(e.data.detail, why);
    return true;
  });
  const text = JSON.stringify(snapshot);
  refused(text.slice(0, text.length - 40), /not JSON/);
  refused({ ...snapshot, version: "2.0" }, /this planloop reads 1\.x/);
  refused({ ...snapshot, version: "1.5" }, /newer planloop/);
  refused({ ...snapshot, plan: { ...snapshot.plan, goal: "Delete everything" } }, /checksum does not match/);
  refused({ ...snapshot, turns: snapshot.turns + 1 }, /checksum does not match/);
  refused({ todos: [] }, /not a planloop session snapshot/);
  refused(undefined, /not a planloop session snapshot/);
  refused("", /not JSON/);
  const cyclic = { ...snapshot };
  cyclic.self = cyclic;
  assert.throws(() => Session.restore(cyclic), { code: "host_exception" });
  // The session a refusal leaves behind is untouched: the original still restores.
  assert.equal(Session.restore(snapshot).stepPlan().status, "paused");
});

test("a session restored mid-approval can approve, and the call runs once", () => {
  const session = new Session({ tools: { read: ["search"] } });
  session.beginTurn({ message: "Deploy", nowMs: 0 });
  const paused = session.handleModelResponse({ toolCalls: [{ id: "d", name: "deploy", args: { env: "prod" } }] }, 1);
  assert.equal(paused.type, "awaitApproval");
  const restored = Session.restore(JSON.stringify(session.snapshot()));
  assert.deepEqual(restored.proposals(), session.proposals());
  const outcome = restored.approve(paused.proposals[0].actionId, { scope: "once" }, 2);
  assert.deepEqual(outcome.resumed.calls, [{ id: "d", name: "deploy", args: { env: "prod" } }]);
  assert.throws(() => restored.approve(paused.proposals[0].actionId, {}, 3), { code: "action_already_resolved" });
});
