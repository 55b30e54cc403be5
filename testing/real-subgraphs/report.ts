// A real-subgraph run as text: per engine its status and how many checks against the chain passed, each
// failed check with where the answer differs; with both engines, the parity comparisons.
import type { RealSubgraphReport } from "./runRealSubgraph.js";

const SHOWN_FAILURES = 40;

const clip = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 600 ? `${text.slice(0, 597)}...` : text;
};

export function formatRealSubgraphReport(report: RealSubgraphReport): string {
  const commit = report.commit ? report.commit.slice(0, 12) : "unknown commit";
  const lines = [`${report.subgraph}: ${report.repository} at ${commit}${report.commit === report.testedCommit ? "" : ` (checks written against ${report.testedCommit.slice(0, 12)})`}; chain head ${report.head}; ${report.seconds.toFixed(1)} s`];
  for (const engine of report.engines) {
    const passed = engine.checks.filter((c) => c.ok).length;
    const status = "health" in engine.status ? `${engine.status.health}, ${engine.status.synced ? "synced" : "not synced"}, latest block ${engine.status.latestBlock ?? "none"}${engine.status.fatalError ? `, fatal error: ${engine.status.fatalError.message}` : ""}` : `did not index: ${engine.status.error}`;
    lines.push(`  ${engine.label}: ${status}`, `  ${engine.label}: ${passed}/${engine.checks.length} checks against the chain passed`);
    const failed = engine.checks.filter((c) => !c.ok);
    for (const c of failed.slice(0, SHOWN_FAILURES)) lines.push(`    FAIL ${c.name}: ${c.detail ?? ""}`);
    if (failed.length > SHOWN_FAILURES) lines.push(`    ... and ${failed.length - SHOWN_FAILURES} more failed checks`);
  }
  if (report.parity) {
    const p = report.parity;
    lines.push(`  parity: ${p.comparisons} comparisons, ${p.differences.length} open differences, ${p.accepted.length} accepted`);
    for (const d of p.differences) lines.push(`    DIFF ${d.subject}: ${d.diff}`, `      local:      ${clip(d.local)}`, `      graph-node: ${clip(d.graphNode)}`);
    for (const a of p.accepted) lines.push(`    accepted ${a.subject}: ${a.reason}`);
  }
  return lines.join("\n");
}

/** True when every engine passed every check and no parity difference is open. */
export function realSubgraphPassed(report: RealSubgraphReport): boolean {
  return report.engines.every((e) => e.checks.every((c) => c.ok) && "health" in e.status && e.status.health === "healthy") && (report.parity?.differences.length ?? 0) === 0;
}
