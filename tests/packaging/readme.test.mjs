// The README's TypeScript examples, each as a user would run it after `npm install
// planloop`: written into a folder of the packaging project (project.mjs), compiled by
// `tsc --strict` against the installed package, run, and compared with the output the
// README shows. An example that starts with `// page.ts` runs in headless Chromium,
// bundled by esbuild and loaded twice (such examples show a page reload).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";
import { gzipSync } from "node:zlib";

import { build } from "esbuild";

import { startServer } from "../../scripts/serve.mjs";
import { launchChromium } from "../js/support/browser.mjs";
import { bin, project, root } from "./project.mjs";

const readme = readFileSync(`${root}README.md`, "utf8");
// A ```ts block followed by "prints:" and a ```text block (other code blocks are not run here).
const examples = [...readme.matchAll(/```ts\n((?:(?!```)[\s\S])*)```\s*\nprints:\s*\n\s*```text\n([\s\S]*?)```/g)];

test("the README has its examples", () => {
  assert.equal(examples.length, 20);
});

test("the README speaks to npm users: npm install first, no files they do not have", () => {
  const users = readme.slice(0, readme.indexOf("## Working on planloop"));
  assert.ok(users.indexOf("npm install planloop") > 0 && users.indexOf("npm install planloop") < users.indexOf("```ts"));
  assert.doesNotMatch(users, /\bpkg\/|src\/|seeds?\b|make (test|demo)/);
  assert.match(readme.slice(readme.indexOf("## Working on planloop")), /make demo[\s\S]*make test/);
});

test("every planloop entry and file the README names is in the installed package", () => {
  const named = new Set([...readme.matchAll(/(node_modules\/)?\bplanloop\/[a-z_.-]+(?:\/[a-z_.-]+)?/g)].map((m) => m[0].replace(/[.]$/, "")));
  assert.ok(named.size >= 8, [...named].join(", "));
  const resolve = createRequire(`${project}package.json`).resolve;
  for (const entry of named) {
    if (entry.startsWith("node_modules/")) assert.ok(existsSync(`${project}${entry}`), `${entry} is installed`);
    else assert.doesNotThrow(() => resolve(entry), `${entry} resolves`);
  }
});

test("the weights the README gives are the package's, within 5 %", async () => {
  const stated = readme.match(
    /importing only `validateWriteTodos` ships\s+about (\d+) KB, (\d+) KB gzipped; everything, about (\d+) KB, (\d+) KB gzipped/,
  );
  assert.ok(stated, "the README gives the weights");
  // As the README says they are measured: the installed package bundled by esbuild, minified.
  const weigh = async (contents) => {
    const out = await build({ stdin: { contents, resolveDir: project }, bundle: true, minify: true, format: "esm", write: false, logLevel: "error" });
    const bytes = out.outputFiles[0].contents;
    return [bytes.length, gzipSync(bytes, { level: 9 }).length];
  };
  const measured = [
    ...(await weigh('import { validateWriteTodos } from "planloop"; console.log(validateWriteTodos("{}"));')),
    ...(await weigh('import * as planloop from "planloop"; console.log(planloop);')),
  ];
  measured.forEach((bytes, i) => {
    const kb = Number(stated[i + 1]);
    assert.ok(Math.abs(bytes / 1000 - kb) <= kb * 0.05, `the README says ${kb} KB where the package weighs ${(bytes / 1000).toFixed(1)} KB`);
  });
});

function compile(dir, file, source, options) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/${file}`, source);
  const compilerOptions = { strict: true, target: "ES2022", skipLibCheck: false, outDir: ".", ...options };
  writeFileSync(`${dir}/tsconfig.json`, JSON.stringify({ compilerOptions, files: [file] }));
  execFileSync(bin("tsc"), ["-p", dir], { stdio: "inherit" });
}

function runInNode(dir, source) {
  compile(dir, "example.mts", source, { module: "nodenext", moduleResolution: "nodenext", types: ["node"], typeRoots: [`${root}node_modules/@types`] });
  // Its temp folder is the example's own folder, so what an example saves there (the
  // persistence example's file) goes when the folder does, not into the machine's.
  return execFileSync(process.execPath, [`${dir}/example.mjs`], { encoding: "utf8", cwd: dir, env: { ...process.env, TMPDIR: dir } });
}

async function runInBrowser(dir, source) {
  compile(dir, "example.ts", source, { module: "ES2022", moduleResolution: "bundler", lib: ["ES2022", "DOM"], types: [], noEmit: true });
  await build({ entryPoints: [`${dir}/example.ts`], outfile: `${dir}/example.js`, bundle: true, format: "esm", platform: "browser", logLevel: "error" });
  const page = `<!doctype html><link rel="icon" href="data:,">
<script type="module">import("/example.js").then(() => console.log("example:done"), (e) => console.log("example:error " + e));</script>`;
  writeFileSync(`${dir}/index.html`, page);
  const files = { "/": `${dir}/index.html`, "/example.js": `${dir}/example.js` };
  const { server, url } = await startServer((path) => files[path] ?? null);
  let browser;
  try {
    browser = await launchChromium();
    const tab = await browser.newPage();
    let output = "";
    for (let load = 0; load < 2; load++) {
      const finished = new Promise((resolve) => {
        const onMessage = (message) => {
          if (message.type() !== "log") return; // not the example's output
          const text = message.text();
          if (text.startsWith("example:")) {
            tab.off("console", onMessage);
            resolve(text);
          } else {
            output += `${text}\n`;
          }
        };
        tab.on("console", onMessage);
      });
      await tab.goto(url);
      assert.equal(await finished, "example:done");
    }
    return output;
  } finally {
    await browser?.close();
    server.close();
  }
}

test("the README's editor-plugin quick start: its main.ts, bundled by its esbuild command, loads as a plugin", async () => {
  const section = readme.slice(readme.indexOf("## Quick start: an editor plugin"));
  const source = section.match(/```ts\n\/\/ main\.ts\n([\s\S]*?)```/)[1];
  const command = section.match(/```sh\nnpx esbuild (.*)\n```/)[1].split(" ");
  const dir = `${project}readme-plugin`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/main.ts`, source);
  execFileSync(bin("esbuild"), command, { cwd: dir, stdio: "inherit" });
  const module = { exports: {} };
  const host = { Plugin: class Plugin {} };
  const require = (name) => (name === "obsidian" ? host : assert.fail(`the plugin asked the host for ${name}`));
  new Function("module", "exports", "require", readFileSync(`${dir}/main.js`, "utf8"))(module, module.exports, require);
  const plugin = new module.exports.default();
  assert.ok(plugin instanceof host.Plugin);
  assert.deepEqual(plugin.session.todos(), []);
});

examples.forEach(([, source, expected], index) =>
  test(`README example ${index + 1} compiles against the installed package, runs, and prints what the README shows`, async () => {
    const dir = `${project}readme-${index + 1}`;
    const output = source.startsWith("// page.ts") ? await runInBrowser(dir, source) : runInNode(dir, source);
    assert.equal(output, expected);
  }),
);
