// Session from JS: a whole turn driven by a scripted model, the shapes a host sees, and
// the errors it gets for calls out of order or bad input.
import assert from "node:assert/strict";
import { test } from "node:test";

import { planloop } from "./support/pkg.mjs";

const { PlanReviewStore, Session } = planloop;

/** Every host tool runs inline: for tests about the loop, not about approvals. */
const trusting = { tools: { default: "read" } };

/** Plays `script` (one model response per entry) through a session; returns every decision. */
function play(session, script, { tool = (call) => `${call.name} ok` } = {}) {
  let now = 1_000;
  const decisions = [];
  session.beginTurn({ message: "Summarize the Q3 notes", nowMs: now });
  for (const response of script) {
    now += 1_000;
    const decision = session.handleModelResponse(response, now);
    decisions.push(decision);
    if (decision.type === "runTools" && decision.calls.length > 0) {
      session.handleToolResults(decision.calls.map((call) => ({ id: call.id, output: tool(call) })), now);
    }
    if (decision.type === "finalize" || decision.type === "pause" || decision.type === "fail") break;
  }
  return decisions;
}

const plan = JSON.stringify({ overall_goal_ui: "Summarize Q3", internal_plan: "1. find\n2. read\n3. write", complexity: "complex" });

test("a three-step plan is carried to completion through a refused early stop", () => {
  const session = new Session(trusting);
  const decisions = play(session, [
    { text: "Planning.", toolCalls: [{ id: "p", name: "plan", args: plan }] },
    { text: null, toolCalls: [{ id: "1", name: "search", args: { query: "Q3" } }] },
    { text: "I found the notes.", toolCalls: [] },
    { text: "", toolCalls: [{ id: "2", name: "read", args: '{"path":"q3.md"}' }] },
    { toolCalls: [{ id: "3", name: "write", args: { path: "summary.md" } }] },
    { toolCalls: [{ id: "pp", name: "plan_progress", args: { plan_status: "completed" } }] },
    { text: "The summary is in summary.md.", toolCalls: [] },
  ]);
  assert.deepEqual(decisions.map((d) => d.type), ["runTools", "runTools", "continue", "runTools", "runTools", "runTools", "finalize"]);
  const refused = decisions[2];
  assert.equal(refused.reason, "plan_unfinished");
  assert.deepEqual([refused.attempt, refused.maxAttempts], [1, 5]);
  assert.match(refused.message, /^<plan-continuation>/);
  assert.deepEqual(decisions[1].calls, [{ id: "1", name: "search", args: { query: "Q3" } }]);
  assert.deepEqual(decisions[3].calls[0].args, { path: "q3.md" }, "JSON text arguments come back parsed");
  assert.deepEqual(decisions.at(-1), { type: "finalize", answer: "The summary is in summary.md.", exitReason: "final_answer" });
  const events = session.drainEvents();
  assert.ok(events.every((e) => typeof e.type === "string" && e.turn === 1 && typeof e.iteration === "number" && typeof e.atMs === "number"));
  assert.deepEqual(events.filter((e) => e.type === "PlanContinuation").map((e) => e.attempt), [1]);
  assert.deepEqual(session.drainEvents(), [], "drained");
  assert.equal(session.plan().completed, true);
});

