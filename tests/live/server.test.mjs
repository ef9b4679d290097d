// The live-model test server itself: what it answers for each tool choice, a reply the token
// cap cuts short, and malformed or hostile requests (a JSON error, never a crash).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { readReply, replySchema, simplify } from "./reply.mjs";
import { READ, WRITE, startLive } from "./support.mjs";

let live;
before(async () => {
  live = await startLive();
});
after(() => live?.close());

const tools = [READ, WRITE].map((t) => ({ type: "function", function: t }));
const ask = [{ role: "user", content: "Read notes/a.md." }];

async function post(body, path = "/v1/chat/completions") {
  const response = await fetch(`${live.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

test("each tool choice gets the reply it allows, with ids, JSON arguments, usage and timings", { timeout: 60_000 }, async () => {
  const named = await post({ messages: ask, tools, tool_choice: { type: "function", function: { name: "read_note" } }, max_tokens: 48 });
  assert.equal(named.status, 200);
  const [choice] = named.json.choices;
  assert.equal(choice.finish_reason, "tool_calls");
  assert.equal(choice.message.content, null);
  assert.deepEqual(choice.message.tool_calls.map((c) => [c.type, c.function.name]), [["function", "read_note"]]);
  assert.match(choice.message.tool_calls[0].id, /^call_\d+$/);
  assert.equal(typeof JSON.parse(choice.message.tool_calls[0].function.arguments).path, "string");
  const { usage } = named.json;
  assert.ok(usage.prompt_tokens > 0 && usage.completion_tokens > 0 && usage.total_tokens === usage.prompt_tokens + usage.completion_tokens);
  assert.equal(named.json.timings.predicted_n, usage.completion_tokens);

  const required = await post({ messages: ask, tools, tool_choice: "required", max_tokens: 64 });
  assert.ok(required.json.choices[0].message.tool_calls.every((c) => ["read_note", "write_note"].includes(c.function.name)));
  const none = await post({ messages: ask, tools, tool_choice: "none", max_tokens: 24 });
  assert.equal(none.json.choices[0].message.tool_calls, undefined);
  assert.equal(typeof none.json.choices[0].message.content, "string");
  // The ids go on counting: no two calls of one server share one.
  const ids = [named, required].flatMap((r) => r.json.choices[0].message.tool_calls.map((c) => c.id));
  assert.equal(new Set(ids).size, ids.length);

  const models = await (await fetch(`${live.url}/v1/models`)).json();
  assert.deepEqual(models.data.map((m) => m.id), [live.model]);
});

test("an answer the cap cuts inside the grammar's wrapper comes back as the text so far", () => {
  assert.deepEqual(readReply(String.raw`{"content":"The note is: a\nb`), { content: "The note is: a\nb", cut: true });
  assert.deepEqual(readReply(String.raw`{"content":"caf\u00`), { content: "caf", cut: true });
  assert.deepEqual(readReply(String.raw`{"content":"say \"hi\"" `), { content: 'say "hi"', cut: true });
  assert.deepEqual(readReply('{"content":"done"}'), { content: "done" });
  assert.equal(readReply('{"tool_calls":[{"name":"read_note"'), null);
});

test("a reply the token cap cuts short comes back as text with finish_reason length", { timeout: 60_000 }, async () => {
  const cut = await post({ messages: ask, tools, tool_choice: "required", max_tokens: 3 });
  assert.equal(cut.status, 200);
  const [choice] = cut.json.choices;
  assert.equal(choice.finish_reason, "length");
  assert.equal(choice.message.tool_calls, undefined);
  assert.equal(typeof choice.message.content, "string");
  assert.throws(() => JSON.parse(choice.message.content));
  assert.equal(cut.json.usage.completion_tokens, 3);
  // The server's own cap bounds what a request may ask for.
  const capped = await post({ messages: [{ role: "user", content: "Tell me a very long story." }], tool_choice: "none", max_tokens: 100_000 });
  assert.ok(capped.json.usage.completion_tokens <= 128);
});

test("malformed requests get a 400 (or 404, 405, 413) JSON error, and the server goes on", { timeout: 60_000 }, async () => {
  const cases = [
    ["not JSON", "{", 400],
    ["not an object", "[1]", 400],
    ["streaming", { messages: ask, stream: true }, 400, "stream"],
    ["no messages", { messages: [] }, 400, "messages"],
    ["an unknown role", { messages: [{ role: "wizard", content: "hi" }] }, 400, "messages[0]"],
    ["content of the wrong type", { messages: [{ role: "user", content: 7 }] }, 400, "messages[0].content"],
    ["a tool message without its call id", { messages: [{ role: "tool", content: "x" }] }, 400, "messages[0].tool_call_id"],
    ["a call without arguments text", { messages: [{ role: "assistant", content: null, tool_calls: [{ id: "a", function: { name: "x", arguments: {} } }] }] }, 400, "messages[0].tool_calls"],
    ["tools not a list", { messages: ask, tools: {} }, 400, "tools"],
    ["a nameless tool", { messages: ask, tools: [{ type: "function", function: {} }] }, 400, "tools[0]"],
    ["a tool choice naming no tool", { messages: ask, tools, tool_choice: { type: "function", function: { name: "rm" } } }, 400, "tool_choice"],
    ["required without tools", { messages: ask, tool_choice: "required" }, 400, "tool_choice"],
    ["a nonsense tool choice", { messages: ask, tools, tool_choice: 3 }, 400, "tool_choice"],
    ["max_tokens of zero", { messages: ask, max_tokens: 0 }, 400, "max_tokens"],
    ["a temperature out of range", { messages: ask, temperature: 9 }, 400, "temperature"],
    ["a prompt longer than the context", { messages: [{ role: "user", content: "word ".repeat(20_000) }] }, 400, "messages"],
    ["a body past the limit", JSON.stringify({ messages: [{ role: "user", content: "x".repeat(3 * 1024 * 1024) }] }), 413],
  ];
  for (const [what, body, status, param] of cases) {
    const answer = await post(body);
    assert.equal(answer.status, status, what);
    assert.equal(typeof answer.json.error.message, "string", what);
    if (param !== undefined) assert.equal(answer.json.error.param, param, what);
  }
  // Tool schemas a grammar cannot take as they are get simplified, not refused.
  const hostile = [
    { type: "function", function: { name: "loop", parameters: { $defs: { n: { type: "object", properties: { n: { $ref: "#/$defs/n" } }, required: ["n"] } }, $ref: "#/$defs/n" } } },
    { type: "function", function: { name: "junk", description: 7, parameters: { type: ["object", "null"], properties: "x", required: 5 } } },
  ];
  assert.equal((await post({ messages: ask, tools: hostile, tool_choice: "required", max_tokens: 8 })).status, 200);
  assert.equal((await fetch(`${live.url}/v1/nowhere`)).status, 404);
  assert.equal((await fetch(`${live.url}/v1/chat/completions`)).status, 405);
  // Still serving.
  assert.equal((await post({ messages: ask, tool_choice: "none", max_tokens: 2 })).status, 200);
});

test("hostile tool schemas are simplified within bounds: self-references, fan-out, junk", () => {
  const loop = { $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } }, required: ["next"] } }, $ref: "#/$defs/node" };
  let depth = 0;
  for (let node = simplify(loop); node?.properties?.next; node = node.properties.next) depth += 1;
  assert.ok(depth > 0 && depth <= 8, `self-reference cut at depth ${depth}`);
  // Each level refers to the next ten times: the walk stops at its node budget.
  const defs = {};
  for (let i = 0; i < 8; i++) defs[`l${i}`] = { type: "object", properties: Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`p${k}`, { $ref: `#/$defs/l${i + 1}` }])), required: Array.from({ length: 10 }, (_, k) => `p${k}`) };
  const count = (node) => (typeof node !== "object" || node === null ? 0 : 1 + Object.values(node).reduce((n, v) => n + count(v), 0));
  assert.ok(count(simplify({ $defs: defs, $ref: "#/$defs/l0" })) < 2000);
  for (const junk of [null, 7, "x", [], { type: "wizard" }, { $ref: "#/nowhere" }, { $ref: "http://example.com/x" }, { enum: [{}, []] }, { const: {} }, { oneOf: [] }, { allOf: [7, null] }]) {
    const simple = simplify(junk);
    assert.equal(typeof simple, "object", JSON.stringify(junk));
    assert.doesNotThrow(() => JSON.stringify(simple));
  }
  // Optional properties are left out (the grammar would require them); arrays and strings are bounded.
  const schema = replySchema([{ name: "t", parameters: { type: "object", properties: { a: { type: "string", maxLength: 10_000 }, b: { type: "array", items: { type: "integer" } }, c: { type: "boolean" } }, required: ["a", "b"] } }], "t");
  const args = schema.properties.tool_calls.items.properties.arguments;
  assert.deepEqual(Object.keys(args.properties), ["a", "b"]);
  assert.ok(args.properties.a.maxLength <= 160 && args.properties.b.maxItems <= 8);
});
