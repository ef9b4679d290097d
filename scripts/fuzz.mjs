// make fuzz (after its Rust part): the JS layer's randomized tests of `make test` at
// length, from one fresh seed (PLANLOOP_FUZZ_SEED=<n> repeats one):
// - the zod differential (tests/js/fuzz.test.mjs): PAYLOADS write_todos payloads
//   (default 5,000,000), each validated as text and as its value and applied;
// - the crossings (tests/js/crossings.test.mjs): CROSSINGS random turns (one to three
//   responses and their tool results; default 300,000), each run the ways its inputs may
//   cross and the general way, and COMPOSES composePrompt inputs (default 1,000,000),
//   composed both ways;
// - the careless drives (tests/js/drives.test.mjs): DRIVES sessions (default 50,000) driven
//   with refused calls and far times, each refusal checked to change nothing and each
//   snapshot to restore and decide the same.
// Prints a progress line as it goes and, at the end, the first disagreements in full;
// exits 1 if there was any.
import { inspect } from "node:util";

import { composeCrossings, crossings } from "../tests/js/support/crossings.mjs";
import { drives } from "../tests/js/support/drives.mjs";
import { fuzz } from "../tests/js/support/fuzz.mjs";

/** A count from the environment, or `fallback`. */
function count(name, fallback) {
  const given = process.env[name];
  const n = Number(given ?? fallback);
  if (!Number.isSafeInteger(n) || n < 0) {
    console.error(`make fuzz: ${name} must be a whole number, not ${JSON.stringify(given)}`);
    process.exit(2);
  }
  return n;
}

const payloads = count("PAYLOADS", 5_000_000);
const cases = count("CROSSINGS", 300_000);
const composes = count("COMPOSES", 1_000_000);
const driven = count("DRIVES", 50_000);
const seed = Number(process.env.PLANLOOP_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const n = (x) => x.toLocaleString("en");
const plural = (x, what) => `${n(x)} ${what}${x === 1 ? "" : "s"}`;

/** Runs one fuzzer with progress lines; reports and returns its disagreements. */
function phase(name, total, fuzzer, describe) {
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(0);
  console.error(`fuzz: ${name}, ${n(total)} with PLANLOOP_FUZZ_SEED=${seed}`);
  // About fifty progress lines, at round counts; none for a short run.
  const every = total <= 100_000 ? 0 : Math.max(10_000, Math.round(total / 500_000) * 10_000);
  const result = fuzzer(seed, total, {
    keep: 5,
    every,
    progress: (done) => console.error(`fuzz: ${name}, ${n(done)} of ${n(total)} (${seconds()} s)`),
  });
  console.log(`fuzz: ${name}, ${n(total)} in ${seconds()} s, ${describe(result)}; ${plural(result.count, "disagreement")} (PLANLOOP_FUZZ_SEED=${seed})`);
  for (const disagreement of result.disagreements) console.log(inspect(disagreement, { depth: 8, breakLength: 120 }));
  return result.count;
}

const found =
  phase("zod differential (payloads)", payloads, fuzz, (r) => `${n(r.accepted)} accepted by zod`) +
  phase("crossings (turns)", cases, crossings, (r) => `shaped ${JSON.stringify(r.shapes)}`) +
  phase("crossings (composePrompt inputs)", composes, composeCrossings, (r) => JSON.stringify(r.outcomes)) +
  phase("careless drives", driven, drives, (r) => JSON.stringify(r.reached));
process.exit(found === 0 ? 0 : 1);
