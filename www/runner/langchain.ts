// A ChatModel over a LangChain.js chat model: planloop's tool definitions are bound with
// `bindTools`, the conversation goes in as LangChain messages, and `AIMessage.tool_calls`
// come back as tool calls.
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { ModelResponse } from "planloop";

import type { ChatMessage, ChatModel, ChatRequest } from "./chain.js";
import { usageOf } from "./usage.js";

export function langChainChatModel(model: BaseChatModel): ChatModel {
  return {
    async complete(request: ChatRequest): Promise<ModelResponse> {
      const tools = request.tools.map((t) => ({ type: "function" as const, function: { name: t.name, description: t.description, parameters: t.parameters } }));
      if (tools.length > 0 && !model.bindTools) throw new Error("this LangChain model cannot bind tools");
      const runnable = tools.length > 0 && model.bindTools ? model.bindTools(tools) : model;
      const reply = await runnable.invoke(request.messages.map(toLangChain));
      const usage = usageOf(reply.usage_metadata?.input_tokens, reply.usage_metadata?.output_tokens);
      return {
        text: textOf(reply.content),
        toolCalls: (reply.tool_calls ?? []).map((c, i) => ({ id: c.id ?? `call_${i}`, name: c.name, args: c.args })),
        ...(usage !== undefined ? { usage } : {}),
      };
    },
  };
}

function toLangChain(message: ChatMessage): BaseMessage {
  switch (message.role) {
    case "system":
      return new SystemMessage(message.content);
    case "user":
      return new HumanMessage(message.content);
    case "assistant":
      return new AIMessage({
        content: message.content ?? "",
        tool_calls: message.toolCalls.map((c) => ({ id: c.id, name: c.name, args: (c.args ?? {}) as Record<string, unknown>, type: "tool_call" as const })),
      });
    case "tool":
      return new ToolMessage({ content: message.content, tool_call_id: message.toolCallId, name: message.name, status: message.isError ? "error" : "success" });
  }
}

/** A message's text: a string, or the text parts of a content array. */
function textOf(content: unknown): string | null {
  if (typeof content === "string") return content.length > 0 ? content : null;
  if (!Array.isArray(content)) return null;
  const text = content.map((part) => (part && typeof part === "object" && "text" in part && typeof part.text === "string" ? part.text : "")).join("");
  return text.length > 0 ? text : null;
}
