// Random inputs given to planloop twice: as generated (tool outputs and prompt texts raw
// or the general encoding, as their shape decides) and with no prototypes (the general
// encoding only). Both must come out the same. A fresh seed each run
// (PLANLOOP_FUZZ_SEED=<n> repeats one); `make fuzz` runs many more.
import assert from "node:assert/strict";
import { test } from "node:test";

import { composeCrossings, crossings } from "./support/crossings.mjs";

const CASES = 3_000;
const seed = Number(process.env.PLANLOOP_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

test(`${CASES.toLocaleString("en")} random turns decide the same whichever way they cross (PLANLOOP_FUZZ_SEED=${seed})`, () => {
  // The same decisions, trail, events and snapshot, which restores as it was.
  const { count, disagreements, shapes } = crossings(seed, CASES);
  // Each way is exercised: the generator shapes cases for all of them.
  for (const [way, cases] of Object.entries(shapes)) assert.ok(cases > CASES / 20, `only ${cases} cases shaped for ${way}: ${JSON.stringify(shapes)}`);
  assert.deepEqual(disagreements, [], `${count} disagreements (PLANLOOP_FUZZ_SEED=${seed})`);
});

test(`${CASES.toLocaleString("en")} random composePrompt inputs compose or are refused the same either way (PLANLOOP_FUZZ_SEED=${seed})`, () => {
  const { count, disagreements, outcomes } = composeCrossings(seed, CASES);
  for (const [outcome, cases] of Object.entries(outcomes)) assert.ok(cases > CASES / 5, `only ${cases} inputs ${outcome}: ${JSON.stringify(outcomes)}`);
  assert.deepEqual(disagreements, [], `${count} disagreements (PLANLOOP_FUZZ_SEED=${seed})`);
});
