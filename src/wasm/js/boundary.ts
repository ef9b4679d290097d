// The JS layer's side of the boundary, generated from the Rust side by
// tests/generated.rs. Do not edit. Its tables, then the readers of the results that
// cross as fields, one per type, for the writers in src/wasm/field_writers.rs: each
// builds an object literal in the key order JSON would give.
import type { AcceptedAck, AckError, ApproveOptions, Artifact, BeginTurn, ComposeInput, Composed, ContextCapsule, ContextCapsuleInput, CustomIssue, Decision, Delegation, ErrorData, HandoffOptions, HistoryOptions, InvalidFormatIssue, InvalidJsonIssue, InvalidTypeIssue, InvalidUnionIssue, InvalidValueIssue, Issue, IterationVerdict, ModelResponse, NextCall, PathSegment, PlanReview, PlanReviewStoreData, PlannerAck, PlannerOptions, PlannerSnapshot, PromptParts, ReasoningEvent, RejectOptions, RejectedAck, SessionConfig, Todo, TooBigIssue, TooSmallIssue, ToolCall, ToolMessage, ToolResult, ToolResultsOutcome, UnrecognizedKeysIssue, Verdict, WriteTodos } from "../types";
import type { Reader } from "./engine.js";

/** The operations of src/wasm/mod.rs. */
export const Op = {
  ValidateText: 1,
  ValidateValue: 2,
  ValidateQuoted: 7,
  WriteTodosJsonSchema: 3,
  ToolDefinitions: 4,
  ExtractReflection: 5,
  ContextCapsule: 6,
  PlannerNew: 10,
  PlannerFree: 11,
  PlannerRecordIteration: 12,
  PlannerApplyText: 13,
  PlannerApplyValue: 14,
  PlannerSnapshot: 15,
  PlannerApplyQuoted: 16,
  PlannerApplyChecked: 17,
  LogNew: 20,
  LogFree: 21,
  LogRecordPlan: 22,
  LogRecordAct: 23,
  LogRecordObs: 24,
  LogRecordReflection: 25,
  LogEvents: 26,
  LogSteps: 27,
  LogClear: 28,
  ComposePrompt: 40,
  ComposeTexts: 41,
  SessionNew: 50,
  SessionFree: 51,
  SessionRestore: 52,
  SessionSnapshot: 53,
  SessionStepPlan: 54,
  SessionSystemPrompt: 55,
  SessionBeginTurn: 56,
  SessionApprove: 57,
  SessionReject: 58,
  SessionProposals: 59,
  SessionHandleModelResponse: 60,
  SessionHandleToolResults: 61,
  SessionDrainEvents: 62,
  SessionTodos: 63,
  SessionPlan: 64,
  SessionProgress: 65,
  SessionCapsule: 66,
  SessionSteps: 67,
  SessionReasoning: 68,
  SessionToolDefinitions: 69,
  SessionHandleToolResultsRaw: 70,
  SessionMayHold: 73,
  SessionNextCall: 74,
  SessionHandoff: 75,
  SessionDelegations: 76,
  SessionBeginDelegation: 77,
  SessionChild: 78,
  SessionFinishDelegation: 79,
  ReviewsNew: 80,
  ReviewsFree: 81,
  ReviewsFromJson: 82,
  ReviewsPut: 83,
  ReviewsTake: 84,
  ReviewsSize: 85,
  ReviewsToJson: 86,
  SessionHandleVerdict: 87,
} as const;

/** What a call's status says to read. */
export const Status = {
  Json: 0,
  Error: 1,
  Nothing: 2,
  Number: 3,
  Spans: 4,
  Issues: 6,
  Fields: 8,
  Value: 9,
} as const;

/** A string the JS layer keeps: its mark, and the start that says it has it (see `Out` in src/wasm/io.rs). */
export const Interned = {
  MARK: 2147483648,
  KEPT: 4294967295,
} as const;

/** `composePrompt`'s limits, in characters (see src/prompts/compose/input.rs). */
export const COMPOSE_LIMITS = {
  BASE_MAX: 1000000,
  COMPONENTS_MAX: 256,
  NAME_MAX: 64,
  TEXT_MAX: 100000,
} as const;

