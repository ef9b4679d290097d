// `write_todos` arguments given as a JS object, as LangChain.js, the AI SDK and the OpenAI
// Agents SDK hand a tool its arguments: read here once, for what the schema asks of each
// value (its type; a string's length, the string itself crossing raw), so that a few
// words and the strings cross rather than the whole object in the encoding (`encode.ts`),
// whose quoting made such a call cost 3.5 to 6.5 times zod's `safeParse`. The core
// decides (src/wasm/object.rs lays out the words); valid arguments are built here from
// the caller's own strings.
//
// Each key is read as zod reads it, `value[key]`, wherever it lives: an own property, an
// inherited one, a getter on a class's prototype (which the encoding, listing enumerable
// keys, does not see). Read here: the arguments and each todo any object but an array (as
// zod's object schema takes them), the list an array, each value the schema reads a
// string, a number, a boolean, `null` or `undefined`. Anything else (an array or another
// object where a string goes, a lone surrogate, a read that throws) gives `undefined`,
// and the arguments cross in the encoding, which reads them again (a getter runs twice).
import type { WriteTodos } from "../types";
import { wellFormed } from "./encode.js";
import { OBJECT, RECEIVED, STATUSES } from "./ops.js";

/** What crosses, and what was read, to build valid arguments from. */
export interface ObjectRead {
  words: number[];
  /** The strings, joined. */
  texts: string;
  /** Each todo read: its id, its content, its status. */
  todos: unknown[];
  focus: unknown;
  note: unknown;
}

/** `args` read, or `undefined` when it must cross in the encoding. */
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
  const words = read.words;
  // (`focus` and `note` are the last two words; in valid arguments each is absent,
  // `undefined`, which zod keeps, or a string.)
  if (words[words.length - 2] !== OBJECT.ABSENT) data.focus = read.focus as string | undefined;
  if (words[words.length - 1] !== OBJECT.ABSENT) data.note = read.note as string | undefined;
  return data;
}

type Status = (typeof STATUSES)[number];

/** What zod's object schema reads as an object. */
function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class Reading {
  readonly words: number[] = [];
  texts = "";
  readonly todos: unknown[] = [];

  arguments(args: Record<string, unknown>): ObjectRead | undefined {
    const list = args.todos;
    if (list === undefined) this.words.push(0);
    else if (!Array.isArray(list)) return undefined;
    else {
      this.words.push(1, list.length);
      if (list.length <= OBJECT.TODOS_MAX) {
        for (let i = 0; i < list.length; i++) if (!this.todo(list[i])) return undefined;
      }
    }
    const focus = args.focus;
    const note = args.note;
    if (!this.value(focus, args, "focus") || !this.value(note, args, "note")) return undefined;
    return { words: this.words, texts: this.texts, todos: this.todos, focus, note };
  }

  private todo(todo: unknown): boolean {
    if (!isObject(todo)) return false;
    const { id, content, status } = todo as Record<string, unknown>;
    if (!this.value(id, todo, "id") || !this.value(content, todo, "content")) return false;
    const index = STATUSES.indexOf(status as Status);
    this.words.push(index < 0 ? STATUSES.length : index);
    this.todos.push(id, content, status);
    return true;
  }

  /** A value where a string goes, as its word; `false` when it must cross in the encoding. */
  private value(value: unknown, holder: object, key: string): boolean {
    let received: (typeof RECEIVED)[number];
    switch (typeof value) {
      case "string":
        if (!wellFormed(value)) return false;
        this.texts += value;
        this.words.push(OBJECT.STRING + value.length);
        return true;
      case "undefined":
        // zod keeps a key set to `undefined` wherever it lives (`key in value`).
        this.words.push(key in holder ? OBJECT.UNDEFINED : OBJECT.ABSENT);
        return true;
      case "number":
        received = value !== value ? "NaN" : value === Infinity ? "Infinity" : value === -Infinity ? "-Infinity" : "number";
        break;
      case "boolean":
        received = "boolean";
        break;
      default:
        if (value !== null) return false;
        received = "null";
    }
    this.words.push(OBJECT.OTHER + RECEIVED.indexOf(received));
    return true;
  }
}
