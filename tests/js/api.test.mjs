// The seed-004 primitives as a JS host uses them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { planloop } from "./support/pkg.mjs";

const { PlannerState, ReasoningLog, contextCapsule, extractReflection, toolDefinitions, writeTodosJsonSchema } = planloop;

const list = (...todos) => JSON.stringify({ todos: todos.map(([id, status]) => ({ id, content: `Do ${id}`, status })) });

test("write_todos replaces the whole list, and the ack is seed 004's {ok, revision, todoCount, inProgress}", () => {
  const planner = new PlannerState();
  assert.deepEqual(planner.snapshot(), { revision: 0, todos: [], focus: null, note: null, updatedAt: null });
  const first = planner.applyWriteTodos(list(["read", "in_progress"], ["search", "pending"], ["write", "pending"]), 1000);
  assert.deepEqual(first, { ok: true, revision: 1, todoCount: 3, inProgress: "read" });
  const second = planner.applyWriteTodos({ todos: [{ id: "search", content: "Search", status: "completed" }], focus: "wrap up", note: "read was done" }, 2000);
  assert.deepEqual(second, { ok: true, revision: 2, todoCount: 1, inProgress: null });
  assert.deepEqual(planner.snapshot(), {
    revision: 2,
    todos: [{ id: "search", content: "Search", status: "completed" }],
    focus: "wrap up",
    note: "read was done",
    updatedAt: 2000,
  });
});

test("invalid arguments change nothing and the ack tells the model what to fix", () => {
  const planner = new PlannerState();
  planner.applyWriteTodos(list(["a", "pending"]), 1);
  const before = planner.snapshot();
  const ack = planner.applyWriteTodos('{"todos":[{"id":"","content":"x","status":"doing"}]}', 2);
  assert.equal(ack.ok, false);
  assert.equal(ack.error, "invalid_arguments");
  assert.deepEqual(ack.issues.map((i) => [i.code, i.path.join(".")]), [["too_small", "todos.0.id"], ["invalid_value", "todos.0.status"]]);
  assert.match(ack.message, /todos\[0\]\.id: Too small/);
  assert.match(ack.message, /todos\[0\]\.status: Invalid option/);
  assert.deepEqual(planner.snapshot(), before);
  const notJson = planner.applyWriteTodos('{"todos": [', 3);
  assert.equal(notJson.issues[0].code, "invalid_json");
  assert.deepEqual(planner.snapshot(), before);
});

test("the overuse guard refuses the third planner-only iteration in a row, state unchanged", () => {
  const planner = new PlannerState();
  const iterate = (names, args) => [planner.recordIteration(names), args && planner.applyWriteTodos(args, 1)];
  assert.equal(iterate(["write_todos"], list(["a", "in_progress"]))[1].ok, true);
  assert.equal(iterate(["write_todos"], list(["a", "in_progress"], ["b", "pending"]))[1].ok, true);
  const [verdict, ack] = iterate(["write_todos"], list(["c", "pending"]));
  assert.deepEqual(verdict, { iteration: 3, plannerOnly: true, plannerOnlyStreak: 3, refusal: "planner_overuse_execute_next_step" });
  assert.equal(ack.error, "planner_overuse_execute_next_step");
  assert.match(ack.message, /Execute the next step now/);
  assert.deepEqual(planner.snapshot().todos.map((t) => t.id), ["a", "b"]);
  // Acting resets the streak; planning alongside an action is fine.
  const [mixed, mixedAck] = iterate(["write_todos", "search_vault"], list(["a", "completed"], ["b", "in_progress"]));
  assert.deepEqual([mixed.plannerOnlyStreak, mixed.refusal, mixedAck.ok], [0, null, true]);
  assert.equal(iterate(["write_todos"], list(["b", "completed"]))[1].ok, true);
});

test("two write_todos calls in one iteration are both refused", () => {
  const planner = new PlannerState();
  const verdict = planner.recordIteration(["write_todos", "write_todos"]);
  assert.equal(verdict.refusal, "duplicate_planner_call");
  assert.equal(planner.applyWriteTodos(list(["a", "pending"]), 1).error, "duplicate_planner_call");
  assert.equal(planner.applyWriteTodos(list(["b", "pending"]), 1).error, "duplicate_planner_call");
  assert.equal(planner.snapshot().revision, 0);
});

test("the streak limit and the planner tools are options", () => {
  const planner = new PlannerState({ maxPlannerOnlyStreak: 0, plannerTools: ["write_todos", "plan"] });
  assert.equal(planner.recordIteration(["plan"]).refusal, "planner_overuse_execute_next_step");
  assert.equal(planner.recordIteration(["read_note"]).refusal, null);
  assert.throws(() => new PlannerState({ maxPlannerOnlyStreak: -1 }), (e) => e.code === "invalid_options" && e.data.issues[0].code === "too_small");
  assert.throws(() => new PlannerState({ plannerTools: [""] }), (e) => e.code === "invalid_options" && e.data.issues[0].path.join(".") === "plannerTools.0");
});

