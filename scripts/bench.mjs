// make bench: every figure the engine is held to, measured side by side in one Node
// process against what a host would write instead (JSON.parse + zod safeParse, a JS
// state update, an array join and a regex replace), in interleaved rounds, reporting
// medians. Absolute times vary with the machine; the ratios are the result
// (planloop's time over the other's: below 1 means planloop is faster). It prints;
// nothing here is a test.
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { build as esbuild } from "esbuild";
import { gzipSync } from "node:zlib";
import { performance } from "node:perf_hooks";

import { planloop } from "../tests/js/support/pkg.mjs";
import { miniWriteTodosSchema } from "../tests/js/support/mini-schema.mjs";
import { writeTodosSchema } from "../tests/js/support/seed-schema.mjs";

const ROUNDS = 25;
const BATCH = 2000;
/** Rounds run before the timed ones: V8 compiles JS and wasm in tiers, so the first
 * calls of a function run its baseline code. A row of 2,000-call batches is mostly past
 * that anyway; a row of 200 decisions was not (its first five rounds ran at five to
 * seven times the rest), so its median mixed start-up into the cost of a decision.
 * Start-up is printed apart, as the first round's figure. */
const WARMUP_ROUNDS = 5;
const pkg = (file) => new URL(`../pkg/${file}`, import.meta.url);
const zodVersion = JSON.parse(readFileSync(new URL("../node_modules/zod/package.json", import.meta.url))).version;

// Absolute times (the decision row) depend on the machine: say which one ran them.
console.log(`machine: ${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores; Node ${process.versions.node} (V8 ${process.versions.v8})`);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median ns per call of each contender, over interleaved rounds after the warm-up
 * ones; `first` holds each one's ns per call in its first round (the process's first
 * calls, when the contender has not run before). */
function measure(contenders, batch = BATCH) {
  const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (const [name, run] of Object.entries(contenders)) {
      const start = performance.now();
      for (let i = 0; i < batch; i++) run(i);
      samples[name].push(((performance.now() - start) * 1e6) / batch);
    }
  }
  const medians = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v.slice(WARMUP_ROUNDS))]));
  return { ...medians, first: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v[0]])) };
}

const progress = (what) => process.stderr.write(`bench: ${what}…\n`);
/** The figures of the goal table, in order: [figure, measured, must reach, aim, unit]. */
const goals = [];
const ns = (x) => `${x.toFixed(0).padStart(6)} ns`;
const us = (x) => `${(x / 1000).toFixed(1).padStart(7)} µs`;
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;

// --- write_todos: validate and apply, valid and invalid -------------------------------

const todo = (i, content) => ({ id: `step_${i}`, content, status: i === 0 ? "in_progress" : "pending" });
const valid = {
  "valid, 1 todo": { todos: [todo(0, "Read the note")] },
  "valid, 4 todos": {
    todos: [
      todo(0, "Read the quarterly report note and list the revenue lines"),
      todo(1, "Search the vault for the previous quarter's figures"),
      todo(2, "Compute the change per line and the total"),
      todo(3, "Write the summary note with a table and a short conclusion"),
    ],
    focus: "reading the report",
  },
  "valid, 8 todos × 140 chars": { todos: Array.from({ length: 8 }, (_, i) => todo(i, "x".repeat(140))), note: "n".repeat(200) },
};
const invalid = {
  "invalid status": { todos: [{ id: "a", content: "Read", status: "done" }] },
  "invalid, 9 todos": { todos: Array.from({ length: 9 }, (_, i) => todo(i, "Read")) },
  "invalid, 3 issues": { todos: [{ id: "", content: 5 }], focus: "f".repeat(41) },
};

/** Payloads that are not plain, as a model writes now and then: printed, with no goal.
 * Each took planloop's full path (a tree, then the schema's validator) before its
 * one-pass reader read it. The zod path catches JSON.parse's error. */
const fourTodos = JSON.stringify(valid["valid, 4 todos"]);
const notPlain = {
  "cut short": fourTodos.slice(0, 300),
  "repeated key": `${fourTodos.slice(0, -1)},"focus":"writing the note"}`,
  "escaped key": fourTodos.replace('"focus"', '"f\\u006fcus"'),
  "object where a string goes": JSON.stringify({ todos: [{ id: "a", content: { text: "Read the note" }, status: "pending" }] }),
};

