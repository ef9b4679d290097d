// planloop/slim: the same API without the inlined wasm, for hosts that serve or hold the
// binary modules themselves (they gzip about a third smaller than inlined). Call
// `await init()` (or `initSync`) once before anything else; the session module may be
// left out when only the primitives are used.
import coreInit, { initSync as coreSync } from "planloop-glue/core";
import sessionInit, { initSync as sessionSync } from "planloop-glue/session";

import { Engine, type Exports } from "./engine.js";
import { PlanloopError } from "./error.js";
import { setModules } from "./modules.js";

export * from "./api.js";

/** A wasm module as a host holds it: its bytes or a compiled module. */
export type ModuleSource = BufferSource | WebAssembly.Module;
/** Where a module comes from: a URL to fetch, a `fetch` response, its bytes, or a module. */
export type ModuleInput = ModuleSource | URL | string | Response | Promise<Response>;

let core: Engine | undefined;
let session: Engine | undefined;

const uninitialized = (what: string) =>
  new PlanloopError(`planloop/slim: ${what} is not loaded: call \`await init()\` or \`initSync({ module, session })\` first`, "invalid_state", {
    detail: `${what} not initialized`,
  });

setModules({
  core: () => core ?? raise(uninitialized("the primitives' module (planloop_bg.wasm)")),
  session: () => session ?? raise(uninitialized("the session module (planloop_session_bg.wasm)")),
});

function raise(error: Error): never {
  throw error;
}

/** Loads the modules: `module` is planloop_bg.wasm, `session` planloop_session_bg.wasm
 * (left out, it is not loaded: enough for the primitives). In an ES module, `init()` with
 * neither loads both from beside this file; the CommonJS build cannot locate its files,
 * so it needs `module` passed. */
export default async function init(input: { module?: ModuleInput; session?: ModuleInput } = {}): Promise<void> {
  const located = typeof import.meta.url === "string";
  if (!located && input.module === undefined) {
    throw new PlanloopError("planloop/slim: pass the modules to init({ module, session }) (the CommonJS build cannot locate its files)", "invalid_argument", {
      argument: "input",
    });
  }
  const source = (given: ModuleInput | undefined) => (given === undefined ? undefined : { module_or_path: given });
  await Promise.all([
    core === undefined ? coreInit(source(input.module)).then((made) => (core ??= new Engine(made as unknown as Exports))) : undefined,
    session === undefined && (input.session !== undefined || (located && input.module === undefined))
      ? sessionInit(source(input.session)).then((made) => (session ??= new Engine(made as unknown as Exports)))
      : undefined,
  ]);
}

/** Instantiates the modules from their bytes or compiled modules, synchronously (the
 * session module only if given). */
export function initSync(input: { module: ModuleSource; session?: ModuleSource }): void {
  core ??= new Engine(coreSync({ module: input.module }) as unknown as Exports);
  if (input.session !== undefined) session ??= new Engine(sessionSync({ module: input.session }) as unknown as Exports);
}
