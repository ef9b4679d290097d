// Every export, fed hostile arguments in every position: each call gives a clear
// PlanloopError (name, stable code, data object) or a validation issue, never a crash,
// and the module keeps working afterwards.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { planloop } from "./support/pkg.mjs";

const { PlannerState, PlanReviewStore, ReasoningLog, Session } = planloop;

const deepText = "[".repeat(10_000) + "]".repeat(10_000);
const deepObject = JSON.parse('{"a":'.repeat(10_000) + "1" + "}".repeat(10_000));
const hostile = {
  undefined: undefined,
  null: null,
  zero: 0,
  NaN: NaN,
  "-Infinity": -Infinity,
  "1e308": 1e308,
  "empty array": [],
  "array of numbers": [1, 2, 3],
  "5 MB string": "x".repeat(5 * 1024 * 1024),
  "5 MB JSON string": JSON.stringify({ todos: [{ id: "a", content: "b", status: "pending" }], pad: "y".repeat(5 * 1024 * 1024) }),
  "JSON text nested 10,000 deep": deepText,
  "object nested 10,000 deep": deepObject,
  "snapshot header over 100,000 levels": '{"format":"planloop.session","version":"1.0","x":' + "[".repeat(100_000) + "]".repeat(100_000) + "}",
  "sparse array of length 2**32-1": new Array(2 ** 32 - 1),
  "own __proto__ key": JSON.parse('{"__proto__":{"todos":[],"command":"rm -rf ~"}}'),
  "lone surrogate": "\ud800",
  "lone surrogate in JSON": '{"todos":[{"id":"\udc00","content":"b","status":"pending"}]}',
  symbol: Symbol("s"),
  bigint: 10n,
  function: () => 1,
  "throwing getter": Object.defineProperty({}, "todos", { get() { throw new Error("boom"); }, enumerable: true }),
  "revoked proxy": (() => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; })(),
};

const VALID = '{"todos":[{"id":"a","content":"Read the note","status":"in_progress"}]}';
const REVIEW = { userId: "u", chatId: "c", turn: 1, goal: "g", plan: "1. a", createdAtMs: 0, expiresAtMs: 60_000 };
const snapshot = () => { const p = new PlannerState(); p.applyWriteTodos(VALID, 1); return p.snapshot(); };

const SNAPSHOT = JSON.stringify(proposing().snapshot());

// Each export with valid arguments; `args[i]` is replaced by each hostile value in turn.
const calls = [
  ["validateWriteTodos", [VALID], (a) => planloop.validateWriteTodos(...a)],
  ["writeTodosJsonSchema", [], (a) => planloop.writeTodosJsonSchema(...a)],
  ["toolDefinitions", [], (a) => planloop.toolDefinitions(...a)],
  ["extractReflection", ["Found it. Next.", 80], (a) => planloop.extractReflection(...a)],
  ["contextCapsule", [{ goal: "g", keyFindings: ["k"] }], (a) => planloop.contextCapsule(...a)],
  ["composePrompt", [{ base: "b {{{x}}}", values: { x: "1" }, features: { notes: true }, components: [{ name: "notes", text: "n" }] }], (a) => planloop.composePrompt(...a)],
  ["new PlannerState", [{ maxPlannerOnlyStreak: 2 }], (a) => new PlannerState(...a)],
  ["PlannerState.recordIteration", [["write_todos"]], (a) => new PlannerState().recordIteration(...a)],
  ["PlannerState.applyWriteTodos", [VALID, 5], (a) => new PlannerState().applyWriteTodos(...a)],
  ["PlannerState.snapshot", [], (a) => new PlannerState().snapshot(...a)],
  ["new ReasoningLog", [{ mode: "full" }], (a) => new ReasoningLog(...a)],
  ["ReasoningLog.recordPlan", [snapshot(), 1, 5], (a) => new ReasoningLog().recordPlan(...a)],
  ["ReasoningLog.recordAct", ["search", { query: "q" }, 1, 5], (a) => new ReasoningLog().recordAct(...a)],
  ["ReasoningLog.recordObs", ["search", "3 results", false, 1, 5], (a) => new ReasoningLog().recordObs(...a)],
  ["ReasoningLog.recordReflection", ["Done.", 1, 5, 100], (a) => new ReasoningLog().recordReflection(...a)],
  ["ReasoningLog.events", [], (a) => new ReasoningLog().events(...a)],
  ["ReasoningLog.steps", [], (a) => new ReasoningLog().steps(...a)],
  ["ReasoningLog.clear", [], (a) => new ReasoningLog().clear(...a)],
  ["new Session", [{ maxIterations: 5 }], (a) => new Session(...a)],
  ["Session.beginTurn", [{ message: "hi", nowMs: 1 }], (a) => new Session().beginTurn(...a)],
  ["Session.handleModelResponse", [{ text: "hi", toolCalls: [{ id: "1", name: "write_todos", args: VALID }] }, 2], (a) => started().handleModelResponse(...a)],
  ["Session.handleToolResults", [[{ id: "c", output: "ok" }], 3], (a) => awaiting().handleToolResults(...a)],
  ["Session.approve", ["act-1-1", { scope: "always" }, 3], (a) => proposing().approve(...a)],
  ["Session.reject", ["act-1-1", { message: "no" }, 3], (a) => proposing().reject(...a)],
  ["Session.proposals", [], (a) => proposing().proposals(...a)],
  ["Session.drainEvents", [], (a) => started().drainEvents(...a)],
  ["Session.systemPrompt", [{ base: "b", features: { continuation_protocol: true } }, 4], (a) => started().systemPrompt(...a)],
  ["Session.restore", [SNAPSHOT], (a) => Session.restore(...a)],
  ["Session.snapshot / stepPlan", [], (a) => { const s = proposing(); return [s.snapshot(...a), s.stepPlan(...a)]; }],
  ["new PlanReviewStore / size / toJSON", [], (a) => { const s = new PlanReviewStore(...a); return [s.size, s.toJSON(...a)]; }],
  ["PlanReviewStore.fromJSON", [{ reviews: [REVIEW] }], (a) => PlanReviewStore.fromJSON(...a)],
  ["PlanReviewStore.put", [REVIEW], (a) => new PlanReviewStore().put(...a)],
  ["PlanReviewStore.take", ["u", "c", 5], (a) => PlanReviewStore.fromJSON({ reviews: [REVIEW] }).take(...a)],
  ["Session.todos / plan / progress / capsule / steps / reasoning / toolDefinitions", [], (a) => {
    const s = started();
    return [s.todos(...a), s.plan(...a), s.progress(...a), s.capsule(...a), s.steps(...a), s.reasoning(...a), s.toolDefinitions(...a)];
  }],
];