test("runTools carries planloop's replies, the next call and the budget line", () => {
  const session = new Session({ ...trusting, maxIterations: 3 });
  session.beginTurn({ message: "Go", nowMs: 0 });
  const todos = { todos: [{ id: "a", content: "Do a", status: "in_progress" }] };
  const decision = session.handleModelResponse({ text: null, toolCalls: [{ id: "t", name: "write_todos", args: todos }, { id: "s", name: "search", args: {} }] }, 1);
  assert.equal(decision.type, "runTools");
  assert.deepEqual(decision.replies, [{ toolCallId: "t", name: "write_todos", content: '{"ok":true,"revision":1,"todoCount":1,"inProgress":"a"}', isError: false }]);
  assert.deepEqual(decision.next, { iteration: 2, toolsWithheld: false, toolRoundsRemaining: 1, budgetLine: "Tool rounds remaining: 1 of 2.", tokensRemaining: null });
  const outcome = session.handleToolResults([{ id: "s", output: { hits: 3 }, durationMs: 12 }], 2);
  assert.deepEqual(outcome.messages, [{ toolCallId: "s", name: "search", content: '{"hits":3}', isError: false }]);
  assert.equal(outcome.complete, true);
  // The search, made while `a` was in progress, is its evidence.
  const receipt = { id: "s", name: "search", ok: true, observation: 'search ok: {"hits":3}' };
  assert.deepEqual(session.todos(), [{ id: "a", content: "Do a", status: "in_progress", receipts: [receipt], unbacked: false }]);
  const spent = { steps: 1, inputTokens: 0, outputTokens: 0, timeMs: 1 };
  const ledger = { turn: spent, session: spent };
  assert.deepEqual(session.progress(), { source: "todos", completed: 0, total: 1, percentage: 0, current: "Do a", iterations: 1, maxIterations: 3, reported: null, ledger });
  assert.deepEqual(session.steps(), ["[Plan] 0/1 done · now: a", "[Act] search()", "[Obs] search ok: {\"hits\":3}"]);
});

test("a tool round's results read as JSON would give them: key order, arguments, non-ASCII text, a failed call", () => {
  const session = new Session({ ...trusting, maxIterations: 5 });
  session.beginTurn({ message: "Go", nowMs: 0 });
  // Arguments as JSON text and as an object, with what JSON must escape and keys JS orders.
  const args = { "é\"q": "😀\n\u0001", n: [1, -0.5, 1e21, null, true], 2: "two", __proto__: { polluted: true } };
  const calls = [
    { id: "c1", name: "grep", args: '{"q":"a\\tb","deep":{"x":[{}]}}' },
    { id: "c2", name: "read", args },
  ];
  const decision = session.handleModelResponse({ text: null, toolCalls: calls }, 1);
  assert.equal(
    JSON.stringify(decision),
    JSON.stringify({
      type: "runTools",
      calls: [
        { id: "c1", name: "grep", args: { q: "a\tb", deep: { x: [{}] } } },
        { id: "c2", name: "read", args: JSON.parse(JSON.stringify(args)) },
      ],
      delegations: [],
      replies: [],
      next: { iteration: 2, toolsWithheld: false, toolRoundsRemaining: 3, budgetLine: "Tool rounds remaining: 3 of 4.", tokensRemaining: null },
    }),
  );
  assert.equal(Object.getPrototypeOf(decision.calls[1].args), Object.prototype, "an argument never sets a prototype");
  const outcome = session.handleToolResults(
    [
      { id: "c2", output: "línea 1 — ✓\nline 2" },
      { id: "c1", output: "not found", isError: true },
    ],
    2,
  );
  assert.equal(
    JSON.stringify(outcome),
    JSON.stringify({
      messages: [
        { toolCallId: "c2", name: "read", content: "línea 1 — ✓\nline 2", isError: false },
        { toolCallId: "c1", name: "grep", content: "not found", isError: true },
      ],
      complete: true,
      next: { iteration: 2, toolsWithheld: false, toolRoundsRemaining: 3, budgetLine: "Tool rounds remaining: 3 of 4.", tokensRemaining: null },
    }),
  );
});

