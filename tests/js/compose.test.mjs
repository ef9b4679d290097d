// composePrompt as a host uses it: one system prompt from the agent's own prompt,
// planloop's parts and the user's components, in a fixed order, with values filled in;
// and the errors a host switches on.
import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";

import { planloop } from "./support/pkg.mjs";

const { composePrompt } = planloop;

/** The thrown PlanloopError's code and its issues as `[code, path]`. */
function refusal(input) {
  try {
    composePrompt(input);
  } catch (error) {
    assert.equal(error.name, "PlanloopError");
    assert.equal(error.data.argument, "input");
    return { code: error.code, issues: error.data.issues.map((i) => [i.code, i.path]), error };
  }
  assert.fail(`composePrompt accepted ${JSON.stringify(input)}`);
}

const headings = (prompt) => [...prompt.matchAll(/^## (.+)$/gm)].map((m) => m[1]);

test("the defaults: the base prompt, then core, planner_tools and tool_guidelines", () => {
  const composed = composePrompt({ base: "You are a research assistant." });
  assert.deepEqual(composed.components, ["base", "core", "planner_tools", "tool_guidelines"]);
  assert.deepEqual(headings(composed.prompt), ["Core instructions", "Planning tools", "Using tools"]);
  assert.ok(composed.prompt.startsWith("You are a research assistant.\n\n## Core instructions\n\n"));
  assert.deepEqual(composed.unresolved, []);
});

test("every part in its documented place, whatever the order of the keys", () => {
  const composed = composePrompt({
    budget: { remaining: 2, total: 6 },
    values: { team: "Finance" },
    components: [
      { name: "house_style", text: "Write for {{{team}}}." },
      { name: "output_format", text: "Answer in Markdown." },
      { name: "sources", text: "Cite {{{source_kind}}} paths." },
    ],
    features: { continuation_protocol: true },
    plan: { goal: "Summarize Q3", step: "Read the note", stepNumber: 1, totalSteps: 3 },
    base: "You help {{{team}}}.",
  });
  assert.deepEqual(composed.components, [
    "base", "core", "plan", "planner_tools", "continuation_protocol", "tool_guidelines",
    "output_format", "house_style", "sources", "budget",
  ]);
  assert.deepEqual(headings(composed.prompt), ["Core instructions", "Current plan", "Planning tools", "Continuation protocol", "Using tools"]);
  assert.ok(composed.prompt.startsWith("You help Finance.\n\n"));
  assert.ok(composed.prompt.includes("Task: Summarize Q3\nCurrent step (1/3): Read the note\n"));
  assert.ok(composed.prompt.endsWith(
    "\n\nAnswer in Markdown.\n\nWrite for Finance.\n\nCite {{{source_kind}}} paths.\n\nTool rounds remaining: 2 of 6.",
  ));
  assert.deepEqual(composed.unresolved, ["source_kind"]);
});

test("a user's text for a shared component replaces planloop's where it stands", () => {
  const composed = composePrompt({
    base: "B",
    components: [{ name: "notes", text: "N" }, { name: "tool_guidelines", text: "Only use search." }],
  });
  assert.deepEqual(composed.components, ["base", "core", "planner_tools", "tool_guidelines", "notes"]);
  assert.ok(composed.prompt.endsWith("\n\nOnly use search.\n\nN"));
  assert.ok(!composed.prompt.includes("## Using tools"));
});

test("toggles turn parts off (and the continuation protocol on)", () => {
  const composed = composePrompt({
    base: "B",
    features: { planner_tools: false, tool_guidelines: false, notes: false, budget: false },
    components: [{ name: "notes", text: "N" }],
    budget: { remaining: 1, total: 2 },
  });
  assert.deepEqual(composed.components, ["base", "core"]);
  const protocol = composePrompt({ base: "B", features: { continuation_protocol: true } }).prompt;
  assert.match(protocol, /"continuation": \{"status": "CONTINUE"/);
});

test("values fill placeholders once; a value is never scanned again", () => {
  const composed = composePrompt({
    base: "{{{a}}} and {{{b}}}",
    values: { a: "{{{b}}}", b: "B" },
    features: { planner_tools: false, tool_guidelines: false },
    components: [{ name: "core", text: "core" }],
  });
  assert.equal(composed.prompt, "{{{b}}} and B\n\ncore");
  assert.deepEqual(composed.unresolved, []);
});

test("Chinese texts with language: \"zh\", and a plan without a step asks for [Step] lines", () => {
  const composed = composePrompt({ base: "B", language: "zh", plan: { goal: "整理笔记" }, budget: { remaining: 0, total: 3 } });
  assert.deepEqual(headings(composed.prompt), ["核心指令", "当前任务规划", "规划工具", "工具使用"]);
  assert.ok(composed.prompt.includes("当前任务: 整理笔记\n请先规划任务步骤，每行一个，使用 \"[Step] 描述\" 格式"));
  assert.ok(composed.prompt.includes('说 "[完成]" 或 "[Done]" 推进到下一步'));
  assert.ok(composed.prompt.endsWith("剩余工具轮次: 0/3。请现在直接给出最终答案，不要再调用工具。"));
});

test("core cannot be disabled", () => {
  const { code, issues, error } = refusal({ base: "B", features: { core: false } });
  assert.equal(code, "invalid_options");
  assert.deepEqual(issues, [["custom", ["features", "core"]]]);
  assert.match(error.message, /features\.core: core cannot be disabled/);
});

test("a misspelt toggle is an error, not silently ignored", () => {
  const { code, error } = refusal({ base: "B", features: { tool_guideline: false, planner_tools: false } });
  assert.equal(code, "invalid_options");
  assert.deepEqual(error.data.issues, [
    { code: "unrecognized_keys", keys: ["tool_guideline"], path: ["features"], message: 'Unrecognized key: "tool_guideline"' },
  ]);
  // output_format is a part, but planloop has no text of its own for it.
  assert.deepEqual(refusal({ base: "B", features: { output_format: true } }).issues, [["custom", ["features", "output_format"]]]);
});

test("component names: planloop's own sections, bad names and duplicates are refused", () => {
  const { code, issues } = refusal({
    base: "B",
    components: [
      { name: "plan", text: "x" },
      { name: "budget", text: "x" },
      { name: "My Notes", text: "x" },
      { name: "notes", text: "x" },
      { name: "notes", text: "y" },
    ],
  });
  assert.equal(code, "invalid_options");
  assert.deepEqual(issues, [0, 1, 2, 4].map((i) => ["custom", ["components", i, "name"]]));
});

test("wrong types and unknown keys are reported with their paths", () => {
  assert.deepEqual(refusal(undefined).issues, [["invalid_type", ["base"]]]);
  assert.deepEqual(refusal("You are helpful").issues, [["invalid_type", []]]);
  assert.deepEqual(refusal({ base: "B", lang: "zh" }).issues, [["unrecognized_keys", []]]);
  assert.deepEqual(refusal({ base: "B", language: "fr" }).issues, [["invalid_value", ["language"]]]);
  assert.deepEqual(refusal({ base: "B", features: { core: "yes" } }).issues, [["invalid_type", ["features", "core"]]]);
  assert.deepEqual(refusal({ base: "B", plan: { goal: "G", stepNumber: 2, totalSteps: 1, step: "S" } }).issues, [["custom", ["plan", "stepNumber"]]]);
  assert.deepEqual(refusal({ base: "B", budget: { remaining: 4, total: 3 } }).issues, [["custom", ["budget", "remaining"]]]);
  assert.deepEqual(refusal({ base: "B", components: Array(257).fill({ name: "a", text: "" }) }).issues, [["too_big", ["components"]]]);
});

test("features and values are read exactly as zod's z.record(z.string(), …) reads them", () => {
  class Settings {
    constructor() {
      this.a = "x";
    }
  }
  const hidden = Object.defineProperty({ shown: "s" }, "hidden", { value: 5, enumerable: false });
  const candidates = [
    { a: "x", b: "y" },
    { 2: 5, b: 1, 1: "two" },
    { a: 1, b: null, c: "ok", d: undefined },
    Object.assign(Object.create(null), { a: "x", b: 2 }),
    Object.create({ inherited: 5 }),
    JSON.parse('{"__proto__": 5, "a": "x"}'),
    hidden,
    { constructor: 5, a: "x" },
    [],
    ["x"],
    null,
    "text",
    7,
    true,
    () => 1,
    new Map([["a", "x"]]),
    new Date(0),
    new Settings(),
  ];
  const zodValues = z.object({ values: z.record(z.string(), z.string().max(1_000_000)) });
  const zodFeatures = z.object({ features: z.record(z.string(), z.boolean()) });
  for (const [index, candidate] of candidates.entries()) {
    for (const [key, schema] of [["values", zodValues], ["features", zodFeatures]]) {
      const expected = schema.safeParse({ [key]: candidate });
      let actual;
      try {
        composePrompt({ base: "B", [key]: candidate });
        actual = { success: true };
      } catch (error) {
        actual = { success: false, issues: error.data.issues };
      }
      const where = `${key}: candidate ${index}`;
      if (expected.success) {
        // Accepted as a record; for features, only names of parts are toggles.
        const onlyParts = Object.keys(expected.data.features ?? {}).every((k) => k === "core" || k === "plan");
        if (key === "values" || onlyParts) assert.deepEqual(actual, { success: true }, where);
        else assert.equal(actual.issues[0].code, "unrecognized_keys", where);
      } else {
        assert.deepEqual(actual, { success: false, issues: expected.error.issues }, where);
      }
    }
  }
});

test("a throwing getter or a revoked proxy inside features or values is a host_exception", () => {
  const getter = Object.defineProperty({}, "a", { get() { throw new Error("boom"); }, enumerable: true });
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  for (const key of ["features", "values"]) {
    assert.throws(() => composePrompt({ base: "B", [key]: getter }), { code: "host_exception", data: { detail: "boom" } });
    assert.throws(() => composePrompt({ base: "B", [key]: revoked.proxy }), { code: "host_exception" });
  }
});

test("the module keeps working after every refusal", () => {
  for (const input of [{ base: "B", features: { core: false } }, { base: 5 }, null]) {
    assert.throws(() => composePrompt(input), { name: "PlanloopError" });
  }
  assert.equal(composePrompt({ base: "still here" }).components[0], "base");
});

test("a session composes its own system prompt: its language, current step and budget", () => {
  const session = new planloop.Session({ maxIterations: 4, tools: { default: "read" } });
  session.beginTurn({ message: "Chart the revenue", nowMs: 0 });
  session.handleModelResponse({ text: "[Step] Download\n[Step] Chart", toolCalls: [{ id: "1", name: "fetch", args: {} }] }, 1);
  const composed = session.systemPrompt({ base: "You are {{{name}}}.", values: { name: "Ada" } }, 2);
  assert.deepEqual(composed.components, ["base", "core", "plan", "planner_tools", "tool_guidelines", "budget"]);
  assert.ok(composed.prompt.startsWith("You are Ada.\n\n## Core instructions"));
  assert.match(composed.prompt, /Task: Chart the revenue\nCurrent step \(1\/2\): Download/);
  assert.ok(composed.prompt.endsWith("Tool rounds remaining: 2 of 3."), composed.prompt);
  // Read back with the keys and order composePrompt gives, a placeholder without a value left as it is.
  const unfilled = session.systemPrompt({ base: "Hi {{{who}}}, \"quoted\"\n\tand é." }, 2);
  assert.deepEqual(Object.keys(unfilled), ["prompt", "components", "unresolved"]);
  assert.deepEqual(unfilled.unresolved, ["who"]);
  assert.ok(unfilled.prompt.startsWith('Hi {{{who}}}, "quoted"\n\tand é.\n\n## Core instructions'), unfilled.prompt);
  // Only the host's parts are accepted: the session fills in the plan and the budget.
  assert.throws(
    () => session.systemPrompt({ base: "b", plan: { goal: "g" } }, 3),
    (e) => e.code === "invalid_options" && e.data.argument === "parts" && e.data.issues[0].code === "unrecognized_keys",
  );
  assert.throws(() => session.systemPrompt({ base: "b" }, Number.NaN), { code: "invalid_argument" });
});

// A plain input crosses with its texts raw; any other (here: the same input on a
// null-prototype object, which zod and the schema read the same) crosses as any call's
// arguments do. Both must give the same prompt, or the same error.
test("texts that cross raw give what the general path gives, prompt or error, on 3,000 generated inputs", () => {
  let seed = 0x2545f491;
  const next = (n) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const pick = (items) => items[next(items.length)];
  const pieces = ["Stay on task. ", "{{{user}}}", "{{{team}}}", "{{{ missing }}}", "{{{x}}}", "\n", "é", "😀", "\u000b", "{{{", "}}}", "\ud800", "'\"\\", "x".repeat(70)];
  const text = () => Array.from({ length: next(5) }, () => pick(pieces)).join("");
  const names = ["house_rules", "output_format", "core", "topic_1", "topic_1", "Bad-Name", "plan", "", "n".repeat(65), "é"];
  const input = () => {
    const value = { base: text() };
    if (next(4) > 0) value.components = Array.from({ length: next(5) }, () => ({ name: pick(names), text: text() }));
    if (next(3) === 0) value.features = pick([{ planner_tools: false }, { house_rules: false }, { core: false }, { nope: true }, { output_format: true }, { topic_1: 1 }]);
    if (next(2) === 0) value.values = pick([{ user: "Grace", team: "{{{user}}}" }, { x: "é😀" }, { user: 5 }, {}]);
    if (next(6) === 0) value.plan = pick([{ goal: "Ship it", step: "Test", stepNumber: 1, totalSteps: 2 }, { goal: "" }]);
    if (next(6) === 0) value.budget = pick([{ remaining: 2, total: 5 }, { remaining: 6, total: 5 }]);
    if (next(8) === 0) value.language = pick(["zh", "fr"]);
    if (next(12) === 0) value.extra = true;
    if (next(12) === 0 && value.components?.length) value.components[0].more = 1;
    return value;
  };
  const outcome = (value) => {
    try {
      return { composed: composePrompt(value) };
    } catch (error) {
      return { error: [error.name, error.code, error.message, JSON.stringify(error.data)] };
    }
  };
  const bare = (value) => Object.assign(Object.create(null), value);
  let composed = 0;
  for (let i = 0; i < 3000; i++) {
    const value = input();
    const raw = outcome(value);
    assert.deepEqual(raw, outcome(bare(value)), JSON.stringify(value));
    if (raw.composed) composed++;
  }
  assert.ok(composed > 500 && composed < 2900, `both prompts and errors are compared (${composed} prompts)`);
});