/** `zodWay(text)`, or the issue a host would make of JSON.parse's error. */
function catching(zodWay) {
  return (text, ...rest) => {
    try {
      return zodWay(text, ...rest);
    } catch (error) {
      return { success: false, error: { issues: [{ code: "invalid_json", message: error.message }] } };
    }
  };
}

/** What a host would do without planloop, to the same effect as applyWriteTodos. */
function zodApply(state, text, now) {
  return zodApplyValue(state, JSON.parse(text), now);
}

/** The same, with the arguments already an object. */
function zodApplyValue(state, value, now) {
  const parsed = writeTodosSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: "invalid_arguments", issues: parsed.error.issues };
  state.revision += 1;
  state.todos = parsed.data.todos;
  state.updatedAt = now;
  const current = parsed.data.todos.find((t) => t.status === "in_progress");
  return { ok: true, revision: state.revision, todoCount: parsed.data.todos.length, inProgress: current ? current.id : null };
}

const zodAnswer = catching((text) => {
  const r = writeTodosSchema.safeParse(JSON.parse(text));
  return r.success ? { success: true, data: r.data } : { success: false, error: { issues: r.error.issues } };
});

/** Whether planloop's answer is zod's (for text that is not JSON: an invalid_json issue). */
function agrees(text) {
  const ours = planloop.validateWriteTodos(text);
  const theirs = zodAnswer(text);
  if (theirs.error?.issues[0].code === "invalid_json") return !ours.success && ours.error.issues[0].code === "invalid_json";
  return JSON.stringify(ours) === JSON.stringify(theirs);
}

const zodSafe = catching((text) => writeTodosSchema.safeParse(JSON.parse(text)));
const zodApplySafe = catching(zodApply);
const rows = [];
const texts = [...Object.entries({ ...valid, ...invalid }).map(([label, payload]) => [label, JSON.stringify(payload)]), ...Object.entries(notPlain)];
for (const [label, text] of texts) {
  progress(label);
  if (!agrees(text)) throw new Error(`planloop and zod disagree on ${label}`);
  const plain = !(label in notPlain);
  const planner = new planloop.PlannerState();
  const state = { revision: 0, todos: [], updatedAt: null };
  const t = measure({
    validate: () => planloop.validateWriteTodos(text),
    zod: plain ? () => writeTodosSchema.safeParse(JSON.parse(text)) : () => zodSafe(text),
    apply: (i) => planner.applyWriteTodos(text, i),
    zodApply: plain ? (i) => zodApply(state, text, i) : (i) => zodApplySafe(state, text, i),
  });
  rows.push({ label, bytes: Buffer.byteLength(text), valid: label in valid, plain, ...t });
}

console.log(`\nwrite_todos: planloop against JSON.parse + zod ${zodVersion} safeParse (median of ${ROUNDS} interleaved rounds × ${BATCH} calls after ${WARMUP_ROUNDS} warm-up rounds; ratio = planloop / zod)\n`);
console.log("payload                      bytes | validateWriteTodos   parse+safeParse  ratio | applyWriteTodos   parse+safeParse+state  ratio");
for (const r of rows) {
  if (r.label === Object.keys(notPlain)[0]) console.log("not plain (no goal; each went the full way before):");
  console.log(
    `${r.label.padEnd(28)} ${String(r.bytes).padStart(5)} | ${ns(r.validate)}        ${ns(r.zod)}  ${(r.validate / r.zod).toFixed(2).padStart(5)} | ${ns(r.apply)}     ${ns(r.zodApply)}         ${(r.apply / r.zodApply).toFixed(2).padStart(5)}`,
  );
}
const span = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
const validRows = rows.filter((r) => r.valid);
const invalidRows = rows.filter((r) => !r.valid && r.plain);
goals.push(["validateWriteTodos(text), valid 1/4/8 todos, vs parse + safeParse", validRows.map((r) => r.validate / r.zod), 0.5, 0.3]);
goals.push(["applyWriteTodos(text), valid 1/4/8 todos, vs parse + safeParse + state", validRows.map((r) => r.apply / r.zodApply), 0.35, 0.25]);
goals.push(["invalid payloads (validate and apply) vs the same zod path", invalidRows.flatMap((r) => [r.validate / r.zod, r.apply / r.zodApply]), 0.35, 0.2]);

