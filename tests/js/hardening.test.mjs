// Hostile input as an attacker or a careless host would send it: deep store entries,
// `__proto__` keys, sparse arrays with huge lengths, hundreds of proposals, calls with
// no arguments. Each gets a clear answer, and the module keeps working afterwards.
import assert from "node:assert/strict";
import { test } from "node:test";

import { planloop } from "./support/pkg.mjs";

const { PlannerState, ReasoningLog, Session } = planloop;

/** A whole turn on a fresh session: the module still works. */
function stillWorks() {
  const session = new Session({ tools: { read: ["search"] } });
  session.beginTurn({ message: "go", nowMs: 0 });
  const decision = session.handleModelResponse({ toolCalls: [{ id: "1", name: "search", args: { query: "q" } }] }, 1);
  assert.equal(decision.type, "runTools");
  session.handleToolResults([{ id: "1", output: "ok" }], 2);
  assert.equal(session.handleModelResponse({ text: "Done." }, 3).type, "finalize");
  assert.equal(planloop.validateWriteTodos('{"todos":[{"id":"a","content":"b","status":"pending"}]}').success, true);
}

function gated() {
  const session = new Session();
  session.beginTurn({ message: "Clean up my home folder", nowMs: 0 });
  return session;
}

const isOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

test("a deeply nested store entry is refused as a snapshot, and the module lives on", () => {
  const header = '{"format":"planloop.session","version":"1.0","x":';
  for (const depth of [100, 1_000, 10_000, 100_000]) {
    for (const [open, close] of [["[", "]"], ['{"a":', "}"]]) {
      const text = header + open.repeat(depth) + "1" + close.repeat(depth) + "}";
      assert.throws(() => Session.restore(text), (e) => {
        assert.equal(e.name, "PlanloopError", `${depth} ${open}: ${e.message}`);
        assert.equal(e.code, "invalid_snapshot");
        assert.match(e.message, /nests deeper than a snapshot can/);
        return true;
      });
      // The same entry already parsed by the host: refused too (JSON.stringify of the
      // deepest ones throws inside the host, which is reported as such).
      const object = JSON.parse(text);
      assert.throws(() => Session.restore(object), (e) => e.name === "PlanloopError" && ["invalid_snapshot", "host_exception"].includes(e.code));
      stillWorks();
    }
  }
});

test("a `__proto__` key is a key: the user sees it, approves it, and the host receives exactly it", () => {
  const raw = '{"__proto__":{"command":"rm -rf ~"}}';
  for (const args of [raw, JSON.parse(raw)]) {
    const session = gated();
    const paused = session.handleModelResponse({ toolCalls: [{ id: "1", name: "run_bash", args }] }, 1);
    assert.equal(paused.type, "awaitApproval");
    const [proposal] = paused.proposals;
    assert.equal(proposal.justification, 'run_bash: {"__proto__":{"command":"rm -rf ~"}}');
    assert.equal(Object.getPrototypeOf(proposal.args), Object.prototype);
    assert.ok(isOwn(proposal.args, "__proto__"));
    assert.equal(proposal.args.command, undefined, "nothing is inherited through a prototype");
    assert.equal(JSON.stringify(proposal.args), raw);
    const { resumed } = session.approve(proposal.actionId, {}, 2);
    const [call] = resumed.calls;
    assert.equal(call.args.command, undefined);
    assert.equal(JSON.stringify(call.args), raw, "what runs is what was shown");
    assert.deepEqual(session.steps(), ['[Act] run_bash({"__proto__":{"command":"rm -rf ~"}})']);
    // After a restore, too.
    const again = gated();
    again.handleModelResponse({ toolCalls: [{ id: "1", name: "run_bash", args }] }, 1);
    const restored = Session.restore(JSON.stringify(again.snapshot()));
    assert.equal(JSON.stringify(restored.proposals()[0].args), raw);
    assert.equal(restored.proposals()[0].args.command, undefined);
  }
});

