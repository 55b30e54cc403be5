// A parity case: a subgraph folder plus a chain scenario, run on the local node and on graph-node.
import type { Engine } from "./engines.js";
import type { BuiltSubgraph } from "../lib/subgraphBuild.js";

export interface ScenarioContext {
  /** The fresh Hardhat chain's JSON-RPC URL. */
  chainUrl: string;
  /** Puts a file into the local node's IPFS, which graph-node reads too; answers its CID. */
  addFile(content: Uint8Array): Promise<string>;
}

/** What a case's `settle` step may look at: both engines, running on the chain. */
export interface SettleContext extends ScenarioContext {
  local: Engine;
  graphNode: Engine;
}

/** What a case's admin steps may do besides calling the engines: deploy another build on both. */
export interface AdminContext extends SettleContext {
  /** Deploys the build under `name` on both engines (a new version when the name exists). */
  deployOnBoth(built: BuiltSubgraph, name: string): Promise<void>;
}

export interface ScenarioResult {
  /** The data source's address and start block, written into a private networks.json for the build. */
  address: string;
  startBlock: number;
  /** The manifest's data source name (its first one when omitted). */
  dataSource?: string;
  /** Blocks at which entities are also compared (`block: { number: N }`). */
  pastBlocks?: number[];
  /** For a case with `graftOnto`: the block its subgraph grafts onto the base at. */
  graftBlock?: number;
}

export interface ParityCase {
  name: string;
  /** The subgraph project folder (subgraph.yaml, schema.graphql, src/, abis/). */
  projectDir: string;
  /** The manifest's network name (default localhost). */
  network?: string;
  /** Deploys contracts and sends transactions on the fresh chain. */
  scenario(context: ScenarioContext): Promise<ScenarioResult>;
  /** Chain actions after the first comparison (a reorg, more blocks); both engines are compared again. */
  afterwards?(context: ScenarioContext): Promise<void>;
  /**
   * Runs before each comparison round, once both engines index: e.g. blocks that let graph-node process
   * the files it has fetched meanwhile (it handles them with the next block it processes).
   */
  settle?(context: SettleContext): Promise<void>;
  /** Queries beyond the generated corpus. */
  queries?: CorpusQuery[];
  /** graph-node settings this case needs (GRAPH_* environment). */
  graphNodeEnv?: Record<string, string>;
  /**
   * Rewrites the built manifest's text (e.g. as gnd's build writes it) before either engine reads it:
   * graph-node reads the build folder, and the local node then gets it uploaded as it is, not through graph-cli.
   */
  builtManifest?(text: string): string;
  /**
   * Admin calls on both engines once the first comparison is done: answers what to compare, as
   * `[subject, local, graph-node]` (the harness counts and reports them like the others).
   */
  adminSteps?(context: AdminContext): Promise<[string, unknown, unknown][]>;
  /**
   * Grafting: this subgraph folder is built, deployed on both engines and synced first; then the case's
   * own subgraph (whose manifest has a `graft:` section) is deployed with `graft.base` set to each
   * engine's id of that deployment and `graft.block` to the scenario's `graftBlock`, and compared.
   */
  graftOnto?: { baseProjectDir: string };
  /**
   * Subgraph composition: these source subgraph folders are built and deployed on both engines (the first
   * as the engines start, under `<name>-source-0`, ...); then the case's own subgraph, whose `kind:
   * subgraph` data sources name them in this order, is built and deployed on each with `source.address`
   * set to that engine's id of each source, while they still index, and compared.
   */
  composeOnto?: { sourceProjectDirs: string[] };
}

export interface CorpusQuery {
  /** Stable name, used in reports and in the accepted-differences file. */
  id: string;
  query: string;
  variables?: Record<string, unknown>;
}

export interface Difference {
  case: string;
  /** What was compared: `status`, `entities:<Type>@<block>`, `query:<id>`. */
  subject: string;
  local: unknown;
  graphNode: unknown;
  /** A short description of where they differ. */
  diff: string;
}

export interface CaseReport {
  case: string;
  comparisons: number;
  differences: Difference[];
  /** Differences listed in accepted-differences.json, with their reasons. */
  accepted: (Difference & { reason: string })[];
  seconds: number;
}
