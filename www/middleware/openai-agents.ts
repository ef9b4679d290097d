// planloop inside an OpenAI Agents SDK run (`@openai/agents`): `planloop.model(yours)`
// wraps the agent's model and `planloop.tools(yours)` adds the planner tools and gates
// yours, so `run(agent, …)` keeps its own loop while planloop decides. Per model call the
// wrapper hands the Session what is new in the input (the user's message, tool results,
// approvals given or refused), gives the model planloop's instructions and tool
// messages, and hands the Session the response: a premature stop goes back to the model
// inside the same call, a limit ends the run with the summary. Streamed runs get the same
// decisions, the events passed on as they come (`stream.ts` in this folder does the same
// for the AI SDK). A call planloop holds for approval is an interruption (`needsApproval`),
// resolved with `state.approve` / `state.reject`. planloop's state rides in the run
// context (`context.planloop`, read whenever the context is serialized), so it travels
// in `RunState.toString()` whatever paused the run, and `planloop.resume(state)` takes it
// back after `RunState.fromString()`.
import { type Agent, type AgentToolOptionsWithDefault, type FunctionTool, type Model, type ModelRequest, type ModelResponse as AgentsResponse, type RunContext, type StreamEvent, tool } from "@openai/agents";
import type { Handoff, HandoffOptions, ModelResponse, Session, SessionSnapshot } from "planloop";

import { usageOf } from "../runner/usage.js";
import { Keeper, type PlanloopOptions, type Result, type Saved, plannerDefinitions } from "./turn.js";

/** planloop's options, and where the run context keeps its state. */
export interface AgentsPlanloopOptions extends PlanloopOptions {
  /** The run context's key for this planloop's state (`planloop` by default). An agent
   * used as a tool (`agent.asTool`) shares its parent's run context: give the
   * sub-agent's planloop a key of its own, or its state takes the parent's place. */
  contextKey?: string;
}

export type { PlanloopOptions };

export interface Planloop {
  /** The session: its todos, progress, events, steps, proposals. */
  readonly session: Session;
  /** `model` with planloop deciding on each of its responses, streamed or not. */
  model(model: Model): Model;
  /** Your function tools, those planloop's tool policy can hold for approval gated by
   * `needsApproval` (the others as you gave them), plus planloop's planner tools,
   * answered by planloop. */
  tools<T extends FunctionTool<any, any, any>>(tools: T[]): FunctionTool<any, any, any>[];
  /** Takes planloop's state from a run restored with `RunState.fromString` (the run
   * context carried it); call it before `run(agent, state)`. A state that carries none
   * (saved before planloop joined the run, or with a context that could not take it)
   * changes nothing. */
  resume(state: { _context: RunContext<unknown> }): void;
  /** The session as one JSON document. */
  snapshot(): SessionSnapshot;
  /** What this run hands back to the agent that started it (`Session.handoff`): its
   * status, its answer or a summary, the calls that back it, and `text` for the parent's
   * model, as a sub-agent's `customOutputExtractor` gives it (`agent.asTool`). */
  handoff(options?: HandoffOptions): Handoff;
  /** `agent.asTool(options)` for an agent run with this planloop (its `model` and
   * `tools`): the tool's output is this planloop's capsule, never the transcript, never
   * empty; while the agent waits for an approval (surfaced on the root run) it says
   * nothing, as the SDK resumes it. A parent planloop with `delegation` on for the tool
   * makes the call's result from this planloop's session and settles its item. */
  asTool<A extends Agent<any, any>>(agent: A, options?: Omit<AgentToolOptionsWithDefault<any, A>, "customOutputExtractor">): FunctionTool<any, any, any>;
}

/** The sessions sub-agents' capsules came from, by the parent's call id, for the parent's
 * planloop in the same process (`asTool`; the string it returns cannot carry them); the
 * last few, as a parent without planloop takes none. */
const capsuleSessions = new Map<string, SessionSnapshot>();
const CAPSULES_KEPT = 64;

function leaveSession(callId: string | undefined, snapshot: SessionSnapshot): void {
  if (callId === undefined) return;
  if (capsuleSessions.size >= CAPSULES_KEPT) capsuleSessions.delete(capsuleSessions.keys().next().value!);
  capsuleSessions.set(callId, snapshot);
}

/** An input or output item, as far as planloop reads it. */
interface Item {
  type?: string;
  role?: string;
  content?: unknown;
  callId?: string;
  name?: string;
  arguments?: string;
  output?: unknown;
  status?: string;
}