/** The most todos a `write_todos` list may hold (see src/validate/write_todos/mod.rs). */
export const WRITE_TODOS = {
  TODOS_MAX: 8,
} as const;

/** Each declared operation's arguments in their order (see src/wasm/arguments.rs). */
export const declared = {
  ToolDefinitions: (): Declared => [Op.ToolDefinitions, []],
  ExtractReflection: (text: string, maxChars: number | undefined): Declared => [Op.ExtractReflection, [text, maxChars]],
  ContextCapsule: (input: ContextCapsuleInput): Declared => [Op.ContextCapsule, [input]],
  PlannerNew: (options: PlannerOptions | undefined): Declared => [Op.PlannerNew, [options]],
  PlannerRecordIteration: (toolNames: string[]): Declared => [Op.PlannerRecordIteration, [toolNames]],
  PlannerApplyChecked: (args: unknown, nowMs: number): Declared => [Op.PlannerApplyChecked, [args, nowMs]],
  PlannerSnapshot: (): Declared => [Op.PlannerSnapshot, []],
  LogNew: (options: HistoryOptions | undefined): Declared => [Op.LogNew, [options]],
  LogRecordPlan: (snapshot: PlannerSnapshot, iteration: number, nowMs: number): Declared => [Op.LogRecordPlan, [snapshot, iteration, nowMs]],
  LogRecordAct: (tool: string, args: unknown, iteration: number, nowMs: number): Declared => [Op.LogRecordAct, [tool, args, iteration, nowMs]],
  LogRecordObs: (tool: string, output: string, isError: boolean, iteration: number, nowMs: number): Declared => [Op.LogRecordObs, [tool, output, isError, iteration, nowMs]],
  LogRecordReflection: (text: string, iteration: number, nowMs: number, maxChars: number | undefined): Declared => [Op.LogRecordReflection, [text, iteration, nowMs, maxChars]],
  LogEvents: (): Declared => [Op.LogEvents, []],
  LogSteps: (): Declared => [Op.LogSteps, []],
  ComposePrompt: (input: ComposeInput | undefined): Declared => [Op.ComposePrompt, [input]],
  SessionNew: (config: SessionConfig | undefined): Declared => [Op.SessionNew, [config]],
  SessionRestore: (snapshot: unknown): Declared => [Op.SessionRestore, [snapshot]],
  SessionSystemPrompt: (parts: PromptParts | undefined, nowMs: number): Declared => [Op.SessionSystemPrompt, [parts, nowMs]],
  SessionBeginTurn: (input: BeginTurn): Declared => [Op.SessionBeginTurn, [input]],
  SessionApprove: (actionId: string, options: ApproveOptions | undefined, nowMs: number): Declared => [Op.SessionApprove, [actionId, options, nowMs]],
  SessionReject: (actionId: string, options: RejectOptions | undefined, nowMs: number): Declared => [Op.SessionReject, [actionId, options, nowMs]],
  SessionHandleModelResponse: (response: ModelResponse, nowMs: number): Declared => [Op.SessionHandleModelResponse, [response, nowMs]],
  SessionHandleToolResults: (results: ToolResult[], nowMs: number): Declared => [Op.SessionHandleToolResults, [results, nowMs]],
  SessionMayHold: (tool: string): Declared => [Op.SessionMayHold, [tool]],
  SessionNextCall: (nowMs: number): Declared => [Op.SessionNextCall, [nowMs]],
  SessionHandoff: (options: HandoffOptions | undefined, nowMs: number): Declared => [Op.SessionHandoff, [options, nowMs]],
  SessionBeginDelegation: (callId: string, nowMs: number): Declared => [Op.SessionBeginDelegation, [callId, nowMs]],
  SessionChild: (callId: string): Declared => [Op.SessionChild, [callId]],
  SessionFinishDelegation: (callId: string, options: HandoffOptions | undefined, nowMs: number, child: unknown): Declared => [Op.SessionFinishDelegation, [callId, options, nowMs, child]],
  ReviewsFromJson: (data: PlanReviewStoreData): Declared => [Op.ReviewsFromJson, [data]],
  ReviewsPut: (review: PlanReview): Declared => [Op.ReviewsPut, [review]],
  ReviewsTake: (userId: string | null | undefined, chatId: string | null | undefined, nowMs: number): Declared => [Op.ReviewsTake, [userId, chatId, nowMs]],
  SessionHandleVerdict: (verdict: Verdict, nowMs: number): Declared => [Op.SessionHandleVerdict, [verdict, nowMs]],
} as const;

