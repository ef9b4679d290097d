// A small OpenAI-compatible chat-completions server over a local GGUF model (node-llama-cpp,
// CPU only), so planloop's tests and `make demo-live` can drive a real model with no network.
// It is a test server, not a product: one request at a time, non-streaming, replies forced
// by a grammar into tool calls or an answer (reply.mjs). A reply the token cap cuts short is
// sent as text with finish_reason "length", as real servers do: clients must cope with that.
//
//   node tests/live/server.mjs [--port 8081] [--model path.gguf] [--max-tokens 128]
//
// or `const { url, close } = await startServer({ modelPath })` (port 0: any free port).
import { createServer } from "node:http";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { LlamaCompletion, getLlama } from "node-llama-cpp";

import { renderPrompt } from "./chatml.mjs";
import { compactGrammar, readReply, replySchema } from "./reply.mjs";

export const DEFAULT_MODEL = fileURLToPath(new URL("../../target/live/SmolLM2-135M-Instruct.Q4_1.gguf", import.meta.url));

/** Request bodies beyond this are refused before they are parsed. */
const MAX_BODY = 2 * 1024 * 1024;
/** Grammars kept for reuse: a conversation asks again and again with the same tools. */
const GRAMMARS_KEPT = 16;

/** A request the server refuses, with the parameter at fault. */
class RequestError extends Error {
  constructor(message, param = null, status = 400, code = null) {
    super(message);
    Object.assign(this, { param, status, code });
  }
}

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const isContent = (value) => value === null || value === undefined || typeof value === "string" || Array.isArray(value);

/** The parts of a chat-completions body this server reads, checked; throws RequestError. */
function readRequest(body, maxTokensCap) {
  if (!isObject(body)) throw new RequestError("the body must be a JSON object");
  if (body.stream === true) throw new RequestError("streaming is not supported by this test server: send stream: false", "stream");
  const { messages } = body;
  if (!Array.isArray(messages) || messages.length === 0) throw new RequestError("messages must be a non-empty array", "messages");
  messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    if (!isObject(m) || !["system", "developer", "user", "assistant", "tool"].includes(m.role)) throw new RequestError(`${at} must be a message with a known role`, at);
    if (!isContent(m.content)) throw new RequestError(`${at}.content must be a string, an array of parts or null`, `${at}.content`);
    if (m.role === "tool" && typeof m.tool_call_id !== "string") throw new RequestError(`${at}.tool_call_id must be a string`, `${at}.tool_call_id`);
    if (m.role === "assistant" && m.tool_calls !== undefined && m.tool_calls !== null) {
      const ok = Array.isArray(m.tool_calls) && m.tool_calls.every((c) => isObject(c) && typeof c.id === "string" && isObject(c.function) && typeof c.function.name === "string" && typeof c.function.arguments === "string");
      if (!ok) throw new RequestError(`${at}.tool_calls must be calls with an id, a function name and arguments as JSON text`, `${at}.tool_calls`);
    }
  });
  const tools = body.tools ?? [];
  if (!Array.isArray(tools)) throw new RequestError("tools must be an array", "tools");
  const defined = tools.map((t, i) => {
    if (!isObject(t) || t.type !== "function" || !isObject(t.function) || typeof t.function.name !== "string" || t.function.name === "") throw new RequestError(`tools[${i}] must be a function tool with a name`, `tools[${i}]`);
    const { name, description, parameters } = t.function;
    if (parameters !== undefined && !isObject(parameters)) throw new RequestError(`tools[${i}].function.parameters must be an object`, `tools[${i}]`);
    return { name, description: typeof description === "string" ? description : "", parameters };
  });
  return {
    messages,
    tools: defined,
    choice: readChoice(body.tool_choice, defined),
    maxTokens: Math.min(readCount(body.max_completion_tokens ?? body.max_tokens, "max_tokens") ?? maxTokensCap, maxTokensCap),
    temperature: readNumber(body.temperature, "temperature", 0, 2) ?? 0,
    seed: readNumber(body.seed, "seed", 0, 2 ** 31 - 1) ?? 1,
  };
}

/** "none", "auto", "required" or the name of the one tool to call. */
function readChoice(choice, tools) {
  if (choice === undefined || choice === null) return "auto";
  if (choice === "none" || choice === "auto") return choice;
  if (choice === "required") {
    if (tools.length === 0) throw new RequestError('tool_choice "required" needs tools', "tool_choice");
    return choice;
  }
  const name = isObject(choice) && choice.type === "function" && isObject(choice.function) ? choice.function.name : undefined;
  if (typeof name !== "string") throw new RequestError('tool_choice must be "none", "auto", "required" or {type: "function", function: {name}}', "tool_choice");
  if (!tools.some((t) => t.name === name)) throw new RequestError(`tool_choice names ${name}, which is not in tools`, "tool_choice");
  return name;
}

function readCount(value, param) {
  if (value === undefined || value === null) return undefined;
  if (!Number.isInteger(value) || value < 1) throw new RequestError(`${param} must be a positive integer`, param);
  return value;
}

function readNumber(value, param, min, max) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !(value >= min && value <= max)) throw new RequestError(`${param} must be a number from ${min} to ${max}`, param);
  return value;
}

/**
 * Loads the model and serves it on `host:port` (port 0: a free one). Resolves to `url` (the
 * server's root; the API is under `/v1`), `model` (its id), `log` (one entry per reply: the
 * tools offered, the calls made as {id, name}, the finish reason, tokens, milliseconds) and
 * `close()`, which stops listening at once and then frees the model.
 *
 * One thread by default: llama.cpp's threads wait for each other by spinning, and on a
 * machine of two cores with anything else busy two threads ran at under 1 token/s where one
 * ran at 70 (measured here, SmolLM2-135M Q4_1).
 */
