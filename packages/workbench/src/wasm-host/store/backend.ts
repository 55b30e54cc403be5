// What the host store reads entities from: the node's store, or the runner's in-memory one.
import type { EntityData } from "../values/storeValue.js";

export interface EntityStoreBackend {
  /** `block` is the block the entity was written in, when the backend knows it. */
  get(entityType: string, id: string): { data: EntityData; block?: number } | null;
  /** Entities of `entityType` whose `field` references `id` (for `loadRelated` over derived fields). */
  getDerived?(entityType: string, field: string, id: string): EntityData[];
}
