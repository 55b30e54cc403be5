// A suite run as text: one line per case with each engine's verdict, then each failure's first failing
// assertion, the run times and any note (a contract at another address than graph-node expects).
import type { EngineLabel } from "./engines.js";
import type { SuiteReport } from "./runSuite.js";

export function formatSuiteReport(report: SuiteReport): string {
  const engines = [...new Set(report.results.map((r) => r.engine))].sort() as EngineLabel[];
  const cases = [...new Set(report.results.map((r) => r.case))];
  const lines = [`graph-node test suites at ${report.commit?.slice(0, 8) ?? "unknown commit"}: ${report.seconds.toFixed(0)} s`];
  for (const engine of engines) {
    const mine = report.results.filter((r) => r.engine === engine);
    const count = (v: string) => mine.filter((r) => r.verdict === v).length;
    lines.push(`  ${engine}: ${count("pass")} pass, ${count("fail")} fail, ${count("cannot run")} cannot run, of ${mine.length} (${report.engineSeconds[engine]?.toFixed(0) ?? "?"} s)`);
  }
  const width = Math.max(...cases.map((c) => c.length));
  lines.push("", `  ${"case".padEnd(width)}  ${engines.map((e) => e.padEnd(11)).join("  ")}`);
  for (const c of cases) {
    const cells = engines.map((e) => {
      const r = report.results.find((x) => x.case === c && x.engine === e);
      return (r ? `${r.verdict} ${r.seconds.toFixed(0)}s` : "-").padEnd(11);
    });
    lines.push(`  ${c.padEnd(width)}  ${cells.join("  ")}`);
  }
  const failed = report.results.filter((r) => r.verdict !== "pass");
  if (failed.length) lines.push("");
  for (const r of failed) lines.push(`  ${r.verdict.toUpperCase()} ${r.engine} ${r.case}: ${r.failure ?? ""}${r.reason ? `\n    (${r.reason})` : ""}`);
  for (const n of report.notes) lines.push(`  note: ${n}`);
  return lines.join("\n");
}

export function suitePassed(report: SuiteReport): boolean {
  return report.results.every((r) => r.verdict !== "fail");
}
