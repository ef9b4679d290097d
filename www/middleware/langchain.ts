// planloop inside a LangChain.js v1 agent: `createAgent({ middleware: [planloopMiddleware()] })`.
// The agent keeps its own graph; planloop decides at its hooks. `beforeModel` hands the
// Session what is new (the user's message, tool results); `wrapModelCall` gives the model
// planloop's system prompt, tool messages and tool set; `afterModel` hands the Session the
// response: a premature stop goes back to the model with planloop's nudge, a limit ends
// the run with the summary, and gated calls pause through LangGraph's `interrupt()` with
// decisions shaped as `humanInTheLoopMiddleware`'s (approve / edit / reject), resumed with
// `Command({ resume: { decisions } })`, all checked before any applies. The planner tools
// return the answers planloop wrote for them. One Session per thread and graph (a
// sub-agent invoked from a tool runs in the parent's thread, in a graph of its own); its
// snapshot lives in the agent state (`planloop`), so the user's checkpointer persists it
// and a restarted process goes on. `planloopTask` is a `task` tool whose sub-agents hand
// back their capsule: with the parent's `delegation` on, it completes the parent's item.
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { getCurrentTaskInput, interrupt, isGraphInterrupt } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { z } from "zod";
import { type Decision, type ModelResponse, type Proposal, Session, type SessionConfig, type SessionSnapshot } from "planloop";

import { usageOf } from "../runner/usage.js";
import { type GoalOptions, Keeper, type Saved, type UserMessage, plannerDefinitions, requireJudge } from "./turn.js";

export interface PlanloopMiddlewareOptions extends GoalOptions {
  /** The configuration of each thread's session. Its `todoDialects` name the planner
   * tools offered (`["langchain_write_todos"]` takes the place of `todoListMiddleware`). */
  config?: SessionConfig;
  /** The clock, in milliseconds (Date.now by default). */
  now?: () => number;
}

/** What the agent state keeps of planloop, per thread (the checkpointer persists it):
 * the session and its bookkeeping, and the last AI message handed to the session. */
export interface PlanloopState extends Saved {
  seen: string | null;
}

/** The reviewer's answer to one paused call, as `humanInTheLoopMiddleware` takes it. An
 * edit changes the arguments only: `editedAction.name` is the call's own tool. */
export type PlanloopDecision = { type: "approve" } | { type: "edit"; editedAction: { name: string; args: Record<string, unknown> } } | { type: "reject"; message?: string };

interface Entry {
  keeper: Keeper;
  seen: string | null;
}

const DECISIONS = ["approve", "edit", "reject"] as const;

/** The mark on the human messages planloop writes (its nudges), as LangChain's summaries
 * carry `lc_source: "summarization"`: a message with a source was not the user's, and
 * opens no turn. */
const SOURCE = "planloop";

