// Matchstick's store helpers, and the store functions it overrides: `store.set` (the host's
// semantics, also noting explicit nulls for fieldEquals) and `store.get_in_block` (in-block mocks).
// The store is never cleared automatically; clearInBlockStore ends a block.
import type { EntityData, StoreValue } from "../../wasm-host/index.js";
import { critical, type ImportGroup, type MatchstickLink } from "./linkContext.js";

/** mockInBlockStore's check, as Matchstick makes it: every non-null stored field is present and not null. */
function requiredFieldsCheck({ state, logger, schema }: MatchstickLink, entityType: string, data: EntityData): void {
  const def = schema.entities.get(entityType);
  if (def === undefined) critical(state, logger, "Something went wrong! Could not find the entity defined in the GraphQL schema.");
  for (const field of def.fields) {
    if (!field.nonNull || field.derivedFrom !== null) continue;
    const value: StoreValue | undefined = data.get(field.name);
    if (value === undefined) throw new Error(`Missing value for non-nullable field '${field.name}' for an entity of type '${entityType}'.`);
    if (value.kind === "Null") throw new Error(`The required field '${field.name}' for an entity of type '${entityType}' is null.`);
  }
}

export function storeImports(link: MatchstickLink): ImportGroup {
  const { state, ctx, codec, str, sync } = link;
  return {
    // graph-node's store.set (the host's semantics), remembering explicit nulls for fieldEquals.
    "store.set": (t: number, id: number, data: number) => {
      const entityType = str(t);
      const entityId = str(id);
      const entity = codec.readEntity(data);
      ctx.store.set(entityType, entityId, entity);
      const nulls = [...entity].filter(([, v]) => v.kind === "Null").map(([k]) => k);
      const key = `${entityType}\0${entityId}`;
      if (nulls.length > 0) state.explicitNulls.set(key, new Set(nulls));
      else state.explicitNulls.delete(key);
    },

    clearStore: () => {
      ctx.store.reset();
      state.backend.clear();
      state.explicitNulls.clear();
    },
    clearInBlockStore: () => {
      sync();
      ctx.store.clearInBlock();
      state.inBlockMocks.clear();
    },
    mockInBlockStore: (t: number, id: number, data: number) => {
      const entityType = str(t);
      const entity = codec.readEntity(data);
      requiredFieldsCheck(link, entityType, entity);
      state.inBlockMocks.set(`${entityType}\0${str(id)}`, entity);
    },
    // Matchstick's in-block mocks first, then what the current block wrote (graph-node).
    "store.get_in_block": (t: number, id: number) => {
      const entityType = str(t);
      const entityId = str(id);
      const entity = state.inBlockMocks.get(`${entityType}\0${entityId}`) ?? ctx.store.getInBlock(entityType, entityId);
      return entity === null ? 0 : codec.writeEntity(entity);
    },
    countEntities: (t: number) => {
      sync();
      return state.backend.count(str(t));
    },
  };
}
