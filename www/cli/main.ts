// `planloop` on the command line:
//
//   planloop audit [--json] [--policy FILE] PATH…   what planloop would have decided over
//                                                  recorded sessions (files or folders)
//   planloop hook claude-code                      a Claude Code Stop / SubagentStop hook
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

import type { Todo, TodoStatus, ToolPolicy } from "planloop";

import { agentFiles, readText, sessionFiles, why } from "./files.js";
import { hook, type Outcome } from "./hook.js";
import type { Transcript } from "./log.js";
import { replay, type ChildReport, type Report } from "./replay.js";
import { adopt, agentSession, type Child } from "./subagents.js";
import { readTranscripts } from "./transcripts.js";

const USAGE = `usage:
  planloop audit [--json] [--policy FILE] PATH...
      Replays session logs (Claude Code, Codex CLI, Cline, Factory Droid and Cursor logs,
      planloop traces) and prints what planloop would have decided. PATH may be a folder.
      Claude Code's sub-agents are shown under the calls that started them.
      A path, line or session it cannot read is reported on stderr and the rest is read;
      the exit code is then 1. On a terminal, stderr shows which file is being read.
  planloop hook claude-code [--max-continuations N]
      A Claude Code Stop hook: reads the hook's JSON on stdin and blocks a stop while
      the session's todo list is unfinished.`;

/** What `planloop` may use beyond its arguments. */
export interface Io {
  /** The standard input, read only by the hook. */
  stdin: () => string;
  /** Shows which file the audit is reading, the `at`-th of `of` (on a terminal), or `undefined`. */
  progress?: (at: number, of: number, file: string) => void;
}

/** Runs `planloop` with `args`. */
export function run(args: string[], io: Io): Outcome {
  const [command, ...rest] = args;
  if (command === "hook" && rest[0] === "claude-code") {
    try {
      return hook(rest.slice(1), io.stdin());
    } catch (error) {
      // Exit code 2 would block the stop (and show Claude the error): a hook that fails
      // exits 1, which Claude Code reports and lets the stop happen.
      return { stdout: "", stderr: `planloop: ${(error as Error).message}\n`, code: 1 };
    }
  }
  try {
    if (command === "audit") return audit(rest, io.progress);
  } catch (error) {
    return { stdout: "", stderr: `planloop: ${(error as Error).message}\n`, code: 2 };
  }
  return { stdout: "", stderr: `${USAGE}\n`, code: command === undefined || command === "--help" ? 0 : 2 };
}

function audit(args: string[], progress: Io["progress"]): Outcome {
  let json = false;
  let tools: ToolPolicy | undefined;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--json") json = true;
    else if (args[i] === "--policy") tools = JSON.parse(readFileSync(args[++i] ?? "", "utf8")) as ToolPolicy;
    else paths.push(args[i]!);
  }
  if (paths.length === 0) return { stdout: "", stderr: `${USAGE}\n`, code: 2 };
  // Whatever cannot be read is told, and the rest is read.
  const problems: string[] = [];
  const found = sessionFiles(paths, (problem) => problems.push(problem));
  // A session's sub-agents in files of their own are read with it, not on their own. (A
  // file the walk met and could not read is told once.)
  const told = new Set(problems);
  const agents = new Map(found.map((file) => [file, agentFiles(file, (problem) => told.has(problem) || problems.push(problem))]));
  const within = new Set([...agents.values()].flat().map((file) => resolve(file)));
  const all = found.filter((file) => !within.has(resolve(file)));
  const reports: Report[] = [];
  all.forEach((file, i) => {
    progress?.(i + 1, all.length, file);
    let content: string;
    try {
      content = readText(file);
    } catch (error) {
      problems.push(`${file}: ${why(error)}`);
      return;
    }
    const reading = readTranscripts(file, content);
    problems.push(...reading.problems);
    const apart = agents.get(file)!.flatMap((agent) => agentSession(agent, problems) ?? []);
    const [first] = reading.transcripts;
    // (A parent that cannot be read leaves its sub-agents as sessions of their own.)
    const sessions = first ? reading.transcripts : apart.map((sidechain) => sidechain.transcript);
    for (const transcript of sessions) {
      const children = adopt(transcript, [...(transcript.sidechains ?? []), ...(transcript === first ? apart : [])]);
      // One session planloop cannot replay (a call it refuses) is reported, not fatal.
      try {
        reports.push(audited(transcript, children, tools, problems).report);
      } catch (error) {
        problems.push(`${transcript.file}${transcript.label}: ${(error as Error).message}`);
      }
    }
  });
  const stderr = problems.map((problem) => `planloop: ${problem}\n`).join("");
  return { stdout: json ? `${JSON.stringify(reports, null, 2)}\n` : table(reports), stderr, code: problems.length > 0 ? 1 : 0 };
}

/** `transcript`'s report and final list, with its sub-agents' reports under it (a
 *  sub-agent planloop cannot replay is reported in `problems` and left out). */
