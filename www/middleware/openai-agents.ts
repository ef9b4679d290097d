// planloop inside an OpenAI Agents SDK run (`@openai/agents`): `planloop.model(yours)`
// wraps the agent's model and `planloop.tools(yours)` adds the planner tools and gates
// yours, so `run(agent, …)` keeps its own loop while planloop decides. Per model call the
// wrapper hands the Session what is new in the input (the user's message, tool results,
// approvals given or refused), gives the model planloop's instructions and tool
// messages, and hands the Session the response: a premature stop goes back to the model
// inside the same call, a limit ends the run with the summary. A call planloop holds for
// approval is an interruption (`needsApproval`), resolved with `state.approve` /
// `state.reject`; planloop's state rides in the run context (`context.planloop`), so it
// travels in `RunState.toString()`, and `planloop.resume(state)` takes it back after
// `RunState.fromString()`.
import { type FunctionTool, type Model, type ModelRequest, type ModelResponse as AgentsResponse, type RunContext, tool } from "@openai/agents";
import type { ModelResponse, Session, SessionSnapshot } from "planloop";

import { Keeper, type PlanloopOptions, type Result, type Saved } from "./turn.js";

export type { PlanloopOptions };

export interface Planloop {
  /** The session: its todos, progress, events, steps, proposals. */
  readonly session: Session;
  /** `model` with planloop deciding on each of its responses. */
  model(model: Model): Model;
  /** Your function tools, each planloop does not class as a read gated by
   * `needsApproval`, plus planloop's planner tools, answered by planloop. */
  tools<T extends FunctionTool<any, any, any>>(tools: T[]): FunctionTool<any, any, any>[];
  /** Takes planloop's state from a run restored with `RunState.fromString` (the run
   * context carried it); call it before `run(agent, state)`. */
  resume(state: { _context: RunContext<unknown> }): void;
  /** The session as one JSON document. */
  snapshot(): SessionSnapshot;
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

/** Where the run context keeps planloop's state. */
interface Carrier {
  planloop?: Saved;
}

export function createPlanloop(options: PlanloopOptions = {}): Planloop {
  const now = options.now ?? Date.now;
  let keeper = new Keeper({ config: options.config, snapshot: options.snapshot }, now);
  /** Gated calls the SDK ran (approved); a held call's result without it was refused. */
  const ran = new Set<string>();

  /** Keeps planloop's state in the run context, which `RunState.toString()` carries. */
  function carry(context: RunContext<unknown>): void {
    if (typeof context.context === "object" && context.context !== null) (context.context as Carrier).planloop = keeper.saved();
  }

  function prepare(request: ModelRequest): ModelRequest {
    const input = typeof request.input === "string" ? [{ role: "user", content: request.input }] : (request.input as Item[]);
    let last = input.length - 1;
    while (last >= 0 && input[last]!.role !== "user") last--;
    const user = last < 0 ? null : { text: textOf(input[last]!) };
    keeper.user(user);
    keeper.results(input.flatMap((item) => (item.type === "function_call_result" ? [resultOf(item, ran)] : [])));
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
            const { nudge, ending } = keeper.respond(responseOf(response.output as Item[]));
            if (nudge !== null) {
              call = { ...call, input: [...(call.input as Item[]), ...(response.output as Item[]), { role: "user", content: nudge }] as ModelRequest["input"] };
              continue;
            }
            if (ending === null) return response;
            return { ...response, output: [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: ending }] }] as AgentsResponse["output"] };
          }
        },
        getStreamedResponse(): AsyncIterable<never> {
          throw new Error("planloop/openai-agents decides on whole responses: run without `stream: true`");
        },
      };
    },
    tools(tools) {
      const gated = tools.map(
        (given): FunctionTool<any, any, any> => ({
          ...given,
          needsApproval: async (context, input, callId) => {
            const held = callId !== undefined && keeper.held(callId);
            if (held) carry(context);
            return held || (await given.needsApproval(context, input, callId));
          },
          invoke: async (context, input, details) => {
            const callId = details?.toolCall?.callId;
            if (callId !== undefined && keeper.held(callId)) ran.add(callId);
            return given.invoke(context, input, details);
          },
        }),
      );
      const planner = keeper.session.toolDefinitions().map((definition) =>
        tool({
          name: definition.name,
          description: definition.description,
          parameters: definition.parameters as never,
          strict: false,
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
      const carried = (state._context.context as Carrier | undefined)?.planloop;
      if (carried === undefined) throw new Error("planloop/openai-agents: this run state carries no planloop state (planloop writes it into the run context when it holds a call for approval)");
      keeper = new Keeper({ saved: carried }, now);
    },
    snapshot: () => keeper.session.snapshot(),
  };
}

/** An item's text: a string content, or its text parts. */
function textOf(item: Item): string {
  const content = item.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((part: { text?: unknown }) => (typeof part.text === "string" ? [part.text] : [])).join("");
}

/** A function call's result; a held call the SDK did not run was refused (its output is
 * the refusal's message). */
function resultOf(item: Item, ran: ReadonlySet<string>): Result {
  const output = item.output as string | { text?: string } | undefined;
  const text = typeof output === "string" ? output : (output?.text ?? JSON.stringify(output ?? null));
  const id = item.callId ?? "";
  return { id, output: text, isError: item.status === "incomplete", denied: !ran.has(id) };
}

/** A model's output items as planloop reads a response. */
function responseOf(output: Item[]): ModelResponse {
  const text = output.filter((i) => i.type === "message" && i.role === "assistant").map(textOf).join("");
  return {
    text: text.length > 0 ? text : null,
    toolCalls: output.filter((i) => i.type === "function_call").map((i) => ({ id: i.callId ?? "", name: i.name ?? "", args: i.arguments ?? "{}" })),
  };
}
