// The engines as services of a command: the local node with its database, and the real graph-node
// with what it needs beside it.
export { openNodeDatabase, type NodeDatabase, type NodeDatabaseOptions } from "./nodeDatabase.js";
export { startGraphNodeServices, type GraphNodeServices, type GraphNodeServicesOptions } from "./graphNodeEngine.js";
export { answersHttp, defaultPorts, startLocalNodeService, type LocalNodePorts, type StartLocalNodeOptions, type StartedLocalNode } from "./localNodeService.js";
export { fetchHandlerProfile } from "./handlerProfile.js";
