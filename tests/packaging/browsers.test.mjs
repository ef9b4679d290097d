// The package as installed from its tarball (project.mjs), built by each browser-side
// tool as it comes (Vite, webpack, Rollup, esbuild for browser and node platforms, an
// Obsidian-style plugin) or loaded as it ships (a classic script, planloop/slim, a Web
// Worker), and run in Chromium: the same check (check.mjs), no console error.
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";

import { nodeResolve } from "@rollup/plugin-node-resolve";
import { build as esbuild } from "esbuild";
import { rollup } from "rollup";
import { build as vite } from "vite";
import webpack from "webpack";

import { assertChecked, check } from "./check.mjs";
import { fixture, inChromium, project, run } from "./project.mjs";

const reference = check(createRequire(project)("planloop"));

async function assertRuns(dir, page) {
  const { reported, problems } = await inChromium(dir, page);
  assert.equal(reported.error, undefined, reported.error);
  assertChecked(reported.result, reference);
  assert.deepEqual(problems, []);
}

/** The shared page fixture, with its script bundled into dist/ by `bundle`. */
async function bundled(tool, bundle) {
  const dir = fixture("bundled", tool);
  mkdirSync(`${dir}dist`, { recursive: true });
  await bundle(dir);
  copyFileSync(`${dir}index.html`, `${dir}dist/index.html`);
  return `${dir}dist/`;
}

test("Vite: a page importing planloop, vite build", async () => {
  const dir = fixture("bundled", "vite");
  await vite({ root: dir, logLevel: "error", configFile: false, build: { outDir: `${dir}dist` } });
  await assertRuns(`${dir}dist/`);
});

test("webpack 5: a page importing planloop, production build", async () => {
  const dist = await bundled("webpack", (dir) =>
    new Promise((resolve, reject) =>
      webpack({ mode: "production", context: dir, entry: "./main.js", output: { path: `${dir}dist`, filename: "main.js" } }, (error, stats) => {
        if (error || stats.hasErrors()) reject(error ?? new Error(stats.toString("errors-only")));
        else resolve();
      }),
    ),
  );
  await assertRuns(dist);
});

test("Rollup with node-resolve: a page importing planloop", async () => {
  const dist = await bundled("rollup", async (dir) => {
    const bundle = await rollup({ input: `${dir}main.js`, plugins: [nodeResolve({ browser: true })], onwarn: (warning) => assert.fail(String(warning)) });
    await bundle.write({ file: `${dir}dist/main.js`, format: "es" });
  });
  await assertRuns(dist);
});

test("esbuild, platform browser: a page importing planloop", async () => {
  const dist = await bundled("esbuild", (dir) => esbuild({ entryPoints: [`${dir}main.js`], outfile: `${dir}dist/main.js`, bundle: true, format: "esm", platform: "browser", logLevel: "error" }));
  await assertRuns(dist);
});

for (const platform of ["node", "browser"]) {
  test(`an Obsidian-style plugin: one CommonJS main.js by esbuild --platform=${platform}, obsidian external`, async () => {
    const dir = fixture("plugin", `plugin-${platform}`);
    await esbuild({ entryPoints: [`${dir}main.ts`], outfile: `${dir}main.js`, bundle: true, format: "cjs", platform, external: ["obsidian"], target: "es2022", logLevel: "error" });
    await assertRuns(dir, "/?main=/main.js");
  });
}

for (const [tool, bundle] of [
  ["esbuild", (dir) => esbuild({ entryPoints: [`${dir}main.js`], outfile: `${dir}dist/main.js`, bundle: true, format: "esm", minify: true, logLevel: "error" })],
  ["Rollup", async (dir) => (await rollup({ input: `${dir}main.js`, plugins: [nodeResolve()] })).write({ file: `${dir}dist/main.js`, format: "es" })],
]) {
  test(`${tool}: a script that uses only the primitives bundles only their wasm module`, async () => {
    const dir = fixture("primitives", `primitives-${tool}`);
    await bundle(dir);
    const text = readFileSync(`${dir}dist/main.js`, "utf8");
    // Each inlined module is one long base64 string (compressed, so no "\0asm" to find).
    const modules = (code) => (code.match(/["'`][A-Za-z0-9+/]{10000,}={0,2}["'`]/g) ?? []).length;
    assert.equal(modules(readFileSync(new URL("../../pkg/planloop.mjs", import.meta.url), "utf8")), 2, "the entry holds both");
    assert.equal(modules(text), 1, "one wasm module in the bundle");
    const printed = run("node", [`${dir}dist/main.js`]);
    assert.deepEqual(JSON.parse(printed), { success: true, data: { todos: [{ id: "a", content: "Read the notes", status: "pending" }] } });
  });
}

test("a classic <script>: the global planloop from planloop.global.js", async () => {
  await assertRuns(fixture("script"));
});

test("planloop/slim in a page: await init() fetches the binary wasm beside it", async () => {
  await assertRuns(fixture("slim"));
});

test("a Web Worker (module worker bundled by esbuild)", async () => {
  const dir = fixture("worker");
  await esbuild({ entryPoints: [`${dir}worker.js`], outfile: `${dir}dist/worker.js`, bundle: true, format: "esm", platform: "browser", logLevel: "error" });
  await assertRuns(dir);
});
