// write_todos arguments given as a JS object (what LangChain.js, the AI SDK and the OpenAI
// Agents SDK hand a tool): the JS layer reads the keys the schema reads, once, and sends
// what it read as words, or, when a value cannot be one, in its encoding. Either way the
// answer is zod's, and an apply's ack is the one its JSON text gets.
import assert from "node:assert/strict";
import { test } from "node:test";

import { planloop } from "./support/pkg.mjs";
import { writeTodosSchema, zodAnswer } from "./support/seed-schema.mjs";
import { same } from "./support/zod-compare.mjs";

const todo = (id, content = "Read the note", status = "pending") => ({ id, content, status });
const sparse = [, todo("b")]; // eslint-disable-line no-sparse-arrays
class Steps extends Array {}

/** Arguments of every shape around the plain one, each built fresh. */
const shapes = {
  "one todo": () => ({ todos: [todo("a")] }),
  "eight todos, focus and note": () => ({ todos: Array.from({ length: 8 }, (_, i) => todo(`s${i}`, "x".repeat(140), i ? "pending" : "in_progress")), focus: "f", note: "n".repeat(200) }),
  "unknown keys": () => ({ x: { deep: [1] }, todos: [{ ...todo("a"), extra: true }] }),
  "focus set to undefined (kept)": () => ({ todos: [todo("a")], focus: undefined }),
  "id and content undefined": () => ({ todos: [{ id: undefined, content: undefined, status: "done" }] }),
  "todos undefined": () => ({ todos: undefined, note: 5 }),
  "no todos": () => ({ focus: "f" }),
  "empty list": () => ({ todos: [] }),
  "nine todos, of any kind": () => ({ todos: [todo("a"), 1, null, "x", [], {}, todo(""), todo("b"), Symbol("s")] }),
  "values of every primitive type": () => ({ todos: [{ id: 5, content: true, status: null }, { id: NaN, content: Infinity, status: -Infinity }, { id: -0, content: null, status: 3 }] }),
  "a status of another type": () => ({ todos: [{ id: "a", content: "b", status: { value: "pending" } }, { id: "c", content: "d", status: ["pending"] }] }),
  "strings at and over their limits": () => ({ todos: [todo("i".repeat(40), "c".repeat(141)), todo("😀".repeat(40), "é".repeat(140)), todo("😀".repeat(41), "")], focus: "f".repeat(41), note: "n".repeat(201) }),
  "an object where a string goes": () => ({ todos: [{ id: { length: 3 }, content: ["a", "b"], status: "pending" }] }),
  "a function where a string goes": () => ({ todos: [todo((a, b) => a + b)] }),
  "own key `constructor`": () => ({ constructor: "x", todos: [{ constructor: 1, ...todo("a") }] }),
  "a getter": () => ({ get todos() { return [todo("a")]; } }),
  "a sparse list": () => ({ todos: sparse }),
  "a list of a subclass": () => ({ todos: Steps.from([todo("a")]) }),
  "a proxy": () => new Proxy({ todos: [todo("a")] }, {}),
  "an object of a class": () => new (class Args { todos = [todo("a")]; })(),
  "a null-prototype object": () => Object.assign(Object.create(null), { todos: [todo("a")] }),
  "keys inherited": () => Object.create({ todos: [Object.create(todo("a"))], focus: undefined }),
  "getters on a class's prototype": () =>
    new (class Args {
      get todos() {
        return [todo("a")];
      }
      get note() {
        return "n";
      }
    })(),
  "getters on a class's prototype, and values the encoding reads": () =>
    new (class Args {
      get todos() {
        return [todo("a", { length: 3 }), [1], todo("b", "c".repeat(141))];
      }
      get focus() {
        return ["f"];
      }
    })(),
  "objects where a string goes, their length read where it lives": () => ({
    todos: [todo("a", new (class Long { get length() { return 500; } })()), todo(Object.defineProperty({}, "length", { value: 0 }), "c")],
    focus: Object.create({ length: 41 }),
    note: new (class Words { length = "3"; })(),
  }),
  "a Date as the arguments": () => new Date(0),
  "a Map as a todo": () => ({ todos: [new Map([["id", "a"]])] }),
  "a Date where a string goes": () => ({ todos: [todo("a")], note: new Date(0) }),
};

test("objects of every shape answer as zod's safeParse does", () => {
  for (const [label, make] of Object.entries(shapes)) {
    const actual = planloop.validateWriteTodos(make());
    const expected = zodAnswer(writeTodosSchema, make());
    assert.ok(same(actual, expected), `${label}: ${JSON.stringify(actual)} but zod: ${JSON.stringify(expected)}`);
  }
});

test("each key the schema reads is read once, whichever way the arguments cross", () => {
  for (const content of ["Read", { text: "Read" }]) {
    const reads = { todos: 0, id: 0, focus: 0 };
    const args = {
      get todos() {
        reads.todos += 1;
        return [
          {
            get id() {
              reads.id += 1;
              return "a";
            },
            content,
            status: "pending",
          },
        ];
      },
      get focus() {
        reads.focus += 1;
        return "f";
      },
    };
    planloop.validateWriteTodos(args);
    new planloop.PlannerState().applyWriteTodos(args, 1);
    assert.deepEqual(reads, { todos: 2, id: 2, focus: 2 }, `content ${JSON.stringify(content)}: once per call`);
  }
});

