// The pure half of `npm run bench:peers`: a digest of the rows each engine holds (to prove all three
// indexed the same events), and the table of figures, ratios and issue 18's targets.
import { createHash } from "node:crypto";

export type EngineName = "ours" | "ponder" | "graph-node";
export const ENGINES: EngineName[] = ["ours", "ponder", "graph-node"];

export interface ApprovalRow {
  id: string;
  owner: string;
  spender: string;
  value: string;
}

export interface RowDigest {
  count: number;
  sha256: string;
  /** Sorted and normalised, for naming the first difference. */
  rows: ApprovalRow[];
}

/** Hex as lower case (Ponder keeps what viem decoded, checksummed addresses), values as decimal text. */
function normalise(row: ApprovalRow): ApprovalRow {
  return { id: row.id.toLowerCase(), owner: row.owner.toLowerCase(), spender: row.spender.toLowerCase(), value: BigInt(row.value).toString() };
}

/** Rows sorted by id (bytewise, as graph-node orders), hashed as `id,owner,spender,value` lines. */
export function digestRows(rows: ApprovalRow[]): RowDigest {
  const sorted = rows.map(normalise).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const hash = createHash("sha256");
  for (const r of sorted) hash.update(`${r.id},${r.owner},${r.spender},${r.value}\n`);
  return { count: sorted.length, sha256: hash.digest("hex"), rows: sorted };
}

/** The first row where two sorted row lists part, described for an error message. */
function firstDifference(a: ApprovalRow[], b: ApprovalRow[], aName: string, bName: string): string {
  const line = (r: ApprovalRow | undefined) => (r ? `${r.id} ${r.owner} ${r.spender} ${r.value}` : "(no row)");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.id !== y.id || x.owner !== y.owner || x.spender !== y.spender || x.value !== y.value) {
      return `row ${i}: ${aName} has ${line(x)}, ${bName} has ${line(y)}`;
    }
  }
  return "no row differs";
}

/** Every engine's rows against the chain's own events; throws naming each engine that differs. */
export function compareWithChain(chain: RowDigest, engines: Partial<Record<EngineName, RowDigest>>): void {
  const wrong: string[] = [];
  for (const [name, d] of Object.entries(engines) as [EngineName, RowDigest][]) {
    if (d.sha256 === chain.sha256) continue;
    wrong.push(`${name} holds ${d.count} rows (digest ${d.sha256.slice(0, 12)}), the chain ${chain.count} events (digest ${chain.sha256.slice(0, 12)}); first difference: ${firstDifference(d.rows, chain.rows, name, "the chain")}`);
  }
  if (wrong.length) throw new Error(`the engines do not hold the same rows as the chain:\n  ${wrong.join("\n  ")}`);
}

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
  goal: number;
  /** "min": value ≥ goal is met; "max": value ≤ goal. */
  kind: "min" | "max";
  unit: string;
  note?: string;
}

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
  for (const engine of ENGINES) {
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

/** Issue 18's targets, measured on this run (over several rounds: on the medians, see summarise). */
export function targetsOf(figures: EngineFigure[]): Target[] {
  const summary = summarise(figures);
  const by = (name: EngineName) => summary.find((f) => f.engine === name);
  const [ours, ponder, graphNode] = [by("ours"), by("ponder"), by("graph-node")];
  const events = figures[0]?.events ?? 0;
  // Each target is set for one workload: the small chain's for 1,200 events, the others for 100,000.
  const forWorkload = (workload: number) =>
    events !== workload ? { note: `the issue sets it for ${workload.toLocaleString("en-US")} events; this run has ${events.toLocaleString("en-US")}` } : {};
  return [
    { label: "indexing ≥ 3× Ponder", value: indexingRatio(ours, ponder), goal: 3, kind: "min", unit: "×", ...forWorkload(100_000) },
    { label: "cold end to end ≥ 2× Ponder", value: coldRatio(ours, ponder), goal: 2, kind: "min", unit: "×", ...forWorkload(100_000) },
    { label: "indexing ≥ 10× graph-node", value: indexingRatio(ours, graphNode), goal: 10, kind: "min", unit: "×", ...forWorkload(100_000) },
    { label: "cold end to end ≥ 2× graph-node on a small chain", value: coldRatio(ours, graphNode), goal: 2, kind: "min", unit: "×", ...forWorkload(1200) },
    { label: "our peak memory ≤ 300 MiB", value: ours ? ours.peakMiB : null, goal: 300, kind: "max", unit: " MiB", ...forWorkload(100_000) },
  ];
}

function met(t: Target): string {
  if (t.value === null) return "not measured";
  return (t.kind === "min" ? t.value >= t.goal : t.value <= t.goal) ? "met" : "NOT met";
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
export function formatReport(figures: EngineFigure[]): string {
  const events = figures[0]?.events ?? 0;
  const summary = summarise(figures);
  const rounds = summary.length < figures.length;
  const out = [`${num(events)} Approval events on one Hardhat chain; engines run one after the other${rounds ? ", in rounds" : ""}`, ""];
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
  out.push("", "issue 18's targets:");
  for (const t of targetsOf(figures)) {
    const value = t.value === null ? "-" : `${num(t.value, t.unit === "×" ? 2 : 0)}${t.unit}`;
    out.push(`  ${met(t).padEnd(12)} ${t.label}: ${value}${t.note ? ` (${t.note})` : ""}`);
  }
  return out.join("\n");
}