export function planloopMiddleware(options: PlanloopMiddlewareOptions = {}) {
  const now = options.now ?? Date.now;
  const goals = { goal: options.goal, verifyGoal: options.verifyGoal };
  // (Each thread's session is made at its first run: a missing judge is told now.)
  requireJudge(options.config, goals);
  const threads = new Map<string, Entry>();
  // planloop's answer to its own tool was written when the model's response was handed
  // to the session (afterModel): in memory, or in the state after a restart.
  const plannerTools = plannerDefinitions(new Session(options.config)).map((definition) =>
    tool(
      async (_args: unknown, config: Runtime & { toolCall?: { id?: string } }) => {
        const id = config.toolCall?.id ?? "";
        const kept = threads.get(place(config))?.keeper.kept.written[id] ?? getCurrentTaskInput<{ planloop?: PlanloopState }>().planloop?.written[id];
        if (kept === undefined) throw new Error(`planloop has no answer for call ${id}`);
        return kept.content;
      },
      { name: definition.name, description: definition.description, schema: definition.parameters as Record<string, unknown> },
    ),
  );

  const plannerNames = new Set(plannerTools.map((t) => t.name));

  /** The thread's session: in memory, else restored from the state, else new. */
  function entry(state: { planloop?: PlanloopState }, runtime: Runtime): Entry {
    const thread = place(runtime);
    let found = threads.get(thread);
    if (found === undefined) {
      const { seen = null, ...saved } = state.planloop ?? {};
      found = { keeper: new Keeper({ config: options.config, saved: state.planloop === undefined ? undefined : (saved as Saved) }, now, goals), seen };
      threads.set(thread, found);
    }
    return found;
  }

  const persisted = (e: Entry): { planloop: PlanloopState } => ({ planloop: { ...e.keeper.saved(), seen: e.seen } });

  /** Runs a hook on a thread's session. The checkpointer keeps the state from before the
   * hook; when the hook fails (a refused decision, a call the session refuses), the
   * session in memory is dropped as well, so the next step goes on from that state, as
   * after a restart, whatever the hook had changed. (An interrupt is no failure: the
   * resumed hook goes on with the session in memory.) */
  function guarded<T>(runtime: Runtime, hook: () => T): T {
    const forget = (error: unknown): never => {
      if (!isGraphInterrupt(error)) threads.delete(place(runtime));
      throw error;
    };
    try {
      const out = hook();
      return (out instanceof Promise ? out.catch(forget) : out) as T;
    } catch (error) {
      return forget(error);
    }
  }

  /** Streams what happened (reasoning steps, nudges, approvals) to the agent's `custom` stream. */
  function publish(e: Entry, runtime: { writer?: (chunk: unknown) => void }): void {
    for (const event of e.keeper.session.drainEvents()) runtime.writer?.({ planloop: event });
  }

  return createMiddleware({
    name: "planloop",
    // Checked by Session.restore when read, not here.
    stateSchema: z.object({ planloop: z.custom<PlanloopState>().optional() }),
    tools: plannerTools,
    beforeModel: (state, runtime) =>
      guarded(runtime, () => {
        const e = entry(state, runtime);
        e.keeper.user(latestUser(state.messages)?.message ?? null);
        e.keeper.results(
          state.messages.flatMap((m) =>
            ToolMessage.isInstance(m) ? [{ id: m.tool_call_id, output: textOf(m), isError: m.status === "error", child: childOf(m) }] : [],
          ),
        );
        publish(e, runtime);
        return persisted(e);
      }),
    wrapModelCall: (request, handler) => {
      const { keeper } = entry(request.state, request.runtime);
      const { written, withhold } = keeper.kept;
      const user = latestUser(request.messages);
      const messages = request.messages.map((m, index) => {
        if (index === user?.index) {
          const text = keeper.shown(user.message);
          return text === user.message.text ? m : new HumanMessage({ content: text, id: m.id });
        }
        const answer = ToolMessage.isInstance(m) ? written[m.tool_call_id] : undefined;
        if (answer === undefined || !ToolMessage.isInstance(m)) return m;
        return new ToolMessage({ content: answer.content, tool_call_id: m.tool_call_id, name: m.name, id: m.id, status: answer.isError ? "error" : "success" });
      });
      return handler({ ...request, messages, systemPrompt: keeper.systemPrompt(request.systemPrompt ?? ""), ...(withhold ? { tools: [] } : {}) });
    },
    afterModel: {
      canJumpTo: ["model", "end"],
      hook: (state, runtime) =>
        guarded(runtime, async () => {
          const e = entry(state, runtime);
          const last = state.messages.at(-1);
          if (last === undefined || !AIMessage.isInstance(last)) return;
          if (e.seen !== (last.id ?? null)) {
            e.seen = last.id ?? null;
            const { nudge, ending } = await e.keeper.respond(responseOf(last));
            publish(e, runtime);
            if (nudge !== null) return { ...persisted(e), messages: [new HumanMessage({ content: nudge, additional_kwargs: { lc_source: SOURCE } })], jumpTo: "model" };
            if (ending !== null) return { ...persisted(e), messages: [new AIMessage({ content: ending, id: last.id })], jumpTo: "end" };
          }
          const pending = e.keeper.session.proposals().filter((p) => p.status === "pending");
          if (pending.length > 0) return { ...resolve(e.keeper, last, pending, state.messages), ...persisted(e) } as never;
          const instead = answeredInstead(e.keeper, last, state.messages);
          if (instead.length === 0) return persisted(e);
          return { messages: instead, ...goOn(last, state.messages, instead), ...persisted(e) } as never;
        }),
    },
  });

  /** Pauses for the reviewer's decisions on `pending`, hands them to the session, and
   * rewrites the AI message: approved calls (as edited) run, rejected ones are answered
   * with planloop's rejection message. */
  function resolve(keeper: Keeper, last: AIMessage, pending: Proposal[], messages: BaseMessage[]) {
    const answer: unknown = interrupt({
      actionRequests: pending.map((p) => ({ name: p.tool, args: p.args, description: p.justification })),
      reviewConfigs: pending.map((p) => ({ actionName: p.tool, allowedDecisions: [...DECISIONS] })),
    });
    const decisions = reviewed(answer, pending);
    let going: Decision | null = null;
    for (const [i, proposal] of pending.entries()) {
      const decision = decisions[i]!;
      const resumed =
        decision.type === "reject"
          ? keeper.reject(proposal.callId, decision.message)
          : keeper.approve(proposal.callId, decision.type === "edit" ? decision.editedAction.args : undefined);
      going = resumed ?? going;
    }
    const run = new Map(going?.type === "runTools" ? going.calls.map((c) => [c.id, c]) : []);
    const calls = (last.tool_calls ?? []).map((c) => {
      const edited = c.id === undefined ? undefined : run.get(c.id);
      return edited === undefined ? c : { ...c, args: edited.args as Record<string, unknown> };
    });
    const rejected = pending
      .filter((p) => !run.has(p.callId))
      .map((p) => new ToolMessage({ content: keeper.kept.written[p.callId]?.content ?? "rejected", tool_call_id: p.callId, name: p.tool, status: "error" }));
    const answers = [...rejected, ...answeredInstead(keeper, last, [...messages, ...rejected])];
    return {
      messages: [new AIMessage({ content: last.content, tool_calls: calls, id: last.id }), ...answers],
      ...goOn(last, messages, answers),
    };
  }

  /** planloop's answers to the calls of `last` it answered in place of running them (a
   * call repeating another of the same step, calls held back for a plan review), as tool
   * messages, so the tool node does not run them; its own tools excepted (the tool node
   * runs those, and they answer with planloop's words). */
  function answeredInstead(keeper: Keeper, last: AIMessage, messages: BaseMessage[]): ToolMessage[] {
    const answered = new Set(messages.filter(ToolMessage.isInstance).map((m) => m.tool_call_id));
    return (last.tool_calls ?? []).flatMap((c) => {
      if (c.id === undefined || plannerNames.has(c.name) || answered.has(c.id)) return [];
      const instead = keeper.answeredInstead(c.id);
      return instead === undefined ? [] : [new ToolMessage({ content: instead.content, tool_call_id: c.id, name: c.name, status: instead.isError ? "error" : "success" })];
    });
  }
}

