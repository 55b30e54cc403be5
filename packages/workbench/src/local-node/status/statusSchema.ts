// The index-node status API (graph-node's port 8030 `/graphql`) as graph-node declares it: every query
// field, argument, type and enum value, with its argument and result types, so that an introspection
// of this node's status API equals graph-node's (the parity case `index-node` compares the two, type by
// type). The descriptions are graph-node's, since introspection shows them.
import { GraphQLSchema, assertValidSchema, buildSchema, isInterfaceType, isSpecifiedScalarType, type GraphQLNamedType } from "graphql";

// EarliestBlock.hash carries no @deprecated here: graph-node's schema has one, but its introspection
// answers isDeprecated false, and graphql-js would hide the field from a plain introspection.
export const STATUS_SDL = `
scalar BigInt
scalar Boolean
scalar Bytes
scalar ID
scalar Int
scalar String
scalar JSONObject
scalar Date

type Query {
  indexingStatusForCurrentVersion(subgraphName: String!): SubgraphIndexingStatus
  indexingStatusForPendingVersion(subgraphName: String!): SubgraphIndexingStatus
  indexingStatusesForSubgraphName(subgraphName: String!): [SubgraphIndexingStatus!]!
  indexingStatuses(subgraphs: [String!]): [SubgraphIndexingStatus!]!
  proofOfIndexing(subgraph: String!, blockNumber: Int!, blockHash: Bytes!, indexer: Bytes): Bytes
  """
  Proofs of indexing for several deployments and blocks that can be shared and
  compared in public without revealing the _actual_ proof of indexing that every
  indexer has in their database
  """
  publicProofsOfIndexing(requests: [PublicProofOfIndexingRequest!]!): [PublicProofOfIndexingResult!]!
  subgraphFeatures(subgraphId: String!): SubgraphFeatures!
  entityChangesInBlock(subgraphId: String!, blockNumber: Int!): EntityChanges!
  blockData(network: String!, blockHash: Bytes!): JSONObject
  blockHashFromNumber(network: String!, blockNumber: Int!): Bytes
  version: Version!
  cachedEthereumCalls(network: String!, blockHash: Bytes!): [CachedEthereumCall!]
  apiVersions(subgraphId: String!): [ApiVersion!]!
}

type Version {
  version: String!
  commit: String!
}

type SubgraphIndexingStatus {
  subgraph: String!
  synced: Boolean!
  health: Health!
  "If the subgraph has failed, this is the error caused it"
  fatalError: SubgraphError
  "Sorted from first to last, limited to first 1000"
  nonFatalErrors: [SubgraphError!]!
  chains: [ChainIndexingStatus!]!
  entityCount: BigInt!
  "null if deployment is not assigned to an indexing node"
  node: String
  "null if deployment is not assigned to an indexing node"
  paused: Boolean
  historyBlocks: Int!
  "Total size of all tables a deployment's namespace in bytes."
  subgraphSize: SubgraphSize!
}

interface ChainIndexingStatus {
  network: String!
  chainHeadBlock: Block
  earliestBlock: EarliestBlock
  latestBlock: Block
  lastHealthyBlock: Block
}

type EthereumIndexingStatus implements ChainIndexingStatus {
  network: String!
  chainHeadBlock: Block
  earliestBlock: EarliestBlock
  latestBlock: Block
  lastHealthyBlock: Block
}

type EntityChanges {
  updates: [EntityTypeUpdates!]!
  deletions: [EntityTypeDeletions!]!
}

type EntityTypeUpdates {
  type: String!
  entities: [JSONObject!]!
}

type EntityTypeDeletions {
  type: String!
  entities: [ID!]!
}

type Block {
  hash: Bytes!
  number: BigInt!
}

type EarliestBlock {
  hash: Bytes!
  number: BigInt!
}

type SubgraphError {
  message: String!
  block: Block
  handler: String
  deterministic: Boolean!
}

enum Health {
  "Subgraph syncing normally"
  healthy
  "Subgraph syncing but with errors"
  unhealthy
  "Subgraph halted due to errors"
  failed
}

type CachedEthereumCall {
  idHash: Bytes!
  block: Block!
  contractAddress: Bytes!
  returnValue: Bytes!
}

type SubgraphFeatures {
  apiVersion: String
  specVersion: String!
  features: [Feature!]!
  dataSources: [String!]!
  handlers: [String!]!
  network: String
}

enum Feature {
  nonFatalErrors
  grafting
  fullTextSearch
  ipfsOnEthereumContracts
  aggregations
  declaredEthCalls
  immutableEntities
  bytesAsIds
}

input BlockInput {
  hash: Bytes!
  number: BigInt!
}

input ProofOfIndexingRequest {
  deployment: String!
  block: BlockInput!
}

input PublicProofOfIndexingRequest {
  deployment: String!
  blockNumber: BigInt!
}

type PartialBlock {
  hash: Bytes
  number: BigInt!
}

type PublicProofOfIndexingResult {
  deployment: String!
  block: PartialBlock!
  proofOfIndexing: Bytes!
}

type ProofOfIndexingResult {
  deployment: String!
  block: Block!
  "There may not be a proof of indexing available for the deployment and block"
  proofOfIndexing: Bytes
}

type ApiVersion {
  """
  Version number in SemVer format
  """
  version: String!
}

type SubgraphSize {
  rowEstimate: BigInt!
  tableSize: BigInt!
  indexSize: BigInt!
  toastSize: BigInt!
  totalSize: BigInt!
}
`;

/**
 * The status schema as graph-node's introspection shows it, where graphql-js's own would differ: no
 * directives, no `__` types among `__schema.types`, the built-in scalars without graphql-js's
 * descriptions (graph-node declares them bare), and an interface's `interfaces` null. The types shown
 * inherit everything else from graphql-js's (coercion, fields), so execution is unchanged.
 */
export function buildStatusSchema(): GraphQLSchema {
  const built = buildSchema(STATUS_SDL);
  const schema = new GraphQLSchema({ ...built.toConfig(), directives: [] });
  // Validated once, on the real types; graphql-js keeps the result on the schema.
  assertValidSchema(schema);
  const real = schema.getTypeMap();
  const shown: Record<string, GraphQLNamedType> = {};
  for (const [name, type] of Object.entries(real)) {
    if (name.startsWith("__")) continue;
    if (isSpecifiedScalarType(type)) shown[name] = Object.create(type, { description: { value: undefined } }) as GraphQLNamedType;
    else if (isInterfaceType(type)) shown[name] = Object.create(type, { getInterfaces: { value: () => undefined } }) as GraphQLNamedType;
    else shown[name] = type;
  }
  schema.getTypeMap = () => shown;
  // Lookups by name (variables' types, fragments, `__type`) find the same types, `__` ones included.
  schema.getType = (name: string) => shown[name] ?? real[name];
  return schema;
}
