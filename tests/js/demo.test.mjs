// `make demo` keeps showing what it promises: the refused early stop; a turn that pauses
// for approval, takes an approval and a rejection, and resumes to a final answer; a
// plan paused at the iteration limit, saved, restored in a fresh Session, continued; and
// the page's sub-agent scenario through the reference runner.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const demo = fileURLToPath(new URL("../../www/demo-cli.mjs", import.meta.url));

test("the demo runs and shows each mechanism", () => {
  const output = execFileSync(process.execPath, [demo], { encoding: "utf8" });
  const part3 = output.slice(output.indexOf("part 3"));
  for (const expected of [
    /planloop REFUSES the early stop \(plan_unfinished, attempt 1 of 5\)/,
    /planloop finalizes \(final_answer\): "Plugins grew 33%/,
  ]) assert.match(output, expected);
  for (const expected of [
    /planloop PAUSES the turn: 2 actions await approval \(steps used 2, remaining 18\)/,
    /user approves act-1-1[^]*1 still waiting/,
    /The user rejected this action: Don't ping the whole team/,
    /the turn RESUMES with runTools[^]*host runs move_notes: \[tool_result:move_notes\] moved 2 notes/,
    /planloop finalizes \(final_answer\): "Both Q3 drafts are in archive\/q3\/\./,
    /TurnPaused \(approval, 2 pending\)[^]*TurnResumed[^]*TurnCompleted/,
  ]) assert.match(part3, expected);
  const part4 = output.slice(output.indexOf("part 4"));
  for (const expected of [
    /planloop stops the turn \(pause, max_iterations\)/,
    /saved \d+ bytes to .*session\.json\n   plan plan_\d+: status paused, current_step_index 0, iteration_count 3/,
    /user: continue[^]*\| <resume>[^]*\| Next: Fetch the three annual reports/,
    /step completed: step_1 \(by marker\)[^]*step completed: step_2 \(by marker\)[^]*step completed: step_3 \(by final_answer\)/,
    /plan plan_\d+: completed, 3\/3 steps, 6 model calls across both runs/,
  ]) assert.match(part4, expected);
  // The file it saved to is gone with its folder: the demo leaves nothing behind.
  const saved = part4.match(/saved \d+ bytes to (.*session\.json)/)[1];
  assert.equal(existsSync(dirname(saved)), false, `${dirname(saved)} is left behind`);
});

test("the demo plays the sub-agent scenario: the child's steps nest under the delegate call", () => {
  const output = execFileSync(process.execPath, [demo], { encoding: "utf8" });
  const part5 = output.slice(output.indexOf("part 5"));
  const at = (pattern) => {
    const match = pattern.exec(part5);
    assert.ok(match, `${pattern} is not in part 5:\n${part5}`);
    return match.index;
  };
  // The sub-agent works between the delegate call and its capsule, in its own conversation.
  const delegated = at(/\nmodel: "Two plugins\. Handing the conflict research to a sub-agent\." \+ write_todos \+ delegate\n/);
  const briefed = at(/\n {6}planloop tells the sub-agent d1: <delegation>\n[^]*\| Task: Find out how Sync A and Sync B resolve edit conflicts/);
  const read = at(/\n {9}read_note: Sync A: the last write wins/);
  const capsule = at(/\n {3}delegate: Sub-agent capsule \(done\)\n[^]*\| Summary: Sync A: the last write wins[^]*\| - read_note ok: [^]*\| - search_issues ok: /);
  assert.ok(delegated < briefed && briefed < read && read < capsule);
  assert.match(part5, /planloop finalizes \(final_answer\): "Sync A handles conflicts better: [^"]*decisions\/sync-plugin\.md\."/);
  const trail = part5.slice(at(/\nthe trail/), at(/\nthe todo list/));
  const nested = trail.split("\n").filter((line) => line.includes(" d1 › "));
  assert.deepEqual(nested.filter((line) => /\[(Act|Obs)\]/.test(line)).map((line) => line.trim().replace(/ ok: .*/, "")), [
    '[Act] d1 › read_note("plugins/sync-a.md")',
    "[Obs] d1 › read_note",
    '[Act] d1 › search_issues("conflict")',
    "[Obs] d1 › search_issues",
  ]);
  // Nested between the parent's delegate call and the capsule it got back.
  assert.match(trail, /\[Act\] delegate\("Find out how Sync A[^\n]*\n(   \[\w+\] d1 › [^\n]*\n)+   \[Plan\] research: sub-agent d1: done\n[^]*\[Obs\] delegate ok: Sub-agent capsule \(done\)/);
  assert.match(part5, /the todo list:\n   \[x\] list {6}[^\n]*\n   \[x\] research  Find out how each plugin resolves edit conflicts\n   \[x\] note {6}/);
});
