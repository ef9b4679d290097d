// `make demo` keeps showing what it promises: the refused early stop, and a turn that
// pauses for approval, takes an approval and a rejection, and resumes to a final answer.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
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
});
