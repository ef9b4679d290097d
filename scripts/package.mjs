// Completes pkg/package.json after the two wasm-pack builds: one package that Node
// loads from its root and bundlers and browsers load from web/, with the reference chain
// runner and its adapters (compiled from www/runner) under planloop/runner.
import { copyFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";

const runner = new URL("../pkg/runner/", import.meta.url);
cpSync(new URL("../target/www/runner/", import.meta.url), runner, { recursive: true });
// The runner is ES modules; the package root is the CommonJS Node build.
writeFileSync(new URL("package.json", runner), JSON.stringify({ type: "module" }) + "\n");

// The package's metadata comes from Cargo.toml.
const cargo = readFileSync(new URL("../Cargo.toml", import.meta.url), "utf8");
const field = (name) => cargo.match(new RegExp(`^${name} = "([^"]*)"`, "m"))[1];
const path = new URL("../pkg/package.json", import.meta.url);
const pkg = {
  name: "planloop",
  description: field("description"),
  version: field("version"),
  license: field("license"),
  repository: { type: "git", url: field("repository") },
  main: "planloop.js",
  types: "planloop.d.ts",
  bin: { planloop: "bin/planloop.js" },
};
pkg.files = [
  "planloop.js", "planloop.d.ts", "planloop_bg.wasm", "planloop_session_bg.wasm",
  "web/planloop.js", "web/planloop.d.ts", "web/planloop_bg.wasm", "web/planloop_session_bg.wasm", "web/package.json",
  "runner/",
  "bin/",
];
pkg.exports = {
  ".": {
    types: "./planloop.d.ts",
    node: "./planloop.js",
    default: "./web/planloop.js",
  },
  "./web": {
    types: "./web/planloop.d.ts",
    default: "./web/planloop.js",
  },
  "./runner": { types: "./runner/chain.d.ts", default: "./runner/chain.js" },
  "./runner/openai": { types: "./runner/openai.d.ts", default: "./runner/openai.js" },
  "./runner/langchain": { types: "./runner/langchain.d.ts", default: "./runner/langchain.js" },
  "./runner/ai-sdk": { types: "./runner/ai-sdk.d.ts", default: "./runner/ai-sdk.js" },
  "./package.json": "./package.json",
};
writeFileSync(path, JSON.stringify(pkg, null, 2) + "\n");
for (const file of ["README.md", "LICENSE"]) copyFileSync(new URL(`../${file}`, import.meta.url), new URL(`../pkg/${file}`, import.meta.url));