export async function startServer({ modelPath = DEFAULT_MODEL, host = "127.0.0.1", port = 0, maxTokensCap = 128, contextSize = 8192, threads = 1 } = {}) {
  const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize, threads });
  // One sequence for every request: the prefix two prompts share is not evaluated again.
  const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
  const id = basename(modelPath).replace(/\.gguf$/i, "");
  const grammars = new Map();
  const log = [];
  let calls = 0;
  let queue = Promise.resolve();

  function grammarFor(schema) {
    const key = JSON.stringify(schema);
    if (!grammars.has(key)) {
      if (grammars.size >= GRAMMARS_KEPT) grammars.delete(grammars.keys().next().value);
      const compact = llama.createGrammarForJsonSchema(schema).then((json) =>
        llama.createGrammar({ grammar: compactGrammar(json.grammar), stopGenerationTriggers: json.stopGenerationTriggers, trimWhitespaceSuffix: true }),
      );
      grammars.set(key, compact);
    }
    return grammars.get(key);
  }

  async function complete(request) {
    const prompt = renderPrompt(request.messages, request.tools, request.choice);
    const promptTokens = prompt.tokenize(model.tokenizer).length;
    if (promptTokens + request.maxTokens > contextSize) {
      throw new RequestError(`the prompt takes ${promptTokens} tokens; with max_tokens ${request.maxTokens} that is more than the context of ${contextSize}`, "messages", 400, "context_length_exceeded");
    }
    let grammar;
    try {
      grammar = await grammarFor(replySchema(request.tools, request.choice));
    } catch (error) {
      throw new RequestError(`the tools' parameters could not be made a grammar: ${error.message}`, "tools");
    }
    const started = performance.now();
    let firstToken = null;
    let completionTokens = 0;
    const { response, metadata } = await completion.generateCompletionWithMeta(prompt, {
      grammar,
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      seed: request.seed,
      onToken: (tokens) => {
        firstToken ??= performance.now();
        completionTokens += tokens.length;
      },
    });
    const ended = performance.now();
    const reply = readReply(response);
    let message;
    let finishReason;
    if (reply?.toolCalls) {
      const toolCalls = reply.toolCalls.map((c) => ({ id: `call_${++calls}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments ?? {}) } }));
      message = { role: "assistant", content: null, tool_calls: toolCalls };
      finishReason = "tool_calls";
    } else {
      message = { role: "assistant", content: reply ? reply.content : response };
      finishReason = (reply === null || reply.cut) && metadata.stopReason === "maxTokens" ? "length" : "stop";
    }
    // The first token comes with the prompt's evaluation; the speed is that of the rest.
    const predictedMs = ended - (firstToken ?? ended);
    log.push({
      tools: request.tools.map((t) => t.name),
      choice: request.choice,
      finishReason,
      calls: (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name })),
      promptTokens,
      completionTokens,
      ms: Math.round(ended - started),
    });
    return {
      id: `chatcmpl-${log.length}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: id,
      choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      // As llama.cpp's own server reports them: what a page can show as tokens per second.
      timings: {
        prompt_ms: Math.round((firstToken ?? ended) - started),
        predicted_n: completionTokens,
        predicted_ms: Math.round(predictedMs),
        predicted_per_second: predictedMs > 0 && completionTokens > 1 ? Math.round(((completionTokens - 1) * 1000 * 10) / predictedMs) / 10 : null,
      },
    };
  }

  /** One generation at a time, in arrival order. */
  function serialized(work) {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  }

  async function route(request) {
    const path = new URL(request.url, "http://localhost").pathname.replace(/\/$/, "");
    if (path === "/v1/models" && request.method === "GET") return { object: "list", data: [{ id, object: "model", created: 0, owned_by: "local" }] };
    if (path !== "/v1/chat/completions") throw new RequestError(`no route ${path}`, null, 404);
    if (request.method !== "POST") throw new RequestError("use POST", null, 405);
    const text = await readBody(request);
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      throw new RequestError("the body is not JSON");
    }
    const parsed = readRequest(body, maxTokensCap);
    return serialized(() => complete(parsed));
  }

  const server = createServer((request, response) => {
    route(request).then(
      (body) => send(response, 200, body),
      (error) => {
        const known = error instanceof RequestError;
        const type = known ? "invalid_request_error" : "server_error";
        send(response, known ? error.status : 500, { error: { message: error.message, type, param: known ? error.param : null, code: known ? error.code : null } });
      },
    );
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(port, host, resolve));
  const url = `http://${host}:${server.address().port}`;

  let closing = null;
  // If the process ends without close(), stop listening at least (model memory goes with it).
  const onExit = () => server.close();
  process.once("exit", onExit);
  function close() {
    closing ??= (async () => {
      process.removeListener("exit", onExit);
      server.close();
      server.closeAllConnections();
      await queue;
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    })();
    return closing;
  }
  return { url, model: id, log, close };
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    // Past the limit the rest is read and dropped, so the client still gets its answer.
    request.on("data", (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on("end", () => {
      if (size > MAX_BODY) reject(new RequestError(`the body is larger than ${MAX_BODY} bytes`, null, 413));
      else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    request.on("error", reject);
  });
}

function send(response, status, body) {
  if (response.destroyed) return;
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: "string", default: "8081" }, model: { type: "string", default: DEFAULT_MODEL }, "max-tokens": { type: "string", default: "128" } } });
  const live = await startServer({ modelPath: values.model, port: Number(values.port), maxTokensCap: Number(values["max-tokens"]) });
  console.log(`live model server: ${live.url}/v1 (${live.model}; Ctrl-C to stop)`);
  const stop = () => live.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
