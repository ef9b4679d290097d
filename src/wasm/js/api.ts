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
  Delegation,
  DelegationOutcome,
  Event,
  EvidencedTodo,
  Handoff,
  HandoffOptions,
  HistoryOptions,
  IterationVerdict,
  JsonSchema,
  ModelResponse,
  NextCall,
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
  ToolDefinition,
  ToolResult,
  ToolResultsOutcome,
  TurnStart,
  Verdict,
  WriteTodosValidation,
} from "../types";
import { type Crossing, type TodosOps, encoded, prompt, todosArgs, toolResults } from "./crossing.js";
import { Thrown } from "./encode.js";
import type { Engine, Reader } from "./engine.js";
import { core, session } from "./modules.js";
import {
  type Declared,
  Op,
  Status,
  declared,
  readComposed,
  readIssue,
  readPlannerAck,
  readRunTools,
  readToolResultsOutcome,
  readWriteTodos,
  results,
} from "./boundary.js";

/** Makes the call `request` declares (its arguments encoded as JS values) and reads the
 * result. */
function call<T>(engine: Engine, request: Declared, handle = 0): T {
  return engine.result(engine.send(encoded(request), handle)) as T;
}

/** Makes the call `request` declares and builds its structured result with `read`. */
function fields<T>(engine: Engine, request: Declared, handle: number, read: (reader: Reader) => T): T {
  return sent(engine, encoded(request), handle, read);
}

/** Makes the call `crossing` lays out and builds its structured result with `read`. */
function sent<T>(engine: Engine, crossing: Crossing, handle: number, read: (reader: Reader) => T): T {
  return answer(engine, engine.send(crossing, handle), read);
}

/** The structured result of the last call, built with `read`, or what its status says. */
function answer<T>(engine: Engine, status: number, read: (reader: Reader) => T): T {
  return status === Status.Fields ? read(engine.reader()) : (engine.result(status) as T);
}

const VALIDATE: TodosOps = [Op.ValidateText, Op.ValidateValue, Op.ValidateQuoted];
const APPLY: TodosOps = [Op.PlannerApplyText, Op.PlannerApplyValue, Op.PlannerApplyQuoted];

/** Validates `write_todos` arguments exactly as zod 4's `safeParse` would for the tool's
 * schema. `args` may be the raw JSON text of a tool call; text that is not JSON gives one
 * `invalid_json` issue. */
export function validateWriteTodos(args: unknown): WriteTodosValidation {
  const engine = core();
  const crossing = todosArgs(VALIDATE, args);
  const status = engine.send(crossing, 0);
  if (status === Status.Spans) return { success: true, data: readWriteTodos(engine.spanReader(crossing.source)) };
  if (status === Status.Issues) return { success: false, error: { issues: engine.reader().list(readIssue) } };
  if (status === Status.Fields) return { success: true, data: readWriteTodos(engine.reader()) };
  return engine.result(status) as WriteTodosValidation;
}

/** The JSON Schema of `write_todos` arguments (draft 2020-12). */
export function writeTodosJsonSchema(): JsonSchema {
  return call(core(), [Op.WriteTodosJsonSchema, []]);
}

/** The planner tools planloop answers itself, as `{name, description, parameters}`. */
export function toolDefinitions(): ToolDefinition[] {
  const { name, description, schema } = fields(core(), declared.ToolDefinitions(), 0, results.ToolDefinitions);
  // Tool APIs take the schema of the arguments, without its document keywords.
  const { $schema, title, ...parameters } = JSON.parse(schema) as JsonSchema;
  return [{ name, description, parameters }];
}

/** One sentence of the visible text, capped at `maxChars` code points (default 160);
 * `null` when the text has none. Hidden reasoning (`<think>…</think>` and the like) is
 * never returned. */
export function extractReflection(text: string, maxChars?: number): string | null {
  return fields(core(), declared.ExtractReflection(text, maxChars), 0, results.ExtractReflection);
}

/** Builds a `ContextCapsule`, cutting every list and string to its cap. */
export function contextCapsule(input: ContextCapsuleInput): ContextCapsule {
  return fields(core(), declared.ContextCapsule(input), 0, results.ContextCapsule);
}

/** Composes a system prompt: the agent's own prompt, then planloop's parts and the
 * user's components in a fixed order, with `{{{key}}}` values filled in. A broken rule
 * (a misspelt toggle, `core: false`, a duplicate name) is an `invalid_options` error. */
export function composePrompt(input: ComposeInput): Composed {
  const engine = session();
  return sent(engine, prompt(input), 0, readComposed);
}

/** Frees an instance's core state when its JS object is collected. */
const registry =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry<{ engine: Engine; op: number; handle: number }>(({ engine, op, handle }) => {
        engine.call(op, handle, "");
      })
    : undefined;

