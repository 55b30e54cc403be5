export { createStatusServer, createStatusService } from "./statusServer.js";
export { proofOfIndexing } from "./proofOfIndexing.js";
export type { StatusServerOptions, StatusService } from "./statusServer.js";
