// `write_todos` arguments given as a JS object, as LangChain.js, the AI SDK and the OpenAI
// Agents SDK hand a tool its arguments: read here once, for what the schema asks of each
// value (its type; a string's length, the string itself crossing raw), so that a few
// words and the strings cross rather than the whole object in the encoding (`encode.ts`),
// whose quoting made such a call cost 3.5 to 6.5 times zod's `safeParse`. The core
// decides (src/wasm/object.rs lays out the words); valid arguments are built here from
// the caller's own strings.
//
// Each key is read once, as zod reads it: `value[key]`, wherever it lives (an own
// property, an inherited one, a getter on a class's prototype, which the encoding,
// listing enumerable keys, does not see). The arguments and each todo may be any object
// but an array (as zod's object schema takes them). When each value the schema reads is
// a string, a number, a boolean, `null` or `undefined`, words cross. When one is not (an
// array or another object where a string goes, a lone surrogate, a todo that is not an
// object), the keys as read cross in the encoding, as a plain object (`shape`), with an
// object where a string goes as zod sees it there (`whereStringGoes`: its type's name and
// its `length`). A read that throws (a getter, a proxy's trap) is kept there as such
// (`Thrown`), for the core to report where zod would read it; only when something else
// throws (a proxy's other traps) do the arguments themselves cross in the encoding (which
// reads them again).
import type { WriteTodos } from "../types";
import { Thrown, wellFormed, whereStringGoes } from "./encode.js";
import { OBJECT, STATUSES } from "./ops.js";

/** What crosses, and what was read, to build valid arguments from. */
export interface ObjectRead {
  words: number[];
  /** The strings, joined. */
  texts: string;
  /** Each todo read: its id, its content, its status. */
  todos: unknown[];
  focus: unknown;
  note: unknown;
  /** Whether `focus` and `note` are there (zod keeps a key set to `undefined`). */
  hasFocus: boolean;
  hasNote: boolean;
  /** Set when a value read cannot cross as a word: the keys the schema reads, as read, in
   * a plain object to cross in the encoding in place of the arguments. */
  shape?: Record<string, unknown>;
}

/** `args` read, or `undefined` when the arguments themselves must cross in the encoding
 * (they are not an object, or something other than a read of a key threw). */