/** The run context, where planloop's state rides under its key. */
type Carrier = Record<string, unknown>;

/** What planloop makes of a response: the call to make next (a refused stop goes back
 * to the model), or the text the run ends with in place of the response (null: it stands). */
type Next = { again: ModelRequest } | { ending: string | null };

export function createPlanloop(options: AgentsPlanloopOptions = {}): Planloop {
  const now = options.now ?? Date.now;
  const key = options.contextKey ?? "planloop";
  const goals = { goal: options.goal, verifyGoal: options.verifyGoal };
  let keeper = new Keeper({ config: options.config, snapshot: options.snapshot }, now, goals);
  /** The tools `tools()` left as given: no call of theirs may be held. */
  const ungated: string[] = [];

  /** Makes `context.planloop` read planloop's state whenever it is read, so a run state
   * serialized at any pause (planloop's gate, a tool's own `needsApproval`) carries the
   * state as it is then. planloop sees the run context on every model call (the planner
   * tools' `isEnabled`), on every gated call and in `resume`. State a restored run state
   * carries (a plain value, not this getter) stays until `resume` takes it. */
  function bind(context: RunContext<unknown> | undefined, taken = false): void {
    const carrier = context?.context;
    if (typeof carrier !== "object" || carrier === null || !Object.isExtensible(carrier)) return;
    const own = Object.getOwnPropertyDescriptor(carrier, key);
    if (own !== undefined && (own.get === saved || own.configurable !== true || ("value" in own && !taken))) return;
    Object.defineProperty(carrier, key, { get: saved, enumerable: true, configurable: true });
  }
  function saved(): Saved {
    return keeper.saved();
  }

  function prepare(request: ModelRequest): ModelRequest {
    const input = typeof request.input === "string" ? [{ role: "user", content: request.input }] : (request.input as Item[]);
    let last = input.length - 1;
    while (last >= 0 && input[last]!.role !== "user") last--;
    const user = last < 0 ? null : { text: textOf(input[last]!) };
    keeper.user(user);
    // A held call the SDK ran was approved as it ran (`invoke`); one still held was refused.
    keeper.results(input.flatMap((item) => (item.type === "function_call_result" ? [resultOf(item, keeper)] : [])));
    const { written, withhold } = keeper.kept;
    const shown = input.map((item, index): Item => {
      if (index === last && user !== null && keeper.shown(user) !== user.text) return { ...item, content: keeper.shown(user) };
      const answer = item.type === "function_call_result" && item.callId !== undefined ? written[item.callId] : undefined;
      return answer === undefined ? item : { ...item, output: { type: "text", text: answer.content } };
    });
    return {
      ...request,
      input: shown as ModelRequest["input"],
      systemInstructions: keeper.systemPrompt(request.systemInstructions ?? ""),
      ...(withhold ? { tools: [] } : {}),
    };
  }

  async function decide(call: ModelRequest, output: Item[], usage: { inputTokens?: unknown; outputTokens?: unknown } | undefined): Promise<Next> {
    const { nudge, ending } = await keeper.respond(responseOf(output, usage));
    if (nudge === null) return { ending };
    return { again: { ...call, input: [...(call.input as Item[]), ...output, { role: "user", content: nudge }] as ModelRequest["input"] } };
  }

  return {
    get session() {
      return keeper.session;
    },
    model(model: Model): Model {
      return {
        async getResponse(request: ModelRequest): Promise<AgentsResponse> {
          let call = prepare(request);
          for (;;) {
            const response = await model.getResponse(call);
            const next = await decide(call, response.output as Item[], response.usage);
            if ("again" in next) call = next.again;
            else return next.ending === null ? response : { ...response, output: [said(next.ending)] as AgentsResponse["output"] };
          }
        },
        // Every event passes on as it comes but the response's end, held until planloop has
        // decided: a refused stop goes on in the same stream with the model's next
        // response; a limit ends it with planloop's text in place of the response.
        async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
          let call = prepare(request);
          for (let round = 0; ; round++) {
            let done: Extract<StreamEvent, { type: "response_done" }> | null = null;
            for await (const event of model.getStreamedResponse(call)) {
              if (event.type === "response_done") done = event;
              else if (event.type !== "response_started" || round === 0) yield event;
            }
            // (A stream without its end: the SDK reports the missing response.)
            if (done === null) return;
            const next = await decide(call, done.response.output as Item[], done.response.usage);
            if ("again" in next) {
              call = next.again;
              continue;
            }
            if (next.ending !== null) {
              yield { type: "output_text_delta", delta: next.ending };
              done = { ...done, response: { ...done.response, output: [said(next.ending)] as typeof done.response.output } };
            }
            yield done;
            return;
          }
        },
      };
    },
    tools(tools) {
      const gated = tools.map((given): FunctionTool<any, any, any> => {
        if (!keeper.session.mayHold(given.name)) {
          ungated.push(given.name);
          return given;
        }
        return {
          ...given,
          needsApproval: async (context, input, callId) => {
            bind(context);
            return (callId !== undefined && keeper.held(callId)) || (await given.needsApproval(context, input, callId));
          },
          invoke: async (context, input, details) => {
            bind(context);
            const callId = details?.toolCall?.callId;
            const instead = callId === undefined ? undefined : keeper.answeredInstead(callId);
            if (instead !== undefined) return instead.content;
            if (callId !== undefined) keeper.approve(callId);
            return given.invoke(context, input, details);
          },
        };
      });
      const planner = plannerDefinitions(keeper.session).map((definition) =>
        tool({
          name: definition.name,
          description: definition.description,
          parameters: definition.parameters as never,
          strict: false,
          isEnabled: ({ runContext }) => {
            bind(runContext);
            return true;
          },
          execute: async (_input: unknown, _context?: RunContext<unknown>, details?: { toolCall?: { callId?: string } }) => {
            const answer = keeper.kept.written[details?.toolCall?.callId ?? ""];
            if (answer === undefined) throw new Error("planloop has no answer for this call");
            return answer.content;
          },
        }),
      );
      return [...gated, ...planner];
    },
    resume(state) {
      const carried = (state._context.context as Carrier | undefined)?.[key] as Saved | undefined;
      if (carried !== undefined) {
        const restored = new Keeper({ saved: carried }, now, goals);
        const loose = ungated.filter((name) => restored.session.mayHold(name));
        if (loose.length > 0) throw new Error(`planloop/openai-agents: the run state's session can hold ${loose.join(", ")} for approval, which planloop.tools() left ungated: make the planloop with the config the run began with`);
        keeper = restored;
      }
      bind(state._context, true);
    },
    snapshot: () => keeper.session.snapshot(),
    handoff: (handoffOptions?: HandoffOptions) => keeper.session.handoff(handoffOptions, now()),
    asTool(agent, given) {
      return agent.asTool({
        ...given,
        customOutputExtractor: (output) => {
          // Paused for an approval: the SDK drops this output and runs the agent again.
          if (output.interruptions.length > 0) return "";
          leaveSession(output.agentToolInvocation?.toolCallId, keeper.session.snapshot());
          return keeper.session.handoff(undefined, now()).text;
        },
      }) as FunctionTool<any, any, any>;
    },
  };
}

