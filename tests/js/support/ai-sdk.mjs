// Scripted AI SDK model results (LanguageModelV3/V4: one shape in AI SDK 6 and 7), for
// the adapter and middleware tests: text and/or tool calls, generated or streamed.

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const finishReason = (calls) => ({ unified: calls.length > 0 ? "tool-calls" : "stop", raw: undefined });

/** A generate result with `text` and `calls` ([id, name, input] each). */
export function generated({ text, calls = [] }) {
  const content = [
    ...(text ? [{ type: "text", text }] : []),
    ...calls.map(([id, name, input]) => ({ type: "tool-call", toolCallId: id, toolName: name, input: JSON.stringify(input) })),
  ];
  return { content, finishReason: finishReason(calls), usage, warnings: [] };
}

/** The same response as a stream result. */
export function streamed({ text, calls = [] }) {
  const parts = [
    { type: "stream-start", warnings: [] },
    ...(text ? [{ type: "text-start", id: "t" }, ...[...text].map((c) => ({ type: "text-delta", id: "t", delta: c })), { type: "text-end", id: "t" }] : []),
    ...calls.map(([id, name, input]) => ({ type: "tool-call", toolCallId: id, toolName: name, input: JSON.stringify(input) })),
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
