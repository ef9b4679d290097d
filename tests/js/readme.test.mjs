// The README's TypeScript example compiles under `tsc --strict`, runs against the built
// package, and prints exactly what the README says it prints.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

const readme = readFileSync(`${root}README.md`, "utf8");
const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```\s*\nprints:\s*\n\s*```text\n([\s\S]*?)```/g)];

test("the README has its examples", () => {
  assert.equal(examples.length, 4);
});

examples.forEach(([, source, expected], index) => test(`README example ${index + 1} compiles, runs, and prints what the README shows`, () => {
  const dir = `${root}target/readme/${index + 1}`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/example.ts`, source.replace(/from "planloop"/g, `from ${JSON.stringify(`${root}pkg/planloop`)}`));
  writeFileSync(
    `${dir}/tsconfig.json`,
    JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", types: ["node"], typeRoots: [`${root}node_modules/@types`], outDir: "." },
      files: ["example.ts"],
    }),
  );
  writeFileSync(`${dir}/package.json`, JSON.stringify({ type: "commonjs" }));
  execFileSync(`${root}node_modules/.bin/tsc`, ["-p", dir], { stdio: "inherit" });
  const output = execFileSync(process.execPath, [`${dir}/example.js`], { encoding: "utf8" });
  assert.equal(output, expected);
}));
