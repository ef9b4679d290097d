// Scripted AI SDK model results (LanguageModelV3/V4: one shape in AI SDK 6 and 7), for
// the adapter and middleware tests: text and/or tool calls, generated or streamed.

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const finishReason = (calls) => ({ unified: calls.length > 0 ? "tool-calls" : "stop", raw: undefined });

/** A call's input as the provider sends it: JSON text (a string is sent as it is, so a
 * test can send text that is not JSON). */
const inputOf = (input) => (typeof input === "string" ? input : JSON.stringify(input));

/** A generate result with `text` and `calls` ([id, name, input] each). */
export function generated({ text, calls = [] }) {
  const content = [
    ...(text ? [{ type: "text", text }] : []),
    ...calls.map(([id, name, input]) => ({ type: "tool-call", toolCallId: id, toolName: name, input: inputOf(input) })),
  ];
  return { content, finishReason: finishReason(calls), usage, warnings: [] };
}

/** The same response as a stream result. */
export function streamed({ text, calls = [] }) {
  const parts = [
    { type: "stream-start", warnings: [] },
    ...(text ? [{ type: "text-start", id: "t" }, ...[...text].map((c) => ({ type: "text-delta", id: "t", delta: c })), { type: "text-end", id: "t" }] : []),
    ...calls.map(([id, name, input]) => ({ type: "tool-call", toolCallId: id, toolName: name, input: inputOf(input) })),
    { type: "finish", finishReason: finishReason(calls), usage },
  ];
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/** A mock model (`Mock`: MockLanguageModelV3 or V4) answering `script` in order,
 * generated or streamed. */
export function scripted(Mock, script) {
  let next = 0;
  return new Mock({ doGenerate: async () => generated(script[next++]), doStream: async () => streamed(script[next++]) });
}

/** planloop/ai-sdk bound to AI SDK 6 (installed as `ai-v6`), as a user of 6 gets it: the
 * package's middleware bundled with `ai` resolved to `ai-v6`, into `target/adapters/<name>.mjs`
 * (one name per test file: the files run at once). */
export async function createPlanloop6(name) {
  const { build } = await import("esbuild");
  const root = new URL("../../../", import.meta.url).pathname;
  const outfile = `${root}target/adapters/${name}.mjs`;
  const pkgPlanloop = {
    name: "planloop-from-pkg",
    setup(b) {
      b.onResolve({ filter: /^planloop$/ }, () => ({ path: `${root}pkg/planloop.mjs`, external: true }));
    },
  };
  await build({ entryPoints: [`${root}pkg/ai-sdk.mjs`], outfile, bundle: true, format: "esm", platform: "node", alias: { ai: "ai-v6" }, plugins: [pkgPlanloop], external: ["ai-v6"], logLevel: "error" });
  return (await import(outfile)).createPlanloop;
}
