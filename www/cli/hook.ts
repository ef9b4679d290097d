// `planloop hook claude-code`: a Claude Code Stop / SubagentStop hook. It replays the
// session's transcript and, while the todo list is unfinished, blocks the stop with
// planloop's continuation message, at most `--max-continuations` times per transcript.
// The count is kept beside the transcript (`<transcript>.planloop.json`), where two hooks
// may run at once (Stop and SubagentStop close together) and where anyone may have put
// anything: it is read and written by one hook at a time (./lock.ts), replaced whole
// (a temporary file renamed over it, so no reader ever sees half of it), never through a
// link, and never outside the transcript's folder.
import { closeSync, constants, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";

import { readText, why } from "./files.js";
import { exclusively } from "./lock.js";
import { replay } from "./replay.js";
import { readTranscripts } from "./transcripts.js";

/** The command's outcome: what to print, and the exit code. */
export interface Outcome {
  stdout: string;
  stderr: string;
  code: number;
}

/** A count file is a few bytes; more is not planloop's. */
const COUNT_MAX_BYTES = 1024;

/**
 * How many stops the hook has blocked for the transcript, from its count file (none: 0).
 * A count that is not a whole number from 0 up (negative, a fraction, not a number, not
 * JSON, too long) was not written by planloop: it reads as `max`, the limit reached, so
 * that no file can buy more continuations. A link or anything but a regular file is
 * refused, not followed.
 */
function readCount(state: string, max: number): number {
  let fd: number;
  try {
    // O_NOFOLLOW: a link fails to open (ELOOP); O_NONBLOCK: a pipe put there does not hang.
    fd = openSync(state, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return 0;
    if (code === "ELOOP") throw new Error(`${state}: a link, which planloop does not follow`);
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Error(`${state}: not a regular file, which planloop does not touch`);
    const bytes = Buffer.alloc(COUNT_MAX_BYTES + 1);
    const length = readSync(fd, bytes, 0, bytes.length, 0);
    if (length > COUNT_MAX_BYTES) return max;
    let blocked: unknown;
    try {
      blocked = (JSON.parse(bytes.toString("utf8", 0, length)) as { blocked?: unknown } | null)?.blocked;
    } catch {
      return max;
    }
    return typeof blocked === "number" && Number.isSafeInteger(blocked) && blocked >= 0 ? blocked : max;
  } finally {
    closeSync(fd);
  }
}

/** Replaces the count file whole: a new file (created, never opened through a link) in the
 *  same folder, renamed over the old one (which replaces a link rather than its target). */
function writeCount(state: string, blocked: number): void {
  const temporary = `${state}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(temporary, "wx", 0o644);
  try {
    writeSync(fd, `${JSON.stringify({ blocked })}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, state);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Runs the hook over the hook's JSON input (`input`); `args` are the words after `hook claude-code`. */
export function hook(args: string[], input: string): Outcome {
  const at = args.indexOf("--max-continuations");
  const max = at >= 0 ? Number(args[at + 1]) : 5;
  if (!Number.isSafeInteger(max) || max < 0) throw new Error("--max-continuations takes a whole number");
  let event: { transcript_path?: unknown; agent_transcript_path?: unknown; hook_event_name?: unknown };
  try {
    event = JSON.parse(input) as typeof event;
  } catch {
    throw new Error("the hook's input on stdin is not JSON");
  }
  const path =
    event?.hook_event_name === "SubagentStop" && typeof event.agent_transcript_path === "string" ? event.agent_transcript_path : event?.transcript_path;
  if (typeof path !== "string" || path === "") throw new Error("the hook's input names no transcript");
  let content: string;
  try {
    content = readText(path);
  } catch (error) {
    throw new Error(`${path}: ${why(error)}`);
  }
  // A transcript cut off mid-line (still being written) is read up to its last whole line.
  const whole = content.endsWith("\n") ? content : content.slice(0, content.lastIndexOf("\n") + 1);
  const [transcript] = readTranscripts(path, whole).transcripts;
  const allow: Outcome = { stdout: "", stderr: "", code: 0 };
  if (!transcript) return allow;
  const { decision } = replay(transcript, { maxPlanContinuations: 1_000 });
  if (decision?.type !== "continue") return allow;
  const state = `${path}.planloop.json`;
  return exclusively(state, () => {
    const blocked = readCount(state, max);
    if (blocked >= max) return allow;
    writeCount(state, blocked + 1);
    return { stdout: `${JSON.stringify({ decision: "block", reason: decision.message })}\n`, stderr: "", code: 0 };
  });
}
