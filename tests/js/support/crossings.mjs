// planloop's crossings against each other. Tool results reach the session module one of
// two ways (their outputs raw, or the general encoding of any JS value), and so does a
// composePrompt input (its texts raw, or the general encoding), each chosen by the
// input's shape. Whichever way an input
// crosses, the outcome must be the same: the session must decide the same, show the same
// trail and end in the same state, so what a user approves is what the host runs, and
// that state, snapshotted, must restore as it was; a prompt must compose the same or be
// refused with the same error. Each input is given twice: as generated (any way may take
// it) and with no prototypes (only the general way takes those). `make test` runs a few
// thousand (crossings.test.mjs), `make fuzz` many more.
import { isDeepStrictEqual } from "node:util";

import { Corpus } from "./corpus.mjs";
import { differential } from "./differential.mjs";
import { planloop } from "./pkg.mjs";

const CONFIG = { tools: { read: ["cat"], approve: ["rm"] }, maxToolOutputChars: 2_000 };
const NAMES = ["cat", "cat", "rm", "write_todos", "plan_progress", "unknown_tool"];
const KEYS = ["path", "q", "", "10", "constructor", "todos", "status", "a b", "é"];
const NUMBERS = [0, -0, 1, -1.5, 7, 1e21, 5e-324, 2 ** 53 + 2, 123456789.125, NaN, Infinity, -Infinity];
const ODD = [undefined, 10n, () => 1, new Date(0), "\ud800", "a\udc00b"];

/** A random JS value of the kinds tool call arguments come as, and odder ones. */
function value(c, depth) {
  switch (c.int(depth > 3 ? 6 : 10)) {
    case 0:
    case 1:
      return c.text(c.length(20));
    case 2:
      return c.pick(NUMBERS);
    case 3:
      return c.pick([true, false, null]);
    case 4:
      return c.chance(0.3) ? c.pick(ODD) : c.text(c.length(300));
    case 5:
      return c.chance(0.5) ? "" : c.text(2);
    case 6:
    case 7:
      return object(c, depth);
    case 8: {
      const items = Array.from({ length: c.int(5) }, () => value(c, depth + 1));
      if (items.length > 1 && c.chance(0.1)) delete items[0];
      return items;
    }
    default:
      return special(c, depth);
  }
}

function object(c, depth) {
  const out = {};
  for (let i = c.int(5); i > 0; i--) out[c.pick(KEYS)] = value(c, depth + 1);
  return out;
}

/** Objects whose kind or properties the encodings must carry exactly. */
function special(c, depth) {
  const inner = object(c, depth);
  switch (c.int(5)) {
    case 0:
      return Object.assign(Object.create(null), inner);
    case 1:
      return Object.assign(Object.create({ inherited: c.text(3) }), inner);
    case 2:
      return Object.assign(new (class Options {})(), inner);
    case 3:
      return JSON.parse(`{"__proto__":{"path":"/etc/passwd"},"path":${JSON.stringify(c.text(4))}}`);
    default: {
      // A getter that gives the same each time (a read that throws is a case of its own).
      const given = value(c, depth + 1);
      return Object.defineProperty(inner, "path", { get: () => given, enumerable: true });
    }
  }
}

/** A tool call's arguments: mostly an object, sometimes JSON text (or not quite). */
function args(c, asText) {
  if (asText || c.chance(0.2)) {
    const text = JSON.stringify(object(c, 1), (_, v) => (typeof v === "bigint" ? Number(v) : v)) ?? "{}";
    return c.chance(0.2) ? text.slice(0, c.int(text.length + 1)) : text;
  }
  return c.chance(0.85) ? object(c, 0) : value(c, 1);
}

/** One model response (text and calls) and the outputs of its calls; `round` keeps its
 * ids apart from other responses' (but for a repeat now and then). */
