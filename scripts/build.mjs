// Builds the npm package in pkg/: the two wasm modules (the primitives, feature `core`,
// and the session engine, feature `session`), each through wasm-bindgen and wasm-opt,
// and the JS layer (src/wasm/js) bundled with their glue for Node (CommonJS, pkg/) and
// for browsers and bundlers (an ES module, pkg/web/), with one .d.ts each.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

const root = new URL("../", import.meta.url).pathname;
const target = `${root}target/planloop-wasm/`;
const run = (command, args, env = {}) => execFileSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });

// The primitives are the hot path: built for speed. The session engine: for size.
const MODULES = [
  { feature: "core", name: "planloop", opt: "3", wasmOpt: "-O3" },
  { feature: "session", name: "planloop_session", opt: "z", wasmOpt: "-Oz" },
];

rmSync(target, { recursive: true, force: true });
rmSync(`${root}pkg`, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
mkdirSync(`${root}pkg/web`, { recursive: true });
for (const { feature, name, opt, wasmOpt } of MODULES) {
  console.log(`build: the ${feature} module`);
  const env = { CARGO_PROFILE_RELEASE_OPT_LEVEL: opt };
  run("cargo", ["build", "--quiet", "--release", "--target", "wasm32-unknown-unknown", "--no-default-features", "--features", feature], env);
  copyFileSync(`${root}target/wasm32-unknown-unknown/release/planloop.wasm`, `${target}${name}.wasm`);
  run("wasm-bindgen", [`${target}${name}.wasm`, "--out-dir", target, "--target", "web", "--out-name", name]);
  run("wasm-opt", [wasmOpt, "--enable-bulk-memory", "--enable-nontrapping-float-to-int", `${target}${name}_bg.wasm`, "-o", `${target}${name}_bg.wasm`]);
}

console.log("build: the JS layer");
const glue = {
  name: "planloop-glue",
  setup(b) {
    b.onResolve({ filter: /^planloop-glue\// }, (args) => ({
      path: `${target}${args.path.endsWith("/core") ? "planloop" : "planloop_session"}.js`,
    }));
  },
};
const common = { bundle: true, target: "es2022", plugins: [glue], legalComments: "none", logOverride: { "empty-import-meta": "silent" } };
await build({ ...common, entryPoints: [`${root}src/wasm/js/node.ts`], outfile: `${root}pkg/planloop.js`, format: "cjs", platform: "node" });
await build({ ...common, entryPoints: [`${root}src/wasm/js/web.ts`], outfile: `${root}pkg/web/planloop.js`, format: "esm", platform: "neutral" });
for (const { name } of MODULES) {
  copyFileSync(`${target}${name}_bg.wasm`, `${root}pkg/${name}_bg.wasm`);
  copyFileSync(`${target}${name}_bg.wasm`, `${root}pkg/web/${name}_bg.wasm`);
}

// One declaration file per entry: the types generated from the Rust types, then the API.
run("tsc", ["-p", "src/wasm/js/tsconfig.json"]);
const types = readFileSync(`${root}src/wasm/types.d.ts`, "utf8");
const declarations = (file) =>
  readFileSync(`${target}dts/js/${file}.d.ts`, "utf8")
    .replace(/^import [^;]*;\n/gm, "")
    .replace(/^export \* from [^;]*;\n/gm, "")
    .replace(/^export declare /gm, "export ");
const api = declarations("api");
writeFileSync(`${root}pkg/planloop.d.ts`, `${types}\n${api}`);
writeFileSync(`${root}pkg/web/planloop.d.ts`, `${types}\n${api}\n${declarations("web")}`);
writeFileSync(`${root}pkg/web/package.json`, JSON.stringify({ type: "module" }, null, 2) + "\n");
