// `planloop` on the command line:
//
//   planloop audit [--json] [--policy FILE] PATH…   what planloop would have decided over
//                                                  recorded sessions (files or folders)
//   planloop hook claude-code                      a Claude Code Stop / SubagentStop hook
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

import type { ToolPolicy } from "planloop";

import { hook, type Outcome } from "./hook.js";
import { replay, type Report } from "./replay.js";
import { readTranscripts, UnreadableLine } from "./transcripts.js";

const USAGE = `usage:
  planloop audit [--json] [--policy FILE] PATH...
      Replays session logs (Claude Code .jsonl, Codex rollout-*.jsonl, planloop traces)
      and prints what planloop would have decided. PATH may be a folder.
  planloop hook claude-code [--max-continuations N]
      A Claude Code Stop hook: reads the hook's JSON on stdin and blocks a stop while
      the session's todo list is unfinished.`;

/** Runs `planloop` with `args`; `stdin` is read only by the hook. */
export function run(args: string[], stdin: () => string): Outcome {
  const [command, ...rest] = args;
  if (command === "hook" && rest[0] === "claude-code") {
    try {
      return hook(rest.slice(1), stdin());
    } catch (error) {
      // Exit code 2 would block the stop (and show Claude the error): a hook that fails
      // exits 1, which Claude Code reports and lets the stop happen.
      return { stdout: "", stderr: `planloop: ${(error as Error).message}\n`, code: 1 };
    }
  }
  try {
    if (command === "audit") return audit(rest);
  } catch (error) {
    return { stdout: "", stderr: `planloop: ${(error as Error).message}\n`, code: 2 };
  }
  return { stdout: "", stderr: `${USAGE}\n`, code: command === undefined || command === "--help" ? 0 : 2 };
}

/** Every .jsonl file under `path`, in name order. */
function files(path: string): string[] {
  if (!existsSync(path)) throw new Error(`${path}: no such file or folder`);
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => {
      const inner = join(path, name);
      return statSync(inner).isDirectory() ? files(inner) : name.endsWith(".jsonl") ? [inner] : [];
    });
}

function audit(args: string[]): Outcome {
  let json = false;
  let tools: ToolPolicy | undefined;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--json") json = true;
    else if (args[i] === "--policy") tools = JSON.parse(readFileSync(args[++i] ?? "", "utf8")) as ToolPolicy;
    else paths.push(args[i]!);
  }
  if (paths.length === 0) return { stdout: "", stderr: `${USAGE}\n`, code: 2 };
  const all = paths.flatMap(files);
  const reports: Report[] = [];
  let stderr = "";
  all.forEach((file, i) => {
    if (all.length > 1 && !json) stderr += `\r[${i + 1}/${all.length}] ${file}`;
    const failed = (what: string) => {
      stderr += `${all.length > 1 && !json ? "\n" : ""}planloop: ${what}\n`;
    };
    try {
      for (const transcript of readTranscripts(file, readFileSync(file, "utf8"))) {
        // One session planloop cannot replay (a call it refuses) is reported, not fatal.
        try {
          reports.push(replay(transcript, { tools }).report);
        } catch (error) {
          failed(`${file}${transcript.label}: ${(error as Error).message}`);
        }
      }
    } catch (error) {
      if (!(error instanceof UnreadableLine)) throw error;
      failed(error.message);
    }
  });
  if (all.length > 1 && !json) stderr += "\n";
  const unreadable = stderr.includes("planloop: ");
  return { stdout: json ? `${JSON.stringify(reports, null, 2)}\n` : table(reports), stderr, code: unreadable ? 1 : 0 };
}

/** The reports as a table, then each refused stop. */
function table(reports: Report[]): string {
  const rows = reports.map((r) => [
    `${r.file.split("/").pop()}${r.label}`,
    r.agent,
    r.model || "?",
    String(r.turns),
    `${r.todos.done}/${r.todos.total}`,
    r.refusedStops.map((s) => s.turn).join(",") || "-",
    String(r.overuseRefusals),
    String(r.stuckWarnings),
    String(r.held.length),
    r.last,
  ]);
  const head = ["session", "agent", "model", "turns", "todos", "stops refused at", "overuse", "stuck", "held", "last"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  let out = [line(head), ...rows.map(line)].join("\n") + "\n";
  for (const r of reports) {
    for (const stop of r.refusedStops) {
      out += `\n${r.file.split("/").pop()}${r.label}, turn ${stop.turn}: planloop would have sent\n${stop.message.replace(/^/gm, "  ")}\n`;
    }
  }
  return out;
}

if (require.main === module) {
  const outcome = run(process.argv.slice(2), () => readFileSync(0, "utf8"));
  process.stdout.write(outcome.stdout);
  process.stderr.write(outcome.stderr);
  process.exitCode = outcome.code;
}
