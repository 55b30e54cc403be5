export { parseSubgraphSchema, storedFields, storageKind, SCALAR_KINDS } from "./subgraphSchema.js";
export type { SubgraphSchema, EntityTypeDef, InterfaceDef, EnumDef, FieldDef, FieldType, ScalarKind, IdKind } from "./subgraphSchema.js";
export { SchemaError } from "./errors.js";
export type { FulltextDef, FulltextAlgorithm } from "./fulltext.js";
export { INTERVAL_SECONDS } from "./aggregation.js";
export type { AggregationDef, AggregateDef, AggregateFn, AggregationInterval } from "./aggregation.js";
export { rewriteAggregateArg } from "./aggregateExpression.js";