/** What every planloop class shares: a handle to its state in a module (the module, kept
 * here, is made before the first instance). */
abstract class Instance {
  /** @internal */
  protected handle: number;
  /** @internal */
  protected readonly engine: Engine;
  /** @internal */
  private readonly freeOp: number;

  /** @internal */
  protected constructor(engine: Engine, handle: number, freeOp: number) {
    this.engine = engine;
    this.handle = handle;
    this.freeOp = freeOp;
    registry?.register(this, { engine, op: freeOp, handle }, this);
  }

  /** Releases the state now rather than when the object is collected. */
  free(): void {
    if (this.handle === 0) return;
    registry?.unregister(this);
    this.engine.call(this.freeOp, this.handle, "");
    this.handle = 0;
  }

  /** @internal */
  protected call<T>(request: Declared): T {
    return call(this.engine, request, this.handle);
  }
}

/** The todo list a model keeps with `write_todos`, and the planner-overuse guard. */
export class PlannerState extends Instance {
  /** `options`: `{maxPlannerOnlyStreak?: number, plannerTools?: string[]}`. */
  constructor(options?: PlannerOptions) {
    super(core(), call<number>(core(), declared.PlannerNew(options)), Op.PlannerFree);
  }

  /** Starts an iteration with the names of every tool the model called in it; the
   * verdict says whether its planner calls will be refused. */
  recordIteration(toolNames: string[]): IterationVerdict {
    return fields(this.engine, declared.PlannerRecordIteration(toolNames), this.handle, results.PlannerRecordIteration);
  }

  /** Applies one `write_todos` call (an object or its raw JSON text) and returns the ack
   * to send back as the tool result. */
  applyWriteTodos(args: unknown, nowMs: number): PlannerAck {
    const engine = this.engine;
    // A time that is not a finite number crosses with the arguments, for the core to
    // refuse as it refuses any argument.
    const crossing = typeof nowMs !== "number" || !Number.isFinite(nowMs) ? { ...encoded(declared.PlannerApplyChecked(args, nowMs)), source: "" } : todosArgs(APPLY, args, nowMs);
    const status = engine.send(crossing, this.handle);
    if (status === Status.Spans) return readPlannerAck(engine.spanReader(crossing.source));
    return answer(engine, status, readPlannerAck);
  }

  /** `{revision, todos, focus, note, updatedAt}`. */
  snapshot(): PlannerSnapshot {
    return fields(this.engine, declared.PlannerSnapshot(), this.handle, results.PlannerSnapshot);
  }
}

/** The `[Plan]`/`[Act]`/`[Obs]`/`[Reflect]` trail of an agent run. */
export class ReasoningLog extends Instance {
  /** `options`: `{mode?: "rolling" | "full", size?: number}` (rolling, 4 by default). */
  constructor(options?: HistoryOptions) {
    super(core(), call<number>(core(), declared.LogNew(options)), Op.LogFree);
  }

  /** `[Plan] 2/4 done · now: <id>`, from `planner.snapshot()`. */
  recordPlan(snapshot: PlannerSnapshot, iteration: number, nowMs: number): ReasoningEvent {
    return fields(this.engine, declared.LogRecordPlan(snapshot, iteration, nowMs), this.handle, results.LogRecordPlan);
  }

  /** `[Act] tool("primary argument")`; `args` is the call's arguments, as an object or
   * its JSON text. */
  recordAct(tool: string, args: unknown, iteration: number, nowMs: number): ReasoningEvent {
    return fields(this.engine, declared.LogRecordAct(tool, args, iteration, nowMs), this.handle, results.LogRecordAct);
  }

  /** `[Obs] tool ok: <first line>` or `[Obs] tool failed: <first line>`. */
  recordObs(tool: string, output: string, isError: boolean, iteration: number, nowMs: number): ReasoningEvent {
    return fields(this.engine, declared.LogRecordObs(tool, output, isError, iteration, nowMs), this.handle, results.LogRecordObs);
  }

  /** `[Reflect] <first visible sentence>`, or `null` when the text has none. */
  recordReflection(text: string, iteration: number, nowMs: number, maxChars?: number): ReasoningEvent | null {
    return fields(this.engine, declared.LogRecordReflection(text, iteration, nowMs, maxChars), this.handle, results.LogRecordReflection);
  }

  /** The kept events, oldest first. */
  events(): ReasoningEvent[] {
    return fields(this.engine, declared.LogEvents(), this.handle, results.LogEvents);
  }

  /** The kept events as tagged display lines, oldest first. */
  steps(): string[] {
    return fields(this.engine, declared.LogSteps(), this.handle, results.LogSteps);
  }