test("the reasoning trail is tagged [Plan]/[Act]/[Obs]/[Reflect], rolling or full", () => {
  const planner = new PlannerState();
  planner.applyWriteTodos(list(["read", "completed"], ["index", "completed"], ["search_vault", "in_progress"], ["answer", "pending"]), 1);
  const rolling = new ReasoningLog();
  const full = new ReasoningLog({ mode: "full" });
  for (const log of [rolling, full]) {
    const plan = log.recordPlan(planner.snapshot(), 3, 10);
    assert.deepEqual(plan, { phase: "plan", summary: "2/4 done · now: search_vault", iteration: 3, timestamp: 10 });
    log.recordAct("search_vault", '{"query":"quarterly report","limit":5}', 3, 11);
    log.recordObs("search_vault", "Found 3 notes\n- a.md\n- b.md", false, 3, 12);
    log.recordObs("read_note", "ENOENT: no such file", true, 3, 13);
    log.recordReflection("<think>the user may want totals</think>The report lists revenue by quarter. I will sum it next.", 3, 14);
  }
  const expected = [
    "[Plan] 2/4 done · now: search_vault",
    '[Act] search_vault("quarterly report")',
    "[Obs] search_vault ok: Found 3 notes",
    "[Obs] read_note failed: ENOENT: no such file",
    "[Reflect] The report lists revenue by quarter.",
  ];
  assert.deepEqual(full.steps(), expected);
  assert.deepEqual(rolling.steps(), expected.slice(1), "rolling keeps the last 4 by default");
  assert.deepEqual(rolling.events().map((e) => e.phase), ["act", "obs", "obs", "reflect"]);
  rolling.clear();
  assert.deepEqual(rolling.steps(), []);
});

test("short results read back exactly as written, ASCII or not", () => {
  for (const sentence of ["A.", "Ok then, done.", "Exactly sixteen.", "Just seventeen b.", "Été.", "好的。", "😀 ok.", "Ünïcödé wörds."]) {
    assert.equal(extractReflection(sentence), sentence);
  }
  // Empty and one-character results, and a getter's empty list.
  assert.equal(extractReflection("x"), "x");
  assert.equal(extractReflection("   "), null);
  assert.deepEqual(new PlannerState().snapshot().todos, []);
});

test("extractReflection returns one capped sentence and never hidden reasoning", () => {
  assert.equal(extractReflection("I checked both notes. They agree."), "I checked both notes.");
  assert.equal(extractReflection("<think>private chain of thought</think>"), null);
  assert.equal(extractReflection("<thinking>a</thinking><reasoning>b</reasoning>Visible."), "Visible.");
  assert.equal(extractReflection("half a thought <think>never closed"), "half a thought");
  assert.equal(extractReflection("earlier reasoning</think>Answer: 42."), "Answer: 42.");
  const long = extractReflection("word ".repeat(200));
  assert.ok([...long].length <= 160 && long.endsWith("…"), long);
  assert.ok([...extractReflection("word ".repeat(200), 20)].length <= 20);
  assert.throws(() => extractReflection("x", 0), { code: "invalid_argument" });
});

test("a ContextCapsule caps every list and string", () => {
  const long = "z".repeat(5000);
  const capsule = contextCapsule({
    goal: long,
    keyFindings: Array(50).fill(long),
    artifacts: Array(50).fill({ type: long, ref: long, summary: long }),
    nextActions: Array(50).fill(long),
  });
  assert.deepEqual(Object.keys(capsule), ["goal", "planSnapshot", "keyFindings", "artifacts", "nextActions"]);
  assert.equal(capsule.planSnapshot, null);
  assert.ok(capsule.goal.length <= 400);
  assert.ok(capsule.keyFindings.length <= 8 && capsule.keyFindings.every((f) => f.length <= 240));
  assert.ok(capsule.artifacts.length <= 8 && capsule.artifacts.every((a) => a.type.length <= 32 && a.ref.length <= 200 && a.summary.length <= 240));
  assert.ok(capsule.nextActions.length <= 5 && capsule.nextActions.every((a) => a.length <= 140));
  const planner = new PlannerState();
  planner.applyWriteTodos(list(["a", "in_progress"]), 5);
  assert.deepEqual(contextCapsule({ goal: "g", planSnapshot: planner.snapshot() }).planSnapshot, planner.snapshot());
  assert.throws(() => contextCapsule({ goal: "g", keyFinding: [] }), (e) => e.code === "invalid_argument" && e.data.issues[0].code === "unrecognized_keys");
});

test("toolDefinitions hands LLM APIs the schema and seed 004's usage rules", () => {
  const [writeTodos, ...others] = toolDefinitions();
  assert.deepEqual(others, []);
  assert.equal(writeTodos.name, "write_todos");
  const { $schema, title, ...parameters } = writeTodosJsonSchema();
  assert.equal($schema, "https://json-schema.org/draft/2020-12/schema");
  assert.equal(title, "WriteTodos");
  assert.deepEqual(writeTodos.parameters, parameters);
  for (const rule of [/multi-step tasks \(two or more meaningful actions\)/, /before the first expensive external tool/, /short and action-oriented/, /Update statuses as work progresses/, /Do not rewrite an unchanged list/]) {
    assert.match(writeTodos.description, rule);
  }
});
