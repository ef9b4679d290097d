// planloop's JS API over its two wasm modules: the primitives (validation, the planner,
// the trail) and the session engine, loaded with the first `Session`, `PlanReviewStore`
// or `composePrompt`. Each function writes its arguments once, calls the core, and reads
// the result; nothing is decided here.
import type {
  ApprovalOutcome,
  ApproveOptions,
  BeginTurn,
  ComposeInput,
  Composed,
  ContextCapsule,
  ContextCapsuleInput,
  Decision,
  Event,
  HistoryOptions,
  IterationVerdict,
  JsonSchema,
  ModelResponse,
  PlannerAck,
  PlannerOptions,
  PlannerSnapshot,
  PlanReview,
  PlanReviewStoreData,
  PlanState,
  Progress,
  PromptParts,
  Proposal,
  ReasoningEvent,
  RejectOptions,
  SessionConfig,
  SessionSnapshot,
  StepPlan,
  Todo,
  ToolDefinition,
  ToolResult,
  ToolResultsOutcome,
  TurnStart,
  WriteTodos,
  WriteTodosValidation,
} from "../types";
import { Thrown, encodeArgs, encodeValue } from "./encode.js";
import type { Engine } from "./engine.js";
import { core, session } from "./modules.js";
import { IssueReader } from "./issues.js";
import { Op, Status } from "./ops.js";

/** Calls `op` with `args` (encoded as JS values) and reads the result. */
function call<T>(engine: Engine, op: number, handle: number, args: readonly unknown[]): T {
  return engine.result(engine.call(op, handle, encodeArgs(args))) as T;
}

// A string with a lone surrogate cannot cross as UTF-8: it crosses as its JSON literal.
const wellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: () => boolean }).isWellFormed === "function"
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/.test(text);

/** Tool-call arguments as they cross: raw JSON text, its JSON literal, or a JS value;
 * `source` is the string the core's offsets point into. */
function crossing(args: unknown): { form: 0 | 1 | 2; text: string; source: string } {
  if (typeof args === "string") {
    return wellFormed(args) ? { form: 0, text: args, source: args } : { form: 2, text: JSON.stringify(args), source: args };
  }
  const text = encodeValue(args);
  return { form: 1, text, source: text };
}

/** A string the core found in `source`: sliced, or decoded when it holds escapes. */
function found(source: string, flag: number, start: number, end: number): string {
  return flag === 1 ? source.slice(start, end) : (JSON.parse(source.slice(start - 1, end + 1)) as string);
}

const STATUSES = ["pending", "in_progress", "completed"] as const;
const OPTIONAL = ["focus", "note"] as const;

/** `write_todos` arguments the core found valid, built from the places of their strings
 * (see `write_found` in src/wasm/core.rs): `n` from `base` is the core's number output. */
function foundArgs(n: Uint32Array, base: number, source: string): WriteTodos {
  const count = n[base]!;
  const todos = new Array<WriteTodos["todos"][number]>(count);
  for (let i = 0, at = base + 9; i < count; i++, at += 7) {
    todos[i] = { id: found(source, n[at]!, n[at + 1]!, n[at + 2]!), content: found(source, n[at + 3]!, n[at + 4]!, n[at + 5]!), status: STATUSES[n[at + 6]!]! };
  }
  const data: WriteTodos = { todos };
  for (let k = 0, at = base + 1; k < 2; k++, at += 4) {
    if (n[at] === 1) data[OPTIONAL[k]!] = found(source, n[at + 1]!, n[at + 2]!, n[at + 3]!);
    else if (n[at] === 2) data[OPTIONAL[k]!] = undefined;
  }
  return data;
}

function issueReader(engine: Engine): IssueReader {
  const text = engine.text();
  return new IssueReader(engine.words, engine.numbersAt(), text);
}

/** A validation the core wrote as JSON; optional keys given as `undefined` (which JSON
 * cannot carry, and zod keeps) are named in its number output. */
function jsonValidation(engine: Engine): WriteTodosValidation {
  const undefinedKeys = Array.from(engine.numbers());
  const result = JSON.parse(engine.text()) as WriteTodosValidation;
  if (result.success && undefinedKeys.length > 0) {
    // Written as `null` in the JSON; put back as the `undefined` zod keeps.
    const parsed: Partial<WriteTodos> = result.data;
    const data: WriteTodos = { todos: result.data.todos };
    OPTIONAL.forEach((key, index) => {
      if (undefinedKeys.includes(index)) data[key] = undefined;
      else if (key in parsed) data[key] = parsed[key];
    });
    return { success: true, data };
  }
  return result;
}