  /** Forgets every event. */
  clear(): void {
    this.call([Op.LogClear, []]);
  }
}

/** The loop controller of one conversation (see the README for the drive loop). */
export class Session extends Instance {
  /** A session; every key of `config` is optional (see `SessionConfig`). */
  constructor(config?: SessionConfig) {
    super(session(), Session.made ?? call<number>(session(), declared.SessionNew(config)), Op.SessionFree);
  }

  /** @internal */
  private static made: number | undefined;

  /** A session from a snapshot (the object `snapshot()` returned, or its JSON text). A
   * snapshot that is not sound is refused with `invalid_snapshot`. */
  static restore(snapshot: SessionSnapshot | string): Session {
    Session.made = call<number>(session(), declared.SessionRestore(stored(snapshot)));
    try {
      return new Session();
    } finally {
      Session.made = undefined;
    }
  }

  /** Everything the session needs to go on, as one JSON document: store it anywhere. */
  snapshot(): SessionSnapshot {
    return this.call([Op.SessionSnapshot, []]);
  }

  /** The plan tracked from the model's `[Step]` lines (seed 001's `plan.json`), or `null`. */
  stepPlan(): StepPlan | null {
    return this.call([Op.SessionStepPlan, []]);
  }

  /** The system prompt for the next model call (see `composePrompt`): `parts` are the
   * host's (`base`, `components`, `features`, `values`); the session adds its language,
   * the current-plan block, the budget line and, when on, the continuation protocol. */
  systemPrompt(parts: PromptParts, nowMs: number): Composed {
    return fields(this.engine, declared.SessionSystemPrompt(parts, nowMs), this.handle, readComposed);
  }

  /** Starts a turn with a user message. A plan review waiting for this user and chat
   * (in this session, or passed as `review`) makes the message feedback on the plan. */
  beginTurn(input: BeginTurn): TurnStart {
    return this.call(declared.SessionBeginTurn(input));
  }

  /** Approves a proposal (`options`: `{editedArgs?, scope?: "once" | "always"}`). When it
   * was the last one waiting, `resumed` says how the turn goes on. */
  approve(actionId: string, approval: ApproveOptions | undefined, nowMs: number): ApprovalOutcome {
    return this.call(declared.SessionApprove(actionId, approval, nowMs));
  }

  /** Rejects a proposal (`options`: `{message?}`, which the model reads). */
  reject(actionId: string, rejection: RejectOptions | undefined, nowMs: number): ApprovalOutcome {
    return this.call(declared.SessionReject(actionId, rejection, nowMs));
  }

  /** The proposals of the open turn, as they stand. */
  proposals(): Proposal[] {
    return this.call([Op.SessionProposals, []]);
  }

  /** Takes a model response and says what to do next. */
  handleModelResponse(response: ModelResponse, nowMs: number): Decision {
    return fields(this.engine, declared.SessionHandleModelResponse(response, nowMs), this.handle, readRunTools);
  }

  /** Takes results of the calls the last `runTools` handed out; returns the tool
   * messages to append. */
  handleToolResults(results: ToolResult[], nowMs: number): ToolResultsOutcome {
    return sent(this.engine, toolResults(results, nowMs), this.handle, readToolResultsOutcome);
  }

  /** Answers a `verifyGoal` decision: `{met: true}` ends the turn with the answer it
   * held; `{met: false, reason}` sends the model back to re-plan (a `continue`). */
  handleVerdict(verdict: Verdict, nowMs: number): Decision {
    return this.call(declared.SessionHandleVerdict(verdict, nowMs));
  }

  /** The events since the last call, oldest first. */
  drainEvents(): Event[] {
    return this.call([Op.SessionDrainEvents, []]);
  }

  /** The current todo list, each item with its `receipts` (the tool calls whose results
   * came in while it was in progress) and `unbacked` (completed with no receipt). */
  todos(): EvidencedTodo[] {
    return this.call([Op.SessionTodos, []]);
  }

  /** The plan recorded with `plan`, or `null`. */
  plan(): PlanState | null {
    return this.call([Op.SessionPlan, []]);
  }

  /** How far the work has come. */
  progress(): Progress {
    return this.call([Op.SessionProgress, []]);
  }

  /** A bounded summary of the session for a parent agent. */
  capsule(): ContextCapsule {
    return this.call([Op.SessionCapsule, []]);
  }

  /** The reasoning trail as tagged lines (`[Plan]`, `[Act]`, `[Obs]`, `[Reflect]`). */
  steps(): string[] {
    return this.call([Op.SessionSteps, []]);
  }

  /** The reasoning trail as events. */
  reasoning(): ReasoningEvent[] {
    return this.call([Op.SessionReasoning, []]);
  }