function started() {
  const session = new Session({ tools: { default: "read" } });
  session.beginTurn({ message: "go", nowMs: 1 });
  return session;
}

/** A session whose turn waits on one proposal, `act-1-1`. */
function proposing() {
  const session = new Session();
  session.beginTurn({ message: "go", nowMs: 1 });
  session.handleModelResponse({ toolCalls: [{ id: "c", name: "deploy", args: { env: "prod" } }] }, 2);
  return session;
}

function awaiting() {
  const session = started();
  session.handleModelResponse({ toolCalls: [{ id: "c", name: "search", args: {} }] }, 2);
  return session;
}

// The codes the package's declarations promise (`ErrorCode`, generated from the Rust enum).
const declarations = readFileSync(new URL("../../pkg/planloop.d.ts", import.meta.url), "utf8");
const ERROR_CODES = new Set(declarations.match(/export type ErrorCode = ([^;]+);/)[1].match(/[a-z_]+/g));

function stillWorks() {
  const planner = new PlannerState();
  assert.deepEqual(planner.applyWriteTodos(VALID, 9), { ok: true, revision: 1, todoCount: 1, inProgress: "a" });
  assert.equal(planloop.validateWriteTodos(VALID).success, true);
  assert.deepEqual(new ReasoningLog().recordObs("t", "ok", false, 1, 1).phase, "obs");
  assert.equal(started().handleModelResponse({ text: "done" }, 2).type, "finalize");
}

for (const [name, valid, call] of calls) {
  test(`${name}: hostile arguments get an error or an issue, and the module keeps working`, () => {
    const positions = Math.max(valid.length, 1);
    for (let position = 0; position < positions; position++) {
      for (const [label, bad] of Object.entries(hostile)) {
        const args = [...valid];
        args[position] = bad;
        let outcome;
        try {
          outcome = { value: call(args) };
        } catch (error) {
          outcome = { error };
        }
        const where = `${name} with ${label} as argument ${position + 1}`;
        if (outcome.error) {
          const e = outcome.error;
          assert.ok(e instanceof Error, `${where}: threw a non-Error ${String(e)}`);
          assert.equal(e.name, "PlanloopError", `${where}: ${e.message}`);
          assert.ok(ERROR_CODES.has(e.code), `${where}: code ${e.code}`);
          assert.notEqual(e.code, "internal", `${where}: ${e.message}`);
          assert.equal(typeof e.data, "object", where);
          assert.ok(e.message.length > 0 && e.message.length < 2000, `${where}: message length ${e.message.length}`);
        } else if (outcome.value && typeof outcome.value === "object" && "success" in outcome.value && !outcome.value.success) {
          assert.ok(outcome.value.error.issues.length > 0, `${where}: a failure lists its issues`);
        }
        stillWorks();
      }
    }
  });
}

test("the inputs the issue names give the documented answers", () => {
  assert.equal(planloop.validateWriteTodos(undefined).error.issues[0].message, "Invalid input: expected object, received undefined");
  assert.equal(planloop.validateWriteTodos(hostile["5 MB string"]).error.issues[0].code, "invalid_json");
  // Deep JSON parses like JSON.parse does; the schema then rejects the array.
  assert.equal(planloop.validateWriteTodos(deepText).error.issues[0].message, "Invalid input: expected object, received array");
  assert.equal(planloop.validateWriteTodos(deepObject).error.issues[0].message, "Invalid input: expected array, received undefined");
  const lone = planloop.validateWriteTodos(hostile["lone surrogate in JSON"]).error.issues[0];
  assert.deepEqual([lone.code, lone.format, lone.path], ["invalid_format", "well_formed_utf16", ["todos", 0, "id"]]);
  assert.throws(() => new PlannerState().applyWriteTodos(VALID, NaN), { name: "PlanloopError", code: "invalid_argument" });
  assert.throws(() => planloop.extractReflection("\ud800"), (e) => e.code === "invalid_argument" && e.data.issues[0].format === "well_formed_utf16");
  assert.throws(() => new PlannerState().applyWriteTodos(hostile["throwing getter"], 1), { code: "host_exception", data: { detail: "boom" } });
});
