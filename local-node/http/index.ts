// HTTP pieces shared by the node's servers.
export { listenOnLoopback } from "./listenOnLoopback.js";
export type { RunningServer } from "./listenOnLoopback.js";
