// How each call's arguments cross into the module, chosen here for every call. Most cross
// as one array in the JS layer's encoding of JS values (`encode.ts`). Three kinds of
// argument cross in a form of their own, each for a reason measured or required:
//
// - `write_todos` arguments given as JSON text (a chat completions API's tool call) cross
//   as that text, so the module reads it once and valid arguments come back as places in
//   the caller's own string; given as an object (LangChain.js, the AI SDK and the OpenAI
//   Agents SDK hand a tool its arguments parsed), they are first read as zod reads them
//   (`zodView`), which the encoding alone would not do.
// - A tool's output and a prompt's texts cross raw after a small head (a `Crossing` with
//   a head; see `src/wasm/raw.rs`): they are often thousands of units of quotes and lines, and V8's
//   `JSON.stringify` of such text takes ten to twenty times its `encodeInto` (for a
//   prompt, as long as composing it in plain JS). Only arguments of a plain shape go this
//   way, each text well-formed; any other goes in the encoding, and the core says what is
//   wrong with it.
import type { ComposeInput, ToolResult } from "../types";
import { Thrown, encodeArgs, encodeValue, isThrown, plainObject, wellFormed, whereStringGoes } from "./encode.js";
import { COMPOSE_LIMITS, type Declared, Op, WRITE_TODOS, declared } from "./boundary.js";

/** One call's input, for operation `op`: `text` (with the call's time, for arguments
 * that cross as raw JSON text, where it has no place), or a head with raw texts after it
 * (their lengths, in UTF-16 units, as words before it). */
export type Crossing = { op: number; text: string; time?: number } | { op: number; head: string; texts: string; lengths: readonly number[] };

/** A declared call's arguments in the encoding. */
export function encoded([op, args]: Declared): Crossing {
  return { op, text: encodeArgs(args) };
}

// --- write_todos arguments ----------------------------------------------------------

/** The operations that take `write_todos` arguments: as JSON text, as a JS value in the
 * encoding, as the JSON literal of text holding a lone surrogate (which `encodeInto`
 * would replace). */
export type TodosOps = readonly [text: number, value: number, quoted: number];

/** `write_todos` arguments as they cross, at `time` (for `applyWriteTodos`), and
 * `source`, the string the core's offsets point into. */
export function todosArgs(ops: TodosOps, args: unknown, time = 0): Crossing & { source: string } {
  if (typeof args === "string") {
    return wellFormed(args) ? { op: ops[0], text: args, time, source: args } : { op: ops[2], text: JSON.stringify(args), time, source: args };
  }
  const text = encodeValue(zodView(args));
  return { op: ops[1], text, time, source: text };
}

/** `args` as zod reads them, to encode: the schema's keys, each read once, in a plain
 * object; anything but an object (or an object whose reading throws other than at a key:
 * a proxy's other traps) as it is, for the encoding to read again. */
function zodView(args: unknown): unknown {
  try {
    if (!isObject(args)) return args;
    const list = read(args, "todos");
    // zod reads no item of a list over its limit.
    const view: Record<string, unknown> = { todos: Array.isArray(list) && list.length <= WRITE_TODOS.TODOS_MAX ? todos(list) : list };
    for (const key of ["focus", "note"] as const) {
      const value = read(args, key);
      // zod keeps a key set to `undefined`, wherever it lives.
      if (value !== undefined || key in args) view[key] = whereStringGoes(value);
    }
    return view;
  } catch {
    return args;
  }
}

/** Each item of `list` read once, as zod reads a todo. */
function todos(list: readonly unknown[]): unknown[] {
  const items = new Array<unknown>(list.length);
  for (let i = 0; i < items.length; i++) items[i] = todo(read(list, i));
  return items;
}

/** A todo as zod reads it: an object's `id`, `content` and `status`; anything else (a
 * read that threw among them) as it is. */
function todo(item: unknown): unknown {
  if (!isObject(item) || isThrown(item)) return item;
  return { id: whereStringGoes(read(item, "id")), content: whereStringGoes(read(item, "content")), status: read(item, "status") };
}

/** `holder[key]`, or the error it threw, kept as such. */
function read(holder: object, key: string | number): unknown {
  try {
    return (holder as Record<string | number, unknown>)[key];
  } catch (error) {
    return new Thrown(error);
  }
}

/** What zod's object schema reads as an object. */
function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// --- raw texts ----------------------------------------------------------------------

const hasOwn = Object.prototype.hasOwnProperty;

/** Outputs shorter than this in all cross in the encoding: quoting them costs less than
 * copying the results apart (measured: a 70-character output took 0.2 µs longer raw). */
const RAW_OUTPUT_MIN_UNITS = 256;

/** `[results, nowMs]`: raw when the outputs are long and the results plain, each output
 * in the head as its length. */
export function toolResults(results: readonly ToolResult[], nowMs: number): Crossing {
  try {
    const split = long(results, "output", RAW_OUTPUT_MIN_UNITS) ? apart(results, "output") : undefined;
    if (split) {
      // The declared arguments, each output as its length.
      const [, head] = declared.SessionHandleToolResults(split.head as unknown as ToolResult[], nowMs);
      return { op: Op.SessionHandleToolResultsRaw, head: encodeArgs(head), texts: split.texts, lengths: [] };
    }
  } catch {
    // A proxy, a getter: the encoding reports it.
  }
  return encoded(declared.SessionHandleToolResults(results as ToolResult[], nowMs));
}

