// The differential fuzz: payloads from the corpus generator with one seed, each given to
// validateWriteTodos (as text, and as the value it parses to) and applyWriteTodos (as
// both too), and compared with zod. `make test` runs 100,000 of them (tests/js/fuzz.test.mjs);
// `make fuzz` as many as it is asked for (scripts/fuzz.mjs).
import { Corpus } from "./corpus.mjs";
import { differential } from "./differential.mjs";
import { planloop } from "./pkg.mjs";
import { writeTodosSchema, zodAnswer } from "./seed-schema.mjs";
import { NOT_JSON, expectedForText, safeParse, same } from "./zod-compare.mjs";

/** Where planloop and zod disagree over `payloads` payloads of `seed` (see
 * differential.mjs for `options`), and how many zod accepted. */
export function fuzz(seed, payloads, options = {}) {
  const planner = new planloop.PlannerState({ maxPlannerOnlyStreak: 1000 });
  const byValue = new planloop.PlannerState({ maxPlannerOnlyStreak: 1000 });
  const corpus = new Corpus(seed);
  let accepted = 0;
  const found = differential(payloads, options, (disagree) => {
    const { text } = corpus.entry();
    const expected = expectedForText(text);
    const actual = planloop.validateWriteTodos(text);
    if (expected === null) {
      const ok = actual.success === false && actual.error.issues.length === 1 && actual.error.issues[0].code === "invalid_json";
      if (!ok) disagree({ text, actual, expected: "invalid_json" });
    } else if (!same(actual, expected)) {
      disagree({ text, actual, expected });
    }
    const value = safeParse(text);
    if (value !== NOT_JSON && typeof value !== "string") {
      const fromValue = planloop.validateWriteTodos(value);
      const zod = zodAnswer(writeTodosSchema, value);
      if (!same(fromValue, zod)) disagree({ value, actual: fromValue, expected: zod });
    }
    const ack = planner.applyWriteTodos(text, 1);
    if (ack.ok !== Boolean(expected?.success)) disagree({ text, ack, expected });
    if (value !== NOT_JSON && typeof value !== "string") {
      // The value's ack is the text's, and so is the list it leaves.
      const valueAck = byValue.applyWriteTodos(value, 1);
      if (!same(valueAck, ack)) disagree({ value, ack: valueAck, expected: ack });
      else if (!same(byValue.snapshot(), planner.snapshot())) disagree({ value, snapshot: byValue.snapshot(), expected: planner.snapshot() });
    }
    if (ack.ok) {
      accepted += 1;
      if (!same(planner.snapshot().todos, expected.data.todos)) disagree({ text, snapshot: planner.snapshot(), expected });
    }
  });
  return { accepted, ...found };
}
