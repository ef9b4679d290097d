// Claude Code's sub-agents, each placed under the call that started it. A call is matched
// to a sub-agent's session by the agent id its result names (2.x, where each sub-agent has
// a file of its own), or else by its prompt, which opens the sub-agent's session (1.0.x,
// which writes them into the parent's file in the order they finished and names no id).
// A prompt that more than one call or more than one session has links none of them: such
// a session, and any no call names, is shown under the parent session, unlinked.
import { statSync } from "node:fs";
import { basename } from "node:path";

import { readText, why } from "./files.js";
import { isObject, text, type Sidechain, type Spawn, type Transcript } from "./log.js";
import { readTranscripts } from "./transcripts.js";
import { typed } from "./typed.js";

/** A sub-agent's session under the call that started it (`undefined`: linked to none). */
export interface Child {
  spawn: Spawn | undefined;
  /** The kind of agent: the call's `subagent_type`, or what its own files name, or "". */
  agentType: string;
  transcript: Transcript;
  children: Child[];
}

/** How deep sub-agents are placed under sub-agents; one found deeper is shown at the top,
 *  unlinked, so that the replay and the report of a hostile file stay shallow. */
const MAX_DEPTH = 8;

/** A sub-agent's meta file is a few fields; more is not Claude Code's. */
const META_MAX_BYTES = 64 * 1024;

/** `items` by `key`, for the keys (not "") exactly one item has. */
function only<T>(items: T[], key: (item: T) => string): Map<string, T> {
  const found = new Map<string, T | null>();
  for (const item of items) {
    const k = key(item);
    if (k !== "") found.set(k, found.has(k) ? null : item);
  }
  return new Map([...found].filter((entry): entry is [string, T] => entry[1] !== null));
}

/** The call that started each sidechain it can be told for: by agent id, then by prompt. */
function links(spawns: Spawn[], sidechains: Sidechain[]): Map<Spawn, Sidechain> {
  const started = new Map<Spawn, Sidechain>();
  const join = (calls: Map<string, Spawn>, sessions: Map<string, Sidechain>) => {
    for (const [key, spawn] of calls) {
      const sidechain = sessions.get(key);
      if (sidechain) started.set(spawn, sidechain);
    }
  };
  join(only(spawns, (s) => s.agentId), only(sidechains, (s) => s.agentId));
  const taken = new Set(started.values());
  // (A sub-agent's session opens with its prompt, read as the user's words are.)
  const opening = (t: Transcript) => (t.turns[0]?.role === "user" ? t.turns[0].text : "");
  join(only(spawns.filter((s) => !started.has(s)), (s) => typed(s.prompt)), only(sidechains.filter((s) => !taken.has(s)), (s) => opening(s.transcript)));
  return started;
}

/** The sub-agents of `parent` among `sidechains` (sub-agents' too), each once, under the
 *  call that started it, in call order; those linked to no call follow, in their order. */
export function adopt(parent: Transcript, sidechains: Sidechain[]): Child[] {
  const started = links([parent, ...sidechains.map((s) => s.transcript)].flatMap((t) => t.spawns ?? []), sidechains);
  const placed = new Set<Sidechain>();
  const top: Child[] = [];
  // Sessions whose calls are still to follow, with the list their sub-agents go to.
  const stack: { transcript: Transcript; into: Child[]; depth: number }[] = [];
  const place = (sidechain: Sidechain, spawn: Spawn | undefined, into: Child[], depth: number) => {
    placed.add(sidechain);
    const child = { spawn, agentType: spawn?.agentType || sidechain.agentType, transcript: sidechain.transcript, children: [] };
    into.push(child);
    stack.push({ transcript: sidechain.transcript, into: child.children, depth });
  };
  const follow = () => {
    for (let next = stack.pop(); next; next = stack.pop()) {
      if (next.depth >= MAX_DEPTH) continue;
      for (const spawn of next.transcript.spawns ?? []) {
        const sidechain = started.get(spawn);
        if (sidechain && !placed.has(sidechain)) place(sidechain, spawn, next.into, next.depth + 1);
      }
    }
  };
  stack.push({ transcript: parent, into: top, depth: 0 });
  follow();
  for (const sidechain of sidechains) {
    if (placed.has(sidechain)) continue;
    place(sidechain, undefined, top, 1);
    follow();
  }
  return top;
}

/** The sub-agent in `file` (Claude Code 2.x), with the kind of agent its meta file names;
 *  what cannot be read goes to `problems`. */
export function agentSession(file: string, problems: string[]): Sidechain | undefined {
  let content: string;
  try {
    content = readText(file);
  } catch (error) {
    problems.push(`${file}: ${why(error)}`);
    return undefined;
  }
  const reading = readTranscripts(file, content);
  problems.push(...reading.problems);
  const [transcript] = reading.transcripts;
  if (!transcript) return undefined;
  const agentId = basename(file, ".jsonl").slice("agent-".length);
  return { transcript, agentId, agentType: metaType(file.replace(/\.jsonl$/, ".meta.json"), problems) };
}

/** The `agentType` of a sub-agent's meta file (`{"agentType": "general-purpose", …}`), or
 *  "" when it has none; a file that is not one is a problem, a missing one is not. */
function metaType(meta: string, problems: string[]): string {
  try {
    const stats = statSync(meta);
    if (!stats.isFile()) throw new Error("not a regular file");
    if (stats.size > META_MAX_BYTES) throw new Error(`larger than ${META_MAX_BYTES / 1024} KB, more than a meta file holds`);
    const value: unknown = JSON.parse(readText(meta));
    return isObject(value) ? text(value.agentType) : "";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") problems.push(`${meta}: ${error instanceof SyntaxError ? `not JSON (${error.message})` : why(error)}`);
    return "";
  }
}
