// make demo: scripted agent turns driven through planloop: the planner primitives (part 1),
// a Session that will not stop before its plan is done (part 2), a turn that pauses
// for the user's approval of write actions (part 3), a plan saved at the iteration limit
// and continued (part 4), and a sub-agent taking one item of a plan (part 5). The "model"
// is a script; every decision printed below is planloop's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import { ChainRunner } from "../target/www/runner/chain.js";

const require = createRequire(import.meta.url);
const { PlannerState, ReasoningLog, Session, contextCapsule, extractReflection, toolDefinitions } = require("../pkg/planloop.cjs");

const planner = new PlannerState();
const trail = new ReasoningLog({ mode: "full" });
const rolling = new ReasoningLog({ mode: "rolling", size: 4 });
const logs = [trail, rolling];
let clock = Date.UTC(2026, 10, 21, 9, 0, 0);

const todos = (...items) => JSON.stringify({ todos: items.map(([id, content, status]) => ({ id, content, status })) });

// What the model "says" at each iteration: some text and some tool calls.
const script = [
  {
    text: "<think>The user wants a comparison, so I need both notes.</think>This needs a few steps, so I will plan them first.",
    calls: [{ name: "write_todos", args: todos(["find_notes", "Find the Q3 and Q2 revenue notes", "in_progress"], ["compare", "Compare revenue by product line", "pending"], ["write_summary", "Write the summary note", "pending"]) }],
  },
  {
    text: "Let me refine the plan.",
    calls: [{ name: "write_todos", args: '{"todos":[{"id":"find_notes","content":"Find both notes","status":"doing"}]}' }],
  },
  {
    text: "Fixing the status value.",
    calls: [{ name: "write_todos", args: todos(["find_notes", "Find both notes", "in_progress"], ["compare", "Compare", "pending"]) }],
  },
  {
    text: "Searching the vault for the revenue notes.",
    calls: [{ name: "search_vault", args: { query: "revenue Q3 Q2", limit: 5 }, output: "2 notes: finance/q3-revenue.md, finance/q2-revenue.md" }],
  },
  {
    text: "Both notes exist. Reading Q3 first.",
    calls: [
      { name: "write_todos", args: todos(["find_notes", "Find the Q3 and Q2 revenue notes", "completed"], ["compare", "Compare revenue by product line", "in_progress"], ["write_summary", "Write the summary note", "pending"]) },
      { name: "read_note", args: { path: "finance/q3-revenue.md" }, output: "Q3: Plugins 1.2M, Hosting 0.8M" },
    ],
  },
  {
    text: "Q3 grew in plugins. Now Q2 for the comparison.",
    calls: [{ name: "read_note", args: '{"path":"finance/q2-revenue.md"}', output: "ENOENT: finance/q2-revenue.md was moved", isError: true }],
  },
  {
    text: "The Q2 note moved; the archive has it.",
    calls: [{ name: "read_note", args: { path: "archive/q2-revenue.md" }, output: "Q2: Plugins 0.9M, Hosting 0.8M" }],
  },
  {
    text: "Plugins rose by a third while hosting stayed flat. Writing the summary.",
    calls: [
      { name: "write_todos", args: todos(["find_notes", "Find the Q3 and Q2 revenue notes", "completed"], ["compare", "Compare revenue by product line", "completed"], ["write_summary", "Write the summary note", "in_progress"]) },
      { name: "create_note", args: { path: "finance/q3-vs-q2.md", content: "Plugins +33%, Hosting flat" }, output: "created finance/q3-vs-q2.md" },
    ],
  },
  {
    text: "Done: the summary is in finance/q3-vs-q2.md. Plugins grew 33% quarter over quarter.",
    calls: [{ name: "write_todos", args: todos(["find_notes", "Find the Q3 and Q2 revenue notes", "completed"], ["compare", "Compare revenue by product line", "completed"], ["write_summary", "Write the summary note", "completed"]) }],
  },
];

const mark = { pending: "[ ]", in_progress: "[>]", completed: "[x]" };
const print = (line = "") => console.log(line);
const showTodos = () => {
  const { revision, todos: list } = planner.snapshot();
  print(`   todo list, revision ${revision}:`);
  for (const t of list) print(`     ${mark[t.status]} ${t.id.padEnd(14)} ${t.content}`);
};
const record = (method, ...args) => {
  let event;
  for (const log of logs) event = log[method](...args);
  if (event) print(`   ${trail.steps().at(-1)}`);
};

