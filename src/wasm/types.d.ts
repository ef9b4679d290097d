// Generated from the Rust types by tests/generated.rs. Do not edit.

/** An error planloop throws: a JS `Error` with a stable `code` and a `data` object. */
export interface PlanloopError extends Error {
    name: "PlanloopError";
    code: ErrorCode;
    data: ErrorData;
}

/** The list was replaced. */
export type AcceptedAck = {
    ok: true;
    revision: number;
    todoCount: number;
    /** The id of the todo in progress, if any. */
    inProgress: string | null;
};

/** Why a `write_todos` call was not applied. */
export type AckError = "invalid_arguments" | Refusal;

/** What `approve` and `reject` return. */
export type ApprovalOutcome = {
    /** The proposal, now approved or rejected. */
    proposal: Proposal;
    /** Proposals of the turn still waiting. */
    pending: number;
    /**
     * When this was the last one: the decision that resumes the turn (`runTools` with the
     * approved calls to run and the rejections as tool messages to append).
     */
    resumed: Decision | null;
    /**
     * The delegate call whose sub-agent made the proposal, when it was one: `resumed`
     * is then that sub-agent's decision, to drive with `child(delegation)`.
     */
    delegation: string | null;
};

/** The options of `approve`. */
export type ApproveOptions = {
    /** Arguments to run the call with instead of the model's. */
    editedArgs?: unknown;
    scope?: Scope;
};

/** Something a run produced or relied on: a note, a file, a URL. */
export type Artifact = {
    /** What kind of thing it is, such as `note`, `file` or `url` (at most 32 characters). */
    type: string;
    /** Where to find it (at most 200 characters). */
    ref: string;
    /** Why it matters (at most 240 characters). */
    summary: string;
};

/** What decided a call's class, so that "always allow" can allow exactly that again. */
export type Basis = {
    by: "rule";
    index: number;
} | {
    by: "tool";
};

/** The start of a turn: a user message. */
export type BeginTurn = {
    /** At most 1000000 characters. */
    message: string;
    /** The host's clock, in milliseconds; the turn's time limit counts from here. */
    nowMs: number;
    /**
     * Who sent it (for plan review across sessions).
     * At most 256 characters.
     */
    userId?: string;
    /**
     * Where it was sent (for plan review across sessions).
     * At most 256 characters.
     */
    chatId?: string;
    /**
     * A plan review the host kept for this user and chat (`PlanReviewStore.take`), when
     * this session did not ask for it itself.
     */
    review?: PlanReview | null;
    /**
     * What the turn is for, beyond its checklist: checked when the list is done (see
     * `completion.verify`).
     */
    goal?: Goal | null;
};

/** The tool rounds left, as a session's `next` reports them. */
export type Budget = {
    /**
     * Tool rounds left (at most `total`).
     * At most 100000.
     */
    remaining: number;
    /**
     * Tool rounds in all.
     * At least 1.
     * At most 100000.
     */
    total: number;
};

/**
 * A sub-agent in a snapshot: its delegate call, and its own snapshot as JSON text
 * (checked as any snapshot is when it is restored).
 */
export type ChildSnapshot = {
    /** At most 256 characters. */
    callId: string;
    snapshot: string;
};

/** How a step was completed. */
export type CompletedBy = "marker" | "transition" | "timeout" | "final_answer";

/** What "done" takes beyond a finished list: a goal check, and evidence for each item. */
export type CompletionOptions = {
    /**
     * How a turn's `goal` is checked.
     * @default "off"
     */
    verify?: Verify;
    /**
     * Ask the model once per turn to do or cite the work of items it marked completed
     * with no tool call made while they were in progress.
     * @default false
     */
    requireEvidence?: boolean;
};

/** How much a task needs. */
export type Complexity = "simple" | "complex";

/** What `composePrompt` takes. Only `base` is required. */
export type ComposeInput = {
    /**
     * The agent's own prompt; it comes first.
     * At most 1000000 characters.
     */
    base: string;
    /**
     * The user's components, each name once.
     * At most 256 items.
     */
    components?: PromptComponent[];
    /**
     * Parts on or off by name. On unless set: `core` (which cannot be turned off),
     * `plan` and `budget` when given, `planner_tools`, `tool_guidelines`,
     * `output_format` when it has a text, and the user's components. Off unless set:
     * `continuation_protocol`. A name that is no part is an error.
     */
    features?: { [key: string]: boolean };
    /**
     * Text for each `{{{key}}}` in the base prompt and the components (each value at
     * most 1,000,000 characters). Keys without a value stay as written and are listed
     * in `unresolved`.
     */
    values?: { [key: string]: string };
    /**
     * The language of planloop's texts (`"en"` unless set).
     * @default "en"
     */
    language?: Language;
    /** The task and its current step. */
    plan?: CurrentPlan | null;
    /** The tool rounds left, as the last line. */
    budget?: Budget | null;
};

/** A composed system prompt. */
export type Composed = {
    prompt: string;
    /** The parts in the prompt, in order: `base` first (unless it is empty). */
    components: string[];
    /** The `{{{keys}}}` left in the prompt for want of a value, each once, in order. */
    unresolved: string[];
};

/** A bounded summary of a run, for a parent agent or the next turn. */
export type ContextCapsule = {
    goal: string;
    planSnapshot: PlannerSnapshot | null;
    keyFindings: string[];
    artifacts: Artifact[];
    nextActions: string[];
};

/** What goes into a capsule; anything over a cap is cut, never refused. */
export type ContextCapsuleInput = {
    /** The goal the run worked on (at most 400 characters). */
    goal: string;
    /** The planner state at the end of the run. */
    planSnapshot?: PlannerSnapshot | null;
    /**
     * What the run learned (the first 8 are kept, each at most 240 characters).
     * @default []
     */
    keyFindings?: string[];
    /**
     * What it produced or relied on (the first 8 are kept).
     * @default []
     */
    artifacts?: Artifact[];
    /**
     * What should happen next (the first 5 are kept, each at most 140 characters).
     * @default []
     */
    nextActions?: string[];
};

/**
 * Seed 003's continuation protocol: the model ends each reply with a `continuation`
 * object saying CONTINUE or TERMINATE.
 */
