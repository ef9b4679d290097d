// The results of `write_todos` validation and of applying it, as the core writes them
// (src/wasm/primitives.rs): valid arguments come back as the places of their strings in the
// caller's own string (`crossing.ts` says which string), the rest as fields for a `Reader`.
import type { PlannerAck, WriteTodos } from "../types";
import { TODO_STATUS, readTodo } from "./boundary.js";
import type { Reader } from "./engine.js";

/** A string the core found in `source` (see `Spans` in src/wasm/primitives.rs): its flag
 * (0 none, 1 plain, 2 holding escapes), then its start and end between the quotes.
 * Sliced, or decoded when it holds escapes; `null` for none. */
export function found(r: Reader, source: string): string | null {
  const flag = r.number();
  const start = r.number();
  const end = r.number();
  if (flag === 0) return null;
  return flag === 1 ? source.slice(start, end) : (JSON.parse(source.slice(start - 1, end + 1)) as string);
}

const OPTIONAL = ["focus", "note"] as const;

/** `write_todos` arguments the core found valid, built from the places of their strings
 * in `source` (see `write_found` in src/wasm/primitives.rs). */
export function foundArgs(r: Reader, source: string): WriteTodos {
  const count = r.number();
  const data: WriteTodos = { todos: new Array<WriteTodos["todos"][number]>(count) };
  for (const key of OPTIONAL) {
    // Absent (0), a string (1), or `undefined` (2), which zod keeps.
    const kind = r.number();
    const text = found(r, source);
    if (kind === 1) data[key] = text!;
    else if (kind === 2) data[key] = undefined;
  }
  for (let i = 0; i < count; i++) data.todos[i] = { id: found(r, source)!, content: found(r, source)!, status: TODO_STATUS[r.number()]! };
  return data;
}

/** Valid arguments the core read on its full path (see `write_data` in src/wasm/primitives.rs). */
export function readArgs(reader: Reader): WriteTodos {
  const data: WriteTodos = { todos: reader.list(readTodo) };
  for (const key of OPTIONAL) {
    const kind = reader.number();
    if (kind === 1) data[key] = reader.string();
    else if (kind === 2) data[key] = undefined;
  }
  return data;
}

/** An ack the core made on its full path (see `ack` in src/wasm/primitives.rs). */
export function readAck(reader: Reader): PlannerAck {
  if (reader.flag()) return { ok: true, revision: reader.number(), todoCount: reader.number(), inProgress: reader.optionalString() };
  return { ok: false, error: reader.string() as "planner_overuse_execute_next_step", message: reader.string() };
}
