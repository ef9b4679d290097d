// The reference runner's conversation, checked as a provider checks the messages it is
// sent, and the scripted models and stores the runner tests drive it with.
import assert from "node:assert/strict";

/** Throws unless `messages` is a conversation an OpenAI-compatible (or Anthropic) provider
 * accepts: each assistant tool call answered by one tool message before the next
 * message of another role, no tool message answering anything else, no two tool calls
 * with one id anywhere in it, no two assistant messages in a row. Calls of the last
 * message in `awaited` may be open (delegations whose sub-agents are at work). */
export function assertWellFormed(messages, where, awaited = new Set()) {
  const ids = new Set();
  let open = new Set();
  let previous = null;
  for (const [i, m] of messages.entries()) {
    if (m.role === "tool") {
      assert.ok(open.delete(m.toolCallId), `${where}: message ${i} answers ${m.toolCallId}, which is not open`);
    } else {
      assert.equal(open.size, 0, `${where}: message ${i} (${m.role}) comes before ${[...open]} were answered`);
      assert.ok(!(m.role === "assistant" && previous === "assistant"), `${where}: two assistant messages in a row at ${i}`);
      if (m.role === "assistant") {
        open = new Set();
        for (const call of m.toolCalls) {
          assert.ok(typeof call.id === "string" && call.id.length > 0, `${where}: message ${i} has a call without an id`);
          assert.ok(!ids.has(call.id), `${where}: message ${i} repeats the tool call id ${call.id}`);
          ids.add(call.id);
          open.add(call.id);
        }
      }
    }
    previous = m.role;
  }
  const unanswered = [...open].filter((id) => !awaited.has(id));
  assert.equal(unanswered.length, 0, `${where}: ${unanswered} never answered`);
}

/** A ChatModel that answers each request with `next(request)` and, first, refuses (throws)
 * a conversation a provider would refuse, as a provider does. */
export function strictModel(next) {
  const requests = [];
  return {
    requests,
    async complete(request) {
      assertWellFormed(request.messages.filter((m) => m.role !== "system"), `request ${requests.length + 1}`);
      requests.push(request);
      return next(request);
    },
  };
}

/** A strict model that answers from `script` in order. */
export function scriptedModel(script) {
  const left = [...script];
  return strictModel(() => {
    if (left.length === 0) throw new Error("script exhausted");
    return left.shift();
  });
}

const tick = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store that checks every conversation it is given (after `saveDelay` ms), those of the
 * sub-agents at work included, and loads the last one. */
export function checkingStore(saveDelay = 0) {
  const saved = [];
  const store = {
    saved,
    text: null,
    async save(text) {
      if (saveDelay > 0) await tick(saveDelay);
      const state = JSON.parse(text);
      const where = `save ${saved.length + 1}`;
      // A conversation may wait on the delegate calls of its sub-agents at work.
      const paths = Object.keys(state.children ?? {}).map((key) => JSON.parse(key));
      const below = (path) => new Set(paths.filter((p) => p.length === path.length + 1 && path.every((id, i) => p[i] === id)).map((p) => p.at(-1)));
      assertWellFormed(state.messages, where, below([]));
      for (const [key, messages] of Object.entries(state.children ?? {})) assertWellFormed(messages, `${where}, sub-agent ${key}`, below(JSON.parse(key)));
      saved.push(state.messages);
      store.text = text;
    },
    load: () => store.text,
  };
  return store;
}
