export { createQueryExecutor } from "./executeQuery.js";
export type { GraphQLRequest, QueryResponse, QueryExecutor, QueryExecutorOptions } from "./executeQuery.js";
export { measureQueryLatency, seedApprovals } from "./queryLatency.bench.js";
export type { QueryLatency, LatencyFigures } from "./queryLatency.bench.js";
export { buildApiSchema } from "./apiSchema.js";
export type { ApiSchema, RootField } from "./apiSchema.js";
export { queryFieldNames } from "./naming.js";
export { QueryError, RequestError } from "./errors.js";
