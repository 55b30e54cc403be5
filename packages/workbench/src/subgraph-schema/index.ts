export { parseSubgraphSchema, storedFields, storageKind } from "./subgraphSchema.js";
export type { SubgraphSchema } from "./subgraphSchema.js";
export { POI_ENTITY_TYPE, SCALAR_KINDS, baseTypeName, fieldTypeText } from "./types.js";
export type { EntityTypeDef, InterfaceDef, EnumDef, FieldDef, FieldType, ScalarKind, IdKind } from "./types.js";
export { SchemaError } from "./errors.js";
export type { FulltextDef, FulltextAlgorithm } from "./fulltext.js";
export { INTERVAL_SECONDS, aggregationAsEntity } from "./aggregation.js";
export type { AggregationDef, AggregateDef, AggregateFn, AggregationInterval } from "./aggregation.js";
export { rewriteAggregateArg } from "./aggregateExpression.js";
