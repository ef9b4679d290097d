// Random drives of a Session by a careless or hostile host (support/drives.mjs): a call
// that throws leaves the snapshot as it was, and every snapshot restores to a session that
// decides exactly as the original. A fresh seed each run (PLANLOOP_FUZZ_SEED=<n> repeats
// one); `make fuzz` runs many more.
import assert from "node:assert/strict";
import { test } from "node:test";

import { drives } from "./support/drives.mjs";

const DRIVES = 400;
const seed = Number(process.env.PLANLOOP_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

test(`${DRIVES} careless drives: refusals change nothing, snapshots restore and decide the same (PLANLOOP_FUZZ_SEED=${seed})`, () => {
  const { count, disagreements, reached } = drives(seed, DRIVES);
  assert.ok(reached.restores > DRIVES && reached.refusals > DRIVES && reached.childSteps > 0 && reached.budgetExhausted > 0 && reached.verdicts > 0, `reached too little: ${JSON.stringify(reached)}`);
  assert.deepEqual(disagreements, [], `${count} disagreements (PLANLOOP_FUZZ_SEED=${seed})`);
});