// The same payloads as the objects a framework hands a tool (LangChain.js, the AI SDK and
// the OpenAI Agents SDK parse the model's arguments first): printed, with no goal. zod
// then has no text to parse; planloop's JS layer reads the keys zod reads, and they cross
// in its encoding of JS values.
const objectRows = Object.entries({ ...valid, ...invalid }).map(([label, payload]) => {
  progress(`${label}, as an object`);
  if (JSON.stringify(planloop.validateWriteTodos(payload)) !== JSON.stringify(zodAnswer(JSON.stringify(payload)))) throw new Error(`planloop and zod disagree on ${label} as an object`);
  const planner = new planloop.PlannerState();
  const state = { revision: 0, todos: [], updatedAt: null };
  return {
    label,
    ...measure({
      validate: () => planloop.validateWriteTodos(payload),
      zod: () => writeTodosSchema.safeParse(payload),
      apply: (i) => planner.applyWriteTodos(payload, i),
      zodApply: (i) => zodApplyValue(state, payload, i),
    }),
  };
});
console.log(`\nthe same payloads as objects, against zod safeParse(object) (no goal)\n`);
console.log("payload                            | validateWriteTodos   safeParse  ratio | applyWriteTodos   safeParse+state  ratio");
for (const r of objectRows) {
  console.log(
    `${r.label.padEnd(34)} | ${ns(r.validate)}        ${ns(r.zod)}  ${(r.validate / r.zod).toFixed(2).padStart(5)} | ${ns(r.apply)}     ${ns(r.zodApply)}   ${(r.apply / r.zodApply).toFixed(2).padStart(5)}`,
  );
}

// --- composePrompt --------------------------------------------------------------------

