// The built package: its type declarations match the generated types and the runtime
// exports, the web build works, and the module starts with its panic hook installed.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { planloop } from "./support/pkg.mjs";

const root = new URL("../../", import.meta.url);
const read = (path) => readFileSync(new URL(path, root), "utf8");
const generated = read("src/wasm/types.d.ts");

for (const dts of ["pkg/planloop.d.ts", "pkg/web/planloop.d.ts"]) {
  test(`${dts} carries the types generated from the Rust types, and no any`, () => {
    const text = read(dts);
    assert.ok(text.includes(generated), `${dts} is older than src/wasm/types.d.ts: run make build`);
    // The web build also declares wasm-bindgen's raw ABI (InitOutput), which is not API.
    const api = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/export interface InitOutput \{[\s\S]*?\n\}/, "");
    assert.doesNotMatch(api, /\bany\b/);
  });
}

test("every runtime export is declared, and every declared value exists", () => {
  const dts = read("pkg/planloop.d.ts");
  const declared = [...dts.matchAll(/^export (?:function|class) (\w+)/gm)].map((m) => m[1]).sort();
  const runtime = Object.keys(planloop).filter((k) => !k.startsWith("__")).sort();
  assert.deepEqual(runtime, declared);
  assert.deepEqual(declared, [
    "PlanReviewStore",
    "PlannerState",
    "ReasoningLog",
    "Session",
    "composePrompt",
    "contextCapsule",
    "extractReflection",
    "toolDefinitions",
    "validateWriteTodos",
    "writeTodosJsonSchema",
  ]);
});

test("the web build (ES module, initSync) answers like the Node build", async () => {
  const web = await import(new URL("pkg/web/planloop.js", root));
  web.initSync({ module: readFileSync(new URL("pkg/web/planloop_bg.wasm", root)) });
  const args = '{"todos":[{"id":"a","content":"b","status":"done"}]}';
  assert.deepEqual(web.validateWriteTodos(args), planloop.validateWriteTodos(args));
  assert.deepEqual(web.toolDefinitions(), planloop.toolDefinitions());
});

test("pkg/package.json resolves Node to the Node build and everything else to the web build", () => {
  const pkg = JSON.parse(read("pkg/package.json"));
  assert.equal(pkg.name, "planloop");
  assert.deepEqual(pkg.exports["."], { types: "./planloop.d.ts", node: "./planloop.js", default: "./web/planloop.js" });
  for (const file of ["planloop.js", "planloop_bg.wasm", "planloop.d.ts", "web/planloop.js", "web/planloop_bg.wasm"]) {
    assert.ok(pkg.files.includes(file), `${file} is published`);
  }
});

test("the module runs its start function, which installs the panic hook", () => {
  // wasm-bindgen calls the start export once the instance exists; the hook is set there.
  assert.match(read("pkg/planloop.js"), /wasm\.__wbindgen_start\(\);/);
  assert.match(read("src/wasm/mod.rs"), /#\[wasm_bindgen\(start, private\)\]\s+fn start\(\) \{\s+console_error_panic_hook::set_once\(\);/);
});
