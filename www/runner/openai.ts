// A ChatModel for any OpenAI-compatible chat-completions endpoint, over fetch: the
// planner tools' JSON Schemas go out as `tools`, `tool_calls` come back as tool calls.
import type { ModelResponse } from "planloop";

import type { ChatMessage, ChatModel, ChatRequest } from "./chain.js";

export interface OpenAIOptions {
  /** For example `https://api.openai.com/v1` or a local server's `/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

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
  return {
    async complete(request: ChatRequest): Promise<ModelResponse> {
      const body: Record<string, unknown> = { model: options.model, messages: request.messages.map(toWire) };
      if (request.tools.length > 0) {
        body.tools = request.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
      }
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const response = await send(`${options.baseUrl.replace(/\/$/, "")}/chat/completions`, { method: "POST", headers, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`chat completions answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
      const json = (await response.json()) as { choices?: { message?: WireMessage }[] };
      const message = json.choices?.[0]?.message;
      if (!message) throw new Error("chat completions answered without a message");
      return {
        text: message.content ?? null,
        toolCalls: (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, args: c.function.arguments })),
      };
    },
  };
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
