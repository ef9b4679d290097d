// The browser demo: a scripted (or real, OpenAI-compatible, or with `?live` a tiny local)
// model driven by the reference chain runner, with planloop deciding each step. Everything shown comes from the session:
// the checklist, the trail, the nudges, the approval cards, the plan review and the pause.
import init, { Session } from "planloop/slim";
import type { JsonSchema, ModelResponse, Proposal, SessionConfig, SessionSnapshot } from "planloop/slim";

import { ChainRunner, type ChatMessage, type ChatModel, type ChatRequest, type HostTool, type RunnerOptions, type TurnOutcome, type Verdict } from "../runner/chain.js";
import { type OpenAIOptions, openAIChatModel } from "../runner/openai.js";
import { LIVE_LABEL, measuredFetch } from "./live.js";

/** A scenario file (www/demo/scenarios/*.json). */
interface Scenario {
  id: string;
  title: string;
  summary: string;
  config: SessionConfig;
  prompt: string;
  /** Canned output of each host tool. */
  tools: Record<string, string>;
  /** The JSON Schema of a host tool's arguments (any object when not given). */
  parameters?: Record<string, JsonSchema>;
  /** What the user says, turn by turn (offered in the composer). */
  messages: string[];
  /** The model's responses, in order, across the whole scenario. */
  script: ModelResponse[];
  /** Each sub-agent's responses, in order, by the id of the delegate call that starts it. */
  children?: Record<string, ModelResponse[]>;
}

/** One line of the transcript, as shown and as saved across a reload. */
interface Entry {
  kind: "user" | "assistant" | "tool" | "nudge" | "final" | "stop";
  label: string;
  text: string;
  /** The delegate call whose sub-agent this line is from. */
  agent?: string;
}

/** What survives a reload besides the session. */
interface Run {
  scenario: string;
  cursor: number;
  turn: number;
  entries: Entry[];
  /** How many of the runner's messages are shown. */
  rendered: number;
  /** The last message the user sent, to tell planloop's own user messages apart. */
  typed: string;
}

const SCENARIOS = ["early-stop", "approvals", "plan-review", "limit-and-continue", "sub-agent"];
const ENDPOINT = "endpoint";
/** The scenario a tiny local model plays (`make demo-live` opens the page with `?live`). */
const LIVE = "live";
const live = new URLSearchParams(location.search).has(LIVE);
const RUN_KEY = "planloop-demo:run";
const SESSION_KEY = "planloop-demo:session";
const delay = new URLSearchParams(location.search).has("fast") ? 0 : 450;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const scenarioSelect = $<HTMLSelectElement>("scenario");
const trailMode = $<HTMLSelectElement>("trail-mode");
const composer = $<HTMLFormElement>("composer");
const input = $<HTMLInputElement>("message");

let scenarios = new Map<string, Scenario>();
let runner: ChainRunner | null = null;
let run: Run | null = null;

function entry(kind: Entry["kind"], label: string, text: string, agent?: string): void {
  const e: Entry = { kind, label, text, agent };
  run?.entries.push(e);
  show(e);
  save();
}

function show(e: Entry): void {
  const li = document.createElement("li");
  li.className = e.kind;
  li.dataset.kind = e.kind;
  if (e.agent !== undefined) li.dataset.agent = e.agent;
  const label = document.createElement("span");
  label.className = "label";
  label.textContent = e.label;
  li.append(label, e.text);
  $("transcript").append(li);
  li.scrollIntoView({ block: "nearest" });
}

/** Shows the conversation messages the runner added since the last call. */
function renderMessages(): void {
  if (!runner || !run) return;
  for (const message of runner.messages.slice(run.rendered)) renderMessage(message);
  run.rendered = runner.messages.length;
  save();
}

/** Shows one message: the user's conversation's, or with `agent` a sub-agent's (every user
 * message of a sub-agent is planloop's). */
