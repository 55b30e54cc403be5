export { createAdminServer } from "./adminServer.js";
export { createRegistrarMethods, ADMIN_ERROR_CODES } from "./registrar.js";
export { handleJsonRpcBody, JsonRpcMethodError } from "./jsonRpc.js";
export { isValidSubgraphName, isValidDeploymentHash } from "./params.js";
export type { AdminServerOptions, AdminStore, DeployRequest, RunningAdminServer } from "./types.js";
export { ALL_HISTORY, DEFAULT_HISTORY_BLOCKS, historyBlocksFor, type HistoryBlocksSettings } from "./historyBlocks.js";
export type { JsonRpcId, JsonRpcResponse, JsonRpcErrorObject, MethodHandler } from "./jsonRpc.js";