print("planloop demo, part 1: a scripted agent turn through the planner primitives");
print(`tools offered to the model: ${toolDefinitions().map((t) => t.name).join(", ")} (+ the host's own)\n`);

script.forEach((step, index) => {
  const iteration = index + 1;
  clock += 1500;
  print(`iteration ${iteration}: the model calls ${step.calls.map((c) => c.name).join(" + ")}`);
  const verdict = planner.recordIteration(step.calls.map((c) => c.name));
  if (verdict.plannerOnly) print(`   guard: planner-only iteration ${verdict.plannerOnlyStreak} in a row`);
  record("recordReflection", step.text, iteration, clock);
  for (const call of step.calls) {
    if (call.name === "write_todos") {
      const ack = planner.applyWriteTodos(call.args, clock);
      if (ack.ok) {
        print(`   write_todos -> ${JSON.stringify(ack)}`);
        record("recordPlan", planner.snapshot(), iteration, clock);
        showTodos();
      } else {
        print(`   write_todos REJECTED (${ack.error}): the tool result tells the model`);
        for (const line of ack.message.split("\n")) print(`     | ${line}`);
      }
    } else {
      record("recordAct", call.name, call.args, iteration, clock);
      record("recordObs", call.name, call.output, call.isError ?? false, iteration, clock + 300);
    }
  }
  print();
});

print("the full reasoning trail ([Plan]/[Act]/[Obs]/[Reflect]):");
for (const step of trail.steps()) print(`   ${step}`);
print("\nthe rolling view a chat bubble shows (last 4):");
for (const step of rolling.steps()) print(`   ${step}`);

const capsule = contextCapsule({
  goal: "Compare Q3 and Q2 revenue and write a summary note",
  planSnapshot: planner.snapshot(),
  keyFindings: [extractReflection(script.at(-2).text) ?? ""],
  artifacts: [{ type: "note", ref: "finance/q3-vs-q2.md", summary: "The comparison" }],
});
print("\nthe context capsule a parent agent would receive:");
print(`   goal: ${capsule.goal}`);
print(`   plan: revision ${capsule.planSnapshot.revision}, ${capsule.planSnapshot.todos.filter((t) => t.status === "completed").length}/${capsule.planSnapshot.todos.length} done`);
print(`   findings: ${capsule.keyFindings.join(" | ")}`);
print(`   artifacts: ${capsule.artifacts.map((a) => `${a.type} ${a.ref}`).join(", ")}`);

