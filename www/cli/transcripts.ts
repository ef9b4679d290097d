// Session logs of real agents, read into one shape for replay (./log.ts): Claude Code,
// Factory Droid and Cursor session files (./messages.ts), Cline tasks (./cline.ts), Codex
// CLI rollouts (`rollout-*.jsonl`) and the normalised traces of planloop's own tests.
// Unknown entry types are skipped, as the agents add new ones. A file may start with a
// byte order mark; a line that is not a JSON object is reported with its file and line,
// and the reading goes on with the next one.
import { cline } from "./cline.js";
import { assistantTurn, isObject, resultText, text, type AssistantTurn, type Entry, type Transcript, type Turn } from "./log.js";
import { messageLines } from "./messages.js";

/** The sessions read from one file, and what could not be read (`file:line: why`). */
export interface Reading {
  transcripts: Transcript[];
  problems: string[];
}

/** A line that could not be read, and why. */
type Problem = [line: number, why: string];

/** Lines of a file reported one by one; past them, a count (a file that is not a log at
 *  all would otherwise give a line of complaint for each of its lines). */
const REPORTED_LINES = 20;

/** `problems` as `file:line: why`, in line order, at most `REPORTED_LINES` and a count. */
function told(file: string, problems: Problem[]): string[] {
  const sorted = problems.sort((a, b) => a[0] - b[0]);
  const shown = sorted.slice(0, REPORTED_LINES).map(([line, why]) => `${file}:${line}: ${why}`);
  if (sorted.length > REPORTED_LINES) shown.push(`${file}: ${sorted.length - REPORTED_LINES} more lines not read`);
  return shown;
}

/** Each line of `content` that is a JSON object, with its line number; each other line is
 *  a problem. */
function lines(content: string, problems: Problem[]): Entry[] {
  const entries: Entry[] = [];
  let number = 0;
  for (const line of content.split("\n")) {
    number++;
    if (line.trim() === "") continue;
    let value: unknown;
    let why = "not a JSON object";
    try {
      value = JSON.parse(line);
    } catch (error) {
      why = `not JSON (${(error as Error).message})`;
    }
    if (isObject(value)) entries.push([value, number]);
    else problems.push([number, why]);
  }
  return entries;
}

/** The sessions in one file, whichever agent wrote it. */
export function readTranscripts(file: string, content: string): Reading {
  const body = content.startsWith("\uFEFF") ? content.slice(1) : content;
  // A Cline task is one JSON array; the other logs are JSON Lines.
  if (body.trimStart().startsWith("[")) {
    let messages: unknown;
    try {
      messages = JSON.parse(body);
    } catch (error) {
      return { transcripts: [], problems: [`${file}: not JSON (${(error as Error).message})`] };
    }
    return { transcripts: Array.isArray(messages) ? [cline(file, messages)] : [], problems: [] };
  }
  const problems: Problem[] = [];
  const entries = lines(body, problems);
  const reading = (transcripts: Transcript[]): Reading => ({ transcripts, problems: told(file, problems) });
  const first = entries[0];
  if (!first) return reading([]);
  const [line, number] = first;
  if (Array.isArray(line.turns)) return reading(normalised(file, entries, problems));
  if (typeof line.type === "string" && "payload" in line) return reading([codex(file, entries)]);
  if (typeof line.type === "string" || (typeof line.role === "string" && isObject(line.message))) return reading([messageLines(file, entries)]);
  problems.push([number, "not a session log planloop reads (Claude Code, Codex, Cline, Factory Droid, Cursor or a planloop trace)"]);
  return reading([]);
}

/** planloop's trace format: one record per line (`../shared/traces/README.md`). */
function normalised(file: string, entries: Entry[], problems: Problem[]): Transcript[] {
  const transcripts: Transcript[] = [];
  for (const [record, number] of entries) {
    if (!Array.isArray(record.turns)) {
      problems.push([number, "a trace record without turns"]);
      continue;
    }
    const turns: Turn[] = [];
    for (const turn of record.turns as unknown[]) {
      if (!isObject(turn)) continue;
      if (turn.role === "user") turns.push({ role: "user", text: text(turn.text) });
      if (turn.role !== "assistant") continue;
      const calls = (Array.isArray(turn.tool_calls) ? turn.tool_calls : []).filter(isObject);
      const results = (Array.isArray(turn.tool_results) ? turn.tool_results : []).filter(isObject);
      turns.push({
        role: "assistant",
        text: text(turn.text),
        calls: calls.map((c) => ({ id: text(c.id), name: text(c.name), args: c.args ?? {} })),
        results: results.map((r) => ({ id: text(r.tool_call_id), output: text(r.content), isError: r.is_error === true })),
      });
    }
    // (A record names its models as a list: a session may switch.)
    const model = Array.isArray(record.model) ? record.model.map(text).filter(Boolean).join(", ") : text(record.model);
    transcripts.push({ file, label: `#${transcripts.length + 1}`, agent: text(record.agent), model, turns });
  }
  return transcripts;
}

/** A Codex CLI rollout: its function calls, their outputs and the messages between. */
function codex(file: string, entries: Entry[]): Transcript {
  const turns: Turn[] = [];
  let model = "";
  let last: AssistantTurn | undefined;
  const pending = new Map<string, AssistantTurn>();
  const assistant = () => {
    if (!last) {
      last = assistantTurn();
      turns.push(last);
    }
    return last;
  };
  for (const [line] of entries) {
    const payload = isObject(line.payload) ? line.payload : {};
    if (line.type === "turn_context" && typeof payload.model === "string") model = payload.model;
    if (line.type !== "response_item") continue;
    if (payload.type === "message" && payload.role === "user") {
      const said = (Array.isArray(payload.content) ? payload.content : []).map((c) => (isObject(c) ? text(c.text) : "")).join("\n");
      if (said.trim() !== "" && !said.trimStart().startsWith("<")) {
        turns.push({ role: "user", text: said });
        last = undefined;
      }
    } else if (payload.type === "message" && payload.role === "assistant") {
      const said = (Array.isArray(payload.content) ? payload.content : []).map((c) => (isObject(c) ? text(c.text) : "")).join("\n");
      const turn = assistant();
      turn.text += (turn.text ? "\n" : "") + said;
    } else if (payload.type === "function_call") {
      const turn = assistant();
      const id = text(payload.call_id);
      turn.calls.push({ id, name: text(payload.name), args: text(payload.arguments) || "{}" });
      pending.set(id, turn);
    } else if (payload.type === "function_call_output") {
      const id = text(payload.call_id);
      const output = isObject(payload.output) ? text(payload.output.content) : resultText(payload.output);
      pending.get(id)?.results.push({ id, output, isError: false });
      // The next response starts after the results come back.
      last = undefined;
    }
  }
  return { file, label: "", agent: "codex", model, turns };
}
