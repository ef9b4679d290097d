// Validation issues from the numbers and text the core writes for them (see
// src/wasm/issues.rs): built here with object literals in zod's key order, which is an
// order of magnitude faster than JSON.parse on the invalid path. The messages come
// from the core.
import type { Issue, PathSegment } from "../types";
import { EXPECTED, ORIGINS } from "./ops.js";

const double = new Float64Array(1);
const halves = new Uint32Array(double.buffer);

export class IssueReader {
  /** `n` from `at` is the core's number output; `text` its text output. */
  constructor(
    private readonly n: Uint32Array,
    private at: number,
    private readonly text: string,
  ) {}

  /** A string: its start and length in the text. */
  string(): string {
    const start = this.n[this.at++]!;
    return this.text.slice(start, start + this.n[this.at++]!);
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
    halves[0] = this.n[this.at++]!;
    halves[1] = this.n[this.at++]!;
    return [origin, double[0]!, this.n[this.at++] === 1];
  }

  private strings(): string[] {
    const count = this.n[this.at++]!;
    const strings = new Array<string>(count);
    for (let i = 0; i < count; i++) strings[i] = this.string();
    return strings;
  }
}
