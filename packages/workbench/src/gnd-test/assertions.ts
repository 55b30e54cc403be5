// gnd test's comparison of a query's data with an assertion's `expected` (gnd/src/commands/test/
// assertion.rs): objects by key (the same keys), arrays as multisets (order ignored, same length), a
// string equal to a number's decimal text, null and booleans strictly. And, for the failure report, the
// actual value with its arrays put into the expected order where elements match best (an `id` counts
// most), so the printed diff shows only what differs.
import type { Json } from "./testFile.js";

export function jsonEqual(a: Json, b: Json): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === "boolean" || typeof b === "boolean") return a === b;
  if (typeof a === "string" && typeof b === "number") return a === String(b);
  if (typeof a === "number" && typeof b === "string") return String(a) === b;
  if (typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    const used = new Array<boolean>(b.length).fill(false);
    return a.every((item) => {
      const i = b.findIndex((other, j) => !used[j] && jsonEqual(item, other));
      if (i < 0) return false;
      used[i] = true;
      return true;
    });
  }
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k]!, b[k]!));
}

function similarity(a: Json, b: Json): number {
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    let score = 0;
    for (const [k, v] of Object.entries(a)) if (Object.hasOwn(b, k) && jsonEqual(v, b[k]!)) score += k === "id" ? 100 : 1;
    return score;
  }
  return jsonEqual(a, b) ? 1 : 0;
}

export function alignForDiff(expected: Json, actual: Json): Json {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const used = new Array<boolean>(actual.length).fill(false);
    const aligned: Json[] = [];
    for (const item of expected) {
      let best = -1;
      for (let i = 0; i < actual.length; i++) if (!used[i] && (best < 0 || similarity(item, actual[i]!) > similarity(item, actual[best]!))) best = i;
      if (best >= 0) {
        used[best] = true;
        aligned.push(alignForDiff(item, actual[best]!));
      }
    }
    actual.forEach((item, i) => used[i] || aligned.push(item));
    return aligned;
  }
  if (expected && actual && typeof expected === "object" && typeof actual === "object" && !Array.isArray(expected) && !Array.isArray(actual)) {
    return Object.fromEntries(Object.entries(actual).map(([k, v]) => [k, Object.hasOwn(expected, k) ? alignForDiff(expected[k]!, v) : v]));
  }
  return actual;
}
