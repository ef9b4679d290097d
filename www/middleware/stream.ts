// A model's stream as the AI SDK middleware passes it on: text as it comes, tool calls
// held until the response is complete and planloop has decided on it. A refused stop
// goes on in the same stream with the model's next response; a pause or a failure ends
// it with planloop's text in place of the held calls.
import type { ProviderPart, ProviderUsage } from "./prompt.js";

/** A stream part, as far as planloop reads it. */
export interface StreamPart {
  type: string;
  id?: string;
  delta?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  /** A `finish` part's token counts. */
  usage?: ProviderUsage;
}

/** After a complete response: the stream to go on with, or the text to end with (null:
 * the response stands). */
export type Verdict = { next: PromiseLike<ReadableStream<StreamPart>> } | { ending: string | null };

const HELD = new Set(["tool-input-start", "tool-input-delta", "tool-input-end", "tool-call"]);
/** Parts whose `id` names a text or reasoning block: renamed in later responses so that
 * blocks of two responses never share an id. */
const BLOCKS = /^(text|reasoning)-(start|delta|end)$/;

export function continuedStream(first: ReadableStream<StreamPart>, decide: (content: ProviderPart[], usage: ProviderUsage | undefined) => Promise<Verdict>): ReadableStream<StreamPart> {
  let reader = first.getReader();
  let round = 0;
  let started = false;
  let text = "";
  let held: StreamPart[] = [];
  return new ReadableStream<StreamPart>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        const part = round > 0 && BLOCKS.test(value.type) ? { ...value, id: `${value.id}.${round}` } : value;
        if (part.type === "stream-start") {
          if (started) continue;
          started = true;
        } else if (part.type === "text-delta") {
          text += part.delta ?? "";
        } else if (HELD.has(part.type)) {
          held.push(part);
          continue;
        } else if (part.type === "finish") {
          const calls = held.filter((p) => p.type === "tool-call").map((p) => ({ type: "tool-call", toolCallId: p.toolCallId, toolName: p.toolName, input: p.input }));
          const verdict = await decide([...(text.length > 0 ? [{ type: "text", text }] : []), ...calls], part.usage);
          if ("next" in verdict) {
            reader = (await verdict.next).getReader();
            round += 1;
            text = "";
            held = [];
            continue;
          }
          if (verdict.ending === null) {
            for (const h of held) controller.enqueue(h);
            controller.enqueue(part);
          } else {
            const id = `planloop.${round}`;
            controller.enqueue({ type: "text-start", id });
            controller.enqueue({ type: "text-delta", id, delta: verdict.ending });
            controller.enqueue({ type: "text-end", id });
            controller.enqueue({ ...part, finishReason: { unified: "stop", raw: undefined } } as StreamPart);
          }
          held = [];
          return;
        }
        controller.enqueue(part);
        return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** A stream of `parts`, for a model call planloop answers itself. */
export function streamOf(parts: StreamPart[]): ReadableStream<StreamPart> {
  return new ReadableStream<StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