// Part 2: the same kind of turn driven by a Session, which answers the planner tools
// itself and refuses to let the model stop before its plan is done.
print("\n\nplanloop demo, part 2: a Session carries a three-step plan to completion");
// Every host tool runs inline here; part 3 makes write actions wait for the user.
const session = new Session({ history: { mode: "full" }, tools: { default: "read" } });
const plan = {
  overall_goal_ui: "Compare Q3 and Q2 revenue",
  internal_plan: "1. find both notes\n2. compare the product lines\n3. write the summary note",
  complexity: "complex",
};
const hostTools = {
  search_vault: () => "finance/q3-revenue.md, archive/q2-revenue.md",
  read_note: ({ path }) => (path.includes("q3") ? "Plugins 1.2M, Hosting 0.8M" : "Plugins 0.9M, Hosting 0.8M"),
  create_note: ({ path }) => `created ${path}`,
};
const model = [
  { text: "I will plan first.", toolCalls: [{ id: "c1", name: "plan", args: plan }] },
  { text: "Searching.", toolCalls: [{ id: "c2", name: "search_vault", args: { query: "revenue" } }] },
  { text: null, toolCalls: [{ id: "c3", name: "plan_progress", args: { step_id: "find", step_summary: "both notes found", next_step: "compare" } }] },
  { text: "I found both revenue notes.", toolCalls: [] },
  { text: "Reading both.", toolCalls: [{ id: "c4", name: "read_note", args: { path: "finance/q3-revenue.md" } }, { id: "c5", name: "read_note", args: { path: "archive/q2-revenue.md" } }] },
  { text: null, toolCalls: [{ id: "c6", name: "plan_progress", args: { step_id: "compare", step_summary: "plugins +33%, hosting flat" } }] },
  { text: "Writing the note.", toolCalls: [{ id: "c7", name: "create_note", args: { path: "finance/q3-vs-q2.md" } }] },
  { text: null, toolCalls: [{ id: "c8", name: "plan_progress", args: { step_id: "write", plan_status: "completed" } }] },
  { text: "Plugins grew 33% from Q2 to Q3 while hosting stayed flat; the comparison is in finance/q3-vs-q2.md.", toolCalls: [] },
];
let now = clock;
const start = session.beginTurn({ message: "How did Q3 revenue compare with Q2? Write it up.", nowMs: now });
print(`user: How did Q3 revenue compare with Q2? Write it up.   (${start.next.budgetLine})`);
for (const response of model) {
  const decision = session.handleModelResponse(response, (now += 2000));
  const said = response.text ? `"${response.text}"` : "(no text)";
  const calls = response.toolCalls.map((c) => c.name).join(" + ");
  print(`\nmodel: ${said}${calls ? ` + ${calls}` : ""}`);
  switch (decision.type) {
    case "runTools": {
      for (const reply of decision.replies) print(`   planloop answers ${reply.name}: ${reply.content.split("\n")[0]}`);
      const results = decision.calls.map((call) => ({ id: call.id, output: hostTools[call.name](call.args) }));
      if (results.length > 0) {
        const outcome = session.handleToolResults(results, (now += 500));
        for (const message of outcome.messages) print(`   host runs ${message.name}: ${message.content.split("\n")[0]}`);
      }
      break;
    }
    case "continue":
      print(`   planloop REFUSES the early stop (${decision.reason}, attempt ${decision.attempt} of ${decision.maxAttempts}) and injects:`);
      for (const line of decision.message.split("\n").slice(0, 9)) print(`     | ${line}`);
      break;
    case "finalize":
      print(`   planloop finalizes (${decision.exitReason}): "${decision.answer}"`);
      break;
    default:
      print(`   planloop: ${decision.type}`);
  }
}
print("\nevents:");
for (const event of session.drainEvents()) {
  const { type, turn, iteration, atMs, ...rest } = event;
  print(`   #${iteration} ${type} ${JSON.stringify(rest)}`);
}
print("\nthe trail:");
for (const step of session.steps()) print(`   ${step}`);
const progress = session.progress();
print(`\nprogress: ${progress.completed} steps recorded, plan completed: ${session.plan().completed}, ${progress.iterations} of ${progress.maxIterations} model calls used`);

// Part 3: write actions wait for the user. Reads run at once; the turn pauses with the
// writes as proposals and resumes when the last one is approved or rejected.
print("\n\nplanloop demo, part 3: a turn pauses for approval and resumes");
const gated = new Session({ tools: { read: ["search_vault", "read_note"] } });
const files = { search_vault: () => "drafts/q3-plan.md, drafts/q3-notes.md", read_note: () => "Q3 planning notes (final)", move_notes: ({ to }) => `moved 2 notes to ${to}` };
const show = (decision) => {
  if (decision.type === "awaitApproval") {
    print(`   planloop PAUSES the turn: ${decision.proposals.length} actions await approval (steps used ${decision.stepsUsed}, remaining ${decision.stepsRemaining})`);
    for (const p of decision.proposals) print(`     ${p.actionId}  ${p.justification}`);
  }
  if (decision.type === "finalize") print(`   planloop finalizes (${decision.exitReason}): "${decision.answer}"`);
  for (const reply of decision.replies ?? []) print(`   planloop answers ${reply.name}${reply.isError ? " (error)" : ""}: ${reply.content}`);
  const results = (decision.calls ?? []).map((call) => ({ id: call.id, output: files[call.name](call.args), exitCode: 0, durationMs: 1200 }));
  if (results.length > 0) {
    for (const message of gated.handleToolResults(results, (now += 500)).messages) print(`   host runs ${message.name}: ${message.content.replaceAll("\n", " | ")}`);
  }
};
gated.beginTurn({ message: "Archive the Q3 drafts and tell the team.", nowMs: (now += 1000) });
print("user: Archive the Q3 drafts and tell the team.");
const turn = [
  { text: "Looking for the drafts.", toolCalls: [{ id: "a1", name: "search_vault", args: { query: "Q3 drafts" } }] },
  {
    text: "Moving them and letting the team know.",
    toolCalls: [
      { id: "a2", name: "read_note", args: { path: "drafts/q3-plan.md" } },
      { id: "a3", name: "move_notes", args: { paths: ["drafts/q3-plan.md", "drafts/q3-notes.md"], to: "archive/q3/" } },
      { id: "a4", name: "send_message", args: { channel: "#team", text: "Q3 drafts are archived." } },
    ],
  },
];
let paused;
for (const response of turn) {
  print(`\nmodel: "${response.text}" + ${response.toolCalls.map((c) => c.name).join(" + ")}`);
  paused = gated.handleModelResponse(response, (now += 2000));
  show(paused);
}
const [move, message] = paused.proposals;
print(`\nuser approves ${move.actionId} (${move.tool})`);
const approved = gated.approve(move.actionId, { scope: "once" }, (now += 30_000));
print(`   ${approved.pending} still waiting; the turn stays paused`);
print(`user rejects ${message.actionId} (${message.tool}): "Don't ping the whole team; I'll tell them myself."`);
const rejected = gated.reject(message.actionId, { message: "Don't ping the whole team; I'll tell them myself." }, (now += 5000));
print(`   the last proposal is resolved: the turn RESUMES with ${rejected.resumed.type}`);
show(rejected.resumed);
const closing = { text: "Both Q3 drafts are in archive/q3/. I did not message the team, as you asked.", toolCalls: [] };
print(`\nmodel: "${closing.text}"`);
show(gated.handleModelResponse(closing, (now += 2000)));
print("\nevents:");
for (const { type, iteration, reason, pendingCount, actionId, status } of gated.drainEvents()) {
  const detail = [reason, pendingCount !== undefined && `${pendingCount} pending`, actionId, status].filter(Boolean).join(", ");
  print(`   #${iteration} ${type}${detail ? ` (${detail})` : ""}`);
}

