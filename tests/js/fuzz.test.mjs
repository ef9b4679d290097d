// 100,000 payloads no run has seen before: the differential test's generator with a
// fresh seed each run (PLANLOOP_FUZZ_SEED=<n> repeats one). validateWriteTodos, on the
// raw text and on the parsed value, and applyWriteTodos must answer as zod does.
// (`make fuzz` runs the same comparison over millions.)
import assert from "node:assert/strict";
import { test } from "node:test";

import { fuzz } from "./support/fuzz.mjs";

const PAYLOADS = 100_000;
const seed = Number(process.env.PLANLOOP_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

test(`${PAYLOADS.toLocaleString("en")} fresh payloads answer as zod does (PLANLOOP_FUZZ_SEED=${seed})`, () => {
  const { accepted, count, disagreements } = fuzz(seed, PAYLOADS);
  assert.ok(accepted > PAYLOADS / 20, `only ${accepted} accepted`);
  assert.deepEqual(disagreements, [], `${count} disagreements (PLANLOOP_FUZZ_SEED=${seed})`);
});