function renderMessage(message: ChatMessage, agent?: string): void {
  switch (message.role) {
    case "user":
      if (agent !== undefined) entry("nudge", `planloop tells sub-agent ${agent}`, message.content, agent);
      else if (run && message.content !== run.typed) entry("nudge", "planloop tells the model", message.content);
      break;
    case "assistant": {
      const calls = message.toolCalls.map((c) => `→ ${c.name}(${typeof c.args === "string" ? c.args : JSON.stringify(c.args)})`).join("\n");
      entry("assistant", agent === undefined ? "model" : `sub-agent ${agent}`, [message.content, calls].filter(Boolean).join("\n"), agent);
      break;
    }
    case "tool": {
      const label = `${agent === undefined ? "" : `${agent} › `}${message.name}${message.isError ? " (error)" : ""}`;
      entry("tool", label, message.content.length > 280 ? `${message.content.slice(0, 280)}…` : message.content, agent);
      break;
    }
    default:
      break;
  }
}

/** Plan, progress and trail, from the session. */
function renderPanels(): void {
  const session = runner?.session;
  const list = $("checklist");
  list.replaceChildren();
  if (!session) return;
  const todos = session.todos();
  const steps = session.stepPlan()?.steps ?? [];
  const items = todos.length > 0 ? todos.map((t) => [t.status, t.content]) : steps.map((s) => [s.status, s.description]);
  const plan = session.plan();
  if (items.length === 0 && plan) items.push(...plan.plan.split("\n").filter(Boolean).map((line) => ["pending", line]));
  for (const [status, text] of items) {
    const li = document.createElement("li");
    li.className = status ?? "pending";
    li.textContent = text ?? "";
    list.append(li);
  }
  // The session's progress while work is open; the checklist's own count once it is done.
  const progress = session.progress();
  const done = items.filter(([status]) => status === "completed").length;
  const [completed, total] = progress.total > 0 ? [progress.completed, progress.total] : [done, items.length];
  $("progress-bar").style.width = `${total > 0 ? (100 * completed) / total : 0}%`;
  $("progress-text").textContent = total > 0
    ? `${completed} of ${total} done${progress.current ? ` · now: ${progress.current}` : ""} · ${progress.iterations} of ${progress.maxIterations} model calls this turn`
    : "No plan yet.";
  const lines = session.steps();
  const shown = trailMode.value === "full" ? lines : lines.slice(-4);
  $("trail").replaceChildren(...shown.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
}

/** A model that replays a script: `next` gives each response in turn. */
function scriptedModel(next: () => ModelResponse | undefined): ChatModel {
  return {
    async complete(_request: ChatRequest): Promise<ModelResponse> {
      await new Promise((resolve) => setTimeout(resolve, delay));
      return next() ?? { text: "(The scripted scenario has no more replies.)", toolCalls: [] };
    },
  };
}

/** Your endpoint, from the form, or with `?live` the local model server behind this page. */
function remoteModel(id: string): ChatModel {
  const value = (field: string) => $<HTMLInputElement>(field).value.trim();
  const options: OpenAIOptions = id === LIVE
    ? { baseUrl: `${location.origin}/v1`, model: "local", fetch: measuredFetch((line) => { $("live-stats").textContent = line; }) }
    : { baseUrl: value("base-url") || "https://api.openai.com/v1", model: value("model") || "gpt-4o-mini", apiKey: value("api-key") };
  return openAIChatModel(options);
}

/** `model` as the page shows it: before each call, the conversation so far and the panels.
 * A sub-agent's conversation is the runner's own, so with `agent` (its delegate call's id)
 * its messages show from each request, and its responses as they come. */
function shown(model: ChatModel, agent?: string): ChatModel {
  let seen = 1; // a sub-agent's system prompt is not shown
  return {
    async complete(request: ChatRequest): Promise<ModelResponse> {
      renderMessages();
      renderPanels();
      if (agent === undefined) return model.complete(request);
      // Its own responses were shown as they came.
      for (const m of request.messages.slice(seen)) if (m.role !== "assistant") renderMessage(m, agent);
      seen = request.messages.length;
      const response = await model.complete(request);
      const calls = (response.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args }));
      renderMessage({ role: "assistant", content: response.text ?? null, toolCalls: calls }, agent);
      return response;
    },
  };
}

/** The models of a run: the scenario's scripts (a sub-agent's by its delegate call's id), or
 * your endpoint or the local model for the agent and its sub-agents alike. */
