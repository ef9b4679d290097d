// planloop inside a Vercel AI SDK loop (AI SDK 6 and 7): a language-model middleware
// and the planner tools, so `generateText`, `streamText` or a `ToolLoopAgent` keep their
// own loop while planloop decides. Per model call the middleware hands the Session what
// is new in the prompt (the user's message, tool results, approvals given or refused),
// puts planloop's system prompt and tool messages in, calls the model, and hands the
// Session its response. A refused stop is sent back to the model inside the same call;
// a pause or a failure ends the loop with its summary; gated tools wait for the SDK's own
// approval flow (`needsApproval`), and a denied or executed call resolves the proposal.
import { jsonSchema, type LanguageModelMiddleware, tool, type ToolSet } from "ai";
import type { Session, SessionSnapshot } from "planloop";

import { type Prompt, type ProviderMessage, type ProviderPart, lastUserMessage, responseOf, withSystem, withToolMessages } from "./prompt.js";
import { type StreamPart, continuedStream } from "./stream.js";
import { Keeper, type PlanloopOptions, type Result } from "./turn.js";

export type { PlanloopOptions };

export interface Planloop {
  /** The session: its todos, progress, events, steps, proposals. */
  readonly session: Session;
  /** For `wrapLanguageModel({ model, middleware })`. */
  readonly middleware: LanguageModelMiddleware;
  /** Your tools plus planloop's planner tools, answered by planloop; each of your tools
   * planloop does not class as a read waits for approval (`needsApproval`). */
  tools<T extends ToolSet>(tools: T): T & ToolSet;
  /** The session as one JSON document, for `createPlanloop({ snapshot })` later. */
  snapshot(): SessionSnapshot;
}

/** What a model call returns, as far as planloop reads and changes it. */
interface Generated {
  content: ProviderPart[];
  finishReason: unknown;
}

interface CallParams {
  prompt: Prompt;
  toolChoice?: unknown;
}

interface Model {
  doGenerate(params: CallParams): PromiseLike<Generated>;
  doStream(params: CallParams): PromiseLike<{ stream: ReadableStream<StreamPart> }>;
}

export function createPlanloop(options: PlanloopOptions = {}): Planloop {
  const keeper = new Keeper({ config: options.config, snapshot: options.snapshot }, options.now ?? Date.now);

  /** Hands the session what is new in the prompt; returns the call as the model gets it. */
  function prepare(params: CallParams): CallParams {
    const prompt = params.prompt;
    const user = lastUserMessage(prompt);
    keeper.user(user);
    keeper.results(prompt.flatMap((m) => (m.role === "tool" ? m.content.flatMap(resultOf) : [])));
    const shown = withToolMessages(prompt, keeper.kept.written, user && { index: user.index, text: keeper.shown(user) });
    const composed = withSystem(shown, (base) => keeper.systemPrompt(base));
    return { ...params, prompt: composed, ...(keeper.kept.withhold ? { toolChoice: { type: "none" } } : {}) };
  }

  /** The session's verdict on a response; a nudge comes back as the prompt to ask again with. */
  function decide(prompt: Prompt, content: ProviderPart[]): { again: Prompt | null; ending: string | null } {
    const { nudge, ending } = keeper.respond(responseOf(content));
    if (nudge === null) return { again: null, ending };
    const said: ProviderMessage[] = content.length > 0 ? [{ role: "assistant", content }] : [];
    return { again: [...prompt, ...said, { role: "user", content: [{ type: "text", text: nudge }] }], ending: null };
  }

  const middleware = {
    specificationVersion: "v3",
    async wrapGenerate({ params, model }: { params: CallParams; model: Model }) {
      let call = prepare(params);
      for (;;) {
        const result = await model.doGenerate(call);
        const { again, ending } = decide(call.prompt, result.content);
        if (again !== null) {
          call = { ...call, prompt: again };
          continue;
        }
        return ending === null ? result : { ...result, content: [{ type: "text", text: ending }], finishReason: { unified: "stop", raw: undefined } };
      }
    },
    async wrapStream({ params, model }: { params: CallParams; model: Model }) {
      const call = prepare(params);
      const first = await model.doStream(call);
      return {
        ...first,
        stream: continuedStream(first.stream, (content) => {
          const { again, ending } = decide(call.prompt, content);
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
      for (const [name, given] of Object.entries(tools)) {
        const own = given.needsApproval;
        gated[name] = {
          ...given,
          needsApproval: async (input: unknown, context: { toolCallId: string }) =>
            keeper.held(context.toolCallId) || (typeof own === "function" ? await (own as (i: unknown, c: unknown) => boolean | PromiseLike<boolean>)(input, context) : own === true),
        } as ToolSet[string];
      }
      for (const definition of keeper.session.toolDefinitions()) {
        gated[definition.name] = tool({
          description: definition.description,
          inputSchema: jsonSchema(definition.parameters as Parameters<typeof jsonSchema>[0]),
          execute: async (_input: unknown, { toolCallId }: { toolCallId: string }) => keeper.kept.written[toolCallId]?.content ?? "planloop has no answer for this call",
        }) as ToolSet[string];
      }
      return gated as T & ToolSet;
    },
    snapshot: () => keeper.session.snapshot(),
  };
}

/** A tool-result part as a Result (a denied approval carries its reason as output). */
function resultOf(part: ProviderPart): Result[] {
  if (part.type !== "tool-result" || part.toolCallId === undefined) return [];
  const output = part.output as { type: string; value?: unknown; reason?: string };
  if (output.type === "execution-denied") return [{ id: part.toolCallId, output: output.reason ?? "", isError: true, denied: true }];
  const text = typeof output.value === "string" ? output.value : JSON.stringify(output.value ?? null);
  return [{ id: part.toolCallId, output: text, isError: output.type.startsWith("error") }];
}
