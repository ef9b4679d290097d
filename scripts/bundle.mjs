// Builds target/plugin/main.js, an editor plugin's one-file bundle made from the package
// as a plugin author makes it (the bundle test runs it as a CommonJS module and as a
// classic script, the benchmark weighs it); and pkg/bin/planloop.js, the `planloop` command.
import { chmodSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { build } from "esbuild";

// `planloop` resolved by its name, through pkg/package.json's exports, as an installed
// package is: a folder holding only a link to pkg/, searched like node_modules.
const packages = new URL("../target/plugin/packages/", import.meta.url).pathname;
rmSync(packages, { recursive: true, force: true });
mkdirSync(packages, { recursive: true });
symlinkSync(new URL("../pkg", import.meta.url).pathname, `${packages}planloop`, "dir");
await build({
  entryPoints: [new URL("../www/plugin/entry.ts", import.meta.url).pathname],
  outfile: new URL("../target/plugin/main.js", import.meta.url).pathname,
  bundle: true,
  format: "iife",
  globalName: "planloop",
  platform: "browser",
  target: "es2022",
  nodePaths: [packages],
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
