// What every framework middleware keeps beside its Session: which user message opened the
// turn (and how planloop rewrote it), which calls' results are awaited (a proposal's with
// its action id), the tool messages planloop wrote, and whether the next model call goes
// without tools. Each middleware reads its framework's messages and hands them here; the
// Session decides. The kept state is plain JSON, so a framework can persist it.
import { type Decision, type Goal, type Handoff, type ItemEvidence, type ModelResponse, Session, type SessionConfig, type SessionSnapshot, type ToolDefinition, type Verdict as GoalVerdict } from "planloop";

import { goalFor, judgeMissing, judged } from "../runner/goals.js";

/** A turn's goal check, for a `verifyGoal` judge: the goal, the model's answer, and the
 * receipts of each item of its list. */
export interface GoalCheck {
  goal: Goal;
  answer: string;
  evidence: ItemEvidence[];
}

/** Goals beside the checklist, as every middleware takes them. */
export interface GoalOptions {
  /** The goal of each turn, checked when its list is done as the config's `completion`
   * says (`verify: "nudge"`: the model confirms each criterion once; `"host"`:
   * `verifyGoal` judges). One goal for every turn, or one made from the user's message
   * (`undefined`: that turn has none). */
  goal?: Goal | ((message: string) => Goal | undefined);
  /** Judges a turn's goal under `completion: {verify: "host"}` (a second model, a test
   * run, the user): met ends the turn with the model's answer; not met sends the model
   * back to re-plan with `reason`. */
  verifyGoal?: (check: GoalCheck) => GoalVerdict | PromiseLike<GoalVerdict>;
}

/** Refuses goals no one would judge: a config with `completion.verify: "host"` and no
 * `verifyGoal` (when the middleware is made, not at the first goal). */
export function requireJudge(config: SessionConfig | undefined, goals: GoalOptions): void {
  if (judgeMissing(config, goals.verifyGoal)) {
    throw new Error('planloop: the config says completion.verify "host" but no verifyGoal was given: pass verifyGoal to judge each goal, or use verify "nudge"');
  }
}

/** How a middleware makes its session. */
export interface PlanloopOptions extends GoalOptions {
  /** The session's configuration (ignored when `snapshot` is given). */
  config?: SessionConfig;
  /** A saved session (`planloop.snapshot()`) to go on from. */
  snapshot?: SessionSnapshot | string;
  /** The clock, in milliseconds (Date.now by default). */
  now?: () => number;
}

/** A tool message planloop wrote: its answer to its own tool, or a result as the model
 * is to read it (reminders included). */
export interface Written {
  content: string;
  isError: boolean;
}

/** The latest user message of a prompt, as a middleware finds it: its text, and its id
 * where the framework gives messages one (LangChain does). */
export interface UserMessage {
  text: string;
  id?: string | undefined;
}

/** The turn's user message: what tells it apart (its id, else its text), and its text as
 * planloop wrote it (a resume summary, plan feedback). */
export interface TurnMessage {
  key: string;
  text: string;
}

/** The keeper's state besides the session, as plain JSON. */
export interface Kept {
  /** Whether the session's turn is open: a model call then goes on with it. */
  open: boolean;
  /** The message that opened the turn (none yet for an open turn taken over from state
   * saved before turns were told apart by their message). */
  turn: TurnMessage | null;
  /** Calls whose results the session awaits, each with its proposal's action id (or null). */
  awaited: Record<string, string | null>;
  /** planloop's tool messages of this turn, by call id. */
  written: Record<string, Written>;
  /** Calls planloop answered in place of running them: its own tools, a call repeating
   * another of the same response, calls held back for a plan review. A framework must not
   * run these (a repeated write was approved once, as its first). Absent in state saved
   * before it was kept. */
  answered?: Record<string, true>;
  /** Whether the next model call goes without tools (the turn's last iteration). */
  withhold: boolean;
}

/** The whole of it, for a framework's state or context. */
export interface Saved extends Kept {
  snapshot: SessionSnapshot;
}

