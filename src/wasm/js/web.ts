// planloop for browsers and bundlers (an ES module): `await init()` fetches the modules
// from beside this file, or `initSync({module, session})` takes their bytes.
import coreInit, { initSync as coreSync } from "planloop-glue/core";
import sessionInit, { initSync as sessionSync } from "planloop-glue/session";

import { Engine, type Exports } from "./engine.js";
import { setModules } from "./modules.js";

export * from "./api.js";

/** A wasm module as the host holds it. */
export type ModuleSource = BufferSource | WebAssembly.Module;

let core: Engine | undefined;
let session: Engine | undefined;

setModules({
  core: () => {
    if (core === undefined) throw new Error("planloop is not initialized: call init() first");
    return core;
  },
  session: () => {
    if (session === undefined) throw new Error("planloop's session module is not initialized: call init() or initSync({module, session})");
    return session;
  },
});

/** Loads both modules (by default from beside this file). */
export default async function init(input?: { module?: ModuleSource | URL | string; session?: ModuleSource | URL | string }): Promise<void> {
  const [coreExports, sessionExports] = await Promise.all([
    coreInit(input?.module === undefined ? undefined : { module_or_path: input.module }),
    sessionInit(input?.session === undefined ? undefined : { module_or_path: input.session }),
  ]);
  core ??= new Engine(coreExports as unknown as Exports);
  session ??= new Engine(sessionExports as unknown as Exports);
}

/** Instantiates the modules from their bytes (the session module only if given). */
export function initSync(input: { module: ModuleSource; session?: ModuleSource }): void {
  core ??= new Engine(coreSync({ module: input.module }) as unknown as Exports);
  if (input.session !== undefined) session ??= new Engine(sessionSync({ module: input.session }) as unknown as Exports);
}
