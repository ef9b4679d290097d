// An editor plugin's bundle (target/plugin/main.js, built from the package by
// scripts/bundle.mjs): one file with the wasm inlined.
// It runs a whole turn through the reference runner in a bare JS context (no require,
// no fs, no fetch) and in Chromium as a classic script, with no console errors.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import vm from "node:vm";

import { launchChromium, watchErrors } from "./support/browser.mjs";

const bundle = readFileSync(new URL("../../target/plugin/main.js", import.meta.url), "utf8");

/** A whole turn: a todo list, a search, an early stop refused, the list finished, an answer. */
async function wholeTurn(planloop) {
  const script = [
    { text: null, toolCalls: [{ id: "1", name: "write_todos", args: '{"todos":[{"id":"a","content":"Find the note","status":"in_progress"},{"id":"b","content":"Summarize it","status":"pending"}]}' }, { id: "2", name: "search", args: '{"q":"Q3"}' }] },
    { text: "Found it." },
    { text: null, toolCalls: [{ id: "3", name: "write_todos", args: '{"todos":[{"id":"a","content":"Find the note","status":"completed"},{"id":"b","content":"Summarize it","status":"completed"}]}' }] },
    { text: "Q3 revenue rose 4%." },
  ];
  let call = 0;
  const model = { complete: async () => script[call++] };
  const search = { definition: { name: "search", description: "Search notes", parameters: { type: "object" } }, run: () => "finance/q3.md" };
  const events = [];
  const runner = new planloop.ChainRunner({ session: new planloop.Session({ tools: { read: ["search"] } }), model, tools: [search], onEvent: (e) => events.push(e.type), now: () => 1000 + call });
  const outcome = await runner.send("Summarize the Q3 note");
  return { outcome, calls: call, steps: runner.session.steps(), continued: events.includes("PlanContinuation") };
}

const expected = {
  outcome: { type: "finalize", answer: "Q3 revenue rose 4%.", exitReason: "final_answer" },
  calls: 4,
  continued: true,
};

test("the bundle runs a whole turn in a bare context: nothing but the file itself", async () => {
  const sandbox = { module: { exports: {} } };
  vm.runInNewContext(bundle, sandbox, { filename: "main.js" });
  const planloop = sandbox.module.exports;
  assert.equal(typeof planloop.Session, "function");
  // Objects from another realm: compare their JSON.
  const { steps, ...result } = JSON.parse(JSON.stringify(await wholeTurn(planloop)));
  assert.deepEqual(result, expected);
  assert.equal(steps.at(-1), "[Reflect] Q3 revenue rose 4%.");
});

test("the bundle runs a whole turn in Chromium as a classic script, with no console errors", async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const problems = watchErrors(page);
    await page.setContent("<!doctype html><title>bundle</title>");
    await page.addScriptTag({ content: bundle });
    const result = await page.evaluate(`(${wholeTurn})(window.planloop)`);
    const { steps, ...rest } = result;
    assert.deepEqual(rest, expected);
    assert.ok(steps.length > 0);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
