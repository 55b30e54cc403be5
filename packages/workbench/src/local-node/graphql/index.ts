export { createQueryExecutor } from "./executeQuery.js";
export type { GraphQLRequest, QueryResponse, QueryExecutor, QueryExecutorOptions } from "./executeQuery.js";
export { measureQueryLatency, seedApprovals } from "./queryLatency.bench.js";
export type { QueryLatency, LatencyFigures } from "./queryLatency.bench.js";
export { buildApiSchema } from "./apiSchema.js";
export type { ApiSchema, RootField } from "./apiSchema.js";
export { queryFieldNames } from "./naming.js";
export { QueryError, RequestError } from "./errors.js";
export { DEFAULT_QUERY_LIMITS, checkNesting, checkOperationCost, isTokenLimitError, queryLimitsFromEnv, tooManyTokens } from "./limits.js";
export type { QueryLimits } from "./limits.js";
// graph-node's own checks on a query's selections (its validation rules are off), for the status API too.
export { validateSelections } from "./validate.js";
export { debugJson, invalidArgument } from "./errors.js";
