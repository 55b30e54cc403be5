// A parity report as text: each open difference with its subject, both answers and where they differ.
import type { CaseReport } from "./types.js";

const clip = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 1200 ? `${text.slice(0, 1197)}...` : text;
};

export function formatReport(report: CaseReport): string {
  const lines = [`${report.case}: ${report.comparisons} comparisons, ${report.differences.length} open differences, ${report.accepted.length} accepted (${report.seconds.toFixed(1)} s)`];
  for (const d of report.differences) {
    lines.push(`  DIFF ${d.subject}: ${d.diff}`, `    local:      ${clip(d.local)}`, `    graph-node: ${clip(d.graphNode)}`);
  }
  for (const a of report.accepted) lines.push(`  accepted ${a.subject}: ${a.reason}`);
  return lines.join("\n");
}
