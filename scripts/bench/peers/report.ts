// The pure half of `npm run bench:peers`: the table of figures, ratios and the issue's targets, for one
// workload (the rows' digests are rows.ts's).
import type { EngineName } from "./engineNames.js";
import type { Workload } from "./workload.js";

export interface EngineFigure {
  engine: EngineName;
  /** Which run of this engine (1, 2, ...), when the bench ran it more than once. */
  round?: number;
  events: number;
  /** The engine's own indexing, from its log or status (see each engine's module). */
  indexingSeconds: number;
  /** Process start (or codegen for graph-node) to every event queryable. */
  coldSeconds: number;
  cpuSeconds: number;
  peakMiB: number;
  /** Where the cold time went, in order. */
  phases: { label: string; seconds: number }[];
  /** Groups of processes reported apart (graph-node: gnd, postgres), and each process's own peak. */
  parts: { label: string; peakMiB: number; cpuSeconds: number }[];
  processes: { command: string; peakMiB: number }[];
}

export interface Target {
  label: string;
  /** The measured ratio or figure, or null when an engine it needs did not run. */
  value: number | null;
  /** The peer's figure the value is held against (a ratio's goal, or the peer's own peak). */
  goal: number | null;
  /** "min": value ≥ goal is met; "below": value < goal. */
  kind: "min" | "below";
  unit: string;
  note?: string;
  /** Set for another chain size than this run's: shown, but neither met nor missed here. */
  otherChain?: boolean;
}

/** What the report needs of a workload: its name, what an event is, and the event counts the issue sets targets for. */
export type ReportedWorkload = Pick<Workload, "name" | "eventsLabel" | "targets">;

const rate = (f: EngineFigure) => f.events / f.indexingSeconds;

/** Indexing speed ours/peer (higher is better for us), or null when one did not run. */
function indexingRatio(ours: EngineFigure | undefined, peer: EngineFigure | undefined): number | null {
  return ours && peer ? rate(ours) / rate(peer) : null;
}

/** Cold speed ours/peer: the peer's seconds over ours. */
function coldRatio(ours: EngineFigure | undefined, peer: EngineFigure | undefined): number | null {
  return ours && peer ? peer.coldSeconds / ours.coldSeconds : null;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * One figure per engine: its only run, or over several runs the median of each time and of the CPU, and
 * the highest peak (the memory cap must hold in every run). Its phases and processes are those of the
 * run whose indexing time is nearest the median.
 */
export function summarise(figures: EngineFigure[]): EngineFigure[] {
  const out: EngineFigure[] = [];
  // In the order the engines first ran.
  for (const engine of [...new Set(figures.map((f) => f.engine))]) {
    const runs = figures.filter((f) => f.engine === engine);
    if (runs.length === 0) continue;
    if (runs.length === 1) {
      out.push(runs[0]!);
      continue;
    }
    const indexingSeconds = median(runs.map((f) => f.indexingSeconds));
    const typical = runs.reduce((a, b) => (Math.abs(b.indexingSeconds - indexingSeconds) < Math.abs(a.indexingSeconds - indexingSeconds) ? b : a));
    const { round: _round, ...rest } = typical;
    out.push({
      ...rest,
      indexingSeconds,
      coldSeconds: median(runs.map((f) => f.coldSeconds)),
      cpuSeconds: median(runs.map((f) => f.cpuSeconds)),
      peakMiB: Math.max(...runs.map((f) => f.peakMiB)),
    });
  }
  return out;
}

/**
 * Issue 54's targets for one workload, measured on this run (over several rounds: on the medians, see
 * summarise), against every peer in `peers` (default: those that ran; one asked for but missing is not measured).
 */
export function targetsOf(figures: EngineFigure[], workload: ReportedWorkload, peers?: EngineName[]): Target[] {
  const summary = summarise(figures);
  const by = (name: EngineName) => summary.find((f) => f.engine === name);
  const ours = by("ours");
  const events = figures[0]?.events ?? 0;
  // Each target is set for one chain: the small chain's for its 1,200 events, the others for 100,000.
  const forEvents = (count: number) =>
    events !== count ? { note: `the issue sets it for ${count.toLocaleString("en-US")} events; this run has ${events.toLocaleString("en-US")}`, otherChain: true } : {};
  const full = forEvents(workload.targets.events);
  const targets: Target[] = [];
  for (const peer of peers ?? summary.map((f) => f.engine).filter((e) => e !== "ours")) {
    const theirs = by(peer);
    targets.push(
      { label: `indexing ≥ 3× ${peer}`, value: indexingRatio(ours, theirs), goal: 3, kind: "min", unit: "×", ...full },
      { label: `cold end to end ≥ 2× ${peer}`, value: coldRatio(ours, theirs), goal: 2, kind: "min", unit: "×", ...full },
      { label: `our peak memory below ${peer}'s${theirs ? ` (${num(theirs.peakMiB)} MiB)` : ""}`, value: ours && theirs ? ours.peakMiB : null, goal: theirs?.peakMiB ?? null, kind: "below", unit: " MiB", ...full },
    );
  }
  const small = workload.targets.smallChainEvents;
  if (small !== undefined) {
    targets.push({ label: `cold end to end ≥ 2× graph-node on the ${num(small)}-event chain`, value: coldRatio(ours, by("graph-node")), goal: 2, kind: "min", unit: "×", ...forEvents(small) });
  }
  return targets;
}

function met(t: Target): string {
  if (t.value === null || t.goal === null) return "not measured";
  if (t.otherChain) return "not judged";
  return (t.kind === "min" ? t.value >= t.goal : t.value < t.goal) ? "met" : "NOT met";
}

const num = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)];
}

