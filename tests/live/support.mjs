// What the live-model tests share: the server's lifetime, the notes task and its two tools,
// a host's steering of requests, and the invariants any model output must keep. The model
// is tiny and its plans are poor; the tests never check that the task gets done, only that
// planloop stays in bounds whatever the model says.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";

import { DEFAULT_MODEL, startServer } from "./server.mjs";

/** Why a turn may end (planloop's `ExitReason`), and how (a `TurnOutcome`'s type). */
export const EXIT_REASONS = ["final_answer", "safety_valve", "stuck", "max_iterations", "timeout"];
export const ENDINGS = ["finalize", "pause", "fail", "awaitPlanReview"];

/** A short turn: the write tool is held for approval, the read tool is not. */
export const CONFIG = { maxIterations: 3, tools: { read: ["read_note"] } };
export const MAX_TOKENS = 96;
export const MESSAGE = "Read notes/q3.md, then save a one-line summary of it to notes/summary.md.";
export const PROMPT = { base: "You are a notes assistant. Use the tools to read and write notes." };

const pathOnly = { type: "object", properties: { path: { type: "string", description: "The note's path, such as notes/a.md." } }, required: ["path"], additionalProperties: false };
const pathAndText = {
  type: "object",
  properties: { path: { type: "string", description: "The note's path." }, content: { type: "string", description: "The whole new text of the note." } },
  required: ["path", "content"],
  additionalProperties: false,
};
export const READ = { name: "read_note", description: "Read a note.", parameters: pathOnly };
export const WRITE = { name: "write_note", description: "Write a note (replaces its text).", parameters: pathAndText };
export const NOTE = "Q3: plugins 1.2M (up from 0.9M), hosting 0.8M.";

/** Starts the server on a free port (in this process: it cannot outlive the test run). */
export async function startLive() {
  assert.ok(existsSync(DEFAULT_MODEL), `${DEFAULT_MODEL} is missing: run scripts/setup.sh`);
  return startServer();
}

/** A fetch that steers requests as a host may: `max_tokens` on each (unless the client set
 * one), and (with `steer`) the
 * first request that offers `WRITE` must call it, so every run reaches an approval whatever
 * the model prefers. The rest is up to the model. */
export function steeringFetch({ steer = true } = {}) {
  let steered = !steer;
  return (url, init) => {
    if (typeof init?.body !== "string") return fetch(url, init);
    const body = JSON.parse(init.body);
    body.max_tokens ??= MAX_TOKENS;
    if (!steered && body.tools?.some((t) => t.function?.name === WRITE.name)) {
      body.tool_choice = { type: "function", function: { name: WRITE.name } };
      steered = true;
    }
    return fetch(url, { ...init, body: JSON.stringify(body) });
  };
}

/** The calls the server made since log entry `from`, as "id name". */
export function served(live, from) {
  return live.log.slice(from).flatMap((entry) => entry.calls.map((c) => `${c.id} ${c.name}`));
}

/** What `work` returns, or the code and message of what it throws: two sessions that decide
 * alike refuse alike too. */
function outcome(work) {
  try {
    return { value: work() };
  } catch (error) {
    return { error: { name: error.name, code: error.code, message: error.message } };
  }
}

/**
 * `restore(snapshot)` decides as the session it was taken from: both begin the same turn,
 * are given the same live model response, and must answer alike and end in the same state.
 * `saved` is the snapshot as a host kept it (JSON). Returns the decision (or refusal).
 */
export async function assertRestoreDecidesAlike({ Session, session, saved, model, tools }) {
  const restored = Session.restore(JSON.parse(saved));
  const pair = [session, restored];
  const nowMs = Date.now();
  const starts = pair.map((s) => outcome(() => s.beginTurn({ message: "Go on.", nowMs })));
  assert.deepEqual(starts[1], starts[0], "beginTurn after restore");
  const start = starts[0].value;
  assert.ok(start, `beginTurn refused: ${JSON.stringify(starts[0].error)}`);
  const prompts = pair.map((s) => s.systemPrompt(PROMPT, nowMs).prompt);
  assert.equal(prompts[1], prompts[0], "the system prompt after restore");
  const offered = start.next.toolsWithheld ? [] : [...session.toolDefinitions(), ...tools];
  const response = await model.complete({ messages: [{ role: "system", content: prompts[0] }, { role: "user", content: start.message }], tools: offered });
  const decisions = pair.map((s) => outcome(() => s.handleModelResponse(response, nowMs + 1)));
  assert.deepEqual(decisions[1], decisions[0], "the decision on the same response after restore");
  assert.deepEqual(restored.snapshot(), session.snapshot(), "the state after the same response");
  return decisions[0];
}

/** A decision (or refusal) in a line, for the test's diagnostics. */
export function summary(result) {
  if (result.error) return `refused (${result.error.code ?? result.error.name})`;
  const d = result.value;
  return [d.type, d.exitReason, d.calls?.map((c) => c.name).join("+")].filter(Boolean).join(" ");
}

/** The model calls since log entry `from`, a line each, for the test's diagnostics. */
export function report(t, live, from) {
  live.log.slice(from).forEach((e, i) => {
    const said = e.calls.length > 0 ? e.calls.map((c) => c.name).join(" + ") : "text";
    t.diagnostic(`model call ${i + 1}: ${said} (${e.finishReason}; tool choice ${e.choice}; ${e.promptTokens} + ${e.completionTokens} tokens; ${(e.ms / 1000).toFixed(1)} s)`);
  });
}