test("valid arguments are a new object holding the caller's own strings", () => {
  const args = { todos: [todo("a", "Read")], focus: undefined, extra: 1 };
  const { data } = planloop.validateWriteTodos(args);
  assert.notEqual(data, args);
  assert.notEqual(data.todos[0], args.todos[0]);
  assert.deepEqual(Object.keys(data), ["todos", "focus"]);
  assert.ok(Object.hasOwn(data, "focus") && data.focus === undefined, "a key set to undefined is kept, as zod keeps it");
});

test("a key the prototype holds is read where it lives, as zod reads it", () => {
  for (const [key, value, enumerable] of [["focus", undefined, false], ["note", "from the prototype", false], ["focus", undefined, true]]) {
    Object.defineProperty(Object.prototype, key, { value, enumerable, configurable: true, writable: true });
    try {
      const args = { todos: [todo("a")] };
      const actual = planloop.validateWriteTodos(args);
      assert.ok(same(actual, zodAnswer(writeTodosSchema, args)), `${key} = ${value} (enumerable: ${enumerable}): ${JSON.stringify(actual)}`);
      assert.ok(key in actual.data, `${key} is kept`);
    } finally {
      delete Object.prototype[key];
    }
  }
});

test("a string with a lone surrogate gets the same issue as in JSON text", () => {
  for (const args of [{ todos: [todo("a\uD800")] }, { todos: [todo("a")], note: "\uDC00b" }]) {
    assert.deepEqual(planloop.validateWriteTodos(args), planloop.validateWriteTodos(JSON.stringify(args)));
  }
});

test("a read that throws is the first thrown in zod's order, each key read once", () => {
  // Which key throws; the rest are getters too, counted.
  const cases = [
    [["focus"], "focus"],
    [["content"], "content"],
    [["id", "status"], "id"],
    [["status", "note"], "status"],
    [["todos", "focus"], "todos"],
    [["item"], "item"],
  ];
  for (const [throwing, first] of cases) {
    const reads = {};
    const getter = (key, value) => ({
      enumerable: true,
      get() {
        reads[key] = (reads[key] ?? 0) + 1;
        if (throwing.includes(key)) throw new Error(`no ${key}`);
        return value;
      },
    });
    const item = Object.defineProperties({}, { id: getter("id", 5), content: getter("content", "c"), status: getter("status", "pending") });
    const list = Object.defineProperty([], "0", getter("item", item));
    const args = Object.defineProperties({}, { todos: getter("todos", list), focus: getter("focus", 7), note: getter("note", "n") });
    for (const call of [() => planloop.validateWriteTodos(args), () => new planloop.PlannerState().applyWriteTodos(args, 1)]) {
      for (const key of Object.keys(reads)) reads[key] = 0;
      assert.throws(call, (e) => e.code === "host_exception" && e.message.endsWith(`threw: no ${first}`) && e.data.detail === `no ${first}`, `${throwing}`);
      assert.ok(Object.values(reads).every((n) => n === 1), `${throwing}: each key read once, not ${JSON.stringify(reads)}`);
    }
  }
});

test("applyWriteTodos answers an object as it answers the object's JSON text", () => {
  const byObject = new planloop.PlannerState();
  const byText = new planloop.PlannerState();
  const calls = [
    { todos: [todo("a", "Read", "completed"), todo("b", "Write é😀", "in_progress")], focus: "writing" },
    { todos: [todo("a", "Read", "done")] },
    { todos: Array.from({ length: 9 }, (_, i) => todo(`s${i}`)) },
    { todos: [{ id: 5, content: "c", status: "pending" }], note: "n".repeat(201) },
    { todos: [todo("only", "One", "pending")], note: undefined },
    { todos: [todo("c", "Again", "in_progress"), todo("d", "x", "in_progress")] },
  ];
  for (const [i, args] of calls.entries()) {
    const ack = byObject.applyWriteTodos(args, i);
    assert.deepEqual(ack, byText.applyWriteTodos(JSON.stringify(args), i), JSON.stringify(args));
    assert.deepEqual(byObject.snapshot(), byText.snapshot());
  }
  assert.equal(byObject.snapshot().todos[0].id, "c");
  assert.equal(byObject.applyWriteTodos(calls[0], 9).inProgress, "b", "the id of the todo in progress is the caller's");
});

test("a refused call leaves the list as it was, its object read once", () => {
  const planner = new planloop.PlannerState();
  planner.recordIteration(["write_todos", "write_todos"]);
  let reads = 0;
  const args = { get todos() { reads += 1; return [todo("a")]; } };
  const ack = planner.applyWriteTodos(args, 1);
  assert.equal(ack.ok, false);
  assert.equal(ack.error, "duplicate_planner_call");
  assert.deepEqual(planner.snapshot().todos, []);
  assert.equal(reads, 1, "read once, in the JS layer (the refusal is the core's)");
});
