// The files `planloop` reads, all of them untrusted: the session logs under the paths
// `planloop audit` is given, and each file's text, read up to a bound. A folder is walked
// with its links followed (logs are often linked in), but each folder and file is visited
// once, by its identity on disk, so a link back up the tree (`loop -> .`) or a second link
// to a folder already read ends there instead of going round: the walk is linear in the
// entries it meets, and it keeps its own stack, so no depth of folders runs it out of one.
import { closeSync, openSync, readdirSync, readSync, statSync, type Dirent, type Stats } from "node:fs";
import { basename, dirname, join } from "node:path";

/** The most a file may hold (a JavaScript string holds at most about 512 M characters). */
export const MAX_BYTES = 256 * 1024 * 1024;
const CHUNK = 1024 * 1024;

/** Whether a file met in a folder is a session log planloop reads. */
function isSessionFile(name: string): boolean {
  // Cline keeps each task as tasks/<id>/api_conversation_history.json.
  return name.endsWith(".jsonl") || name === "api_conversation_history.json";
}

/** Why a path cannot be read, in words. */
export function why(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case "ENOENT":
      return "no such file or folder (or a link to nothing)";
    case "ELOOP":
      return "a link that never ends (it leads back to itself)";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ENOTDIR":
      return "not a folder";
    case "ENAMETOOLONG":
      return "the path is too long";
    default:
      return (error as Error).message;
  }
}

/**
 * The session files under `paths`, in the order given and by name within a folder, each
 * once. A path named is read whatever it is (a pipe too); in a folder, only regular files
 * named like session logs are. A path that cannot be read is told to `unreadable` as
 * `path: why`, and the walk goes on.
 */
export function sessionFiles(paths: string[], unreadable: (problem: string) => void): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  // Paths still to visit, the next one last; `named` marks a path given on the command line.
  const stack = paths.map((path) => ({ path, named: true })).reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { path, named } = next;
    let stats: Stats;
    try {
      stats = statSync(path);
    } catch (error) {
      unreadable(`${path}: ${why(error)}`);
      continue;
    }
    const identity = `${stats.dev}:${stats.ino}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    if (!stats.isDirectory()) {
      if (named || (stats.isFile() && isSessionFile(basename(path)))) files.push(path);
      continue;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch (error) {
      unreadable(`${path}: ${why(error)}`);
      continue;
    }
    // Links are looked at through (they may lead to a folder, or nowhere); other files
    // only when named like a log.
    const kept = entries.filter((e) => e.isDirectory() || e.isSymbolicLink() || isSessionFile(e.name)).map((e) => e.name);
    kept.sort();
    for (let i = kept.length - 1; i >= 0; i--) stack.push({ path: join(path, kept[i]!), named: false });
  }
  return files;
}

/**
 * The sub-agents' files of a Claude Code session: 2.x writes each sub-agent of
 * `<folder>/<session>.jsonl` to `<folder>/<session>/subagents/agent-<agentId>.jsonl`. Only
 * regular files, by name; none for a session without that folder. `agent-acompact-*` files
 * hold the context compaction, which no call started: they are left out. A folder or file
 * that cannot be looked at is told to `unreadable`.
 */
export function agentFiles(session: string, unreadable: (problem: string) => void): string[] {
  if (!session.endsWith(".jsonl")) return [];
  const folder = join(dirname(session), basename(session, ".jsonl"), "subagents");
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") unreadable(`${folder}: ${why(error)}`);
    return [];
  }
  const files: string[] = [];
  for (const name of names.filter((n) => n.startsWith("agent-") && n.endsWith(".jsonl") && !n.startsWith("agent-acompact-")).sort()) {
    const path = join(folder, name);
    try {
      if (statSync(path).isFile()) files.push(path);
    } catch (error) {
      unreadable(`${path}: ${why(error)}`);
    }
  }
  return files;
}

/** The text of the file at `path`, read in chunks up to `MAX_BYTES` (a pipe or a device
 *  that never ends is cut off there, with an error). */
export function readText(path: string): string {
  const fd = openSync(path, "r");
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const read = readSync(fd, chunk, 0, CHUNK, null);
      if (read === 0) break;
      total += read;
      if (total > MAX_BYTES) throw new Error(`larger than ${MAX_BYTES / 1024 / 1024} MB, more than planloop reads`);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks, total).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
