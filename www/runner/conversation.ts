// The conversation a runner keeps, held to what providers accept: each assistant tool
// call answered by one tool message before the next message of another role, and no two
// tool calls with one id anywhere in it. OpenAI-compatible endpoints and Anthropic refuse
// any other history on every later request, so one bad save would end a conversation.
import type { ToolCall } from "planloop";

/** One message of the conversation, in the shape every adapter maps from. */
export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; toolCalls: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError: boolean };

/** The ids of the tool calls in `messages`. */
export function callIds(messages: readonly ChatMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    if (m.role === "assistant") for (const call of m.toolCalls) ids.add(call.id);
  }
  return ids;
}

/** `calls` with ids no other call has: a call whose id is missing, empty or in `taken`
 * (some servers number the calls of each response from 0, or give parallel calls one id)
 * gets `<id>_<n>` (`call_<n>` without an id), `n` its place among the conversation's
 * calls, or the next number free. Each id given is added to `taken`. */
export function distinctIds<T extends { id: string }>(calls: readonly T[], taken: Set<string>): T[] {
  return calls.map((call) => {
    const usable = typeof call.id === "string" && call.id !== "";
    const id = usable && !taken.has(call.id) ? call.id : fresh(usable ? call.id : "call", taken);
    taken.add(id);
    return id === call.id ? call : { ...call, id };
  });
}

/** `<base>_<n>` for the first `n` from the count of ids taken that is free: the ids taken
 * are those of every call before, so it is free at once unless the model used such ids. */
function fresh(base: string, taken: Set<string>): string {
  let n = taken.size + 1;
  while (taken.has(`${base}_${n}`)) n += 1;
  return `${base}_${n}`;
}

/** `messages` made a conversation providers accept, in one pass: a call whose id an earlier
 * call has gets one of its own (see `distinctIds`), and so does the first tool message
 * after it that answers it by the old id; a tool message that answers no open call is
 * dropped; a call still open when its answers end gets a result saying `note`, except a
 * call of the last message in `awaited` (a sub-agent's, still at work). A well-formed
 * conversation comes back as it was. */
export function mend(messages: readonly ChatMessage[], note: string, awaited: ReadonlySet<string> = new Set()): ChatMessage[] {
  const out: ChatMessage[] = [];
  const taken = new Set<string>();
  // The last assistant message's calls (with their ids here), and those still open, by
  // the id the message gave them: the next answer to that id answers `calls[next]`.
  let calls: ToolCall[] = [];
  let open = new Map<string, { calls: ToolCall[]; next: number }>();
  const answered = new Set<string>();
  const close = (leave: ReadonlySet<string> = new Set()) => {
    for (const call of calls) {
      if (!answered.has(call.id) && !leave.has(call.id)) out.push({ role: "tool", toolCallId: call.id, name: call.name, content: note, isError: true });
    }
    calls = [];
    open = new Map();
    answered.clear();
  };
  for (const m of messages) {
    if (m.role === "tool") {
      const waiting = open.get(m.toolCallId);
      const call = waiting?.calls[waiting.next];
      if (!waiting || !call) continue;
      waiting.next += 1;
      answered.add(call.id);
      out.push(call.id === m.toolCallId ? m : { ...m, toolCallId: call.id });
      continue;
    }
    close();
    if (m.role !== "assistant") {
      out.push(m);
      continue;
    }
    calls = distinctIds(m.toolCalls, taken);
    calls.forEach((call, i) => {
      const given = m.toolCalls[i].id;
      const waiting = open.get(given) ?? { calls: [], next: 0 };
      waiting.calls.push(call);
      open.set(given, waiting);
    });
    out.push(calls.every((call, i) => call === m.toolCalls[i]) ? m : { ...m, toolCalls: calls });
  }
  close(awaited);
  return out;
}

/** A saved conversation (untrusted: a file, localStorage) as messages, or a TypeError
 * saying where it is not one. Ids are left for `mend`. */
export function readConversation(value: unknown): ChatMessage[] {
  if (!Array.isArray(value)) throw new TypeError("the saved conversation is not a list of messages");
  value.forEach((m: unknown, i) => {
    if (!messageShaped(m)) throw new TypeError(`message ${i} of the saved conversation is not a message`);
  });
  return value as ChatMessage[];
}

const isText = (value: unknown): value is string => typeof value === "string";

function messageShaped(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Record<string, unknown>;
  switch (m.role) {
    case "system":
    case "user":
      return isText(m.content);
    case "assistant":
      return (m.content === null || isText(m.content)) && Array.isArray(m.toolCalls) && m.toolCalls.every(callShaped);
    case "tool":
      return isText(m.toolCallId) && isText(m.name) && isText(m.content) && typeof m.isError === "boolean";
    default:
      return false;
  }
}

function callShaped(value: unknown): boolean {
  return typeof value === "object" && value !== null && isText((value as ToolCall).id) && isText((value as ToolCall).name);
}
