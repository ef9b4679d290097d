// make bench: planloop against what a host would write instead (JSON.parse + zod
// safeParse; an array join and a regex replace for composePrompt), in one Node process,
// in interleaved rounds, reporting medians and ratios. Absolute times vary with the
// machine; the ratios are the result.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { performance } from "node:perf_hooks";

import { planloop } from "../tests/js/support/pkg.mjs";
import { writeTodosSchema } from "../tests/js/support/seed-schema.mjs";

const ROUNDS = 25;
const BATCH = 2000;

const todo = (i, content) => ({ id: `step_${i}`, content, status: i === 0 ? "in_progress" : "pending" });
const payloads = {
  "valid, 1 todo": { todos: [todo(0, "Read the note")] },
  "valid, 4 todos (463 B)": {
    todos: [
      todo(0, "Read the quarterly report note and list the revenue lines"),
      todo(1, "Search the vault for the previous quarter's figures"),
      todo(2, "Compute the change per line and the total"),
      todo(3, "Write the summary note with a table and a short conclusion"),
    ],
    focus: "reading the report",
  },
  "valid, 8 todos × 140 chars": { todos: Array.from({ length: 8 }, (_, i) => todo(i, "x".repeat(140))), note: "n".repeat(200) },
  "invalid status": { todos: [{ id: "a", content: "Read", status: "done" }] },
  "invalid, 9 todos": { todos: Array.from({ length: 9 }, (_, i) => todo(i, "Read")) },
  "invalid, 3 issues": { todos: [{ id: "", content: 5 }], focus: "f".repeat(41) },
};

// What a host would do without planloop, to the same effect as applyWriteTodos.
function zodApply(state, text, now) {
  const parsed = writeTodosSchema.safeParse(JSON.parse(text));
  if (!parsed.success) return { ok: false, error: "invalid_arguments", issues: parsed.error.issues };
  state.revision += 1;
  state.todos = parsed.data.todos;
  state.updatedAt = now;
  const current = parsed.data.todos.find((t) => t.status === "in_progress");
  return { ok: true, revision: state.revision, todoCount: parsed.data.todos.length, inProgress: current ? current.id : null };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function measure(contenders, batch = BATCH) {
  const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(contenders)) {
      const start = performance.now();
      for (let i = 0; i < batch; i++) run(i);
      samples[name].push(((performance.now() - start) * 1e6) / batch);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

const rows = [];
for (const [label, payload] of Object.entries(payloads)) {
  const text = JSON.stringify(payload);
  const planner = new planloop.PlannerState();
  const state = { revision: 0, todos: [], updatedAt: null };
  // The same answer first, then the race.
  const same = JSON.stringify(planloop.validateWriteTodos(text)) ===
    JSON.stringify(((r) => (r.success ? { success: true, data: r.data } : { success: false, error: { issues: r.error.issues } }))(writeTodosSchema.safeParse(JSON.parse(text))));
  if (!same) throw new Error(`planloop and zod disagree on ${label}`);
  const t = measure({
    validate: () => planloop.validateWriteTodos(text),
    zod: () => writeTodosSchema.safeParse(JSON.parse(text)),
    apply: (i) => planner.applyWriteTodos(text, i),
    zodApply: (i) => zodApply(state, text, i),
  });
  rows.push({ label, bytes: text.length, ...t });
}

const ns = (x) => `${x.toFixed(0).padStart(6)} ns`;
const ratio = (mine, theirs) => `${(theirs / mine).toFixed(2)}×`;
console.log(`planloop vs JSON.parse + zod ${JSON.parse(readFileSync(new URL("../node_modules/zod/package.json", import.meta.url))).version} (median of ${ROUNDS} interleaved rounds × ${BATCH} ops; ratio > 1 means planloop is faster)\n`);
console.log("payload                      bytes | validateWriteTodos  JSON.parse+safeParse  speed-up | applyWriteTodos  JSON.parse+safeParse+ack  speed-up");
for (const r of rows) {
  console.log(
    `${r.label.padEnd(28)} ${String(r.bytes).padStart(5)} | ${ns(r.validate)}           ${ns(r.zod)}        ${ratio(r.validate, r.zod).padStart(6)} | ${ns(r.apply)}        ${ns(r.zodApply)}              ${ratio(r.apply, r.zodApply).padStart(6)}`,
  );
}

// composePrompt against the plain JS a host would write: the texts joined, then one
// regex replace for {{{key}}}. planloop's own parts are off and core is given as a
// text, so both build the same prompt (checked first).
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
const us = (x) => `${(x / 1000).toFixed(1).padStart(7)} µs`;
console.log(`\ncomposing a prompt (median of ${ROUNDS} interleaved rounds × ${COMPOSE_BATCH} ops; ratio > 1 means planloop is faster)\n`);
console.log("prompt                                         chars | composePrompt   join + replace  speed-up");
console.log(
  `${shape.padEnd(44)} ${composedPrompt.length.toLocaleString("en").padStart(8)} | ${us(compose.planloop)}      ${us(compose.js)}    ${ratio(compose.planloop, compose.js).padStart(6)}`,
);

const wasmPath = new URL("../pkg/planloop_bg.wasm", import.meta.url);
const bytes = readFileSync(wasmPath);
const compileTimes = [];
for (let i = 0; i < 20; i++) {
  const start = performance.now();
  new WebAssembly.Module(bytes);
  compileTimes.push(performance.now() - start);
}
const module = new WebAssembly.Module(bytes);
const instantiateTimes = [];
for (let i = 0; i < 20; i++) {
  const web = await import(`../pkg/web/planloop.js?instance=${i}`);
  const start = performance.now();
  web.initSync({ module });
  instantiateTimes.push(performance.now() - start);
}
console.log(`\nwasm: ${bytes.length.toLocaleString("en")} bytes raw, ${gzipSync(bytes, { level: 9 }).length.toLocaleString("en")} bytes gzip -9`);
const bundle = readFileSync(new URL("../pkg/planloop.bundle.js", import.meta.url));
console.log(`plugin bundle (pkg/planloop.bundle.js, wasm inlined, runner included): ${bundle.length.toLocaleString("en")} bytes raw, ${gzipSync(bundle, { level: 9 }).length.toLocaleString("en")} bytes gzip -9`);
console.log(`compile (new WebAssembly.Module): ${median(compileTimes).toFixed(2)} ms median; instantiate + start (initSync): ${median(instantiateTimes).toFixed(2)} ms median`);
