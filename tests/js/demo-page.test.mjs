// End to end in Chromium: the demo page served on 127.0.0.1, each scenario played by
// clicking as a user would. Every step asserts what the page shows; any console error
// fails the test; screenshots go to target/screenshots for a person to look at.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, test } from "node:test";


import { startDemoServer } from "../../scripts/serve.mjs";
import { launchChromium, watchErrors } from "./support/browser.mjs";

const shots = new URL("../../target/screenshots/", import.meta.url).pathname;
let browser;
let demo;

before(async () => {
  mkdirSync(shots, { recursive: true });
  demo = await startDemoServer(0);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  demo?.server.close();
});

/** A fresh page (its own localStorage) that records console errors. */
async function open() {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${demo.url}?fast`);
  await page.waitForSelector("body[data-ready=true]");
  return { page, errors };
}

async function play(page, scenario) {
  await page.selectOption("#scenario", scenario);
  await page.click("#start");
}

const texts = (page, selector) => page.locator(selector).allTextContents();

test("a refused early stop: the nudge shows, the checklist completes, the trail is tagged", async () => {
  const { page, errors } = await open();
  await play(page, "early-stop");
  await page.waitForSelector("li.final");
  const nudges = await texts(page, "li.nudge");
  assert.equal(nudges.length, 1);
  assert.match(nudges[0], /planloop tells the model<plan-continuation>/);
  assert.deepEqual(await page.locator("#checklist li").evaluateAll((items) => items.map((li) => li.className)), ["completed", "completed", "completed"]);
  assert.equal(await page.locator("#progress-bar").evaluate((bar) => bar.style.width), "100%");
  assert.match((await texts(page, "li.final"))[0], /plugins grew 33%/);
  const rolling = await texts(page, "#trail li");
  assert.equal(rolling.length, 4);
  await page.selectOption("#trail-mode", "full");
  const full = await texts(page, "#trail li");
  assert.ok(full.length > 4 && ["[Plan]", "[Act]", "[Obs]", "[Reflect]"].every((tag) => full.some((line) => line.startsWith(tag))), full.join("\n"));
  await page.screenshot({ path: `${shots}early-stop.png`, fullPage: true });
  assert.deepEqual(errors, []);
});

test("a double click on Start starts one run, not two", async () => {
  const { page, errors } = await open();
  await page.selectOption("#scenario", "early-stop");
  await page.dblclick("#start");
  await page.waitForSelector("li.final");
  await page.waitForSelector("body[data-busy=false]");
  const stops = await texts(page, "li.stop");
  assert.deepEqual(stops, [], stops.join("\n"));
  assert.deepEqual(await page.locator("#checklist li").evaluateAll((items) => items.map((li) => li.className)), ["completed", "completed", "completed"]);
  assert.equal(await page.locator("li.final").count(), 1);
  assert.equal(await page.locator("li.user").count(), 1, "one message was sent");
  assert.deepEqual(errors, []);
});

test("approval cards really pause the loop: approve, edit, reject with a message", async () => {
  const { page, errors } = await open();
  await play(page, "approvals");
  await page.waitForSelector(".card.approval >> nth=2");
  await page.screenshot({ path: `${shots}approvals-waiting.png`, fullPage: true });
  assert.equal(await page.locator("li.final").count(), 0, "nothing goes on while the cards wait");
  const card = (tool) => page.locator(`.card.approval[data-tool=${tool}]`);
  await card("move_notes").locator("button.approve").click();
  await card("delete_note").locator("input").fill("Keep it, I still need those ideas.");
  await card("delete_note").locator("button.reject").click();
  assert.equal(await page.locator("li.final").count(), 0, "one card still waits");
  await card("send_message").locator("button.edit").click();
  await card("send_message").locator("textarea").fill('{"channel":"#finance","text":"Q3 drafts are archived."}');
  await card("send_message").locator("button.approve-edited").click();
  await page.waitForSelector("li.final");
  const tools = await texts(page, "li.tool");
  assert.ok(tools.some((t) => t.startsWith("delete_note (error)") && t.includes("The user rejected this action: Keep it, I still need those ideas.")), tools.join("\n"));
  assert.ok(tools.some((t) => t.startsWith("move_notes") && t.includes("moved to archive/q3/")), tools.join("\n"));
  const calls = await texts(page, "li.assistant");
  assert.ok(calls.some((t) => t.includes("send_message")));
  assert.equal(await page.locator(".card.decided").count(), 3);
  await page.screenshot({ path: `${shots}approvals-done.png`, fullPage: true });
  assert.deepEqual(errors, []);
});

test("plan review: the plan comes to the user first, and the reply reaches the model as feedback", async () => {
  const { page, errors } = await open();
  await play(page, "plan-review");
  await page.waitForSelector(".card.review");
  assert.match(await page.locator(".card.review pre").textContent(), /^Plan review\n\nGoal: Summarize this month's meeting notes\n\n1\. Find/);
  assert.equal(await page.locator("li.final").count(), 0);
  assert.equal(await page.inputValue("#message"), "OK, but skip the action items.");
  await page.screenshot({ path: `${shots}plan-review.png`, fullPage: true });
  await page.click("#send");
  await page.waitForSelector("li.final");
  const nudges = await texts(page, "li.nudge");
  assert.ok(nudges.some((n) => n.includes("<plan_feedback>") && n.includes("user_feedback:\nOK, but skip the action items.")), nudges.join("\n"));
  assert.deepEqual(errors, []);
});

test("a stop at the iteration limit, a reload, and \"continue\" finish the plan", async () => {
  const { page, errors } = await open();
  await play(page, "limit-and-continue");
  await page.waitForSelector("li.stop");
  assert.match((await texts(page, "li.stop"))[0], /Paused at the iteration limit\. Done so far: 0\/3 steps\. Next: Fetch the three annual reports\. Say "continue" to resume\./);
  assert.deepEqual(await page.locator("#checklist li").evaluateAll((items) => items.map((li) => li.className)), ["running", "pending", "pending"]);
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await page.locator("li.stop").count(), 1, "the transcript came back");
  assert.match((await texts(page, "li.nudge")).at(-1), /restored from localStorage/);
  assert.deepEqual(await page.locator("#checklist li").evaluateAll((items) => items.map((li) => li.className)), ["running", "pending", "pending"]);
  assert.equal(await page.inputValue("#message"), "continue");
  await page.click("#send");
  await page.waitForSelector("li.final");
  assert.ok((await texts(page, "li.nudge")).some((n) => n.includes("<resume>")));
  assert.deepEqual(await page.locator("#checklist li").evaluateAll((items) => items.map((li) => li.className)), ["completed", "completed", "completed"]);
  await page.screenshot({ path: `${shots}limit-and-continue.png`, fullPage: true });
  assert.deepEqual(errors, []);
});

test("a sub-agent: its conversation nests in the transcript, its item completes, its steps nest in the trail", async () => {
  const { page, errors } = await open();
  await play(page, "sub-agent");
  await page.waitForSelector("li.final");
  const lines = await page.locator("#transcript li").evaluateAll((items) => items.map((li) => ({ agent: li.dataset.agent ?? null, text: li.textContent })));
  const at = (agent, pattern) => {
    const i = lines.findIndex((line) => line.agent === agent && pattern.test(line.text));
    assert.ok(i >= 0, `${pattern} (${agent}) is not in:\n${lines.map((l) => `${l.agent ?? "-"} ${l.text}`).join("\n")}`);
    return i;
  };
  // The sub-agent's lines, under its delegate call, between the call and its capsule.
  const delegated = at(null, /^model[^]*→ delegate\(\{"goal":"Find out how Sync A/);
  const briefed = at("d1", /^planloop tells sub-agent d1<delegation>[^]*Task: Find out how Sync A/);
  const read = at("d1", /^d1 › read_noteSync A: the last write wins/);
  const said = at("d1", /^sub-agent d1Sync A: the last write wins and the losing version/);
  const capsule = at(null, /^delegateSub-agent capsule \(done\)/);
  assert.ok(delegated < briefed && briefed < read && read < said && said < capsule, JSON.stringify({ delegated, briefed, read, said, capsule }));
  assert.equal(await page.locator("#transcript li[data-agent=d1]").count(), 10);
  assert.match((await texts(page, "li.final"))[0], /^final answerSync A handles conflicts better/);
  // The parent's checklist: the delegated item was completed by the sub-agent's capsule.
  assert.deepEqual(await page.locator("#checklist li").evaluateAll((items) => items.map((li) => [li.className, li.textContent])), [
    ["completed", "List the sync plugins in the vault"],
    ["completed", "Find out how each plugin resolves edit conflicts"],
    ["completed", "Write the recommendation note"],
  ]);
  await page.selectOption("#trail-mode", "full");
  const trail = await texts(page, "#trail li");
  const from = trail.findIndex((line) => line.startsWith('[Act] delegate("Find out how Sync A'));
  const to = trail.indexOf("[Obs] delegate ok: Sub-agent capsule (done)");
  assert.ok(from >= 0 && to > from, trail.join("\n"));
  const nested = trail.slice(from + 1, to).filter((line) => line.includes("d1 › "));
  assert.ok(['[Act] d1 › read_note("plugins/sync-a.md")', '[Act] d1 › search_issues("conflict")'].every((line) => nested.includes(line)), trail.join("\n"));
  assert.ok(trail.slice(from + 1, to).includes("[Plan] research: sub-agent d1: done"), trail.join("\n"));
  await page.screenshot({ path: `${shots}sub-agent.png`, fullPage: true });
  assert.deepEqual(errors, []);
});
