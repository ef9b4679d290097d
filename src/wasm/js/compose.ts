// `composePrompt`'s texts, to cross raw (see `src/wasm/compose.rs`). Writing tens of
// kilobytes of prose as JSON costs, in V8, as much as composing the prompt in plain JS;
// sent as they are, one `encodeInto` copies them. Only an input of a plain shape goes
// this way, its texts well-formed and within the schema's limits; any other input goes
// as any call's arguments do, and the core says what is wrong with it.
import type { ComposeInput } from "../types";
import { plainObject, wellFormed } from "./encode.js";
import { COMPOSE_LIMITS } from "./ops.js";

/** The keys an input may have (the schema's; it refuses any other). */
const KEYS = new Set(["base", "components", "features", "values", "language", "plan", "budget"]);
const hasOwn = Object.prototype.hasOwnProperty;

// The schema's limits are in characters; a string's length in UTF-16 units is never
// fewer, so a text within them by length is within them.
const { BASE_MAX, COMPONENTS_MAX, NAME_MAX, TEXT_MAX } = COMPOSE_LIMITS;

/** What crosses: the input without its texts, their lengths (the base, then each
 * component's name and text), and the texts, joined. */
export interface RawTexts {
  rest: Record<string, unknown>;
  lengths: number[];
  texts: string;
}

/** `input`'s texts apart from the rest, or `undefined` when its shape is not plain (or
 * reading it throws: a proxy, a getter; the general path then reports that). */
export function rawTexts(input: ComposeInput): RawTexts | undefined {
  try {
    return split(input);
  } catch {
    return undefined;
  }
}

function split(input: ComposeInput): RawTexts | undefined {
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
