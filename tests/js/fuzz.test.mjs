// 100,000 payloads no run has seen before: the differential test's generator with a
// fresh seed each run (PLANLOOP_FUZZ_SEED=<n> repeats one). validateWriteTodos, on the
// raw text and on the parsed value, and applyWriteTodos must answer as zod does.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Corpus } from "./support/corpus.mjs";
import { planloop } from "./support/pkg.mjs";
import { writeTodosSchema, zodAnswer } from "./support/seed-schema.mjs";
import { NOT_JSON, expectedForText, safeParse, same } from "./support/zod-compare.mjs";

const PAYLOADS = 100_000;
const seed = Number(process.env.PLANLOOP_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

test(`${PAYLOADS.toLocaleString("en")} fresh payloads answer as zod does (PLANLOOP_FUZZ_SEED=${seed})`, () => {
  const planner = new planloop.PlannerState({ maxPlannerOnlyStreak: 1000 });
  const disagreements = [];
  let accepted = 0;
  for (const { text } of new Corpus(seed).entries(PAYLOADS)) {
    const expected = expectedForText(text);
    const actual = planloop.validateWriteTodos(text);
    if (expected === null) {
      const ok = actual.success === false && actual.error.issues.length === 1 && actual.error.issues[0].code === "invalid_json";
      if (!ok) disagreements.push({ text, actual, expected: "invalid_json" });
    } else if (!same(actual, expected)) {
      disagreements.push({ text, actual, expected });
    }
    const value = safeParse(text);
    if (value !== NOT_JSON && typeof value !== "string") {
      const fromValue = planloop.validateWriteTodos(value);
      const zod = zodAnswer(writeTodosSchema, value);
      if (!same(fromValue, zod)) disagreements.push({ value, actual: fromValue, expected: zod });
    }
    const ack = planner.applyWriteTodos(text, 1);
    if (ack.ok !== Boolean(expected?.success)) disagreements.push({ text, ack, expected });
    if (ack.ok) {
      accepted += 1;
      if (!same(planner.snapshot().todos, expected.data.todos)) disagreements.push({ text, snapshot: planner.snapshot(), expected });
    }
  }
  assert.ok(accepted > PAYLOADS / 20, `only ${accepted} accepted`);
  assert.deepEqual(disagreements.slice(0, 3), [], `${disagreements.length} disagreements (PLANLOOP_FUZZ_SEED=${seed})`);
});