test("the session's tool definitions follow its configuration", () => {
  const names = (config) => new Session(config).toolDefinitions().map((t) => t.name);
  assert.deepEqual(names(), ["write_todos", "plan", "plan_progress"]);
  assert.deepEqual(names({ todoDialects: ["TodoWrite", "update_plan"] }), ["TodoWrite", "update_plan", "plan", "plan_progress"]);
  const everyToolName = ["write_todos", "TodoWrite", "update_plan", "update_todo_list", "task_tracker", "todo_write", "todowrite"];
  for (const tool of new Session({ todoDialects: everyToolName }).toolDefinitions()) {
    assert.equal(tool.parameters.type, "object", tool.name);
    assert.ok(tool.description.length > 40, tool.name);
  }
  // Another agent's dialect of a tool name answers it, with that agent's schema.
  const gemini = new Session({ todoDialects: ["gemini_write_todos", "droid_TodoWrite"] }).toolDefinitions();
  assert.deepEqual(gemini.map((t) => t.name), ["write_todos", "TodoWrite", "plan", "plan_progress"]);
  assert.deepEqual(gemini[0].parameters.properties.todos.items.properties.status.enum, ["pending", "in_progress", "completed", "cancelled", "blocked"]);
  // Observed, the agent's own tool is the host's to run: planloop offers none of it.
  assert.deepEqual(names({ todoDialects: ["write_todos", "TodoWrite"], todoMode: "observe" }), ["write_todos", "plan", "plan_progress"]);
  assert.throws(() => new Session({ todoMode: "watch" }), { code: "invalid_options" });
  // Two dialects of one tool name cannot both be on: the call could not tell them apart.
  assert.throws(
    () => new Session({ todoDialects: ["write_todos", "langchain_write_todos"] }),
    (e) => e.code === "invalid_options" && e.data.issues[0].path.join(".") === "todoDialects.1" && /both answer the tool write_todos/.test(e.message),
  );
});

test("calls out of order and bad input are PlanloopErrors that change nothing", () => {
  const session = new Session(trusting);
  assert.throws(() => session.handleModelResponse({ text: "hi" }, 1), { name: "PlanloopError", code: "invalid_state" });
  assert.throws(() => session.beginTurn({ message: "x" }), (e) => e.code === "invalid_argument" && e.data.issues[0].path[0] === "nowMs");
  assert.throws(() => new Session({ maxIteration: 3 }), (e) => e.code === "invalid_options" && e.data.issues[0].keys[0] === "maxIteration");
  assert.throws(() => new Session({ language: "fr" }), { code: "invalid_options" });
  session.beginTurn({ message: "x", nowMs: 0 });
  assert.throws(() => session.handleModelResponse({ text: "x", toolCalls: [{ id: "", name: "x" }] }, 1), { code: "invalid_argument" });
  session.handleModelResponse({ toolCalls: [{ id: "a", name: "x", args: {} }] }, 1);
  assert.throws(() => session.handleToolResults([{ id: "b", output: "?" }], 2), (e) => e.code === "invalid_argument" && e.data.issues[0].code === "custom");
  assert.throws(() => session.handleModelResponse({ text: "done" }, 2), { code: "invalid_state" });
  assert.equal(session.handleToolResults([{ id: "a", output: "fine" }], 2).complete, true);
  assert.equal(session.handleModelResponse({ text: "done" }, 3).type, "finalize");
});

test("Chinese prompts and a time limit that pauses the turn with a summary", () => {
  const session = new Session({ ...trusting, language: "zh", timeoutMs: 5_000 });
  session.beginTurn({ message: "整理笔记", nowMs: 0 });
  session.handleModelResponse({ toolCalls: [{ id: "p", name: "plan", args: plan }] }, 100);
  const nudge = session.handleModelResponse({ text: "完成了第一步。" }, 200);
  assert.match(nudge.message, /你刚完成了计划中的一个步骤/);
  const late = session.handleModelResponse({ toolCalls: [{ id: "s", name: "search", args: {} }] }, 9_000);
  assert.equal(late.type, "pause");
  assert.equal(late.exitReason, "timeout");
  assert.match(late.summary, /^已在时间上限处暂停/);
});

const gated = {
  tools: {
    read: ["search"],
    rules: [{ tool: "run_bash", argument: "command", prefixes: ["ls", "git status"], class: "read" }],
  },
};

