// The admin part of the node: graph-node's admin JSON-RPC (port 8020) over the node's store and IPFS.
// Methods, params, results, error codes and texts follow graph-node's server/json-rpc crate.
import type { IpfsStore } from "../ipfs/index.js";
import type { LoadDeploymentOptions, LoadedDeployment } from "../manifest/index.js";
import type { NodeStore, VersionSwitching } from "../store/index.js";
import type { RunningServer } from "../../lib/http/index.js";
import type { HistoryBlocksSettings } from "./historyBlocks.js";

/**
 * What the admin server needs from the store. `NodeStore` satisfies it; `subgraphId` is optional and
 * lets `subgraph_create` of an existing name answer the existing id as graph-node does.
 */
export type AdminStore = Pick<
  NodeStore,
  | "createSubgraph"
  | "removeSubgraph"
  | "subgraphExists"
  | "createDeployment"
  | "setPendingVersion"
  | "resolveName"
  | "getDeployment"
  | "recentBlockHash"
  | "setPaused"
  | "setNodeId"
> & {
  /** The id of an existing subgraph name, or null. */
  subgraphId?(name: string): Promise<string | null>;
};

export type { HistoryBlocksSettings };

export interface DeployRequest {
  name: string;
  deploymentId: string;
  /** graph-cli's `--version-label` (graph-node itself ignores it). */
  versionLabel: string | null;
  nodeId: string;
  historyBlocks: number | null;
  debugFork: string | null;
  /** The deploy created the deployment (graph-node keeps a `debug_fork` only from the deploy that creates it). */
  newDeployment: boolean;
}

export interface AdminServerOptions {
  store: AdminStore;
  ipfs: IpfsStore;
  /** 0 picks a free port. Always bound on 127.0.0.1. */
  port: number;
  /**
   * Called after a deploy was validated and written to the store (deployment created, version pending
   * or current): start (or keep) indexing it. A throw turns into a deploy error (code 0).
   */
  onDeploy(loaded: LoadedDeployment, name: string, versionLabel: string | null, request: DeployRequest): Promise<void>;
  /**
   * Extra checks on a validated deployment before anything is written, e.g. graph-node's
   * "network not supported by registrar: ..." or "subgraph validation error: [the specified block N must
   * exist on the Ethereum network]". Answer the full error message to reject the deploy (code 0), or null.
   */
  checkDeployment?(loaded: LoadedDeployment): Promise<string | null>;
  /** Called after `subgraph_remove` removed the name. */
  onRemove?(name: string): Promise<void>;
  /** Called after `subgraph_pause` / `subgraph_resume` changed the stored flag. */
  onPause?(deploymentId: string): Promise<void>;
  onResume?(deploymentId: string): Promise<void>;
  /** Called after `subgraph_reassign` of an existing deployment. */
  onReassign?(deploymentId: string, nodeId: string): Promise<void>;
  /**
   * The query URLs answered by `subgraph_deploy`. Default: graph-node's relative form
   * `{playground: ":<queryPort>/subgraphs/name/<name>/graphql", queries: ":<queryPort>/subgraphs/name/<name>"}`
   * (graph-cli prefixes it with the admin URL's host).
   */
  queryUrlFor?(name: string): { playground: string; queries: string };
  /** Port of the query server, for the default `queryUrlFor`. Default 8000. */
  queryPort?: number;
  /** This node's id (graph-node's `--node-id`). Default "default". */
  nodeId?: string;
  /** Passed to loadDeployment. */
  manifestOptions?: LoadDeploymentOptions;
  /** When a new version of a name serves (graph-node's EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE); default instant. */
  versionSwitching?: VersionSwitching;
  /** How much history a new deployment keeps; default graph-node's (`prune: auto` keeps 500 blocks, no override). */
  historyBlocks?: HistoryBlocksSettings;
  log?(level: "info" | "warning" | "error", message: string): void;
}

/** The running admin server: `url` is `http://127.0.0.1:<port>`. */
export type RunningAdminServer = RunningServer;
