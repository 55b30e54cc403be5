// The real graph-node from npm (gnd, graph-node v0.45 with a dev mode) as an engine beside the local
// node: on an embedded PostgreSQL, with an adapter that lets its eth_call reach Hardhat 3's node.
export { startGraphNode, nameDeployment, callAdmin, type AdminAnswer, type GraphNodeOptions, type GraphNodePorts, type RunningGraphNode } from "./graphNode.js";
export { startGraphNodeEngine, type GraphNodeEngine, type GraphNodeEngineOptions } from "./engine.js";
export { startRpcAdapter, adaptCallRequest, TRANSACTION_GAS_CAP, type RpcAdapterOptions } from "./rpcAdapter.js";
export { findGndBinary, GND_PACKAGE } from "./gndBinary.js";
export { GraphNodeError } from "./errors.js";
export { readPoiDigests } from "./poiDigests.js";