export type ContinuationProtocol = {
    /**
     * Read the `continuation` object from each text reply (and strip it from the answer).
     * @default false
     */
    enabled?: boolean;
    /**
     * Without an explicit object, terminate. When false, the reply's wording decides
     * (termination phrases first), and no match terminates.
     * @default true
     */
    requireExplicitSignal?: boolean;
};

/** Why the model is asked to go on. */
export type ContinueReason = "plan_unfinished" | "continuation_signal" | "empty_reply" | "stuck" | "cut_off_tool_call" | "tool_call_as_text" | "goal_check" | "goal_unmet" | "evidence_missing";

/** Where the task stands, for seed 001's current-plan block. */
export type CurrentPlan = {
    /**
     * The task, as the user asked for it.
     * At least 1 character.
     * At most 10000 characters.
     */
    goal: string;
    /**
     * The step under way; without one, the model is asked to plan its steps first.
     * At least 1 character.
     * At most 10000 characters.
     */
    step?: string | null;
    /**
     * The current step's number, from 1 (with `totalSteps`).
     * At least 1.
     * At most 10000.
     */
    stepNumber?: number;
    /**
     * How many steps the plan has (with `stepNumber`).
     * At least 1.
     * At most 10000.
     */
    totalSteps?: number;
};

/**
 * A rule of planloop's own that zod has no code for (zod's `custom`), such as a tool
 * result for a call that was never made.
 */
export type CustomIssue = {
    code: "custom";
    path: PathSegment[];
    message: string;
};

/** What the host does after a model response. Switch on `type`. */
export type Decision = {
    type: "runTools";
    calls: ToolCall[];
    delegations: Delegation[];
    replies: ToolMessage[];
    next: NextCall;
} | {
    type: "continue";
    message: string;
    reason: ContinueReason;
    attempt: number;
    maxAttempts: number;
    next: NextCall;
} | {
    type: "finalize";
    answer: string;
    exitReason: ExitReason;
} | {
    type: "pause";
    exitReason: ExitReason;
    summary: string;
} | {
    type: "fail";
    exitReason: ExitReason;
    message: string;
} | {
    type: "awaitApproval";
    proposals: Proposal[];
    calls: ToolCall[];
    delegations: Delegation[];
    replies: ToolMessage[];
    stepsUsed: number;
    stepsRemaining: number;
} | {
    type: "awaitPlanReview";
    review: PlanReview;
    message: string;
    replies: ToolMessage[];
} | {
    type: "verifyGoal";
    goal: Goal;
    answer: string;
    evidence: ItemEvidence[];
};

/**
 * A delegate call the host is to run as a child session (`beginDelegation`), or answer
 * itself like any tool call.
 */
export type Delegation = {
    /**
     * The delegate call's id: the child's capsule answers it.
     * At most 256 characters.
     */
    callId: string;
    /** At most 256 characters. */
    tool: string;
    /**
     * The child's task.
     * At most 20000 characters.
     */
    goal: string;
    /** At most 8 items. */
    acceptance: string[];
    /**
     * The child's budget, carved from what the turn has left.
     * At least 1.
     */
    maxIterations: number;
    /** At least 1. */
    timeoutMs: number;
    /**
     * The child's depth: 1 for a child of the root.
     * At least 1.
     * At most 3.
     */
    depth: number;
    /**
     * A short title, when the call gave one apart from the goal (Claude Code's
     * `description`).
     * At most 20000 characters.
     */
    title?: string;
    /**
     * The kind of sub-agent asked for (`subagent_type`), for a host that has several.
     * At most 64 characters.
     */
    agent?: string;
    /**
     * The parent's todo item it completes.
     * At most 40 characters.
     */
    todoId?: string;
    /** At most 20000 characters. */
    context?: string;
};

/**
 * Sub-agents: the model may hand a scoped goal to a child session through a delegate
 * tool, and gets the child's capsule back as that call's result (see `delegation.rs`).
 */
export type DelegationOptions = {
    /**
     * Offer the delegate tool and hand its calls to the host as delegations.
     * @default false
     */
    enabled?: boolean;
    /**
     * The tools read as delegate calls: planloop's own (offered to the model), then any
     * the host's framework offers (deepagents' `task`, Claude Code's `Agent` or `Task`),
     * whose argument shapes are read too.
     * At least 1 item.
     * At most 4 items.
     * @default ["delegate"]
     */
    toolNames?: string[];
    /**
     * How deep sub-agents may nest: 1 lets the session delegate, and its children not.
     * At least 1.
     * At most 3.
     * @default 1
     */
    maxDepth?: number;
    /**
     * Children one turn may have at a time.
     * At least 1.
     * At most 8.
     * @default 2
     */
    maxInFlight?: number;
    /**
     * Model responses a child may use at most; it gets less when the turn has less left.
     * At least 2.
     * At most 100000.
     * @default 10
     */
    maxIterations?: number;
    /**
     * The longest capsule text a child hands back, in characters.
     * At least 500.
     * At most 20000.
     * @default 4000
     */
    capsuleChars?: number;
};

/** What `finishDelegation` returns. */
export type DelegationOutcome = {
    /** The child's capsule; its `text` is the delegate call's result. */
    capsule: Handoff;
    /** Append these, in order, as tool messages (the delegate call's result first). */
    messages: ToolMessage[];
    /** Every call of the last `runTools` has its result: call the model now. */
    complete: boolean;
    next: NextCall;
};

/** Which decision ended a turn. */
export type EndedAs = "finalized" | "paused" | "failed";

/** How a turn ended, and its last words: the answer, or the summary of a stop. */
export type Ending = {
    how: EndedAs;
    /** At most 4000 characters. */
    words: string;
};

/** Why a call was refused. The codes are a contract: they never change meaning. */
export type ErrorCode = "invalid_argument" | "invalid_options" | "host_exception" | "invalid_state" | "unknown_action" | "action_already_resolved" | "action_of_another_turn" | "invalid_snapshot" | "internal";

/** The machine-readable part of a PlanloopError. */
export type ErrorData = {
    /** The argument or option at fault, as the JS API names it. */
    argument?: string;
    /**
     * What is wrong with it, as validation issues; past six problems, the first five
     * and one that counts the rest.
     */
    issues?: Issue[];
    /** Free-form detail, such as the text of an exception the host threw. */
    detail?: string;
};

