// Session logs of real agents, read into one shape for replay: Claude Code session files
// (`~/.claude/projects/<project>/<session>.jsonl`), Codex CLI rollouts
// (`rollout-*.jsonl`) and the normalised traces of planloop's own tests. Unknown entry
// types are skipped, as the agents add new ones; a line that is not JSON is an error
// that names its file and line.

/** One tool call, as the model made it. */
export interface Call {
  id: string;
  name: string;
  args: unknown;
}

/** One tool result, as the host gave it. */
export interface Result {
  id: string;
  output: string;
  isError: boolean;
}

/** A user message, or one model response and the results of its calls. */
export type Turn = { role: "user"; text: string } | { role: "assistant"; text: string; calls: Call[]; results: Result[] };

/** One session of one agent. */
export interface Transcript {
  file: string;
  /** Where in the file (a record's index, for files that hold several). */
  label: string;
  agent: string;
  model: string;
  turns: Turn[];
}

/** A line that could not be read. */
export class UnreadableLine extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    why: string,
  ) {
    super(`${file}:${line}: ${why}`);
  }
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** Each line of `content` as JSON, with its line number; a broken line throws. */
function* lines(file: string, content: string): Generator<[Json, number]> {
  let number = 0;
  for (const line of content.split("\n")) {
    number++;
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new UnreadableLine(file, number, `not JSON (${(error as Error).message})`);
    }
    if (!isObject(value)) throw new UnreadableLine(file, number, "not a JSON object");
    yield [value, number];
  }
}

/** The sessions in one file, whichever agent wrote it. */
export function readTranscripts(file: string, content: string): Transcript[] {
  const first = lines(file, content).next();
  if (first.done) return [];
  const [line] = first.value;
  if (Array.isArray(line.turns)) return normalised(file, content);
  if (typeof line.type === "string" && "payload" in line) return [codex(file, content)];
  if (typeof line.type === "string") return [claudeCode(file, content)];
  throw new UnreadableLine(file, first.value[1], "neither a Claude Code session, a Codex rollout nor a planloop trace");
}

/** planloop's trace format: one record per line (`../shared/traces/README.md`). */
function normalised(file: string, content: string): Transcript[] {
  const transcripts: Transcript[] = [];
  for (const [record, number] of lines(file, content)) {
    if (!Array.isArray(record.turns)) throw new UnreadableLine(file, number, "a trace record without turns");
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

/** The text of a tool result's content: a string, or text blocks. */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block) => (isObject(block) ? text(block.text) : "")).join("\n");
}

/** A Claude Code session file: the main thread (sub-agent lines are left to theirs). */
function claudeCode(file: string, content: string): Transcript {
  const turns: Turn[] = [];
  let model = "";
  let last: (Turn & { role: "assistant" }) | undefined;
  let lastId: unknown;
  const pending = new Map<string, Turn & { role: "assistant" }>();
  for (const [line] of lines(file, content)) {
    if (line.isSidechain === true || !isObject(line.message)) continue;
    const message = line.message;
    const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    if (line.type === "assistant") {
      if (typeof message.model === "string" && message.model !== "<synthetic>") model = message.model;
      // One response may be written as several lines that share its id.
      if (!last || message.id === undefined || message.id !== lastId) {
        last = { role: "assistant", text: "", calls: [], results: [] };
        turns.push(last);
      }
      lastId = message.id;
      for (const block of blocks) {
        if (block.type === "text") last.text += (last.text ? "\n" : "") + text(block.text);
        if (block.type === "tool_use") {
          last.calls.push({ id: text(block.id), name: text(block.name), args: block.input ?? {} });
          pending.set(text(block.id), last);
        }
      }
    } else if (line.type === "user") {
      const results = blocks.filter((b) => b.type === "tool_result");
      for (const result of results) {
        const id = text(result.tool_use_id);
        pending.get(id)?.results.push({ id, output: resultText(result.content), isError: result.is_error === true });
      }
      const said = typeof message.content === "string" ? message.content : blocks.filter((b) => b.type === "text").map((b) => text(b.text)).join("\n");
      // (A Stop hook's feedback is not the user's: the turn goes on.)
      if (results.length === 0 && said.trim() !== "" && line.isMeta !== true && !said.startsWith("Stop hook feedback:")) {
        turns.push({ role: "user", text: said });
        last = undefined;
      }
    }
  }
  return { file, label: "", agent: "claude-code", model, turns };
}

/** A Codex CLI rollout: its function calls, their outputs and the messages between. */
function codex(file: string, content: string): Transcript {
  const turns: Turn[] = [];
  let model = "";
  let last: (Turn & { role: "assistant" }) | undefined;
  const pending = new Map<string, Turn & { role: "assistant" }>();
  const assistant = () => {
    if (!last) {
      last = { role: "assistant", text: "", calls: [], results: [] };
      turns.push(last);
    }
    return last;
  };
  for (const [line] of lines(file, content)) {
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
