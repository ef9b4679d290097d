// `make demo-live` in Chromium: the demo page's runner drives the tiny local model through
// the demo server's /v1 pass-through. The page must say which model it is and show tokens
// per second; every approval card is approved; the turn must end in a way the page shows.
// Only the page is checked, not what the model does. Not part of `make test` (a whole turn
// of the model takes about 30 s here): `node --test tests/live/demo-live.check.mjs`.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, test } from "node:test";

import { startLiveDemo } from "../../scripts/demo-live.mjs";
import { launchChromium, watchErrors } from "../js/support/browser.mjs";

const shots = new URL("../../target/screenshots/", import.meta.url).pathname;
let demo;
let browser;

before(async () => {
  mkdirSync(shots, { recursive: true });
  demo = await startLiveDemo(0);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

test("demo-live: the page names the tiny local model, shows tokens per second, and ends its turn", { timeout: 120_000 }, async (t) => {
  const started = performance.now();
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
  const errors = watchErrors(page);
  await page.goto(demo.url);
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.locator("#scenario").inputValue(), "live");
  assert.match(await page.locator("#scenario option:checked").textContent(), /A tiny local model \(SmolLM2-135M\)/);
  await page.click("#start");
  // Approve whatever the model asks for, until the turn ends.
  const ended = page.locator("li.final, li.stop, .card.review");
  while ((await ended.count()) === 0) {
    const card = page.locator(".card.approval:not(.decided) button.approve").first();
    await Promise.race([card.waitFor({ timeout: 100_000 }), ended.first().waitFor({ timeout: 100_000 })]);
    if ((await card.count()) > 0) await card.click();
  }
  const stats = await page.locator("#live-stats").textContent();
  assert.match(stats, /A tiny local model \(SmolLM2-135M\).*call \d+: \d+ tokens in [\d.]+ s.*tokens\/s/);
  await page.screenshot({ path: `${shots}demo-live.png`, fullPage: true });
  t.diagnostic(`${stats}`);
  t.diagnostic(`page: ${(await page.locator("#transcript li").allTextContents()).length} transcript entries; ${demo.log.length} model calls; ${((performance.now() - started) / 1000).toFixed(1)} s`);
  assert.deepEqual(errors, []);
});
