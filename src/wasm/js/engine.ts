// One instantiated planloop module, and the crossing of its boundary: arguments go in as
// UTF-8 with one `encodeInto` into the module's input buffer, results come back as JSON
// text (for `JSON.parse`, which makes every key an own property) or as a few numbers.
import { Status } from "./ops.js";
import { PlanloopError } from "./error.js";

/** What a planloop module exports (see `src/wasm/mod.rs`). */
export interface Exports {
  memory: WebAssembly.Memory;
  pl_call(op: number, handle: number, len: number, number: number): number;
  pl_input(capacity: number): number;
  pl_header(): number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Engine {
  private readonly exports: Exports;
  private readonly header: number;
  private input = 0;
  private capacity = 0;
  private memory: Uint8Array;
  private memoryWords: Uint32Array;

  constructor(exports: Exports) {
    this.exports = exports;
    this.header = exports.pl_header() >>> 0;
    this.memory = new Uint8Array(exports.memory.buffer);
    this.memoryWords = new Uint32Array(exports.memory.buffer);
  }

  /** Runs `op` with `text` in the input buffer; the status says what to read. */
  call(op: number, handle: number, text: string, number = 0): number {
    const length = this.write(text);
    return this.exports.pl_call(op, handle, length, number) >>> 0;
  }

  /** The result of the last call: JSON parsed, `undefined`, a number, or a thrown error. */
  result(status: number): unknown {
    switch (status) {
      case Status.Json:
        return JSON.parse(this.text());
      case Status.Nothing:
        return undefined;
      case Status.Number:
        return this.numbers()[0];
      case Status.Error:
        throw this.error();
      default:
        throw new PlanloopError("planloop internal error (please report): an unexpected status", "internal", { detail: `status ${status}` });
    }
  }

  /** The text output of the last call. */
  text(): string {
    const words = this.words();
    const ptr = words[this.header >>> 2]!;
    const len = words[(this.header >>> 2) + 1]!;
    return decoder.decode(this.bytes().subarray(ptr, ptr + len));
  }

  /** The number output of the last call (valid until the next call). */
  numbers(): Uint32Array {
    const words = this.words();
    const ptr = words[(this.header >>> 2) + 2]!;
    const len = words[(this.header >>> 2) + 3]!;
    return words.subarray(ptr >>> 2, (ptr >>> 2) + len);
  }

  /** The error of the last call, as a PlanloopError. */
  error(): PlanloopError {
    const { code, message, data } = JSON.parse(this.text()) as { code: string; message: string; data: object };
    return new PlanloopError(message, code, data);
  }

  private write(text: string): number {
    // UTF-8 takes at most three bytes per UTF-16 unit.
    const most = text.length * 3;
    if (most > this.capacity) {
      this.input = this.exports.pl_input(most) >>> 0;
      this.capacity = most;
    }
    const { written } = encoder.encodeInto(text, this.bytes().subarray(this.input, this.input + most));
    return written;
  }

  private bytes(): Uint8Array {
    this.refresh();
    return this.memory;
  }

  private words(): Uint32Array {
    this.refresh();
    return this.memoryWords;
  }

  /** The module's memory can grow, which replaces its buffer. */
  private refresh(): void {
    const buffer = this.exports.memory.buffer;
    if (this.memory.buffer !== buffer) {
      this.memory = new Uint8Array(buffer);
      this.memoryWords = new Uint32Array(buffer);
    }
  }
}
