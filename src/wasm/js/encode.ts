// JS values as the core reads them (`json::parse_host` in src/json/mod.rs): read once,
// here, into one string. JSON carries most of a value; the rest is written so that the
// core's validators answer as they would on the value itself:
//
// - `undefined`, `NaN`, `Infinity`, `-Infinity` as those words;
// - `<f N>` a function of length N, `<s>` a symbol, `<b N>` a bigint (N its Number());
// - `<x "text">` a value whose reading threw (a getter, a proxy trap): the core reports
//   it only if it reads that value, as a lazy reader would;
// - `<o "Type",P>{…}` an object zod names `Type` (`Date`, a class) or whose
//   `isPlainObject` is false (P = 0); `^"key":` an inherited enumerable property;
// - `<c>` a value deeper than DEPTH levels or a reference back to an ancestor, `<a N>` an
//   array longer than ITEMS, `<m>` an object with more than KEYS keys or past NODES
//   values in all: never walked, so every read is bounded however the value is built.

const DEPTH = 100;
const ITEMS = 100_000;
const KEYS = 100_000;
const NODES = 2_000_000;

const hasOwn = Object.prototype.hasOwnProperty;

/** What `Writer.read` gives for a read that threw (already written). */
const THREW: unique symbol = Symbol("threw");

/** A value whose reading threw, to be written as such. */
export class Thrown {
  constructor(readonly error: unknown) {
    thrownValues.add(this);
  }
}

// Recognised without `instanceof`, which a revoked proxy would make throw.
const thrownValues = new WeakSet<object>();

/** Whether `value` is a read that threw (`Thrown`). */
export function isThrown(value: object): boolean {
  return thrownValues.has(value);
}

/** An object (not an array) where a schema wants a string, as zod sees it there: the
 * name it gives the object's type, and its `length` (which zod's length checks read
 * wherever it lives, where the encoding lists enumerable keys only), read once. */
class Measured {
  constructor(
    readonly name: string,
    readonly plain: boolean,
    /** Whether the object has a `length`, own or inherited. */
    readonly measured: boolean,
    readonly length: unknown,
  ) {
    measuredValues.add(this);
  }
}

const measuredValues = new WeakSet<object>();

/** `value`, where a schema wants a string, to encode: an object (not an array) as zod sees
 * it there; any other value as it is. */
export function whereStringGoes(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value) || thrownValues.has(value)) return value;
  try {
    const proto = Object.getPrototypeOf(value) as object | null;
    const measured = "length" in value;
    return new Measured(typeName(value, proto), isPlainObject(value), measured, measured ? (value as { length: unknown }).length : undefined);
  } catch (error) {
    return new Thrown(error);
  }
}

/** An object literal's kind of object: what the raw crossings (`crossing.ts`) take
 * apart, leaving any other to the encoding below. */
export function plainObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** Whether a string has no lone surrogate: one that has cannot cross as UTF-8
 * (`encodeInto` would replace it), so it crosses as its JSON literal. */
export const wellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: () => boolean }).isWellFormed === "function"
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/.test(text);

/** The arguments of a call, as one array. */
export function encodeArgs(args: readonly unknown[]): string {
  return new Writer().list(args);
}

/** One value. */
export function encodeValue(value: unknown): string {
  const writer = new Writer();
  writer.value(value, 0);
  return writer.out;
}

class Writer {
  out = "";
  private nodes = 0;
  private readonly ancestors: object[] = [];

  list(items: readonly unknown[]): string {
    this.out += "[";
    for (let i = 0; i < items.length; i++) {
      if (i > 0) this.out += ",";
      this.value(items[i], 1);
    }
    this.out += "]";
    return this.out;
  }

  value(value: unknown, depth: number): void {
    if (++this.nodes > NODES) {
      this.out += "<m>";
      return;
    }
    switch (typeof value) {
      case "string":
        this.out += quoted(value);
        return;
      case "number":
        this.out += Object.is(value, -0) ? "-0" : String(value);
        return;
      case "boolean":
        this.out += value ? "true" : "false";
        return;
      case "undefined":
        this.out += "undefined";
        return;
      case "bigint":
        this.out += `<b${String(Number(value))}>`;
        return;
      case "symbol":
        this.out += "<s>";
        return;
      case "function":
        this.guarded(() => `<f${String(Number((value as { length: unknown }).length))}>`);
        return;
      default:
        if (value === null) this.out += "null";
        else if (thrownValues.has(value as object)) this.out += thrown((value as Thrown).error);
        else if (measuredValues.has(value as object)) this.measured(value as Measured, depth);
        else this.object(value as object, depth);
    }
  }

  /** Written as `object` writes such an object, with `length` its only member. */
  private measured(object: Measured, depth: number): void {
    this.out += objectTag(object.name, object.plain);
    this.out += "{";
    if (object.measured) {
      this.out += quotedKey("length");
      this.value(object.length, depth + 1);
    }
    this.out += "}";
  }

