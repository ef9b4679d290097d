// make demo-live: the demo page driven by a tiny local model (SmolLM2-135M on the CPU, through
// the live-model test server), both on 127.0.0.1. Opt-in: the model and node-llama-cpp come
// from scripts/setup.sh. Ctrl-C stops both servers.
import { fileURLToPath } from "node:url";

import { startServer } from "../tests/live/server.mjs";
import { startDemoServer } from "./serve.mjs";

/** The model server on a free port and the demo page on `port`, passing /v1 to the model;
 * `close()` stops both. */
export async function startLiveDemo(port = 0) {
  const live = await startServer();
  try {
    const demo = await startDemoServer(port, { api: live.url });
    return {
      url: `${demo.url}?live`,
      model: live.model,
      log: live.log,
      close: async () => {
        demo.server.close();
        demo.server.closeAllConnections();
        await live.close();
      },
    };
  } catch (error) {
    await live.close();
    throw error;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const demo = await startLiveDemo(Number(process.argv[2] ?? 8080));
  console.log(`planloop demo with a tiny local model (${demo.model}): ${demo.url}  (Ctrl-C to stop)`);
  const stop = () => demo.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
