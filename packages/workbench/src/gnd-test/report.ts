// Results and their report in `gnd test`'s words and layout (gnd/src/commands/test/output.rs): a line
// per test file (✔/✘ and its name), a `Handler error:` line, a line per assertion, then each failed
// assertion's query and a line diff of expected (-) against actual (+), and `Tests: N passed, N failed`.
import { diffLines } from "diff";
import { alignForDiff } from "./assertions.js";
import type { Json } from "./testFile.js";

export type AssertionOutcome = { query: string; passed: true } | { query: string; passed: false; expected: Json; actual: Json };

export interface TestResult {
  file: string;
  name: string;
  /** Why the test failed before its assertions could run (a handler's error, an unmocked call, a sync timeout). */
  handlerError: string | null;
  assertions: AssertionOutcome[];
}

export function testPassed(result: TestResult): boolean {
  return result.handlerError === null && result.assertions.every((a) => a.passed);
}

export function formatTestResult(result: TestResult): string {
  const lines = [`  ${testPassed(result) ? "✔" : "✘"} ${result.name}`];
  if (result.handlerError !== null) lines.push(`    Handler error: ${result.handlerError}`);
  for (const a of result.assertions) lines.push(`    ${a.passed ? "✔" : "✘"} ${a.query}`);
  return lines.join("\n");
}

export function formatFailures(results: TestResult[]): string {
  const blocks: string[] = [];
  for (const result of results) {
    for (const a of result.assertions) {
      if (a.passed) continue;
      const expected = JSON.stringify(a.expected, null, 2);
      const actual = JSON.stringify(alignForDiff(a.expected, a.actual), null, 2);
      const diff = diffLines(`${expected}\n`, `${actual}\n`).flatMap((part) =>
        part.value
          .replace(/\n$/, "")
          .split("\n")
          .map((line) => (part.removed ? `      - ${line}` : part.added ? `      + ${line}` : `        ${line}`)),
      );
      blocks.push([`  ● ${result.name} →`, `    Query: ${a.query}`, "    Diff: (-) expected (+) actual", ...diff].join("\n"));
    }
  }
  return blocks.length === 0 ? "" : `\nFailures:\n\n${blocks.join("\n\n")}`;
}

export function formatSummary(results: TestResult[]): string {
  const passed = results.filter(testPassed).length;
  return `Tests: ${passed} passed, ${results.length - passed} failed`;
}
