// A ChatModel over the Vercel AI SDK (6 and 7): `generateText` with planloop's tool
// definitions as tools without `execute` (the runner runs them, after planloop's
// decision), the system prompt as `system` (AI SDK 7 refuses system messages among the
// messages, and 6 warns about them), the rest of the conversation as ModelMessages, and
// `toolCalls` back as tool calls.
import { generateText, jsonSchema, type LanguageModel, type ModelMessage, tool, type ToolSet } from "ai";
import type { ModelResponse } from "planloop";

import type { ChatMessage, ChatModel, ChatRequest } from "./chain.js";
import { usageOf } from "./usage.js";

export function aiSdkChatModel(model: LanguageModel): ChatModel {
  return {
    async complete(request: ChatRequest): Promise<ModelResponse> {
      const tools: ToolSet = {};
      for (const t of request.tools) {
        tools[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.parameters as Parameters<typeof jsonSchema>[0]) });
      }
      const system = request.messages.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n\n");
      const messages = request.messages.flatMap(toModelMessages);
      const result = await generateText({ model, ...(system.length > 0 ? { system } : {}), messages, tools });
      const usage = usageOf(result.usage.inputTokens, result.usage.outputTokens);
      return {
        text: result.text.length > 0 ? result.text : null,
        toolCalls: result.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, args: c.input })),
        ...(usage !== undefined ? { usage } : {}),
      };
    },
  };
}

/** A message as ModelMessages; a system message is none (it goes in `system`). */
function toModelMessages(message: ChatMessage): ModelMessage[] {
  switch (message.role) {
    case "system":
      return [];
    case "user":
      return [{ role: "user", content: message.content }];
    case "assistant":
      return [{
        role: "assistant",
        content: [
          ...(message.content ? [{ type: "text" as const, text: message.content }] : []),
          ...message.toolCalls.map((c) => ({ type: "tool-call" as const, toolCallId: c.id, toolName: c.name, input: c.args })),
        ],
      }];
    case "tool":
      return [{
        role: "tool",
        content: [{
          type: "tool-result",
          toolCallId: message.toolCallId,
          toolName: message.name,
          output: { type: message.isError ? "error-text" : "text", value: message.content },
        }],
      }];
  }
}
