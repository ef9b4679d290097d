// Uses every export of pkg/planloop.d.ts under `tsc --strict`: the types must let a
// host write this without casts, and must reject what the comments say they reject.
import {
  composePrompt,
  contextCapsule,
  extractReflection,
  PlannerState,
  PlanReviewStore,
  ReasoningLog,
  Session,
  toolDefinitions,
  validateWriteTodos,
  writeTodosJsonSchema,
  type ComposeInput,
  type Composed,
  type ContextCapsule,
  type Decision,
  type Event,
  type ModelResponse,
  type ErrorCode,
  type Issue,
  type PlannerAck,
  type PlanloopError,
  type PlannerSnapshot,
  type PlanReview,
  type Proposal,
  type SessionSnapshot,
  type StepPlan,
  type ReasoningEvent,
  type Todo,
  type ToolDefinition,
  type WriteTodos,
} from "../../pkg/planloop";

const now = Date.now();

// validateWriteTodos: a discriminated union on `success`.
const result = validateWriteTodos('{"todos":[{"id":"a","content":"b","status":"pending"}]}');
if (result.success) {
  const data: WriteTodos = result.data;
  const first: Todo | undefined = data.todos[0];
  const status: "pending" | "in_progress" | "completed" | undefined = first?.status;
  const focus: string | undefined = data.focus;
  void [status, focus];
} else {
  for (const issue of result.error.issues) describe(issue);
}

/** Issues narrow on `code`; every variant's fields are typed. */
function describe(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return `${issue.path.join(".")}: expected ${issue.expected}`;
    case "too_small":
      return `${issue.origin} under ${issue.minimum}`;
    case "too_big":
      return `${issue.origin} over ${issue.maximum}`;
    case "invalid_value":
      return issue.values.join("|");
    case "unrecognized_keys":
      return issue.keys.join(",");
    case "invalid_union":
      return issue.errors.map((alternative) => alternative.map(describe).join(";")).join(" or ");
    case "invalid_format":
      return issue.format;
    case "invalid_json":
      return `at ${issue.position}: ${issue.message}`;
    case "custom":
      return issue.message;
  }
}

// PlannerState: options are optional; acks narrow on `ok`.
const planner = new PlannerState();
const tuned = new PlannerState({ maxPlannerOnlyStreak: 3, plannerTools: ["write_todos", "plan"] });
const verdict = tuned.recordIteration(["write_todos", "search"]);
const refusal: "planner_overuse_execute_next_step" | "duplicate_planner_call" | null = verdict.refusal;
const ack: PlannerAck = planner.applyWriteTodos({ todos: [{ id: "a", content: "b", status: "in_progress" }] }, now);
if (ack.ok) {
  const inProgress: string | null = ack.inProgress;
  const counts: [number, number] = [ack.revision, ack.todoCount];
  void [inProgress, counts];
} else {
  const why: string = ack.error;
  const issues: Issue[] | undefined = ack.issues;
  void [why, issues, ack.message];
}
const snapshot: PlannerSnapshot = planner.snapshot();
const focus: string | null = snapshot.focus;
const updatedAt: number | null = snapshot.updatedAt;

// ReasoningLog.
const log = new ReasoningLog({ mode: "rolling", size: 6 });
const plan: ReasoningEvent = log.recordPlan(snapshot, 1, now);
log.recordAct("search_vault", { query: "q3" }, 1, now);
log.recordObs("search_vault", "3 notes", false, 1, now);
const reflection: ReasoningEvent | null = log.recordReflection("Found it.", 1, now);
const maybeCapped: ReasoningEvent | null = log.recordReflection("Found it.", 1, now, 40);
const phases: ("plan" | "act" | "obs" | "reflect")[] = log.events().map((e) => e.phase);
const steps: string[] = log.steps();
log.clear();
new ReasoningLog();

