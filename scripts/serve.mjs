// make demo: serves the browser demo page (www/demo) on 127.0.0.1 and prints its address.
// Also imported by the end-to-end tests, which start it on a free port, and by
// `make demo-live`, which passes /v1 through to a local model server.
import { readFile } from "node:fs/promises";
import { createServer, request as forwardRequest } from "node:http";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const TYPES = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".wasm": "application/wasm" };
/** URL folders and the project folders they serve (file names only: no `..`, no subfolders). */
const FOLDERS = { "/demo/": "target/www/demo/", "/runner/": "target/www/runner/", "/pkg/": "pkg/", "/scenarios/": "www/demo/scenarios/" };
const FILES = { "/": "www/demo/index.html", "/styles.css": "www/demo/styles.css" };

function fileFor(path) {
  if (FILES[path]) return FILES[path];
  for (const [prefix, folder] of Object.entries(FOLDERS)) {
    const name = path.startsWith(prefix) ? path.slice(prefix.length) : null;
    if (name && /^[\w.-]+$/.test(name) && !name.startsWith(".")) return folder + name;
  }
  return null;
}

/** Starts the demo server on `port` (0: any free one); resolves to it and its address. With
 * `api` (an origin such as `http://127.0.0.1:8081`), requests under /v1/ go on to it, so the
 * page calls a model server as its own origin (no CORS on a test server). */
export function startDemoServer(port = 0, { api } = {}) {
  return startServer(
    (path) => {
      const file = fileFor(path);
      return file && root + file;
    },
    port,
    api && ((request, response) => forward(request, response, api)),
  );
}

/** Passes `request` on to `origin` and its answer back. */
function forward(request, response, origin) {
  const onward = forwardRequest(new URL(request.url, origin), { method: request.method, headers: { "content-type": request.headers["content-type"] ?? "application/json" } }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, { "content-type": answer.headers["content-type"] ?? "application/json" });
    answer.pipe(response);
  });
  onward.on("error", (error) => {
    if (!response.headersSent) response.writeHead(502, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: `the model server did not answer: ${error.message}` } }));
  });
  request.pipe(onward);
}

/** A static server on 127.0.0.1: `fileFor(path)` names the file for a URL path, or null;
 * `api(request, response)`, when given, answers every request under /v1/. */
export async function startServer(fileFor, port = 0, api = null) {
  const server = createServer(async (request, response) => {
    if (api && request.url.startsWith("/v1/")) return api(request, response);
    const file = fileFor(new URL(request.url, "http://localhost").pathname);
    try {
      if (!file) throw new Error("not found");
      const body = await readFile(file);
      response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
      response.end(body);
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await startDemoServer(Number(process.argv[2] ?? 8080));
  console.log(`planloop demo: ${url}  (Ctrl-C to stop)`);
}