/** A tool result as a framework carries it; `denied` when the user refused the call;
 * `child` when a sub-agent with a planloop of its own answered a delegation (its
 * snapshot, from which the session makes the capsule). */
export interface Result {
  id: string;
  output: string;
  isError: boolean;
  denied?: boolean;
  child?: SessionSnapshot | undefined;
}

/** What a model response comes to: planloop's decision, the nudge to send back for a
 * premature stop, or the text the run ends with (a limit, a plan review). */
export interface Verdict {
  decision: Decision;
  nudge: string | null;
  ending: string | null;
}

/** The session each capsule a sub-agent's planloop handed back was made from, for its
 * parent's planloop in the same process (the AI SDK's sub-agent tool returns the capsule
 * object; its parent's `tools()` sees it): the parent makes the delegate call's result
 * from that session, never from the capsule's words. */
export const capsuleSessions = new WeakMap<object, SessionSnapshot>();

/** The names of the tools whose calls `session` reads as delegate calls (none while
 * delegation is off). */
export function delegateTools(session: Session): Set<string> {
  const delegation = session.snapshot().config.delegation;
  return new Set(delegation?.enabled === true ? delegation.toolNames : []);
}

/** The tools planloop answers itself, for a framework to offer the model beside yours:
 * a delegate tool is yours (a sub-agent tool), not planloop's. */
export function plannerDefinitions(session: Session): ToolDefinition[] {
  const delegates = delegateTools(session);
  return session.toolDefinitions().filter((definition) => !delegates.has(definition.name));
}

/** A decision that ends the session's turn. */
const ENDS = new Set<Decision["type"]>(["finalize", "pause", "fail", "awaitPlanReview"]);

/** What a keeper knows of a session it did not drive (one restored from a snapshot): its
 * open turn, opened by the message the snapshot keeps, and the calls that turn awaits,
 * held ones with their proposals' action ids. */
function kept(session: Session, nowMs: number): Kept {
  const { turn } = session.snapshot();
  const awaited: Record<string, string | null> = {};
  if (turn?.open !== true) return { open: false, turn: null, awaited, written: {}, withhold: false };
  for (const call of turn.pending) if (!call.answered) awaited[call.id] = null;
  for (const proposal of session.proposals()) if (proposal.status === "pending") awaited[proposal.callId] = proposal.actionId;
  const withhold = session.nextCall(nowMs).toolsWithheld;
  return { open: true, turn: { key: turn.message, text: turn.message }, awaited, written: {}, withhold };
}

/** Kept state saved before turns were told apart by their message (it counted user
 * messages): its turn, if open, has no message yet and goes on with the next one. */
function upgraded(saved: Omit<Saved, "snapshot">, session: Session): Kept {
  if (typeof (saved as Partial<Kept>).open === "boolean") return saved;
  return { ...saved, open: session.snapshot().turn?.open === true, turn: null };
}

export class Keeper {
  readonly session: Session;
  kept: Kept;
  private readonly now: () => number;
  /** Sub-agents' sessions by the call they answer, until its result comes (not kept). */
  private readonly children = new Map<string, SessionSnapshot>();
  private readonly goals: GoalOptions;

  /** `session`: a session made elsewhere to keep, such as a sub-agent's inside its parent. */
  constructor(
    from: { config?: SessionConfig; saved?: Saved | undefined; snapshot?: SessionSnapshot | string | undefined; session?: Session },
    now: () => number,
    goals: GoalOptions = {},
  ) {
    this.now = now;
    this.goals = goals;
    if (from.session !== undefined) {
      this.session = from.session;
      // Its parent began its turn with the task: the first user message it is run with is that turn's.
      this.kept = { ...kept(this.session, now()), turn: null };
    } else if (from.saved !== undefined) {
      const { snapshot, ...saved } = from.saved;
      this.session = Session.restore(snapshot);
      this.kept = upgraded(saved, this.session);
    } else if (from.snapshot !== undefined) {
      this.session = Session.restore(from.snapshot);
      this.kept = kept(this.session, now());
    } else {
      this.session = new Session(from.config);
      this.kept = kept(this.session, now());
    }
    requireJudge(this.session.snapshot().config, goals);
  }

