// A Cline task (`<storage>/tasks/<id>/api_conversation_history.json`): the messages Cline
// sent the model, as one JSON array. Its calls are `tool_use` blocks (a `task_progress`
// checklist rides on their arguments); each call's result is the text of the next user
// message, `[read_file for 'a.ts'] Result:` and the output after it (or a `tool_result`
// block). The user's words are in `<task>` and `<feedback>`; Cline adds the editor's state
// and its own reminders beside them.
import { assistantTurn, blocks, isObject, MAX_CALLS, resultText, text, type AssistantTurn, type Call, type Transcript, type Turn } from "./log.js";
import { typed } from "./typed.js";

/** `[tool]` or `[tool for '…']` at the start of a result's text, then ` Result:`. */
const RESULT = /^\[([^\]\s]+)[^\n]*?\] Result:\n?/;

/** The openings of Cline's answers for a call that failed or that the user refused. */
const FAILED = ["The tool execution failed", "The user denied this operation"];

/** The session in Cline's `messages`. */
export function cline(file: string, messages: unknown[]): Transcript {
  const turns: Turn[] = [];
  let model = "";
  let last: AssistantTurn | undefined;
  // The calls of the last response still without a result, in order.
  let open: Call[] = [];
  for (const message of messages) {
    if (!isObject(message)) continue;
    const content = blocks(message.content);
    if (message.role === "assistant") {
      if (isObject(message.modelInfo) && typeof message.modelInfo.modelId === "string") model = message.modelInfo.modelId;
      last = assistantTurn();
      turns.push(last);
      for (const block of content) {
        if (block.type === "text") last.text += (last.text ? "\n" : "") + text(block.text);
        // (Bounded as the replay is, so that matching results to calls stays linear.)
        if (block.type === "tool_use" && last.calls.length < MAX_CALLS) {
          last.calls.push({ id: text(block.id), name: text(block.name), args: block.input ?? {} });
        }
      }
      open = last.calls.filter((call) => call.id !== "");
      continue;
    }
    if (message.role !== "user") continue;
    let answered = false;
    const answer = (call: Call | undefined, output: string, isError: boolean) => {
      answered = true;
      if (!call || !last) return;
      last.results.push({ id: call.id, output, isError });
      open.splice(open.indexOf(call), 1);
    };
    for (const block of content) {
      if (block.type === "tool_result") {
        answer(open.find((call) => call.id === text(block.tool_use_id)), resultText(block.content), block.is_error === true);
        continue;
      }
      const said = block.type === "text" ? text(block.text) : "";
      const label = RESULT.exec(said);
      if (!label) continue;
      const output = said.slice(label[0].length);
      answer(open.find((call) => call.name === label[1]) ?? open[0], output, FAILED.some((opening) => output.startsWith(opening)));
    }
    if (answered) continue;
    const said = typed(content.filter((b) => b.type === "text").map((b) => text(b.text)).join("\n"));
    if (said !== "") {
      turns.push({ role: "user", text: said });
      last = undefined;
      open = [];
    }
  }
  return { file, label: "", agent: "cline", model, turns };
}