// Free functions.
const sentence: string | null = extractReflection("<think>x</think>Done.");
const short: string | null = extractReflection("Done.", 40);
const capsule: ContextCapsule = contextCapsule({ goal: "Summarize Q3", planSnapshot: snapshot, keyFindings: ["Revenue +4%"] });
const tools: ToolDefinition[] = toolDefinitions();
const parameters: { [key: string]: unknown } = writeTodosJsonSchema();

// composePrompt: every key but `base` optional; toggles and values are records.
const composeInput: ComposeInput = {
  base: "You are a research assistant for {{{team}}}.",
  language: "zh",
  components: [{ name: "house_style", text: "Short paragraphs." }],
  features: { continuation_protocol: true, house_style: false },
  values: { team: "Finance" },
  plan: { goal: "Summarize Q3", step: null },
  budget: { remaining: 3, total: 5 },
};
const composed: Composed = composePrompt(composeInput);
const composedText: string = composed.prompt;
const composedParts: string[] = [...composed.components, ...composed.unresolved];
composePrompt({ base: "Only the base." });
// @ts-expect-error: a toggle is a boolean.
composePrompt({ base: "b", features: { core: "yes" } });
// @ts-expect-error: the language is "en" or "zh".
composePrompt({ base: "b", language: "fr" });
// @ts-expect-error: base is required.
composePrompt({ values: { a: "b" } });
void [composedText, composedParts];

// Session: decisions narrow on `type`, events on `type`.
const session = new Session({
  maxIterations: 10,
  language: "en",
  todoDialects: ["write_todos", "TodoWrite"],
  continuationProtocol: { enabled: true },
  tools: { default: "approve", read: ["search"], rules: [{ tool: "run_bash", argument: "command", prefixes: ["ls"], class: "read" }] },
  planReview: { enabled: true, ttlMinutes: 30 },
  completion: { verify: "host", requireEvidence: true },
});
const turn = session.beginTurn({ message: "Summarize", nowMs: now, userId: "u1", goal: { statement: "A summary of the notes", criteria: ["Every note is read"] } });
// Each item with what backs it.
const backing: [Todo, number, boolean][] = session.todos().map((t) => [t, t.receipts.length, t.unbacked]);
void backing;
const budget: string = turn.next.budgetLine;
const response: ModelResponse = { text: null, toolCalls: [{ id: "1", name: "search", args: { query: "q" } }] };
const decision: Decision = session.handleModelResponse(response, now);
switch (decision.type) {
  case "runTools": {
    const outcome = session.handleToolResults(decision.calls.map((call) => ({ id: call.id, output: "ok", isError: false, durationMs: 3 })), now);
    const contents: string[] = [...decision.replies, ...outcome.messages].map((m) => m.content);
    const withheld: boolean = outcome.next.toolsWithheld;
    void [contents, withheld];
    break;
  }
  case "continue":
    void [decision.message, decision.attempt, decision.maxAttempts, decision.reason];
    break;
  case "finalize":
    void [decision.answer, decision.exitReason];
    break;
  case "pause":
    void decision.summary;
    break;
  case "fail":
    void decision.message;
    break;
  case "awaitApproval": {
    const waiting: Proposal[] = decision.proposals;
    const first = waiting[0];
    if (first) {
      const status: "pending" | "approved" | "rejected" = first.status;
      const line: string = first.justification;
      const outcome = session.approve(first.actionId, { editedArgs: { query: "q4" }, scope: "always" }, now);
      const pending: number = outcome.pending;
      if (outcome.resumed?.type === "runTools") void outcome.resumed.calls;
      session.reject(first.actionId, { message: "not now" }, now);
      session.approve(first.actionId, undefined, now);
      // @ts-expect-error: scope is "once" or "always".
      session.approve(first.actionId, { scope: "forever" }, now);
      void [status, line, pending];
    }
    void [decision.calls, decision.replies, decision.stepsUsed, decision.stepsRemaining];
    break;
  }
  case "awaitPlanReview": {
    const review: PlanReview = decision.review;
    const who: [string | null, string | null] = [review.userId, review.chatId];
    const store = PlanReviewStore.fromJSON(new PlanReviewStore().toJSON());
    store.put(review);
    const taken: PlanReview | null = store.take(review.userId, review.chatId, now);
    const size: number = store.size;
    session.beginTurn({ message: "OK", nowMs: now, userId: "u1", chatId: "c1", review: taken });
    void [who, size, decision.message, decision.replies];
    break;
  }
  case "verifyGoal": {
    const statement: string = decision.goal.statement;
    const criteria: string[] | undefined = decision.goal.criteria;
    const backed: boolean[] = decision.evidence.map((item) => item.receipts.every((r) => r.ok));
    const verdict: Decision = session.handleVerdict({ met: false, reason: "the tests fail" }, now);
    // @ts-expect-error: `met` is required.
    session.handleVerdict({ reason: "no" }, now);
    void [statement, criteria, backed, verdict, decision.answer];
    break;
  }
  default: {
    const exhaustive: never = decision;
    void exhaustive;
  }
}
const open: Proposal[] = session.proposals();
void open;

