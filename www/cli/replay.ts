// A recorded session replayed through a planloop Session that observes the agent's own
// todo tools: each response goes in as the agent gave it, its recorded results come
// back, and the report says what planloop would have decided: where it would have sent
// the agent back instead of letting it stop, planner-overuse refusals, stuck warnings,
// and the calls a tool policy would have held for approval.
import { Session } from "planloop";
import type { Decision, Event, SessionConfig, ToolPolicy } from "planloop";

import type { Transcript } from "./transcripts.js";

/** Every dialect of a distinct tool name, as the recorded agents' own tools. */
const DIALECTS: SessionConfig["todoDialects"] = [
  "TodoWrite",
  "update_plan",
  "update_todo_list",
  "task_tracker",
  "gemini_write_todos",
  "todo_write",
  "todowrite",
  "TaskCreate",
  "TaskUpdate",
  "TaskList",
  "TaskGet",
];

/** Where planloop would have refused a stop. */
export interface RefusedStop {
  /** The assistant turn (from 1) that ended with an unfinished list. */
  turn: number;
  message: string;
}

/** What planloop would have decided over one recorded session. */
export interface Report {
  file: string;
  label: string;
  agent: string;
  model: string;
  /** Assistant turns (model responses). */
  turns: number;
  todos: { done: number; total: number };
  refusedStops: RefusedStop[];
  overuseRefusals: number;
  stuckWarnings: number;
  /** Calls the policy would have held for approval: `turn: tool`. */
  held: { turn: number; tool: string }[];
  /** The last decision, and whether the recording stopped before its results. */
  last: string;
}

export interface ReplayOptions {
  /** The tool policy whose approvals to report (by default, every tool reads). */
  tools?: ToolPolicy;
  maxPlanContinuations?: number;
}

/** Replays `transcript` through a fresh observing Session. */
export function replay(transcript: Transcript, options: ReplayOptions = {}): { report: Report; session: Session; decision: Decision | undefined } {
  const session = new Session({
    todoDialects: DIALECTS,
    todoMode: "observe",
    maxIterations: 100_000,
    timeoutMs: 86_400_000,
    maxPlanContinuations: options.maxPlanContinuations ?? 5,
    tools: options.tools ?? { default: "read" },
    stuck: { maxNudges: 100 },
  });
  const report: Report = {
    file: transcript.file,
    label: transcript.label,
    agent: transcript.agent,
    model: transcript.model,
    turns: 0,
    todos: { done: 0, total: 0 },
    refusedStops: [],
    overuseRefusals: 0,
    stuckWarnings: 0,
    held: [],
    last: "none",
  };
  let now = 0;
  let open = false;
  let decision: Decision | undefined;
  const events = (): void => {
    for (const event of session.drainEvents() as Event[]) {
      if (event.type === "PlannerRefused") report.overuseRefusals++;
      if (event.type === "Stuck") report.stuckWarnings++;
    }
  };
  for (const turn of transcript.turns) {
    now += 1000;
    if (turn.role === "user" || !open) {
      session.beginTurn({ message: turn.role === "user" ? turn.text.slice(0, 100_000) || "…" : "…", nowMs: now });
      open = true;
      if (turn.role === "user") continue;
    }
    report.turns++;
    const calls = turn.calls.map((call) => ({ id: call.id.slice(0, 256) || `call_${report.turns}`, name: call.name.slice(0, 256) || "?", args: call.args }));
    decision = session.handleModelResponse({ text: turn.text.slice(0, 1_000_000) || null, toolCalls: calls.slice(0, 256) }, now);
    // The calls that run: reads at once, held ones once approved.
    const waiting = decision.type === "runTools" || decision.type === "awaitApproval" ? [...decision.calls] : [];
    if (decision.type === "awaitApproval") {
      for (const proposal of decision.proposals) report.held.push({ turn: report.turns, tool: proposal.tool });
      // The recording ran them: so does the replay.
      for (const proposal of decision.proposals) {
        const outcome = session.approve(proposal.actionId, {}, now);
        if (outcome.resumed) decision = outcome.resumed;
      }
      if (decision.type === "runTools") waiting.push(...decision.calls);
    }
    if (decision.type === "continue" && turn.calls.length === 0) {
      report.refusedStops.push({ turn: report.turns, message: decision.message });
    }
    if (decision.type === "finalize" || decision.type === "pause" || decision.type === "fail") open = false;
    if (waiting.length > 0) {
      const results = turn.results.filter((r) => waiting.some((c) => c.id === r.id));
      if (results.length > 0) session.handleToolResults(results.map((r) => ({ id: r.id, output: r.output, isError: r.isError })), now);
      if (results.length < waiting.length) report.last = `runTools with ${waiting.length - results.length} of ${waiting.length} calls unanswered (the recording stops)`;
    }
    events();
  }
  const todos = session.todos();
  report.todos = { done: todos.filter((t) => t.status === "completed").length, total: todos.length };
  if (decision && !report.last.startsWith("runTools with")) report.last = decision.type;
  return { report, session, decision };
}
