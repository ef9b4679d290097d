// The reference chain runner: a small ReAct loop that drives a planloop Session exactly
// as its drive contract says. The host brings the model (a ChatModel), its tools, an
// approval callback, an event sink and a snapshot store; planloop decides every step. A
// delegate call runs as a sub-agent, its child session driven through the same loop.
import type {
  Composed,
  Decision,
  Delegation,
  Event,
  ModelResponse,
  NextCall,
  PlanReview,
  PromptParts,
  Proposal,
  Resumption,
  Session,
  ToolCall,
  ToolDefinition,
  ToolMessage,
} from "planloop";

import { type ChatMessage, callIds, distinctIds, mend, readConversation } from "./conversation.js";
import { type GoalJudge, type GoalSource, goalFor, judgeMissing, judged } from "./goals.js";
import { usageOf } from "./usage.js";

export type { ChatMessage };

/** What the runner asks of a model: the conversation and the tools it may call now. */
export interface ChatRequest {
  messages: ChatMessage[];
  /** Empty when planloop withholds tools (the last call of a turn). */
  tools: ToolDefinition[];
}

/** A chat model; adapters wrap LangChain.js, the AI SDK or an OpenAI-compatible endpoint. */
export interface ChatModel {
  complete(request: ChatRequest): Promise<ModelResponse>;
}

/** A host tool: what the model sees, and what runs it. */
export interface HostTool {
  definition: ToolDefinition;
  run(args: unknown): Promise<unknown> | unknown;
}

/** The user's word on a proposal. */
export type Verdict =
  | { approve: true; editedArgs?: unknown; scope?: "once" | "always" }
  | { approve: false; message?: string };

/** Where a conversation is kept between runs: a file, localStorage, a database row. */
export interface SnapshotStore {
  load(): Promise<string | null> | string | null;
  save(text: string): Promise<void> | void;
}

export interface RunnerOptions {
  session: Session;
  model: ChatModel;
  tools?: HostTool[];
  /** The agent's own prompt and components; the session adds the plan and the budget. */
  prompt?: PromptParts;
  /** Asked for each proposal; without it, every proposal is rejected. */
  approve?: (proposal: Proposal) => Promise<Verdict> | Verdict;
  /** The model a sub-agent works with, asked once per delegation (the runner's `model`
   * unless given): a smaller model, or a scripted one per delegate call. */
  subAgentModel?: (delegation: Delegation) => ChatModel;
  /** The goal of each user message, checked when its list is done as the session's
   * `completion` config says: one for every message, or one made from it (`undefined`:
   * none). */
  goal?: GoalSource;
  /** Judges a goal under `completion: {verify: "host"}` (a second model, a test run, the
   * user): met ends the turn; not met sends the model back to re-plan with `reason`. */
  verifyGoal?: GoalJudge;
  /** The events of the session and of its sub-agents, as they come. */
  onEvent?: (event: Event) => void;
  store?: SnapshotStore;
  /** The clock planloop reads (`Date.now` unless given). */
  now?: () => number;
}

/** How a user message ended. */
export type TurnOutcome =
  | { type: "finalize"; answer: string; exitReason: string }
  | { type: "pause" | "fail"; summary: string; exitReason: string }
  | { type: "awaitPlanReview"; message: string; review: PlanReview };

/** A conversation the runner drives: the user's with the session, or a sub-agent's with
 * the child session of a delegation, kept only while the child works (its capsule is what
 * the parent's conversation keeps). Both go through one loop, and are saved after each
 * step. */
interface Conversation {
  session: Session;
  model: ChatModel;
  messages: ChatMessage[];
  /** The delegate calls it descends from: none for the user's. */
  path: string[];
}

/** What a runner keeps besides the session: the conversation, and those of the sub-agents
 * at work, by their path (`JSON.stringify` of its call ids), for "continue" to resume. */
interface Saved {
  snapshot: unknown;
  messages: ChatMessage[];
  children?: Record<string, unknown>;
}

/** A model response the session refused (planloop's error is the `cause`: more calls than a
 * response may carry, arguments nested too deep, a call without a name…). The runner keeps
 * it out of the conversation, so no call of it is left unanswered, and ends the turn with
 * this error, as when the model throws; the next `send` starts afresh. */
export class ResponseRefusedError extends Error {
  override name = "ResponseRefusedError" as const;
  readonly code = "response_refused" as const;
  /** The response as the session was given it (ids made distinct). */
  readonly response: ModelResponse;