/** Each round's indexing ratio ours/peer, when both ran the same rounds. */
function ratiosByRound(figures: EngineFigure[], peer: EngineName): number[] {
  const ours = figures.filter((f) => f.engine === "ours");
  const theirs = figures.filter((f) => f.engine === peer);
  if (ours.length < 2 || ours.length !== theirs.length) return [];
  return ours.map((o, i) => indexingRatio(o, theirs[i])!);
}

/** The figures (every run, then the medians), the ratios against each peer that ran, and the targets. */
export function formatReport(figures: EngineFigure[], workload: ReportedWorkload, targetPeers?: EngineName[]): string {
  const events = figures[0]?.events ?? 0;
  const summary = summarise(figures);
  const rounds = summary.length < figures.length;
  const out = [`workload ${workload.name}: ${num(events)} ${workload.eventsLabel} on one Hardhat chain; engines run one after the other${rounds ? ", in rounds" : ""}`, ""];
  const line = (f: EngineFigure, label: string) => [label, num(rate(f)), num(f.indexingSeconds, 2), num(f.coldSeconds, 1), num(f.cpuSeconds, 1), num(f.peakMiB)];
  const rows = figures.map((f) => line(f, f.round === undefined ? f.engine : `${f.engine} #${f.round}`));
  // A median line for each engine that ran more than once (graph-node runs once).
  const repeated = summary.filter((f) => figures.filter((g) => g.engine === f.engine).length > 1);
  rows.push(...repeated.map((f) => line(f, `${f.engine} (median; highest peak)`)));
  out.push(...table(["engine", "indexing ev/s", "indexing s", "cold e2e s", "CPU s", "peak MiB"], rows));
  for (const f of summary) {
    out.push("", `${f.engine}: cold ${f.phases.map((p) => `${p.label} ${num(p.seconds, 1)} s`).join(", ")}`);
    for (const p of f.parts) out.push(`  ${p.label}: peak ${num(p.peakMiB)} MiB, CPU ${num(p.cpuSeconds, 1)} s`);
    for (const p of f.processes.slice(0, 6)) out.push(`  ${num(p.peakMiB).padStart(6)} MiB  ${p.command}`);
  }
  const ours = summary.find((f) => f.engine === "ours");
  const peers = summary.filter((f) => f.engine !== "ours");
  if (ours && peers.length) {
    out.push("", `ratios, each "higher is better for us" (speed: ours/peer; CPU and memory: peer/ours)${rounds ? ", from the medians" : ""}:`);
    out.push(
      ...table(
        ["peer", "indexing", "cold e2e", "CPU", "memory"],
        peers.map((p) => [p.engine, `${num(indexingRatio(ours, p)!, 2)}×`, `${num(coldRatio(ours, p)!, 2)}×`, `${num(p.cpuSeconds / ours.cpuSeconds, 2)}×`, `${num(p.peakMiB / ours.peakMiB, 2)}×`]),
      ),
    );
  }
  for (const peer of peers) {
    const byRound = ratiosByRound(figures, peer.engine);
    if (byRound.length) out.push(`indexing ours/${peer.engine} round by round: ${byRound.map((r) => `${num(r, 2)}×`).join(", ")}`);
  }
  out.push("", `issue 54's targets on ${workload.name}:`);
  for (const t of targetsOf(figures, workload, targetPeers)) {
    const value = t.value === null ? "-" : `${num(t.value, t.unit === "×" ? 2 : 0)}${t.unit}`;
    out.push(`  ${met(t).padEnd(12)} ${t.label}: ${value}${t.note ? ` (${t.note})` : ""}`);
  }
  return out.join("\n");
}