function models(id: string, scenario: Scenario): Pick<RunnerOptions, "model" | "subAgentModel"> {
  if (id === ENDPOINT || id === LIVE) {
    const remote = remoteModel(id);
    return { model: shown(remote), subAgentModel: (d) => shown(remote, d.callId) };
  }
  return {
    model: shown(scriptedModel(() => scenario.script[run ? run.cursor++ : 0])),
    subAgentModel: (d) => {
      let at = 0;
      return shown(scriptedModel(() => scenario.children?.[d.callId]?.[at++]), d.callId);
    },
  };
}

function hostTools(scenario: Scenario): HostTool[] {
  return Object.entries(scenario.tools).map(([name, output]) => ({
    definition: { name, description: `The ${name.replaceAll("_", " ")} tool of this demo.`, parameters: scenario.parameters?.[name] ?? { type: "object" } },
    run: () => output,
  }));
}

/** An approval card; resolves with the user's decision. */
function askApproval(proposal: Proposal): Promise<Verdict> {
  renderMessages();
  renderPanels();
  return new Promise((resolve) => {
    const card = document.createElement("div");
    card.className = "card approval";
    card.dataset.tool = proposal.tool;
    const agent = proposal.chain?.at(-1)?.callId;
    const title = Object.assign(document.createElement("h3"), { textContent: `Approval needed: ${proposal.tool}${agent === undefined ? "" : ` (sub-agent ${agent})`}` });
    const why = Object.assign(document.createElement("p"), { textContent: proposal.justification });
    const args = Object.assign(document.createElement("textarea"), { value: JSON.stringify(proposal.args, null, 2), readOnly: true });
    args.setAttribute("aria-label", "arguments");
    const reason = Object.assign(document.createElement("input"), { placeholder: "Why not? (the model reads this)" });
    const actions = document.createElement("div");
    actions.className = "actions";
    const decide = (verdict: Verdict, text: string) => {
      card.classList.add("decided");
      actions.replaceChildren(Object.assign(document.createElement("p"), { textContent: text, className: "muted" }));
      args.readOnly = true;
      entry("user", "you decided", `${proposal.tool}: ${text}`);
      resolve(verdict);
    };
    const button = (label: string, className: string, onClick: () => void) => {
      const b = Object.assign(document.createElement("button"), { type: "button", textContent: label, className });
      b.addEventListener("click", onClick);
      return b;
    };
    actions.append(
      button("Approve", "approve", () => decide({ approve: true }, "approved")),
      button("Edit", "quiet edit", () => { args.readOnly = false; args.focus(); }),
      button("Approve edited", "quiet approve-edited", () => {
        try {
          decide({ approve: true, editedArgs: JSON.parse(args.value) }, "approved with edits");
        } catch {
          reason.value = "";
          args.setCustomValidity("Not valid JSON");
          args.reportValidity();
        }
      }),
      button("Always allow", "quiet always", () => decide({ approve: true, scope: "always" }, `approved, and always allowed from now on`)),
      reason,
      button("Reject", "danger reject", () => decide({ approve: false, message: reason.value || "No." }, `rejected: ${reason.value || "No."}`)),
    );
    card.append(title, why, args, actions);
    $("cards").append(card);
  });
}

function showOutcome(outcome: TurnOutcome): void {
  renderMessages();
  renderPanels();
  switch (outcome.type) {
    case "finalize":
      entry("final", "final answer", outcome.answer);
      break;
    case "pause":
    case "fail":
      entry("stop", outcome.type === "pause" ? "paused" : "failed", `${outcome.summary}\n(Reload the page if you like: the session is saved in localStorage.)`);
      break;
    case "awaitPlanReview": {
      const card = document.createElement("div");
      card.className = "card review";
      card.append(Object.assign(document.createElement("h3"), { textContent: "Plan review" }), Object.assign(document.createElement("pre"), { textContent: outcome.message }));
      $("cards").append(card);
      break;
    }
  }
}

async function send(message: string): Promise<void> {
  // One run at a time: a double click, or Send during a run, starts nothing.
  if (!runner || !run || runner.busy) return;
  input.value = "";
  setBusy(true);
  run.typed = message;
  entry("user", "you", message);
  try {
    const outcome = await runner.send(message);
    showOutcome(outcome);
  } catch (error) {
    entry("stop", "error", error instanceof Error ? error.message : String(error));
  }
  run.turn += 1;
  offerNext();
  setBusy(false);
  save();
}