// Against the plain JS a host would write: the texts joined, then one regex replace for
// {{{key}}}. planloop's own parts are off and core is given as a text, so both build the
// same prompt (checked first).
progress("composePrompt");
const COMPOSE_BATCH = 200;
const composeInput = {
  base: "You are {{{agent}}}, a research assistant for the {{{team}}} team.",
  components: [
    { name: "core", text: "## Core\n\nStay on {{{user}}}'s goal and finish the plan." },
    ...Array.from({ length: 49 }, (_, i) => ({
      name: `topic_${i}`,
      text: `## Topic ${i}\n\nWhen {{{user}}} asks about topic ${i}, answer for the {{{team}}} team in {{{language}}}. ${"Keep it short and cite the notes you used. ".repeat(6)}`,
    })),
  ],
  features: { planner_tools: false, tool_guidelines: false },
  values: { agent: "Ada", team: "Finance", user: "Grace", language: "English" },
};
function composeInJs({ base, components, values }) {
  return [base, ...components.map((c) => c.text)]
    .join("\n\n")
    .replace(/\{\{\{([^\s{}]+)\}\}\}/g, (placeholder, key) => (Object.hasOwn(values, key) ? values[key] : placeholder));
}
const composedPrompt = planloop.composePrompt(composeInput).prompt;
if (composedPrompt !== composeInJs(composeInput)) throw new Error("composePrompt and the plain JS disagree");
const compose = measure({ planloop: () => planloop.composePrompt(composeInput), js: () => composeInJs(composeInput) }, COMPOSE_BATCH);
const placeholders = [composeInput.base, ...composeInput.components.map((c) => c.text)].join("").match(/\{\{\{/g).length;
const shape = `${composeInput.components.length} components, ${Object.keys(composeInput.values).length} values, ${placeholders} placeholders`;
console.log(`\ncomposePrompt against join + replace (median of ${ROUNDS} interleaved rounds × ${COMPOSE_BATCH} calls after ${WARMUP_ROUNDS} warm-up rounds; ratio = planloop / JS)\n`);
console.log("prompt                                          chars | composePrompt  join + replace  ratio");
console.log(`${shape.padEnd(44)} ${composedPrompt.length.toLocaleString("en").padStart(8)} | ${us(compose.planloop)}     ${us(compose.js)}  ${(compose.planloop / compose.js).toFixed(2).padStart(5)}`);
goals.push([`composePrompt (${shape}) vs join + replace`, [compose.planloop / compose.js], 1.0, 0.8]);

// --- Session: one decision, and whether its cost stays flat ---------------------------

const ARGS = { path: "notes/finance/2024/q3-report.md", query: "revenue by product line, quarter over quarter", options: { maxLines: 400, includeFrontmatter: false, encoding: "utf8", tags: ["finance", "q3"] } };
const ARGS_BYTES = Buffer.byteLength(JSON.stringify(ARGS));
const OUTPUT = "Q3 revenue: 4.2M (+8%). Product A 1.9M, product B 1.4M, services 0.9M.";

/** A session that runs `read_file` calls without approval, for `iterations` responses. */
function longSession(iterations) {
  const session = new planloop.Session({ maxIterations: iterations, timeoutMs: 86_400_000, tools: { read: ["read_file"] } });
  session.beginTurn({ message: "Summarise the Q3 revenue notes.", nowMs: 0 });
  return session;
}
/** One decision: a response with one tool call, then its result. The arguments as an
 * object (LangChain.js, the AI SDK) or as the JSON text a chat completions API gives. */
function decide(session, i, text = false, usage = false) {
  const args = { ...ARGS, path: `notes/${i}.md` };
  const response = { text: null, toolCalls: [{ id: `call_${i}`, name: "read_file", args: text ? JSON.stringify(args) : args }] };
  if (usage) response.usage = { inputTokens: 1200 + i, outputTokens: 40 };
  const decision = session.handleModelResponse(response, i);
  if (decision.type !== "runTools") throw new Error(`decision ${i}: ${decision.type}`);
  session.handleToolResults([{ id: `call_${i}`, output: OUTPUT }], i);
}

progress("Session.handleModelResponse + handleToolResults");
const SESSION_BATCH = 200;
let measured = longSession(100_000);
const measuredText = longSession(100_000);
const measuredUsage = longSession(100_000);
let next = 1;
let nextText = 1;
let nextUsage = 1;
const decisions = measure(
  {
    decide: () => decide(measured, next++),
    decideText: () => decide(measuredText, nextText++, true),
    decideUsage: () => decide(measuredUsage, nextUsage++, false, true),
  },
  SESSION_BATCH,
);
const sessionTime = decisions.decide;
console.log(`\nSession: handleModelResponse + handleToolResults for a response with one tool call (${ARGS_BYTES}-byte args; median of ${ROUNDS} rounds × ${SESSION_BATCH} after ${WARMUP_ROUNDS} warm-up rounds)\n`);
console.log(`  ${us(sessionTime)} per decision, the arguments an object`);
console.log(`  ${us(decisions.decideText)} per decision, the arguments JSON text (JSON.stringify included)`);
console.log(`  ${us(decisions.decideUsage)} per decision, the response with usage (${(decisions.decideUsage / sessionTime).toFixed(2)}× without)`);
console.log(`  ${us(decisions.first.decide)} per decision in the process's first ${SESSION_BATCH} (start-up: the JS and wasm still in their first tier)`);
goals.push([`Session.handleModelResponse + handleToolResults, one call, ${ARGS_BYTES}-byte args (µs)`, [sessionTime / 1000], 10, 5]);

// A turn that ends in a final answer of markdown (printed, no goal): the answer's
// reading (the [Reflect] sentence, steps from text, markers) is most of it.
const ANSWER = "## Q3 revenue\n\nRevenue was **4.2M** (+8% \"quarter over quarter\"). Product A: 1.9M; product B: 1.4M; services: 0.9M.\n- Margin held at 41%.\n".repeat(8);
const answering = new planloop.Session({ maxIterations: 100, timeoutMs: 86_400_000, tools: { read: ["read_file"] } });
let answeredAt = 0;
const finals = measure(
  {
    answer: (i) => {
      answering.beginTurn({ message: "Summarise the Q3 revenue notes.", nowMs: ++answeredAt });
      const decision = answering.handleModelResponse({ text: ANSWER + i, toolCalls: [] }, ++answeredAt);
      if (decision.type !== "finalize") throw new Error(`final answer: ${decision.type}`);
    },
  },
  SESSION_BATCH,
);
console.log(`  ${us(finals.answer)} per turn of beginTurn and a ${ANSWER.length.toLocaleString("en")}-unit final answer`);

// Untrusted input at its worst (printed, no goal): a 1 MB reply of `<think ` over and over
// (each a tag that never closes), and 30,000 results for calls never made. Both took
// seconds when each tag's search for its `>` read to the end of the text again and each
// result id was compared with every one before it.
const THINKING = "<think ".repeat(142_857);
const UNKNOWN = Array.from({ length: 30_000 }, (_, i) => ({ id: `never_${i}`, output: "x" }));
const waiting = longSession(100);
waiting.handleModelResponse({ text: null, toolCalls: [{ id: "call_0", name: "read_file", args: ARGS }] }, 0);
const worst = measure(
  {
    thinking: (i) => {
      answering.beginTurn({ message: "Summarise the Q3 revenue notes.", nowMs: ++answeredAt });
      answering.handleModelResponse({ text: THINKING + i, toolCalls: [] }, ++answeredAt);
    },
    unknown: () => {
      try {
        waiting.handleToolResults(UNKNOWN, 1);
      } catch (error) {
        if (error.code !== "invalid_argument") throw error;
        return;
      }
      throw new Error("30,000 unknown results were taken");
    },
  },
  1,
);
console.log(`  ${us(worst.thinking)} per handleModelResponse of ${THINKING.length.toLocaleString("en")} units of \`<think \` (tags that never close)`);
console.log(`  ${us(worst.unknown)} per handleToolResults refusing ${UNKNOWN.length.toLocaleString("en")} results for calls never made`);

// What an integration saves after every step (printed, no goal): the snapshot of the
// session the decisions above ran in, next to JSON.parse of the same document.
const snapshotText = JSON.stringify(measured.snapshot());
const snapshots = measure({ snapshot: () => measured.snapshot(), parse: () => JSON.parse(snapshotText) }, 50);
console.log(`  ${us(snapshots.snapshot)} per snapshot() of that session (${snapshotText.length.toLocaleString("en")} bytes of JSON; JSON.parse of it takes ${us(snapshots.parse).trim()})`);

progress("100,000 decisions in one session");
const FLAT = 100_000;
const WINDOW = 200;
const timed = (session, i) => {
  const start = performance.now();
  decide(session, i);
  return performance.now() - start;
};
measured = longSession(FLAT);
const early = [];
const late = [];
// (Response FLAT reaches maxIterations and pauses the turn: the last window ends before it.)
for (let i = 1; i < FLAT; i++) {
  if (i >= 10 && i < 10 + WINDOW) early.push(timed(measured, i));
  else if (i >= FLAT - WINDOW) late.push(timed(measured, i));
  else decide(measured, i);
}
const flat = median(late) / median(early);
console.log(`\nper-decision cost in one session: iterations 10–${10 + WINDOW - 1} ${us(median(early) * 1e6)}, iterations ${(FLAT - WINDOW).toLocaleString("en")}–${(FLAT - 1).toLocaleString("en")} ${us(median(late) * 1e6)} (medians of each decision timed alone)`);
goals.push(["per-decision cost, iteration 100,000 vs iteration 10 of one session", [flat], 1.2, null]);

// --- Size and start-up ----------------------------------------------------------------

progress("sizes and start-up");
const modules = [
  ["primitives (planloop_bg.wasm)", readFileSync(pkg("planloop_bg.wasm"))],
  ["session engine (planloop_session_bg.wasm)", readFileSync(pkg("planloop_session_bg.wasm"))],
];
console.log("\nwasm                                           raw      gzip -9   compile   instantiate");
for (const [name, bytes] of modules) {
  const compileTimes = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    new WebAssembly.Module(bytes);
    compileTimes.push(performance.now() - start);
  }
  const module = new WebAssembly.Module(bytes);
  const instantiateTimes = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    new WebAssembly.Instance(module, importsFor(module));
    instantiateTimes.push(performance.now() - start);
  }
  console.log(`${name.padEnd(42)} ${bytes.length.toLocaleString("en").padStart(9)}  ${gz(bytes).toLocaleString("en").padStart(9)}   ${median(compileTimes).toFixed(2)} ms   ${median(instantiateTimes).toFixed(2)} ms`);
}
const total = modules.reduce((sum, [, bytes]) => sum + gz(bytes), 0);
const bundle = readFileSync(new URL("../target/plugin/main.js", import.meta.url));
console.log(`all wasm, every feature                                        ${total.toLocaleString("en").padStart(9)}`);
console.log(`plugin bundle (main.js, wasm inlined)     ${bundle.length.toLocaleString("en").padStart(11)}  ${gz(bundle).toLocaleString("en").padStart(9)}`);
// What a page that imports only validateWriteTodos ships once bundled (the session module dropped).
const primitivesPage = await esbuild({
  stdin: { contents: `import { validateWriteTodos } from ${JSON.stringify(pkg("planloop.mjs").pathname)}; console.log(validateWriteTodos("{}"));`, resolveDir: "." },
  bundle: true,
  minify: true,
  format: "esm",
  write: false,
});
const primitivesBytes = primitivesPage.outputFiles[0].contents;
console.log(`a page importing only validateWriteTodos  ${primitivesBytes.length.toLocaleString("en").padStart(11)}  ${gz(primitivesBytes).toLocaleString("en").padStart(9)}   (esbuild --minify, wasm inlined)`);
// The same page as a host writes it without planloop, bundled the same way: the seed's
// zod schema with JSON.parse, and that schema in zod/mini, zod's form for small bundles
// (checked first to answer as the seed's does on every payload above).
for (const payload of Object.values({ ...valid, ...invalid })) {
  const answer = (schema) => JSON.stringify(schema.safeParse(payload).error?.issues ?? schema.safeParse(payload).data);
  if (answer(miniWriteTodosSchema) !== answer(writeTodosSchema)) throw new Error("zod/mini's schema and the seed's disagree");
}
for (const [what, source] of [
  [`the same page, the seed's zod ${zodVersion}`, `import { writeTodosSchema } from ${JSON.stringify(new URL("../tests/js/support/seed-schema.mjs", import.meta.url).pathname)}; console.log(writeTodosSchema.safeParse(JSON.parse("{}")));`],
  ["the same page, that schema in zod/mini", `import { miniWriteTodosSchema } from ${JSON.stringify(new URL("../tests/js/support/mini-schema.mjs", import.meta.url).pathname)}; console.log(miniWriteTodosSchema.safeParse(JSON.parse("{}")));`],
]) {
  const page = await esbuild({ stdin: { contents: source, resolveDir: "." }, bundle: true, minify: true, format: "esm", write: false });
  const bytes = page.outputFiles[0].contents;
  console.log(`${what.padEnd(41)} ${bytes.length.toLocaleString("en").padStart(11)}  ${gz(bytes).toLocaleString("en").padStart(9)}   (esbuild --minify)`);
}
goals.push(["all wasm shipped for every feature, gzip -9 (KB)", [total / 1000], 100, 80]);
goals.push(["wasm a page loads for the seed-004 primitives only, gzip -9 (KB)", [gz(modules[0][1]) / 1000], 25, 15]);
goals.push(["one-file plugin bundle, gzip -9 (KB)", [gz(bundle) / 1000], 140, 110]);

/** Imports that let a module instantiate on its own (its wasm-bindgen imports are never called here). */
function importsFor(module) {
  const imports = {};
  for (const { module: from, name } of WebAssembly.Module.imports(module)) {
    imports[from] ??= {};
    imports[from][name] = () => {
      throw new Error(`${from}.${name} called while measuring instantiation`);
    };
  }
  return imports;
}

// --- The goals ------------------------------------------------------------------------

console.log("\nfigure                                                                          measured     must reach  aim    ");
for (const [figure, values, must, aim] of goals) {
  const worst = Math.max(...values);
  const shown = values.length > 1 ? span(values) : worst.toFixed(2);
  const verdict = worst <= must ? "met" : "NOT MET";
  console.log(`${figure.padEnd(80)} ${shown.padStart(11)}  ≤ ${String(must).padEnd(6)}  ${aim === null ? "      " : `≤ ${String(aim).padEnd(4)}`}  ${verdict}`);
}
