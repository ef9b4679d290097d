// The primitives' results as the core writes them (src/wasm/core.rs), and `write_todos`
// arguments as they cross: valid arguments come back as the places of their strings in the
// caller's own string, the rest as fields for a `Reader`.
import type { PlannerAck, WriteTodos } from "../types";
import { encodeValue, wellFormed } from "./encode.js";
import type { Engine } from "./engine.js";
import { zodView } from "./object.js";
import { TODO_STATUS, readTodo } from "./field_readers.js";
import type { Reader } from "./reader.js";

/** The operations that take `write_todos` arguments, by the form the arguments cross in
 * (`crossing`). */
export type ArgsOps = readonly [number, number, number];

/** The status of `ops` run with `write_todos` arguments, and `source`, the string the
 * core's offsets point into. */
export function callWithArgs(engine: Engine, ops: ArgsOps, handle: number, args: unknown, nowMs = 0): { status: number; source: string } {
  const { form, text, source } = crossing(zodView(args));
  return { status: engine.call(ops[form], handle, text, nowMs), source };
}

/** Tool-call arguments as they cross: raw JSON text, its JSON literal, or a JS value;
 * `source` is the string the core's offsets point into. */
function crossing(args: unknown): { form: 0 | 1 | 2; text: string; source: string } {
  if (typeof args === "string") {
    return wellFormed(args) ? { form: 0, text: args, source: args } : { form: 2, text: JSON.stringify(args), source: args };
  }
  const text = encodeValue(args);
  return { form: 1, text, source: text };
}

/** A string the core found in `source` (see `push_span` in src/wasm/core.rs): its flag
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
 * in `source` (see `write_found` in src/wasm/core.rs). */
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

/** Valid arguments the core read on its full path (see `write_data` in src/wasm/core.rs). */
export function readArgs(reader: Reader): WriteTodos {
  const data: WriteTodos = { todos: reader.list(readTodo) };
  for (const key of OPTIONAL) {
    const kind = reader.number();
    if (kind === 1) data[key] = reader.string();
    else if (kind === 2) data[key] = undefined;
  }
  return data;
}

/** An ack the core made on its full path (see `ack` in src/wasm/core.rs). */
export function readAck(reader: Reader): PlannerAck {
  if (reader.flag()) return { ok: true, revision: reader.number(), todoCount: reader.number(), inProgress: reader.optionalString() };
  return { ok: false, error: reader.string() as "planner_overuse_execute_next_step", message: reader.string() };
}
