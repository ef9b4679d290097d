// The OpenAI-compatible adapter (`planloop/runner/openai`) against servers on 127.0.0.1
// that behave as local model servers do: the request options a local server needs
// (tool_choice, max_tokens), cancellation and a time limit, and typed errors for every
// way a request can fail, with the runner's conversation kept well-formed after each.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { test } from "node:test";

import { ChainRunner } from "../../target/www/runner/chain.js";
import { ModelRequestError, openAIChatModel } from "../../target/www/runner/openai.js";
import { assertWellFormed } from "./support/conversation.mjs";
import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

/** A server whose `handle(body, response)` answers each request; the bodies it got. */
async function server(handle) {
  const bodies = [];
  const sockets = new Set();
  const http = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      bodies.push(JSON.parse(text));
      handle(bodies.at(-1), response);
    });
  });
  http.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  const close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => http.close(resolve));
  };
  return { bodies, baseUrl: `http://127.0.0.1:${http.address().port}/v1`, close };
}

const answer = (message) => (_, response) => {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop" }] }));
};
const never = () => {};
const read = { name: "read_note", description: "Read a note", parameters: { type: "object", properties: { path: { type: "string" } } } };

test("the request carries tool_choice with the tools, max_tokens, temperature and extra fields", async () => {
  const s = await server(answer({ content: "Done." }));
  try {
    const model = openAIChatModel({ baseUrl: s.baseUrl, model: "local", maxTokens: 64, temperature: 0, body: { seed: 7, model: "not this one" } });
    await model.complete({ messages: [{ role: "user", content: "hi" }], tools: [read] });
    await model.complete({ messages: [{ role: "user", content: "hi" }], tools: [] });
    const [withTools, withheld] = s.bodies;
    assert.equal(withTools.tool_choice, "auto");
    assert.equal(withTools.tools[0].function.name, "read_note");
    assert.deepEqual([withTools.max_tokens, withTools.temperature, withTools.seed, withTools.model], [64, 0, 7, "local"]);
    // A call planloop makes without tools sends neither tools nor a choice among them.
    assert.equal("tools" in withheld || "tool_choice" in withheld, false);
    const forced = openAIChatModel({ baseUrl: s.baseUrl, model: "local", toolChoice: "required" });
    await forced.complete({ messages: [{ role: "user", content: "hi" }], tools: [read] });
    assert.equal(s.bodies.at(-1).tool_choice, "required");
  } finally {
    await s.close();
  }
});

test("an aborted signal cancels the request in flight: a ModelRequestError, code aborted", async () => {
  const s = await server(never);
  try {
    const controller = new AbortController();
    const model = openAIChatModel({ baseUrl: s.baseUrl, model: "local", signal: controller.signal });
    const pending = model.complete({ messages: [{ role: "user", content: "hi" }], tools: [] });
    setTimeout(() => controller.abort(new Error("the user closed the panel")), 20);
    const error = await pending.then(() => null, (e) => e);
    assert.ok(error instanceof ModelRequestError, String(error));
    assert.equal(error.code, "aborted");
    assert.equal(error.cause.message, "the user closed the panel");
    // Once aborted, later requests fail at once rather than hang.
    const again = await model.complete({ messages: [{ role: "user", content: "hi" }], tools: [] }).then(() => null, (e) => e);
    assert.equal(again?.code, "aborted");
  } finally {
    await s.close();
  }
});

test("a request past timeoutMs ends with code timeout, and the runner's next turn goes on", async () => {
  let calls = 0;
  const s = await server((body, response) => (++calls === 1 ? undefined : answer({ content: "Hello." })(body, response)));
  try {
    const runner = new ChainRunner({ session: new Session(), model: openAIChatModel({ baseUrl: s.baseUrl, model: "local", timeoutMs: 50 }) });
    const error = await runner.send("first").then(() => null, (e) => e);
    assert.ok(error instanceof ModelRequestError, String(error));
    assert.deepEqual([error.code, error.data.timeoutMs], ["timeout", 50]);
    assertWellFormed(runner.messages);
    const outcome = await runner.send("second");
    assert.equal(outcome.type, "finalize");
    assertWellFormed(runner.messages);
  } finally {
    await s.close();
  }
});

test("an endpoint that cannot be reached is a transport error that names the cause", async () => {
  const s = await server(never);
  const { baseUrl } = s;
  await s.close();
  const model = openAIChatModel({ baseUrl, model: "local" });
  const error = await model.complete({ messages: [{ role: "user", content: "hi" }], tools: [] }).then(() => null, (e) => e);
  assert.ok(error instanceof ModelRequestError, String(error));
  assert.equal(error.code, "transport");
  assert.match(error.message, /ECONNREFUSED/);
  assert.ok(error.cause instanceof Error);
});

test("HTTP errors and replies that are not chat completions are typed too", async () => {
  const statuses = await server((_, response) => response.writeHead(503).end("loading model"));
  const garbage = await server((_, response) => response.writeHead(200).end("<html>proxy</html>"));
  const empty = await server((_, response) => response.writeHead(200).end(JSON.stringify({ choices: [] })));
  try {
    const ask = (baseUrl) => openAIChatModel({ baseUrl, model: "local" }).complete({ messages: [{ role: "user", content: "hi" }], tools: [] }).then(() => null, (e) => e);
    const unavailable = await ask(statuses.baseUrl);
    assert.deepEqual([unavailable.code, unavailable.data.status, unavailable.data.body], ["http_status", 503, "loading model"]);
    assert.equal((await ask(garbage.baseUrl)).code, "bad_response");
    assert.equal((await ask(empty.baseUrl)).code, "bad_response");
  } finally {
    await Promise.all([statuses.close(), garbage.close(), empty.close()]);
  }
});