/** An operation, and its arguments in their order. */
export type Declared = readonly [op: number, args: readonly unknown[]];

/** The reader of each declared operation's result (see src/wasm/arguments.rs). */
export const results = {
  ToolDefinitions: readToolText,
  ExtractReflection: (r: Reader) => r.flag() ? r.string() : null,
  ContextCapsule: readContextCapsule,
  PlannerRecordIteration: readIterationVerdict,
  PlannerSnapshot: readPlannerSnapshot,
  LogRecordPlan: readReasoningEvent,
  LogRecordAct: readReasoningEvent,
  LogRecordObs: readReasoningEvent,
  LogRecordReflection: (r: Reader) => r.flag() ? readReasoningEvent(r) : null,
  LogEvents: (r: Reader) => r.list(readReasoningEvent),
  LogSteps: (r: Reader) => r.strings(),
} as const;

/** `ErrorCode` by index. */
export const ERROR_CODE = ["invalid_argument", "invalid_options", "host_exception", "invalid_state", "unknown_action", "action_already_resolved", "action_of_another_turn", "invalid_snapshot", "internal"] as const;

/** `Expected` by index. */
export const EXPECTED = ["object", "array", "string", "number", "int", "boolean", "null", "record"] as const;

/** `Origin` by index. */
export const ORIGIN = ["string", "array", "number", "unknown"] as const;

/** `Phase` by index. */
export const PHASE = ["plan", "act", "obs", "reflect"] as const;

/** `Refusal` by index. */
export const REFUSAL = ["planner_overuse_execute_next_step", "duplicate_planner_call"] as const;

/** `TodoStatus` by index. */
export const TODO_STATUS = ["pending", "in_progress", "completed"] as const;

export function readAcceptedAck(r: Reader): AcceptedAck {
  return { ok: true, revision: r.number(), todoCount: r.number(), inProgress: r.flag() ? r.string() : null };
}

export function readArtifact(r: Reader): Artifact {
  return { type: r.string(), ref: r.string(), summary: r.string() };
}

export function readComposed(r: Reader): Composed {
  const components = r.strings();
  const unresolved = r.strings();
  return { prompt: r.lastString(), components, unresolved };
}

export function readContextCapsule(r: Reader): ContextCapsule {
  return { goal: r.string(), planSnapshot: r.flag() ? readPlannerSnapshot(r) : null, keyFindings: r.strings(), artifacts: r.list(readArtifact), nextActions: r.strings() };
}

export function readCustomIssue(r: Reader): CustomIssue {
  return { code: "custom", path: r.list(readPathSegment), message: r.string() };
}

export function readDelegation(r: Reader): Delegation {
  const o: Delegation = { callId: r.string(), tool: r.string(), goal: r.string(), acceptance: r.strings(), maxIterations: r.number(), timeoutMs: r.number(), depth: r.number() };
  r.key((r) => r.string(), (given) => (o.title = given));
  r.key((r) => r.string(), (given) => (o.agent = given));
  r.key((r) => r.string(), (given) => (o.todoId = given));
  r.key((r) => r.string(), (given) => (o.context = given));
  return o;
}

export function readError(r: Reader) {
  return { code: ERROR_CODE[r.number()]!, message: r.string(), data: readErrorData(r) };
}

export function readErrorData(r: Reader): ErrorData {
  const o: ErrorData = {};
  r.key((r) => r.string(), (given) => (o.argument = given));
  r.key((r) => r.list(readIssue), (given) => (o.issues = given));
  r.key((r) => r.string(), (given) => (o.detail = given));
  return o;
}

export function readInvalidFormatIssue(r: Reader): InvalidFormatIssue {
  return { origin: ORIGIN[r.number()]!, code: "invalid_format", format: "well_formed_utf16", path: r.list(readPathSegment), message: r.string() };
}

export function readInvalidJsonIssue(r: Reader): InvalidJsonIssue {
  return { code: "invalid_json", position: r.number(), path: r.list(readPathSegment), message: r.string() };
}

