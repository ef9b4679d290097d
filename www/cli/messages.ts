// Session logs written as one chat API message per line, with the calls as `tool_use`
// blocks and the results as `tool_result` blocks: Claude Code's session files
// (`~/.claude/projects/<project>/<session>.jsonl`, `{type: "user" | "assistant", message}`),
// Factory Droid's (`~/.factory/sessions/<project>/<session>.jsonl`,
// `{type: "message", message: {role, …}}` after a `session_start` line) and Cursor's agent
// transcripts (`{role, message}`, calls without ids and no results). Claude Code's
// sub-agents are sessions of their own: 1.0.x writes them into the parent's file as
// "sidechain" lines, 2.x into files of their own (./subagents.ts places them).
import { assistantTurn, blocks, isObject, resultText, text, type AssistantTurn, type Entry, type Sidechain, type Spawn, type Transcript, type Turn } from "./log.js";
import { typed } from "./typed.js";

/** The tools that start a Claude Code sub-agent. */
const SPAWNERS = new Set(["Task", "Agent"]);

/** A sub-agent's id in the text of its call's result, for versions that wrote it only there. */
const AGENT_ID = /agentId: ([\w-]{1,128})/;

/** Who wrote a line, and as which role; lines of neither role are not messages. */
function speaker(line: Record<string, unknown>, message: Record<string, unknown>): [role: unknown, agent: string] {
  if (line.type === "user" || line.type === "assistant") return [line.type, "claude-code"];
  if (line.type === "message") return [message.role, "droid"];
  if (line.type === undefined) return [line.role, "cursor"];
  return [undefined, ""];
}

/** The session in `entries`: its main thread, and the sub-agents written beside it. A file
 *  of nothing but sidechain lines is a sub-agent's own (Claude Code 2.x): all one thread. */
export function messageLines(file: string, entries: Entry[]): Transcript {
  const own = entries.filter(([line]) => line.isSidechain !== true);
  if (!own.some(([line]) => isObject(line.message))) return thread(file, "", entries);
  return { ...thread(file, "", own), sidechains: sidechains(file, entries) };
}

/**
 * Claude Code 1.0.x's sub-agents, in their parent's file: each starts at a sidechain line
 * with no `parentUuid`, and each later line of it names an earlier one as its parent. A
 * line whose parent is no sidechain line seen before belongs to none and is left out.
 * Labelled by the line each starts at.
 */
function sidechains(file: string, entries: Entry[]): Sidechain[] {
  const found: Entry[][] = [];
  const of = new Map<string, Entry[]>();
  for (const entry of entries) {
    const [line] = entry;
    if (line.isSidechain !== true) continue;
    const root = line.parentUuid === null || line.parentUuid === undefined;
    const chain = root ? [] : typeof line.parentUuid === "string" ? of.get(line.parentUuid) : undefined;
    if (!chain) continue;
    if (root) found.push(chain);
    chain.push(entry);
    if (typeof line.uuid === "string") of.set(line.uuid, chain);
  }
  return found.map((chain) => ({ transcript: thread(file, `:${chain[0]![1]}`, chain), agentId: "", agentType: "" }));
}

/** One thread of messages, as written: the turns, and the sub-agents its calls started. */
function thread(file: string, label: string, entries: Entry[]): Transcript {
  const turns: Turn[] = [];
  const spawns: Spawn[] = [];
  let responses = 0;
  let model = "";
  let agent = "";
  let last: AssistantTurn | undefined;
  let lastId: unknown;
  const pending = new Map<string, AssistantTurn>();
  const spawned = new Map<string, Spawn>();
  for (const [line] of entries) {
    if (!isObject(line.message)) continue;
    const message = line.message;
    const [role, writer] = speaker(line, message);
    if (role !== "user" && role !== "assistant") continue;
    agent ||= writer;
    const content = blocks(message.content);
    // (Results come back in the next user message; Droid may keep them with the call.)
    const results = content.filter((b) => b.type === "tool_result" && text(b.tool_use_id) !== "");
    for (const result of results) {
      const id = text(result.tool_use_id);
      const output = resultText(result.content);
      pending.get(id)?.results.push({ id, output, isError: result.is_error === true });
      const spawn = spawned.get(id);
      // (The line's `toolUseResult` is the result's only when the line holds one result.)
      const launched = results.length === 1 && isObject(line.toolUseResult) ? text(line.toolUseResult.agentId) : "";
      if (spawn && spawn.agentId === "") spawn.agentId = launched || (AGENT_ID.exec(output)?.[1] ?? "");
    }
    if (role === "assistant") {
      if (typeof message.model === "string" && message.model !== "<synthetic>") model = message.model;
      // One response may be written as several lines that share its id.
      if (!last || message.id === undefined || message.id !== lastId) {
        last = assistantTurn();
        turns.push(last);
        responses++;
      }
      lastId = message.id;
      for (const block of content) {
        if (block.type === "text") last.text += (last.text ? "\n" : "") + text(block.text);
        if (block.type === "tool_use") {
          const id = text(block.id);
          const name = text(block.name);
          last.calls.push({ id, name, args: block.input ?? {} });
          if (id !== "") pending.set(id, last);
          if (SPAWNERS.has(name) && isObject(block.input)) {
            const { description, subagent_type, prompt } = block.input;
            const spawn = { id, turn: responses, tool: name, description: text(description), agentType: text(subagent_type), prompt: text(prompt), agentId: "" };
            spawns.push(spawn);
            if (id !== "") spawned.set(id, spawn);
          }
        }
      }
    } else if (results.length === 0 && line.isMeta !== true) {
      const said = typed(content.filter((b) => b.type === "text").map((b) => text(b.text)).join("\n"));
      // (A Stop hook's feedback is not the user's: the turn goes on.)
      if (said !== "" && !said.startsWith("Stop hook feedback:")) {
        turns.push({ role: "user", text: said });
        last = undefined;
      }
    }
  }
  return { file, label, agent, model, turns, spawns };
}
