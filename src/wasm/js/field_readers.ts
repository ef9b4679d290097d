// The readers of the results that cross as fields, one per type, for the writers in
// src/wasm/field_writers.rs. Generated from the types' JSON Schemas by tests/generated/fields.rs.
// Do not edit. Each builds an object literal in the key order JSON would give.
import type { Decision, NextCall, ToolCall, ToolMessage, ToolResultsOutcome } from "../types";
import type { Reader } from "./reader.js";

export function readNextCall(r: Reader): NextCall {
  return { iteration: r.number(), toolsWithheld: r.flag(), toolRoundsRemaining: r.number(), budgetLine: r.string() };
}

export function readToolCall(r: Reader): ToolCall {
  return { id: r.string(), name: r.string(), args: r.json() };
}

export function readToolMessage(r: Reader): ToolMessage {
  return { toolCallId: r.string(), name: r.string(), content: r.string(), isError: r.flag() };
}

export function readToolResultsOutcome(r: Reader): ToolResultsOutcome {
  return { messages: r.list(readToolMessage), complete: r.flag(), next: readNextCall(r) };
}

export function readRunTools(r: Reader): Decision {
  return { type: "runTools", calls: r.list(readToolCall), replies: r.list(readToolMessage), next: readNextCall(r) };
}
