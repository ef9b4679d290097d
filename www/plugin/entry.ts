// An editor plugin's bundle, built as a plugin author builds one (scripts/bundle.mjs):
// planloop imported by its package name, whose default entry has both wasm modules
// inlined, plus the reference chain runner and its OpenAI-compatible adapter. One file,
// no fetch, no fs, no init step.
export * from "planloop";
export { ChainRunner, ResponseRefusedError } from "planloop/runner";
export { openAIChatModel } from "planloop/runner/openai";
