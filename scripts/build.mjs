// Builds the npm package in pkg/: the two wasm modules (the primitives, feature `core`,
// and the session engine, feature `session`), each through wasm-bindgen and wasm-opt,
// and the JS layer (src/wasm/js) bundled with their glue: the default entry with both
// modules inlined (ES module, CommonJS, classic script) and `planloop/slim`, which loads
// the binary modules (ES module, CommonJS), with their declarations.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";
import zopfli from "@gfx/zopfli";
import { build } from "esbuild";

const root = new URL("../", import.meta.url).pathname;
const target = `${root}target/planloop-wasm/`;
const run = (command, args, env = {}) => execFileSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });

// The primitives are the hot path: built for speed (opt-level 2), but with the inliner
// allowed functions up to a cost of 50 (opt-level 2 allows 225), so that the cold paths
// (the general reader, the schema interpreter, the trail) are not copied into each caller;
// the few small functions on the hot path that must stay inlined say so (`#[inline]`).
// Measured against plain opt-level 3, interleaved: 6.8 KB gzip smaller (83.1 → 76.3);
// validate and apply of valid and invalid payloads mostly 0.95–1.07 (at worst 1.21), the
// trail's calls 1.01–1.08. Opt-level 2 against 3, both at 50: 1.6 KB gzip smaller (69.5 →
// 67.9), validate and apply 0.93–1.07 and the trail's calls 0.97–1.05, interleaved (a
// threshold of 35 saved 1.2 KB more but made apply up to 17 % slower). The session engine: for size, its
// passes run until they gain nothing more (`--converge`, 1.1 KB gzip), but with the
// inliner allowed functions up to a cost of 50 (opt-level z allows about 5): built for
// size, a `String::push_str` or a `Vec::push` (cost 40) stays a call, and composing a
// prompt or deciding makes hundreds. Measured against plain z, interleaved: composePrompt
// 13 % and a decision 16–21 % faster, for 8.3 KB gzip (threshold 41: 7 % and 16 % for
// 7.1 KB; 75: 15 % and 20 % for 10.2 KB; opt-level s: 18 % and 22 % for 19.4 KB). And
// wasm-opt inlines a function with one caller only up to a size of 60 (by default, of
// any size): the module is as big (+0.2 %), but 13.9 KB gzip smaller (195.7 → 181.8),
// its code kept in more, smaller functions (none over 16 KB, where five held 13–40 KB),
// which compress better; composePrompt and a decision 0–2 % slower, interleaved (in a
// build 6.6 KB smaller, at 40: 15.1 KB for 0–6 %; at 0: 16.2 KB for 2–10 %; at 100: 8.6 KB
// for 0–4 %). Both: the lowest kilobyte of memory is the bottom of Rust's stack, which
// nothing reaches, so wasm-opt may fold small offsets into addresses
// (`--low-memory-unused`: 0.6 and 1.5 KB gzip).
const MODULES = [
  { feature: "core", name: "planloop", opt: "2", rustflags: ["-C", "llvm-args=-inline-threshold=50"], wasmOpt: ["-O3", "--low-memory-unused"] },
  {
    feature: "session",
    name: "planloop_session",
    opt: "z",
    rustflags: ["-C", "llvm-args=-inline-threshold=50"],
    wasmOpt: ["-Oz", "--converge", "--low-memory-unused", "--one-caller-inline-max-function-size=60"],
  },
];