/** What a hook or tool is told of where it runs. */
interface Runtime {
  configurable?: { thread_id?: string; checkpoint_ns?: string };
}

/** The thread and graph a hook runs in: a sub-agent invoked from a tool shares its
 * parent's `thread_id`, and its namespace names the tool call it runs in
 * (`tools:<task>|model:<task>`, against the parent's `model:<task>`); the last segment is
 * the node's own task. */
function place(runtime: Runtime): string {
  const ns = runtime.configurable?.checkpoint_ns ?? "";
  return `${runtime.configurable?.thread_id ?? ""}\u0000${ns.slice(0, Math.max(0, ns.lastIndexOf("|")))}`;
}

/** The sub-agent's session a `planloopTask` result carries, if it does. */
function childOf(message: ToolMessage): SessionSnapshot | undefined {
  const artifact: unknown = message.artifact;
  return isRecord(artifact) && isRecord(artifact.planloop) ? (artifact.planloop.snapshot as SessionSnapshot) : undefined;
}

export interface PlanloopTaskOptions {
  /** The sub-agents, by the name the model gives as `subagent_type`: each an agent made
   * with `createAgent({ middleware: [planloopMiddleware(...)] })`, and what it is for. */
  subagents: Record<string, { description: string; agent: { invoke(input: { messages: BaseMessage[] }, config?: unknown): Promise<{ planloop?: PlanloopState }> } }>;
  /** The tool's name (`task`); the parent's `delegation.toolNames` must name it for the
   * capsule to settle the parent's item. */
  name?: string;
  /** The most characters of the capsule the parent's model reads (4,000). */
  maxChars?: number;
  now?: () => number;
}