function response(c, round) {
  // Now and then every call's arguments are text, as chat completion APIs give them.
  const texts = c.chance(0.15);
  const calls = Array.from({ length: 1 + c.int(3) }, (_, i) => ({
    id: c.chance(0.05) ? "c0" : `r${round}c${i}`,
    name: c.pick(NAMES),
    args: args(c, texts),
  }));
  const text = c.chance(0.5) ? null : c.text(c.length(60));
  const outputs = calls.map(() => (c.chance(0.3) ? c.text(300 + c.int(400)) : c.text(c.length(40))));
  // What the user says to each proposal: approve (now and then with edited arguments, or
  // for the session) or reject.
  const verdicts = calls.map(() =>
    c.chance(0.6)
      ? { approve: true, options: c.pick([undefined, {}, { editedArgs: args(c, false) }, { scope: "always" }]) }
      : { approve: false, options: c.pick([undefined, { message: c.text(c.length(30)) }]) },
  );
  return { text, calls, outputs, verdicts };
}

/** One case: a turn of one to three responses. */
function generate(c) {
  return Array.from({ length: 1 + c.int(3) }, (_, round) => response(c, round));
}

const bare = (object) => Object.assign(Object.create(null), object);

/** What a session makes of a case, one way or the other: each step's outcome (or its
 * error's code, message and data), the trail, the events and the snapshot. The turn
 * goes on while the session hands out calls to run; proposals are approved or rejected
 * as the case says. */
function run(responses, general) {
  const session = new planloop.Session(CONFIG);
  const seen = [];
  const step = (work) => {
    try {
      const outcome = work();
      seen.push(outcome);
      return outcome;
    } catch (error) {
      seen.push({ error: [error.code, error.message, error.data] });
      return undefined;
    }
  };
  try {
    session.beginTurn({ message: "Go", nowMs: 0 });
    let now = 1;
    // The results of calls handed out to run.
    const answer = (calls, outputs) => {
      if (calls.length === 0) return;
      const results = calls.map((call, i) => ({ id: call.id, output: outputs[i] ?? "" }));
      step(() => session.handleToolResults(general ? results.map(bare) : results, now++));
    };
    for (const { text, calls, outputs, verdicts } of responses) {
      const toolCalls = calls.map((call) => (general ? bare(call) : { ...call }));
      let decision = step(() => session.handleModelResponse(general ? bare({ text, toolCalls }) : { text, toolCalls }, now++));
      if (decision?.type === "awaitApproval") {
        // The calls that need no approval run while the proposals wait.
        answer(decision.calls, outputs);
        let resumed = null;
        decision.proposals.forEach(({ actionId }, i) => {
          const { approve, options } = verdicts[i] ?? { approve: false };
          const outcome = step(() => (approve ? session.approve(actionId, options, now++) : session.reject(actionId, options, now++)));
          resumed = outcome?.resumed ?? resumed;
        });
        decision = resumed;
      }
      if (decision?.type !== "runTools") break;
      answer(decision.calls, outputs);
    }
    const snapshot = session.snapshot();
    return { seen, steps: session.steps(), events: session.drainEvents(), snapshot: JSON.stringify(snapshot), restored: restored(snapshot) };
  } finally {
    session.free();
  }
}

/** Whether `snapshot`, restored from the object and from its text, is written again as
 * it was (a snapshot is the state a restart or another process goes on from). */
function restored(snapshot) {
  const text = JSON.stringify(snapshot);
  return [snapshot, text].every((given) => {
    const session = planloop.Session.restore(given);
    try {
      return JSON.stringify(session.snapshot()) === text;
    } finally {
      session.free();
    }
  });
}

/** Where the two ways disagree over `cases` turns of `seed` (see differential.mjs for
 * `options`), and how many cases were shaped for each way. */
export function crossings(seed, cases, options = {}) {
  const corpus = new Corpus(seed);
  // How many cases ran tools with raw outputs, and how many had a proposal approved.
  const shapes = { rawOutputs: 0, approved: 0 };
  const found = differential(cases, options, (disagree) => {
    const given = generate(corpus);
    const plain = run(given, false);
    const general = run(given, true);
    const results = plain.seen.find((outcome) => outcome?.type === "runTools")?.calls.length ?? 0;
    if (given[0].outputs.slice(0, results).reduce((units, output) => units + output.length, 0) >= 256) shapes.rawOutputs += 1;
    if (plain.seen.some((outcome) => outcome?.proposal?.status === "approved")) shapes.approved += 1;
    if (!isDeepStrictEqual(plain, general) || !plain.restored) disagree({ given, plain, general });
  });
  return { ...found, shapes };
}

