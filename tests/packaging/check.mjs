// What every packaging fixture runs against the package it installed: a validation
// (valid and invalid), a whole Session turn (a todo list and a read tool, an early stop
// refused, the list finished, the answer) and an error's shape. Written as one plain
// function so each fixture can carry it in its own module format (see `sources`).
import assert from "node:assert/strict";

export function check(planloop) {
  const list = (a, b) => JSON.stringify({ todos: [{ id: "a", content: "Read the notes", status: a }, { id: "b", content: "Summarize them", status: b }] });
  const valid = planloop.validateWriteTodos(list("in_progress", "pending"));
  const invalid = planloop.validateWriteTodos('{"todos":[{"id":"a","content":"x","status":"done"}]}');
  const session = new planloop.Session({ tools: { read: ["search"] } });
  session.beginTurn({ message: "Summarize the notes", nowMs: 0 });
  const decisions = [];
  const first = session.handleModelResponse({ text: null, toolCalls: [{ id: "1", name: "write_todos", args: list("in_progress", "pending") }, { id: "2", name: "search", args: '{"q":"notes"}' }] }, 1);
  decisions.push(first.type);
  session.handleToolResults([{ id: "2", output: "notes.md" }], 2);
  decisions.push(session.handleModelResponse({ text: "Done.", toolCalls: [] }, 3).type);
  decisions.push(session.handleModelResponse({ text: null, toolCalls: [{ id: "3", name: "write_todos", args: list("completed", "completed") }] }, 4).type);
  decisions.push(session.handleModelResponse({ text: "The notes say hello.", toolCalls: [] }, 5).type);
  let error = null;
  try {
    session.handleToolResults("not a list", 6);
  } catch (thrown) {
    error = { isError: thrown instanceof Error, name: thrown.name, code: thrown.code };
  }
  return JSON.parse(JSON.stringify({ valid, invalid: invalid.error.issues, decisions, progress: session.progress(), error }));
}

/** `check` as the source of an ES module, a CommonJS one and a classic script. */
export const sources = {
  "check.mjs": `export ${check}\n`,
  "check.cjs": `${check}\nmodule.exports = { check };\n`,
  "check.js": `${check}\n`,
};

/** Asserts what a fixture reported, against what the package answers here in Node. */
export function assertChecked(reported, reference) {
  assert.deepEqual(reported, reference);
  assert.equal(reported.valid.success, true);
  assert.equal(reported.valid.data.todos.length, 2);
  assert.equal(reported.invalid[0].path.join("."), "todos.0.status");
  assert.deepEqual(reported.decisions, ["runTools", "continue", "runTools", "finalize"]);
  assert.deepEqual(reported.error, { isError: true, name: "PlanloopError", code: "invalid_argument" });
}