test("every result that carries a call's arguments or a tool's schema keeps `__proto__` keys its own", () => {
  const raw = '{"__proto__":{"command":"rm -rf ~"},"constructor":{"__proto__":[1]},"toString":2}';
  const session = gated();
  session.handleModelResponse({ toolCalls: [{ id: "1", name: "run_bash", args: raw }, { id: "2", name: "run_bash", args: JSON.parse(raw) }] }, 1);
  const proposals = session.proposals();
  const { proposal: rejected } = session.reject(proposals[0].actionId, { message: "no" }, 2);
  for (const args of [...proposals.map((p) => p.args), rejected.args]) {
    assert.equal(Object.getPrototypeOf(args), Object.prototype);
    assert.ok(isOwn(args, "__proto__") && isOwn(args.constructor, "__proto__") && isOwn(args, "toString"));
    assert.equal(args.command, undefined, "nothing is inherited through a prototype");
    assert.equal(JSON.stringify(args), raw);
  }
  // planloop's own schemas hold no such key; every object in them is a plain one.
  const plain = (value) => value === null || typeof value !== "object" || ((Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype) && Object.values(value).every(plain));
  for (const definition of new Session({ todoDialects: ["TodoWrite", "update_plan"] }).toolDefinitions()) assert.ok(plain(definition), definition.name);
});

test("edited arguments, read calls, `constructor` and `prototype` keys are own properties too", () => {
  const session = gated();
  const paused = session.handleModelResponse({ toolCalls: [{ id: "1", name: "write_file", args: { path: "a" } }] }, 1);
  const edited = JSON.parse('{"path":"a","__proto__":{"path":"/etc/passwd"},"constructor":{"name":"x"},"prototype":1}');
  const { resumed } = session.approve(paused.proposals[0].actionId, { editedArgs: edited }, 2);
  const [call] = resumed.calls;
  assert.equal(call.args.path, "a");
  assert.ok(isOwn(call.args, "__proto__") && isOwn(call.args, "constructor") && isOwn(call.args, "prototype"));
  assert.equal(Object.getPrototypeOf(call.args), Object.prototype);
  assert.deepEqual(call.args.constructor, { name: "x" });

  const reader = new Session({ tools: { default: "read" } });
  reader.beginTurn({ message: "look", nowMs: 0 });
  const run = reader.handleModelResponse({ toolCalls: [{ id: "1", name: "search", args: '{"__proto__":{"query":"x"}}' }] }, 1);
  assert.equal(run.calls[0].args.query, undefined);
  assert.ok(isOwn(run.calls[0].args, "__proto__"));

  const validated = planloop.validateWriteTodos('{"__proto__":{"todos":[]},"todos":[{"id":"a","content":"b","status":"pending","__proto__":{"x":1}}]}');
  assert.equal(Object.getPrototypeOf(validated.data), Object.prototype);
  assert.equal(Object.getPrototypeOf(validated.data.todos[0]), Object.prototype);
  assert.equal(validated.data.todos[0].x, undefined);

  const act = new ReasoningLog().recordAct("run_bash", JSON.parse('{"__proto__":{"command":"rm -rf ~"}}'), 1, 0);
  assert.equal(act.summary, 'run_bash({"__proto__":{"command":"rm -rf ~"}})');
});

test("sparse arrays with huge lengths are refused before anything is read or allocated", () => {
  const huge = () => new Array(2 ** 32 - 1);
  const cases = [
    ["handleToolResults", () => { const s = gated(); s.handleModelResponse({ toolCalls: [{ id: "1", name: "x", args: {} }] }, 1); return s.handleToolResults(huge(), 2); }],
    ["handleModelResponse", () => gated().handleModelResponse({ toolCalls: huge() }, 1)],
    ["contextCapsule", () => planloop.contextCapsule({ goal: "g", keyFindings: huge() })],
    ["contextCapsule nextActions", () => planloop.contextCapsule({ goal: "g", nextActions: huge() })],
    ["recordIteration", () => new PlannerState().recordIteration(huge())],
    ["composePrompt", () => planloop.composePrompt({ base: "b", components: huge() })],
    ["new Session", () => new Session({ tools: { read: huge() } })],
    ["arguments", () => gated().handleModelResponse({ toolCalls: [{ id: "1", name: "x", args: { list: huge() } }] }, 1)],
  ];
  for (const [name, call] of cases) {
    assert.throws(call, (e) => {
      assert.equal(e.name, "PlanloopError", `${name}: ${e.message}`);
      assert.ok(["invalid_argument", "invalid_options"].includes(e.code), `${name}: ${e.code}`);
      assert.match(e.message, /Too big/, name);
      return true;
    });
    stillWorks();
  }
});