/** One event: what happened, in which turn and iteration, at which `nowMs`. */
export type Event = {
    turn: number;
    /** The model response it belongs to (0 before the first one of the turn). */
    iteration: number;
    atMs: number;
} & ({
    type: "TurnStarted";
} | {
    type: "TurnAbandoned";
} | {
    type: "TurnCompleted";
    exitReason: ExitReason;
    iterations: number;
} | {
    type: "TurnPaused";
    reason: PauseReason;
    pendingCount: number;
    stepsUsed: number;
    stepsRemaining: number;
} | {
    type: "TurnResumed";
    stepsRemaining: number;
} | {
    type: "ActionProposed";
    actionId: string;
    tool: string;
    justification: string;
} | {
    type: "ActionResolved";
    actionId: string;
    status: ProposalStatus;
    edited: boolean;
    always: boolean;
} | {
    type: "PlanReviewRequested";
} | {
    type: "PlanFeedbackInjected";
} | {
    type: "TurnFailed";
    exitReason: ExitReason;
    iterations: number;
} | {
    type: "PlanUpdated";
    version: number;
    complexity: Complexity;
} | {
    type: "PlanProgress";
    stepId: string | null;
    planCompleted: boolean;
} | {
    type: "TodosUpdated";
    tool: string;
    revision: number;
    completed: number;
    total: number;
} | {
    type: "PlannerRefused";
    tool: string;
    refusal: Refusal;
} | {
    type: "PlanContinuation";
    attempt: number;
    maxAttempts: number;
    textLength: number;
} | {
    type: "ReminderInjected";
} | {
    type: "Stuck";
    detail: Pattern;
    nudge: number;
} | {
    type: "ContinuationSignal";
    status: Status;
    source: Source;
    reason: string | null;
} | {
    type: "LimitReached";
    exitReason: ExitReason;
    elapsedMs: number;
} | {
    type: "StepPlanCreated";
    planId: string;
} | {
    type: "StepStarted";
    stepId: string;
    description: string;
} | {
    type: "StepCompleted";
    stepId: string;
    by: CompletedBy;
    result: string | null;
} | {
    type: "DelegationStarted";
    callId: string;
    depth: number;
    maxIterations: number;
} | {
    type: "DelegationEnded";
    callId: string;
    status: HandoffStatus;
} | {
    type: "PlanResumed";
    planId: string;
    stepIndex: number;
} | {
    type: "TokensUsed";
    inputTokens: number;
    outputTokens: number;
    ledger: Ledger;
} | {
    type: "GoalCheck";
    verify: Verify;
} | {
    type: "GoalVerdict";
    met: boolean;
    reason: string | null;
} | {
    type: "ItemUnbacked";
    todoId: string;
} | {
    type: "EvidenceRequested";
    items: number;
});

/** A todo with what backs it, as `todos()` gives it. */
export type EvidencedTodo = {
    /** The item's id. */
    id: string;
    content: string;
    /** `pending`, `in_progress` or `completed`. */
    status: TodoStatus;
    /** The calls made while it was in progress, the last 8. */
    receipts: Receipt[];
    /** Completed with no receipt: nothing shows the work was done. */
    unbacked: boolean;
};

/** Why a turn ended. */
export type ExitReason = "final_answer" | "safety_valve" | "stuck" | "max_iterations" | "timeout" | "budget_exhausted";

/** The type a value was expected to have. */
export type Expected = "object" | "array" | "string" | "number" | "int" | "boolean" | "null" | "record";

/** What the turn is for, beyond its checklist: checked when the list is done. */
export type Goal = {
    /**
     * At least 1 character.
     * At most 2000 characters.
     */
    statement: string;
    /**
     * What must hold for the goal to be met, each checked with evidence.
     * At most 8 items.
     */
    criteria?: string[];
};

/** A standing approval given with `scope: "always"`. */
export type Grant = {
    tool: string;
    basis: Basis;
};

/** What a run hands back: seed 004's capsule and how the run stands, bounded. */
export type Handoff = {
    status: HandoffStatus;
    goal: string;
    /** One paragraph: the run's answer, or what it did and what is next. */
    summary: string;
    /** What the run learned from its tools, the last few. */
    keyFindings: string[];
    /** The tool calls of the run's last turn whose results came in, the last 32. */
    evidence: Receipt[];
    /** What the run's last words ask. */
    openQuestions: string[];
    /** The run's list as it ended. */
    todos: Todo[];
    /** Its items still open. */
    nextActions: string[];
    /** The model calls of its last turn, and that turn's time (less any wait for the user). */
    iterations: number;
    elapsedMs: number;
    transcriptRef: string | null;
    /** All of the above as one text for a parent model, within `maxChars`. */
    text: string;
    /** The receipts of each item of `todos`: the calls made while it was in progress. */
    itemEvidence: ItemEvidence[];
};

/** The options of `handoff`. */
export type HandoffOptions = {
    /**
     * Where the host keeps the run's full transcript (a file, a URL, an id), for a
     * reader who needs more than the capsule.
     * At most 2000 characters.
     */
    transcriptRef?: string;
    /**
     * The most characters of `text`.
     * At least 500.
     * At most 20000.
     * @default 4000
     */
    maxChars?: number;
};

/** How a run stands when it hands back. */
export type HandoffStatus = "done" | "partial" | "blocked" | "failed";

/** How much of the trail to keep. */
export type HistoryMode = "rolling" | "full";

/** Options of a ReasoningLog. */
export type HistoryOptions = {
    /** @default "rolling" */
    mode?: HistoryMode;
    /**
     * Events kept in rolling mode.
     * At least 1.
     * At most 1000.
     * @default 4
     */
    size?: number;
};

/** A string holding a lone surrogate (planloop's own check; zod accepts such strings). */
export type InvalidFormatIssue = {
    origin: Origin;
    code: "invalid_format";
    format: "well_formed_utf16";
    path: PathSegment[];
    message: string;
};

/**
 * Arguments given as text that `JSON.parse` would reject; `position` counts UTF-16
 * code units, as JS string indices do.
 */
export type InvalidJsonIssue = {
    code: "invalid_json";
    position: number;
    path: PathSegment[];
    message: string;
};

/** A value of the wrong type. */
export type InvalidTypeIssue = {
    expected: Expected;
    code: "invalid_type";
    path: PathSegment[];
    message: string;
};

/** No alternative of a union matched; `errors` holds each alternative's issues. */
export type InvalidUnionIssue = {
    code: "invalid_union";
    errors: Issue[][];
    path: PathSegment[];
    message: string;
};

