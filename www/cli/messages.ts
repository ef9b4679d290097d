// Session logs written as one chat API message per line, with the calls as `tool_use`
// blocks and the results as `tool_result` blocks: Claude Code's session files
// (`~/.claude/projects/<project>/<session>.jsonl`, `{type: "user" | "assistant", message}`),
// Factory Droid's (`~/.factory/sessions/<project>/<session>.jsonl`,
// `{type: "message", message: {role, …}}` after a `session_start` line) and Cursor's agent
// transcripts (`{role, message}`, calls without ids and no results).
import { assistantTurn, blocks, isObject, resultText, text, type AssistantTurn, type Entry, type Transcript, type Turn } from "./log.js";
import { typed } from "./typed.js";

/** Who wrote a line, and as which role; lines of neither role are not messages. */
function speaker(line: Record<string, unknown>, message: Record<string, unknown>): [role: unknown, agent: string] {
  if (line.type === "user" || line.type === "assistant") return [line.type, "claude-code"];
  if (line.type === "message") return [message.role, "droid"];
  if (line.type === undefined) return [line.role, "cursor"];
  return [undefined, ""];
}

/** The session in `entries`: its main thread (sub-agent lines are left to their own). */
export function messageLines(file: string, entries: Entry[]): Transcript {
  const turns: Turn[] = [];
  let model = "";
  let agent = "";
  let last: AssistantTurn | undefined;
  let lastId: unknown;
  const pending = new Map<string, AssistantTurn>();
  for (const [line] of entries) {
    if (line.isSidechain === true || !isObject(line.message)) continue;
    const message = line.message;
    const [role, writer] = speaker(line, message);
    if (role !== "user" && role !== "assistant") continue;
    agent ||= writer;
    const content = blocks(message.content);
    // (Results come back in the next user message; Droid may keep them with the call.)
    const results = content.filter((b) => b.type === "tool_result" && text(b.tool_use_id) !== "");
    for (const result of results) {
      const id = text(result.tool_use_id);
      pending.get(id)?.results.push({ id, output: resultText(result.content), isError: result.is_error === true });
    }
    if (role === "assistant") {
      if (typeof message.model === "string" && message.model !== "<synthetic>") model = message.model;
      // One response may be written as several lines that share its id.
      if (!last || message.id === undefined || message.id !== lastId) {
        last = assistantTurn();
        turns.push(last);
      }
      lastId = message.id;
      for (const block of content) {
        if (block.type === "text") last.text += (last.text ? "\n" : "") + text(block.text);
        if (block.type === "tool_use") {
          const id = text(block.id);
          last.calls.push({ id, name: text(block.name), args: block.input ?? {} });
          if (id !== "") pending.set(id, last);
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
  return { file, label: "", agent, model, turns };
}