/** Validates `write_todos` arguments exactly as zod 4's `safeParse` would for the tool's
 * schema. `args` may be the raw JSON text of a tool call; text that is not JSON gives one
 * `invalid_json` issue. */
export function validateWriteTodos(args: unknown): WriteTodosValidation {
  const engine = core();
  const { form, text, source } = crossing(args);
  const status = engine.call([Op.ValidateText, Op.ValidateValue, Op.ValidateQuoted][form]!, 0, text);
  if (status === Status.Found) return { success: true, data: foundArgs(engine.words, engine.numbersAt(), source) };
  if (status === Status.Issues) return { success: false, error: { issues: issueReader(engine).issues() } };
  if (status === Status.Json) return jsonValidation(engine);
  return engine.result(status) as WriteTodosValidation;
}

/** The JSON Schema of `write_todos` arguments (draft 2020-12). */
export function writeTodosJsonSchema(): JsonSchema {
  return call(core(), Op.WriteTodosJsonSchema, 0, []);
}

/** The planner tools planloop answers itself, as `{name, description, parameters}`. */
export function toolDefinitions(): ToolDefinition[] {
  return call(core(), Op.ToolDefinitions, 0, []);
}

/** One sentence of the visible text, capped at `maxChars` code points (default 160);
 * `null` when the text has none. Hidden reasoning (`<think>…</think>` and the like) is
 * never returned. */
export function extractReflection(text: string, maxChars?: number): string | null {
  return call(core(), Op.ExtractReflection, 0, [text, maxChars]);
}

/** Builds a `ContextCapsule`, cutting every list and string to its cap. */
export function contextCapsule(input: ContextCapsuleInput): ContextCapsule {
  return call(core(), Op.ContextCapsule, 0, [input]);
}

/** Composes a system prompt: the agent's own prompt, then planloop's parts and the
 * user's components in a fixed order, with `{{{key}}}` values filled in. A broken rule
 * (a misspelt toggle, `core: false`, a duplicate name) is an `invalid_options` error. */
export function composePrompt(input: ComposeInput): Composed {
  return call(session(), Op.ComposePrompt, 0, [input]);
}

/** Frees an instance's core state when its JS object is collected. */
const registry =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry<{ engine: () => Engine; op: number; handle: number }>(({ engine, op, handle }) => {
        engine().call(op, handle, "");
      })
    : undefined;

/** What every planloop class shares: a handle to its state in a module. */
abstract class Instance {
  /** @internal */
  protected handle: number;
  /** @internal */
  protected readonly engine: () => Engine;
  /** @internal */
  private readonly freeOp: number;

  /** @internal */
  protected constructor(engine: () => Engine, handle: number, freeOp: number) {
    this.engine = engine;
    this.handle = handle;
    this.freeOp = freeOp;
    registry?.register(this, { engine, op: freeOp, handle }, this);
  }

  /** Releases the state now rather than when the object is collected. */
  free(): void {
    if (this.handle === 0) return;
    registry?.unregister(this);
    this.engine().call(this.freeOp, this.handle, "");
    this.handle = 0;
  }

  /** @internal */
  protected call<T>(op: number, args: readonly unknown[]): T {
    return call(this.engine(), op, this.handle, args);
  }
}

/** The todo list a model keeps with `write_todos`, and the planner-overuse guard. */
export class PlannerState extends Instance {
  /** `options`: `{maxPlannerOnlyStreak?: number, plannerTools?: string[]}`. */
  constructor(options?: PlannerOptions) {
    super(core, call<number>(core(), Op.PlannerNew, 0, [options]), Op.PlannerFree);
  }

  /** Starts an iteration with the names of every tool the model called in it; the
   * verdict says whether its planner calls will be refused. */
  recordIteration(toolNames: string[]): IterationVerdict {
    return this.call(Op.PlannerRecordIteration, [toolNames]);
  }