/** A value outside an enumeration. */
export type InvalidValueIssue = {
    code: "invalid_value";
    values: string[];
    path: PathSegment[];
    message: string;
};

/** One problem found in a value, as zod 4 reports it. Switch on `code`. */
export type Issue = InvalidTypeIssue | TooSmallIssue | TooBigIssue | InvalidValueIssue | UnrecognizedKeysIssue | InvalidUnionIssue | InvalidFormatIssue | InvalidJsonIssue | CustomIssue;

/** The receipts of one item of the list. */
export type ItemEvidence = {
    /** At most 40 characters. */
    todoId: string;
    /** At most 8 items. */
    receipts: Receipt[];
};

/** The guard's reading of one iteration. */
export type IterationVerdict = {
    /** 1 for the first recorded iteration. */
    iteration: number;
    /** Every call of this iteration was a planner tool. */
    plannerOnly: boolean;
    /** Planner-only iterations in a row, this one included. */
    plannerOnlyStreak: number;
    /** Set when this iteration's planner calls are refused. */
    refusal: Refusal | null;
};

/** A JSON Schema document (draft 2020-12). */
export type JsonSchema = { [key: string]: unknown };

/** The language of the prompts planloop injects (continuation nudges, reminders). */
export type Language = "en" | "zh";

/** The ledger of the current (or last) turn and of the whole session. */
export type Ledger = {
    turn: Tally;
    session: Tally;
};

/** One step of a sub-agent's descent: the parent's turn, and its delegate call. */
export type Link = {
    turn: number;
    /** At most 256 characters. */
    callId: string;
};

/** A model response: its text and its tool calls. */
export type ModelResponse = {
    /**
     * The text of the response (`null` or absent when there is none).
     * At most 1000000 characters.
     */
    text?: string | null;
    /** At most 256 items. */
    toolCalls?: ToolCallInput[];
    /**
     * The tokens the response cost, as the provider reported them (`null` or absent when
     * unknown: it counts nothing).
     */
    usage?: Usage | null;
};

/** How to make the next model call. */
export type NextCall = {
    /** Its iteration number within the turn. */
    iteration: number;
    /** Call the model without tools: this is the last call of the turn, and it must answer. */
    toolsWithheld: boolean;
    /** Model calls with tools still allowed after this one. */
    toolRoundsRemaining: number;
    /** "Tool rounds remaining: X of Y", for the system prompt. */
    budgetLine: string;
    /** Tokens the turn (and session) may still use, when a token limit is set. */
    tokensRemaining: number | null;
};

/** A todo call of another agent's tool, and its dialect. */
export type Observed = {
    dialect: TodoDialect;
    args: unknown;
};

/** What ends a turn that hits `maxIterations` or `timeoutMs`. */
export type OnLimit = "pause" | "fail";

/** What a size limit was measured on (zod's `origin`). */
export type Origin = "string" | "array" | "number" | "unknown";

export type OveruseGuard = {
    maxPlannerOnlyStreak: number;
    plannerTools: string[];
    iteration: number;
    streak: number;
    current?: Refusal | null;
};

/** One step of an issue's path: an object key or an array index. */
export type PathSegment = string | number;

/** How a model is repeating itself. */
export type Pattern = {
    pattern: "sameCallSameResult";
    tool: string;
    times: number;
} | {
    pattern: "sameFailingCall";
    tool: string;
    times: number;
} | {
    pattern: "sameText";
    times: number;
} | {
    pattern: "alternation";
    first: string;
    second: string;
    steps: number;
};

/** Why a turn paused. */
export type PauseReason = "approval" | "plan_review" | "max_iterations" | "timeout" | "budget_exhausted";

/** A call handed to the host, waiting for its result. */
export type PendingCall = {
    id: string;
    name: string;
    /** The tool and its arguments as text, to recognise a repeated call. */
    signature: string;
    /** It ran after the user approved it: its result is written in seed 002's format. */
    approved: boolean;
    answered: boolean;
    /**
     * A todo call the host's own tool answers (`todoMode: "observe"`), to follow once
     * its result is in.
     */
    observed?: Observed | null;
    /**
     * A delegate call: the delegation it became, to run as a sub-agent. (Absent from
     * snapshots before 1.3.)
     */
    delegation?: Delegation;
    /**
     * The todo items in progress where the call stood in its reply, whose evidence its
     * result is; when none were, those in progress as the result comes in. (Absent when
     * none, and before 1.4.)
     * At most 200 items.
     */
    items?: string[];
};

/** The kind of a reasoning step. */
export type Phase = "plan" | "act" | "obs" | "reflect";

/** A plan waiting for the user's word. */
export type PlanReview = {
    /** The `userId` and `chatId` of the turn (null when it had none). */
    userId: string | null;
    chatId: string | null;
    /** The turn that produced the plan. */
    turn: number;
    goal: string;
    /** The plan as the user sees it. */
    plan: string;
    createdAtMs: number;
    expiresAtMs: number;
};

/** Plan review: the user sees the plan before any action runs. */
export type PlanReviewOptions = {
    /**
     * A `plan` call, or the first todo list, ends the step with `awaitPlanReview`.
     * @default false
     */
    enabled?: boolean;
    /**
     * How long a review waits for the user before it is dropped.
     * At least 1.
     * At most 10080.
     * @default 60
     */
    ttlMinutes?: number;
};

/**
 * Pending plan reviews by user and chat, for hosts that start a fresh session per
 * message. Plain data: serialize it with `toJSON()` and restore it with `fromJSON()`.
 */
export type PlanReviewStoreData = {
    /** At most 1000 items. */
    reviews: PlanReview[];
};

/** The plan of the session and what the model reported about it. */
export type PlanState = {
    /** 1 for the first plan; each re-plan adds one. */
    version: number;
    goal: string;
    plan: string;
    complexity: Complexity;
    /** plan_progress(plan_status="completed") was called for this version. */
    completed: boolean;
    /** The steps reported done, oldest first (the last 50). */
    stepsDone: StepRecord[];
    nextStep: string | null;
};

/** Where a plan stands. */
export type PlanStatus = "running" | "completed" | "failed" | "paused";

/** The reply to a `write_todos` call, to send back to the model as the tool result. */
export type PlannerAck = AcceptedAck | RejectedAck;

