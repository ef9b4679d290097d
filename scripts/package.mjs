// Completes pkg/ after scripts/build.mjs: the reference chain runner and its adapters
// (compiled from www/runner by tsc into target/www/runner, ES modules) plus a CommonJS
// build of each, the framework middleware (from www/middleware), and pkg/package.json
// with the exports map every host resolves through.
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { build } from "esbuild";

const root = new URL("../", import.meta.url);
const path = (relative) => new URL(relative, root).pathname;

const RUNNER = ["chain", "conversation", "goals", "usage", "openai", "langchain", "ai-sdk"];
cpSync(path("target/www/runner/"), path("pkg/runner/"), { recursive: true });
writeFileSync(path("pkg/runner/package.json"), JSON.stringify({ type: "module" }) + "\n");
// The CommonJS runner: each file on its own, its sibling imports pointed at the .cjs files.
const siblings = {
  name: "runner-siblings",
  setup(b) {
    b.onResolve({ filter: /^\.\/.*\.js$/ }, (args) => ({ path: args.path.replace(/\.js$/, ".cjs"), external: true }));
  },
};
for (const name of RUNNER) {
  await build({
    entryPoints: [path(`target/www/runner/${name}.js`)],
    outfile: path(`pkg/runner/${name}.cjs`),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node18",
    packages: "external",
    plugins: [siblings],
    legalComments: "none",
  });
  const dts = readFileSync(path(`target/www/runner/${name}.d.ts`), "utf8");
  writeFileSync(path(`pkg/runner/${name}.d.cts`), dts.replace(/(from "\.\/[\w-]+)\.js"/g, '$1.cjs"'));
}

// The framework middleware (www/middleware): each one file per module system at the
// package root, its helpers bundled in, planloop and the framework left to the host.
const MIDDLEWARE = ["ai-sdk", "langchain", "openai-agents"];
for (const name of MIDDLEWARE) {
  for (const [format, extension] of [["esm", "mjs"], ["cjs", "cjs"]]) {
    await build({
      entryPoints: [path(`target/www/middleware/${name}.js`)],
      outfile: path(`pkg/${name}.${extension}`),
      bundle: true,
      format,
      platform: "neutral",
      target: "es2022",
      packages: "external",
      legalComments: "none",
    });
  }
  const dts = readFileSync(path(`target/www/middleware/${name}.d.ts`), "utf8");
  for (const extension of ["d.ts", "d.mts"]) writeFileSync(path(`pkg/${name}.${extension}`), dts);
}
// The types the middleware's declarations import from their helpers: `./turn.js` (the
// state they keep), `./approval.js` (AI SDK 7's tool approval), `./sub-agent.js` (the AI
// SDK's sub-agent tool) and the prompt shapes it reads (`./prompt.js`).
const DECLARED = ["turn", "approval", "sub-agent", "prompt"];
for (const name of DECLARED) copyFileSync(path(`target/www/middleware/${name}.d.ts`), path(`pkg/${name}.d.ts`));

// An entry as both module systems resolve it.
const dual = (base, types = base) => ({
  import: { types: `./${types}.d.mts`, default: `./${base}.mjs` },
  require: { types: `./${types}.d.ts`, default: `./${base}.cjs` },
});
const runner = (name) => ({
  import: { types: `./runner/${name}.d.ts`, default: `./runner/${name}.js` },
  require: { types: `./runner/${name}.d.cts`, default: `./runner/${name}.cjs` },
});

// The package's metadata comes from Cargo.toml.
const cargo = readFileSync(path("Cargo.toml"), "utf8");
const field = (name) => cargo.match(new RegExp(`^${name} = "([^"]*)"`, "m"))[1];
const pkg = {
  name: "planloop",
  description: field("description"),
  version: field("version"),
  license: field("license"),
  repository: { type: "git", url: field("repository") },
  engines: { node: ">=18" },
  main: "planloop.cjs",
  module: "planloop.mjs",
  types: "planloop.d.ts",
  unpkg: "planloop.global.js",
  jsdelivr: "planloop.global.js",
  sideEffects: false,
  bin: { planloop: "bin/planloop.js" },
  exports: {
    ".": dual("planloop"),
    "./slim": dual("slim"),
    // The name the browser build had before planloop/slim.
    "./web": dual("slim"),
    "./global": "./planloop.global.js",
    "./planloop_bg.wasm": "./planloop_bg.wasm",
    "./planloop_session_bg.wasm": "./planloop_session_bg.wasm",
    "./ai-sdk": dual("ai-sdk"),
    "./langchain": dual("langchain"),
    "./openai-agents": dual("openai-agents"),
    "./runner": runner("chain"),
    "./runner/openai": runner("openai"),
    "./runner/langchain": runner("langchain"),
    "./runner/ai-sdk": runner("ai-sdk"),
    "./package.json": "./package.json",
  },
  // The adapters' and the middleware's libraries, for those who use them.
  peerDependencies: { "@langchain/core": ">=1.0.0 <2", "@langchain/langgraph": ">=1.0.0 <2", langchain: ">=1.0.0 <2", zod: "^3.25.0 || ^4.0.0", ai: ">=6.0.0 <8", "@openai/agents": ">=0.20.0 <1" },
  peerDependenciesMeta: {
    "@langchain/core": { optional: true },
    "@langchain/langgraph": { optional: true },
    langchain: { optional: true },
    zod: { optional: true },
    ai: { optional: true },
    "@openai/agents": { optional: true },
  },
};
pkg.files = [
  ...["planloop", "slim", ...MIDDLEWARE].flatMap((base) => [`${base}.mjs`, `${base}.cjs`, `${base}.d.ts`, `${base}.d.mts`]),
  "planloop.global.js",
  ...DECLARED.map((name) => `${name}.d.ts`),
  "planloop_bg.wasm",
  "planloop_session_bg.wasm",
  "runner/",
  "bin/",
  "THIRD_PARTY_LICENSES",
];
writeFileSync(path("pkg/package.json"), JSON.stringify(pkg, null, 2) + "\n");
for (const file of ["README.md", "LICENSE"]) copyFileSync(path(file), path(`pkg/${file}`));
writeFileSync(path("pkg/THIRD_PARTY_LICENSES"), thirdPartyLicenses());

/** The notices of what the package carries that others wrote: fflate's inflate in the
 * default entry; in the wasm modules, Rust's standard library and every crate planloop
 * depends on for wasm32 (proc macros, which only run at build time, aside), each with the
 * license files of its MIT option where it offers one, else all of them. */
function thirdPartyLicenses() {
  const sections = [
    ["fflate's inflate, in the default entry (planloop.mjs, planloop.cjs, planloop.global.js)", readFileSync(path("node_modules/fflate/LICENSE"), "utf8")],
  ];
  const sysroot = execFileSync("rustc", ["--print", "sysroot"], { encoding: "utf8" }).trim();
  const mit = readFileSync(`${sysroot}/share/doc/rust/licenses/MIT.txt`, "utf8").replace("<year> <copyright holders>", "The Rust Project Contributors");
  sections.push(["the Rust standard library (core, alloc, std), in the wasm modules: MIT OR Apache-2.0", mit]);
  const metadata = JSON.parse(
    execFileSync("cargo", ["metadata", "--format-version", "1", "--locked", "--filter-platform", "wasm32-unknown-unknown"], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 }),
  );
  const packages = new Map(metadata.packages.map((p) => [p.id, p]));
  const nodes = new Map(metadata.resolve.nodes.map((n) => [n.id, n]));
  const linked = new Set();
  const pending = [metadata.resolve.root];
  while (pending.length > 0) {
    for (const dep of nodes.get(pending.pop()).deps) {
      const crate = packages.get(dep.pkg);
      const normal = dep.dep_kinds.some((k) => k.kind === null);
      const macro = crate.targets.some((t) => t.kind.includes("proc-macro"));
      if (normal && !macro && !linked.has(dep.pkg)) {
        linked.add(dep.pkg);
        pending.push(dep.pkg);
      }
    }
  }
  const crates = [...linked].map((id) => packages.get(id)).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const crate of crates) {
    const dir = dirname(crate.manifest_path);
    let files = readdirSync(dir).filter((f) => /^(LICEN[CS]E|COPYING)/i.test(f)).sort();
    if (/\bMIT\b/.test(crate.license ?? "") && files.includes("LICENSE-MIT")) files = files.filter((f) => !/^(LICENSE-APACHE|COPYING)/i.test(f));
    if (files.length === 0) throw new Error(`package: ${crate.name} ${crate.version} ships no license file`);
    sections.push([`${crate.name} ${crate.version}, a dependency of the wasm modules: ${crate.license}`, files.map((f) => readFileSync(`${dir}/${f}`, "utf8").trim()).join("\n\n")]);
  }
  const intro = "The notices of the code by others that planloop's package carries, each under its license.\n\n";
  return intro + sections.map(([what, text]) => `${"=".repeat(80)}\n${what}\n${"=".repeat(80)}\n\n${text.trim()}\n`).join("\n");
}
