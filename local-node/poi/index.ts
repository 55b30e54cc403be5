// Proof of indexing as graph-node computes it: per-block event streams, the digests the store keeps,
// and the final proof for a block. Legacy (specVersion < 0.0.6) and fast hashers both.
export { BlockPoi, onchainRegion } from "./blockStream.js";
export { finishPoi, type PoiRequest } from "./finisher.js";
export { poiVersionOf, type PoiEvent, type PoiVersion } from "./events.js";
