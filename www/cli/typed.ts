// What the user typed, out of a user message as an agent recorded it. Agents wrap the
// user's words in tags of their own (Cursor's `<user_query>`, Cline's `<task>` and
// `<feedback>`) and put text of their own beside them, in tags too: a hook's output
// (`<user-prompt-submit-hook>`), reminders (`<system-reminder>`), the editor's state
// (`<environment_details>`), a local command's output. The goal planloop restates is the
// user's words, never that text. Each tag is looked for with `indexOf` from where the last
// one ended, so a message is read in linear time whatever it holds.

/** Tags around the user's own words. */
const WRAPPERS = ["user_query", "task", "feedback", "user_message"];

/** Tags around text the agent or a hook added. */
const INJECTED = [
  "user-prompt-submit-hook",
  "system-reminder",
  "environment_details",
  "local-command-stdout",
  "local-command-stderr",
  "local-command-caveat",
];

/** Each `<tag>…</tag>` in `text`: where it starts, ends, and its body. */
function* elements(text: string, tag: string): Generator<{ start: number; end: number; body: string }> {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  for (let start = text.indexOf(open); start >= 0; ) {
    const inner = start + open.length;
    const stop = text.indexOf(close, inner);
    // No closing tag after this one: none after a later one either.
    if (stop < 0) return;
    const end = stop + close.length;
    yield { start, end, body: text.slice(inner, stop) };
    start = text.indexOf(open, end);
  }
}

/** The user's words in `text`: the bodies of its wrapper tags if it has any, or else the
 *  text without the injected elements (empty when it held nothing but those). */
export function typed(text: string): string {
  const wrapped = WRAPPERS.flatMap((tag) => [...elements(text, tag)]).sort((a, b) => a.start - b.start);
  if (wrapped.length > 0) return wrapped.map((e) => e.body.trim()).join("\n\n");
  let rest = text;
  for (const tag of INJECTED) {
    let kept = "";
    let from = 0;
    for (const { start, end } of elements(rest, tag)) {
      kept += rest.slice(from, start);
      from = end;
    }
    rest = kept + rest.slice(from);
  }
  return rest.trim();
}
