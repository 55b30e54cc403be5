// `--strict`: the suite's verdicts under Matchstick's semantics against those under graph-node's.
// A test that passes with Matchstick's mock store but fails on graph-node's (or the reverse) points at
// a mapping that would behave differently when indexed for real (merge vs replace, immutability,
// missing entities, kind checks, ENS data ...).
import type { Logger } from "./logger.js";
import type { StoreSemantics } from "./matchstick/testStore.js";
import type { RunOutcome } from "./runFiles.js";

export type Verdict = "passed" | "failed" | "not run";

export interface VerdictChange {
  /** `tests/x.test.ts › describe › test` */
  test: string;
  first: Verdict;
  second: Verdict;
  /** Why the failing side failed: the first line of its failure log (or the message that stopped the run). */
  reason: string | null;
}

interface Entry {
  verdict: Verdict;
  reason: string | null;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** The first meaningful line of a failed test's logs, without Matchstick's level prefix. */
export function firstReason(logs: string): string | null {
  for (const raw of logs.replace(ANSI, "").split("\n")) {
    const line = raw.trim().replace(/^(🆘|𝖷|⚠️|💬|🛠|√)\s*/u, "");
    if (line.length > 0 && !line.startsWith("wasm backtrace")) return line;
  }
  return null;
}

function verdicts(outcome: RunOutcome): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const file of outcome.files) {
    if (file.couldNotRun !== null) out.set(`${file.display} › (file)`, { verdict: "failed", reason: firstReason(file.couldNotRun) });
    const seen = new Map<string, number>();
    for (const t of file.tests) {
      let id = [file.display, ...t.groups, t.name].join(" › ");
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      if (n > 1) id += ` (#${n})`;
      out.set(id, { verdict: t.passed ? "passed" : "failed", reason: t.passed ? null : firstReason(t.logs) });
    }
  }
  return out;
}

export function compareVerdicts(first: RunOutcome, second: RunOutcome): VerdictChange[] {
  const a = verdicts(first);
  const b = verdicts(second);
  const changes: VerdictChange[] = [];
  const notRun = (outcome: RunOutcome): Entry => ({ verdict: "not run", reason: outcome.aborted === null ? null : firstReason(outcome.aborted) });
  for (const test of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(test) ?? notRun(first);
    const y = b.get(test) ?? notRun(second);
    if (x.verdict === y.verdict) continue;
    changes.push({ test, first: x.verdict, second: y.verdict, reason: (y.verdict === "passed" ? x.reason : y.reason) ?? null });
  }
  if (first.aborted === null && second.aborted !== null && changes.length === 0) {
    changes.push({ test: "(the run)", first: "passed", second: "failed", reason: firstReason(second.aborted) });
  }
  return changes;
}

const NAMES: Record<StoreSemantics, string> = { matchstick: "Matchstick", "graph-node": "graph-node" };

export function printStrictReport(logger: Logger, first: StoreSemantics, second: StoreSemantics, changes: VerdictChange[], secondOutcome: RunOutcome): void {
  logger.styled(`\n--strict: the same tests on ${NAMES[second]}'s semantics: ${secondOutcome.passed} passed, ${secondOutcome.failed} failed`, "cyan");
  if (changes.length === 0) {
    logger.styled("No test changes its verdict.", "green");
    return;
  }
  logger.styled(`${changes.length} test${changes.length === 1 ? " changes its" : "s change their"} verdict:`, "red");
  logger.addIndent();
  for (const c of changes) {
    logger.log("error", `${c.test}: ${c.first} under ${NAMES[first]}, ${c.second} on ${NAMES[second]}`);
    if (c.reason !== null) {
      logger.addIndent();
      logger.styled(c.reason, "dim");
      logger.subIndent();
    }
  }
  logger.subIndent();
}