function setBusy(busy: boolean): void {
  $<HTMLButtonElement>("send").disabled = busy;
  $<HTMLButtonElement>("start").disabled = busy;
  input.disabled = busy;
  document.body.dataset.busy = String(busy);
}

function offerNext(): void {
  const scenario = run && scenarios.get(run.scenario);
  input.value = scenario?.messages[run?.turn ?? 0] ?? "";
}

function save(): void {
  if (run) localStorage.setItem(RUN_KEY, JSON.stringify(run));
}

function makeRunner(scenario: Scenario, session: Session, id: string): ChainRunner {
  return new ChainRunner({
    session,
    ...models(id, scenario),
    tools: hostTools(scenario),
    prompt: { base: scenario.prompt },
    approve: askApproval,
    onEvent: () => renderPanels(),
    store: { load: () => localStorage.getItem(SESSION_KEY), save: (text) => localStorage.setItem(SESSION_KEY, text) },
  });
}

function clear(): void {
  $("transcript").replaceChildren();
  $("cards").replaceChildren();
  $("checklist").replaceChildren();
  $("trail").replaceChildren();
  $("progress-bar").style.width = "0";
  $("progress-text").textContent = "No plan yet.";
}

async function start(): Promise<void> {
  if (runner?.busy) return;
  const id = scenarioSelect.value;
  const scenario = scenarios.get(id === ENDPOINT ? "early-stop" : id);
  if (!scenario) return;
  localStorage.removeItem(SESSION_KEY);
  clear();
  run = { scenario: scenario.id, cursor: 0, turn: 0, entries: [], rendered: 0, typed: "" };
  runner = makeRunner(scenario, new Session(scenario.config), id);
  if (id === ENDPOINT) {
    offerNext();
    return;
  }
  await send(scenario.messages[0] ?? "");
}

/** After a reload: the session and the conversation come back from localStorage. */
async function resume(): Promise<boolean> {
  const saved = localStorage.getItem(RUN_KEY);
  if (!saved) return false;
  run = JSON.parse(saved) as Run;
  const scenario = scenarios.get(run.scenario);
  if (!scenario) return false;
  scenarioSelect.value = scenario.id;
  runner = makeRunner(scenario, new Session(scenario.config), scenario.id);
  if (!(await runner.restore((snapshot) => Session.restore(snapshot as SessionSnapshot)))) return false;
  for (const e of run.entries) show(e);
  entry("nudge", "restored", "The session was restored from localStorage after a reload.");
  renderPanels();
  offerNext();
  return true;
}

async function main(): Promise<void> {
  await init();
  const ids = live ? [LIVE, ...SCENARIOS] : SCENARIOS;
  const loaded = await Promise.all(ids.map(async (id) => (await fetch(`/scenarios/${id}.json`)).json() as Promise<Scenario>));
  scenarios = new Map(loaded.map((s) => [s.id, s]));
  for (const s of loaded) scenarioSelect.append(new Option(s.title, s.id));
  if (live) {
    $("live-stats").hidden = false;
    $("live-stats").textContent = `${LIVE_LABEL}: press Start; each model call's tokens per second show here.`;
  }
  scenarioSelect.append(new Option("Your OpenAI-compatible endpoint", ENDPOINT));
  const describe = () => {
    const s = scenarios.get(scenarioSelect.value);
    $("summary").textContent = s ? s.summary : "Point the loop at any OpenAI-compatible endpoint; it gets this demo's note tools.";
    $("endpoint").hidden = scenarioSelect.value !== ENDPOINT;
  };
  scenarioSelect.addEventListener("change", describe);
  trailMode.addEventListener("change", renderPanels);
  $("setup").addEventListener("submit", (event) => { event.preventDefault(); void start(); });
  $("reset").addEventListener("click", () => { localStorage.removeItem(RUN_KEY); localStorage.removeItem(SESSION_KEY); location.reload(); });
  composer.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) void send(input.value.trim());
  });
  await resume();
  describe();
  document.body.dataset.ready = "true";
}

void main();
