// Matchstick's store helpers. store.get/set/remove/get_in_block/loadRelated themselves are the
// host's, acting on the run's TestStore (HostOptions.entityCache). The store is never cleared
// automatically; clearInBlockStore ends a block.
import { checkRequiredFields } from "./mockStore.js";
import { critical, type ImportGroup, type MatchstickLink } from "./linkContext.js";

export function storeImports(link: MatchstickLink): ImportGroup {
  const { state, logger, mockSchema, codec, str } = link;
  return {
    clearStore: () => state.store.clear(),
    clearInBlockStore: () => state.store.clearInBlock(),
    // Matchstick checks a mocked in-block entity as it checks store.set (src/context/mod.rs update_store).
    mockInBlockStore: (t: number, id: number, data: number) => {
      const entityType = str(t);
      const entity = codec.readEntity(data);
      checkRequiredFields({ schema: mockSchema, critical: (message) => critical(state, logger, message) }, entityType, entity);
      state.store.mockInBlock(entityType, str(id), entity);
    },
    countEntities: (t: number) => state.store.count(str(t)),
  };
}
