export { createQueryExecutor } from "./executeQuery.js";
export type { GraphQLRequest, QueryResponse, QueryExecutor } from "./executeQuery.js";
export { buildApiSchema } from "./apiSchema.js";
export type { ApiSchema, RootField } from "./apiSchema.js";
export { queryFieldNames } from "./naming.js";
export { QueryError, RequestError } from "./errors.js";
