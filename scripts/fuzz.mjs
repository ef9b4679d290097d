// make fuzz: the differential fuzz of `make test` (tests/js/fuzz.test.mjs) at length:
// PAYLOADS payloads (default 5,000,000) from one fresh seed (PLANLOOP_FUZZ_SEED=<n>
// repeats one), each validated as text and as its value and applied, and compared with
// zod. Prints a progress line as it goes and, at the end, the first disagreements in
// full; exits 1 if there was any.
import { inspect } from "node:util";

import { fuzz } from "../tests/js/support/fuzz.mjs";

const payloads = Number(process.env.PAYLOADS ?? 5_000_000);
if (!Number.isSafeInteger(payloads) || payloads < 1) {
  console.error(`make fuzz: PAYLOADS must be a whole number of at least 1, not ${JSON.stringify(process.env.PAYLOADS)}`);
  process.exit(2);
}
const seed = Number(process.env.PLANLOOP_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(0);
const n = (x) => x.toLocaleString("en");

console.error(`fuzz: ${n(payloads)} payloads, PLANLOOP_FUZZ_SEED=${seed}`);
const { accepted, count, disagreements } = fuzz(seed, payloads, {
  keep: 5,
  every: 100_000,
  progress: (done) => console.error(`fuzz: ${n(done)} of ${n(payloads)} (${seconds()} s)`),
});
console.log(`fuzz: ${n(payloads)} payloads in ${seconds()} s, ${n(accepted)} accepted by zod; ${n(count)} disagreement${count === 1 ? "" : "s"} (PLANLOOP_FUZZ_SEED=${seed})`);
for (const disagreement of disagreements) console.log(inspect(disagreement, { depth: 8, breakLength: 120 }));
process.exit(count === 0 ? 0 : 1);
