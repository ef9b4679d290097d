// The one shape every agent's session log is read into for replay, and the small readers
// of JSON values the agents' formats share.

/** One tool call, as the model made it. */
export interface Call {
  id: string;
  name: string;
  args: unknown;
}

/** One tool result, as the host gave it. */
export interface Result {
  id: string;
  output: string;
  isError: boolean;
}

/** One model response, the calls it made and the results recorded for them. */
export interface AssistantTurn {
  role: "assistant";
  text: string;
  calls: Call[];
  results: Result[];
}

/** A user message, or one model response and the results of its calls. */
export type Turn = { role: "user"; text: string } | AssistantTurn;

/** A call that started a sub-agent (Claude Code's `Task`, named `Agent` in later versions). */
export interface Spawn {
  id: string;
  /** The assistant turn (from 1) that made it. */
  turn: number;
  tool: string;
  description: string;
  /** The kind of agent asked for (`subagent_type`). */
  agentType: string;
  prompt: string;
  /** The sub-agent's id, as its result names it (Claude Code 2.x), or "". */
  agentId: string;
}

/** A sub-agent's session, before it is placed under the call that started it. */
export interface Sidechain {
  transcript: Transcript;
  /** The id its file is named by (Claude Code 2.x), or "" (written into the parent's file). */
  agentId: string;
  /** The kind of agent, as its own files name it, or "". */
  agentType: string;
}

/** One session of one agent. */
export interface Transcript {
  file: string;
  /** Where in the file (a record's index, for files that hold several). */
  label: string;
  agent: string;
  model: string;
  turns: Turn[];
  /** The sub-agent calls it made, in order. */
  spawns?: Spawn[];
  /** Sub-agent sessions written into the same file. */
  sidechains?: Sidechain[];
}

/** The calls of one response the replay takes (a response with more is cut there). */
export const MAX_CALLS = 256;

export type Json = Record<string, unknown>;

/** A line of a JSON Lines file that is an object, with its line number. */
export type Entry = [Json, number];

export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
export const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** A new model response, with no calls yet. */
export const assistantTurn = (): AssistantTurn => ({ role: "assistant", text: "", calls: [], results: [] });

/** The content blocks of a chat API message (a string is one text block). */
export function blocks(content: unknown): Json[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/** The text of a tool result's content: a string, or text blocks. */
export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block) => (isObject(block) ? text(block.text) : "")).join("\n");
}