// Part 4: the plan survives a restart. A model that plans in its text ([Step] lines,
// [Done] markers) runs out of iterations; the session is saved to a file, restored in a
// fresh Session, and the user's "continue" resumes the plan where it stopped.
print("\n\nplanloop demo, part 4: paused at the iteration limit, saved, restored, continued");
const file = join(mkdtempSync(join(tmpdir(), "planloop-demo-")), "session.json");
const firstRun = new Session({ maxIterations: 3, tools: { default: "read" } });
const reports = { fetch_report: ({ year }) => `${year} annual report: revenue ${{ 2021: "560.1", 2022: "554.6", 2023: "609.0" }[year]} bn CNY`, plot: () => "chart.png" };
const drive = (session, response) => {
  print(`\nmodel: "${(response.text ?? "").replaceAll("\n", " ")}"${response.toolCalls.length ? ` + ${response.toolCalls.map((c) => c.name).join(" + ")}` : ""}`);
  const decision = session.handleModelResponse(response, (now += 2000));
  if (decision.type === "runTools" && decision.calls.length > 0) {
    const results = decision.calls.map((call) => ({ id: call.id, output: reports[call.name](call.args) }));
    for (const message of session.handleToolResults(results, (now += 500)).messages) print(`   host runs ${message.name}: ${message.content}`);
  }
  for (const event of session.drainEvents()) {
    if (event.type === "StepStarted") print(`   step started: ${event.stepId} ${event.description}`);
    if (event.type === "StepCompleted") print(`   step completed: ${event.stepId} (by ${event.by})`);
  }
  return decision;
};
firstRun.beginTurn({ message: "Compare Tencent's revenue for 2021-2023 in a chart.", nowMs: (now += 1000) });
print("user: Compare Tencent's revenue for 2021-2023 in a chart.   (maxIterations: 3)");
drive(firstRun, {
  text: "[Step] Fetch the three annual reports\n[Step] Extract the revenue figures\n[Step] Draw the chart",
  toolCalls: [{ id: "r1", name: "fetch_report", args: { year: 2021 } }],
});
drive(firstRun, { text: "Got 2021.", toolCalls: [{ id: "r2", name: "fetch_report", args: { year: 2022 } }] });
const limit = drive(firstRun, { text: null, toolCalls: [{ id: "r3", name: "fetch_report", args: { year: 2023 } }] });
print(`   planloop stops the turn (${limit.type}, ${limit.exitReason}): "${limit.summary}"`);
writeFileSync(file, JSON.stringify(firstRun.snapshot()));
const saved = JSON.parse(readFileSync(file, "utf8"));
print(`\nsaved ${readFileSync(file).length} bytes to ${file}`);
print(`   plan ${saved.plan.id}: status ${saved.plan.status}, current_step_index ${saved.plan.current_step_index}, iteration_count ${saved.plan.iteration_count}`);
for (const step of saved.plan.steps) print(`     ${step.id} ${step.status.padEnd(9)} ${step.description}`);

