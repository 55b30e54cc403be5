// A real public subgraph, indexed unchanged on a fresh Hardhat chain: its protocol deployed from npm
// artifacts, a scenario of transactions, the network config written into a scratch copy of its source,
// and checks of what an engine indexed against the chain itself.
import type { CheckList } from "./checks.js";

export interface RealSubgraph {
  /** The CLI's name for it (`npm run real-subgraph -- <name>`). */
  name: string;
  upstream: {
    /** owner/name on GitHub. */
    repository: string;
    /** The commit the network config and the checks were written against. */
    commit: string;
  };
  /** Files the checkout must have (paths from its root): a wrong --source fails before the chain starts. */
  expectedFiles: string[];
  /** The subgraph's folder inside the repository (a monorepo's `subgraphs/x`); the root when omitted. */
  subgraphDir?: string;
  /** The manifest's network name in our config. */
  network: string;
  /**
   * The graph-cli the subgraph pins, when the project's release refuses it unchanged: an npm alias of
   * that release among the project's devDependencies (e.g. graph-cli 0.97 and later require every
   * `@entity` to say whether it is immutable, which subgraphs written for 0.87 do not).
   */
  graphCliPackage?: string;
  /** The files and folders of the configured subgraph folder that graph-cli's build needs. */
  buildFiles: string[];
  /** It has a scaled scenario (`--pairs`, `--trades`) beside its default one. */
  scalable?: boolean;
  /** Deploys the protocol and sends the scenario's transactions on the fresh chain. */
  scenario(context: RealScenarioContext): Promise<RealScenario>;
}

/** A workload larger than the default scenario: how many pairs (or pools) and how many operations on them. */
export interface ScenarioScale {
  pairs: number;
  trades: number;
}

export interface RealScenarioContext {
  chainUrl: string;
  /** The scaled scenario instead of the default one. */
  scale?: ScenarioScale;
  log?: (line: string) => void;
}

export interface RealScenario {
  /** The manifest's first data source: graph-cli's networks.json entry for the build. */
  dataSource: string;
  address: string;
  startBlock: number;
  /** Blocks at which the engines' entities are also compared. */
  pastBlocks: number[];
  /**
   * Writes the network config into the scratch copy the way the repository does per network (addresses,
   * start blocks, per-network constants: the only change made to the subgraph) and renders its manifest
   * to `subgraph.yaml`.
   */
  configure(checkoutDir: string): Promise<void>;
  /** Checks an engine's entities against the chain. */
  check(context: CheckContext): Promise<void>;
  /** The events the subgraph's handlers take, counted on the chain (for a rate in the bench). */
  handledEvents?(): Promise<number>;
  /** What the scenario put on the chain, in a line (for the bench's report). */
  summary?: string;
}

export interface CheckContext {
  chainUrl: string;
  /**
   * Every entity of a type at the head (or at `block`), read through GraphQL; a failed read is a failed
   * check. `omit` leaves fields out (a non-null reference to a removed entity fails the whole read).
   */
  entities(typeName: string, block?: number, omit?: string[]): Promise<Record<string, unknown>[]>;
  checks: CheckList;
}
