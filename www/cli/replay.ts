// A recorded session replayed through a planloop Session that observes the agent's own
// todo tools: each response goes in as the agent gave it, its recorded results come
// back, and the report says what planloop would have decided: where it would have sent
// the agent back instead of letting it stop, planner-overuse refusals, stuck warnings,
// and the calls a tool policy would have held for approval.
import { Session } from "planloop";
import type { Decision, Event, Receipt, SessionConfig, Todo, ToolPolicy } from "planloop";

import { MAX_CALLS, type Call, type Transcript } from "./log.js";

/**
 * Every dialect of a distinct tool name, as the recorded agents' own tools. `TodoWrite` is
 * read as Factory Droid's, which takes Claude Code's list as Claude Code does and Droid's
 * numbered lines besides: a call is followed only once its own tool answered it without
 * an error, so lines Claude Code refused change nothing here either. Cline's
 * `task_progress` is a checklist on any call.
 */
const DIALECTS: SessionConfig["todoDialects"] = [
  "droid_TodoWrite",
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
  "task_progress",
];

/** What the replay gives a call the recording has no result for, when the recording goes
 *  on after it: a failed call, so that nothing is taken from what it would have done. */
const UNANSWERED = "(the recording has no result for this call)";

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
  /** Calls the recording gives no result for (replayed as failed where it goes on). */
  unanswered: number;
  /** The last decision, and whether the recording stopped before its results. */
  last: string;
  /** The sub-agents it started, when it started any (Claude Code's). */
  children?: ChildReport[];
  /** Each item of the list it ended with, the calls made while it was in progress, and
   *  whether it was marked completed with none (`unbacked`). */
  items: ItemReport[];
}

/** An item of the list, and what backs it. */
export interface ItemReport {
  content: string;
  status: Todo["status"];
  receipts: Receipt[];
  unbacked: boolean;
}

/** What planloop would have decided over a sub-agent's session, under the call that
 *  started it (`null`: linked to none), with the todo list it ended with. */
export type ChildReport = {
  call: { id: string; turn: number; tool: string; description: string } | null;
  agentType: string;
  todoList: Pick<Todo, "content" | "status">[];
} & Report;

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
    unanswered: 0,
    last: "none",
    items: [],
  };
  let now = 0;
  let open = false;
  let decision: Decision | undefined;
  // Calls of the last response still waiting for a result, and how many it made run.
  let waiting: Call[] = [];
  let ran = 0;
  const events = (): void => {
    for (const event of session.drainEvents() as Event[]) {
      if (event.type === "PlannerRefused") report.overuseRefusals++;
      if (event.type === "Stuck") report.stuckWarnings++;
    }
  };
  for (const turn of transcript.turns) {
    now += 1000;
    if (turn.role === "user" || !open) {
      // (A turn begun anew leaves the calls it waited for behind, unanswered.)
      session.beginTurn({ message: turn.role === "user" ? turn.text.slice(0, 100_000) || "…" : "…", nowMs: now });
      open = true;
      report.unanswered += waiting.length;
      waiting = [];
      if (turn.role === "user") continue;
    }
    if (waiting.length > 0) {
      report.unanswered += waiting.length;
      session.handleToolResults(waiting.map((call) => ({ id: call.id, output: UNANSWERED, isError: true })), now);
      waiting = [];
      events();
    }
    report.turns++;
    const calls = turn.calls.slice(0, MAX_CALLS).map((call, i) => ({
      id: call.id.slice(0, 256) || `call_${report.turns}_${i + 1}`,
      name: call.name.slice(0, 256) || "?",
      args: call.args,
    }));
    decision = session.handleModelResponse({ text: turn.text.slice(0, 1_000_000) || null, toolCalls: calls }, now);
    // The calls that run: reads at once, held ones once approved.
    waiting = decision.type === "runTools" || decision.type === "awaitApproval" ? [...decision.calls] : [];
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
    ran = waiting.length;
    // Each call's first recorded result, by the id the replay gave it.
    const ids = new Map(turn.calls.slice(0, MAX_CALLS).map((call, i) => [call.id, calls[i]!.id]));
    const runs = new Set(waiting.map((call) => call.id));
    const results = new Map<string, { id: string; output: string; isError: boolean }>();
    for (const result of turn.results) {
      const id = ids.get(result.id);
      if (id !== undefined && result.id !== "" && !results.has(id) && runs.has(id)) {
        results.set(id, { id, output: result.output, isError: result.isError });
      }
    }
    if (results.size > 0) session.handleToolResults([...results.values()], now);
    waiting = waiting.filter((call) => !results.has(call.id));
    events();
  }
  if (waiting.length > 0) {
    report.unanswered += waiting.length;
    report.last = `runTools with ${waiting.length} of ${ran} calls unanswered (the recording stops)`;
  }
  const todos = session.todos();
  report.todos = { done: todos.filter((t) => t.status === "completed").length, total: todos.length };
  report.items = todos.map(({ content, status, receipts, unbacked }) => ({ content, status, receipts, unbacked }));
  if (decision && waiting.length === 0) report.last = decision.type;
  return { report, session, decision };
}