test("write actions wait for approval while reads run, and the turn resumes when the last is resolved", () => {
  const session = new Session(gated);
  session.beginTurn({ message: "Tidy the repo", nowMs: 0 });
  const calls = [
    { id: "s", name: "search", args: { query: "tmp" } },
    { id: "l", name: "run_bash", args: { command: "ls -la" } },
    { id: "w", name: "write_file", args: { path: "notes.md", content: "x" } },
    { id: "r", name: "run_bash", args: '{"command":"rm -rf tmp"}' },
  ];
  const paused = session.handleModelResponse({ text: "Cleaning up.", toolCalls: calls }, 10);
  assert.equal(paused.type, "awaitApproval");
  assert.deepEqual(paused.calls.map((c) => c.id), ["s", "l"], "reads run while the user decides");
  assert.deepEqual([paused.stepsUsed, paused.stepsRemaining], [1, 19]);
  const [write, remove] = paused.proposals;
  assert.deepEqual(write, {
    actionId: write.actionId, callId: "w", tool: "write_file", args: { path: "notes.md", content: "x" },
    justification: "write_file: notes.md", status: "pending", turn: 1, iteration: 1, basis: write.basis,
  });
  assert.equal(remove.justification, "Run: rm -rf tmp");
  assert.deepEqual(session.proposals(), paused.proposals);
  assert.equal(session.handleToolResults([{ id: "s", output: "2 hits" }, { id: "l", output: "a b" }], 20).complete, false);
  assert.throws(() => session.handleModelResponse({ text: "done" }, 30), { code: "invalid_state" });

  const first = session.approve(write.actionId, { editedArgs: { path: "notes.md", content: "y" }, scope: "always" }, 40);
  assert.deepEqual([first.proposal.status, first.pending, first.resumed], ["approved", 1, null]);
  const last = session.reject(remove.actionId, { message: "Keep tmp, I need it." }, 50);
  assert.equal(last.proposal.status, "rejected");
  assert.equal(last.resumed.type, "runTools");
  assert.deepEqual(last.resumed.calls, [{ id: "w", name: "write_file", args: { path: "notes.md", content: "y" } }]);
  assert.deepEqual(last.resumed.replies, [{
    toolCallId: "r", name: "run_bash", isError: true,
    content: "[tool_result:run_bash] The user rejected this action: Keep tmp, I need it.",
  }]);
  const ran = session.handleToolResults([{ id: "w", output: "written", stderr: "warn: CRLF", exitCode: 0, durationMs: 1234 }], 60);
  assert.equal(ran.messages[0].content, "[tool_result:write_file] written\nwarn: CRLF\nexit: 0 (1.2s)");
  // "always" covers the tool for the rest of the session; other writes still ask.
  const next = session.handleModelResponse({ toolCalls: [{ id: "w2", name: "write_file", args: {} }, { id: "m", name: "send_mail", args: {} }] }, 70);
  assert.deepEqual([next.type, next.calls[0]?.id, next.proposals.map((p) => p.tool)], ["awaitApproval", "w2", ["send_mail"]]);
  const events = session.drainEvents().map((e) => e.type);
  for (const type of ["TurnStarted", "ActionProposed", "TurnPaused", "ActionResolved", "TurnResumed"]) assert.ok(events.includes(type), type);
});

test("resolving twice, an unknown id or another turn's action is a coded error that changes nothing", () => {
  const session = new Session(gated);
  session.beginTurn({ message: "Deploy", nowMs: 0 });
  const { proposals } = session.handleModelResponse({ toolCalls: [{ id: "a", name: "deploy", args: { env: "staging" } }, { id: "b", name: "deploy", args: { env: "prod" } }] }, 1);
  const [a, b] = proposals.map((p) => p.actionId);
  session.approve(a, undefined, 2);
  assert.throws(() => session.approve(a, {}, 3), (e) => e.name === "PlanloopError" && e.code === "action_already_resolved" && e.data.argument === "actionId" && e.data.detail === a);
  assert.throws(() => session.reject(a, {}, 3), { code: "action_already_resolved" });
  assert.throws(() => session.approve("act-7-7", {}, 3), { code: "unknown_action" });
  assert.throws(() => session.approve(b, { scope: "forever" }, 3), (e) => e.code === "invalid_options" && e.data.argument === "options");
  assert.throws(() => session.reject(b, { message: 42 }, 3), { code: "invalid_options" });
  assert.throws(() => session.approve(42, {}, 3), { code: "invalid_argument" });
  assert.deepEqual(session.proposals().map((p) => p.status), ["approved", "pending"], "nothing changed");
  session.beginTurn({ message: "Never mind", nowMs: 4 });
  assert.throws(() => session.approve(b, {}, 5), { code: "action_of_another_turn" });
  assert.deepEqual(session.proposals(), []);
});

