// An OpenAI chat request as one ChatML prompt (SmolLM2's chat format). The model learnt no
// tool-call format of its own, so the system turn lists the tools and the reply format the
// grammar forces (reply.mjs), earlier tool calls are shown in that same format, and tool
// results come back in a user turn. Only the turn markers are special tokens: message text
// is tokenized as text, so a message cannot open or close a turn.
import { LlamaText, SpecialTokensText } from "node-llama-cpp";

/** Each tool's description is cut to its first paragraph, at most this long: on a CPU the
 * prompt is most of a request's cost, and a tiny model gains little from the rest. */
const DESCRIPTION_CHARS = 240;

const START = new SpecialTokensText("<|im_start|>");
const END = new SpecialTokensText("<|im_end|>");

function turn(role, text) {
  return [START, `${role}\n${text}`, END, "\n"];
}

/** A message's text: a string, or the text parts of a content array. */
function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
}

/** `name(a: string, b?: array): description` for the system turn. */
function signature(tool) {
  const properties = typeof tool.parameters?.properties === "object" ? (tool.parameters.properties ?? {}) : {};
  const required = new Set(Array.isArray(tool.parameters?.required) ? tool.parameters.required : []);
  const params = Object.entries(properties).map(([key, schema]) => `${key}${required.has(key) ? "" : "?"}: ${typeof schema?.type === "string" ? schema.type : "any"}`);
  const description = (tool.description ?? "").split("\n\n")[0].slice(0, DESCRIPTION_CHARS);
  return `- ${tool.name}(${params.join(", ")}): ${description}`;
}

/** The reply format for a tool choice ("none", "auto", "required" or a tool's name). */
function format(tools, choice) {
  const answer = 'To answer, reply {"content": "your answer"}.';
  if (choice === "none" || tools.length === 0) return `Reply with one JSON object. ${answer}`;
  const call = '{"tool_calls": [{"name": "<tool name>", "arguments": {...}}]}';
  if (choice === "auto") return `Reply with one JSON object. To call tools, reply ${call}. ${answer}`;
  return `Reply with one JSON object calling ${choice === "required" ? "one or more tools" : choice}: ${call}.`;
}

/** The system turn's opening. It comes before the request's own system text, which changes
 * from call to call (a plan, a budget line), so the prefix the model has already read is
 * reused across calls. */
function preamble(tools, choice) {
  const listed = tools.length === 0 || choice === "none" ? "" : `You can call these tools:\n${tools.map(signature).join("\n")}\n\n`;
  return `${listed}${format(tools, choice)}`;
}

/** How an assistant message of the conversation is shown: in the format the model replies in. */
function assistantText(message) {
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const shown = {};
  const content = textOf(message.content);
  if (content !== "" || calls.length === 0) shown.content = content;
  if (calls.length > 0) shown.tool_calls = calls.map((c) => ({ name: c.function?.name, arguments: parsed(c.function?.arguments) }));
  return JSON.stringify(shown);
}

function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The prompt for `messages` (already validated) with `tools` ({name, description,
 * parameters}[]) and the tool choice; it ends where the assistant's reply begins. */
export function renderPrompt(messages, tools, choice) {
  const names = new Map();
  const parts = [];
  let system = preamble(tools, choice);
  let results = [];
  const flushResults = () => {
    if (results.length > 0) parts.push(...turn("user", `Tool results:\n${results.join("\n")}`));
    results = [];
  };
  for (const message of messages) {
    if (message.role === "tool") {
      results.push(`${names.get(message.tool_call_id) ?? "tool"} (${message.tool_call_id}) returned: ${textOf(message.content)}`);
      continue;
    }
    flushResults();
    if (message.role === "system" || message.role === "developer") {
      // The first system text joins the tool list; later ones stand as turns of their own.
      if (system !== null) system = `${system}\n\n${textOf(message.content)}`;
      else parts.push(...turn("system", textOf(message.content)));
      continue;
    }
    if (system !== null) {
      parts.push(...turn("system", system));
      system = null;
    }
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) names.set(call.id, call.function?.name);
      parts.push(...turn("assistant", assistantText(message)));
    } else {
      parts.push(...turn("user", textOf(message.content)));
    }
  }
  flushResults();
  if (system !== null) parts.push(...turn("system", system));
  return LlamaText([...parts, START, "assistant\n"]);
}