  constructor(response: ModelResponse, cause: unknown) {
    super(`the session refused the model's response: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.response = response;
  }
}

export class ChainRunner {
  private readonly main: Conversation;
  /** The sub-agents at work, by path; and those a restore brought back, until the next
   * message resumes them or ends their turn. */
  private readonly working = new Map<string, Conversation>();
  private resumable = new Map<string, ChatMessage[]>();
  private readonly options: RunnerOptions;
  private readonly now: () => number;
  /** The work in progress: each `send` and `restore` starts when the one before it ends. */
  private queue: Promise<unknown> = Promise.resolve();
  private running = 0;

  constructor(options: RunnerOptions) {
    this.options = options;
    this.main = { session: options.session, model: options.model, messages: [], path: [] };
    this.now = options.now ?? Date.now;
    if (judgeMissing(options.session.snapshot().config, options.verifyGoal)) {
      throw new TypeError('the session\'s completion.verify is "host": give the runner verifyGoal to judge each goal');
    }
  }

  /** The user's session; it answers the approvals of its sub-agents too. */
  get session(): Session {
    return this.main.session;
  }

  set session(session: Session) {
    this.main.session = session;
  }

  /** The user's conversation (a sub-agent's shows in it as its capsule). */
  get messages(): ChatMessage[] {
    return this.main.messages;
  }

  set messages(messages: ChatMessage[]) {
    this.main.messages = messages;
  }

  /** True while a `send` or `restore` is running or waiting its turn (a UI can disable its
   * Send button on it). */
  get busy(): boolean {
    return this.running > 0;
  }

  /** Restores the session and the conversation from the store, if it holds one; saved in
   * the middle of a sub-agent's work, "continue" resumes it where it was. A saved
   * conversation a provider would refuse (one written before this runner kept it well-formed)
   * is mended; what is not a conversation at all is refused with a TypeError, and the
   * runner keeps what it had. */
  restore(restore: (snapshot: unknown) => Session): Promise<boolean> {
    return this.serialized(async () => {
      const text = await this.options.store?.load();
      if (text == null) return false;
      const saved = JSON.parse(text) as Partial<Saved> | null;
      const note = "No result was saved for this call.";
      const conversation = readConversation(saved?.messages);
      const children = Object.entries(saved?.children ?? {}).map(([path, messages]) => [path, mend(readConversation(messages), note)] as const);
      const session = restore(saved?.snapshot);
      this.session = session;
      this.messages = mend(conversation, note, awaited(session));
      this.resumable = new Map(children);
      return true;
    });
  }

  /** Runs one user message to its end: an answer, a pause, a failure or a plan review.
   * Messages sent while one is running wait their turn, in order: two turns never mix.
   * When the model, a tool, the approval callback or the store throws, or the session
   * refuses a response (`ResponseRefusedError`) or a result, the conversation is left
   * well-formed (every tool call answered) before the error reaches the caller. */
  send(message: string): Promise<TurnOutcome> {
    return this.serialized(async () => {
      try {
        return await this.turn(message);
      } catch (error) {
        // (Sub-agents at work stay so: "continue" resumes them.)
        this.messages = mend(this.messages, "No result: the turn stopped with an error.", awaited(this.session));
        throw error;
      }
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    this.running += 1;
    const run = this.queue.then(work).finally(() => {
      this.running -= 1;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async turn(message: string): Promise<TurnOutcome> {
    const goal = goalFor(this.options.goal, message);
    const start = this.session.beginTurn({ message, nowMs: this.now(), ...(goal !== undefined ? { goal } : {}) });
    if (start.delegations.length > 0) return this.goOn(this.main, start.delegations, message);
    // A turn left with sub-agents at work ended with them.
    this.resumable.clear();
    this.messages = mend(this.messages, "Not run: the turn ended before this call ran.");
    this.messages.push({ role: "user", content: start.message });
    return this.drive(this.main, start.next.toolsWithheld);
  }

  /** "continue" while sub-agents were at work: resumes them (`resumed`), with their saved
   * conversations or, lost, the message the session gives each, runs the delegations not
   * begun, then goes on with the conversation that waited on them. */
  private async goOn(c: Conversation, resumed: Resumption[], message: string): Promise<TurnOutcome> {
    const next = await this.delegate(c, c.session.delegations(), { resumed, message });
    return this.drive(c, (next ?? c.session.nextCall(this.now())).toolsWithheld);
  }

  /** Calls the conversation's model and follows the session's decisions until the turn
   * (the user's, or a sub-agent's) is over. */
  private async drive(c: Conversation, toolsWithheld: boolean): Promise<TurnOutcome> {
    for (;;) {
      const answer = await c.model.complete(this.request(c, toolsWithheld));
      const usage = usageOf(answer.usage?.inputTokens, answer.usage?.outputTokens);
      const response: ModelResponse = { text: answer.text ?? null, toolCalls: distinctIds(answer.toolCalls ?? [], callIds(c.messages)), ...(usage !== undefined ? { usage } : {}) };
      let decision: Decision | null;
      try {
        decision = c.session.handleModelResponse(response, this.now());
      } catch (cause) {
        throw new ResponseRefusedError(response, cause);
      }
      // Only a response the session took joins the conversation.
      c.messages.push({ role: "assistant", content: response.text ?? null, toolCalls: calls(response) });
      decision = await judged(c.session, decision, this.options.verifyGoal, this.now);
      while (decision?.type === "awaitApproval") decision = await this.settle(c, decision);
      const outcome = await this.follow(c, decision);
      // A turn can end with calls of its last response not run (a limit, a model stuck
      // in a loop): each gets a result saying so before the conversation is saved.
      if (outcome.done) c.messages = mend(c.messages, "Not run: the turn ended before this call ran.");
      this.flush(c.session);
      await this.save();
      if (outcome.done) return outcome.done;
      toolsWithheld = outcome.toolsWithheld;
    }
  }

  /** The conversation with the session's system prompt first, and the tools allowed now. */
  private request(c: Conversation, toolsWithheld: boolean): ChatRequest {
    const prompt: Composed = c.session.systemPrompt(this.options.prompt ?? { base: "" }, this.now());
    const tools = [...c.session.toolDefinitions(), ...(this.options.tools ?? []).map((t) => t.definition)];
    return { messages: [{ role: "system", content: prompt.prompt }, ...c.messages], tools: toolsWithheld ? [] : tools };
  }

  /** Runs the read calls, asks about every proposal at once (a UI shows them side by
   * side), applies each verdict as it comes, runs the delegations, and returns how the
   * turn resumes. Verdicts go to the user's session, which hands a sub-agent's to it; the
   * decision resumed is then the sub-agent's. */
  private async settle(c: Conversation, decision: Extract<Decision, { type: "awaitApproval" }>): Promise<Decision | null> {
    this.append(c, decision.replies);
    await this.run(c, decision.calls);
    let resumed = null as Decision | null;
    const decide = async (proposal: Proposal) => {
      const verdict = (await this.options.approve?.(proposal)) ?? { approve: false, message: "No one was asked." };
      const outcome = verdict.approve
        ? this.session.approve(proposal.actionId, { editedArgs: verdict.editedArgs, scope: verdict.scope ?? "once" }, this.now())
        : this.session.reject(proposal.actionId, verdict.message === undefined ? {} : { message: verdict.message }, this.now());
      resumed = outcome.resumed ?? resumed;
    };
    // Every verdict is in before the turn goes on, or before an error leaves it.
    const settled = await Promise.allSettled(decision.proposals.map(decide));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failed) throw failed.reason;
    // The calls the user let through run first, so that while a sub-agent works its
    // parent waits on nothing but delegate calls (all a restart then has to resume).
    if (resumed?.type === "runTools") {
      this.append(c, resumed.replies);
      await this.run(c, resumed.calls);
      resumed = { ...resumed, replies: [], calls: [] };
    }
    // The sub-agents run once the user has answered what waits. They spend the turn's
    // budget, so their `next` is the one to go by.
    const next = await this.delegate(c, decision.delegations);
    return next && resumed?.type === "runTools" ? { ...resumed, next } : resumed;
  }

  /** Does what a decision asks; `done` when the turn is over. */
  private async follow(c: Conversation, decision: Decision | null): Promise<{ done?: TurnOutcome; toolsWithheld: boolean }> {
    switch (decision?.type) {
      case "runTools": {
        this.append(c, decision.replies);
        await this.run(c, decision.calls);
        const next = (await this.delegate(c, decision.delegations)) ?? decision.next;
        return { toolsWithheld: next.toolsWithheld };
      }
      case "continue":
        c.messages.push({ role: "user", content: decision.message });
        return { toolsWithheld: decision.next.toolsWithheld };
      case "finalize":
        return { done: { type: "finalize", answer: decision.answer, exitReason: decision.exitReason }, toolsWithheld: false };
      case "pause":
      case "fail": {
        const summary = decision.type === "pause" ? decision.summary : decision.message;
        return { done: { type: decision.type, summary, exitReason: decision.exitReason }, toolsWithheld: false };
      }
      case "awaitPlanReview":
        this.append(c, decision.replies);
        return { done: { type: "awaitPlanReview", message: decision.message, review: decision.review }, toolsWithheld: false };
      default:
        throw new Error("the turn resumed with no decision");
    }
  }

  /** Runs host calls and hands their results to the session. */
  private async run(c: Conversation, toolCalls: ToolCall[]): Promise<void> {
    if (toolCalls.length === 0) return;
    const registry = new Map((this.options.tools ?? []).map((t) => [t.definition.name, t]));
    const results = [];
    for (const call of toolCalls) {
      const tool = registry.get(call.name);
      const started = this.now();
      try {
        if (!tool) throw new Error(`no tool named ${call.name}`);
        results.push({ id: call.id, output: await tool.run(call.args), durationMs: this.now() - started });
      } catch (error) {
        results.push({ id: call.id, output: String(error instanceof Error ? error.message : error), isError: true });
      }
    }
    this.append(c, c.session.handleToolResults(results, this.now()).messages);
  }

  /** Runs each delegation as a sub-agent: its child session, driven with the sub-agent
   * model, the same tools and the same approvals, until its turn is over; its capsule then
   * answers the delegate call. A child `continuing` names is resumed rather than begun.
   * Returns the last `next` (the children spent the parent's budget), or null when there
   * was none. */
  private async delegate(c: Conversation, delegations: Delegation[], continuing?: { resumed: Resumption[]; message: string }): Promise<NextCall | null> {
    let next: NextCall | null = null;
    for (const delegation of delegations) {
      const path = [...c.path, delegation.callId];
      const key = JSON.stringify(path);
      const resumed = continuing?.resumed.find((r) => r.callId === delegation.callId);
      const start = resumed ? null : c.session.beginDelegation(delegation.callId, this.now());
      // The parent's events so far come before the child's.
      this.flush(c.session);
      const model = this.options.subAgentModel?.(delegation) ?? this.options.model;
      const brief = start?.message ?? resumed?.message;
      const messages = this.resumable.get(key) ?? (brief == null ? [] : [{ role: "user" as const, content: brief }]);
      this.resumable.delete(key);
      const child: Conversation = { session: c.session.child(delegation.callId), model, messages, path };
      this.working.set(key, child);
      try {
        if (start !== null) await this.drive(child, start.next.toolsWithheld);
        else if (resumed?.message === null) await this.goOn(child, child.session.beginTurn({ message: continuing!.message, nowMs: this.now() }).delegations, continuing!.message);
        else await this.drive(child, child.session.nextCall(this.now()).toolsWithheld);
      } catch (error) {
        // Kept for a "continue" in this runner, as a restore would bring it back.
        this.resumable.set(key, mend(child.messages, "No result: the turn stopped with an error.", awaited(child.session)));
        throw error;
      } finally {
        this.working.delete(key);
        // A child's handle holds no state (the child lives in its parent): release it now.
        child.session.free();
      }
      const outcome = c.session.finishDelegation(delegation.callId, undefined, this.now());
      this.append(c, outcome.messages);
      next = outcome.next;
    }
    return next;
  }

  private append(c: Conversation, messages: ToolMessage[]): void {
    for (const m of messages) c.messages.push({ role: "tool", toolCallId: m.toolCallId, name: m.name, content: m.content, isError: m.isError });
  }

  private flush(session: Session): void {
    for (const event of session.drainEvents()) this.options.onEvent?.(event);
  }

  private async save(): Promise<void> {
    const children = Object.fromEntries([...this.working].map(([key, c]) => [key, c.messages]));
    const saved: Saved = { snapshot: this.session.snapshot(), messages: this.messages, ...(this.working.size > 0 ? { children } : {}) };
    await this.options.store?.save(JSON.stringify(saved));
  }
}

/** The delegate calls `session` waits on, whose results are its sub-agents' to give. */
function awaited(session: Session): Set<string> {
  return new Set(session.delegations().map((d) => d.callId));
}

/** A response's tool calls as the conversation records them. */
function calls(response: ModelResponse): ToolCall[] {
  return (response.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, args: typeof c.args === "string" ? parse(c.args) : c.args }));
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
