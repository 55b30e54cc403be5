// The indexer: one deployment indexer per deployment, mappings run on pre-loaded host threads.
export { createIndexerService } from "./indexerService.js";
export type { IndexerService } from "./indexerService.js";
