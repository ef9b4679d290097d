// Builds target/plugin/main.js, an editor plugin's one-file bundle made from the package
// as a plugin author makes it (the bundle test runs it as a CommonJS module and as a
// classic script, the benchmark weighs it); and pkg/bin/planloop.js, the `planloop` command.
import { chmodSync } from "node:fs";
import { build } from "esbuild";

const pkg = (file) => new URL(`../pkg/${file}`, import.meta.url).pathname;
await build({
  entryPoints: [new URL("../www/plugin/entry.ts", import.meta.url).pathname],
  outfile: new URL("../target/plugin/main.js", import.meta.url).pathname,
  bundle: true,
  format: "iife",
  globalName: "planloop",
  platform: "browser",
  target: "es2022",
  // What `npm install planloop` would resolve: the package's ES module entries.
  alias: { "planloop/runner/openai": pkg("runner/openai.js"), "planloop/runner": pkg("runner/chain.js"), planloop: pkg("planloop.mjs") },
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