rmSync(target, { recursive: true, force: true });
rmSync(`${root}pkg`, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
mkdirSync(`${root}pkg`, { recursive: true });
for (const { feature, name, opt, rustflags, wasmOpt } of MODULES) {
  console.log(`build: the ${feature} module`);
  // The module's flags after any the caller gave (cargo takes CARGO_ENCODED_RUSTFLAGS,
  // items split by 0x1f, over RUSTFLAGS, split by spaces).
  const given = process.env.CARGO_ENCODED_RUSTFLAGS ?? (process.env.RUSTFLAGS ?? "").split(" ").filter(Boolean).join("\x1f");
  const env = { CARGO_PROFILE_RELEASE_OPT_LEVEL: opt, CARGO_ENCODED_RUSTFLAGS: [given, ...rustflags].filter(Boolean).join("\x1f") };
  run("cargo", ["build", "--quiet", "--release", "--target", "wasm32-unknown-unknown", "--no-default-features", "--features", feature], env);
  copyFileSync(`${root}target/wasm32-unknown-unknown/release/planloop.wasm`, `${target}${name}.wasm`);
  run("wasm-bindgen", [`${target}${name}.wasm`, "--out-dir", target, "--target", "web", "--out-name", name]);
  // (Nothing reads the custom sections rustc and wasm-bindgen leave, `producers` and
  // `target_features`: 0.2 KB gzip each module.)
  const strip = ["--strip-producers", "--strip-target-features"];
  run("wasm-opt", [...wasmOpt, ...strip, "--enable-bulk-memory", "--enable-nontrapping-float-to-int", `${target}${name}_bg.wasm`, "-o", `${target}${name}_bg.wasm`]);
}

console.log("build: the JS layer");
// The glue wasm-bindgen wrote for each module (`planloop-glue/core`, `…/session`), and
// each module inlined (`planloop-wasm/core`, `…/session`): DEFLATE-compressed, then
// base64. Base64 of the binary itself gzips to 1.27 times the binary's gzip, so the
// default entry weighed a quarter more than the wasm it carries; compressed first, it
// weighs what the wasm's gzip does, and half as much unzipped (src/wasm/js/inline.ts).
// Zopfli writes plain DEFLATE 5 % smaller than zlib's level 9 (12 KB less for both
// modules), at a few seconds of build time; any inflater reads it.
const built = (name) => `${target}${name}`;
const deflate = (bytes) =>
  new Promise((resolve, reject) => zopfli.deflate(bytes, { numiterations: 15 }, (e, out) => (e ? reject(e) : resolve(out))));
const payloads = {};
for (const { name } of MODULES) {
  const wasm = readFileSync(`${built(name)}_bg.wasm`);
  const compressed = Buffer.from(await deflate(wasm));
  // The build checks what the package's inflaters will do with it.
  if (!inflateRawSync(compressed).equals(wasm)) throw new Error(`build: ${name}'s DEFLATE does not inflate to it`);
  payloads[name] = compressed.toString("base64");
}
const moduleName = (specifier) => (specifier.endsWith("/core") ? "planloop" : "planloop_session");
const glue = {
  name: "planloop-glue",
  setup(b) {
    b.onResolve({ filter: /^planloop-glue\// }, (args) => ({ path: `${built(moduleName(args.path))}.js` }));
    b.onResolve({ filter: /^planloop-wasm\// }, (args) => ({ path: args.path, namespace: "planloop-wasm" }));
    b.onLoad({ filter: /.*/, namespace: "planloop-wasm" }, (args) => ({ contents: payloads[moduleName(args.path)], loader: "text" }));
  },
};
const common = {
  bundle: true,
  target: "es2022",
  platform: "neutral",
  plugins: [glue],
  // Hosts without TextEncoder/TextDecoder (a bare `vm` context) get planloop's own, glue included.
  inject: [`${root}src/wasm/js/text.ts`],
  legalComments: "none",
  logOverride: { "empty-import-meta": "silent" },
};
const js = (entry) => `${root}src/wasm/js/${entry}.ts`;
// The default entry, wasm inlined: the API with its modules taken from inline.ts (in
// place of modules.ts, the registry slim's init fills). An ES module, CommonJS, and a
// classic script that sets the global `planloop` (and `module.exports` where there is one).
const inlined = {
  name: "planloop-inlined",
  setup(b) {
    b.onResolve({ filter: /^\.\/modules\.js$/ }, () => ({ path: js("inline") }));
  },
};
const defaults = { ...common, entryPoints: [js("api")], plugins: [glue, inlined] };
await build({ ...defaults, outfile: `${root}pkg/planloop.mjs`, format: "esm" });
await build({ ...defaults, outfile: `${root}pkg/planloop.cjs`, format: "cjs" });
await build({
  ...defaults,
  outfile: `${root}pkg/planloop.global.js`,
  format: "iife",
  globalName: "planloop",
  footer: { js: 'if (typeof module === "object" && module !== null && typeof module.exports === "object") module.exports = planloop;' },
});
// planloop/slim: the binary modules beside it.
await build({ ...common, entryPoints: [js("slim")], outfile: `${root}pkg/slim.mjs`, format: "esm" });
await build({ ...common, entryPoints: [js("slim")], outfile: `${root}pkg/slim.cjs`, format: "cjs" });
for (const { name } of MODULES) copyFileSync(`${target}${name}_bg.wasm`, `${root}pkg/${name}_bg.wasm`);

// Declarations: the types generated from the Rust types, then the API; one file for the
// ES module entries (.d.mts) and one for CommonJS (.d.ts, the package being CommonJS).
run("tsc", ["-p", "src/wasm/js/tsconfig.json"]);
const types = readFileSync(`${root}src/wasm/types.d.ts`, "utf8");
const declarations = (file) =>
  readFileSync(`${target}dts/js/${file}.d.ts`, "utf8")
    .replace(/^import [^;]*;\n/gm, "")
    .replace(/^export \* from [^;]*;\n/gm, "")
    .replace(/^export declare /gm, "export ");
const api = `${types}\n${declarations("api")}`;
const slim = `${api}\n${declarations("slim")}`;
for (const [name, text] of [["planloop", api], ["slim", slim]]) {
  writeFileSync(`${root}pkg/${name}.d.ts`, text);
  writeFileSync(`${root}pkg/${name}.d.mts`, text);
}
