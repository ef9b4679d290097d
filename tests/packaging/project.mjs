// The packaging test's project: `npm pack` of pkg/, installed from the tarball into
// target/packaging/project (as a user's `npm install planloop` would), and the helpers
// the tests use to copy a fixture in, build it with its own tool, and run it.
// `node tests/packaging/project.mjs` prepares the project (make test does it first).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { startServer } from "../../scripts/serve.mjs";
import { launchChromium, watchErrors } from "../js/support/browser.mjs";
import { sources } from "./check.mjs";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const project = `${root}target/packaging/project/`;
export const bin = (name) => `${root}node_modules/.bin/${name}`;
export const DENO = `${root}node_modules/@deno/linux-x64-glibc/deno`;
export const BUN = `${root}node_modules/@oven/bun-linux-x64/bin/bun`;

/** Packs pkg/ and installs the tarball into a fresh project; returns the tarball's file list. */
export function prepare() {
  const packed = `${root}target/packaging/`;
  rmSync(packed, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  const [{ filename, files }] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", packed, `${root}pkg`], { cwd: root }));
  writeFileSync(`${project}package.json`, JSON.stringify({ name: "planloop-packaging", private: true }, null, 2) + "\n");
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", `${packed}${filename}`], { cwd: project });
  return files.map((f) => f.path);
}

/** Runs a command; its stdout, or an error carrying its output. */
export function run(command, args, { cwd = project, env = {} } = {}) {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });
  } catch (error) {
    throw new Error(`${command} ${args.join(" ")} failed:\n${error.stdout ?? ""}\n${error.stderr ?? error.message}`);
  }
}

/** Copies fixture `name` into the project (as folder `as`), with the shared check beside
 * it in each module format. */
export function fixture(name, as = name) {
  const dir = `${project}${as}/`;
  rmSync(dir, { recursive: true, force: true });
  cpSync(`${root}tests/packaging/fixtures/${name}/`, dir, { recursive: true });
  for (const [file, text] of Object.entries(sources)) writeFileSync(`${dir}${file}`, text);
  return dir;
}

/** The files under `dir` by URL path, for a static server. */
function served(dir, base = "/") {
  const files = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) Object.assign(files, served(`${dir}${entry.name}/`, `${base}${entry.name}/`));
    else files[`${base}${entry.name}`] = `${dir}${entry.name}`;
  }
  files[base] ??= files[`${base}index.html`];
  return files;
}

/** Serves `dir` (and the project's node_modules under /node_modules/), opens `page` in
 * Chromium and waits for the page to report `globalThis.__planloop`: `{result}` or `{error}`.
 * Resolves to what it reported and the console errors seen. */
export async function inChromium(dir, page = "/") {
  const files = { ...served(`${project}node_modules/planloop/`, "/node_modules/planloop/"), ...served(dir) };
  const { server, url } = await startServer((path) => files[path] ?? null);
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const problems = watchErrors(tab);
    await tab.goto(new URL(page, url).href);
    await tab.waitForFunction(() => globalThis.__planloop !== undefined, null, { timeout: 30_000 });
    const reported = await tab.evaluate(() => globalThis.__planloop);
    return { reported, problems };
  } finally {
    await browser.close();
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = prepare();
  console.log(`packaging: planloop packed (${files.length} files) and installed into ${project}`);
}
