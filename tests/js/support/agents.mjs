// What the OpenAI Agents SDK tests share.

/** All of a streamed run's text, as `toTextStream()` gives it to the user. */
export async function streamedText(streamed) {
  let text = "";
  for await (const chunk of streamed.toTextStream()) text += chunk;
  await streamed.completed;
  return text;
}
