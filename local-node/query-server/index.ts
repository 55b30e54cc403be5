export { createQueryServer, parseRequestBody } from "./queryServer.js";
export type { QueryServerOptions } from "./queryServer.js";
export type { RunningServer } from "../../lib/http/index.js";
