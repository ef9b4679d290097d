// planloop inside a LangChain.js v1 agent: `createAgent({ middleware: [planloopMiddleware()] })`.
// The agent keeps its own graph; planloop decides at its hooks. `beforeModel` hands the
// Session what is new (the user's message, tool results); `wrapModelCall` gives the model
// planloop's system prompt, tool messages and tool set; `afterModel` hands the Session the
// response: a premature stop goes back to the model with planloop's nudge, a limit ends
// the run with the summary, and gated calls pause through LangGraph's `interrupt()` with
// decisions shaped as `humanInTheLoopMiddleware`'s (approve / edit / reject), resumed with
// `Command({ resume: { decisions } })`. The planner tools return the answers planloop
// wrote for them. One Session per `thread_id`; its snapshot lives in the agent state
// (`planloop`), so the user's checkpointer persists it and a restarted process goes on.
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { getCurrentTaskInput, interrupt } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { z } from "zod";
import { type Decision, type ModelResponse, Session, type SessionConfig, type SessionSnapshot } from "planloop";

export interface PlanloopMiddlewareOptions {
  /** The configuration of each thread's session. Its `todoDialects` name the planner
   * tools offered (`["langchain_write_todos"]` takes the place of `todoListMiddleware`). */
  config?: SessionConfig;
  /** The clock, in milliseconds (Date.now by default). */
  now?: () => number;
}

/** A tool message planloop wrote. */
interface Written {
  content: string;
  isError: boolean;
}

/** What the agent state keeps of planloop, per thread (the checkpointer persists it). */
export interface PlanloopState {
  snapshot: SessionSnapshot;
  /** The last AI message the session has been handed. */
  seen: string | null;
  /** User messages seen; one more is a new turn. */
  users: number;
  /** The turn's user message as planloop wrote it (a resume summary, plan feedback). */
  turn: { index: number; text: string } | null;
  /** Calls whose results the session awaits. */
  awaited: string[];
  /** planloop's tool messages of this turn, by call id: its own tools' answers, and
   * results as the model is to read them. */
  written: Record<string, Written>;
  /** Whether the next model call goes without tools (the turn's last iteration). */
  withhold: boolean;
}

/** The reviewer's answer to one paused call, as `humanInTheLoopMiddleware` takes it. */
export type PlanloopDecision = { type: "approve" } | { type: "edit"; editedAction: { name: string; args: Record<string, unknown> } } | { type: "reject"; message?: string };

interface Entry {
  session: Session;
  saved: Omit<PlanloopState, "snapshot">;
}

const DECISIONS = ["approve", "edit", "reject"] as const;

