// Completes pkg/package.json after the two wasm-pack builds: one package that Node
// loads from its root and bundlers and browsers load from web/.
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../pkg/package.json", import.meta.url);
const pkg = JSON.parse(readFileSync(path, "utf8"));
pkg.files = [...new Set([...(pkg.files ?? []), "web/planloop.js", "web/planloop_bg.wasm", "web/planloop.d.ts", "web/planloop_bg.wasm.d.ts"])];
pkg.exports = {
  ".": {
    types: "./planloop.d.ts",
    node: "./planloop.js",
    default: "./web/planloop.js",
  },
  "./web": {
    types: "./web/planloop.d.ts",
    default: "./web/planloop.js",
  },
  "./package.json": "./package.json",
};
writeFileSync(path, JSON.stringify(pkg, null, 2) + "\n");
