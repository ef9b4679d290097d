// planloop inside a Vercel AI SDK loop (AI SDK 6 and 7): a language-model middleware
// and the planner tools, so `generateText`, `streamText` or a `ToolLoopAgent` keep their
// own loop while planloop decides. Per model call the middleware hands the Session what
// is new in the prompt (the user's message, tool results, approvals refused), puts
// planloop's system prompt and tool messages in, calls the model, and hands the Session
// its response. A refused stop is sent back to the model inside the same call; a pause
// or a failure ends the loop with its summary. Gated tools wait for the SDK's own
// approval flow (`needsApproval`, or AI SDK 7's `toolApproval` through
// `planloop.toolApproval`), and each gated tool's `execute` checks that the SDK brings
// the user's approval: a configuration that would run it without asking is refused.
// `planloop.subAgent` makes a sub-agent tool whose child's gated calls wait for the user
// on this run (`sub-agent.ts`).
import { jsonSchema, type LanguageModelMiddleware, tool, type ToolSet } from "ai";
import type { Handoff, HandoffOptions, Session, SessionSnapshot } from "planloop";

import { type ToolApproval, type ToolApprovalFunction, approvedIn, gate, sameArgs } from "./approval.js";
import { type Prompt, type ProviderMessage, type ProviderPart, type ProviderUsage, lastUserMessage, responseOf, withSystem, withToolMessages } from "./prompt.js";
import { type StreamPart, continuedStream, streamOf } from "./stream.js";
import { APPROVAL_TOOL, type SubAgentOptions, SubAgents, isApprovalCall, withoutApprovals } from "./sub-agent.js";
import { type GoalOptions, Keeper, type PlanloopOptions, type Result, capsuleSessions, plannerDefinitions } from "./turn.js";

export type { PlanloopOptions, SubAgentOptions, ToolApproval, ToolApprovalFunction };
export type { SubAgentApproval, SubAgentOutput } from "./sub-agent.js";
export type { ToolApprovalStatus } from "./approval.js";

export interface Planloop {
  /** The session: its todos, progress, events, steps, proposals. */
  readonly session: Session;
  /** For `wrapLanguageModel({ model, middleware })`. */
  readonly middleware: LanguageModelMiddleware;
  /** Your tools plus planloop's planner tools, answered by planloop; each call of yours
   * planloop holds waits for approval (`needsApproval`), and runs only with the user's
   * approval. Every tool the model is offered must come through here. */
  tools<T extends ToolSet>(tools: T): T & ToolSet;
  /** planloop's gate as AI SDK 7's `toolApproval`, composed with yours (a function or a
   * per-tool map, as the SDK takes them; without one, each tool's `needsApproval`): a
   * call planloop holds waits for the user unless yours denies it; other calls get yours. */
  toolApproval(yours?: ToolApproval): ToolApprovalFunction;
  /** The session as one JSON document, for `createPlanloop({ snapshot })` later. */
  snapshot(): SessionSnapshot;
  /** What this run hands back to the agent that started it (`Session.handoff`): its
   * status, its answer or a summary, the calls that back it, and `text` for the parent's
   * model to read, as a sub-agent tool's `toModelOutput` gives it, instead of the run's
   * transcript. */
  handoff(options?: HandoffOptions): Handoff;
  /** A sub-agent tool: its `execute` runs a child agent (`model`, `tools`, `instructions`)
   * inside this session, with the SDK's own loop, and gives the parent's model the
   * child's capsule. A child's call that waits for the user is asked on this run, through
   * the SDK's own approval flow, as a call of planloop's approval tool (which
   * `tools()` adds). Give it to `tools()` under a name `config.delegation.toolNames`
   * lists, with delegation enabled. */
  subAgent(options: SubAgentOptions): ToolSet[string];
}

/** What a model call returns, as far as planloop reads and changes it. */
interface Generated {
  content: ProviderPart[];
  finishReason: unknown;
  usage?: ProviderUsage;
}

interface CallParams {
  prompt: Prompt;
  tools?: { type: string; name: string }[];
  toolChoice?: unknown;
}

interface Model {
  doGenerate(params: CallParams): PromiseLike<Generated>;
  doStream(params: CallParams): PromiseLike<{ stream: ReadableStream<StreamPart> }>;
}

export function createPlanloop(options: PlanloopOptions = {}): Planloop {
  const now = options.now ?? Date.now;
  const goals = { goal: options.goal, verifyGoal: options.verifyGoal };
  return planloopOf(new Keeper({ config: options.config, snapshot: options.snapshot }, now, goals), now, goals);
}

/** The AI SDK's planloop over `keeper`'s session (a session of its own, or a sub-agent's,
 * whose goals are judged as its parent's). */
