// A turn's goal as a host hands it to the session and has it judged: what the runner
// and every middleware share (each bundles this file, as it does usage.ts).
import type { Decision, Goal, ItemEvidence, Session, SessionConfig, Verdict } from "planloop";

/** One goal for every user message, or one made from it (`undefined`: that turn has none). */
export type GoalSource = Goal | ((message: string) => Goal | undefined);

/** Judges a turn's goal under `completion: {verify: "host"}`. */
export type GoalJudge = (check: { goal: Goal; answer: string; evidence: ItemEvidence[] }) => Verdict | PromiseLike<Verdict>;

/** The goal of the turn `message` opens. */
export function goalFor(source: GoalSource | undefined, message: string): Goal | undefined {
  return typeof source === "function" ? source(message) : source;
}

/** Whether `config` has goals judged by the host but no one judges them. */
export function judgeMissing(config: SessionConfig | undefined, judge: GoalJudge | undefined): boolean {
  return config?.completion?.verify === "host" && judge === undefined;
}

/** The decision after `decision`: a `verifyGoal` one answered with `judge`'s verdict, any
 * other as it is. */
export async function judged(session: Session, decision: Decision, judge: GoalJudge | undefined, nowMs: () => number): Promise<Decision> {
  if (decision.type !== "verifyGoal") return decision;
  const { goal, answer, evidence } = decision;
  return session.handleVerdict(await judge!({ goal, answer, evidence }), nowMs());
}
