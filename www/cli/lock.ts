// One process at a time over a file, with what Node offers (no flock): each contender
// creates a file of its own beside the guarded one (`<file>.lock.<ticket>`, created
// exclusively, so never through a link), then lists the folder, and goes in only when it
// sees no other contender's file. Two can never both be in: each would have listed the
// folder before the other's file existed, yet each created its own file before listing.
// The contender with the earliest ticket waits with its file in place; the others take
// theirs away and come back, so the earliest goes in as soon as it is alone, and tickets
// taken first go in first. A file left by a process that died (on this machine), or older
// than anyone holds a lock, is removed by its exact name, which cannot remove another's.
import { closeSync, lstatSync, openSync, readdirSync, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";

/** Waits between looks at the folder (random within, so that contenders drift apart). */
const WAIT_MS = [2, 12] as const;
/** How many looks before giving up: with the waits above, a few seconds. */
const LOOKS = 500;
/** A lock file older than this was left behind: a hook runs for seconds. */
const LEFT_BEHIND_MS = 10 * 60 * 1000;

/** This machine, as it appears in ticket names (a process id means something only here). */
const machine = fnv(hostname());

function fnv(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A ticket: when it was taken (so that earlier sorts first), by which process, where. */
function ticket(): string {
  const random = Math.floor(Math.random() * 36 ** 4).toString(36).padStart(4, "0");
  return `${Date.now().toString(36).padStart(9, "0")}.${process.pid}.${machine}.${random}`;
}

/** Whether the contender whose ticket is `ticket` (its file at `path`) is gone. */
function leftBehind(path: string, ticket: string): boolean {
  const [, digits, host] = ticket.split(".");
  const pid = /^[1-9][0-9]{0,9}$/.test(digits ?? "") ? Number(digits) : 0;
  if (host === machine && pid === process.pid) return true;
  if (host === machine && pid > 0) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return true;
    }
  }
  try {
    return Date.now() - lstatSync(path).mtimeMs > LEFT_BEHIND_MS;
  } catch {
    return false;
  }
}

function remove(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Runs `work` while no other process runs it for `file`; throws if the wait runs out. */
export function exclusively<T>(file: string, work: () => T): T {
  const folder = dirname(file);
  const prefix = `${basename(file)}.lock.`;
  const mine = prefix + ticket();
  const path = join(folder, mine);
  let present = false;
  try {
    for (let look = 0; look < LOOKS; look++) {
      if (!present) {
        closeSync(openSync(path, "wx", 0o600));
        present = true;
      }
      const others = readdirSync(folder).filter((name) => name.startsWith(prefix) && name !== mine);
      if (others.length === 0) return work();
      const live = others.filter((name) => {
        const gone = leftBehind(join(folder, name), name.slice(prefix.length));
        if (gone) remove(join(folder, name));
        return !gone;
      });
      if (live.length === 0) continue;
      if (live.some((name) => name < mine)) {
        // Someone came first: make way for them.
        remove(path);
        present = false;
      }
      sleep(WAIT_MS[0] + Math.random() * (WAIT_MS[1] - WAIT_MS[0]));
    }
    throw new Error(`${file}: another planloop process holds it for longer than planloop waits`);
  } finally {
    if (present) remove(path);
  }
}
