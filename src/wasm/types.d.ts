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

/** Something a run produced or relied on: a note, a file, a URL. */
export type Artifact = {
    /** What kind of thing it is, such as `note`, `file` or `url` (at most 32 characters). */
    type: string;
    /** Where to find it (at most 200 characters). */
    ref: string;
    /** Why it matters (at most 240 characters). */
    summary: string;
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
    /**
     * The planner state at the end of the run.
     * @default null
     */
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

/** Why a call was refused. The codes are a contract: they never change meaning. */
export type ErrorCode = "invalid_argument" | "invalid_options" | "host_exception" | "internal";

/** The machine-readable part of a PlanloopError. */
export type ErrorData = {
    /** The argument or option at fault, as the JS API names it. */
    argument?: string;
    /** What is wrong with it, as validation issues. */
    issues?: Issue[];
    /** Free-form detail, such as the text of an exception the host threw. */
    detail?: string;
};

/** The type a value was expected to have. */
export type Expected = "object" | "array" | "string" | "number" | "int" | "boolean" | "null";

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
export type Issue = InvalidTypeIssue | TooSmallIssue | TooBigIssue | InvalidValueIssue | UnrecognizedKeysIssue | InvalidUnionIssue | InvalidFormatIssue | InvalidJsonIssue;

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

/** What a size limit was measured on (zod's `origin`). */
export type Origin = "string" | "array" | "number" | "unknown";

/** One step of an issue's path: an object key or an array index. */
export type PathSegment = string | number;

/** The kind of a reasoning step. */
export type Phase = "plan" | "act" | "obs" | "reflect";

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
     * The current list (empty before the first accepted call).
     * At most 8 items.
     */
    todos: Todo[];
    /** At most 40 characters. */
    focus: string | null;
    /** At most 200 characters. */
    note: string | null;
    /** `nowMs` of the last accepted call. */
    updatedAt: number | null;
};

/**
 * A tool name.
 * At least 1 character.
 * At most 64 characters.
 */
export type PlannerToolName = string;

/** One step of the trail. */
export type ReasoningEvent = {
    phase: Phase;
    /** One short line, without the tag. */
    summary: string;
    iteration: number;
    /** The `nowMs` it was recorded at. */
    timestamp: number;
};

/** Why the guard refuses the planner calls of an iteration. */
export type Refusal = "planner_overuse_execute_next_step" | "duplicate_planner_call";

/** Nothing changed; `message` tells the model what to do instead. */
export type RejectedAck = {
    ok: false;
    error: AckError;
    message: string;
    issues?: Issue[];
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
     * What to do, short and action-oriented.
     * At least 1 character.
     * At most 140 characters.
     */
    content: string;
    /** `pending`, `in_progress` (the step being worked on) or `completed`. */
    status: TodoStatus;
};

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

/** A tool definition for OpenAI (`function`), Anthropic (`input_schema`) or LangChain. */
export type ToolDefinition = {
    name: string;
    description: string;
    /** A JSON Schema (draft 2020-12) of the arguments. */
    parameters: JsonSchema;
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

/** Why arguments were rejected. */
export type ValidationError = {
    /** Every problem found, in the order zod reports them. */
    issues: Issue[];
};

/** The arguments of a `write_todos` call: the full current checklist. */
export type WriteTodos = {
    /**
     * The complete list, in order. It replaces the previous one.
     * At least 1 item.
     * At most 8 items.
     */
    todos: Todo[];
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

/** `write_todos` arguments after validation: the stripped data, or zod's issues. */
export type WriteTodosValidation = {
    success: true;
    /** The arguments with unknown keys removed. */
    data: WriteTodos;
} | {
    success: false;
    error: ValidationError;
};
