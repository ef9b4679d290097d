// Which tools a session's tool policy can ever hold for approval, known before any call
// is made: a middleware gives its framework's approval hook only to those, so a tool the
// policy always classes as a read keeps the framework's own behaviour (the OpenAI Agents
// SDK asks for approval of any call it cannot parse once a tool has an approval function).
import type { ToolPolicy } from "planloop";

/**
 * Whether some call of `tool` can be classed `approve` under `policy`. It reads the policy
 * in the order the session does (rules on the tool first, then the approve list, the read
 * list and the default); a rule on an argument may or may not match a given call, so only
 * an approve rule or the fallback after the tool's rules decides. Standing grants only
 * turn approvals into reads, so they never make a tool gated.
 */
export function mayGate(policy: ToolPolicy | undefined, tool: string): boolean {
  for (const rule of policy?.rules ?? []) {
    if (rule.tool !== tool) continue;
    if (rule.class === "approve") return true;
    // A read rule without an argument matches every call: no later rule or list is read.
    if (rule.argument === undefined) return false;
  }
  if ((policy?.approve ?? []).includes(tool)) return true;
  if ((policy?.read ?? []).includes(tool)) return false;
  return (policy?.default ?? "approve") === "approve";
}
