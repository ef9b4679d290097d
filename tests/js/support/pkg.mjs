// The built Node package (make build), loaded from an ES module.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
export const planloop = require("../../../pkg/planloop.cjs");