function audited(transcript: Transcript, children: Child[], tools: ToolPolicy | undefined, problems: string[]): { report: Report; todos: Todo[] } {
  const { report, session } = replay(transcript, { tools });
  const todos = session.todos();
  const reports: ChildReport[] = [];
  for (const child of children) {
    try {
      const { report: found, todos } = audited(child.transcript, child.children, tools, problems);
      const { spawn } = child;
      reports.push({
        call: spawn ? { id: spawn.id, turn: spawn.turn, tool: spawn.tool, description: spawn.description } : null,
        agentType: child.agentType,
        todoList: todos.map(({ content, status }) => ({ content, status })),
        ...found,
      });
    } catch (error) {
      problems.push(`${child.transcript.file}${child.transcript.label}: ${(error as Error).message}`);
    }
  }
  if (reports.length > 0) report.children = reports;
  return { report, todos };
}

/** A session's name in the text report: its file's, and where in the file. */
const named = (r: Report) => `${r.file.split("/").pop()}${r.label}`;

/** A todo's status as the continuation message shows it. */
const MARKS: Record<TodoStatus, string> = { completed: "[x]", in_progress: "[-]", pending: "[ ]" };

/** Receipts shown under an item, the last ones. */
const RECEIPTS_SHOWN = 3;

/** Each item of the list, with the calls that back it, an item completed with none
 *  flagged as unbacked. */
function items(r: Report, indent: string): string {
  let out = "";
  for (const item of r.items) {
    const flag = item.unbacked ? "  UNBACKED: completed with no receipt" : item.receipts.length > 0 ? `  (${item.receipts.length} receipt${item.receipts.length === 1 ? "" : "s"})` : "";
    out += `${indent}${MARKS[item.status]} ${item.content}${flag}\n`;
    for (const receipt of item.receipts.slice(-RECEIPTS_SHOWN)) {
      // (The observation is shown as the trail shows it: one line, nothing hidden.)
      out += `${indent}    ${receipt.observation || `${JSON.stringify(receipt.name)} ${receipt.ok ? "ok" : "failed"}`}\n`;
    }
  }
  return out;
}

/** Each session's list with its evidence, each refused stop, then each sub-agent under
 *  the call that started it. */
function findings(r: Report, indent: string): string {
  let out = "";
  if (indent === "" && r.items.length > 0) out += `\n${named(r)}: todos and their evidence\n${items(r, "  ")}`;
  for (const stop of r.refusedStops) {
    const where = indent === "" ? `${named(r)}, turn ${stop.turn}` : `${indent}turn ${stop.turn}`;
    out += `\n${where}: planloop would have sent\n${stop.message.replace(/^/gm, `${indent}  `)}\n`;
  }
  if (r.children) out += `\n${indent === "" ? `${named(r)}: ` : indent}${r.children.length} sub-agent${r.children.length === 1 ? "" : "s"}\n`;
  for (const child of r.children ?? []) {
    const kind = child.agentType === "" ? "" : ` (${child.agentType})`;
    // (The description is the model's text: quoted, so it stays on its line.)
    const call = child.call ? `turn ${child.call.turn}, ${child.call.tool} ${JSON.stringify(child.call.description)}` : "not linked to a call";
    const stops = child.refusedStops.map((s) => s.turn).join(",") || "-";
    out += `${indent}  ${call}${kind}: ${named(child)}\n`;
    out += `${indent}    model ${child.model || "?"}, turns ${child.turns}, todos ${child.todos.done}/${child.todos.total}, stops refused at ${stops}, overuse ${child.overuseRefusals}, stuck ${child.stuckWarnings}, held ${child.held.length}, last ${child.last}\n`;
    out += items(child, `${indent}    `);
    out += findings(child, `${indent}    `);
  }
  return out;
}

/** The reports as a table, then each refused stop and sub-agent. */
function table(reports: Report[]): string {
  const rows = reports.map((r) => [
    named(r),
    r.agent,
    r.model || "?",
    String(r.turns),
    `${r.todos.done}/${r.todos.total}`,
    r.refusedStops.map((s) => s.turn).join(",") || "-",
    String(r.overuseRefusals),
    String(r.stuckWarnings),
    String(r.held.length),
    r.last,
    String(r.items.filter((item) => item.unbacked).length),
  ]);
  const head = ["session", "agent", "model", "turns", "todos", "stops refused at", "overuse", "stuck", "held", "last", "unbacked"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(head), ...rows.map(line)].join("\n") + "\n" + reports.map((r) => findings(r, "")).join("");
}

if (require.main === module) {
  // On a terminal, one progress line rewritten in place; in a pipe or a log, none.
  const terminal = process.stderr.isTTY === true;
  // (The file cut to the terminal's width from the left, keeping its name: a line that
  // wrapped could not be rewritten.)
  const width = (process.stderr.columns || 80) - 1;
  const progress = terminal
    ? (at: number, of: number, file: string) => {
        const count = `[${at}/${of}] `;
        const room = Math.max(width - count.length, 10);
        process.stderr.write(`\r\x1b[K${count}${file.length > room ? `…${file.slice(file.length - room + 1)}` : file}`);
      }
    : undefined;
  const outcome = run(process.argv.slice(2), { stdin: () => readFileSync(0, "utf8"), progress });
  if (terminal) process.stderr.write("\r\x1b[K");
  process.stdout.write(outcome.stdout);
  process.stderr.write(outcome.stderr);
  process.exitCode = outcome.code;
}