/**
 * A `task` tool (deepagents' shape, with planloop's `todoId`, `context` and `acceptance`)
 * that runs a sub-agent in the parent's thread, as a graph of its own (its approvals
 * pause the parent's run, and resume it), and returns the sub-agent's capsule, made from
 * its planloop state once it ends: never its transcript, never empty. The capsule rides
 * on the tool message as its artifact, so the parent's planloop (with `delegation` on for
 * this tool) makes the result from the sub-agent's state and settles the item `todoId`.
 */
export function planloopTask(options: PlanloopTaskOptions) {
  const names = Object.keys(options.subagents);
  if (names.length === 0) throw new Error("planloopTask: give at least one sub-agent");
  const now = options.now ?? Date.now;
  const kinds = names.map((name) => `- ${name}: ${options.subagents[name]!.description}`).join("\n");
  return tool(
    async (input, config: { toolCall?: { id?: string } }) => {
      const subagent = options.subagents[input.subagent_type];
      if (subagent === undefined) throw new Error(`no sub-agent is named ${JSON.stringify(input.subagent_type)}; the names are: ${names.join(", ")}`);
      const task = [input.goal, input.context, ...(input.acceptance ?? []).map((c, i) => `${i === 0 ? "Done when:\n" : ""}- ${c}`)];
      const state = await subagent.agent.invoke({ messages: [new HumanMessage(task.filter((part) => part !== undefined).join("\n\n"))] }, config);
      if (state.planloop === undefined) throw new Error(`sub-agent ${input.subagent_type} runs without planloopMiddleware: it has no capsule to hand back`);
      const child = Session.restore(state.planloop.snapshot);
      try {
        const capsule = child.handoff({ maxChars: options.maxChars, transcriptRef: config.toolCall?.id }, now());
        return [capsule.text, { planloop: { snapshot: state.planloop.snapshot, capsule } }];
      } finally {
        child.free();
      }
    },
    {
      name: options.name ?? "task",
      description: `Hand one scoped task to a sub-agent, which works on it with its own tools and todo list and returns only a short capsule: its status, summary, findings and the tool calls that back them. Give the goal in full (it sees nothing of this conversation), the id of the todo item it completes, and how to tell it is done. The sub-agents:\n${kinds}`,
      schema: z.object({
        goal: z.string().min(1).describe("The task, in full."),
        subagent_type: z.enum(names as [string, ...string[]]).describe("Which sub-agent."),
        todoId: z.string().optional().describe("The id of the todo item the task completes."),
        context: z.string().optional().describe("What the sub-agent needs to know."),
        acceptance: z.array(z.string()).max(8).optional().describe("How to tell the task is done."),
      }),
      responseFormat: "content_and_artifact",
    },
  );
}

/** Back to the model when `answers` leave no call of `last` for the tool node to run: the
 * agent would otherwise end on the step's tool messages. */