  private object(object: object, depth: number): void {
    if (depth > DEPTH || this.ancestors.includes(object)) {
      this.out += "<c>";
      return;
    }
    const start = this.out.length;
    this.ancestors.push(object);
    try {
      if (Array.isArray(object)) this.array(object, depth);
      else this.members(object, depth);
    } catch (error) {
      this.out = this.out.slice(0, start) + thrown(error);
    } finally {
      this.ancestors.pop();
    }
  }

  private array(array: unknown[], depth: number): void {
    const length = array.length;
    if (length > ITEMS) {
      this.out += `<a${length}>`;
      return;
    }
    this.out += "[";
    for (let i = 0; i < length; i++) {
      if (i > 0) this.out += ",";
      const item = this.read(array, i);
      if (item !== THREW) this.value(item, depth + 1);
    }
    this.out += "]";
  }

  private members(object: object, depth: number): void {
    const proto = Object.getPrototypeOf(object) as object | null;
    // An object literal (the usual argument) is plain and zod calls it `object`; asked
    // only of others, which costs a constructor lookup and a descriptor.
    const literal = proto === Object.prototype && !hasOwn.call(object, "constructor");
    const name = literal ? "object" : typeName(object, proto);
    const plain = literal || isPlainObject(object);
    const start = this.out.length;
    this.out += objectTag(name, plain);
    this.out += "{";
    let count = 0;
    // Own enumerable keys first, in Object.keys order, then inherited enumerable ones:
    // zod reads a property wherever it lives, but lists only own keys.
    for (const key in object) {
      if (++count > KEYS) {
        this.out = this.out.slice(0, start) + "<m>";
        return;
      }
      if (count > 1) this.out += ",";
      this.out += (hasOwn.call(object, key) ? "" : "^") + quotedKey(key);
      const item = this.read(object, key);
      if (item !== THREW) this.value(item, depth + 1);
    }
    this.out += "}";
  }

  /** `source[key]`, read once; a read that throws (a getter, a proxy's trap) is written
   * as such and gives `THREW`. (A method, not a closure per property: this is the hot loop.) */
  private read(source: object, key: string | number): unknown {
    try {
      return (source as Record<string | number, unknown>)[key];
    } catch (error) {
      this.out += thrown(error);
      return THREW;
    }
  }

  private guarded(write: () => string): void {
    try {
      this.out += write();
    } catch (error) {
      this.out += thrown(error);
    }
  }
}

// What JSON.stringify escapes in a string: a quote, a backslash, a control character,
// a lone surrogate (here any surrogate, though it keeps the paired ones as they are).
const ESCAPED = /["\\\x00-\x1f\ud800-\udfff]/;

/** Strings up to this long are checked for what to escape before they are quoted. */
const QUICK_QUOTE_UNITS = 128;

/** `JSON.stringify(text)`. A short string with nothing to escape (an id, a name, most
 * argument values) is quoted as it is, in half JSON.stringify's time (Node 20): a
 * decision with object arguments 5 % faster. Longer ones go to JSON.stringify directly:
 * arguments as JSON text (200 units, quotes from the start) made a decision 2 % slower
 * through the check. */
function quoted(text: string): string {
  return text.length > QUICK_QUOTE_UNITS || ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
}

// Keys repeat from call to call (`toolCalls`, `id`, `args`…): each short one is quoted
// once. Bounded (at most about 100 KB), since a model's arguments choose the keys.
const quotedKeys = new Map<string, string>();
const QUOTED_KEYS_MAX = 1024;
const QUOTED_KEY_LENGTH = 32;

/** `key` as JSON, then `:`. */
function quotedKey(key: string): string {
  let member = quotedKeys.get(key);
  if (member === undefined) {
    member = quoted(key) + ":";
    if (key.length <= QUOTED_KEY_LENGTH && quotedKeys.size < QUOTED_KEYS_MAX) quotedKeys.set(key, member);
  }
  return member;
}

/** The tag of an object zod names `name` (none for a plain `object`). */
function objectTag(name: string, plain: boolean): string {
  return name === "object" && plain ? "" : `<o${JSON.stringify(name)},${plain ? 1 : 0}>`;
}

/** What zod calls an object in its messages: `object` for a plain one, else its
 * constructor's name. */
function typeName(object: object, proto: object | null): string {
  if (proto === Object.prototype || !("constructor" in object)) return "object";
  const constructor = (object as { constructor: unknown }).constructor;
  if (!constructor) return "object";
  return String((constructor as { name: unknown }).name);
}

/** zod's `isPlainObject`: no constructor, or one whose prototype owns `isPrototypeOf`. */
function isPlainObject(object: object): boolean {
  const constructor = (object as { constructor?: unknown }).constructor;
  if (typeof constructor !== "function") return true;
  const prototype: unknown = constructor.prototype;
  if (typeof prototype !== "object" || prototype === null || Array.isArray(prototype)) return false;
  return Object.getOwnPropertyDescriptor(prototype, "isPrototypeOf") !== undefined;
}

function thrown(error: unknown): string {
  let text: string;
  if (error instanceof Error) text = String(error.message);
  else {
    try {
      text = String(error);
    } catch {
      text = "a value that cannot be shown";
    }
  }
  return `<x${JSON.stringify(text)}>`;
}