  /** Applies one `write_todos` call (an object or its raw JSON text) and returns the ack
   * to send back as the tool result. */
  applyWriteTodos(args: unknown, nowMs: number): PlannerAck {
    if (typeof nowMs !== "number" || !Number.isFinite(nowMs)) return this.call(Op.PlannerApplyChecked, [args, nowMs]);
    const engine = this.engine();
    const { form, text, source } = crossing(args);
    const status = engine.call([Op.PlannerApplyText, Op.PlannerApplyValue, Op.PlannerApplyQuoted][form]!, this.handle, text, nowMs);
    if (status === Status.Rejected) {
      const reader = issueReader(engine);
      const message = reader.string();
      return { ok: false, error: "invalid_arguments", message, issues: reader.issues() };
    }
    if (status !== Status.Accepted) return engine.result(status) as PlannerAck;
    const at = engine.numbersAt();
    const n = engine.words;
    return { ok: true, revision: n[at]!, todoCount: n[at + 1]!, inProgress: n[at + 2] === 0 ? null : found(source, n[at + 2]!, n[at + 3]!, n[at + 4]!) };
  }

  /** `{revision, todos, focus, note, updatedAt}`. */
  snapshot(): PlannerSnapshot {
    return this.call(Op.PlannerSnapshot, []);
  }
}

/** The `[Plan]`/`[Act]`/`[Obs]`/`[Reflect]` trail of an agent run. */
export class ReasoningLog extends Instance {
  /** `options`: `{mode?: "rolling" | "full", size?: number}` (rolling, 4 by default). */
  constructor(options?: HistoryOptions) {
    super(core, call<number>(core(), Op.LogNew, 0, [options]), Op.LogFree);
  }

  /** `[Plan] 2/4 done · now: <id>`, from `planner.snapshot()`. */
  recordPlan(snapshot: PlannerSnapshot, iteration: number, nowMs: number): ReasoningEvent {
    return this.call(Op.LogRecordPlan, [snapshot, iteration, nowMs]);
  }

  /** `[Act] tool("primary argument")`; `args` is the call's arguments, as an object or
   * its JSON text. */
  recordAct(tool: string, args: unknown, iteration: number, nowMs: number): ReasoningEvent {
    return this.call(Op.LogRecordAct, [tool, args, iteration, nowMs]);
  }

  /** `[Obs] tool ok: <first line>` or `[Obs] tool failed: <first line>`. */
  recordObs(tool: string, output: string, isError: boolean, iteration: number, nowMs: number): ReasoningEvent {
    return this.call(Op.LogRecordObs, [tool, output, isError, iteration, nowMs]);
  }

  /** `[Reflect] <first visible sentence>`, or `null` when the text has none. */
  recordReflection(text: string, iteration: number, nowMs: number, maxChars?: number): ReasoningEvent | null {
    return this.call(Op.LogRecordReflection, [text, iteration, nowMs, maxChars]);
  }

  /** The kept events, oldest first. */
  events(): ReasoningEvent[] {
    return this.call(Op.LogEvents, []);
  }

  /** The kept events as tagged display lines, oldest first. */
  steps(): string[] {
    return this.call(Op.LogSteps, []);
  }

  /** Forgets every event. */
  clear(): void {
    this.call(Op.LogClear, []);
  }
}

/** The loop controller of one conversation (see the README for the drive loop). */
export class Session extends Instance {
  /** A session; every key of `config` is optional (see `SessionConfig`). */
  constructor(config?: SessionConfig) {
    super(session, Session.made ?? call<number>(session(), Op.SessionNew, 0, [config]), Op.SessionFree);
  }

  /** @internal */
  private static made: number | undefined;

  /** A session from a snapshot (the object `snapshot()` returned, or its JSON text). A
   * snapshot that is not sound is refused with `invalid_snapshot`. */
  static restore(snapshot: SessionSnapshot | string): Session {
    // An object is read as its JSON, as a store would hold it.
    let document: unknown = snapshot;
    if (typeof snapshot !== "string") {
      try {
        document = JSON.stringify(snapshot) ?? snapshot;
      } catch (error) {
        document = new Thrown(error);
      }
    }
    Session.made = call<number>(session(), Op.SessionRestore, 0, [document]);
    try {
      return new Session();
    } finally {
      Session.made = undefined;
    }
  }

  /** Everything the session needs to go on, as one JSON document: store it anywhere. */
  snapshot(): SessionSnapshot {
    return this.call(Op.SessionSnapshot, []);
  }

  /** The plan tracked from the model's `[Step]` lines (seed 001's `plan.json`), or `null`. */
  stepPlan(): StepPlan | null {
    return this.call(Op.SessionStepPlan, []);
  }