/** Options of a PlannerState. */
export type PlannerOptions = {
    /**
     * Planner-only iterations allowed in a row; the next one is refused with
     * `planner_overuse_execute_next_step`.
     * At most 1000.
     * @default 2
     */
    maxPlannerOnlyStreak?: number;
    /**
     * The tools that only plan, and do not act.
     * At most 32 items.
     */
    plannerTools?: PlannerToolName[];
};

/** The planner's state as plain data. */
export type PlannerSnapshot = {
    /** 0 before the first accepted `write_todos`; grows by one with each accepted call. */
    revision: number;
    /**
     * The current list (empty before the first accepted call): at most 8 from
     * `write_todos`, up to 200 followed through a dialect.
     * At most 200 items.
     */
    todos: Todo[];
    /** At most 40 characters. */
    focus: string | null;
    /** At most 200 characters. */
    note: string | null;
    /** `nowMs` of the last accepted call. */
    updatedAt: number | null;
};

/** The todo list and the overuse guard of one agent run. */
export type PlannerStateData = {
    state: PlannerSnapshot;
    guard: OveruseGuard;
};

/**
 * A tool name.
 * At least 1 character.
 * At most 64 characters.
 */
export type PlannerToolName = string;

/** How far the work has come. */
export type Progress = {
    source: ProgressSource;
    completed: number;
    /** 0 when unknown. */
    total: number;
    /** 0 to 100, when known. */
    percentage: number | null;
    /** What is being worked on now. */
    current: string | null;
    /** Model responses used in the current (or last) turn. */
    iterations: number;
    maxIterations: number;
    /** The model's last `continuation.progress`, when the protocol is on. */
    reported: ReportedProgress | null;
    /** Steps, tokens and time spent, children's included. */
    ledger: Ledger;
};

/** Where the progress figures come from. */
export type ProgressSource = "continuation" | "todos" | "plan" | "steps" | "none";

/** A component of the user's own, such as house rules or an output format. */
export type PromptComponent = {
    /**
     * Lowercase letters, digits and `_`, starting with a letter. A shared component's
     * name (`core`, `continuation_protocol`, `tool_guidelines`, `output_format`) replaces
     * planloop's text for it, in its place.
     * At least 1 character.
     * At most 64 characters.
     */
    name: string;
    /**
     * Used as it is, without a heading of planloop's.
     * At most 100000 characters.
     */
    text: string;
};

/**
 * The parts of a prompt the host writes: the base prompt, its components, the toggles
 * and the values. `Session::system_prompt` takes these alone and fills in the rest.
 */
export type PromptParts = {
    /**
     * The agent's own prompt; it comes first.
     * At most 1000000 characters.
     */
    base: string;
    /**
     * The user's components, each name once.
     * At most 256 items.
     */
    components?: PromptComponent[];
    /**
     * Parts on or off by name. On unless set: `core` (which cannot be turned off),
     * `plan` and `budget` when given, `planner_tools`, `tool_guidelines`,
     * `output_format` when it has a text, and the user's components. Off unless set:
     * `continuation_protocol`. A name that is no part is an error.
     */
    features?: { [key: string]: boolean };
    /**
     * Text for each `{{{key}}}` in the base prompt and the components (each value at
     * most 1,000,000 characters). Keys without a value stay as written and are listed
     * in `unresolved`.
     */
    values?: { [key: string]: string };
};

/** A call that waits for the user. */
export type Proposal = {
    /** planloop's id for the action; pass it to `approve` or `reject`. */
    actionId: string;
    /** The model's id for the call. */
    callId: string;
    tool: string;
    /** The arguments (as edited, once approved with `editedArgs`). */
    args: unknown;
    /** What the call would do, in a line: `Run: <command>`, `Fetch: <url>`, … */
    justification: string;
    status: ProposalStatus;
    /** The turn the proposal belongs to, and the model response within it. */
    turn: number;
    iteration: number;
    /** What decided it needs approval. */
    basis: Basis;
    /**
     * When a sub-agent made it: the delegations it came through, outermost first (the
     * parent's turn and its delegate call). Absent for the session's own.
     * At most 3 items.
     */
    chain?: Link[];
};

/** Where a proposal stands. */
export type ProposalStatus = "pending" | "approved" | "rejected";

/** One step of the trail. */
export type ReasoningEvent = {
    phase: Phase;
    /** One short line, without the tag. */
    summary: string;
    iteration: number;
    /** The `nowMs` it was recorded at. */
    timestamp: number;
};

/** The tagged trail of one agent run. */
export type ReasoningLogData = {
    options: HistoryOptions;
    events: ReasoningEvent[];
};

/** A tool call whose result came in: its id, its tool, and whether it succeeded. */
export type Receipt = {
    /** At most 256 characters. */
    id: string;
    /** At most 256 characters. */
    name: string;
    ok: boolean;
    /**
     * What the result said, as the trail's observation shows it (the start of it).
     * (Absent before 1.4.)
     * At most 160 characters.
     */
    observation?: string;
};

/** Why the guard refuses the planner calls of an iteration. */
export type Refusal = "planner_overuse_execute_next_step" | "duplicate_planner_call";

/** The options of `reject`. */
export type RejectOptions = {
    /**
     * Why, for the model to read.
     * At most 4000 characters.
     */
    message?: string;
};

/** Nothing changed; `message` tells the model what to do instead. */
export type RejectedAck = {
    ok: false;
    error: AckError;
    message: string;
    issues?: Issue[];
};

/**
 * When the goal/plan reminder is restated (every `reminderInterval` iterations, or only
 * after that many pass with no progress on the plan).
 */
export type ReminderMode = "interval" | "drift";

/** Progress the model reported in its `continuation` object. */
export type ReportedProgress = {
    currentStep: number | null;
    totalSteps: number | null;
    completionPercentage: number | null;
};

/** A child at work that a "continue" resumes. */
export type Resumption = {
    callId: string;
    /**
     * For its model, where the host lost its messages: its goal, what it has done, what
     * comes next. Null when it waits on sub-agents of its own: resume it as its parent,
     * with `child(callId).beginTurn` and the same message.
     */
    message: string | null;
};

/** How long a grant lasts. */
export type Scope = "once" | "always";