test("plan review pauses after the plan; a PlanReviewStore carries it to a fresh session as JSON", () => {
  const config = { ...gated, planReview: { enabled: true } };
  const first = new Session(config);
  first.beginTurn({ message: "Summarize Q3", nowMs: 0, userId: "u1", chatId: "c1" });
  const decision = first.handleModelResponse({ toolCalls: [{ id: "p", name: "plan", args: plan }, { id: "s", name: "search", args: {} }] }, 10);
  assert.equal(decision.type, "awaitPlanReview");
  assert.equal(decision.message, "Plan review\n\nGoal: Summarize Q3\n\n1. find\n2. read\n3. write\n\nReply OK to go ahead, or reply with your changes.");
  assert.deepEqual(decision.replies.map((r) => [r.toolCallId, r.isError]), [["p", false], ["s", true]], "no action ran");
  assert.deepEqual([decision.review.userId, decision.review.chatId, decision.review.expiresAtMs], ["u1", "c1", 3_600_010]);

  const store = new PlanReviewStore();
  store.put(decision.review);
  const saved = JSON.stringify(store);
  const restored = PlanReviewStore.fromJSON(JSON.parse(saved));
  assert.equal(restored.size, 1);
  assert.equal(restored.take("u1", "other chat", 20), null);
  const review = restored.take("u1", "c1", 20);
  assert.equal(restored.size, 0, "taken once");
  const fresh = new Session(config);
  const { message } = fresh.beginTurn({ message: "Skip step 2.", nowMs: 20, userId: "u1", chatId: "c1", review });
  assert.match(message, /^<plan_feedback>\nplan:\n1\. find\n2\. read\n3\. write\n\nuser_feedback:\nSkip step 2\.\n/);
  assert.ok(message.endsWith("</plan_feedback>\n\nSkip step 2."));
  assert.equal(fresh.beginTurn({ message: "Thanks", nowMs: 30, userId: "u1", chatId: "c1" }).message, "Thanks", "injected once");

  // Expired reviews are dropped; malformed store data is refused.
  store.put({ ...decision.review, userId: null, chatId: null });
  assert.equal(store.take(null, null, 3_600_011), null);
  assert.equal(store.size, 0);
  assert.throws(() => PlanReviewStore.fromJSON({ reviews: [{ userId: "u" }] }), (e) => e.code === "invalid_argument" && e.data.argument === "data");
  assert.throws(() => store.put({ ...decision.review, turn: -1 }), { code: "invalid_argument" });
});