  /** The tools this session answers itself, to offer the model next to the host's. */
  toolDefinitions(): ToolDefinition[] {
    return this.call([Op.SessionToolDefinitions, []]);
  }

  /** Whether some call of `tool` can wait for approval under the session's tool policy,
   * whatever its arguments: a host gives its framework's approval hook to such tools only. */
  mayHold(tool: string): boolean {
    return this.call(declared.SessionMayHold(tool));
  }

  /** What the next model call may do (as each decision's `next` says): for a host that
   * takes up a session it did not drive, such as one restored from a snapshot. */
  nextCall(nowMs: number): NextCall {
    return this.call(declared.SessionNextCall(nowMs));
  }

  /** What this run hands back to whoever started it (a parent agent): how it stands
   * (`done`, `partial`, `blocked` or `failed`), its answer or a summary, the tool calls
   * that back it, its list and its budget, and `text`, all of it for the parent's model
   * to read as the tool result instead of the run's transcript, within `maxChars`. A run
   * that stopped on a call nobody answered, or with no words, is `partial`, never empty. */
  handoff(options: HandoffOptions | undefined, nowMs: number): Handoff {
    return this.call(declared.SessionHandoff(options, nowMs));
  }

  /** The delegations of the open turn still waiting for their capsule (with
   * `delegation.enabled`, a delegate call the model makes becomes one). */
  delegations(): Delegation[] {
    return this.call([Op.SessionDelegations, []]);
  }

  /** Starts the sub-agent of a delegation: a child session inside this one, with this
   * session's tool policy and the delegation's budget. Its first message (the task) is
   * the result's `message`; drive it through `child(callId)` as any session. */
  beginDelegation(callId: string, nowMs: number): TurnStart {
    return this.call(declared.SessionBeginDelegation(callId, nowMs));
  }

  /** The sub-agent at work on a delegation, as a `Session` (the same contract). It lives
   * in this session: this session's snapshot holds it, and its calls fail once the
   * delegation is finished. */
  child(callId: string): Session {
    Session.made = this.call<number>(declared.SessionChild(callId));
    try {
      return new Session();
    } finally {
      Session.made = undefined;
    }
  }

  /** Ends a delegation: the sub-agent's capsule (as `handoff` makes it, within
   * `delegation.capsuleChars`) becomes the delegate call's result, in `messages`; a
   * `done` capsule completes the delegation's todo item, `partial` and `blocked` leave
   * it in progress. The sub-agent's model calls count against this turn. A sub-agent
   * the host ran as a session of its own (a framework's agent with its own planloop) is
   * given as `child`, its snapshot: the capsule is made from it as from a child here. */
  finishDelegation(callId: string, options: HandoffOptions | undefined, nowMs: number, child?: SessionSnapshot | string): DelegationOutcome {
    return this.call(declared.SessionFinishDelegation(callId, options, nowMs, child === undefined ? undefined : stored(child)));
  }
}

/** A snapshot as a store would hold it: an object is read as its JSON text. */
function stored(snapshot: SessionSnapshot | string): unknown {
  if (typeof snapshot === "string") return snapshot;
  try {
    return JSON.stringify(snapshot) ?? snapshot;
  } catch (error) {
    return new Thrown(error);
  }
}

/** Plan reviews waiting for their user's next message, by user and chat; keep one per
 * app and save it (`toJSON`) when each message gets a fresh `Session`. */
export class PlanReviewStore extends Instance {
  constructor() {
    super(session(), PlanReviewStore.made ?? call<number>(session(), [Op.ReviewsNew, []]), Op.ReviewsFree);
  }

  /** @internal */
  private static made: number | undefined;

  /** A store from what `toJSON()` returned. */
  static fromJSON(data: PlanReviewStoreData): PlanReviewStore {
    PlanReviewStore.made = call<number>(session(), declared.ReviewsFromJson(data));
    try {
      return new PlanReviewStore();
    } finally {
      PlanReviewStore.made = undefined;
    }
  }

  /** Keeps the review of an `awaitPlanReview` decision (replacing one pending for the
   * same user and chat). */
  put(review: PlanReview): void {
    this.call(declared.ReviewsPut(review));
  }

  /** Removes and returns the review pending for this user and chat, or `null` (expired
   * reviews are dropped). */
  take(userId: string | null | undefined, chatId: string | null | undefined, nowMs: number): PlanReview | null {
    return this.call(declared.ReviewsTake(userId, chatId, nowMs));
  }

  /** Reviews waiting. */
  get size(): number {
    return this.call([Op.ReviewsSize, []]);
  }

  /** The store as plain data, for `fromJSON`. */
  toJSON(): PlanReviewStoreData {
    return this.call([Op.ReviewsToJson, []]);
  }
}
