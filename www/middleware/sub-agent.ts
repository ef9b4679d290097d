// Sub-agents of an AI SDK run whose gated calls wait for the user on the parent's run.
// The SDK has no approvals inside a sub-agent tool (its docs: "No Tool Approvals in
// Subagents"), so planloop's sub-agent tool runs its child inside the parent's session
// (`beginDelegation`, `child`), and when the child stops on a call for the user, the
// parent's next model call is answered, in the model's place, by calls of planloop's
// approval tool: the SDK's own approval flow asks the user, and its answer resumes the
// child. What the user is shown, and what runs, is the core's proposal, never the words
// of a message; the parent's model sees none of it, only the child's capsule.
import { type FlexibleSchema, type LanguageModelMiddleware, type ModelMessage, type ToolSet, generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from "ai";
import { type Handoff, type Proposal, Session } from "planloop";

import { type Answer, answersIn, partsOf, sameArgs } from "./approval.js";
import type { Prompt, ProviderPart } from "./prompt.js";
import { type Keeper, delegateTools } from "./turn.js";

/** planloop's approval tool: never offered to the model, only called in its place. */
export const APPROVAL_TOOL = "planloop_approve_sub_agent";

/** A sub-agent tool, as `planloop.subAgent` takes it. */
export interface SubAgentOptions {
  /** What the parent's model reads of the tool. */
  description: string;
  /** The child's model (planloop's middleware is put around it). */
  model: Parameters<typeof wrapLanguageModel>[0]["model"];
  /** The child's tools; the parent's tool policy holds their calls. */
  tools?: ToolSet;
  /** The child's system prompt, before planloop's. */
  instructions?: string;
  /** The tool's input; planloop's delegate shape `{goal, todoId?, context?, acceptance?}` by default. */
  inputSchema?: FlexibleSchema<unknown>;
}

/** What a sub-agent tool returns: the child's capsule, or word that it waits for the user. */
export type SubAgentOutput = Handoff | { status: "waiting"; text: string };

/** What planloop's approval tool shows the user: the child's call as the core holds it. */
export interface SubAgentApproval {
  subAgent: string;
  tool: string;
  args: unknown;
}

/** The parts of a planloop that runs a child. */
export interface Loop {
  readonly session: Session;
  readonly middleware: LanguageModelMiddleware;
  tools<T extends ToolSet>(tools: T): T & ToolSet;
}

/** A call of a child that waits for the user, with the delegate call it came through. */
interface Waiting {
  subAgent: string;
  turn: number;
  proposal: Proposal;
}

/** A child stopped on calls for the user, and its messages so far. */
interface Stopped {
  loop: Loop;
  messages: ModelMessage[];
}

const made = new WeakMap<object, SubAgentOptions>();

/** An approval call's id: the parent's turn, how many times the call was asked before, and
 * the proposal's action id, so that an answer maps back to the proposal it was asked for. */
const approvalId = (w: Waiting, asked: number) => `planloop-approve:${w.turn}:${asked}:${w.proposal.actionId}`;
const ID = /^planloop-approve:(\d+):\d+:(.+)$/s;

/** Whether approval call `id` was asked for `w`. */
const asks = (id: string, w: Waiting) => {
  const match = ID.exec(id);
  return match !== null && Number(match[1]) === w.turn && match[2] === w.proposal.actionId;
};

/** Whether `id` names a call of planloop's approval tool, as planloop makes them. */
export const isApprovalCall = (id: string) => ID.test(id);

const shown = (p: Proposal) => `${p.tool}(${JSON.stringify(p.args)})`;

/** The prompt without planloop's approval calls and their results: they are the user's
 * business, not the parent model's. What the last approval of a sub-agent's call ran to
 * (its capsule, or word that it waits again) is its delegate call's result instead: the
 * result the app keeps for that call says only that it waited, and later requests, in
 * later processes, read the app's messages. */
export function withoutApprovals(prompt: Prompt): Prompt {
  const ran = new Map<string, unknown>();
  for (const part of prompt.flatMap((m) => (m.role === "tool" ? m.content : []))) {
    const approval = part.type === "tool-result" && part.toolName === APPROVAL_TOOL ? ID.exec(part.toolCallId ?? "") : null;
    const actionId = approval?.[2];
    // (A child's action id is its delegate call's id, then `/act-…`.)
    if (actionId !== undefined && (part.output as { type?: string }).type !== "execution-denied") ran.set(actionId.slice(0, actionId.lastIndexOf("/")), part.output);
  }
  return prompt.flatMap((message) => {
    if (message.role !== "assistant" && message.role !== "tool") return [message];
    const content = message.content
      .filter((part) => part.toolName !== APPROVAL_TOOL)
      .map((part) => (part.type === "tool-result" && ran.has(part.toolCallId ?? "") ? { ...part, output: ran.get(part.toolCallId!) } : part));
    return content.length === 0 && message.content.length > 0 ? [] : [{ ...message, content }];
  });
}

export class SubAgents {
  /** The sub-agent tools given to `tools()`, by the name the app gives each. */
  private readonly named = new Map<string, SubAgentOptions>();
  /** Children stopped on calls for the user, by delegate call (in memory only: after a
   * restart their messages are rebuilt from the session). */
  private readonly stopped = new Map<string, Stopped>();
  /** Children being resumed, so that two approvals of one child resume it once. */
  private readonly resuming = new Map<string, Promise<string>>();
  /** An approval call the SDK ran without asking, said once more by the next model call. */
  private bypass: Error | null = null;

  constructor(
    private readonly keeper: Keeper,
    private readonly now: () => number,
    private readonly loopOf: (session: Session) => Loop,
  ) {}

  /** A sub-agent tool (`planloop.subAgent`). */
  tool(options: SubAgentOptions): ToolSet[string] {
    const delegate = this.delegateDefinition();
    const subAgent = tool({
      description: options.description,
      inputSchema: options.inputSchema ?? jsonSchema(delegate.parameters as Parameters<typeof jsonSchema>[0]),
      execute: async (_input: unknown, { toolCallId }: { toolCallId: string }): Promise<SubAgentOutput> => {
        const start = this.keeper.session.beginDelegation(toolCallId, this.now());
        const loop = this.loopOf(this.keeper.session.child(toolCallId));
        return this.run(toolCallId, loop, [{ role: "user", content: start.message }]);
      },
      toModelOutput: ({ output }: { output: SubAgentOutput }) => ({ type: "text", value: output.text }),
    }) as ToolSet[string];
    made.set(subAgent, options);
    return subAgent;
  }

  /** The session's delegate tool, or an error naming the fix. */
  private delegateDefinition() {
    const names = delegateTools(this.keeper.session);
    const definition = this.keeper.session.toolDefinitions().find((d) => names.has(d.name));
    if (definition === undefined) throw new Error(`planloop: a sub-agent tool runs its child inside the parent's session: give createPlanloop config.delegation = { enabled: true, toolNames: ["<the sub-agent tool's name>"] }`);
    return definition;
  }

  /** Takes tool `name` of those given to `tools()` as a sub-agent tool if it is one;
   * whether it is. Its name must be one the session reads as a delegate call. */
  register(name: string, given: unknown): boolean {
    const options = typeof given === "object" && given !== null ? made.get(given) : undefined;
    if (options === undefined) return false;
    if (!delegateTools(this.keeper.session).has(name)) {
      throw new Error(`planloop: the sub-agent tool "${name}" runs its child inside the parent's session, which must read its calls as delegations: give createPlanloop config.delegation = { enabled: true, toolNames: ["${name}"] }`);
    }
    this.named.set(name, options);
    return true;
  }

  /** planloop's approval tool, for `tools()`: the user approves a child's call through it
   * (it always asks), and its `execute` resumes the child. */
  approvalTool(): ToolSet[string] {
    return tool({
      description: "planloop's: a sub-agent's call that waits for the user's approval. Never offered to the model.",
      inputSchema: jsonSchema<SubAgentApproval>({ type: "object", properties: { subAgent: { type: "string" }, tool: { type: "string" }, args: {} }, required: ["subAgent", "tool"] }),
      needsApproval: true,
      execute: (input: SubAgentApproval, { toolCallId, messages }: { toolCallId: string; messages: ModelMessage[] }) => this.approved(toolCallId, input, messages),
    }) as ToolSet[string];
  }

  /** The calls of this session's children that wait for the user. */
  private waiting(): Waiting[] {
    const delegations = new Set(this.keeper.session.delegations().map((d) => d.callId));
    return this.keeper.session.proposals().flatMap((proposal) => {
      const link = proposal.status === "pending" ? proposal.chain?.find((l) => delegations.has(l.callId)) : undefined;
      return link === undefined ? [] : [{ subAgent: link.callId, turn: link.turn, proposal }];
    });
  }

  /**
   * Before the parent's model call: forgets children no longer at work, then resumes
   * each child whose waiting calls the user all denied (the SDK hands the denial of an
   * approval call to the model, without running it); then, while a child still waits,
   * the calls of planloop's approval tool to answer the model call with (one per
   * waiting call, with its tool and arguments as the core holds them).
   */
  async beforeModelCall(prompt: Prompt): Promise<ProviderPart[]> {
    if (this.bypass !== null) {
      const error = this.bypass;
      this.bypass = null;
      throw error;
    }
    const working = new Set(this.keeper.session.delegations().map((d) => d.callId));
    for (const id of this.stopped.keys()) if (!working.has(id)) this.stopped.delete(id);
    const denied = new Map<string, Answer>();
    const asked: string[] = [];
    for (const message of prompt) {
      for (const part of message.role === "assistant" || message.role === "tool" ? message.content : []) {
        if (part.toolName !== APPROVAL_TOOL || part.toolCallId === undefined) continue;
        if (part.type === "tool-call") asked.push(part.toolCallId);
        const output = part.output as { type?: string; reason?: string } | undefined;
        if (part.type === "tool-result" && output?.type === "execution-denied") denied.set(part.toolCallId, { approved: false, ...(output.reason !== undefined ? { reason: output.reason } : {}) });
      }
    }
    if (denied.size > 0) {
      for (const subAgent of new Set(this.waiting().map((w) => w.subAgent))) {
        const answers = this.answersFor(subAgent, (w) => [...denied].find(([id]) => asks(id, w))?.[1]);
        if (answers !== null) await this.resume(subAgent, answers);
      }
    }
    return this.waiting().map((w) => {
      const tool = this.keeper.session.delegations().find((d) => d.callId === w.subAgent)?.tool ?? "";
      if (!this.named.has(tool)) {
        throw new Error(`planloop: sub-agent ${w.subAgent} waits for the user's approval of ${shown(w.proposal)}, but no planloop.subAgent tool named "${tool}" was given to planloop.tools(): give the same tools after a restart`);
      }
      const input: SubAgentApproval = { subAgent: w.subAgent, tool: w.proposal.tool, args: w.proposal.args };
      const id = approvalId(w, asked.filter((a) => asks(a, w)).length);
      return { type: "tool-call", toolCallId: id, toolName: APPROVAL_TOOL, input: JSON.stringify(input) };
    });
  }

  /** The answer to each waiting call of child `subAgent`, by action id, or null when one
   * has none. */
  private answersFor(subAgent: string, answer: (w: Waiting) => Answer | undefined): Map<string, Answer> | null {
    const answers = new Map<string, Answer>();
    for (const w of this.waiting().filter((x) => x.subAgent === subAgent)) {
      const given = answer(w);
      if (given === undefined) return null;
      answers.set(w.proposal.actionId, given);
    }
    return answers;
  }

  /**
   * The approval tool's `execute`, the SDK having brought the user's approval of call
   * `id`: resumes the child with the user's answers to each of its waiting calls, and
   * returns its capsule's text (or word that it waits again). A call planloop did not
   * ask, one whose proposal waits no more, or one whose input is not what the core holds
   * runs nothing and changes nothing; one the SDK ran without asking the user fails, and
   * so does the next model call, as a gated tool's does (`guard`).
   */
  private async approved(id: string, input: SubAgentApproval, messages: ModelMessage[]): Promise<string> {
    if (!isApprovalCall(id)) return `planloop did not ask for this approval (${id}): nothing ran.`;
    const w = this.waiting().find((x) => asks(id, x));
    if (w === undefined) return `No sub-agent's call waits for this approval (${id}): it was answered, or never asked. Nothing ran.`;
    const answers = answersIn(messages);
    if (answers.get(id)?.approved !== true) {
      this.bypass = new Error(
        `planloop: ${APPROVAL_TOOL} (call ${id}) asks the user for ${shown(w.proposal)} of sub-agent ${w.subAgent}, but the AI SDK ran it without asking: a toolApproval setting answered for it in place of planloop's gate. Nothing ran. Pass toolApproval: planloop.toolApproval(yours), which asks planloop first`,
      );
      throw this.bypass;
    }
    const inputs = new Map(messages.flatMap((m) => partsOf(m, "assistant")).flatMap((p) => (p.type === "tool-call" && typeof p.toolCallId === "string" ? [[p.toolCallId, p.input] as const] : [])));
    inputs.set(id, input);
    const matches = (call: string, x: Waiting) => {
      const shownInput = inputs.get(call) as Partial<SubAgentApproval> | undefined;
      return shownInput?.subAgent === x.subAgent && shownInput.tool === x.proposal.tool && sameArgs(shownInput.args, x.proposal.args);
    };
    let mismatch: Waiting | undefined;
    const given = this.answersFor(w.subAgent, (x) => {
      const found = [...answers].find(([call]) => asks(call, x));
      if (found?.[1].approved === true && !matches(found[0], x)) mismatch = x;
      return found?.[1];
    });
    if (mismatch !== undefined) return `The approval does not show what sub-agent ${mismatch.subAgent} waits for (${shown(mismatch.proposal)}): nothing ran; it waits for the user.`;
    if (given === null) return `Each call sub-agent ${w.subAgent} waits on needs the user's answer at once: nothing ran; it waits for the user.`;
    return this.resume(w.subAgent, given);
  }

  /** Resumes child `subAgent` with the user's answers to its waiting calls, by action id
   * (once, however many approvals name it); its capsule's text, or word that it waits again. */
  private resume(subAgent: string, answers: Map<string, Answer>): Promise<string> {
    const running = this.resuming.get(subAgent);
    if (running !== undefined) return running;
    const run = (async () => {
      const { loop, messages } = this.stopped.get(subAgent) ?? this.rebuilt(subAgent);
      const requests = new Map(messages.flatMap((m) => partsOf(m, "assistant")).flatMap((p) => (p.type === "tool-approval-request" ? [[p.toolCallId, p.approvalId] as const] : [])));
      const responses = loop.session
        .proposals()
        .filter((p) => p.status === "pending")
        .map((p) => ({ type: "tool-approval-response" as const, approvalId: String(requests.get(p.callId)), ...answers.get(p.actionId)! }));
      return (await this.run(subAgent, loop, [...messages, { role: "tool", content: responses }])).text;
    })();
    this.resuming.set(subAgent, run);
    return run.finally(() => this.resuming.delete(subAgent));
  }

  /** Child `subAgent`'s messages, rebuilt from the session after a restart: where it
   * stands (the core's resumption text), and its calls that wait, each with its request. */
  private rebuilt(subAgent: string): Stopped {
    const loop = this.loopOf(this.keeper.session.child(subAgent));
    const copy = Session.restore(this.keeper.session.snapshot());
    let where: string | null | undefined;
    try {
      where = copy.beginTurn({ message: "continue", nowMs: this.now() }).delegations.find((d) => d.callId === subAgent)?.message;
    } finally {
      copy.free();
    }
    const pending = loop.session.proposals().filter((p) => p.status === "pending");
    const goal = this.keeper.session.delegations().find((d) => d.callId === subAgent)?.goal ?? "";
    const messages: ModelMessage[] = [
      { role: "user", content: where ?? goal },
      {
        role: "assistant",
        content: [
          ...pending.map((p) => ({ type: "tool-call" as const, toolCallId: p.callId, toolName: p.tool, input: p.args })),
          ...pending.map((p) => ({ type: "tool-approval-request" as const, approvalId: `planloop:${p.actionId}`, toolCallId: p.callId })),
        ],
      },
    ];
    return { loop, messages };
  }

  /** Runs child `subAgent` with the SDK's own loop, from `messages`, to its end or to
   * calls that wait for the user. At its end, its capsule answers the delegate call. */
  private async run(subAgent: string, loop: Loop, messages: ModelMessage[]): Promise<SubAgentOutput> {
    const delegation = this.keeper.session.delegations().find((d) => d.callId === subAgent)!;
    const options = this.named.get(delegation.tool)!;
    let response: ModelMessage[];
    try {
      const result = await generateText({
        model: wrapLanguageModel({ model: options.model, middleware: loop.middleware }),
        tools: loop.tools(options.tools ?? {}),
        ...(options.instructions !== undefined ? { system: options.instructions } : {}),
        messages,
        stopWhen: stepCountIs(delegation.maxIterations),
      });
      // Every step's messages (AI SDK 7's `responseMessages`; 6 has them in `response`).
      response = (result.responseMessages as ModelMessage[] | undefined) ?? result.response.messages;
    } catch (error) {
      // A child that stopped on nothing it waits for has ended: its capsule says where.
      if (!this.waiting().some((w) => w.subAgent === subAgent)) this.keeper.delegated(subAgent);
      throw error;
    }
    const waits = this.waiting().filter((w) => w.subAgent === subAgent);
    if (waits.length === 0) {
      this.stopped.delete(subAgent);
      return { ...this.keeper.delegated(subAgent) };
    }
    this.stopped.set(subAgent, { loop, messages: [...messages, ...response] });
    return { status: "waiting", text: `Sub-agent ${subAgent} waits for the user's approval of ${waits.map((w) => shown(w.proposal)).join(", ")}.` };
  }
}
