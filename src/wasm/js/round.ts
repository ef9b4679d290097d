// The results of a tool round, `runTools` and the tool messages, built from the fields the
// core writes for them (src/wasm/turn_out.rs): they come back on every round, and reading
// a few numbers beats `JSON.parse`. A call's arguments are JSON text, parsed here, so each
// object is what `JSON.parse` makes, unless the JS layer sent a plain copy of them, which
// is then handed back. Key order is the JSON results' order.
import type { Decision, NextCall, ToolCall, ToolMessage, ToolResultsOutcome } from "../types";
import type { Reader } from "./reader.js";

/** `copies`: arguments the JS layer copied and sent (`copied.ts`), by call id, handed
 * back in place of parsing the module's JSON of them. */
export function readRunTools(r: Reader, copies?: Map<string, unknown>): Decision {
  const readCall = (r: Reader): ToolCall => {
    const id = r.string();
    const name = r.string();
    const args = r.string();
    return { id, name, args: copies?.get(id) ?? (JSON.parse(args) as unknown) };
  };
  return { type: "runTools", calls: r.list(readCall), replies: r.list(readMessage), next: readNext(r) };
}

export function readToolResults(r: Reader): ToolResultsOutcome {
  return { messages: r.list(readMessage), complete: r.flag(), next: readNext(r) };
}

function readMessage(r: Reader): ToolMessage {
  return { toolCallId: r.string(), name: r.string(), content: r.string(), isError: r.flag() };
}

function readNext(r: Reader): NextCall {
  return { iteration: r.number(), toolsWithheld: r.flag(), toolRoundsRemaining: r.number(), budgetLine: r.string() };
}
