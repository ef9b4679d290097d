// Tool approval in the AI SDK as planloop takes part in it: AI SDK 7's `toolApproval`
// (one function for every call, or a map of statuses and functions by tool, taking
// precedence over each tool's `needsApproval`) composed with planloop's gate, and the
// user's approval as the SDK hands it to a tool's `execute`. Written against the shapes
// the SDK documents, so that it builds against either major.

/** A status, as AI SDK 7's `toolApproval` gives one (`undefined`: not applicable). */
export type ToolApprovalStatus =
  | undefined
  | "not-applicable"
  | "approved"
  | "denied"
  | "user-approval"
  | { type: "not-applicable"; reason?: never }
  | { type: "approved"; reason?: string }
  | { type: "denied"; reason?: string }
  | { type: "user-approval"; reason?: string };

/** What the SDK hands a `toolApproval` function. */
export interface ToolApprovalCall {
  toolCall: { toolName: string; toolCallId: string; input: unknown };
  tools?: Readonly<Record<string, { needsApproval?: unknown } | undefined>> | undefined;
  toolsContext?: unknown;
  runtimeContext?: unknown;
  messages: unknown[];
}

type Maybe<T> = T | PromiseLike<T>;

/** Written as methods, so that functions typed for the SDK's narrower calls (its
 * `GenericToolApprovalFunction` over your tools) are taken as well. */
interface Rules {
  all(options: ToolApprovalCall): Maybe<ToolApprovalStatus>;
  // (The SDK gives each tool's function that tool's typed input.)
  one(input: any, options: { toolCallId: string; messages: unknown[]; toolContext?: unknown; runtimeContext?: unknown }): Maybe<ToolApprovalStatus>;
}

/** A `toolApproval` configuration, as AI SDK 7 takes one. */
export type ToolApproval = Rules["all"] | { [tool: string]: ToolApprovalStatus | Rules["one"] };

/** planloop's gate composed with yours: give it as `toolApproval`. */
export type ToolApprovalFunction = (options: ToolApprovalCall) => Promise<ToolApprovalStatus>;

type Status = Exclude<ToolApprovalStatus, string | undefined>;

/** An own property (names come from the model: `constructor` must not find a method). */
function own(object: unknown, key: string): unknown {
  return typeof object === "object" && object !== null && Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** The status `yours` gives a call, read as the SDK reads it: a function answers every
 * call; a map answers the tools it names; a tool it does not name (or no configuration)
 * answers by the tool's own `needsApproval`. */
async function statusOf(yours: ToolApproval | undefined, options: ToolApprovalCall): Promise<ToolApprovalStatus> {
  if (typeof yours === "function") return yours(options);
  const { toolCall, messages, toolsContext, runtimeContext } = options;
  const name = toolCall.toolName;
  const rule = own(yours, name) as ToolApprovalStatus | Rules["one"] | null;
  if (typeof rule === "function") return rule(toolCall.input, { toolCallId: toolCall.toolCallId, messages, toolContext: own(toolsContext, name), runtimeContext });
  if (rule !== undefined && rule !== null) return rule;
  const needs = own(own(options.tools, name), "needsApproval");
  const needed = typeof needs === "function" ? await needs(toolCall.input, { toolCallId: toolCall.toolCallId, messages, context: own(toolsContext, name) }) : needs;
  return needed ? "user-approval" : undefined;
}

const normal = (status: ToolApprovalStatus): Status => (status === undefined ? { type: "not-applicable" } : typeof status === "string" ? { type: status } : status);

/**
 * planloop's gate composed with `yours`: a call planloop holds (`held`) waits for the
 * user (with your reason when yours asks too) unless yours denies it, the stricter of
 * the two; any other call gets your status.
 */
export function gate(yours: ToolApproval | undefined, held: (callId: string) => boolean): ToolApprovalFunction {
  return async (options) => {
    const status = normal(await statusOf(yours, options));
    if (!held(options.toolCall.toolCallId) || status.type === "denied" || status.type === "user-approval") return status;
    return { type: "user-approval" };
  };
}

/** The parts of `message` if it is one of `role`'s. */
export function partsOf(message: unknown, role: string): Record<string, unknown>[] {
  const content = own(message, "role") === role ? own(message, "content") : undefined;
  return Array.isArray(content) ? content.filter((p): p is Record<string, unknown> => typeof p === "object" && p !== null) : [];
}

/** The user's answer to a call's approval request. */
export interface Answer {
  approved: boolean;
  reason?: string;
}

/**
 * The user's answers in `messages` (those the SDK hands a tool's `execute`), by call id:
 * in the last message, where the SDK reads approvals from, the responses to requests of
 * those calls. An approval counts only for a request the SDK did not answer itself.
 */
export function answersIn(messages: unknown): Map<string, Answer> {
  const answers = new Map<string, Answer>();
  if (!Array.isArray(messages) || messages.length === 0) return answers;
  const responses = new Map<string, Answer>();
  for (const part of partsOf(messages[messages.length - 1], "tool")) {
    if (part.type !== "tool-approval-response" || typeof part.approvalId !== "string") continue;
    responses.set(part.approvalId, { approved: part.approved === true, ...(typeof part.reason === "string" ? { reason: part.reason } : {}) });
  }
  if (responses.size === 0) return answers;
  for (const message of messages) {
    for (const p of partsOf(message, "assistant")) {
      const answer = p.type === "tool-approval-request" && typeof p.approvalId === "string" ? responses.get(p.approvalId) : undefined;
      if (answer === undefined || typeof p.toolCallId !== "string" || (answer.approved && p.isAutomatic === true)) continue;
      answers.set(p.toolCallId, answer);
    }
  }
  return answers;
}

/** Whether `messages` carry the user's approval of call `callId` (`answersIn`). The SDK
 * runs an approved call with these messages; a call it runs without asking has none. */
export function approvedIn(messages: unknown, callId: string): boolean {
  return answersIn(messages).get(callId)?.approved === true;
}

/** JSON text of `value` with each object's keys in order. */
const canonical = (value: unknown): string | undefined =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === "object" && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));

/** Whether the input a call runs with is the one planloop proposed (in any key order). */
export function sameArgs(proposed: unknown, input: unknown): boolean {
  return canonical(proposed) === canonical(input);
}