  /** The system prompt for the next model call (see `composePrompt`): `parts` are the
   * host's (`base`, `components`, `features`, `values`); the session adds its language,
   * the current-plan block, the budget line and, when on, the continuation protocol. */
  systemPrompt(parts: PromptParts, nowMs: number): Composed {
    return this.call(Op.SessionSystemPrompt, [parts, nowMs]);
  }

  /** Starts a turn with a user message. A plan review waiting for this user and chat
   * (in this session, or passed as `review`) makes the message feedback on the plan. */
  beginTurn(input: BeginTurn): TurnStart {
    return this.call(Op.SessionBeginTurn, [input]);
  }

  /** Approves a proposal (`options`: `{editedArgs?, scope?: "once" | "always"}`). When it
   * was the last one waiting, `resumed` says how the turn goes on. */
  approve(actionId: string, approval: ApproveOptions | undefined, nowMs: number): ApprovalOutcome {
    return this.call(Op.SessionApprove, [actionId, approval, nowMs]);
  }

  /** Rejects a proposal (`options`: `{message?}`, which the model reads). */
  reject(actionId: string, rejection: RejectOptions | undefined, nowMs: number): ApprovalOutcome {
    return this.call(Op.SessionReject, [actionId, rejection, nowMs]);
  }

  /** The proposals of the open turn, as they stand. */
  proposals(): Proposal[] {
    return this.call(Op.SessionProposals, []);
  }

  /** Takes a model response and says what to do next. */
  handleModelResponse(response: ModelResponse, nowMs: number): Decision {
    return this.call(Op.SessionHandleModelResponse, [response, nowMs]);
  }

  /** Takes results of the calls the last `runTools` handed out; returns the tool
   * messages to append. */
  handleToolResults(results: ToolResult[], nowMs: number): ToolResultsOutcome {
    return this.call(Op.SessionHandleToolResults, [results, nowMs]);
  }

  /** The events since the last call, oldest first. */
  drainEvents(): Event[] {
    return this.call(Op.SessionDrainEvents, []);
  }

  /** The current todo list. */
  todos(): Todo[] {
    return this.call(Op.SessionTodos, []);
  }

  /** The plan recorded with `plan`, or `null`. */
  plan(): PlanState | null {
    return this.call(Op.SessionPlan, []);
  }

  /** How far the work has come. */
  progress(): Progress {
    return this.call(Op.SessionProgress, []);
  }

  /** A bounded summary of the session for a parent agent. */
  capsule(): ContextCapsule {
    return this.call(Op.SessionCapsule, []);
  }

  /** The reasoning trail as tagged lines (`[Plan]`, `[Act]`, `[Obs]`, `[Reflect]`). */
  steps(): string[] {
    return this.call(Op.SessionSteps, []);
  }

  /** The reasoning trail as events. */
  reasoning(): ReasoningEvent[] {
    return this.call(Op.SessionReasoning, []);
  }

  /** The tools this session answers itself, to offer the model next to the host's. */
  toolDefinitions(): ToolDefinition[] {
    return this.call(Op.SessionToolDefinitions, []);
  }
}

/** Plan reviews waiting for their user's next message, by user and chat; keep one per
 * app and save it (`toJSON`) when each message gets a fresh `Session`. */
export class PlanReviewStore extends Instance {
  constructor() {
    super(session, PlanReviewStore.made ?? call<number>(session(), Op.ReviewsNew, 0, []), Op.ReviewsFree);
  }

  /** @internal */
  private static made: number | undefined;

  /** A store from what `toJSON()` returned. */
  static fromJSON(data: PlanReviewStoreData): PlanReviewStore {
    PlanReviewStore.made = call<number>(session(), Op.ReviewsFromJson, 0, [data]);
    try {
      return new PlanReviewStore();
    } finally {
      PlanReviewStore.made = undefined;
    }
  }

  /** Keeps the review of an `awaitPlanReview` decision (replacing one pending for the
   * same user and chat). */
  put(review: PlanReview): void {
    this.call(Op.ReviewsPut, [review]);
  }

  /** Removes and returns the review pending for this user and chat, or `null` (expired
   * reviews are dropped). */
  take(userId: string | null | undefined, chatId: string | null | undefined, nowMs: number): PlanReview | null {
    return this.call(Op.ReviewsTake, [userId, chatId, nowMs]);
  }

  /** Reviews waiting. */
  get size(): number {
    return this.call(Op.ReviewsSize, []);
  }

  /** The store as plain data, for `fromJSON`. */
  toJSON(): PlanReviewStoreData {
    return this.call(Op.ReviewsToJson, []);
  }
}