export function readInvalidTypeIssue(r: Reader): InvalidTypeIssue {
  return { expected: EXPECTED[r.number()]!, code: "invalid_type", path: r.list(readPathSegment), message: r.string() };
}

export function readInvalidUnionIssue(r: Reader): InvalidUnionIssue {
  return { code: "invalid_union", errors: r.list((r) => r.list(readIssue)), path: r.list(readPathSegment), message: r.string() };
}

export function readInvalidValueIssue(r: Reader): InvalidValueIssue {
  return { code: "invalid_value", values: r.strings(), path: r.list(readPathSegment), message: r.string() };
}

export function readIterationVerdict(r: Reader): IterationVerdict {
  return { iteration: r.number(), plannerOnly: r.flag(), plannerOnlyStreak: r.number(), refusal: r.flag() ? REFUSAL[r.number()]! : null };
}

export function readNextCall(r: Reader): NextCall {
  return { iteration: r.number(), toolsWithheld: r.flag(), toolRoundsRemaining: r.number(), budgetLine: r.string(), tokensRemaining: r.flag() ? r.number() : null };
}

export function readPlannerSnapshot(r: Reader): PlannerSnapshot {
  return { revision: r.number(), todos: r.list(readTodo), focus: r.flag() ? r.string() : null, note: r.flag() ? r.string() : null, updatedAt: r.flag() ? r.float() : null };
}

export function readReasoningEvent(r: Reader): ReasoningEvent {
  return { phase: PHASE[r.number()]!, summary: r.string(), iteration: r.number(), timestamp: r.float() };
}

export function readRejectedAck(r: Reader): RejectedAck {
  const o: RejectedAck = { ok: false, error: readAckError(r), message: r.string() };
  r.key((r) => r.list(readIssue), (given) => (o.issues = given));
  return o;
}

export function readTodo(r: Reader): Todo {
  return { id: r.string(), content: r.string(), status: TODO_STATUS[r.number()]! };
}

export function readTooBigIssue(r: Reader): TooBigIssue {
  return { origin: ORIGIN[r.number()]!, code: "too_big", maximum: r.float(), inclusive: r.flag(), path: r.list(readPathSegment), message: r.string() };
}

export function readTooSmallIssue(r: Reader): TooSmallIssue {
  return { origin: ORIGIN[r.number()]!, code: "too_small", minimum: r.float(), inclusive: r.flag(), path: r.list(readPathSegment), message: r.string() };
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

export function readToolText(r: Reader) {
  return { name: r.string(), description: r.string(), schema: r.string() };
}

export function readUnrecognizedKeysIssue(r: Reader): UnrecognizedKeysIssue {
  return { code: "unrecognized_keys", keys: r.strings(), path: r.list(readPathSegment), message: r.string() };
}

export function readWriteTodos(r: Reader): WriteTodos {
  const o: WriteTodos = { todos: r.list(readTodo) };
  r.key((r) => r.string(), (given) => (o.focus = given));
  r.key((r) => r.string(), (given) => (o.note = given));
  return o;
}

export function readAckError(r: Reader): AckError {
  switch (r.number()) {
    case 0:
      return "invalid_arguments";
    default:
      return REFUSAL[r.number()]!;
  }
}

export function readIssue(r: Reader): Issue {
  switch (r.number()) {
    case 0:
      return readInvalidTypeIssue(r);
    case 1:
      return readTooSmallIssue(r);
    case 2:
      return readTooBigIssue(r);
    case 3:
      return readInvalidValueIssue(r);
    case 4:
      return readUnrecognizedKeysIssue(r);
    case 5:
      return readInvalidUnionIssue(r);
    case 6:
      return readInvalidFormatIssue(r);
    case 7:
      return readInvalidJsonIssue(r);
    default:
      return readCustomIssue(r);
  }
}

export function readPathSegment(r: Reader): PathSegment {
  switch (r.number()) {
    case 0:
      return r.string();
    default:
      return r.number();
  }
}

export function readPlannerAck(r: Reader): PlannerAck {
  switch (r.number()) {
    case 0:
      return readAcceptedAck(r);
    default:
      return readRejectedAck(r);
  }
}

export function readRunTools(r: Reader): Decision {
  return { type: "runTools", calls: r.list(readToolCall), delegations: r.list(readDelegation), replies: r.list(readToolMessage), next: readNextCall(r) };
}
