// A tool call's arguments given as an object (LangChain.js, the AI SDK) are copied once
// here when they are plain JSON. The copy is what crosses, and the decision hands it
// back as the call's `args`, where it would otherwise parse the module's JSON of them:
// `JSON.parse` of a 190-byte object takes 1.6 µs in Node 20, the copy 0.5. The module
// reads exactly the copy, so what it classified, recorded and signed is what the host
// runs. An object is copied as the encoding reads any (its own enumerable properties, in
// order), and the module makes a plain object of whatever kind it was, so the copy is
// what it hands back. Anything else (`undefined`, `NaN`, `-0`, a lone surrogate, a
// function, an inherited or `__proto__` key, a read that throws, a cycle, past the
// module's limits) sends the whole response the general way, where the module reads it
// and says what is wrong.
import type { ModelResponse } from "../types";
import { plainObject, wellFormed } from "./encode.js";
import { ANY_LIMITS } from "./ops.js";
import { copies, copy } from "./raw.js";

const hasOwn = Object.prototype.hasOwnProperty;

/** The module's limits for arguments: beyond them it refuses, so no copy is needed. */
const { DEPTH_MAX, NODES_MAX } = ANY_LIMITS;

/** A response whose calls' object arguments are copies, and the copies by call id. */
export interface Copied {
  head: Record<string, unknown>;
  args: Map<string, unknown>;
}

/** `response` with every call's object arguments copied, or `undefined` when it is not
 * plain, no call's arguments are an object, or any are not plain JSON. */
export function copiedArguments(response: ModelResponse): Copied | undefined {
  try {
    const head = plainObject(response) ? copy(response) : undefined;
    const calls = head && copies(head.toolCalls);
    if (!head || !calls) return undefined;
    const args = new Map<string, unknown>();
    for (const call of calls) {
      if (typeof call.args !== "object" || call.args === null) continue;
      const copied = new JsonCopy().value(call.args, 0);
      if (copied === NOT_JSON) return undefined;
      call.args = copied;
      if (typeof call.id === "string") args.set(call.id, copied);
    }
    if (args.size === 0) return undefined;
    head.toolCalls = calls;
    return { head, args };
  } catch {
    return undefined;
  }
}

const NOT_JSON: unique symbol = Symbol("not JSON");

/** A copy of a value that JSON carries as it is, each property read once; `NOT_JSON`
 * for anything else. (Arrays and objects of any kind: see above.) */
class JsonCopy {
  private nodes = 0;

  value(value: unknown, depth: number): unknown {
    if (++this.nodes > NODES_MAX) return NOT_JSON;
    switch (typeof value) {
      case "string":
        return wellFormed(value) ? value : NOT_JSON;
      case "number":
        return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_JSON;
      case "boolean":
        return value;
      case "object":
        if (value === null) return null;
        if (depth >= DEPTH_MAX) return NOT_JSON;
        return Array.isArray(value) ? this.array(value as unknown[], depth) : this.object(value, depth);
      default:
        return NOT_JSON;
    }
  }

  private array(array: unknown[], depth: number): unknown {
    const length = array.length;
    if (length > NODES_MAX) return NOT_JSON;
    const items: unknown[] = [];
    for (let i = 0; i < length; i++) {
      const item = this.value(array[i], depth + 1);
      if (item === NOT_JSON) return NOT_JSON;
      items.push(item);
      if (!hasOwn.call(items, i)) return NOT_JSON;
    }
    return items;
  }

  private object(object: object, depth: number): unknown {
    const members: Record<string, unknown> = {};
    for (const key in object) {
      // `__proto__` would set the copy's prototype rather than be a key.
      if (!hasOwn.call(object, key) || key === "__proto__") return NOT_JSON;
      const item = this.value((object as Record<string, unknown>)[key], depth + 1);
      if (item === NOT_JSON) return NOT_JSON;
      members[key] = item;
      // A setter another script planted on a prototype would take the item for itself,
      // and the copy would hold less than the arguments did.
      if (!hasOwn.call(members, key)) return NOT_JSON;
    }
    return members;
  }
}
