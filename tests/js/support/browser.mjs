// Headless Chromium for the browser tests: Debian's build, which scripts/setup.sh installs.
import { chromium } from "playwright-core";

const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Chromium, launched again once if it dies while starting (seen here as a rare SIGSEGV
 * at launch on a loaded machine; a crash in a test itself still fails that test). */
export async function launchChromium() {
  try {
    return await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
  } catch (error) {
    if (!/has been closed|SIGSEGV|SIGTRAP/.test(String(error))) throw error;
    return chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
  }
}

/** The console errors and uncaught exceptions of `page`, as they come. */
export function watchErrors(page) {
  const errors = [];
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** planloop/slim's files, as a test server serves them (at /pkg/) from the repository `root`. */
export function webPackage(root) {
  const files = {};
  for (const file of ["slim.mjs", "planloop_bg.wasm", "planloop_session_bg.wasm"]) files[`/pkg/${file}`] = `${root}pkg/${file}`;
  return files;
}
