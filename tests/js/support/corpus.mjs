// Generated and mutated write_todos payloads for the differential test and the bench.
// A seeded generator keeps every run identical, so a disagreement is reproducible.

/** mulberry32: a small, fast, seeded PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = [
  "abcdefghijklmnopqrstuvwxyz_0123456789 ",
  "éüßñøçàÉ中文字日本語한국어",
  "😀🎉𝔘𝕏🚀👩‍💻", // astral characters: two UTF-16 units, one code point
  'a"\\\n\t/\u0001<>&',
];
const BOUNDARY_LENGTHS = [0, 1, 2, 39, 40, 41, 70, 71, 139, 140, 141, 199, 200, 201];
const STATUSES = ["pending", "in_progress", "completed"];
const WRONG_STATUSES = ["done", "Pending", " pending", "in-progress", "", "IN_PROGRESS", "completed "];

export class Corpus {
  constructor(seed) {
    this.random = rng(seed);
  }

  int(n) {
    return Math.floor(this.random() * n);
  }

  pick(items) {
    return items[this.int(items.length)];
  }

  chance(p) {
    return this.random() < p;
  }

  /** A string of `length` code points drawn from one alphabet (or a mix). */
  text(length) {
    const alphabet = this.chance(0.7) ? this.pick(ALPHABETS) : ALPHABETS.join("");
    const chars = [...alphabet];
    let out = "";
    for (let i = 0; i < length; i++) out += this.pick(chars);
    return out;
  }

  /** Usually a fitting length; sometimes one at or around a limit. */
  length(typical) {
    return this.chance(0.08) ? this.pick(BOUNDARY_LENGTHS) : 1 + this.int(typical);
  }

  todo() {
    return { id: this.text(this.length(20)), content: this.text(this.length(80)), status: this.pick(STATUSES) };
  }

  /** A payload that is usually close to valid. */
  payload() {
    const count = this.chance(0.1) ? this.pick([0, 1, 8, 9, 12]) : 1 + this.int(8);
    const value = { todos: Array.from({ length: count }, () => this.todo()) };
    if (this.chance(0.4)) value.focus = this.text(this.length(40));
    if (this.chance(0.3)) value.note = this.text(this.length(150));
    return value;
  }

  /** Something that is not what the schema wants. */
  wrongValue() {
    return this.pick([
      () => null,
      () => this.pick([0, -1, 1.5, 42, -0, 1e308]),
      () => this.chance(0.5),
      () => this.text(this.int(12)),
      () => [],
      () => [this.todo()],
      () => ({}),
      () => ({ length: this.pick([0, 1, 8, 9, 40, 41, "5", "x", null, true, [], [3], [[50]], {}, "  7 ", "0x9"]) }),
      () => Array.from({ length: this.pick([0, 1, 9, 41, 141]) }, () => 0),
      () => this.pick(WRONG_STATUSES),
    ])();
  }

  /** One random change somewhere in `value` (which it may replace). */
  mutate(value) {
    if (this.chance(0.05)) return this.wrongValue();
    const objects = [];
    const visit = (node) => {
      if (node && typeof node === "object") {
        objects.push(node);
        Object.values(node).forEach(visit);
      }
    };
    visit(value);
    if (objects.length === 0) return this.wrongValue();
    const target = this.pick(objects);
    const keys = Object.keys(target);
    const action = this.int(5);
    if (action === 0 && keys.length) delete target[this.pick(keys)];
    else if (action === 1) {
      const extra = ["extra", "id2", "Todos", "status ", "__proto_", ...(Array.isArray(target) ? [] : ["length"])];
      target[this.pick(extra)] = this.wrongValue();
    }
    else if (action === 2 && keys.length) target[this.pick(keys)] = this.wrongValue();
    else if (action === 3 && "status" in target) target.status = this.pick(WRONG_STATUSES);
    else if (keys.length) target[this.pick(keys)] = this.pick([null, undefined, this.text(this.length(60))]);
    return value;
  }

  /** JSON text that `JSON.parse` may or may not accept. */
  mangle(text) {
    // Cut between code points: a lone surrogate is a case of its own (see api.test.mjs).
    const chars = [...text];
    const at = this.int(chars.length + 1);
    const head = chars.slice(0, at).join("");
    const tail = chars.slice(at).join("");
    return this.pick([
      () => head,
      () => head + this.pick(["}", "]", ",", ":", '"', "x", "\u00a0", "\\", "\u0000"]) + tail,
      () => text.replace(/}$/, ",}"),
      () => "\ufeff" + text,
      () => ` \n\t${text}\r\n `,
      () => `/* c */${text}`,
      () => text.replace(/"/g, "'"),
      () => text.replace('{"todos"', '{"todos": 5, "todos"'),
      () => text.replace(/"status":"(\w+)"/, '"status":"$1","status":"done"'),
      () => text.replace(/}$/, ',"focus":"later"}'),
      // Escaped spellings: a key, and a status (its first letter as \u00XX).
      () => text.replace('"todos"', '"t\\u006fdos"'),
      () => text.replace(/"status":"(\w)/, (_, c) => `"status":"\\u00${c.charCodeAt(0).toString(16)}`),
      () => text.replace(/"id":"/, '"id":"\\u00e9\\ud83d\\ude00\\n\\"'),
      () => text.replace(/\[/, "[1e999,"),
      () => text + text,
      () => "[" + text + "]",
      () => JSON.stringify(text),
    ])();
  }

  /**
   * `count` entries of `{text, raw}`: `raw` is the generated JS value (it may hold
   * `undefined`), `text` its JSON, sometimes mangled into text `JSON.parse` rejects.
   */
  entries(count) {
    return Array.from({ length: count }, () => this.entry());
  }

  /** The next entry (a long fuzz run takes them one at a time, holding one at once). */
  entry() {
    let raw = this.payload();
    const mutations = this.chance(0.35) ? 0 : 1 + this.int(3);
    for (let i = 0; i < mutations; i++) raw = this.mutate(raw);
    let text = JSON.stringify(raw) ?? "null";
    if (this.chance(0.12)) text = this.mangle(text);
    return { text, raw };
  }
}
