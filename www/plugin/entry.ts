// The editor-plugin bundle: planloop with both wasm modules inlined, started at load,
// plus the reference chain runner and the OpenAI-compatible adapter. One file, no fetch,
// no fs: what an Obsidian-style plugin must ship.
// @ts-expect-error: esbuild's binary loader turns the module into its bytes.
import core from "../../pkg/web/planloop_bg.wasm";
// @ts-expect-error: likewise.
import session from "../../pkg/web/planloop_session_bg.wasm";
import { initSync } from "../../pkg/web/planloop.js";

initSync({ module: core as Uint8Array, session: session as Uint8Array });

export * from "../../pkg/web/planloop.js";
export { ChainRunner } from "../runner/chain.js";
export { openAIChatModel } from "../runner/openai.js";
