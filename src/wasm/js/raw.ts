// Tool outputs crossing raw (see `src/wasm/raw.rs`): a tool's output is often thousands
// of units of quotes and lines, and V8's `JSON.stringify` of such text takes ten to
// twenty times its `encodeInto`. Only results of a plain shape go this way, each output
// a well-formed string; anything else goes as any call's arguments do, and the core says
// what is wrong with it.
import type { ToolResult } from "../types";
import { plainObject, wellFormed } from "./encode.js";

const hasOwn = Object.prototype.hasOwnProperty;

/** Outputs shorter than this in all cross as JSON: quoting them costs less than copying
 * the results apart (measured: a 70-character output took 0.2 µs longer raw). */
const RAW_OUTPUT_MIN_UNITS = 256;

/** What crosses: the items with each text as its length, and the texts joined. */
export interface Raw<T> {
  head: T;
  texts: string;
}

/** `results` with their outputs apart, or `undefined` when their shape is not plain (or
 * reading it throws: a proxy, a getter; the general path then reports that). */
export function rawOutputs(results: readonly ToolResult[]): Raw<Record<string, unknown>[]> | undefined {
  try {
    return long(results, "output", RAW_OUTPUT_MIN_UNITS) ? apart(results, "output") : undefined;
  } catch {
    return undefined;
  }
}

/** Each of `items`, a plain object, copied with `field` (a well-formed string) as its
 * length; the fields joined. */
function apart(items: unknown, field: string): Raw<Record<string, unknown>[]> | undefined {
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
