// planloop's default entry, for every host: both wasm modules inlined (base64), each
// decoded, compiled and instantiated synchronously on first use. No init step, no file
// or network access, so one file works in Node, bundlers, browsers, workers, Deno, Bun
// and a bare `vm` context alike. (`planloop/slim` loads the binary files instead.)
import { initSync as coreSync } from "planloop-glue/core";
import { initSync as sessionSync } from "planloop-glue/session";
import CORE_WASM from "planloop-wasm/core";
import SESSION_WASM from "planloop-wasm/session";

import { decodeBase64 } from "./base64.js";
import { Engine, type Exports } from "./engine.js";
import { setModules } from "./modules.js";

export * from "./api.js";

let core: Engine | undefined;
let session: Engine | undefined;

setModules({
  core: () => (core ??= new Engine(coreSync({ module: decodeBase64(CORE_WASM) }) as unknown as Exports)),
  session: () => (session ??= new Engine(sessionSync({ module: decodeBase64(SESSION_WASM) }) as unknown as Exports)),
});