function goOn(last: AIMessage, messages: BaseMessage[], answers: ToolMessage[]): { jumpTo?: "model" } {
  const answered = new Set([...messages.filter(ToolMessage.isInstance), ...answers].map((m) => m.tool_call_id));
  const waiting = (last.tool_calls ?? []).some((c) => c.id !== undefined && !answered.has(c.id));
  return waiting ? {} : { jumpTo: "model" };
}

/**
 * The reviewer's decisions, one per paused call, every one checked before any is applied.
 * As `humanInTheLoopMiddleware` throws on an unexpected decision, anything but a
 * well-formed approve, edit or reject refuses them all: nothing runs and every call still
 * awaits a decision (an unknown type, such as "deny", must never approve). An edit keeps
 * the tool: planloop gated the call it showed, and its record of the approval says what
 * runs, so renaming the call is refused; reject it with a message naming the tool to use,
 * and the model's call to that tool goes through the gate on its own.
 */
function reviewed(answer: unknown, pending: Proposal[]): PlanloopDecision[] {
  const decisions = isRecord(answer) ? answer.decisions : undefined;
  if (!Array.isArray(decisions) || decisions.length !== pending.length) {
    throw new Error(`planloop: resume with { decisions } holding one decision per paused call (${pending.length}); nothing was run`);
  }
  return pending.map((proposal, i): PlanloopDecision => {
    const refused = (why: string) =>
      new Error(`planloop: unexpected human decision ${i + 1} of ${pending.length} (on \`${proposal.tool}\`): ${why}; nothing was run and every paused call still awaits a decision`);
    const decision: Record<string, unknown> = isRecord(decisions[i]) ? decisions[i] : {};
    switch (decision.type) {
      case "approve":
        return { type: "approve" };
      case "reject":
        if (decision.message === undefined) return { type: "reject" };
        if (typeof decision.message !== "string") throw refused("a rejection's message must be a string");
        return { type: "reject", message: decision.message };
      case "edit": {
        const action: Record<string, unknown> = isRecord(decision.editedAction) ? decision.editedAction : {};
        if (typeof action.name !== "string") throw refused("an edit's editedAction.name must be the tool's name");
        if (action.name !== proposal.tool) {
          throw refused(`an edit cannot rename the call to ${shown(action.name)}: reject it with a message naming that tool, and the model's call to it is reviewed on its own`);
        }
        if (!isRecord(action.args)) throw refused("an edit's editedAction.args must be an object");
        return { type: "edit", editedAction: { name: action.name, args: action.args } };
      }
      default:
        throw refused(`type ${shown(decision.type)} is none of ${DECISIONS.join(", ")}`);
    }
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value of the reviewer's, for an error message: a string quoted (and cut), else its type. */
function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value) : typeof value;
}

/** The last message the user wrote, where it is, as the keeper tells turns apart: its id
 * (the graph gives every message one) and its text. Human messages with a source are
 * skipped: planloop's nudges, and the summary `summarizationMiddleware` puts in place of
 * the messages it drops (its id is the first dropped message's). */
function latestUser(messages: BaseMessage[]): { index: number; message: UserMessage } | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const m = messages[index]!;
    if (HumanMessage.isInstance(m) && m.additional_kwargs?.lc_source === undefined) return { index, message: { text: textOf(m), id: m.id } };
  }
  return null;
}

/** A message's text (string content, or its text blocks). */
function textOf(message: BaseMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content.flatMap((block) => (typeof block === "object" && block !== null && "text" in block && typeof block.text === "string" ? [block.text] : [])).join("");
}

/** An AI message as planloop reads a model response. */
/** An AI message as a model response, with its `usage_metadata` as the usage. */
function responseOf(message: AIMessage): ModelResponse {
  const text = textOf(message);
  const usage = usageOf(message.usage_metadata?.input_tokens, message.usage_metadata?.output_tokens);
  return {
    text: text.length > 0 ? text : null,
    toolCalls: (message.tool_calls ?? []).map((c, i) => ({ id: c.id ?? `call_${i}`, name: c.name, args: c.args })),
    ...(usage !== undefined ? { usage } : {}),
  };
}
