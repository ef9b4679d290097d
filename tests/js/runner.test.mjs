// The reference chain runner (www/runner) over the OpenAI-compatible adapter, against a
// scripted chat-completions server on 127.0.0.1: a whole turn with a refused early stop,
// an approval with edited arguments, events, and a conversation saved and restored.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { test } from "node:test";

import { ChainRunner } from "../../target/www/runner/chain.js";
import { openAIChatModel } from "../../target/www/runner/openai.js";
import { assertWellFormed } from "./support/conversation.mjs";
import { planloop } from "./support/pkg.mjs";

const { Session } = planloop;

/** A chat-completions server that answers from `script` in order and records requests. */
async function scriptedServer(script) {
  const requests = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const next = script[requests.length];
      requests.push({ url: request.url, auth: request.headers.authorization, body: JSON.parse(body) });
      if (!next) return response.writeHead(500).end("script exhausted");
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ id: `r${requests.length}`, object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", ...next }, finish_reason: next.tool_calls ? "tool_calls" : "stop" }] }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { requests, server, baseUrl: `http://127.0.0.1:${server.address().port}/v1` };
}

const call = (id, name, args) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
const todos = (second) => ({ todos: [{ id: "find", content: "Find the Q3 note", status: "completed" }, { id: "write", content: "Write the summary", status: second }] });

test("a whole turn over an OpenAI-compatible endpoint: nudge, approval, answer, saved conversation", async () => {
  const { requests, server, baseUrl } = await scriptedServer([
    { content: null, tool_calls: [call("c1", "write_todos", todos("in_progress")), call("c2", "search", { query: "Q3" })] },
    { content: "I found the note." },
    { content: null, tool_calls: [call("c3", "write_file", { path: "summary.md", content: "draft" })] },
    { content: null, tool_calls: [call("c4", "write_todos", todos("completed"))] },
    { content: "The summary is in summary.md." },
  ]);
  try {
    const events = [];
    const asked = [];
    const written = [];
    let stored = null;
    const runner = new ChainRunner({
      session: new Session({ tools: { read: ["search"] } }),
      model: openAIChatModel({ baseUrl, model: "scripted", apiKey: "k-123" }),
      prompt: { base: "You are a notes assistant." },
      tools: [
        { definition: { name: "search", description: "Search the notes", parameters: { type: "object", properties: { query: { type: "string" } } } }, run: () => "finance/q3.md" },
        { definition: { name: "write_file", description: "Write a file", parameters: { type: "object" } }, run: (args) => { written.push(args); return "written"; } },
      ],
      approve: (proposal) => {
        asked.push(proposal.justification);
        return { approve: true, editedArgs: { path: "summary.md", content: "final" } };
      },
      onEvent: (event) => events.push(event.type),
      store: { load: () => stored, save: (text) => { stored = text; } },
    });
    const outcome = await runner.send("Summarize the Q3 note");
    assert.deepEqual(outcome, { type: "finalize", answer: "The summary is in summary.md.", exitReason: "final_answer" });
    assertWellFormed(runner.messages, "after the turn");

    // What the endpoint saw: auth, the planner tools' schemas from planloop, the system prompt.
    assert.equal(requests.length, 5);
    assert.deepEqual([requests[0].url, requests[0].auth], ["/v1/chat/completions", "Bearer k-123"]);
    const sent = requests[0].body.tools.map((t) => t.function);
    const planner = new Session().toolDefinitions();
    assert.deepEqual(sent.slice(0, planner.length), planner);
    assert.deepEqual(sent.map((t) => t.name), ["write_todos", "plan", "plan_progress", "search", "write_file"]);
    assert.match(requests[0].body.messages[0].content, /^You are a notes assistant\.\n\n## Core instructions/);
    // Every tool call got its tool message, and the early stop was answered with a nudge.
    const second = requests[1].body.messages;
    assert.deepEqual(second.filter((m) => m.role === "tool").map((m) => m.tool_call_id), ["c1", "c2"]);
    const nudge = requests[2].body.messages.at(-1);
    assert.equal(nudge.role, "user");
    assert.match(nudge.content, /^<plan-continuation>/);
    // The write waited for approval and ran once, with the edited arguments.
    assert.deepEqual(asked, ["write_file: summary.md"]);
    assert.deepEqual(written, [{ path: "summary.md", content: "final" }]);
    assert.ok(events.includes("PlanContinuation") && events.includes("ActionResolved") && events.at(-1) === "TurnCompleted");

    // The conversation and the session come back from the store.
    const again = new ChainRunner({ session: new Session(), model: openAIChatModel({ baseUrl, model: "scripted" }), store: { load: () => stored, save: () => {} } });
    assert.equal(await again.restore((snapshot) => Session.restore(snapshot)), true);
    assert.deepEqual(again.messages, runner.messages);
    assertWellFormed(JSON.parse(stored).messages, "saved");
    assert.deepEqual(again.session.snapshot(), runner.session.snapshot());
  } finally {
    server.close();
  }
});

test("an endpoint error reaches the caller with its status, and nothing is half-run", async () => {
  const { server, baseUrl } = await scriptedServer([]);
  try {
    const runner = new ChainRunner({ session: new Session(), model: openAIChatModel({ baseUrl, model: "scripted" }) });
    await assert.rejects(runner.send("Hello"), /chat completions answered 500: script exhausted/);
    assertWellFormed(runner.messages, "after the error");
  } finally {
    server.close();
  }
});