// The session's own system prompt: the host's parts only.
const systemPrompt: Composed = session.systemPrompt({ base: "You are Ada.", features: { planner_tools: false } }, now);
void systemPrompt.unresolved;
// @ts-expect-error: the session fills in the plan itself.
session.systemPrompt({ base: "b", plan: { goal: "g" } }, now);

// Snapshots: plain JSON out, a Session back (from the object or its text).
const saved: SessionSnapshot = session.snapshot();
const planStatus: "running" | "paused" | "completed" | "failed" | undefined = saved.plan?.status;
const back: Session = Session.restore(JSON.stringify(saved));
const same: Session = Session.restore(saved);
const tracked: StepPlan | null = back.stepPlan();
if (tracked) {
  const index: number = tracked.current_step_index;
  const results: (string | null)[] = tracked.steps.map((s) => s.result);
  void [index, results];
}
// @ts-expect-error: restore takes a snapshot, not a number.
Session.restore(42);
void [planStatus, same];
const events: Event[] = session.drainEvents();
for (const event of events) {
  if (event.type === "PlanContinuation") void [event.attempt, event.turn, event.atMs];
}
const sessionTodos: Todo[] = session.todos();
const progressNow: "continuation" | "todos" | "plan" | "steps" | "none" = session.progress().source;
const sessionCapsule: ContextCapsule = session.capsule();
const sessionTools: ToolDefinition[] = session.toolDefinitions();
const planNow = session.plan();
if (planNow) void [planNow.version, planNow.complexity, planNow.completed];
void [budget, sessionTodos, progressNow, sessionCapsule, sessionTools, session.steps(), session.reasoning()];
// @ts-expect-error: onLimit is "pause" or "fail".
new Session({ onLimit: "stop" });
// @ts-expect-error: a tool class is "read" or "approve".
new Session({ tools: { default: "write" } });

// Errors: a PlanloopError carries a typed code and data.
try {
  planner.applyWriteTodos("{}", Number.NaN);
} catch (thrown) {
  const error = thrown as PlanloopError;
  const code: ErrorCode = error.code;
  const argument: string | undefined = error.data.argument;
  void [code, argument];
}

// What the types refuse.
// @ts-expect-error: an unknown option is a type error (and an invalid_options error at run time).
new PlannerState({ maxPlannerOnlyStreek: 1 });
// @ts-expect-error: the history mode is "rolling" or "full".
new ReasoningLog({ mode: "all" });
// @ts-expect-error: a todo status is one of three words.
const wrongStatus: Todo = { id: "a", content: "b", status: "done" };
// @ts-expect-error: the ack of an accepted call has no issues.
if (ack.ok) void ack.issues;

void [refusal, focus, updatedAt, plan, reflection, maybeCapped, phases, steps, sentence, short, capsule, tools, parameters, wrongStatus];