  /**
   * The latest user message of a prompt, before each model call. It opens a turn when it
   * is not the one that opened the turn in progress, or when no turn is in progress (the
   * last one ended: a second `generateText`, "continue" after a pause, a new run); a new
   * message ends the turn before it (what that awaited is dropped). Counting messages
   * would not do: a chat UI sends only the last few, a summary replaces the old ones.
   * A message is told apart by its id where it has one, else by its text.
   */
  user(latest: UserMessage | null): void {
    if (latest === null) return;
    const key = latest.id ?? latest.text;
    const turn = this.kept.turn;
    if (this.kept.open && turn === null) {
      this.kept.turn = { key, text: latest.text };
      return;
    }
    if (this.kept.open && turn?.key === key) return;
    const goal = goalFor(this.goals.goal, latest.text);
    const started = this.session.beginTurn({ message: latest.text, nowMs: this.now(), ...(goal !== undefined ? { goal } : {}) });
    this.kept = { open: true, turn: { key, text: started.message }, awaited: {}, written: {}, answered: {}, withhold: started.next.toolsWithheld };
  }

  /** The text the model gets for the latest user message: as planloop wrote it when it
   * opened the turn, else as it is. */
  shown(latest: UserMessage): string {
    const turn = this.kept.turn;
    return turn !== null && turn.key === (latest.id ?? latest.text) ? turn.text : latest.text;
  }

  /** Hands the session the awaited results among `results` (others are skipped): a
   * proposal's result approves it first, a denial rejects it with its text as the reason. */
  results(results: Result[]): void {
    const given: Result[] = [];
    const taken: string[] = [];
    for (const result of results) {
      if (!(result.id in this.kept.awaited) || this.childWaits(result.id)) continue;
      const actionId = this.kept.awaited[result.id]!;
      const child = this.childOf(result);
      if (actionId !== null && result.denied === true) {
        this.reject(result.id, result.output.length > 0 ? result.output : undefined);
      } else if (child !== undefined) {
        this.delegated(result.id, child);
      } else {
        this.approve(result.id);
        given.push(result);
      }
      // Once handed over, never again: not later in this batch (a result given twice)...
      delete this.kept.awaited[result.id];
      taken.push(result.id);
    }
    // ...nor after it: the decision that resumed the turn (on the last of its proposals
    // resolved, here or before) names the calls it runs once more.
    for (const id of taken) {
      delete this.kept.awaited[id];
      this.children.delete(id);
    }
    if (given.length === 0) return;
    const outcome = this.session.handleToolResults(
      given.map((r) => ({ id: r.id, output: r.output, isError: r.isError })),
      this.now(),
    );
    for (const m of outcome.messages) this.kept.written[m.toolCallId] = { content: m.content, isError: m.isError };
    this.kept.withhold = outcome.next.toolsWithheld;
  }

  /** Keeps the session of the sub-agent that answers call `callId`, for its result. */
  adopt(callId: string, child: SessionSnapshot): void {
    this.children.set(callId, child);
  }

  /** The sub-agent's session behind a result, when the result answers a delegation. */
  private childOf(result: Result): SessionSnapshot | undefined {
    const child = result.child ?? this.children.get(result.id);
    return child !== undefined && this.session.delegations().some((d) => d.callId === result.id) ? child : undefined;
  }

  /** Whether delegation `callId`'s child, inside this session, waits for the user: what
   * its tool returned meanwhile is not its result (its capsule will be). */
  private childWaits(callId: string): boolean {
    return this.session.proposals().some((p) => p.status === "pending" && p.chain?.some((link) => link.callId === callId) === true);
  }

