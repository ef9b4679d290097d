// The modules of planloop's default entry, inlined (base64) and each decoded, compiled
// and instantiated synchronously on first use: no init step, no file or network access,
// so one file works in Node, bundlers, browsers, workers, Deno, Bun and a bare `vm`
// context alike. The default build resolves the API's `./modules.js` to this file
// (scripts/build.mjs), so each module is reached only through the function that makes
// it: a bundler drops the session engine from a page that never makes a Session.
import { initSync as coreSync } from "planloop-glue/core";
import { initSync as sessionSync } from "planloop-glue/session";
import CORE_WASM from "planloop-wasm/core";
import SESSION_WASM from "planloop-wasm/session";

import { decodeBase64 } from "./base64.js";
import { Engine, type Exports } from "./engine.js";

let coreEngine: Engine | undefined;
let sessionEngine: Engine | undefined;

/** The primitives' module. */
export function core(): Engine {
  return (coreEngine ??= new Engine(coreSync({ module: decodeBase64(CORE_WASM) }) as unknown as Exports));
}

/** The session engine's module. */
export function session(): Engine {
  return (sessionEngine ??= new Engine(sessionSync({ module: decodeBase64(SESSION_WASM) }) as unknown as Exports));
}
