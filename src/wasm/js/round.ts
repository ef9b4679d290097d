// The results of a tool round, `runTools` and the tool messages, built from the fields the
// core writes for them (src/wasm/turn_out.rs): they come back on every round, and reading
// a few numbers beats `JSON.parse`. A call's arguments are JSON text, parsed here, so each
// object is what `JSON.parse` makes. Key order is the JSON results' order.
import type { Decision, NextCall, ToolCall, ToolMessage, ToolResultsOutcome } from "../types";
import type { Reader } from "./reader.js";

export function readRunTools(r: Reader): Decision {
  return { type: "runTools", calls: r.list(readCall), replies: r.list(readMessage), next: readNext(r) };
}

export function readToolResults(r: Reader): ToolResultsOutcome {
  return { messages: r.list(readMessage), complete: r.flag(), next: readNext(r) };
}

function readCall(r: Reader): ToolCall {
  return { id: r.string(), name: r.string(), args: JSON.parse(r.string()) as unknown };
}

function readMessage(r: Reader): ToolMessage {
  return { toolCallId: r.string(), name: r.string(), content: r.string(), isError: r.flag() };
}

function readNext(r: Reader): NextCall {
  return { iteration: r.number(), toolsWithheld: r.flag(), toolRoundsRemaining: r.number(), budgetLine: r.string() };
}