/** Everything a `Session` can be told. Every key is optional. */
export type SessionConfig = {
    /**
     * The language of injected prompts.
     * @default "en"
     */
    language?: Language;
    /**
     * Planner-only iterations allowed in a row before planner calls are refused.
     * At most 1000.
     * @default 2
     */
    maxPlannerOnlyStreak?: number;
    /**
     * Continuation nudges per plan before a text-only reply is final (the safety valve).
     * At most 1000.
     * @default 5
     */
    maxPlanContinuations?: number;
    /**
     * Every this many iterations, the goal and plan are restated in the last tool message.
     * At least 1.
     * At most 1000.
     * @default 3
     */
    reminderInterval?: number;
    /**
     * Model responses per turn. The last one gets no tools, so the model answers.
     * At least 1.
     * At most 100000.
     * @default 20
     */
    maxIterations?: number;
    /**
     * Wall-clock budget per turn, measured with the `nowMs` values passed in.
     * At least 1.
     * At most 86400000.
     * @default 300000
     */
    timeoutMs?: number;
    /**
     * What a limit does to the turn.
     * @default "pause"
     */
    onLimit?: OnLimit;
    /** @default {"enabled":false,"requireExplicitSignal":true} */
    continuationProtocol?: ContinuationProtocol;
    /**
     * The todo tools planloop answers (`write_todos` and the dialects of other agents).
     * At most 15 items.
     * @default ["write_todos"]
     */
    todoDialects?: TodoDialect[];
    /**
     * Whether planloop answers those tools (`"answer"`) or follows the host's answers
     * (`"observe"`).
     * @default "answer"
     */
    todoMode?: TodoMode;
    /**
     * The reasoning trail kept for display.
     * @default {"mode":"rolling","size":4}
     */
    history?: HistoryOptions;
    /** @default {"sameCallSameResult":4,"sameFailingCall":3,"sameText":3,"alternationWindow":6,"maxNudges":2} */
    stuck?: StuckOptions;
    /**
     * Which host tools run at once (`read`) and which wait for approval. A tool named
     * nowhere needs approval.
     * @default {"default":"approve","read":[],"approve":[],"rules":[]}
     */
    tools?: ToolPolicy;
    /** @default {"enabled":false,"ttlMinutes":60} */
    planReview?: PlanReviewOptions;
    /**
     * Tool output longer than this is cut (with a note) before it goes back to the model.
     * At least 100.
     * At most 10000000.
     * @default 20000
     */
    maxToolOutputChars?: number;
    /** @default {"enabled":false,"toolNames":["delegate"],"maxDepth":1,"maxInFlight":2,"maxIterations":10,"capsuleChars":4000} */
    delegation?: DelegationOptions;
    /**
     * When the reminder comes: `"drift"` (after `reminderInterval` iterations with no
     * progress on the plan) or `"interval"` (every `reminderInterval` iterations). A
     * session restored from a snapshot older than 1.4 keeps `"interval"`, as it ran.
     * @default "drift"
     */
    reminderMode?: ReminderMode;
    /**
     * Tokens per turn (input and output, its sub-agents' included); at it the turn
     * ends with `budget_exhausted`. No limit when absent.
     * At least 1.
     */
    maxTokens?: number;
    /**
     * Tokens for the whole session; once used up, it begins no more turns.
     * At least 1.
     */
    maxSessionTokens?: number;
    /** @default {"verify":"off","requireEvidence":false} */
    completion?: CompletionOptions;
};

/** Everything a session needs to go on, as plain data. */
export type SessionSnapshot = {
    /** Always `"planloop.session"`. */
    format: string;
    /** `"major.minor"` of the snapshot format. */
    version: string;
    /**
     * FNV-1a (16 hex digits) of the rest of the document, keys sorted.
     * At least 16 characters.
     * At most 16 characters.
     */
    checksum: string;
    config: SessionConfig;
    /** The plan tracked from the model's text, in seed 001's `plan.json` shape. */
    plan?: StepPlan | null;
    /** The todo list and the planner-overuse guard. */
    planner: PlannerStateData;
    /** The plan recorded with the `plan` tool. */
    recordedPlan?: PlanState | null;
    /** The todo tool the model used last. */
    todoTool: TodoDialect;
    /** Turns begun so far. */
    turns: number;
    /** The open turn (or the last one), with its counters and awaited calls. */
    turn?: SnapshotTurn | null;
    /**
     * Proposals, newest last.
     * At most 512 items.
     */
    proposals: Proposal[];
    /**
     * Standing approvals (`scope: "always"`).
     * At most 10000 items.
     */
    grants: Grant[];
    /** A plan review waiting for the user's next message. */
    pendingReview?: PlanReview | null;
    /** The model's last `continuation.progress`. */
    reported?: ReportedProgress | null;
    /**
     * The latest observations, for the context capsule.
     * At most 8 items.
     */
    findings: string[];
    /** The reasoning trail. */
    reasoning: ReasoningLogData;
    /** What the stuck detector remembers. */
    stuck: StuckDetector;
    /**
     * The delegations a sub-agent's session descends from. (Absent for a session of
     * its own, and from snapshots before 1.3.)
     * At most 3 items.
     */
    lineage?: Link[];
    /**
     * The sub-agents at work on the open turn's delegations, each its own snapshot.
     * At most 8 items.
     */
    children?: ChildSnapshot[];
    /** What the session's closed turns spent. (Absent when nothing, and before 1.4.) */
    spent?: Tally;
    /**
     * The receipts of the items of the todo list. (Absent when none, and before 1.4.)
     * At most 200 items.
     */
    evidence?: ItemEvidence[];
};

