// Matching a manifest's event signature against an ABI, the way graph-node does: an exact match of
// `Name(indexed type,type)`, else (for manifests without `indexed`) the only event of that name whose
// signature without `indexed` matches. topic0 is keccak256 of the signature without `indexed`.
import { keccakText } from "../../lib/keccakText.js";
import type { AbiEventEntry, AbiParam } from "./types.js";

function isParam(value: unknown): value is AbiParam {
  return typeof value === "object" && value !== null && typeof (value as AbiParam).type === "string";
}

/** The canonical type of a parameter: tuples expanded to `(t1,t2)` plus any array suffix. */
export function canonicalType(param: AbiParam): string {
  if (param.type.startsWith("tuple")) {
    const suffix = param.type.slice("tuple".length);
    return `(${(param.components ?? []).map(canonicalType).join(",")})${suffix}`;
  }
  return param.type;
}

/** `Name(type,type)`. */
export function eventSignature(event: AbiEventEntry): string {
  return `${event.name}(${event.inputs.map(canonicalType).join(",")})`;
}

/** `Name(indexed type,type)`, graph-node's form with `indexed` hints. */
export function eventSignatureWithIndexed(event: AbiEventEntry): string {
  return `${event.name}(${event.inputs.map((p) => `${p.indexed ? "indexed " : ""}${canonicalType(p)}`).join(",")})`;
}

/** graph-node's topic0 for a manifest signature: drop `indexed `, drop spaces, keccak256. */
export function topic0Of(manifestSignature: string): string {
  return keccakText(manifestSignature.replaceAll("indexed ", "").replaceAll(" ", "")).toLowerCase();
}

/** The ABI's events (entries with `type: "event"` and well-formed inputs). */
export function abiEvents(abi: unknown[]): AbiEventEntry[] {
  return abi.filter(
    (e): e is AbiEventEntry =>
      typeof e === "object" &&
      e !== null &&
      (e as { type?: unknown }).type === "event" &&
      typeof (e as { name?: unknown }).name === "string" &&
      Array.isArray((e as { inputs?: unknown }).inputs) &&
      (e as { inputs: unknown[] }).inputs.every(isParam),
  );
}

/** The ABI event a manifest signature refers to, or null. */
export function findAbiEvent(abi: unknown[], manifestSignature: string): AbiEventEntry | null {
  const events = abiEvents(abi);
  const exact = events.find((e) => eventSignatureWithIndexed(e) === manifestSignature);
  if (exact !== undefined) return exact;
  const paren = manifestSignature.indexOf("(");
  const name = paren < 0 ? "" : manifestSignature.slice(0, paren);
  const sameName = events.filter((e) => e.name === name);
  if (sameName.length === 1 && eventSignature(sameName[0]!) === manifestSignature) return sameName[0]!;
  return null;
}