/** `[input]` of `composePrompt`: raw when plain, the base and each component's name and
 * text apart (their lengths as words), the rest in the head. */
export function prompt(input: ComposeInput): Crossing {
  try {
    const split = splitPrompt(input);
    if (split) {
      // The declared arguments, the texts apart.
      const [, head] = declared.ComposePrompt(split.rest as ComposeInput);
      return { op: Op.ComposeTexts, head: encodeArgs(head), texts: split.texts, lengths: split.lengths };
    }
  } catch {
    // A proxy, a getter: the encoding reports it.
  }
  return encoded(declared.ComposePrompt(input));
}

/** Each of `items`, a plain object, copied with `field` (a well-formed string) as its
 * length; the fields joined. */
function apart(items: unknown, field: string): { head: Record<string, unknown>[]; texts: string } | undefined {
  const heads = copies(items);
  if (!heads) return undefined;
  let texts = "";
  for (const head of heads) {
    const text = head[field];
    if (typeof text !== "string" || !wellFormed(text)) return undefined;
    head[field] = text.length;
    texts += text;
  }
  return { head: heads, texts };
}

/** `items`, an array of plain objects, each copied; `undefined` for anything else. */
function copies(items: unknown): Record<string, unknown>[] | undefined {
  if (!Array.isArray(items) || Object.getPrototypeOf(items) !== Array.prototype) return undefined;
  const heads: Record<string, unknown>[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    const head = plainObject(item) ? copy(item) : undefined;
    if (!head) return undefined;
    heads[i] = head;
  }
  return heads;
}

/** A plain object's own properties, each read once, as the general path would read
 * them; `undefined` for an inherited one or `__proto__` (which would set the copy's
 * prototype rather than cross). */
function copy(object: object): Record<string, unknown> | undefined {
  const head: Record<string, unknown> = {};
  for (const key in object) {
    if (!hasOwn.call(object, key) || key === "__proto__") return undefined;
    head[key] = (object as Record<string, unknown>)[key];
  }
  return head;
}

/** Whether `items` is an array whose `field` strings reach `min` units, looked at
 * without calling a getter (the copy then reads each property once). */
function long(items: unknown, field: string, min: number): boolean {
  if (!Array.isArray(items)) return false;
  let units = 0;
  for (let i = 0; i < items.length && units < min; i++) {
    const item: unknown = items[i];
    if (typeof item !== "object" || item === null) return false;
    const text: unknown = Object.getOwnPropertyDescriptor(item, field)?.value;
    if (typeof text === "string") units += text.length;
  }
  return units >= min;
}

/** The keys a prompt's input may have (the schema's; it refuses any other). */
const KEYS = new Set(["base", "components", "features", "values", "language", "plan", "budget"]);

// The schema's limits are in characters; a string's length in UTF-16 units is never
// fewer, so a text within them by length is within them.
const { BASE_MAX, COMPONENTS_MAX, NAME_MAX, TEXT_MAX } = COMPOSE_LIMITS;

function splitPrompt(input: ComposeInput): { rest: Record<string, unknown>; lengths: number[]; texts: string } | undefined {
  if (!plainObject(input)) return undefined;
  // Each property read once, as the general path would read it.
  const rest: Record<string, unknown> = {};
  let base: unknown;
  let components: unknown = [];
  for (const key in input) {
    if (!hasOwn.call(input, key) || !KEYS.has(key)) return undefined;
    const value: unknown = (input as Record<string, unknown>)[key];
    if (key === "base") base = value;
    else if (key === "components") components = value === undefined ? [] : value;
    else rest[key] = value;
  }
  if (!text(base, 0, BASE_MAX) || !Array.isArray(components) || Object.getPrototypeOf(components) !== Array.prototype) return undefined;
  if (components.length > COMPONENTS_MAX) return undefined;
  rest.base = "";
  const lengths = [base.length];
  let texts = base;
  for (let i = 0; i < components.length; i++) {
    const component: unknown = components[i];
    if (!plainObject(component)) return undefined;
    let keys = 0;
    for (const key in component) {
      if (!hasOwn.call(component, key) || (key !== "name" && key !== "text")) return undefined;
      keys++;
    }
    const { name, text: body } = component as { name: unknown; text: unknown };
    if (keys !== 2 || !text(name, 1, NAME_MAX) || !text(body, 0, TEXT_MAX)) return undefined;
    lengths.push(name.length, body.length);
    texts += name + body;
  }
  return { rest, lengths, texts };
}

function text(value: unknown, min: number, max: number): value is string {
  if (typeof value !== "string" || value.length < min || value.length > max) return false;
  // A string built by `+` or a template is a tree of pieces (a rope) until a character
  // of it is read, which flattens it where it lies: the texts joined for one
  // `encodeInto` are then copied from flat strings rather than walked as trees, every
  // call after the first (that `encodeInto` measured 18 → 10 µs in V8, Node 20, 50
  // texts of 360 characters built by templates; `isWellFormed` reads a rope without
  // flattening it). Here, not for tool outputs: a prompt's texts are composed again
  // and again, a tool's output crosses once.
  value.charCodeAt(0);
  return wellFormed(value);
}
