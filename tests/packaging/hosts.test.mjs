// The package as installed from its tarball (project.mjs), run by each non-browser host:
// Node as an ES module and as CommonJS, a bare `vm` context, TypeScript's three module
// resolutions under --strict, Deno and Bun. Each runs the same check (check.mjs).
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";

import { assertChecked, check } from "./check.mjs";
import { BUN, DENO, bin, fixture, project, run } from "./project.mjs";

const installed = createRequire(project)("planloop");
const reference = check(installed);
const reported = (stdout) => JSON.parse(stdout.trim().split("\n").at(-1));

test("Node, ES module: import … from \"planloop\"", () => {
  const dir = fixture("node-esm");
  assertChecked(reported(run("node", [`${dir}main.mjs`])), reference);
});

test("Node, CommonJS: require(\"planloop\"), and the runner and the middleware by require too", () => {
  const dir = fixture("node-cjs");
  assertChecked(reported(run("node", [`${dir}main.cjs`])), reference);
  const entries = 'const r = require("planloop/runner"); console.log(typeof r.ChainRunner, typeof require("planloop/runner/openai").openAIChatModel, typeof require("planloop/ai-sdk").createPlanloop, typeof require("planloop/langchain").planloopMiddleware, typeof require("planloop/openai-agents").createPlanloop)';
  assert.equal(run("node", ["-e", entries]).trim(), "function function function function function");
});

test("a bare vm context (no TextEncoder, atob, require): the classic-script build", () => {
  const dir = fixture("vm");
  assertChecked(reported(run("node", [`${dir}main.cjs`])), reference);
});

for (const [resolution, file, runs] of [["nodenext", "main.mts", "main.mjs"], ["node16", "main.cts", "main.cjs"], ["bundler", "main.ts", null]]) {
  test(`TypeScript, moduleResolution ${resolution}, --strict, no @types/node`, () => {
    const dir = fixture("typescript", `typescript-${resolution}`);
    copyFileSync(`${dir}turn.ts`, `${dir}${file}`);
    run(bin("tsc"), ["-p", `${dir}tsconfig.${resolution}.json`]);
    if (runs === null) return;
    const out = JSON.parse(run("node", [`${dir}dist-${resolution}/${runs}`]));
    assert.deepEqual(out, { seen: ["runTools", "continue", "runTools", "finalize"], valid: 2 });
  });
}

test("Deno: import … from \"planloop\" through node_modules", () => {
  const dir = fixture("node-esm", "deno");
  const stdout = run(DENO, ["run", "--node-modules-dir=manual", "--allow-read", `${dir}main.mjs`], { env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" } });
  assertChecked(reported(stdout), reference);
});

test("Bun: import … from \"planloop\"", () => {
  const dir = fixture("node-esm", "bun");
  assertChecked(reported(run(BUN, [`${dir}main.mjs`], { env: { DO_NOT_TRACK: "1" } })), reference);
});
