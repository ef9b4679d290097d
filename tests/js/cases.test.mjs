// The shared cases (support/cases.mjs) against the Node build, each as a test, and all of
// them against the web build in Chromium, loaded by a page as a browser would load it.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { test } from "node:test";

import { startServer } from "../../scripts/serve.mjs";
import { launchChromium, watchErrors, webPackage } from "./support/browser.mjs";
import { cases, runCases } from "./support/cases.mjs";
import { planloop } from "./support/pkg.mjs";

for (const [name, run] of Object.entries(cases)) {
  test(`Node: ${name}`, () => run(planloop));
}

test("Chromium: every shared case passes against planloop/slim (binary wasm), with no console error", async () => {
  const root = new URL("../../", import.meta.url).pathname;
  mkdirSync(`${root}target/cases`, { recursive: true });
  writeFileSync(`${root}target/cases/index.html`, "<!doctype html><title>planloop cases</title><link rel=\"icon\" href=\"data:,\">");
  const files = {
    "/": `${root}target/cases/index.html`,
    "/cases.mjs": `${root}tests/js/support/cases.mjs`,
    ...webPackage(root),
  };
  const { server, url } = await startServer((path) => files[path] ?? null);
  let browser;
  try {
    browser = await launchChromium();
    const page = await browser.newPage();
    const problems = watchErrors(page);
    await page.goto(url);
    const failures = await page.evaluate(async () => {
      const planloop = await import("/pkg/slim.mjs");
      await planloop.default();
      const { runCases } = await import("/cases.mjs");
      return runCases(planloop);
    });
    assert.deepEqual(failures, []);
    assert.deepEqual(problems, []);
  } finally {
    await browser?.close();
    server.close();
  }
});

test("the shared cases run in Node as one batch too", () => assert.deepEqual(runCases(planloop), []));
