export { createStatusServer, createStatusService } from "./statusServer.js";
export type { StatusServerOptions, StatusService } from "./statusServer.js";
