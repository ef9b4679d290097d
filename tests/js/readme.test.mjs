// The README's TypeScript examples compile under `tsc --strict`, run against the built
// package, and print exactly what the README says they print. Examples that import
// "planloop/web" run in headless Chromium, loaded twice (they show a page reload).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { startServer } from "../../scripts/serve.mjs";
import { launchChromium, webPackage } from "./support/browser.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));

const readme = readFileSync(`${root}README.md`, "utf8");
const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```\s*\nprints:\s*\n\s*```text\n([\s\S]*?)```/g)];

test("the README has its examples", () => {
  assert.equal(examples.length, 7);
});

const compilerOptions = { strict: true, target: "ES2022", typeRoots: [`${root}node_modules/@types`], outDir: "." };

function compile(dir, source, options) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/example.ts`, source);
  writeFileSync(`${dir}/tsconfig.json`, JSON.stringify({ compilerOptions: { ...compilerOptions, ...options }, files: ["example.ts"] }));
  execFileSync(`${root}node_modules/.bin/tsc`, ["-p", dir], { stdio: "inherit" });
}

function runInNode(dir, source) {
  const local = source
    .replace(/from "planloop\/runner"/g, `from ${JSON.stringify(`${root}pkg/runner/chain.js`)}`)
    .replace(/from "planloop"/g, `from ${JSON.stringify(`${root}pkg/planloop`)}`);
  compile(dir, local, {
    module: "commonjs",
    moduleResolution: "node",
    types: ["node"],
    // The runner's types name the package.
    paths: { planloop: [`${root}pkg/planloop`] },
  });
  writeFileSync(`${dir}/package.json`, JSON.stringify({ type: "commonjs" }));
  return execFileSync(process.execPath, [`${dir}/example.js`], { encoding: "utf8" });
}

async function runInBrowser(dir, source) {
  compile(dir, source, {
    module: "ES2022",
    moduleResolution: "bundler",
    lib: ["ES2022", "DOM", "ESNext.Disposable"],
    types: [],
    paths: { "planloop/web": [`${root}pkg/web/planloop`] },
  });
  const page = `<!doctype html><script type="importmap">{"imports":{"planloop/web":"/pkg/web/planloop.js"}}</script>
<script type="module">import("/example.js").then(() => console.log("example:done"), (e) => console.log("example:error " + e));</script>`;
  writeFileSync(`${dir}/index.html`, page);
  const files = {
    "/": `${dir}/index.html`,
    "/example.js": `${dir}/example.js`,
    ...webPackage(root),
  };
  const { server, url } = await startServer((path) => files[path] ?? null);
  let browser;
  try {
    browser = await launchChromium();
    const tab = await browser.newPage();
    let output = "";
    for (let load = 0; load < 2; load++) {
      const finished = new Promise((resolve) => {
        const onMessage = (message) => {
          if (message.type() !== "log") return; // not the example's output (a missing favicon, say)
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

examples.forEach(([, source, expected], index) => test(`README example ${index + 1} compiles, runs, and prints what the README shows`, async () => {
  const dir = `${root}target/readme/${index + 1}`;
  const browser = source.includes(`from "planloop/web"`);
  const output = browser ? await runInBrowser(dir, source) : runInNode(dir, source);
  assert.equal(output, expected);
}));