/** The turn in progress (or the last one), as a snapshot carries it. */
export type SnapshotTurn = {
    number: number;
    message: string;
    startedAt: number;
    iterations: number;
    /** Nudges so far (plan continuations, empty replies, CONTINUE signals, stuck text). */
    continuations: number;
    stuckNudges: number;
    /** Stuck past its nudges: the next response ends the turn. */
    stuckOut: boolean;
    open: boolean;
    /** At most 1024 items. */
    pending: PendingCall[];
    /** A stuck nudge waiting for the last tool message of the batch. */
    batchNudge?: string | null;
    /**
     * Tool messages for rejected proposals, handed out when the turn resumes.
     * At most 1024 items.
     */
    rejections: ToolMessage[];
    /**
     * Proposals made in this turn so far: the next one's action id is `act-<turn>-<n+1>`.
     * (Absent from 1.0 snapshots, which counted the turn's kept proposals instead.)
     * @default 0
     */
    proposed?: number;
    /**
     * When the turn paused for approval, and the time it has waited in all: the user's
     * time to decide is not the agent's time, so the time limit leaves it out.
     */
    pausedAt?: number | null;
    waitedMs: number;
    /** Who sent the message and where, for a plan review. */
    userId?: string | null;
    chatId?: string | null;
    /**
     * The turn's tool calls whose results came in, the last [`RECEIPTS_KEPT`]: what
     * backs what the turn found. (Absent from 1.0 and 1.1 snapshots.)
     * At most 32 items.
     */
    receipts?: Receipt[];
    /** How the turn ended, once it has. (Absent from 1.0 and 1.1 snapshots.) */
    ending?: Ending | null;
    /**
     * Model calls its sub-agents made: the turn's budget too, but not its responses
     * (a response's proposals are told by its iteration). Absent when none (and before
     * 1.3).
     * At least 1.
     */
    delegated?: number;
    /**
     * The iteration of the plan's last progress (an item changed status) or of the last
     * reminder, whichever came later: `reminderMode: "drift"` reminds `reminderInterval`
     * iterations after it (`"interval"` keeps no count). Absent when 0, the turn's start
     * (and before 1.4).
     * At least 1.
     */
    quietSince?: number;
    /**
     * Tokens its responses used, and its sub-agents' once their capsules came in.
     * (Absent when none, and before 1.4.)
     * At least 1.
     */
    inputTokens?: number;
    /** At least 1. */
    outputTokens?: number;
    /**
     * The agent's time in the turn as of its last response, or its end (`progress()`
     * has no clock). (Absent when none, and before 1.4.)
     */
    timeMs?: number;
    /**
     * The goal the turn began with, checked when its list is done. (Absent when none,
     * and before 1.4.)
     */
    goal?: Goal | null;
    /**
     * The answer of a `verifyGoal` decision waiting for the host's verdict.
     * At most 1000000 characters.
     */
    held?: string | null;
    /**
     * Times the model was asked to check the goal (`verify: "nudge"`): once a turn.
     * At least 1.
     */
    goalNudges?: number;
    /**
     * Times the model was asked for the work behind unbacked items: once a turn.
     * At least 1.
     */
    evidenceNudges?: number;
    /**
     * Verdicts that found the goal not met.
     * At least 1.
     */
    goalUnmet?: number;
};

/** Where the decision came from. */
export type Source = "explicit" | "pattern" | "default";

/** What the model asked for. */
export type Status = "CONTINUE" | "TERMINATE";

/** One step of the plan. */
export type Step = {
    /**
     * `step_1`, `step_2`, … in declaration order.
     * At least 1 character.
     * At most 16 characters.
     */
    id: string;
    /**
     * At least 1 character.
     * At most 200 characters.
     */
    description: string;
    status: StepStatus;
    /**
     * What the step came to: the first sentence the model wrote when it closed.
     * At most 160 characters.
     */
    result: string | null;
    progress: StepProgress;
};

/** A plan in seed 001's `plan.json` shape. */
export type StepPlan = {
    /**
     * `plan_<nowMs>` of its creation.
     * At least 1 character.
     * At most 64 characters.
     */
    id: string;
    /** At most 1000000 characters. */
    goal: string;
    status: PlanStatus;
    /** At most 50 items. */
    steps: Step[];
    /** The running step, or the first one not completed (`steps.length` when all are). */
    current_step_index: number;
    /** Model responses since the plan was created, across pauses. */
    iteration_count: number;
};

/** Rounds the step has run, out of the rounds after which it completes by timeout. */
export type StepProgress = {
    current: number;
    total: number;
};

/** A step the model reported done. */
export type StepRecord = {
    stepId: string | null;
    summary: string | null;
};

/** Where a step stands. */
export type StepStatus = "pending" | "running" | "completed" | "failed";

export type StuckDetector = {
    options: StuckOptions;
    steps: StuckStep[];
    sameResultRun: number;
    failingRun: number;
    /** At most 9007199254740991. */
    lastText?: number | null;
    sameTextRun: number;
};

/**
 * When a model is going in circles. Each pattern, once seen, is named in a `Stuck`
 * event and a nudge; after `maxNudges` nudges the turn ends with `exitReason: "stuck"`.
 */
export type StuckOptions = {
    /**
     * The same call with the same result, this many times in a row.
     * At least 2.
     * At most 100.
     * @default 4
     */
    sameCallSameResult?: number;
    /**
     * The same call failing, this many times in a row.
     * At least 2.
     * At most 100.
     * @default 3
     */
    sameFailingCall?: number;
    /**
     * The same text reply, this many times in a row.
     * At least 2.
     * At most 100.
     * @default 3
     */
    sameText?: number;
    /**
     * Two calls alternating A, B, A, B, … over this many steps.
     * At least 4.
     * At most 100.
     * @default 6
     */
    alternationWindow?: number;
    /**
     * Nudges before the turn ends as stuck.
     * At most 100.
     * @default 2
     */
    maxNudges?: number;
};

/** One call as the detector remembers it (fingerprints fit a JSON number exactly). */
export type StuckStep = {
    tool: string;
    /** At most 9007199254740991. */
    call: number;
    /** At most 9007199254740991. */
    result: number;
    failed: boolean;
};

/** What was spent: model responses, tokens, and the agent's time. */
export type Tally = {
    steps: number;
    inputTokens: number;
    outputTokens: number;
    timeMs: number;
};

/** One checklist item. */
export type Todo = {
    /**
     * A short stable id, such as `read_note_context`; keep it across updates.
     * At least 1 character.
     * At most 40 characters.
     */
    id: string;
    /**
     * What to do, short and action-oriented (at most 140 characters from `write_todos`;
     * another agent's list, read through a dialect, may hold longer items).
     * At least 1 character.
     * At most 2000 characters.
     */
    content: string;
    /** `pending`, `in_progress` (the step being worked on) or `completed`. */
    status: TodoStatus;
};

/** The todo tools planloop answers itself. Each updates the same planner state. */
export type TodoDialect = "write_todos" | "TodoWrite" | "update_plan" | "update_todo_list" | "task_tracker" | "gemini_write_todos" | "langchain_write_todos" | "todo_write" | "todowrite" | "droid_TodoWrite" | "TaskCreate" | "TaskUpdate" | "TaskList" | "TaskGet" | "task_progress";

