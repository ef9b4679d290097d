// What the test server lets the model say: one JSON object, either tool calls or an answer,
// forced by a grammar so that even a 135M-parameter model answers in a shape the client
// can read. node-llama-cpp builds grammars from a subset of JSON Schema (every property it
// lists is required, no `$ref` outside its own `$defs`, no `anyOf`/`allOf`), so each tool's
// parameters are simplified into that subset first, with bounds that keep replies short.

/** Nesting kept of a tool's parameters; deeper values become scalars. */
const MAX_DEPTH = 6;
/** Schema nodes made per tool: a schema whose `$ref`s fan out stops growing here. */
const MAX_NODES = 400;
/** Array and string bounds: a small model fills whatever room it is given. */
const MAX_ITEMS = 4;
const MAX_STRING = 120;
/** Calls in one reply; one when the request names the tool to call. */
const MAX_CALLS = 2;

/** What stands in for a value the grammar cannot describe (any JSON, a schema cut off). */
const SCALAR = { type: ["string", "number", "boolean", "null"] };
const PRIMITIVE = new Set(["string", "number", "integer", "boolean", "null"]);

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const isPrimitive = (value) => value === null || ["string", "number", "boolean"].includes(typeof value);

/** `schema` (untrusted: any JSON) in node-llama-cpp's subset. `root` resolves local `$ref`s. */
export function simplify(schema, root = schema, budget = { nodes: MAX_NODES }, depth = 0) {
  budget.nodes -= 1;
  if (depth > MAX_DEPTH || budget.nodes < 0 || !isObject(schema)) return SCALAR;
  const next = (node) => simplify(node, root, budget, depth + 1);
  if (typeof schema.$ref === "string") return next(resolve(root, schema.$ref));
  if ("const" in schema) return isPrimitive(schema.const) ? { const: schema.const } : SCALAR;
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter(isPrimitive);
    return values.length > 0 ? { enum: values } : SCALAR;
  }
  const choices = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(choices) && choices.length > 0) return oneOf(choices.map(next));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    // Good enough for the usual `allOf: [{$ref}]` wrapper and for merged object parts.
    const merged = Object.assign({}, ...schema.allOf.map((part) => (isObject(part) && typeof part.$ref === "string" ? resolve(root, part.$ref) : part)).filter(isObject));
    return next(merged);
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? implied(schema)];
  return oneOf(types.map((type) => typed(schema, type, next)));
}

/** The type a schema without `type` describes by its keywords. */
function implied(schema) {
  if (isObject(schema.properties)) return "object";
  if ("items" in schema) return "array";
  return null;
}

function typed(schema, type, next) {
  switch (type) {
    case "string": {
      const maxLength = Math.min(bound(schema.maxLength, MAX_STRING), MAX_STRING);
      return { type, minLength: Math.min(bound(schema.minLength, 0), maxLength), maxLength };
    }
    case "object": {
      // Only the required properties: the grammar would make every listed one required.
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === "string" && Object.hasOwn(properties, key)) : [];
      return { type, properties: Object.fromEntries([...new Set(required)].map((key) => [key, next(properties[key])])) };
    }
    case "array": {
      const minItems = Math.min(bound(schema.minItems, 0), MAX_ITEMS);
      const maxItems = Math.max(minItems, Math.min(bound(schema.maxItems, MAX_ITEMS), MAX_ITEMS));
      return { type, items: "items" in schema ? next(schema.items) : SCALAR, minItems, maxItems };
    }
    default:
      return PRIMITIVE.has(type) ? { type } : SCALAR;
  }
}

function bound(value, fallback) {
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}

function oneOf(schemas) {
  return schemas.length === 1 ? schemas[0] : { oneOf: schemas };
}

/** A local reference (`#/$defs/Name`, `#/definitions/Name`, any `#/a/b` path), or an empty
 * schema when it leads nowhere. */
function resolve(root, ref) {
  if (!ref.startsWith("#")) return {};
  let node = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isObject(node) || !Object.hasOwn(node, key)) return {};
    node = node[key];
  }
  return node;
}

/** The reply schema for a request's `tools` ({name, parameters}[]) and the tool choice
 * read from it: "none", "auto", "required", or the one tool's name. */
export function replySchema(tools, choice) {
  const answer = { type: "object", properties: { content: { type: "string" } } };
  if (choice === "none" || tools.length === 0) return answer;
  const callable = choice === "auto" || choice === "required" ? tools : tools.filter((t) => t.name === choice);
  const call = oneOf(callable.map((t) => ({ type: "object", properties: { name: { const: t.name }, arguments: argumentsSchema(t.parameters) } })));
  const maxItems = choice === "auto" || choice === "required" ? MAX_CALLS : 1;
  const calls = { type: "object", properties: { tool_calls: { type: "array", items: call, minItems: 1, maxItems } } };
  return choice === "auto" ? { oneOf: [calls, answer] } : calls;
}

/** A tool's parameters as the arguments object (a tool without parameters takes `{}`). */
function argumentsSchema(parameters) {
  const simple = simplify(parameters ?? { type: "object" });
  return simple.type === "object" ? simple : { type: "object", properties: {} };
}

/** node-llama-cpp's JSON grammar (GBNF text) with at most one space between tokens. Its
 * rules allow a newline and indentation there, and a small model takes them: most of its
 * token cap went to whitespace. The rules are rewritten by name (node-llama-cpp is pinned);
 * should a version name them otherwise, the grammar only stays wider. */
export function compactGrammar(gbnf) {
  return gbnf.replace(/^(comma-)?(whitespace-[\w-]+-rule) ::= .*$/gm, (_line, comma, name) => `${comma ?? ""}${name} ::= ${comma ? '"," ' : ""}[ ]?`);
}

/** The model's reply as a message: tool calls, an answer (`cut` when the token cap cut
 * it), or null when the text is not a whole reply (the cap cut a tool call). */
export function readReply(text) {
  let reply;
  try {
    reply = JSON.parse(text);
  } catch {
    return cutAnswer(text);
  }
  if (Array.isArray(reply?.tool_calls)) return { toolCalls: reply.tool_calls.map((c) => ({ name: c.name, arguments: c.arguments })) };
  if (typeof reply?.content === "string") return { content: reply.content };
  return null;
}

/** The text of an answer the token cap cut inside the grammar's `{"content": "…` wrapper:
 * a server without the wrapper would send the text so far, so this one does too (the
 * wrapper is this server's, not the model's). Null for anything else. */
function cutAnswer(text) {
  const opened = /^\s*\{\s*"content"\s*:\s*"/.exec(text);
  if (opened === null) return null;
  let rest = text.slice(opened[0].length);
  // Up to the string's closing quote, if it came; else without a half-written escape.
  const closing = /^(?:[^"\\]|\\.)*"/.exec(rest);
  rest = closing !== null ? closing[0].slice(0, -1) : rest.replace(/\\(u[0-9a-fA-F]{0,3})?$/, "");
  try {
    return { content: JSON.parse(`"${rest}"`), cut: true };
  } catch {
    return null;
  }
}