// composePrompt's input crosses raw (its texts apart, after a small head) when its shape
// is plain, and through the general encoding otherwise; a prompt without a prototype
// takes only the second.

const PLACEHOLDER_KEYS = ["agent", "team", "x", "bad key", "é", ""];
const COMPONENT_NAMES = ["notes", "topic_1", "topic_2", "topic_3", "output_format"];
const BAD_NAMES = ["core", "plan", "Bad", "a".repeat(65), ""];

/** A template: text with placeholders, known and unknown, whole and broken. */
function template(c) {
  let out = "";
  for (let i = c.int(5); i > 0; i--) {
    out += c.text(c.length(40));
    out += c.pick([`{{{${c.pick(PLACEHOLDER_KEYS)}}}}`, "{{{", "}}}", "{{{{agent}}}}", "\n\n", ""]);
  }
  return c.chance(0.05) ? out + "\ud800" : out;
}

/** A random composePrompt input, mostly of the schema's shape. */
function composeInput(c) {
  const input = { base: template(c) };
  if (c.chance(0.8)) {
    const names = c.chance(0.9) ? COMPONENT_NAMES.slice(c.int(3)) : [...COMPONENT_NAMES, ...BAD_NAMES, "notes"];
    input.components = Array.from({ length: c.int(5) }, (_, i) => ({ name: names[i % names.length], text: template(c) }));
  }
  if (c.chance(0.6)) {
    input.values = {};
    for (let i = c.int(4); i > 0; i--) input.values[c.pick(PLACEHOLDER_KEYS)] = c.chance(0.97) ? c.text(c.length(20)) : value(c, 2);
  }
  if (c.chance(0.5)) {
    input.features = {};
    for (let i = c.int(3); i > 0; i--) input.features[c.pick(["notes", "topic_1", "output_format", "budget", "planner_tools", "core"])] = c.chance(0.97) ? c.chance(0.7) : 1;
  }
  if (c.chance(0.2)) input.language = c.pick(["en", "zh", "zh", "fr"]);
  if (c.chance(0.2)) input.budget = { remaining: c.pick([0, 3, 4, 7, -1]), total: c.pick([5, 5, 0]) };
  if (c.chance(0.1)) input.plan = { goal: c.text(10), step: c.chance(0.5) ? c.text(8) : undefined, stepNumber: c.pick([undefined, 1, 3]), totalSteps: c.pick([undefined, 2, 3]) };
  if (c.chance(0.05)) input[c.pick(["extra", "Base"])] = c.text(3);
  return input;
}

/** Whether `input` is shaped for the raw way (src/wasm/js/crossing.ts): the schema's keys,
 * the base and each component's name and text well-formed strings. */
function rawShaped(input) {
  const keys = ["base", "components", "features", "values", "language", "plan", "budget"];
  const text = (t) => typeof t === "string" && t.isWellFormed();
  const component = (c) => Object.keys(c).length === 2 && text(c.name) && c.name !== "" && text(c.text);
  return Object.keys(input).every((key) => keys.includes(key)) && text(input.base) && (input.components ?? []).every(component);
}

/** What composePrompt gives for `input`, or its error's code, message and data. */
function composed(input) {
  try {
    return planloop.composePrompt(input);
  } catch (error) {
    return { error: [error.code, error.message, error.data] };
  }
}

/** Where composePrompt's two ways disagree over `cases` random inputs of `seed` (see
 * differential.mjs for `options`), how many were composed and refused, and how many
 * were shaped for the raw way. */
export function composeCrossings(seed, cases, options = {}) {
  const corpus = new Corpus(seed);
  const outcomes = { composed: 0, refused: 0, raw: 0 };
  const found = differential(cases, options, (disagree) => {
    const input = composeInput(corpus);
    const plain = composed(input);
    const general = composed(bare(input));
    outcomes[plain.error ? "refused" : "composed"] += 1;
    if (rawShaped(input)) outcomes.raw += 1;
    if (!isDeepStrictEqual(plain, general)) disagree({ input, plain, general });
  });
  return { ...found, outcomes };
}
