// planloop's validateWriteTodos against the pinned zod, side by side, on generated and
// mutated payloads: the same accept/reject, the same issues in the same order, the same
// data (key order included).
import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";

import { Corpus } from "./support/corpus.mjs";
import { planloop } from "./support/pkg.mjs";
import { writeTodosSchema, zodAnswer } from "./support/seed-schema.mjs";
import { NOT_JSON, expectedForText, safeParse, same } from "./support/zod-compare.mjs";

const PAYLOADS = 12_000;
const entries = new Corpus(20261121).entries(PAYLOADS);

test(`the corpus covers what the issue asks for (${PAYLOADS} payloads)`, () => {
  const texts = entries.map((e) => e.text);
  const has = (predicate) => texts.some(predicate);
  assert.ok(entries.length >= 10_000);
  assert.ok(has((t) => /😀|𝔘|🚀/.test(t)), "astral characters");
  assert.ok(has((t) => /[é中한]/.test(t)), "multi-byte characters");
  for (const n of [0, 1, 8, 9]) {
    assert.ok(entries.some((e) => Array.isArray(e.raw?.todos) && e.raw.todos.length === n), `${n} items`);
  }
  const strings = entries.flatMap((e) => [
    e.raw?.focus,
    e.raw?.note,
    ...(Array.isArray(e.raw?.todos) ? e.raw.todos.flatMap((t) => [t?.id, t?.content]) : []),
  ]);
  for (const n of [0, 1, 40, 41, 140, 141, 200, 201]) {
    assert.ok(strings.some((s) => typeof s === "string" && [...s].length === n), `a string of ${n} characters`);
  }
  const verdicts = entries.map((e) => expectedForText(e.text));
  const accepted = verdicts.filter((v) => v?.success).length;
  const rejected = verdicts.filter((v) => v && !v.success).length;
  const notJson = verdicts.filter((v) => v === null).length;
  assert.ok(accepted > 1000 && rejected > 1000 && notJson > 300, `accepted ${accepted}, rejected ${rejected}, not JSON ${notJson}`);
});

test("raw JSON text: planloop answers exactly as JSON.parse + zod safeParse", () => {
  const disagreements = [];
  for (const { text } of entries) {
    const actual = planloop.validateWriteTodos(text);
    const expected = expectedForText(text);
    if (expected === null) {
      const ok = actual.success === false && actual.error.issues.length === 1 && actual.error.issues[0].code === "invalid_json";
      if (!ok) disagreements.push({ text, actual, expected: "invalid_json" });
    } else if (!same(actual, expected)) {
      disagreements.push({ text, actual, expected });
    }
  }
  assert.deepEqual(disagreements.slice(0, 3), [], `${disagreements.length} disagreements`);
});

// A string argument is JSON text to planloop (see the test above), so only non-strings
// are compared as values here.
test("JS values (undefined and -0 included): planloop answers exactly as zod safeParse", () => {
  const disagreements = [];
  for (const { raw, text } of entries) {
    for (const value of [raw, safeParse(text)]) {
      if (value === NOT_JSON || typeof value === "string") continue;
      const actual = planloop.validateWriteTodos(value);
      const expected = zodAnswer(writeTodosSchema, value);
      if (!same(actual, expected)) disagreements.push({ value, actual, expected });
    }
  }
  assert.deepEqual(disagreements.slice(0, 3), [], `${disagreements.length} disagreements`);
});

