// Where the API's two wasm modules come from, for planloop/slim: its `init` sets them.
// (The default entry's build puts `inline.ts`, the inlined modules, in this file's place.)
// Each is instantiated on first use, so a host that only validates never loads the
// session engine.
import type { Engine } from "./engine.js";

/** The two modules, each made on first use. */
export interface Modules {
  core(): Engine;
  session(): Engine;
}

let modules: Modules | undefined;

export function setModules(source: Modules): void {
  modules = source;
}

function source(): Modules {
  if (modules === undefined) throw new Error("planloop internal error: no entry point set the modules");
  return modules;
}

/** The primitives' module. */
export function core(): Engine {
  return source().core();
}

/** The session engine's module. */
export function session(): Engine {
  return source().session();
}
