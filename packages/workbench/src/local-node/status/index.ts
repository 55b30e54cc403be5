export { createStatusServer, createStatusService } from "./statusServer.js";
export { proofOfIndexing } from "./proofOfIndexing.js";
export type { StatusServerOptions, StatusService } from "./statusServer.js";
export { createEthCallRecorder } from "./ethCallRecords.js";
export type { EthCallRecorder } from "./ethCallRecords.js";
