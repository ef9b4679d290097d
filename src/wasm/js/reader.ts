// Structured results from the numbers and text the core writes for them (see
// src/wasm/out.rs): read in order, and built here with object literals in the key order
// JSON would give, which is several times faster than JSON.parse. Validation issues (see
// src/wasm/issues.rs) keep zod's key order; their messages come from the core.
import type { Issue, PathSegment } from "../types";
import { PlanloopError } from "./error.js";
import { EXPECTED, Interned, ORIGINS } from "./ops.js";

const double = new Float64Array(1);
const halves = new Uint32Array(double.buffer);

export class Reader {
  /** `n` from `at` is the core's number output; `text` its text output; `kept` the
   * strings the module sends once and then by id (the engine's, for its module). */
  constructor(
    private readonly n: Uint32Array,
    private at: number,
    private readonly text: string,
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

  optionalString(): string | null {
    return this.flag() ? this.string() : null;
  }

  /** A count, then that many of what `read` reads. */
  list<T>(read: (reader: this) => T): T[] {
    const count = this.n[this.at++]!;
    const items = new Array<T>(count);
    for (let i = 0; i < count; i++) items[i] = read(this);
    return items;
  }

  /** A count, then that many issues. */
  issues(): Issue[] {
    const count = this.n[this.at++]!;
    const issues = new Array<Issue>(count);
    for (let i = 0; i < count; i++) issues[i] = this.issue();
    return issues;
  }

  private issue(): Issue {
    const kind = this.n[this.at++]!;
    const path = this.path();
    switch (kind) {
      case 0: {
        const expected = EXPECTED[this.n[this.at++]!]!;
        return { expected, code: "invalid_type", path, message: this.string() };
      }
      case 1: {
        const [origin, minimum, inclusive] = this.size();
        return { origin, code: "too_small", minimum, inclusive, path, message: this.string() };
      }
      case 2: {
        const [origin, maximum, inclusive] = this.size();
        return { origin, code: "too_big", maximum, inclusive, path, message: this.string() };
      }
      case 3: {
        const values = this.strings();
        return { code: "invalid_value", values, path, message: this.string() };
      }
      case 4: {
        const keys = this.strings();
        return { code: "unrecognized_keys", keys, path, message: this.string() };
      }
      case 5: {
        const count = this.n[this.at++]!;
        const errors = new Array<Issue[]>(count);
        for (let i = 0; i < count; i++) errors[i] = this.issues();
        return { code: "invalid_union", errors, path, message: this.string() };
      }
      case 6: {
        const origin = ORIGINS[this.n[this.at++]!]!;
        return { origin, code: "invalid_format", format: "well_formed_utf16", path, message: this.string() };
      }
      case 7: {
        const position = this.n[this.at++]!;
        return { code: "invalid_json", position, path, message: this.string() };
      }
      default:
        return { code: "custom", path, message: this.string() };
    }
  }

  private path(): PathSegment[] {
    const count = this.n[this.at++]!;
    const path = new Array<PathSegment>(count);
    for (let i = 0; i < count; i++) {
      if (this.n[this.at++] === 0) path[i] = this.string();
      else {
        path[i] = this.n[this.at]!;
        this.at += 2;
      }
    }
    return path;
  }

  private size(): [(typeof ORIGINS)[number], number, boolean] {
    const origin = ORIGINS[this.n[this.at++]!]!;
    return [origin, this.float(), this.flag()];
  }

  strings(): string[] {
    return this.list((reader) => reader.string());
  }
}