test("hundreds of proposals in one turn keep unique action ids, and every one can be resolved", () => {
  const session = new Session({ maxIterations: 10 });
  session.beginTurn({ message: "Archive everything", nowMs: 0 });
  const seen = new Set();
  let now = 1;
  for (const round of [0, 1]) {
    const toolCalls = Array.from({ length: 256 }, (_, i) => ({ id: `r${round}-${i}`, name: "archive", args: { n: i } }));
    const paused = session.handleModelResponse({ toolCalls }, now++);
    assert.equal(paused.type, "awaitApproval");
    let resumed = null;
    for (const p of paused.proposals) {
      assert.ok(!seen.has(p.actionId), `${p.actionId} handed out twice`);
      seen.add(p.actionId);
      resumed = session.approve(p.actionId, {}, now++).resumed ?? resumed;
    }
    assert.equal(resumed.calls.length, 256);
    Session.restore(JSON.stringify(session.snapshot()));
    session.handleToolResults(resumed.calls.map((c) => ({ id: c.id, output: "ok" })), now++);
  }
  assert.equal(seen.size, 512);
});

test("what a snapshot writes is what a restore reads back: no args, undefined, -0, extreme numbers", () => {
  const odd = [
    undefined,
    { path: "a.md", force: undefined },
    { n: -0, list: [undefined, 1e308, 5e-324, -2.5e-310, Infinity, NaN] },
    { big: Number.MAX_VALUE, tiny: Number.MIN_VALUE, negative: -Number.MAX_VALUE },
  ];
  for (const args of odd) {
    const session = gated();
    const call = args === undefined ? { id: "1", name: "empty_trash" } : { id: "1", name: "empty_trash", args };
    const paused = session.handleModelResponse({ toolCalls: [call] }, 1);
    const expected = JSON.parse(JSON.stringify(args ?? {}));
    assert.deepEqual(paused.proposals[0].args, expected, "the proposal holds the arguments as JSON carries them");
    const { resumed } = session.approve(paused.proposals[0].actionId, {}, 2);
    assert.deepEqual(resumed.calls[0].args, expected, "and runs with exactly them");
    session.handleToolResults([{ id: "1", output: { removed: -0, sizes: [undefined, 1e308] } }], 3);
    const snapshot = session.snapshot();
    for (const copy of [snapshot, JSON.stringify(snapshot), JSON.parse(JSON.stringify(snapshot))]) {
      const restored = Session.restore(copy);
      assert.deepEqual(restored.snapshot(), snapshot, "a restored session writes the same snapshot");
    }
    session.handleModelResponse({ text: "Emptied." }, 4);
    Session.restore(session.snapshot());
  }
});

test("a justification shows what runs: line breaks, hidden characters, the end of a long command", () => {
  const session = gated();
  const commands = [`ls ${"a".repeat(250)}; rm -rf ~`, "echo hi\n\n\nrm -rf ~", "cat \u202Ehs.txt\u001b[2K"];
  const calls = commands.map((command, i) => ({ id: `c${i}`, name: "run_bash", args: { command } }));
  const paused = session.handleModelResponse({ toolCalls: calls }, 1);
  assert.equal(paused.type, "awaitApproval");
  assert.deepEqual(
    paused.proposals.map((p) => p.justification),
    [`Run: ls ${"a".repeat(90)}…[+77 chars]…${"a".repeat(83)}; rm -rf ~`, "Run: echo hi⏎⏎⏎rm -rf ~", "Run: cat \\u{202E}hs.txt\\u{1B}[2K"],
  );
  const proposed = session.drainEvents().filter((e) => e.type === "ActionProposed").map((e) => e.justification);
  assert.deepEqual(proposed, paused.proposals.map((p) => p.justification));
  // What runs is the command itself, unchanged.
  for (const p of paused.proposals) session.approve(p.actionId, {}, 2);
  assert.deepEqual(session.proposals().map((p) => p.args.command), commands);
});
