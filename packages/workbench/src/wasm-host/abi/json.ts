// JSONValue (graph-ts) as plain JS. Numbers keep their source text, as graph-node stores them.
export type JsonValue =
  | { kind: "null" }
  | { kind: "bool"; value: boolean }
  /** The number's text as written in the JSON (graph-ts converts it with json.toI64/toU64/toF64/toBigInt). */
  | { kind: "number"; value: string }
  | { kind: "string"; value: string }
  | { kind: "array"; value: JsonValue[] }
  /** Object entries in source order. */
  | { kind: "object"; value: [string, JsonValue][] };
