// Checks of indexed entities against the chain: each one a name, a verdict and, when it fails, what was
// expected and what the engine answered.
import { firstDifference } from "subgraph-workbench/parity";
import { closeToFraction, decimalEquals, formatDecimal, parseDecimal, type Decimal } from "./decimal.js";

export interface Check {
  name: string;
  ok: boolean;
  /** For a failed check: where the answer differs from the chain. */
  detail?: string;
}

export interface CheckList {
  readonly checks: Check[];
  /** JSON equality (order matters for arrays). */
  equal(name: string, actual: unknown, expected: unknown): void;
  /** The same set of strings, whatever the order; the detail names what is missing and what is extra. */
  sameSet(name: string, actual: Iterable<string>, expected: Iterable<string>): void;
  /** A BigDecimal field equal to an exact decimal. */
  decimal(name: string, actual: unknown, expected: Decimal): void;
  /** A BigDecimal field equal to num/den to `digits` significant digits (the result of a division). */
  ratio(name: string, actual: unknown, num: bigint, den: bigint, digits?: number): void;
}

export function createCheckList(): CheckList {
  const checks: Check[] = [];
  const add = (name: string, detail: string | null) => checks.push(detail === null ? { name, ok: true } : { name, ok: false, detail });
  return {
    checks,
    equal(name, actual, expected) {
      const diff = firstDifference(actual, expected);
      add(name, diff === null ? null : `answer vs chain: ${diff}`);
    },
    sameSet(name, actual, expected) {
      const a = new Set(actual);
      const e = new Set(expected);
      const missing = [...e].filter((x) => !a.has(x));
      const extra = [...a].filter((x) => !e.has(x));
      add(name, missing.length + extra.length === 0 ? null : `${a.size} indexed, ${e.size} on chain; missing ${list(missing)}; extra ${list(extra)}`);
    },
    decimal(name, actual, expected) {
      const value = parseDecimal(actual);
      add(name, value && decimalEquals(value, expected) ? null : `indexed ${JSON.stringify(actual)}, chain ${formatDecimal(expected)}`);
    },
    ratio(name, actual, num, den, digits = 30) {
      const value = parseDecimal(actual);
      if (den === 0n) return add(name, value && value.coefficient === 0n ? null : `indexed ${JSON.stringify(actual)}, chain has a zero denominator`);
      add(name, value && closeToFraction(value, num, den, digits) ? null : `indexed ${JSON.stringify(actual)}, chain ${num}/${den}`);
    },
  };
}

function list(items: string[]): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, 5).join(", ");
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown;
}
