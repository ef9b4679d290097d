// Headless Chromium for the browser tests: Debian's build, which scripts/setup.sh installs.
import { chromium } from "playwright-core";

export function launchChromium() {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
}
