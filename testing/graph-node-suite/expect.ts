// The assertions of graph-node's test functions, restated: each failure throws with what was asserted,
// and the first one thrown is the case's verdict. Equality is serde_json's `Value` equality: objects by
// their keys in any order, arrays in order, numbers by value.
import { BaseError } from "subgraph-workbench/lib/errors";

export class AssertionFailed extends BaseError {
  override name = "AssertionFailed";
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  const ak = Object.keys(a as object);
  const bk = Object.keys(b as object);
  return ak.length === bk.length && ak.every((k) => Object.hasOwn(b as object, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const show = (value: unknown) => {
  const text = JSON.stringify(value);
  return text === undefined ? "undefined" : text.length > 800 ? `${text.slice(0, 797)}...` : text;
};

/** `assert!(condition, message)`. */
export function assert(condition: boolean, message: string, actual?: unknown): asserts condition {
  if (!condition) throw new AssertionFailed(actual === undefined ? message : `${message}; got ${show(actual)}`);
}

/** `assert_eq!(expected, actual)`, with what was being checked. */
export function assertEqual(what: string, actual: unknown, expected: unknown): void {
  if (!jsonEqual(actual, expected)) throw new AssertionFailed(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

/** Reads `value[key]...` as serde_json's index does: absent or not an object gives null. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== "object") return null;
    v = (v as Record<string | number, unknown>)[key] ?? null;
  }
  return v ?? null;
}

export function asArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new AssertionFailed(`${what}: expected an array, got ${show(value)}`);
  return value;
}
