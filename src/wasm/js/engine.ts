// One instantiated planloop module, and the crossing of its boundary: arguments go in as
// UTF-8 with one `encodeInto` into the module's input buffer, results come back as JSON
// text (for `JSON.parse`, which makes every key an own property), as a few numbers, as
// a structured result for a `Reader`, or as a JS value the module built (a typed result,
// its free-form JSON parsed by `JSON.parse`: src/wasm/to_js.rs).
import type { Crossing } from "./crossing.js";
import { PlanloopError } from "./error.js";
import { Interned, Status, readError } from "./boundary.js";
import { TextDecoder, TextEncoder } from "./text.js";

/** What a planloop module exports (see `src/wasm/mod.rs`). */
export interface Exports {
  memory: WebAssembly.Memory;
  pl_call(op: number, handle: number, len: number, nowMs: number, ascii: number): number;
  pl_input(capacity: number): number;
  pl_header(): number;
  /** The session module's only: the JS value the last call built. */
  pl_value?(): unknown;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Outputs up to this many bytes (a getter's `[]` or `null`) are read here when ASCII:
 * `TextDecoder.decode` costs about 0.3 µs however short its input (Node 20), and a byte
 * at a time beats it below about 16 bytes: such getters 27-31 % faster. */
const SHORT_TEXT = 16;

/** `length` ASCII bytes from `at` as a string; `undefined` if one is not ASCII. */
function short(bytes: Uint8Array, at: number, length: number): string | undefined {
  let text = "";
  for (let i = at; i < at + length; i++) {
    const byte = bytes[i]!;
    if (byte >= 0x80) return undefined;
    text += String.fromCharCode(byte);
  }
  return text;
}

export class Engine {
  private readonly exports: Exports;
  /** The header's place in `words`. */
  private readonly header: number;
  private bytes: Uint8Array;
  /** The module's memory as 32-bit words, where the number output is read. */
  words: Uint32Array;
  /** The input buffer, as a view that `encodeInto` writes into. */
  private input: Uint8Array;
  /** The strings the module sends once, by id (see `Reader`). */
  private readonly kept: string[] = [];

  constructor(exports: Exports) {
    this.exports = exports;
    this.header = exports.pl_header() >>> 2;
    this.bytes = new Uint8Array(exports.memory.buffer);
    this.words = new Uint32Array(exports.memory.buffer);
    this.input = this.bytes.subarray(0, 0);
  }

  /** Runs a call with its input laid out as `crossing` says; the status says what to read. */
  send(crossing: Crossing, handle: number): number {
    return "head" in crossing ? this.callSplit(crossing.op, handle, crossing.head, crossing.texts, crossing.lengths) : this.call(crossing.op, handle, crossing.text, crossing.time);
  }

  /** Runs `op` with `text` in the input buffer (at `nowMs`, for arguments that are raw
   * JSON text); the status says what to read. */
  call(op: number, handle: number, text: string, nowMs = 0): number {
    // UTF-8 takes at most three bytes per UTF-16 unit.
    if (text.length * 3 > this.input.length || this.bytes.byteLength === 0) this.grow(text.length * 3);
    const { written } = encoder.encodeInto(text, this.input);
    // As many bytes as UTF-16 units: the text is ASCII, and offsets need no conversion.
    return this.exports.pl_call(op, handle, written, nowMs, written === text.length ? 1 : 0) >>> 0;
  }

  /** Runs `op` with `head`, then `body` raw, in the input buffer (`src/wasm/raw.rs`):
   * first, as 32-bit words, the head's length in bytes, the count of `lengths` and each;
   * then the texts as UTF-8. */
  callSplit(op: number, handle: number, head: string, body: string, lengths: readonly number[]): number {
    const words = 4 * (lengths.length + 2);
    const units = head.length + body.length;
    if (words + units * 3 > this.input.length || this.bytes.byteLength === 0) this.grow(words + units * 3);
    const input = this.input;
    putWord(input, 4, lengths.length);
    putWords(input, 8, lengths);
    const first = words + encoder.encodeInto(head, input.subarray(words)).written;
    putWord(input, 0, first - words);
    const written = first + encoder.encodeInto(body, input.subarray(first)).written;
    return this.exports.pl_call(op, handle, written, 0, written - words === units ? 1 : 0) >>> 0;
  }

  /** The result of the last call: JSON parsed, the value built, `undefined`, a number, or
   * a thrown error. */
  result(status: number): unknown {
    switch (status) {
      case Status.Json:
        return JSON.parse(this.text());
      case Status.Value:
        return this.exports.pl_value!();
      case Status.Nothing:
        return undefined;
      case Status.Number:
        return this.refresh().words[this.numbersAt()];
      case Status.Error:
        throw this.error();
      default:
        throw new PlanloopError("planloop internal error (please report): an unexpected status", "internal", { detail: `status ${status}` });
    }
  }

  /** The text output of the last call. */
  text(): string {
    const words = this.refresh().words;
    const ptr = words[this.header]!;
    const length = words[this.header + 1]!;
    return length <= SHORT_TEXT ? short(this.bytes, ptr, length) ?? this.decode(ptr, length) : this.decode(ptr, length);
  }

  private decode(ptr: number, length: number): string {
    return decoder.decode(this.bytes.subarray(ptr, ptr + length));
  }

  /** Where the number output of the last call starts in `words` (valid until the next call). */
  numbersAt(): number {
    return this.refresh().words[this.header + 2]! >>> 2;
  }

  /** The structured result of the last call (valid until the next call). */
  reader(): Reader {
    const text = this.text();
    return new Reader(this.words, this.numbersAt(), text, this.kept);
  }

  /** The structured result of the last call whose strings are places in `source`, the
   * text the call sent (valid until the next call). */
  spanReader(source: string): SpanReader {
    return new SpanReader(this.refresh().words, this.numbersAt(), source, this.kept);
  }

  /** The error of the last call, as a PlanloopError (`Error`'s fields). */
  error(): PlanloopError {
    const { code, message, data } = readError(this.reader());
    return new PlanloopError(message, code, data);
  }

  private grow(capacity: number): void {
    const at = this.exports.pl_input(Math.max(capacity, this.input.length)) >>> 0;
    this.refresh();
    this.input = this.bytes.subarray(at, at + Math.max(capacity, this.input.length));
  }

  /** The module's memory can grow, which replaces its buffer and detaches the views (a
   * detached view is empty: checking that is cheaper than asking for the buffer). */
  private refresh(): this {
    if (this.bytes.byteLength === 0) {
      const buffer = this.exports.memory.buffer;
      this.bytes = new Uint8Array(buffer);
      this.words = new Uint32Array(buffer);
      // (The old view is detached, and no longer says where it was: asked again on the next call.)
      this.input = this.bytes.subarray(0, 0);
    }
    return this;
  }
}

/** Writes `words` from `at`. */
function putWords(bytes: Uint8Array, at: number, words: readonly number[]): void {
  for (let i = 0; i < words.length; i++) putWord(bytes, at + 4 * i, words[i]!);
}

/** Writes `n` at `at` as a little-endian 32-bit word (each store keeps its value's low byte). */
function putWord(bytes: Uint8Array, at: number, n: number): void {
  bytes[at] = n;
  bytes[at + 1] = n >>> 8;
  bytes[at + 2] = n >>> 16;
  bytes[at + 3] = n >>> 24;
}

const double = new Float64Array(1);
const halves = new Uint32Array(double.buffer);

/** A structured result, from the numbers and text the module writes for it (see `Out` in
 * src/wasm/io.rs): read in order, and built with object literals in the key order JSON
 * would give, which is several times faster than JSON.parse. */
export class Reader {
  /** `n` from `at` is the core's number output; `text` its text output; `kept` the
   * strings the module sends once and then by id (the engine's, for its module). */
  constructor(
    protected readonly n: Uint32Array,
    protected at: number,
    protected readonly text: string,
    private readonly kept: string[],
  ) {}

  number(): number {
    return this.n[this.at++]!;
  }

  flag(): boolean {
    return this.n[this.at++] === 1;
  }

  float(): number {
    halves[0] = this.n[this.at++]!;
    halves[1] = this.n[this.at++]!;
    return double[0]!;
  }

  /** A string: its start and length in the text, or a kept one's id. */
  string(): string {
    const start = this.n[this.at++]!;
    if (start >= Interned.MARK) return this.interned(start - Interned.MARK);
    return this.text.slice(start, start + this.n[this.at++]!);
  }

  /** Kept string `id`: from the text the first time, then as kept. */
  private interned(id: number): string {
    const start = this.n[this.at++]!;
    if (start !== Interned.KEPT) return (this.kept[id] = this.text.slice(start, start + this.n[this.at++]!));
    const kept = this.kept[id];
    if (kept === undefined) {
      throw new PlanloopError("planloop internal error (please report): a string the module sent was not kept", "internal", { detail: `string ${id}` });
    }
    return kept;
  }

  /** The string that ends the text: its start, and the text from there. */
  lastString(): string {
    return this.text.slice(this.n[this.at++]!);
  }

  /** Any JSON value, from its JSON text (so that every key is an own property). */
  json(): unknown {
    return JSON.parse(this.string()) as unknown;
  }

  /** A key that may be left out (`Key` in src/wasm/field_parts.rs): 0 when it is, 1 then
   * what `read` reads, 2 when it was given as `undefined` (which zod keeps); `set` gets
   * what was given. */
  key<T>(read: (reader: this) => T, set: (given: T | undefined) => void): void {
    const given = this.n[this.at++];
    if (given !== 0) set(given === 1 ? read(this) : undefined);
  }

  /** A count, then that many of what `read` reads. */
  list<T>(read: (reader: this) => T): T[] {
    const count = this.n[this.at++]!;
    const items = new Array<T>(count);
    for (let i = 0; i < count; i++) items[i] = read(this);
    return items;
  }

  strings(): string[] {
    return this.list((reader) => reader.string());
  }
}

/** A `Reader` of a result whose strings are places in `text`, the text the call sent
 * (see `Spans` in src/wasm/primitives.rs): 1 when the string holds escapes (to be
 * decoded), else 0; then its start and end between the quotes. */
export class SpanReader extends Reader {
  override string(): string {
    const escaped = this.n[this.at]!;
    const start = this.n[this.at + 1]!;
    const end = this.n[this.at + 2]!;
    this.at += 3;
    return escaped === 0 ? this.text.slice(start, end) : (JSON.parse(this.text.slice(start - 1, end + 1)) as string);
  }
}
