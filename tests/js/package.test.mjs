// The built package: its type declarations match the generated types and the runtime
// exports, every entry answers alike, the exports map names only files that ship, and the
// module starts with its panic hook installed. (tests/packaging runs it in every host.)
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";
import vm from "node:vm";

import { planloop } from "./support/pkg.mjs";

const root = new URL("../../", import.meta.url);
const require = createRequire(import.meta.url);
const read = (path) => readFileSync(new URL(path, root), "utf8");
const generated = read("src/wasm/types.d.ts");

for (const dts of ["pkg/planloop.d.ts", "pkg/planloop.d.mts", "pkg/slim.d.ts", "pkg/slim.d.mts"]) {
  test(`${dts} carries the types generated from the Rust types, and no any`, () => {
    const text = read(dts);
    assert.ok(text.includes(generated), `${dts} is older than src/wasm/types.d.ts: run make build`);
    assert.doesNotMatch(text.replace(/\/\*[\s\S]*?\*\//g, ""), /\bany\b/);
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

test("every entry answers alike: ES module, CommonJS, classic script, slim", async () => {
  const args = '{"todos":[{"id":"a","content":"b","status":"done"}]}';
  const expected = planloop.validateWriteTodos(args);
  const esm = await import(new URL("pkg/planloop.mjs", root));
  assert.deepEqual(esm.validateWriteTodos(args), expected);
  // A bare context has no TextEncoder/TextDecoder: planloop's own UTF-8 carries the text.
  const sandbox = {};
  vm.runInNewContext(read("pkg/planloop.global.js"), sandbox);
  const bare = sandbox.planloop;
  assert.deepEqual(JSON.parse(JSON.stringify(bare.validateWriteTodos(args))), expected);
  const wide = '{"todos":[{"id":"é","content":"ü 中文 🙂","status":"pending"},{"id":"x","content":"\\ud800 alone","status":"pending"}]}';
  assert.deepEqual(JSON.parse(JSON.stringify(bare.validateWriteTodos(wide))), planloop.validateWriteTodos(wide));
  const turn = (p) => {
    const session = new p.Session();
    session.beginTurn({ message: "Schreib es auf ✍️", nowMs: 0 });
    session.handleModelResponse({ text: "Fertig: ü 中文 🙂.", toolCalls: [] }, 1);
    return JSON.stringify([session.steps(), session.snapshot()]);
  };
  assert.equal(turn(bare), turn(planloop));
  const slim = await import(new URL("pkg/slim.mjs", root));
  assert.throws(() => slim.validateWriteTodos(args), { name: "PlanloopError", code: "invalid_state" });
  // A compiled WebAssembly.Module is taken as well as bytes.
  slim.initSync({ module: new WebAssembly.Module(readFileSync(new URL("pkg/planloop_bg.wasm", root))) });
  assert.deepEqual(slim.validateWriteTodos(args), expected);
  assert.deepEqual(slim.toolDefinitions(), planloop.toolDefinitions());
  // The session module was not given: a Session says what to load.
  assert.throws(() => new slim.Session(), { code: "invalid_state", message: /planloop_session_bg\.wasm/ });
  // init with only the primitives' module loads only that one (nothing fetched beside).
  await slim.default({ module: readFileSync(new URL("pkg/planloop_bg.wasm", root)) });
  assert.throws(() => new slim.Session(), { code: "invalid_state" });
});

test("planloop/slim's CommonJS build asks for the modules it cannot locate", async () => {
  const slim = require(new URL("pkg/slim.cjs", root).pathname);
  await assert.rejects(slim.default(), { name: "PlanloopError", code: "invalid_argument" });
  await slim.default({ module: readFileSync(new URL("pkg/planloop_bg.wasm", root)), session: readFileSync(new URL("pkg/planloop_session_bg.wasm", root)) });
  assert.equal(new slim.Session().todos().length, 0);
});

test("pkg/package.json: each entry for import and require, with its types; every file it names ships", () => {
  const pkg = JSON.parse(read("pkg/package.json"));
  assert.equal(pkg.name, "planloop");
  assert.deepEqual(pkg.exports["."], {
    import: { types: "./planloop.d.mts", default: "./planloop.mjs" },
    require: { types: "./planloop.d.ts", default: "./planloop.cjs" },
  });
  const named = new Set();
  const walk = (value) => (typeof value === "string" ? named.add(value.replace(/^\.\//, "")) : Object.values(value).forEach(walk));
  walk(pkg.exports);
  for (const field of ["main", "module", "types", "unpkg"]) named.add(pkg[field]);
  named.add(pkg.bin.planloop);
  named.delete("package.json"); // npm always ships it
  for (const file of named) {
    assert.ok(existsSync(new URL(`pkg/${file}`, root)), `${file} exists`);
    assert.ok(pkg.files.some((f) => file === f || (f.endsWith("/") && file.startsWith(f))), `${file} is published`);
  }
  for (const [peer, meta] of Object.entries(pkg.peerDependenciesMeta)) {
    assert.equal(meta.optional, true, `${peer} is optional`);
    assert.ok(pkg.peerDependencies[peer]);
  }
});

test("THIRD_PARTY_LICENSES carries the notice of what the wasm and the default entry include", () => {
  const text = read("pkg/THIRD_PARTY_LICENSES");
  const sections = new Map();
  for (const [, what, body] of text.matchAll(/^={80}\n(.+)\n={80}\n\n([^]*?)(?=\n={80}\n|(?![^]))/gm)) sections.set(what.split(/[ ,]/)[0], body);
  // fflate inflates the inlined modules; the rest is compiled into them.
  for (const name of ["fflate's", "the", "talc", "wasm-bindgen", "js-sys", "serde", "console_error_panic_hook"]) {
    assert.ok(sections.has(name), `${name} has a section`);
  }
  for (const [name, body] of sections) {
    assert.match(body, /Permission is hereby granted|This software is provided 'as-is'/, `${name}'s section holds its license text`);
  }
  assert.match(sections.get("the"), /Copyright \(c\) The Rust Project Contributors/);
});

test("the module runs its start function, which installs the panic hook", () => {
  // wasm-bindgen calls the start export once the instance exists; the hook is set there.
  assert.match(read("pkg/planloop.cjs"), /wasm\.__wbindgen_start\(\);/);
  assert.match(read("src/wasm/mod.rs"), /#\[wasm_bindgen\(start, private\)\]\s+fn start\(\) \{\s+console_error_panic_hook::set_once\(\);/);
});
