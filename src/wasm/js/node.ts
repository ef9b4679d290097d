// planloop for Node (CommonJS): the modules are read from the package's own files,
// synchronously, when first used. No init step.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { initSync as coreSync } from "planloop-glue/core";
import { initSync as sessionSync } from "planloop-glue/session";

import { Engine, type Exports } from "./engine.js";
import { setModules } from "./modules.js";

export * from "./api.js";

let core: Engine | undefined;
let session: Engine | undefined;
const file = (name: string) => readFileSync(join(__dirname, name));

setModules({
  core: () => (core ??= new Engine(coreSync({ module: file("planloop_bg.wasm") }) as unknown as Exports)),
  session: () => (session ??= new Engine(sessionSync({ module: file("planloop_session_bg.wasm") }) as unknown as Exports)),
});
