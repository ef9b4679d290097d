// `write_todos` arguments given as a JS object, as LangChain.js, the AI SDK and the OpenAI
// Agents SDK hand a tool its arguments, read as zod's object schema reads them: each key
// the schema names read once, as `value[key]`, wherever it lives (an own property, an
// inherited one, a getter on a class's prototype, which the encoding, listing enumerable
// keys, does not see). What was read crosses in the encoding (`encode.ts`) as a plain
// object, with an object where a string goes as zod sees it there (`whereStringGoes`: its
// type's name and its `length`), and a read that throws (a getter, a proxy's trap) kept
// as such (`Thrown`), for the core to report where zod would read it.
import { Thrown, isThrown, whereStringGoes } from "./encode.js";
import { WRITE_TODOS } from "./ops.js";

/** `args` as zod reads them, to encode: the schema's keys, each read once, in a plain
 * object; anything but an object (or an object whose reading throws other than at a key:
 * a proxy's other traps) as it is, for the encoding to read again. */
export function zodView(args: unknown): unknown {
  try {
    if (!isObject(args)) return args;
    const list = read(args, "todos");
    // zod reads no item of a list over its limit.
    const view: Record<string, unknown> = { todos: Array.isArray(list) && list.length <= WRITE_TODOS.TODOS_MAX ? todos(list) : list };
    for (const key of ["focus", "note"] as const) {
      const value = read(args, key);
      // zod keeps a key set to `undefined`, wherever it lives.
      if (value !== undefined || key in args) view[key] = whereStringGoes(value);
    }
    return view;
  } catch {
    return args;
  }
}

/** Each item of `list` read once, as zod reads a todo. */
function todos(list: readonly unknown[]): unknown[] {
  const items = new Array<unknown>(list.length);
  for (let i = 0; i < items.length; i++) items[i] = todo(read(list, i));
  return items;
}

/** A todo as zod reads it: an object's `id`, `content` and `status`; anything else (a
 * read that threw among them) as it is. */
function todo(item: unknown): unknown {
  if (!isObject(item) || isThrown(item)) return item;
  return { id: whereStringGoes(read(item, "id")), content: whereStringGoes(read(item, "content")), status: read(item, "status") };
}

/** `holder[key]`, or the error it threw, kept as such. */
function read(holder: object, key: string | number): unknown {
  try {
    return (holder as Record<string | number, unknown>)[key];
  } catch (error) {
    return new Thrown(error);
  }
}

/** What zod's object schema reads as an object. */
function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
