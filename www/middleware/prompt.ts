// The AI SDK's provider-level prompt (LanguageModelV3/V4: the same shape in AI SDK 6 and
// 7) as planloop reads and writes it: the user's message, the system prompt, tool
// results, and a model response's text and tool calls.
import type { ModelResponse } from "planloop";

import { usageOf } from "../runner/usage.js";
import type { Written } from "./turn.js";

/** A content part, as far as planloop reads it. */
export interface ProviderPart {
  type: string;
  text?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: unknown;
}

export type ProviderMessage = { role: "system"; content: string } | { role: "user" | "assistant" | "tool"; content: ProviderPart[] };
export type Prompt = ProviderMessage[];

const textOf = (parts: ProviderPart[]) => parts.flatMap((p) => (p.type === "text" && typeof p.text === "string" ? [p.text] : [])).join("");

/** The last user message: where it is, and its text. */
export function lastUserMessage(prompt: Prompt): { index: number; text: string } | null {
  for (let index = prompt.length - 1; index >= 0; index--) {
    const message = prompt[index]!;
    if (message.role === "user") return { index, text: textOf(message.content) };
  }
  return null;
}

/** The prompt with the last user message's text as `user` gives it (as planloop wrote it
 * for the turn), and each tool result planloop answered as its tool message (the
 * `[tool_result:…]` text, reminders included). */
export function withToolMessages(prompt: Prompt, written: Readonly<Record<string, Written>>, user: { index: number; text: string } | null): Prompt {
  return prompt.map((message, index): ProviderMessage => {
    if (message.role === "user" && index === user?.index) {
      if (textOf(message.content) === user.text) return message;
      return { ...message, content: [...message.content.filter((p) => p.type !== "text"), { type: "text", text: user.text }] };
    }
    if (message.role !== "tool") return message;
    return {
      ...message,
      content: message.content.map((part) => {
        const answer = part.type === "tool-result" && part.toolCallId !== undefined ? written[part.toolCallId] : undefined;
        return answer === undefined ? part : { ...part, output: { type: answer.isError ? "error-text" : "text", value: answer.content } };
      }),
    };
  });
}

/** The prompt with one system message, `compose(the caller's system text)`, first. */
export function withSystem(prompt: Prompt, compose: (base: string) => string): Prompt {
  const base = prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n\n");
  return [{ role: "system", content: compose(base) }, ...prompt.filter((m) => m.role !== "system")];
}

/** A model response's content as planloop reads a response. */
export function responseOf(content: ProviderPart[], usage?: ProviderUsage): ModelResponse {
  const text = textOf(content);
  const counted = usageOf(tokens(usage?.inputTokens), tokens(usage?.outputTokens));
  return {
    text: text.length > 0 ? text : null,
    toolCalls: content.flatMap((p) => (p.type === "tool-call" ? [{ id: p.toolCallId ?? "", name: p.toolName ?? "", args: p.input }] : [])),
    ...(counted !== undefined ? { usage: counted } : {}),
  };
}

/** A response's usage as the provider level reports it: `{total}` per side in AI SDK 6
 * and 7 (LanguageModelV3 and V4), a plain number in earlier shapes. */
export interface ProviderUsage {
  inputTokens?: { total?: number | undefined } | number | undefined;
  outputTokens?: { total?: number | undefined } | number | undefined;
}

function tokens(side: ProviderUsage["inputTokens"]): unknown {
  return typeof side === "object" && side !== null ? side.total : side;
}