test("arguments given as JSON text cross raw and decide as they would as JSON", () => {
  const texts = [
    JSON.stringify({ path: "notes/é😀中.md", query: 'a "quoted" \\ line\n'.repeat(20) }),
    '{"path": "notes/a.md", "note": "not closed',
    JSON.stringify({ path: "x".repeat(70) }),
  ];
  // One session takes the raw way (every call's arguments a string, long enough), the
  // other the general one (the same calls with one more whose arguments are an object).
  const run = (extra) => {
    const session = new Session({ tools: { read: ["cat"], approve: ["rm"] } });
    session.beginTurn({ message: "Read them", nowMs: 0 });
    const calls = texts.map((args, i) => ({ id: `c${i}`, name: i === 2 ? "rm" : "cat", args }));
    const decision = session.handleModelResponse({ text: "Reading.", toolCalls: extra ? [...calls, extra] : calls }, 1);
    return { decision, steps: session.steps() };
  };
  const raw = run(null);
  const general = run({ id: "o", name: "cat", args: { path: "o.md" } });
  assert.equal(raw.decision.type, "awaitApproval");
  assert.deepEqual(raw.decision.calls, general.decision.calls.slice(0, 2));
  assert.deepEqual(raw.decision.calls.map((c) => c.args), [JSON.parse(texts[0]), texts[1]]);
  assert.deepEqual(raw.decision.proposals.map((p) => p.args), [JSON.parse(texts[2])]);
  assert.deepEqual(raw.decision.proposals.map((p) => p.args), general.decision.proposals.map((p) => p.args));
  assert.deepEqual(raw.steps, general.steps.filter((step) => !step.includes("o.md")));
  // What is wrong with a response is told as the general way tells it.
  const refusal = (args) => {
    const session = new Session(trusting);
    session.beginTurn({ message: "Read", nowMs: 0 });
    const calls = [{ id: "a", name: "cat", args }, { id: "a", name: "cat", args, extra: 1 }];
    try {
      session.handleModelResponse({ toolCalls: calls }, 1);
    } catch (error) {
      return [error.code, error.message, error.data];
    }
    assert.fail("refused");
  };
  assert.deepEqual(refusal(texts[0]), refusal({ path: "a" }));
});

test("object arguments come back as the module read them, each property read once, whichever way they crossed", () => {
  const inherits = Object.create({ inherited: 1 });
  inherits.own = 2;
  const cases = [
    { path: "notes/é😀中.md", deep: [{ n: 1.5, ok: true, none: null }, [], {}], "": "empty key", 10: "an index key" },
    // Each of these alone is something JSON does not carry as it is.
    ...[undefined, NaN, -Infinity, -0, "\ud800", new Date(0), [1, , 3], () => 1, 1n].map((value) => ({ path: "a", deep: [{ value }] })),
    JSON.parse('{"__proto__":{"path":"/etc/passwd"},"path":"a"}'),
    JSON.parse('{"constructor":{"name":"x"},"path":"a"}'),
    inherits,
    new (class Options {})(),
  ];
  // One session gets the response as given (plain: arguments copied in JS, the copy sent
  // and handed back); the other the same response with no prototype, which only the
  // general way takes.
  const decide = (args, plain) => {
    const session = new Session({ tools: { read: ["cat"] } });
    session.beginTurn({ message: "Read", nowMs: 0 });
    const calls = [{ id: "c", name: "cat", args }];
    const response = plain ? { text: null, toolCalls: calls } : Object.assign(Object.create(null), { text: null, toolCalls: calls });
    const decision = session.handleModelResponse(response, 1);
    return { decision, steps: session.steps() };
  };
  for (const args of cases) {
    const copied = decide(args, true);
    const general = decide(args, false);
    assert.equal(copied.decision.type, "runTools");
    assert.deepStrictEqual(copied.decision, general.decision, JSON.stringify(general.decision.calls[0].args));
    assert.deepEqual(copied.steps, general.steps);
    const [call] = copied.decision.calls;
    assert.notEqual(call.args, args, "the host gets a copy, not the object it gave");
    assert.equal(Object.getPrototypeOf(call.args), Object.prototype);
  }
  // A read that throws is told as the general way tells it.
  const failing = (plain) => {
    try {
      decide({ get path() { throw new Error("unreadable"); } }, plain);
    } catch (error) {
      return [error.code, error.message];
    }
    assert.fail("refused");
  };
  assert.deepEqual(failing(true), failing(false));
  // A getter is read once, and what it gave is what the trail shows and the host runs.
  let reads = 0;
  const args = {
    get path() {
      reads += 1;
      return reads === 1 ? "notes/a.md" : "/etc/passwd";
    },
  };
  const { decision, steps } = decide(args, true);
  assert.equal(reads, 1);
  assert.deepStrictEqual(decision.calls[0].args, { path: "notes/a.md" });
  assert.deepEqual(steps, ['[Act] cat("notes/a.md")']);
});