  /** Ends delegation `callId` with its child's capsule (`child`: the snapshot of a
   * sub-agent that ran as a session of its own; without it, the child inside this
   * session): the capsule is the call's result, awaited no more. */
  delegated(callId: string, child?: SessionSnapshot): Handoff {
    const outcome = this.session.finishDelegation(callId, undefined, this.now(), child);
    for (const m of outcome.messages) this.kept.written[m.toolCallId] = { content: m.content, isError: m.isError };
    this.kept.withhold = outcome.next.toolsWithheld;
    delete this.kept.awaited[callId];
    this.children.delete(callId);
    return outcome.capsule;
  }

  /** planloop's system prompt, the caller's own (`base`) first. */
  systemPrompt(base: string): string {
    return this.session.systemPrompt({ base }, this.now()).prompt;
  }

  /** Hands the session a model response; a goal to check goes to `verifyGoal` first. */
  async respond(response: ModelResponse): Promise<Verdict> {
    const decision = await judged(this.session, this.session.handleModelResponse(response, this.now()), this.goals.verifyGoal, this.now);
    this.remember(decision);
    if (ENDS.has(decision.type)) this.kept.open = false;
    const nudge = decision.type === "continue" ? decision.message : null;
    const ending = decision.type === "pause" ? decision.summary : decision.type === "fail" || decision.type === "awaitPlanReview" ? decision.message : null;
    return { decision, nudge, ending };
  }

  /** Approves the proposal that holds call `callId`, if one does (with the arguments the
   * call runs with, when they are not the proposed ones): its result is then awaited as
   * any other call's. A host that runs a held call only once the user approved it says
   * so here, so the approval is in the session's state before the result comes. */
  approve(callId: string, editedArgs?: unknown): Decision | null {
    const actionId = this.kept.awaited[callId];
    if (actionId === null || actionId === undefined) return null;
    const resumed = this.session.approve(actionId, editedArgs === undefined ? undefined : { editedArgs }, this.now()).resumed;
    this.kept.awaited[callId] = null;
    this.remember(resumed);
    return resumed ?? null;
  }

  /** Rejects the proposal that holds call `callId`, if one does (`message` for the model
   * to read why): its result is planloop's rejection, awaited no more. Either returns
   * the decision that resumes the turn, when this was the last proposal resolved. */
  reject(callId: string, message?: string): Decision | null {
    const actionId = this.kept.awaited[callId];
    if (actionId === null || actionId === undefined) return null;
    const resumed = this.session.reject(actionId, message === undefined ? undefined : { message }, this.now()).resumed;
    delete this.kept.awaited[callId];
    this.remember(resumed);
    return resumed ?? null;
  }

  /** planloop's answer to a call it answered in place of running it: the framework
   * gives this as the call's result and does not run the tool. */
  answeredInstead(callId: string): Written | undefined {
    return this.kept.answered?.[callId] === true ? this.kept.written[callId] : undefined;
  }

  /** Whether planloop holds this call for approval. */
  held(callId: string): boolean {
    return (this.kept.awaited[callId] ?? null) !== null;
  }

  /** Keeps what a decision asks of the loop: replies written, calls awaited. */
  remember(decision: Decision | null | undefined): void {
    if (decision === null || decision === undefined) return;
    if (decision.type !== "runTools" && decision.type !== "awaitApproval" && decision.type !== "awaitPlanReview") return;
    const answered = (this.kept.answered ??= {});
    for (const reply of decision.replies) {
      this.kept.written[reply.toolCallId] = { content: reply.content, isError: reply.isError };
      answered[reply.toolCallId] = true;
    }
    if (decision.type === "awaitPlanReview") return;
    for (const call of decision.calls) this.kept.awaited[call.id] = null;
    for (const delegation of decision.delegations) this.kept.awaited[delegation.callId] = null;
    if (decision.type === "awaitApproval") for (const proposal of decision.proposals) this.kept.awaited[proposal.callId] = proposal.actionId;
    if (decision.type === "runTools") this.kept.withhold = decision.next.toolsWithheld;
  }

  saved(): Saved {
    return { ...this.kept, snapshot: this.session.snapshot() };
  }
}
