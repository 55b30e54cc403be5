// What goes into a proof of indexing: graph-node's ProofOfIndexingEvent (proof_of_indexing/event.rs).
import type { EntityData } from "../../wasm-host/index.js";

export type PoiEvent =
  /** `store.set`: the type, the entity's id as text, and the fields the mapping passed (id included, nulls kept). */
  | { kind: "SetEntity"; entityType: string; id: string; data: EntityData }
  /** `store.remove`, with the type and id exactly as the mapping passed them. */
  | { kind: "RemoveEntity"; entityType: string; id: string }
  /** A handler's deterministic error under `nonFatalErrors`: how many events of its trigger it voids. */
  | { kind: "DeterministicError"; redactedEvents: number };

/** Which hasher a deployment's proof of indexing uses: specVersion 0.0.6 on is "fast". */
export type PoiVersion = "legacy" | "fast";

export function poiVersionOf(specVersion: string): PoiVersion {
  const [major = 0, minor = 0, patch = 0] = specVersion.split(".").map(Number);
  const atLeast006 = major > 0 || minor > 0 || patch >= 6;
  return atLeast006 ? "fast" : "legacy";
}
