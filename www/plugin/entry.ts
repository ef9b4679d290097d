// The editor-plugin bundle: planloop with its wasm inlined, started at load, plus the
// reference chain runner and the OpenAI-compatible adapter. One file, no fetch, no fs:
// what an Obsidian-style plugin must ship.
// @ts-expect-error: esbuild's binary loader turns the module into its bytes.
import wasm from "../../pkg/web/planloop_bg.wasm";
import { initSync } from "../../pkg/web/planloop.js";

initSync({ module: wasm as Uint8Array });

export * from "../../pkg/web/planloop.js";
export { ChainRunner } from "../runner/chain.js";
export { openAIChatModel } from "../runner/openai.js";
