// Cases run against the package in Node and in Chromium: the exported API on real JS
// values, the errors it throws, and the instance staying usable after bad input. Each
// case takes the package's exports and throws on failure; no test framework, so that
// the page can run them as they are.

const VALID = '{"todos":[{"id":"read","content":"Read the note","status":"in_progress"}],"focus":"reading"}';

function equal(actual, expected, what) {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

function ok(value, what) {
  if (!value) throw new Error(what);
}

function errorCode(run) {
  try {
    run();
  } catch (e) {
    ok(e instanceof Error, "a JS Error is thrown");
    equal(e.name, "PlanloopError", "its name");
    ok(e.data !== null && typeof e.data === "object", "data is an object");
    return e.code;
  }
  throw new Error("nothing was thrown");
}

export const cases = {
  "validates objects and raw JSON text alike"(p) {
    const fromText = p.validateWriteTodos(VALID);
    const fromObject = p.validateWriteTodos(JSON.parse(VALID));
    equal(fromText, fromObject, "text and object");
    equal(fromText.success, true, "success");
    equal(fromText.data.todos[0].id, "read", "the id");
  },

  "strips unknown keys and keeps an undefined optional key like zod"(p) {
    const result = p.validateWriteTodos({ todos: [{ id: "a", content: "b", status: "pending", x: 1 }], focus: undefined, y: 2 });
    equal(result.data, { todos: [{ id: "a", content: "b", status: "pending" }] }, "the data");
    ok("focus" in result.data, "zod keeps a key given as undefined");
    ok(!("y" in result.data), "unknown keys are stripped");
  },

  "reads objects the way zod does"(p) {
    // Inherited properties count, class instances are named by their constructor.
    const inherited = p.validateWriteTodos(Object.create({ todos: [{ id: "a", content: "b", status: "pending" }] }));
    equal(inherited.success, true, "an inherited todos");
    const date = p.validateWriteTodos({ todos: new Date(0) });
    equal(date.error.issues[0].message, "Invalid input: expected array, received Date", "a Date");
    const fn = p.validateWriteTodos({ todos: function (a) { return a; } });
    equal(fn.error.issues.length, 1, "a function with length 1 passes min(1)");
  },

  "malformed JSON text is one invalid_json issue"(p) {
    const result = p.validateWriteTodos('{"todos": [}');
    equal(result.error.issues.length, 1, "one issue");
    equal(result.error.issues[0].code, "invalid_json", "its code");
    equal(result.error.issues[0].position, 11, "its position");
  },

  "lone surrogates are reported, not silently replaced"(p) {
    const object = p.validateWriteTodos({ todos: [{ id: "a\ud800", content: "b", status: "pending" }] });
    equal(object.error.issues[0].format, "well_formed_utf16", "the format");
    equal(object.error.issues[0].path, ["todos", 0, "id"], "the path");
    // The same string inside raw JSON text, escaped or not.
    const escaped = p.validateWriteTodos('{"todos":[{"id":"a\\ud800","content":"b","status":"pending"}]}');
    equal(escaped.error.issues, object.error.issues, "escaped in text");
    const literal = p.validateWriteTodos('{"todos":[{"id":"a\ud800","content":"b","status":"pending"}]}');
    equal(literal.error.issues, object.error.issues, "raw in text");
    // In a key zod never reads, a lone surrogate changes nothing.
    const ignored = p.validateWriteTodos('{"x":"\ud800","todos":[{"id":"a","content":"b","status":"pending"}]}');
    equal(ignored.success, true, "an unread key");
  },

  "a throwing getter is a host_exception and the planner survives it"(p) {
    const planner = new p.PlannerState();
    const hostile = { get todos() { throw new Error("boom"); } };
    equal(errorCode(() => planner.applyWriteTodos(hostile, 1)), "host_exception", "the code");
    equal(planner.applyWriteTodos(VALID, 2), { ok: true, revision: 1, todoCount: 1, inProgress: "read" }, "the next ack");
  },

  "planner acks follow seed 004"(p) {
    const planner = new p.PlannerState({ maxPlannerOnlyStreak: 2 });
    for (const revision of [1, 2]) {
      equal(planner.recordIteration(["write_todos"]).refusal, null, "no refusal");
      equal(planner.applyWriteTodos(VALID, revision).revision, revision, "the revision");
    }
    equal(planner.recordIteration(["write_todos"]).refusal, "planner_overuse_execute_next_step", "the third is refused");
    equal(planner.applyWriteTodos(VALID, 3).error, "planner_overuse_execute_next_step", "the ack says so");
    equal(planner.snapshot().revision, 2, "state unchanged");
  },

  "invalid arguments leave the state untouched and say why"(p) {
    const planner = new p.PlannerState();
    planner.applyWriteTodos(VALID, 1);
    const before = JSON.stringify(planner.snapshot());
    const ack = planner.applyWriteTodos({ todos: [] }, 2);
    equal([ack.ok, ack.error, ack.issues[0].code], [false, "invalid_arguments", "too_small"], "the ack");
    equal(JSON.stringify(planner.snapshot()), before, "the state");
  },

  "bad arguments throw PlanloopErrors with issues"(p) {
    const planner = new p.PlannerState();
    let thrown;
    try {
      planner.applyWriteTodos(VALID, "soon");
    } catch (e) {
      thrown = e;
    }
    equal([thrown.code, thrown.data.argument, thrown.data.issues[0].code], ["invalid_argument", "nowMs", "invalid_type"], "the error");
    equal(errorCode(() => new p.PlannerState({ plannerTools: "write_todos" })), "invalid_options", "planner options");
    equal(errorCode(() => new p.ReasoningLog({ mode: "all" })), "invalid_options", "history options");
    equal(errorCode(() => p.extractReflection(5)), "invalid_argument", "reflection text");
    equal(errorCode(() => p.extractReflection("x", 0)), "invalid_argument", "reflection length");
    equal(errorCode(() => p.contextCapsule([])), "invalid_argument", "a capsule");
    equal(planner.applyWriteTodos(VALID, 1).ok, true, "and everything still works");
  },

  "the reasoning trail is tagged"(p) {
    const log = new p.ReasoningLog({ mode: "full" });
    const planner = new p.PlannerState();
    planner.applyWriteTodos(VALID, 1);
    log.recordPlan(planner.snapshot(), 1, 1);
    log.recordAct("search_vault", { query: "q3 report", limit: 5 }, 1, 2);
    log.recordObs("search_vault", "3 notes\nmore", false, 1, 3);
    log.recordReflection("<think>secret</think>Found the report. Reading it next.", 1, 4);
    equal(log.steps(), ["[Plan] 0/1 done · now: read", '[Act] search_vault("q3 report")', "[Obs] search_vault ok: 3 notes", "[Reflect] Found the report."], "the steps");
  },

  "tool definitions carry the schema and the rules"(p) {
    const [tool] = p.toolDefinitions();
    equal(tool.name, "write_todos", "the name");
    equal(tool.parameters.properties.todos.maxItems, 8, "the schema");
    ok(tool.description.includes("planner_overuse_execute_next_step"), "the rules");
  },

  "a session refuses an early stop and finishes the plan"(p) {
    const session = new p.Session({ tools: { read: ["grep"] } });
    session.beginTurn({ message: "Fix the bug", nowMs: 0 });
    const todos = (second) => ({ todos: [{ id: "find", content: "Find it", status: "completed" === second ? "completed" : "in_progress" }, { id: "fix", content: "Fix it", status: second }] });
    const first = session.handleModelResponse({ toolCalls: [{ id: "t", name: "write_todos", args: todos("pending") }, { id: "s", name: "grep", args: '{"q":"bug"}' }] }, 1);
    equal([first.type, first.calls[0].args.q], ["runTools", "bug"], "the first decision");
    equal(session.handleToolResults([{ id: "s", output: "src/lib.rs:42" }], 2).complete, true, "the results");
    equal(session.handleModelResponse({ text: "Found it." }, 3).type, "continue", "an early stop");
    session.handleModelResponse({ toolCalls: [{ id: "t2", name: "write_todos", args: todos("completed") }] }, 4);
    equal(session.handleModelResponse({ text: "Fixed." }, 5), { type: "finalize", answer: "Fixed.", exitReason: "final_answer" }, "the end");
    equal(errorCode(() => session.handleToolResults([], 6)), "invalid_state", "results out of order");
  },

  "a write action waits for approval and a rejection reaches the model"(p) {
    const session = new p.Session();
    session.beginTurn({ message: "Deploy", nowMs: 0 });
    const paused = session.handleModelResponse({ toolCalls: [{ id: "d", name: "deploy", args: { env: "prod" } }, { id: "m", name: "send_mail", args: { to: "ops" } }] }, 1);
    equal([paused.type, paused.calls], ["awaitApproval", []], "an unnamed tool fails closed");
    const [deploy, mail] = paused.proposals.map((q) => q.actionId);
    equal(errorCode(() => session.handleToolResults([{ id: "d", output: "deployed" }], 2)), "invalid_state", "results before approval");
    equal(session.approve(deploy, { scope: "once" }, 3).resumed, null, "one still waits");
    equal(errorCode(() => session.approve(deploy, undefined, 4)), "action_already_resolved", "approved twice");
    const last = session.reject(mail, { message: "no mail on Fridays" }, 5);
    equal(last.resumed.calls, [{ id: "d", name: "deploy", args: { env: "prod" } }], "the approved call");
    equal(last.resumed.replies[0].content, "[tool_result:send_mail] The user rejected this action: no mail on Fridays", "the rejection");
    equal(errorCode(() => session.approve("act-1-9", undefined, 6)), "unknown_action", "an unknown action");
  },

  "a plan review store round-trips through JSON and expires"(p) {
    const review = { userId: "u", chatId: "c", turn: 1, goal: "g", plan: "1. a", createdAtMs: 0, expiresAtMs: 100 };
    const store = new p.PlanReviewStore();
    store.put(review);
    const restored = p.PlanReviewStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())));
    equal(restored.size, 1, "the size");
    equal(restored.take("u", "c", 200), null, "expired");
    equal(restored.size, 0, "dropped");
    equal(store.take("u", "c", 50).plan, "1. a", "taken in time");
    equal(errorCode(() => store.put({ userId: "u" })), "invalid_argument", "an incomplete review");
  },

  "a snapshot restores to a session that resumes the paused plan"(p) {
    const session = new p.Session({ maxIterations: 2, tools: { read: ["fetch"] } });
    session.beginTurn({ message: "Chart it", nowMs: 0 });
    session.handleModelResponse({ text: "[Step] Fetch\n[Step] Chart", toolCalls: [{ id: "1", name: "fetch", args: {} }] }, 1);
    session.handleToolResults([{ id: "1", output: "ok" }], 2);
    equal(session.handleModelResponse({ toolCalls: [{ id: "2", name: "fetch", args: {} }] }, 3).type, "pause", "paused");
    const text = JSON.stringify(session.snapshot());
    const restored = p.Session.restore(text);
    equal(JSON.stringify(restored.snapshot()), text, "the same snapshot");
    ok(restored.beginTurn({ message: "continue", nowMs: 9 }).message.startsWith("<resume>"), "resumed");
    equal(restored.stepPlan().status, "running", "running again");
    equal(errorCode(() => p.Session.restore(text.replace("Chart it", "Chart that"))), "invalid_snapshot", "an edited snapshot");
  },

  "a freed object is refused, and its module goes on"(p) {
    const planner = new p.PlannerState();
    planner.free();
    planner.free();
    equal(errorCode(() => planner.snapshot()), "invalid_state", "a freed planner");
    equal(new p.PlannerState().applyWriteTodos(VALID, 1).ok, true, "a new one works");
  },
};

/** Runs every case; the names of those that failed, with why. */
export function runCases(planloop) {
  const failures = [];
  for (const [name, run] of Object.entries(cases)) {
    try {
      run(planloop);
    } catch (error) {
      failures.push(`${name}: ${error && error.message}`);
    }
  }
  return failures;
}
