// Proof of indexing as graph-node computes it: per-block event records, their journal form (kept by the
// store until hashed), their hashing (on a thread of its own), the digests the store keeps, and the final
// proof for a block. Legacy (specVersion < 0.0.6) and fast hashers both.
export { BlockPoiRecorder, hashBlockRecord, joinDigests, onchainRegion, type BlockPoiRecord, type HashedRegions } from "./blockStream.js";
export { createThreadedPoiHasher, type HashedBlock, type PoiHasher } from "./poiHasher.js";
export { decodeJournalEntry, encodeJournalEntry, JournalRecorder, type JournalEntry } from "./journal.js";
export { finishPoi, type PoiRequest } from "./finisher.js";
export { poiVersionOf, type PoiEvent, type PoiVersion } from "./events.js";
