// The readers of the results that cross as fields, one per type, for the writers in
// src/wasm/field_writers.rs. Generated from the types' JSON Schemas by
// tests/generated/fields.rs. Do not edit. Each builds an object literal in the key
// order JSON would give.
import type { Artifact, ContextCapsule, Decision, IterationVerdict, NextCall, PlannerSnapshot, ReasoningEvent, Todo, ToolCall, ToolMessage, ToolResultsOutcome } from "../types";
import type { Reader } from "./reader.js";

/** `Phase` by index. */
export const PHASE = ["plan", "act", "obs", "reflect"] as const;

/** `Refusal` by index. */
export const REFUSAL = ["planner_overuse_execute_next_step", "duplicate_planner_call"] as const;

/** `TodoStatus` by index. */
export const TODO_STATUS = ["pending", "in_progress", "completed"] as const;

export function readArtifact(r: Reader): Artifact {
  return { type: r.string(), ref: r.string(), summary: r.string() };
}

export function readContextCapsule(r: Reader): ContextCapsule {
  return { goal: r.string(), planSnapshot: r.flag() ? readPlannerSnapshot(r) : null, keyFindings: r.strings(), artifacts: r.list(readArtifact), nextActions: r.strings() };
}

export function readIterationVerdict(r: Reader): IterationVerdict {
  return { iteration: r.number(), plannerOnly: r.flag(), plannerOnlyStreak: r.number(), refusal: r.flag() ? REFUSAL[r.number()]! : null };
}

export function readNextCall(r: Reader): NextCall {
  return { iteration: r.number(), toolsWithheld: r.flag(), toolRoundsRemaining: r.number(), budgetLine: r.string() };
}

export function readPlannerSnapshot(r: Reader): PlannerSnapshot {
  return { revision: r.number(), todos: r.list(readTodo), focus: r.flag() ? r.string() : null, note: r.flag() ? r.string() : null, updatedAt: r.flag() ? r.float() : null };
}

export function readReasoningEvent(r: Reader): ReasoningEvent {
  return { phase: PHASE[r.number()]!, summary: r.string(), iteration: r.number(), timestamp: r.float() };
}

export function readTodo(r: Reader): Todo {
  return { id: r.string(), content: r.string(), status: TODO_STATUS[r.number()]! };
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
