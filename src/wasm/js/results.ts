// Tool results whose outputs cross raw (see `src/wasm/raw.rs`): an output is most of a
// result, often kilobytes of lines and quotes, and V8's `JSON.stringify` of such text
// takes twenty times its `encodeInto`. Only results of a plain shape go this way, every
// output a well-formed string; any other batch goes as any call's arguments do, and the
// core says what is wrong with it.
import type { ToolResult } from "../types";
import { plainObject, wellFormed } from "./encode.js";

const hasOwn = Object.prototype.hasOwnProperty;

/** Outputs shorter than this in all cross as JSON: quoting them costs less than copying
 * the results apart (measured: a 70-character output took 0.2 µs longer raw). */
const RAW_MIN_UNITS = 256;

/** What crosses: the results with each output as its length, and the outputs joined. */
export interface RawOutputs {
  results: Record<string, unknown>[];
  texts: string;
}

/** `results` with their outputs apart, or `undefined` when their shape is not plain (or
 * reading it throws: a proxy, a getter; the general path then reports that). */
export function rawOutputs(results: readonly ToolResult[]): RawOutputs | undefined {
  try {
    return split(results);
  } catch {
    return undefined;
  }
}

function split(results: readonly ToolResult[]): RawOutputs | undefined {
  if (!Array.isArray(results) || Object.getPrototypeOf(results) !== Array.prototype || !long(results)) return undefined;
  const heads: Record<string, unknown>[] = new Array(results.length);
  let texts = "";
  for (let i = 0; i < results.length; i++) {
    const result: unknown = results[i];
    if (!plainObject(result)) return undefined;
    // Each property read once, as the general path would read it.
    const head: Record<string, unknown> = {};
    let output: unknown;
    for (const key in result) {
      // (`__proto__` as a key would set the copy's prototype rather than cross.)
      if (!hasOwn.call(result, key) || key === "__proto__") return undefined;
      const value: unknown = (result as Record<string, unknown>)[key];
      if (key === "output") output = value;
      head[key] = value;
    }
    if (typeof output !== "string" || !wellFormed(output)) return undefined;
    head.output = output.length;
    heads[i] = head;
    texts += output;
  }
  return { results: heads, texts };
}

/** Whether the outputs reach [`RAW_MIN_UNITS`], looked at without calling a getter (the
 * copy then reads each property once). */
function long(results: readonly ToolResult[]): boolean {
  let units = 0;
  for (let i = 0; i < results.length && units < RAW_MIN_UNITS; i++) {
    const result: unknown = results[i];
    if (typeof result !== "object" || result === null) return false;
    const output: unknown = Object.getOwnPropertyDescriptor(result, "output")?.value;
    if (typeof output === "string") units += output.length;
  }
  return units >= RAW_MIN_UNITS;
}
