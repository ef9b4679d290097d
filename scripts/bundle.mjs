// Builds pkg/planloop.bundle.js: one self-contained script (wasm inlined) that works as
// a CommonJS module (`require`, as editor plugins load it) and as a classic browser
// script (the global `planloop`); and pkg/bin/planloop.js, the `planloop` command.
import { chmodSync } from "node:fs";
import { build } from "esbuild";

await build({
  entryPoints: [new URL("../www/plugin/entry.ts", import.meta.url).pathname],
  outfile: new URL("../pkg/planloop.bundle.js", import.meta.url).pathname,
  bundle: true,
  format: "iife",
  globalName: "planloop",
  platform: "neutral",
  target: "es2022",
  loader: { ".wasm": "binary" },
  // The web glue names import.meta.url only for its async loader, which the bundle never calls.
  logOverride: { "empty-import-meta": "silent" },
  footer: { js: 'if (typeof module === "object" && module.exports) module.exports = planloop;' },
  legalComments: "none",
});

// The command loads planloop itself by the package's own name (Node resolves a package's
// name from inside it through its `exports`).
await build({
  entryPoints: [new URL("../www/cli/main.ts", import.meta.url).pathname],
  outfile: new URL("../pkg/bin/planloop.js", import.meta.url).pathname,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node18",
  external: ["planloop"],
  banner: { js: "#!/usr/bin/env node" },
  legalComments: "none",
});
chmodSync(new URL("../pkg/bin/planloop.js", import.meta.url), 0o755);