export function readObject(args: unknown): ObjectRead | undefined {
  try {
    return isObject(args) ? new Reading().arguments(args as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Valid arguments, as zod's `data`: a new object of the schema's keys, in its order. */
export function objectData(read: ObjectRead): WriteTodos {
  const values = read.todos;
  const todos = new Array<WriteTodos["todos"][number]>(values.length / 3);
  for (let i = 0, at = 0; i < todos.length; i++, at += 3) {
    todos[i] = { id: values[at] as string, content: values[at + 1] as string, status: values[at + 2] as Status };
  }
  const data: WriteTodos = { todos };
  // (In valid arguments each is absent, `undefined`, or a string.)
  if (read.hasFocus) data.focus = read.focus as string | undefined;
  if (read.hasNote) data.note = read.note as string | undefined;
  return data;
}

/** The id of todo `n` (counted from 1) of valid arguments, as the caller gave it. */
export function objectId(read: ObjectRead, n: number): string {
  return read.todos[3 * (n - 1)] as string;
}

type Status = (typeof STATUSES)[number];

/** What zod's object schema reads as an object. */
function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Where a number's bits are taken from. */
const bits = new DataView(new ArrayBuffer(8));

/** In place of a todo's id: the todo is not an object (it follows). */
const NOT_AN_OBJECT: unique symbol = Symbol("not an object");

class Reading {
  readonly words: number[] = [];
  texts = "";
  /** Each todo read: its id, its content, its status (for one that is not an object,
   * `NOT_AN_OBJECT`, the todo and `undefined`). */
  readonly todos: unknown[] = [];
  /** Whether every value read so far can cross as a word. */
  private plain = true;

  arguments(args: Record<string, unknown>): ObjectRead {
    let list: unknown;
    try {
      list = args.todos;
    } catch (error) {
      list = this.thrown(error);
    }
    let read = false;
    if (list === undefined) this.words.push(0);
    else if (!Array.isArray(list)) this.plain = false;
    else {
      this.words.push(1, list.length);
      read = list.length <= OBJECT.TODOS_MAX;
      for (let i = 0; read && i < list.length; i++) {
        let item: unknown;
        try {
          item = list[i];
        } catch (error) {
          this.notAnObject(this.thrown(error));
          continue;
        }
        this.todo(item);
      }
    }
    let focus: unknown, note: unknown;
    try {
      focus = args.focus;
    } catch (error) {
      focus = this.thrown(error);
    }
    const hasFocus = this.value(focus, args, "focus");
    try {
      note = args.note;
    } catch (error) {
      note = this.thrown(error);
    }
    const hasNote = this.value(note, args, "note");
    const result: ObjectRead = { words: this.words, texts: this.texts, todos: this.todos, focus, note, hasFocus, hasNote };
    if (!this.plain) {
      // The schema's keys as read, each once, for the encoding: plain objects, so that it
      // sees what zod sees, and no getter runs again.
      const shape: Record<string, unknown> = { todos: read ? this.copies() : list };
      if (hasFocus) shape.focus = whereStringGoes(focus);
      if (hasNote) shape.note = whereStringGoes(note);
      result.shape = shape;
    }
    return result;
  }

  /** The todos read, each as a plain copy of what was read of it. */
  private copies(): unknown[] {
    const todos = this.todos;
    const copies = new Array<unknown>(todos.length / 3);
    for (let i = 0, at = 0; i < copies.length; i++, at += 3) {
      copies[i] =
        todos[at] === NOT_AN_OBJECT ? todos[at + 1] : { id: whereStringGoes(todos[at]), content: whereStringGoes(todos[at + 1]), status: todos[at + 2] };
    }
    return copies;
  }

  /** A read that threw, kept as such: the arguments are then not plain. (Each key is read
   * where it is named, each read in its own `try`: read through one shared method, the
   * reads' inline caches saw every key and object, and a one-todo call took a fifth
   * longer.) */
  private thrown(error: unknown): Thrown {
    this.plain = false;
    return new Thrown(error);
  }

  /** A todo that is not an object (or whose read threw): the arguments are not plain. */
  private notAnObject(todo: unknown): void {
    this.plain = false;
    this.todos.push(NOT_AN_OBJECT, todo, undefined);
  }

  private todo(todo: unknown): void {
    if (!isObject(todo)) {
      this.notAnObject(todo);
      return;
    }
    const given = todo as Record<string, unknown>;
    let id: unknown, content: unknown, status: unknown;
    try {
      id = given.id;
    } catch (error) {
      id = this.thrown(error);
    }
    try {
      content = given.content;
    } catch (error) {
      content = this.thrown(error);
    }
    try {
      status = given.status;
    } catch (error) {
      status = this.thrown(error);
    }
    this.value(id, todo, "id");
    this.value(content, todo, "content");
    const index = STATUSES.indexOf(status as Status);
    this.words.push(index < 0 ? STATUSES.length : index);
    this.todos.push(id, content, status);
  }

  /** A value where a string goes, as its word (or, when it cannot be one, the arguments
   * are not plain); whether its key is there (zod keeps a key set to `undefined`,
   * wherever it lives: `key in value`). */
  private value(value: unknown, holder: object, key: string): boolean {
    switch (typeof value) {
      case "string":
        if (!wellFormed(value)) this.plain = false;
        this.texts += value;
        this.words.push(OBJECT.STRING + value.length);
        return true;
      case "undefined": {
        const present = key in holder;
        this.words.push(present ? OBJECT.UNDEFINED : OBJECT.ABSENT);
        return present;
      }
      case "number":
        // Its bits, so that the core names it (`NaN`, the infinities) as zod does.
        bits.setFloat64(0, value, true);
        this.words.push(OBJECT.NUMBER, bits.getUint32(0, true), bits.getUint32(4, true));
        return true;
      case "boolean":
        this.words.push(OBJECT.BOOLEAN);
        return true;
      default:
        if (value === null) this.words.push(OBJECT.NULL);
        else this.plain = false;
        return true;
    }
  }
}
