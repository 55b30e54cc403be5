// What one workload of the peer bench is: a chain it prepares (contracts deployed, events sent), the rows
// the chain itself says every engine must hold, and the app each engine indexes it with.

export type WorkloadName = "approvals" | "uniswap-v3";

/** How a field is compared: hex text by lower case (Ponder keeps viem's checksummed addresses), integers by value. */
export type FieldKind = "hex" | "integer";

/** One entity as an engine hands it back: `id` plus the workload's fields (text, or numbers for small integers). */
export type Row = { id: string } & Record<string, unknown>;

export interface RowShape {
  /** The fields after `id`, in the order a row's digest line lists them. */
  fields: { name: string; kind: FieldKind }[];
}

/** The chain every engine indexes, as the workload prepared it. */
export interface PeerChain {
  rpcUrl: string;
  chainId: bigint;
  /** The contract whose events are indexed, and the block it was deployed in (every engine's start block). */
  address: string;
  startBlock: number;
  /** How many events the engines index. */
  events: number;
  /** The block of the last event (empty blocks follow it). */
  lastEventBlock: number;
}

export interface PreparedChain {
  chain: PeerChain;
  /** The rows the chain's own logs make (eth_getLogs, decoded with the ABI), keyed as the handlers key them. */
  expected(): Promise<Row[]>;
  stop(): Promise<void>;
}

/** A subgraph (ours and graph-node build it with the unmodified graph-cli). */
export interface WorkloadSubgraph {
  /** The subgraph project's folder (subgraph.yaml, schema.graphql, src). */
  projectDir: string;
  /** Its files and folders to copy into the build's work copy (buildSubgraph's default when omitted). */
  files?: string[];
  /** Lays generated inputs (an ABI from npm) into the work copy before codegen. */
  prepare?(workDir: string): Promise<void>;
  /** The entity each event becomes, read back through GraphQL. */
  entity: string;
  /** The deployment's name on both nodes. */
  name: string;
}

/** Ponder's app: sources laid into the pinned install (scripts/bench/peers/ponder-app's package and lock). */
export interface WorkloadPonderApp {
  /** Holds ponder.config.ts, ponder.schema.ts and src/. */
  sourceDir: string;
  /** Files laid beside them (a file name in the app → its path in the project), e.g. the contract's ABI. */
  extraFiles(): Record<string, string>;
  /** Ponder's GraphQL collection of the table (`approvals`). */
  collection: string;
}

/** Subsquid's squid: sources laid into the pinned install (scripts/bench/peers/subsquid-app's package, lock and tsconfig). */
export interface WorkloadSubsquidApp {
  /** Holds schema.graphql, src/ (processor.ts, main.ts) and db/migrations/, as the SDK's template lays them out. */
  sourceDir: string;
  /** The ABIs squid-evm-typegen turns into src/abi/ (a file name in the app's abi/ → its path in the project). */
  abis(): Record<string, string>;
  /** The entity's table (typeorm-store's snake_case names). */
  table: string;
}

/** Envio's indexer: sources laid into the pinned install (scripts/bench/peers/envio-app's package, locks and tsconfig). */
export interface WorkloadEnvioApp {
  /** Holds config.yaml, schema.graphql and src/, as `envio init` lays them out. */
  sourceDir: string;
  /** The ABIs config.yaml names in abis/ (a file name there → a project file holding the ABI, or an artifact with an `abi`). */
  abis(): Record<string, string>;
  /** The entity's table (Envio names it as the schema's type). */
  table: string;
}

export interface Workload {
  name: WorkloadName;
  /** What one event is, for the report: "Approval events". */
  eventsLabel: string;
  shape: RowShape;
  /** The event counts the targets are set for: the full chain, and (approvals) the small one. */
  targets: { events: number; smallChainEvents?: number };
  prepare(options: { events: number; log(line: string): void }): Promise<PreparedChain>;
  subgraph: WorkloadSubgraph;
  ponder: WorkloadPonderApp;
  /** Absent: the Subsquid engine says the workload has no squid yet. */
  subsquid?: WorkloadSubsquidApp;
  /** Absent: the Envio engine says the workload has no indexer yet. */
  envio?: WorkloadEnvioApp;
}
