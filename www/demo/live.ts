// The demo's live mode (`make demo-live`, the page opened with `?live`): the page's runner
// drives a tiny local model through the test server (tests/live/server.mjs), which the demo
// server passes through at /v1 so the page stays same-origin. Tokens per second come from
// each reply's `usage` and the server's `timings`, with the wall time measured here.

export const LIVE_LABEL = "A tiny local model (SmolLM2-135M)";

interface Reply {
  model?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  timings?: { predicted_per_second?: number | null };
}

/** A fetch for `openAIChatModel` that shows, after each chat completion, its tokens and speed. */
export function measuredFetch(show: (line: string) => void): typeof fetch {
  let calls = 0;
  let generated = 0;
  let seconds = 0;
  return async (input, init) => {
    const started = performance.now();
    const response = await fetch(input, init);
    if (!response.ok) return response;
    const reply = (await response.clone().json()) as Reply;
    const elapsed = (performance.now() - started) / 1000;
    const completion = reply.usage?.completion_tokens ?? 0;
    calls += 1;
    generated += completion;
    seconds += elapsed;
    const speed = reply.timings?.predicted_per_second;
    show(
      [
        `${LIVE_LABEL}${reply.model ? `, ${reply.model}` : ""}`,
        `call ${calls}: ${completion} tokens in ${elapsed.toFixed(1)} s (prompt ${reply.usage?.prompt_tokens ?? "?"} tokens)`,
        speed ? `generation ${speed} tokens/s` : null,
        `${(generated / seconds).toFixed(1)} tokens/s over ${calls} call${calls === 1 ? "" : "s"}, prompts included`,
      ]
        .filter(Boolean)
        .join(" · "),
    );
    return response;
  };
}
