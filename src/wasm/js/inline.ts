// The modules of planloop's default entry, inlined (DEFLATE-compressed, then base64) and
// each decoded, inflated (fflate's `inflateSync`, 2 KB), compiled and instantiated
// synchronously on first use: no init step, no file or network access,
// so one file works in Node, bundlers, browsers, workers, Deno, Bun and a bare `vm`
// context alike. The default build resolves the API's `./modules.js` to this file
// (scripts/build.mjs), so each module is reached only through the function that makes
// it: a bundler drops the session engine from a page that never makes a Session.
import { initSync as coreSync } from "planloop-glue/core";
import { initSync as sessionSync } from "planloop-glue/session";
import CORE_WASM from "planloop-wasm/core";
import SESSION_WASM from "planloop-wasm/session";

import { inflateSync } from "fflate";

import { decodeBase64 } from "./base64.js";
import { Engine, type Exports } from "./engine.js";

type Zlib = { inflateRawSync?: (bytes: Uint8Array) => Uint8Array } | undefined;
const host = globalThis as { process?: { getBuiltinModule?: (id: string) => Zlib } };

/** `compressed` inflated: by Node's own zlib where the host has it (Node, Deno, Bun),
 * which is native, where fflate's first run, before the JIT warms up, takes tens of
 * milliseconds. Asked for at run time, so no bundler sees a Node import. */
function inflate(compressed: Uint8Array): Uint8Array {
  let zlib: Zlib;
  try {
    zlib = host.process?.getBuiltinModule?.("node:zlib");
  } catch {
    zlib = undefined;
  }
  return typeof zlib?.inflateRawSync === "function" ? zlib.inflateRawSync(compressed) : inflateSync(compressed);
}

let coreEngine: Engine | undefined;
let sessionEngine: Engine | undefined;

/** The primitives' module. */
export function core(): Engine {
  return (coreEngine ??= new Engine(coreSync({ module: inflate(decodeBase64(CORE_WASM)) }) as unknown as Exports));
}

/** The session engine's module. */
export function session(): Engine {
  return (sessionEngine ??= new Engine(sessionSync({ module: inflate(decodeBase64(SESSION_WASM)) }) as unknown as Exports));
}