test("plan review speaks Chinese when the session does", () => {
  const session = new Session({ ...gated, language: "zh", planReview: { enabled: true } });
  session.beginTurn({ message: "整理笔记", nowMs: 0 });
  const decision = session.handleModelResponse({ toolCalls: [{ id: "p", name: "plan", args: plan }] }, 1);
  assert.match(decision.message, /^计划确认\n\n目标: Summarize Q3\n\n1\. find[^]*请回复 \*\*OK\*\* 继续/);
});

test("tool outputs cross raw: kilobytes of lines, quotes, non-ASCII and empty text come back as given", () => {
  const outputs = [
    'line with "quotes", a \\ backslash and a tab\t\n'.repeat(400),
    "é😀中 — non-ASCII\n",
    "",
    "{\"json\": [1, 2, 3]}",
  ];
  const session = new planloop.Session({ tools: { read: ["cat"] }, maxToolOutputChars: 100_000 });
  session.beginTurn({ message: "Read them", nowMs: 0 });
  const calls = outputs.map((_, i) => ({ id: `c${i}`, name: "cat", args: { i } }));
  assert.equal(session.handleModelResponse({ text: null, toolCalls: calls }, 1).type, "runTools");
  const outcome = session.handleToolResults(outputs.map((output, i) => ({ id: `c${i}`, output, durationMs: 1.5 })), 2);
  assert.deepEqual(outcome.messages.map((m) => [m.toolCallId, m.content, m.isError]), outputs.map((o, i) => [`c${i}`, o, false]));
  assert.equal(outcome.complete, true);
  // What the raw path does not take goes the general way: a lone surrogate is read as
  // JSON.stringify would carry it, and a key the schema does not know is still refused.
  session.handleModelResponse({ text: null, toolCalls: [{ id: "d", name: "cat", args: {} }] }, 3);
  assert.throws(() => session.handleToolResults([{ id: "d", output: "x", extra: 1 }], 4), (e) => e.code === "invalid_argument");
  const lone = session.handleToolResults([{ id: "d", output: "a\ud800b" }], 4);
  assert.equal(lone.messages[0].toolCallId, "d");
  assert.equal(lone.messages[0].content.replace(/[^ab]/g, ""), "ab");
});

test("the reminder comes when the plan stalls (reminderMode \"drift\", the default), or on the interval", () => {
  const todos = (status) => ({ todos: [{ id: "a", content: "Find the notes", status }, { id: "b", content: "Summarize them", status: "pending" }] });
  // The list at iteration 1, then searches; an item moves on at 6.
  const script = Array.from({ length: 9 }, (_, k) => {
    const i = k + 1;
    const calls = [{ id: `s${i}`, name: "search", args: { q: i } }];
    if (i === 1) calls.unshift({ id: "w1", name: "write_todos", args: todos("in_progress") });
    if (i === 6) calls.unshift({ id: "w6", name: "write_todos", args: todos("completed") });
    return { text: null, toolCalls: calls };
  });
  const reminded = (config) => {
    const session = new Session({ ...trusting, maxIterations: 50, ...config });
    play(session, script);
    return session.drainEvents().filter((e) => e.type === "ReminderInjected").map((e) => e.iteration);
  };
  assert.deepEqual(reminded({}), [4, 9]);
  assert.deepEqual(reminded({ reminderMode: "drift" }), [4, 9]);
  assert.deepEqual(reminded({ reminderMode: "interval" }), [3, 6, 9]);
  assert.equal(new Session({}).snapshot().config.reminderMode, "drift");
  assert.throws(() => new Session({ reminderMode: "sometimes" }), (e) => e.code === "invalid_options");
});
