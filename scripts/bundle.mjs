// Builds pkg/planloop.bundle.js: one self-contained script (wasm inlined) that works as
// a CommonJS module (`require`, as editor plugins load it) and as a classic browser
// script (the global `planloop`).
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
