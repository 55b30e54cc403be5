export { createQueryServer, parseRequestBody } from "./queryServer.js";
export type { QueryServerOptions } from "./queryServer.js";
export type { RunningServer } from "../../lib/http/index.js";
// The query cost limits, for the node's CLI settings and the status server's parser bounds.
export { DEFAULT_QUERY_LIMITS, checkNesting, checkOperationCost, isTokenLimitError, queryLimitsFromEnv, tooManyTokens } from "../graphql/index.js";
export type { QueryLimits } from "../graphql/index.js";
