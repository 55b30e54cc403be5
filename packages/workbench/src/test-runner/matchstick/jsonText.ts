// JSON text -> graph-ts JSONValue as plain data, keeping each number's source text (as graph-node's
// serde_json with arbitrary precision does), so big integers survive `toBigInt`.
import type { JsonValue } from "../../wasm-host/index.js";

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

function convert(value: unknown, source: string | undefined): JsonValue {
  if (value === null) return { kind: "null" };
  if (typeof value === "boolean") return { kind: "bool", value };
  if (typeof value === "number") return { kind: "number", value: source ?? String(value) };
  if (typeof value === "string") return { kind: "string", value };
  if (Array.isArray(value)) return { kind: "array", value: value as JsonValue[] };
  return { kind: "object", value: Object.entries(value as Record<string, JsonValue>) };
}

export function parseJsonText(text: string): JsonValue {
  // The reviver runs bottom-up: children are already JsonValue when their parent is converted.
  const reviver: Reviver = (_key, value, context) => convert(value, context?.source);
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown) as JsonValue;
}
