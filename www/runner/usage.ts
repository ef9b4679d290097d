// A model's token counts as planloop takes them, from any framework's or provider's
// report: the runner's adapters and the middleware read usage through this one function.
import type { ModelResponse } from "planloop";

/** A token count as planloop takes it: a whole number from 0 to 2^32 - 1. */
function count(n: unknown): number | undefined {
  return typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= 0xffffffff ? n : undefined;
}

/** A response's `usage` from its input and output token counts: a count that is not a
 * whole number in range (a provider's quirk: null, NaN, a string) is left out, never a
 * reason to fail the turn; none at all gives no usage. */
export function usageOf(input: unknown, output: unknown): ModelResponse["usage"] {
  const [inputTokens, outputTokens] = [count(input), count(output)];
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  return { ...(inputTokens !== undefined ? { inputTokens } : {}), ...(outputTokens !== undefined ? { outputTokens } : {}) };
}