print("\n(the process exits; later a new one starts)");
const secondRun = Session.restore(readFileSync(file, "utf8"));
// (The demo's own scratch file, not left behind in the temp folder.)
rmSync(dirname(file), { recursive: true, force: true });
const resumed = secondRun.beginTurn({ message: "continue", nowMs: (now += 3_600_000) });
print(`user: continue   (${resumed.next.budgetLine})`);
print("   planloop sends the model:");
for (const line of resumed.message.split("\n")) print(`     | ${line}`);
drive(secondRun, { text: "Fetched all three. [Done]", toolCalls: [{ id: "r4", name: "fetch_report", args: { year: 2023 } }] });
drive(secondRun, { text: "Revenue: 560.1, 554.6, 609.0 bn CNY. [Done]", toolCalls: [{ id: "p1", name: "plot", args: { years: [2021, 2022, 2023] } }] });
const finished = drive(secondRun, { text: "Revenue dipped 1% in 2022 and rose 9.8% in 2023; the chart is in chart.png.", toolCalls: [] });
print(`   planloop finalizes (${finished.exitReason}): "${finished.answer}"`);
const finalPlan = secondRun.stepPlan();
print(`\nplan ${finalPlan.id}: ${finalPlan.status}, ${finalPlan.steps.filter((s) => s.status === "completed").length}/${finalPlan.steps.length} steps, ${finalPlan.iteration_count} model calls across both runs`);

// Part 5: a sub-agent. The demo page's sub-agent scenario through the reference chain
// runner: the model delegates one item of its plan; the sub-agent plans and reads in a
// session inside the parent's; its capsule answers the delegate call and completes the
// item, and its steps join the parent's trail under the delegate call.
print("\n\nplanloop demo, part 5: a sub-agent takes one item of the plan (the demo page's sub-agent scenario)");
const scenario = JSON.parse(readFileSync(new URL("demo/scenarios/sub-agent.json", import.meta.url), "utf8"));
const [request] = scenario.messages;
const lines = (pad, text) => text.split("\n").map((line, i) => (i === 0 ? line : `${pad}     | ${line}`)).join("\n");
/** Prints the messages of a conversation not printed yet; responses print as they come. */
const printer = (pad, who) => {
  let seen = 0;
  return (messages) => {
    for (const m of messages.slice(seen)) {
      if (m.role === "user") print(`${pad}${m.content === request ? "user" : `planloop tells the ${who}`}: ${lines(pad, m.content)}`);
      if (m.role === "tool") print(`${pad}   ${m.name}${m.isError ? " (error)" : ""}: ${lines(pad, m.content)}`);
    }
    seen = messages.length;
  };
};
const parentLines = printer("", "model");
/** A model replaying `script`; a sub-agent's lines are indented under its delegate call. */
const replay = (script, agent) => {
  const [pad, who] = agent ? ["      ", `sub-agent ${agent}`] : ["", "model"];
  const own = agent ? printer(pad, who) : null;
  let at = 0;
  return {
    async complete(chat) {
      parentLines(runner.messages);
      own?.(chat.messages.slice(1));
      const response = script[at++];
      const calls = response.toolCalls.map((c) => c.name).join(" + ");
      print(`\n${pad}${who}: ${response.text ? `"${response.text}"` : "(no text)"}${calls ? ` + ${calls}` : ""}`);
      return response;
    },
  };
};
const runner = new ChainRunner({
  session: new Session(scenario.config),
  model: replay(scenario.script),
  subAgentModel: (delegation) => replay(scenario.children[delegation.callId], delegation.callId),
  tools: Object.entries(scenario.tools).map(([name, output]) => ({ definition: { name, description: name, parameters: { type: "object" } }, run: () => output })),
  prompt: { base: scenario.prompt },
  now: () => (now += 500),
});
const answered = await runner.send(request);
parentLines(runner.messages);
print(`   planloop finalizes (${answered.exitReason}): "${answered.answer}"`);
print("\nthe trail (the sub-agent's steps under the delegate call):");
for (const step of runner.session.steps()) print(`   ${step}`);
print("\nthe todo list:");
for (const t of runner.session.todos()) print(`   ${mark[t.status]} ${t.id.padEnd(9)} ${t.content}`);