function planloopOf(keeper: Keeper, now: () => number, goals: GoalOptions): Planloop {
  const subAgents = new SubAgents(keeper, now, (session) => planloopOf(new Keeper({ session }, now, goals), now, goals));
  /** The tools that came through `tools()`, planloop's own included, and those of them
   * whose `execute` checks for the user's approval. */
  const offered = new Set<string>();
  const guarded = new Set<string>();
  /** A gated call the SDK ran without asking, said once more by the next model call. */
  let bypass: Error | null = null;

  /** Hands the session what is new in the prompt; returns the call as the model gets it,
   * or, while a sub-agent waits for the user, the approval calls to answer it with. */
  async function prepare(params: CallParams): Promise<{ call: CallParams } | { asks: ProviderPart[] }> {
    if (bypass !== null) {
      const error = bypass;
      bypass = null;
      throw error;
    }
    for (const t of params.tools ?? []) {
      if (t.type === "function" && !offered.has(t.name)) {
        throw new Error(`planloop: the tool "${t.name}" reaches the model without planloop.tools(): pass all your tools through planloop.tools(yours), so that the calls planloop holds wait for approval`);
      }
    }
    const prompt = params.prompt;
    const user = lastUserMessage(prompt);
    keeper.user(user);
    const asks = await subAgents.beforeModelCall(prompt);
    keeper.results(prompt.flatMap((m) => (m.role === "tool" ? m.content.flatMap((part) => resultOf(part, guarded, keeper)) : [])));
    if (asks.length > 0) return { asks };
    const shown = withoutApprovals(withToolMessages(prompt, keeper.kept.written, user && { index: user.index, text: keeper.shown(user) }));
    const composed = withSystem(shown, (base) => keeper.systemPrompt(base));
    const tools = params.tools?.filter((t) => t.name !== APPROVAL_TOOL);
    return { call: { ...params, prompt: composed, ...(tools !== undefined ? { tools } : {}), ...(keeper.kept.withhold ? { toolChoice: { type: "none" } } : {}) } };
  }

  /** Before a tool of yours runs. A call planloop holds runs only with the user's
   * approval, which the SDK hands `execute` in its messages: the proposal is approved
   * then, with the input the call runs with when the SDK repaired the proposed one. A
   * call the SDK runs without it (a `toolApproval` that answered for the call in place
   * of planloop's gate) is refused and rejected, and the next model call fails. */
  function guard(name: string, callId: string, input: unknown, messages: unknown): void {
    if (!keeper.held(callId)) return;
    if (approvedIn(messages, callId)) {
      const proposed = keeper.session.proposals().find((p) => p.callId === callId)?.args;
      keeper.approve(callId, sameArgs(proposed, input) ? undefined : input);
      return;
    }
    const error = new Error(
      `planloop: ${name} (call ${callId}) waits for the user's approval, but the AI SDK ran it without asking: a toolApproval setting answered for it in place of planloop's gate. It was not run. Pass toolApproval: planloop.toolApproval(yours), which asks planloop first`,
    );
    keeper.results([{ id: callId, output: `it did not run: ${error.message}`, isError: true, denied: true }]);
    bypass = error;
    throw error;
  }

  /** The session's verdict on a response; a nudge comes back as the prompt to ask again with. */
  async function decide(prompt: Prompt, content: ProviderPart[], usage: ProviderUsage | undefined): Promise<{ again: Prompt | null; ending: string | null }> {
    const { nudge, ending } = await keeper.respond(responseOf(content, usage));
    if (nudge === null) return { again: null, ending };
    const said: ProviderMessage[] = content.length > 0 ? [{ role: "assistant", content }] : [];
    return { again: [...prompt, ...said, { role: "user", content: [{ type: "text", text: nudge }] }], ending: null };
  }

  const middleware = {
    specificationVersion: "v3",
    async wrapGenerate({ params, model }: { params: CallParams; model: Model }) {
      const prepared = await prepare(params);
      if ("asks" in prepared) return { content: prepared.asks, finishReason: ASKED, usage: NO_USAGE, warnings: [] };
      let call = prepared.call;
      for (;;) {
        const result = await model.doGenerate(call);
        const { again, ending } = await decide(call.prompt, result.content, result.usage);
        if (again !== null) {
          call = { ...call, prompt: again };
          continue;
        }
        return ending === null ? result : { ...result, content: [{ type: "text", text: ending }], finishReason: { unified: "stop", raw: undefined } };
      }
    },
    async wrapStream({ params, model }: { params: CallParams; model: Model }) {
      const prepared = await prepare(params);
      if ("asks" in prepared) return { stream: streamOf([{ type: "stream-start", warnings: [] }, ...prepared.asks, { type: "finish", finishReason: ASKED, usage: NO_USAGE }] as StreamPart[]) };
      const call = prepared.call;
      const first = await model.doStream(call);
      return {
        ...first,
        stream: continuedStream(first.stream, async (content, usage) => {
          const { again, ending } = await decide(call.prompt, content, usage);
          if (again === null) return { ending };
          call.prompt = again;
          return { next: model.doStream(call).then((r) => r.stream) };
        }),
      };
    },
    // Written against the provider-level shapes both majors share (LanguageModelV3 in AI
    // SDK 6, V4 in 7; `prompt.ts`), so typed here structurally, not by either's types.
  } as unknown as LanguageModelMiddleware;

  return {
    session: keeper.session,
    middleware,
    tools<T extends ToolSet>(tools: T): T & ToolSet {
      const gated: ToolSet = {};
      let subAgentsGiven = false;
      for (const [name, given] of Object.entries(tools)) {
        if (subAgents.register(name, given)) subAgentsGiven = true;
        const own = given.needsApproval;
        const run = given.execute;
        gated[name] = {
          ...given,
          needsApproval: async (input: unknown, context: { toolCallId: string }) =>
            keeper.held(context.toolCallId) || (typeof own === "function" ? await (own as (i: unknown, c: unknown) => boolean | PromiseLike<boolean>)(input, context) : own === true),
          ...(typeof run === "function"
            ? {
                execute: (input: unknown, context: { toolCallId: string; messages?: unknown }) => {
                  const instead = keeper.answeredInstead(context.toolCallId);
                  if (instead !== undefined) return instead.content;
                  guard(name, context.toolCallId, input, context.messages);
                  const output = (run as (i: unknown, c: unknown) => unknown).call(given, input, context);
                  // A sub-agent's capsule: its session answers a delegation of the parent's.
                  const note = (value: unknown) => {
                    const child = typeof value === "object" && value !== null ? capsuleSessions.get(value) : undefined;
                    if (child !== undefined) keeper.adopt(context.toolCallId, child);
                    return value;
                  };
                  return output instanceof Promise ? output.then(note) : note(output);
                },
              }
            : {}),
        } as ToolSet[string];
        offered.add(name);
        if (typeof run === "function") guarded.add(name);
      }
      if (subAgentsGiven) {
        gated[APPROVAL_TOOL] = subAgents.approvalTool();
        offered.add(APPROVAL_TOOL);
      }
      for (const definition of plannerDefinitions(keeper.session)) {
        gated[definition.name] = tool({
          description: definition.description,
          inputSchema: jsonSchema(definition.parameters as Parameters<typeof jsonSchema>[0]),
          execute: async (_input: unknown, { toolCallId }: { toolCallId: string }) => keeper.kept.written[toolCallId]?.content ?? "planloop has no answer for this call",
        }) as ToolSet[string];
        offered.add(definition.name);
      }
      return gated as T & ToolSet;
    },
    toolApproval: (yours?: ToolApproval) => gate(yours, (callId) => keeper.held(callId) || isApprovalCall(callId)),
    snapshot: () => keeper.session.snapshot(),
    handoff: (handoffOptions?: HandoffOptions) => {
      const capsule = keeper.session.handoff(handoffOptions, now());
      capsuleSessions.set(capsule, keeper.session.snapshot());
      return capsule;
    },
    subAgent: (subAgentOptions: SubAgentOptions) => subAgents.tool(subAgentOptions),
  };
}

/** How a model call answered with planloop's approval calls ends, and what it used. */
const ASKED = { unified: "tool-calls", raw: undefined };
const NO_USAGE = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };

/** A tool-result part as a Result. A denied approval carries its reason as output; so
 * does a call planloop still holds of a tool that checks for approval: it did not run
 * (the SDK answered it itself: input that is not valid, or no longer valid once approved). */
function resultOf(part: ProviderPart, guarded: ReadonlySet<string>, keeper: Keeper): Result[] {
  if (part.type !== "tool-result" || part.toolCallId === undefined) return [];
  const output = part.output as { type: string; value?: unknown; reason?: string };
  if (output.type === "execution-denied") return [{ id: part.toolCallId, output: output.reason ?? "", isError: true, denied: true }];
  const text = typeof output.value === "string" ? output.value : JSON.stringify(output.value ?? null);
  if (keeper.held(part.toolCallId) && guarded.has(part.toolName ?? "")) return [{ id: part.toolCallId, output: `it did not run: ${text}`, isError: true, denied: true }];
  return [{ id: part.toolCallId, output: text, isError: output.type.startsWith("error") }];
}
