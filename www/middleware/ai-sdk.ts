// planloop inside a Vercel AI SDK loop (AI SDK 6 and 7): a language-model middleware
// and the planner tools, so `generateText`, `streamText` or a `ToolLoopAgent` keep their
// own loop while planloop decides. Per model call the middleware hands the Session what
// is new in the prompt (the user's message, tool results, approvals given or refused),
// puts planloop's system prompt and tool messages in, calls the model, and hands the
// Session its response. A refused stop is sent back to the model inside the same call;
// a pause or a failure ends the loop with its summary; gated tools wait for the SDK's own
// approval flow (`needsApproval`), and a denied or executed call resolves the proposal.
import { jsonSchema, type LanguageModelMiddleware, tool, type ToolSet } from "ai";
import { type Decision, type ModelResponse, Session, type SessionConfig, type SessionSnapshot, type ToolMessage } from "planloop";

import { type Prompt, type ProviderMessage, type ProviderPart, lastUserMessage, responseOf, withSystem, withToolMessages } from "./prompt.js";
import { type StreamPart, continuedStream } from "./stream.js";

export interface PlanloopOptions {
  /** The session's configuration (ignored when `snapshot` is given). */
  config?: SessionConfig;
  /** A saved session (`planloop.snapshot()`) to go on from. */
  snapshot?: SessionSnapshot | string;
  /** The clock, in milliseconds (Date.now by default). */
  now?: () => number;
}

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
  const session = options.snapshot === undefined ? new Session(options.config) : Session.restore(options.snapshot);
  const now = options.now ?? Date.now;
  /** User messages seen; one more is a new turn. */
  let usersSeen = 0;
  /** The turn's user message as planloop rewrote it (resume summary, plan feedback). */
  let turnMessage = "";
  /** planloop's answers to its own tools, by call id, for their `execute`. */
  const replies = new Map<string, ToolMessage>();
  /** The tool messages planloop wrote for results, by call id: what the model reads. */
  const written = new Map<string, ToolMessage>();
  /** Calls whose results planloop awaits; a proposal's carries its action id. */
  const awaited = new Map<string, string | null>();
  let withhold = false;

  /** Hands the session what is new in `prompt`; returns the prompt the model gets. */
  function prepare(params: CallParams): CallParams {
    const prompt = params.prompt;
    const user = lastUserMessage(prompt);
    if (user !== null && user.count !== usersSeen) {
      usersSeen = user.count;
      turnMessage = session.beginTurn({ message: user.text, nowMs: now() }).message;
      // A new message ends the turn before it: what it awaited is abandoned.
      awaited.clear();
      withhold = false;
    }
    resolveResults(prompt);
    const shown = withToolMessages(prompt, written, user === null ? null : { index: user.index, text: turnMessage });
    const composed = withSystem(shown, (base) => session.systemPrompt({ base }, now()).prompt);
    return { ...params, prompt: composed, ...(withhold ? { toolChoice: { type: "none" } } : {}) };
  }

  /** Results, approvals and denials the SDK put in the prompt since the last call. */
  function resolveResults(prompt: Prompt): void {
    const results: { id: string; output: string; isError: boolean }[] = [];
    for (const part of prompt.flatMap((m: ProviderMessage) => (m.role === "tool" ? m.content : []))) {
      const id = part.toolCallId;
      if (part.type !== "tool-result" || id === undefined || !awaited.has(id)) continue;
      const actionId = awaited.get(id)!;
      awaited.delete(id);
      const output = part.output as { type: string; value?: unknown; reason?: string };
      if (actionId !== null && output.type === "execution-denied") {
        const outcome = session.reject(actionId, output.reason === undefined ? undefined : { message: output.reason }, now());
        remember(outcome.resumed);
        continue;
      }
      if (actionId !== null) remember(session.approve(actionId, undefined, now()).resumed);
      const isError = output.type.startsWith("error");
      results.push({ id, output: typeof output.value === "string" ? output.value : JSON.stringify(output.value ?? null), isError });
    }
    if (results.length === 0) return;
    const outcome = session.handleToolResults(results, now());
    for (const message of outcome.messages) written.set(message.toolCallId, message);
    withhold = outcome.next.toolsWithheld;
  }

  /** Keeps what a decision asks of the loop: replies to answer, calls to await. */
  function remember(decision: Decision | null | undefined): void {
    if (decision === null || decision === undefined) return;
    if (decision.type !== "runTools" && decision.type !== "awaitApproval" && decision.type !== "awaitPlanReview") return;
    for (const reply of decision.replies) {
      replies.set(reply.toolCallId, reply);
      written.set(reply.toolCallId, reply);
    }
    if (decision.type === "awaitPlanReview") return;
    for (const call of decision.calls) awaited.set(call.id, null);
    if (decision.type === "awaitApproval") for (const proposal of decision.proposals) awaited.set(proposal.callId, proposal.actionId);
    if (decision.type === "runTools") withhold = decision.next.toolsWithheld;
  }

  /** The session's decision on a response; `continue` carries the prompt to ask again with. */
  function decide(prompt: Prompt, content: ProviderPart[]): { decision: Decision; again: Prompt | null } {
    const response: ModelResponse = responseOf(content);
    const decision = session.handleModelResponse(response, now());
    remember(decision);
    if (decision.type !== "continue") return { decision, again: null };
    const said: ProviderMessage[] = content.length > 0 ? [{ role: "assistant", content }] : [];
    return { decision, again: [...prompt, ...said, { role: "user", content: [{ type: "text", text: decision.message }] }] };
  }

  const middleware = {
    specificationVersion: "v3",
    async wrapGenerate({ params, model }: { params: CallParams; model: Model }) {
      let call = prepare(params);
      for (;;) {
        const result = await model.doGenerate(call);
        const { decision, again } = decide(call.prompt, result.content);
        if (again !== null) {
          call = { ...call, prompt: again };
          continue;
        }
        const ending = endingText(decision);
        return ending === null ? result : { ...result, content: [{ type: "text", text: ending }], finishReason: { unified: "stop", raw: undefined } };
      }
    },
    async wrapStream({ params, model }: { params: CallParams; model: Model }) {
      const call = prepare(params);
      const first = await model.doStream(call);
      return {
        ...first,
        stream: continuedStream(first.stream, (content) => {
          const { decision, again } = decide(call.prompt, content);
          if (again !== null) {
            call.prompt = again;
            return { next: model.doStream(call).then((r) => r.stream) };
          }
          return { ending: endingText(decision) };
        }),
      };
    },
    // Written against the provider-level shapes both majors share (LanguageModelV3 in AI
    // SDK 6, V4 in 7; `prompt.ts`), so typed here structurally, not by either's types.
  } as unknown as LanguageModelMiddleware;

  return {
    session,
    middleware,
    tools<T extends ToolSet>(tools: T): T & ToolSet {
      const gated: ToolSet = {};
      for (const [name, given] of Object.entries(tools)) {
        const own = given.needsApproval;
        gated[name] = {
          ...given,
          needsApproval: async (input: unknown, context: { toolCallId: string }) =>
            awaited.get(context.toolCallId) != null || (typeof own === "function" ? await (own as (i: unknown, c: unknown) => boolean | PromiseLike<boolean>)(input, context) : own === true),
        } as ToolSet[string];
      }
      for (const definition of session.toolDefinitions()) {
        gated[definition.name] = tool({
          description: definition.description,
          inputSchema: jsonSchema(definition.parameters as Parameters<typeof jsonSchema>[0]),
          execute: async (_input: unknown, { toolCallId }: { toolCallId: string }) => replies.get(toolCallId)?.content ?? "planloop has no answer for this call",
        }) as ToolSet[string];
      }
      return gated as T & ToolSet;
    },
    snapshot: () => session.snapshot(),
  };
}

/** The text a decision ends the loop with, or null when the model's response stands. */
function endingText(decision: Decision): string | null {
  switch (decision.type) {
    case "pause":
      return decision.summary;
    case "fail":
      return decision.message;
    case "awaitPlanReview":
      return decision.message;
    default:
      return null;
  }
}