/** An assistant message saying `text`: what the run ends with at a limit. */
function said(text: string): Item {
  return { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] };
}

/** An item's text: a string content, or its text parts. */
function textOf(item: Item): string {
  const content = item.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((part: { text?: unknown }) => (typeof part.text === "string" ? [part.text] : [])).join("");
}

/** A function call's result; a call planloop still holds did not run: the user refused it
 * (the output is the refusal's message). */
function resultOf(item: Item, keeper: Keeper): Result {
  const output = item.output as string | { text?: string } | undefined;
  const text = typeof output === "string" ? output : (output?.text ?? JSON.stringify(output ?? null));
  const id = item.callId ?? "";
  const child = capsuleSessions.get(id);
  capsuleSessions.delete(id);
  return { id, output: text, isError: item.status === "incomplete", denied: keeper.held(id), child };
}

/** A model's output items as planloop reads a response. */
/** A response's output, and its usage as the SDK reports it (`Usage`, or the stream's
 * `response_done` usage: the same two counts). */
function responseOf(output: Item[], usage: { inputTokens?: unknown; outputTokens?: unknown } | undefined): ModelResponse {
  const text = output.filter((i) => i.type === "message" && i.role === "assistant").map(textOf).join("");
  const counted = usageOf(usage?.inputTokens, usage?.outputTokens);
  return {
    text: text.length > 0 ? text : null,
    toolCalls: output.filter((i) => i.type === "function_call").map((i) => ({ id: i.callId ?? "", name: i.name ?? "", args: i.arguments ?? "{}" })),
    ...(counted !== undefined ? { usage: counted } : {}),
  };
}
