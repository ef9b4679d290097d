// A ChatModel for any OpenAI-compatible chat-completions endpoint, over fetch: the
// planner tools' JSON Schemas go out as `tools`, `tool_calls` come back as tool calls.
// Local servers (llama.cpp, llama-cpp-python, vLLM, Ollama) need what hosted APIs
// assume: an explicit `tool_choice` (without it some ignore the tools) and a token cap
// (without one a small model can generate for many minutes), so both are sent, and every
// request can be cancelled and timed out. A failure of the request itself is a
// `ModelRequestError` with a `code`, never a bare `TypeError: fetch failed`.
import type { ModelResponse } from "planloop";

import type { ChatMessage, ChatModel, ChatRequest } from "./chain.js";
import { usageOf } from "./usage.js";

/** Which tool the model may or must call: the chat-completions `tool_choice`. */
export type ToolChoice = "auto" | "none" | "required" | { type: "function"; function: { name: string } };

export interface OpenAIOptions {
  /** For example `https://api.openai.com/v1` or a local server's `/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /** Sent with the tools (default `"auto"`); not sent on a call planloop makes without tools. */
  toolChoice?: ToolChoice;
  /** The most tokens one reply may take (`max_tokens`). */
  maxTokens?: number;
  temperature?: number;
  /** More request fields (`seed`, `top_p`, a server's own), sent as given; the fields
   * above and the conversation take precedence. */
  body?: Record<string, unknown>;
  /** More request headers. */
  headers?: Record<string, string>;
  /** Cancels the request in flight, and every later one, once aborted. */
  signal?: AbortSignal;
  /** The longest one request may take, in milliseconds (default 300000: five minutes). */
  timeoutMs?: number;
}

/** Why a request to the model failed. */
export type ModelRequestErrorCode =
  /** The endpoint could not be reached, or the connection broke (the `cause` says how). */
  | "transport"
  /** `timeoutMs` passed first. */
  | "timeout"
  /** The `signal` was aborted. */
  | "aborted"
  /** The endpoint answered with an HTTP error (`data.status`, `data.body`). */
  | "http_status"
  /** The endpoint answered 2xx with something other than a chat completion. */
  | "bad_response";

/** A request to the model that failed; the turn ends with it, the conversation kept
 * well-formed (see `ChainRunner.send`). */
export class ModelRequestError extends Error {
  override name = "ModelRequestError" as const;
  readonly code: ModelRequestErrorCode;
  readonly data: { url: string; status?: number; body?: string; timeoutMs?: number };

  constructor(code: ModelRequestErrorCode, message: string, data: ModelRequestError["data"], cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.data = data;
  }
}

const DEFAULT_TIMEOUT_MS = 300_000;

interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

interface WireMessage {
  role: string;
  content: string | null;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
}

export function openAIChatModel(options: OpenAIOptions): ChatModel {
  const send = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/$/, "")}/chat/completions`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    async complete(request: ChatRequest): Promise<ModelResponse> {
      const body = requestBody(options, request);
      const headers: Record<string, string> = { ...options.headers, "content-type": "application/json" };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const { signal, done, why } = deadline(options.signal, timeoutMs);
      try {
        const response = await send(url, { method: "POST", headers, body: JSON.stringify(body), signal });
        const text = await response.text();
        if (!response.ok) {
          const excerpt = text.slice(0, 500);
          throw new ModelRequestError("http_status", `chat completions answered ${response.status}: ${excerpt}`, { url, status: response.status, body: excerpt });
        }
        return readCompletion(text, url);
      } catch (error) {
        if (error instanceof ModelRequestError) throw error;
        const stopped = why();
        if (stopped === "timeout") throw new ModelRequestError("timeout", `chat completions took longer than ${timeoutMs} ms`, { url, timeoutMs }, error);
        if (stopped === "aborted") throw new ModelRequestError("aborted", "the request to the model was cancelled", { url }, options.signal?.reason ?? error);
        throw new ModelRequestError("transport", `chat completions could not be reached at ${url}: ${describe(error)}`, { url }, error);
      } finally {
        done();
      }
    },
  };
}

/** The request: the conversation, the tools planloop allows now, and the options. */
function requestBody(options: OpenAIOptions, request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { ...options.body, model: options.model, messages: request.messages.map(toWire) };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
    body.tool_choice = options.toolChoice ?? "auto";
  }
  if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  return body;
}

/** A signal that aborts with the caller's or after `timeoutMs`, which of the two
 * stopped the request, and the clean-up. */
function deadline(outer: AbortSignal | undefined, timeoutMs: number) {
  const controller = new AbortController();
  let stopped: "timeout" | "aborted" | null = null;
  const abort = (why: "timeout" | "aborted") => {
    stopped ??= why;
    controller.abort();
  };
  const onAbort = () => abort("aborted");
  if (outer?.aborted) abort("aborted");
  outer?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => abort("timeout"), timeoutMs);
  return {
    signal: controller.signal,
    why: () => stopped,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}

/** A chat completion's first message as a planloop `ModelResponse`. */
function readCompletion(text: string, url: string): ModelResponse {
  let json: { choices?: { message?: WireMessage }[]; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } };
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelRequestError("bad_response", `chat completions answered with text that is not JSON: ${text.slice(0, 200)}`, { url, body: text.slice(0, 500) }, error);
  }
  const message = json?.choices?.[0]?.message;
  if (!message || typeof message !== "object") {
    throw new ModelRequestError("bad_response", "chat completions answered without a message", { url, body: text.slice(0, 500) });
  }
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const usage = usageOf(json.usage?.prompt_tokens, json.usage?.completion_tokens);
  return {
    text: typeof message.content === "string" ? message.content : null,
    toolCalls: calls.map((c) => ({ id: c?.id, name: c?.function?.name, args: c?.function?.arguments ?? "{}" })),
    ...(usage !== undefined ? { usage } : {}),
  };
}

/** An error and its causes in one line: fetch's `TypeError` says only "fetch failed". */
function describe(error: unknown): string {
  const parts: string[] = [];
  for (let at: unknown = error, depth = 0; at && depth < 4; at = (at as { cause?: unknown }).cause, depth++) {
    const { message, code } = at as { message?: unknown; code?: unknown };
    parts.push([typeof code === "string" ? code : null, typeof message === "string" ? message : String(at)].filter(Boolean).join(" "));
  }
  return parts.join(": ");
}

function toWire(message: ChatMessage): WireMessage {
  switch (message.role) {
    case "assistant": {
      const wire: WireMessage = { role: "assistant", content: message.content };
      if (message.toolCalls.length > 0) {
        wire.tool_calls = message.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args) } }));
      }
      return wire;
    }
    case "tool":
      return { role: "tool", content: message.content, tool_call_id: message.toolCallId };
    default:
      return { role: message.role, content: message.content };
  }
}