// The session module reads write_todos arguments the full way only (the one-pass reader
// is the primitives module's): its replies must be the primitives' acks, whichever way
// the arguments came (JSON text, or its parsed value: a session reads a call's arguments
// as JSON, where `undefined` is `null`, so JS values that JSON cannot carry are left out).
test("a Session answers each write_todos call as PlannerState.applyWriteTodos does", () => {
  const session = new planloop.Session({ tools: { default: "read" }, maxIterations: 100_000, timeoutMs: 86_400_000 });
  session.beginTurn({ message: "Plan it", nowMs: 0 });
  const planner = new planloop.PlannerState({ maxPlannerOnlyStreak: 1000 });
  const disagreements = [];
  let iteration = 0;
  for (const { text } of entries) {
    const parsed = safeParse(text);
    for (const args of parsed === NOT_JSON || typeof parsed === "string" ? [text] : [text, parsed]) {
      iteration += 1;
      const calls = [{ id: `w${iteration}`, name: "write_todos", args }, { id: `s${iteration}`, name: "search", args: { page: iteration } }];
      const decision = session.handleModelResponse({ text: null, toolCalls: calls }, iteration);
      const reply = decision.replies?.find((r) => r.toolCallId === `w${iteration}`);
      const expected = planner.applyWriteTodos(args, iteration);
      if (reply === undefined || !same(JSON.parse(reply.content), expected)) disagreements.push({ args, reply, expected });
      session.handleToolResults([{ id: `s${iteration}`, output: `page ${iteration}` }], iteration);
    }
  }
  assert.ok(iteration > PAYLOADS * 1.5, "most payloads were sent both as text and as a value");
  assert.deepEqual(disagreements.slice(0, 3), [], `${disagreements.length} disagreements`);
});

test("z.fromJSONSchema(writeTodosJsonSchema()) accepts and rejects exactly what planloop does", () => {
  const fromPlanloop = z.fromJSONSchema(planloop.writeTodosJsonSchema());
  const disagreements = [];
  for (const { raw, text } of entries) {
    for (const value of [raw, safeParse(text)]) {
      if (value === NOT_JSON || typeof value === "string") continue;
      if (planloop.validateWriteTodos(value).success !== fromPlanloop.safeParse(value).success) disagreements.push(value);
    }
  }
  assert.deepEqual(disagreements.slice(0, 3), [], `${disagreements.length} disagreements`);
});

test("the JSON Schema agrees with zod's own z.toJSONSchema on every constraint", () => {
  const withoutProse = (node) =>
    Array.isArray(node)
      ? node.map(withoutProse)
      : node && typeof node === "object"
        ? Object.fromEntries(Object.entries(node).filter(([k]) => k !== "description" && k !== "title").map(([k, v]) => [k, withoutProse(v)]))
        : node;
  // planloop describes the arguments it accepts (unknown keys are stripped, not
  // refused), which is zod's "input" view; the "output" view adds only
  // additionalProperties: false on each object.
  assert.deepStrictEqual(withoutProse(planloop.writeTodosJsonSchema()), z.toJSONSchema(writeTodosSchema, { io: "input" }));
  const output = z.toJSONSchema(writeTodosSchema);
  assert.equal(output.additionalProperties, false);
  assert.equal(output.properties.todos.items.additionalProperties, false);
});

test("strings are measured in code points, as the pinned zod measures them", () => {
  const todo = (id) => ({ todos: [{ id, content: "c", status: "pending" }] });
  const forty = "😀".repeat(40); // 80 UTF-16 units, 40 code points
  assert.equal(planloop.validateWriteTodos(todo(forty)).success, true);
  assert.equal(writeTodosSchema.safeParse(todo(forty)).success, true);
  const issue = planloop.validateWriteTodos(todo(forty + "😀")).error.issues[0];
  assert.equal(issue.code, "too_big");
  assert.deepEqual(issue, writeTodosSchema.safeParse(todo(forty + "😀")).error.issues[0]);
});

test("a repeated mistake, whose strings cross from the module once, reads the same every time", () => {
  const status = JSON.stringify({ todos: [{ id: "a", content: "Read", status: "done" }] });
  const long = JSON.stringify({ todos: [{ id: "x".repeat(41), content: "Read", status: "pending" }], note: 7 });
  const first = [status, long].map((text) => planloop.validateWriteTodos(text));
  for (const [i, text] of [status, long].entries()) assert.ok(same(first[i], expectedForText(text)), text);
  const planner = new planloop.PlannerState();
  for (let round = 0; round < 3; round++) {
    for (const [i, text] of [status, long].entries()) {
      assert.deepEqual(planloop.validateWriteTodos(text), first[i]);
      const ack = planner.applyWriteTodos(text, round);
      assert.deepEqual(ack.issues, first[i].error.issues);
    }
  }
});
