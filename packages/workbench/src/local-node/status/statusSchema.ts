// The index-node status API (graph-node's port 8030 `/graphql`), the subset this node can answer:
// indexing statuses by deployment, by subgraph name (current/pending version), proofs of indexing and
// the version.
export const STATUS_SDL = `
scalar BigInt
scalar Bytes

type Query {
  indexingStatusForCurrentVersion(subgraphName: String!): SubgraphIndexingStatus
  indexingStatusForPendingVersion(subgraphName: String!): SubgraphIndexingStatus
  indexingStatusesForSubgraphName(subgraphName: String!): [SubgraphIndexingStatus!]!
  indexingStatuses(subgraphs: [String!]): [SubgraphIndexingStatus!]!
  proofOfIndexing(subgraph: String!, blockNumber: Int!, blockHash: Bytes!, indexer: Bytes): Bytes
  publicProofsOfIndexing(requests: [PublicProofOfIndexingRequest!]!): [PublicProofOfIndexingResult!]!
  version: Version!
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

type Block {
  hash: Bytes!
  number: BigInt!
}

type EarliestBlock {
  hash: Bytes! @deprecated(reason: "hash will always be reported as 0x0.")
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
`;