/** Who answers the todo tools of `todoDialects`. */
export type TodoMode = "answer" | "observe";

/** Where a todo stands. */
export type TodoStatus = "pending" | "in_progress" | "completed";

/** A string, array or number over its maximum. */
export type TooBigIssue = {
    origin: Origin;
    code: "too_big";
    maximum: number;
    inclusive: boolean;
    path: PathSegment[];
    message: string;
};

/** A string, array or number under its minimum. */
export type TooSmallIssue = {
    origin: Origin;
    code: "too_small";
    minimum: number;
    inclusive: boolean;
    path: PathSegment[];
    message: string;
};

/** A tool call for the host to run, as the model made it. */
export type ToolCall = {
    id: string;
    name: string;
    /** The arguments: parsed into an object when the model sent JSON text. */
    args: unknown;
};

/** One tool call in a model response. */
export type ToolCallInput = {
    /**
     * The provider's id for the call; the result must carry the same id.
     * At least 1 character.
     * At most 256 characters.
     */
    id: string;
    /**
     * At least 1 character.
     * At most 256 characters.
     */
    name: string;
    /** The arguments: the raw JSON text the provider returned, or an object. */
    args?: unknown;
};

/** What a tool call needs before it runs. */
export type ToolClass = "read" | "approve";

/** A tool definition for OpenAI (`function`), Anthropic (`input_schema`) or LangChain. */
export type ToolDefinition = {
    name: string;
    description: string;
    /** A JSON Schema (draft 2020-12) of the arguments. */
    parameters: JsonSchema;
};

/** A message to append to the conversation as a tool's result. */
export type ToolMessage = {
    toolCallId: string;
    name: string;
    content: string;
    isError: boolean;
};

/** Which tools run at once and which wait for approval. */
export type ToolPolicy = {
    /**
     * The class of a tool named nowhere below.
     * @default "approve"
     */
    default?: ToolClass;
    /**
     * Tools that only read.
     * At most 1024 items.
     * @default []
     */
    read?: string[];
    /**
     * Tools that act (approval wins when a tool is in both lists).
     * At most 1024 items.
     * @default []
     */
    approve?: string[];
    /**
     * Rules on arguments, checked first, in order.
     * At most 256 items.
     * @default []
     */
    rules?: ToolRule[];
};

/** The result of a tool the host ran. */
export type ToolResult = {
    /**
     * The id of the call it answers.
     * At least 1 character.
     * At most 256 characters.
     */
    id: string;
    /**
     * What the tool returned: text, or any value (sent to the model as JSON). For a
     * command, its standard output. `undefined` is no output.
     */
    output: unknown;
    /**
     * A command's standard error, when it is kept apart.
     * At most 10000000 characters.
     */
    stderr?: string;
    /** @default false */
    isError?: boolean;
    durationMs?: number;
    /**
     * At least -2147483648.
     * At most 2147483647.
     */
    exitCode?: number;
};

/** What `handleToolResults` returns. */
export type ToolResultsOutcome = {
    /** Append these, in order, as tool messages. */
    messages: ToolMessage[];
    /** Every call of the last `runTools` has its result: call the model now. */
    complete: boolean;
    next: NextCall;
};

/** A rule on a tool's arguments. The first rule that matches decides. */
export type ToolRule = {
    /**
     * The tool the rule is about.
     * At least 1 character.
     * At most 256 characters.
     */
    tool: string;
    /**
     * The argument to look at, such as `command`. Without it, the rule matches every
     * call of the tool.
     * At least 1 character.
     * At most 256 characters.
     */
    argument?: string;
    /**
     * The argument matches when it is one of these or starts with one followed by a
     * space (`git status` matches `git status -s`, not `git statusx`).
     * At most 256 items.
     * @default []
     */
    prefixes?: string[];
    class: ToolClass;
};

/** What `beginTurn` returns. */
export type TurnStart = {
    turn: number;
    /** The user message to send the model. */
    message: string;
    next: NextCall;
    /**
     * Not empty when "continue" came while sub-agents were at work: the turn goes on,
     * and these are its children, to resume. Send this session's model nothing until
     * their capsules are in.
     */
    delegations: Resumption[];
};

/**
 * Keys a strict object does not know (planloop's options objects are strict, so a
 * misspelt option is reported instead of ignored).
 */
export type UnrecognizedKeysIssue = {
    code: "unrecognized_keys";
    keys: string[];
    path: PathSegment[];
    message: string;
};

/** The tokens of one model response; a count left out is unknown and counts nothing. */
export type Usage = {
    inputTokens?: number;
    outputTokens?: number;
};

/** Why arguments were rejected. */
export type ValidationError = {
    /** Every problem found, in the order zod reports them. */
    issues: Issue[];
};

/** The host's answer to a `verifyGoal` decision. */
export type Verdict = {
    met: boolean;
    /**
     * Why not, for the model to re-plan by.
     * At most 4000 characters.
     */
    reason?: string;
};

/** How a turn's goal is checked when its list is done and the model stops. */
export type Verify = "off" | "nudge" | "host";

/** The arguments of a `write_todos` call: the full current checklist. */
export type WriteTodos = {
    /**
     * The complete list, in order. It replaces the previous one.
     * At least 1 item.
     * At most 8 items.
     */
    todos: WriteTodosItem[];
    /**
     * What is being worked on right now, in a few words.
     * At most 40 characters.
     */
    focus?: string;
    /**
     * A short note on the plan, such as why it changed.
     * At most 200 characters.
     */
    note?: string;
};

/** One checklist item. */
export type WriteTodosItem = {
    /**
     * A short stable id, such as `read_note_context`; keep it across updates.
     * At least 1 character.
     * At most 40 characters.
     */
    id: string;
    /**
     * What to do, short and action-oriented.
     * At least 1 character.
     * At most 140 characters.
     */
    content: string;
    /** `pending`, `in_progress` (the step being worked on) or `completed`. */
    status: TodoStatus;
};

/** `write_todos` arguments after validation: the stripped data, or zod's issues. */
export type WriteTodosValidation = {
    success: true;
    /** The arguments with unknown keys removed. */
    data: WriteTodos;
} | {
    success: false;
    error: ValidationError;
};