export function planloopMiddleware(options: PlanloopMiddlewareOptions = {}) {
  const now = options.now ?? Date.now;
  const threads = new Map<string, Entry>();
  // planloop's answer to its own tool was written when the model's response was handed
  // to the session (afterModel): in memory, or in the state after a restart.
  const plannerTools = new Session(options.config).toolDefinitions().map((definition) =>
    tool(
      async (_args: unknown, config: { toolCall?: { id?: string }; configurable?: { thread_id?: string } }) => {
        const id = config.toolCall?.id ?? "";
        const kept = threads.get(config.configurable?.thread_id ?? "")?.saved.written[id] ?? getCurrentTaskInput<{ planloop?: PlanloopState }>().planloop?.written[id];
        if (kept === undefined) throw new Error(`planloop has no answer for call ${id}`);
        return kept.content;
      },
      { name: definition.name, description: definition.description, schema: definition.parameters as Record<string, unknown> },
    ),
  );

  /** The thread's session: in memory, else restored from the state, else new. */
  function entry(state: { planloop?: PlanloopState }, runtime: { configurable?: { thread_id?: string } }): Entry {
    const thread = runtime.configurable?.thread_id ?? "";
    let found = threads.get(thread);
    if (found === undefined) {
      const saved = state.planloop;
      found =
        saved === undefined
          ? { session: new Session(options.config), saved: { seen: null, users: 0, turn: null, awaited: [], written: {}, withhold: false } }
          : { session: Session.restore(saved.snapshot), saved: { seen: saved.seen, users: saved.users, turn: saved.turn, awaited: saved.awaited, written: saved.written, withhold: saved.withhold } };
      threads.set(thread, found);
    }
    return found;
  }

  const persisted = (e: Entry): { planloop: PlanloopState } => ({ planloop: { ...e.saved, snapshot: e.session.snapshot() } });

  /** Streams what happened (reasoning steps, nudges, approvals) to the agent's `custom` stream. */
  function publish(e: Entry, runtime: { writer?: (chunk: unknown) => void }): void {
    for (const event of e.session.drainEvents()) runtime.writer?.({ planloop: event });
  }

  /** Keeps what a decision asks of the loop. */
  function remember(e: Entry, decision: Decision | null | undefined): void {
    if (decision === null || decision === undefined) return;
    if (decision.type !== "runTools" && decision.type !== "awaitApproval" && decision.type !== "awaitPlanReview") return;
    for (const reply of decision.replies) e.saved.written[reply.toolCallId] = { content: reply.content, isError: reply.isError };
    if (decision.type === "awaitPlanReview") return;
    e.saved.awaited.push(...decision.calls.map((c) => c.id));
    if (decision.type === "runTools") e.saved.withhold = decision.next.toolsWithheld;
  }

  return createMiddleware({
    name: "planloop",
    // Checked by Session.restore when read, not here.
    stateSchema: z.object({ planloop: z.custom<PlanloopState>().optional() }),
    tools: plannerTools,
    beforeModel: (state, runtime) => {
      const e = entry(state, runtime);
      const messages = state.messages;
      const users = messages.flatMap((m, index) => (HumanMessage.isInstance(m) ? [index] : []));
      if (users.length > e.saved.users) {
        const index = users.at(-1)!;
        const started = e.session.beginTurn({ message: textOf(messages[index]!), nowMs: now() });
        e.saved = { ...e.saved, users: users.length, turn: { index, text: started.message }, awaited: [], written: {}, withhold: started.next.toolsWithheld };
      }
      const results = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m) && e.saved.awaited.includes(m.tool_call_id));
      if (results.length > 0) {
        e.saved.awaited = e.saved.awaited.filter((id) => !results.some((r) => r.tool_call_id === id));
        const outcome = e.session.handleToolResults(
          results.map((r) => ({ id: r.tool_call_id, output: textOf(r), isError: r.status === "error" })),
          now(),
        );
        for (const m of outcome.messages) e.saved.written[m.toolCallId] = { content: m.content, isError: m.isError };
        e.saved.withhold = outcome.next.toolsWithheld;
      }
      publish(e, runtime);
      return persisted(e);
    },
    wrapModelCall: (request, handler) => {
      const e = entry(request.state, request.runtime);
      const messages = request.messages.map((m, index) => {
        if (index === e.saved.turn?.index && HumanMessage.isInstance(m)) return new HumanMessage({ content: e.saved.turn.text, id: m.id });
        const written = ToolMessage.isInstance(m) ? e.saved.written[m.tool_call_id] : undefined;
        if (written === undefined || !ToolMessage.isInstance(m)) return m;
        return new ToolMessage({ content: written.content, tool_call_id: m.tool_call_id, name: m.name, id: m.id, status: written.isError ? "error" : "success" });
      });
      const systemPrompt = e.session.systemPrompt({ base: request.systemPrompt ?? "" }, now()).prompt;
      return handler({ ...request, messages, systemPrompt, ...(e.saved.withhold ? { tools: [] } : {}) });
    },
    afterModel: {
      canJumpTo: ["model", "end"],
      hook: (state, runtime) => {
        const e = entry(state, runtime);
        const last = state.messages.at(-1);
        if (last === undefined || !AIMessage.isInstance(last)) return;
        if (e.saved.seen !== (last.id ?? null)) {
          e.saved.seen = last.id ?? null;
          const decision = e.session.handleModelResponse(responseOf(last), now());
          remember(e, decision);
          publish(e, runtime);
          if (decision.type === "continue") return { ...persisted(e), messages: [new HumanMessage(decision.message)], jumpTo: "model" };
          const ending = decision.type === "pause" ? decision.summary : decision.type === "fail" ? decision.message : decision.type === "awaitPlanReview" ? decision.message : null;
          if (ending !== null) return { ...persisted(e), messages: [new AIMessage({ content: ending, id: last.id })], jumpTo: "end" };
        }
        const pending = e.session.proposals().filter((p) => p.status === "pending");
        if (pending.length === 0) return persisted(e);
        return { ...resolve(e, last, pending, state.messages), ...persisted(e) } as never;
      },
    },
  });

  /** Pauses for the reviewer's decisions on `pending`, hands them to the session, and
   * rewrites the AI message: approved calls (as edited) run, rejected ones are answered
   * with planloop's rejection message. */
  function resolve(e: Entry, last: AIMessage, pending: ReturnType<Session["proposals"]>, messages: BaseMessage[]) {
    const answer = interrupt({
      actionRequests: pending.map((p) => ({ name: p.tool, args: p.args, description: p.justification })),
      reviewConfigs: pending.map((p) => ({ actionName: p.tool, allowedDecisions: [...DECISIONS] })),
    }) as { decisions?: PlanloopDecision[] } | undefined;
    const decisions = answer?.decisions;
    if (!Array.isArray(decisions) || decisions.length !== pending.length) {
      throw new Error(`planloop: resume with { decisions } holding one decision per paused call (${pending.length})`);
    }
    let resumed: Decision | null | undefined = null;
    pending.forEach((proposal, i) => {
      const decision = decisions[i]!;
      const outcome =
        decision.type === "reject"
          ? e.session.reject(proposal.actionId, decision.message === undefined ? undefined : { message: decision.message }, now())
          : e.session.approve(proposal.actionId, decision.type === "edit" ? { editedArgs: decision.editedAction.args } : undefined, now());
      resumed = outcome.resumed ?? resumed;
    });
    const going = resumed as Decision | null;
    remember(e, going);
    const run = new Map(going?.type === "runTools" ? going.calls.map((c) => [c.id, c]) : []);
    const calls = (last.tool_calls ?? []).map((c) => {
      const edited = c.id === undefined ? undefined : run.get(c.id);
      return edited === undefined ? c : { ...c, args: edited.args as Record<string, unknown> };
    });
    const rejected = pending.filter((p) => !run.has(p.callId)).map((p) => {
      const written = e.saved.written[p.callId];
      return new ToolMessage({ content: written?.content ?? "rejected", tool_call_id: p.callId, name: p.tool, status: "error" });
    });
    const answered = new Set([...messages.filter(ToolMessage.isInstance).map((m) => m.tool_call_id), ...rejected.map((m) => m.tool_call_id)]);
    const waiting = calls.some((c) => c.id !== undefined && !answered.has(c.id));
    return {
      messages: [new AIMessage({ content: last.content, tool_calls: calls, id: last.id }), ...rejected],
      ...(waiting ? {} : { jumpTo: "model" as const }),
    };
  }
}

/** A message's text (string content, or its text blocks). */
function textOf(message: BaseMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content.flatMap((block) => (typeof block === "object" && block !== null && "text" in block && typeof block.text === "string" ? [block.text] : [])).join("");
}

/** An AI message as planloop reads a model response. */
function responseOf(message: AIMessage): ModelResponse {
  const text = textOf(message);
  return {
    text: text.length > 0 ? text : null,
    toolCalls: (message.tool_calls ?? []).map((c, i) => ({ id: c.id ?? `call_${i}`, name: c.name, args: c.args })),
  };
}
