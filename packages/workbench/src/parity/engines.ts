// Both engines on one chain and one build: the local node (in this process, PGlite, deployed with the
// unmodified graph-cli) and graph-node (`gnd dev` on an embedded PostgreSQL, named through its admin API).
// Each can also run alone (the real-subgraph runner's `--engine local|graph-node`).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deploySubgraph } from "../deploy/index.js";
import { startGraphNodeEngine, nameDeployment, readPoiDigests, type GraphNodeEngine } from "../graph-node/index.js";
import type { BuiltSubgraph } from "../lib/subgraphBuild.js";
import { createLocalNode, type LocalNode } from "../local-node/index.js";
import { proofOfIndexing } from "../local-node/status/index.js";
import { uploadBuildVerbatim } from "./verbatimUpload.js";

export interface Engine {
  label: "local" | "graph-node";
  queryUrl: string;
  statusUrl: string;
  /** The admin JSON-RPC endpoint (graph-node's port 8020). */
  adminUrl: string;
  name: string;
  /** The proof-of-indexing digests the engine stored for a deployment, as of a block. */
  poiDigests(deploymentId: string, block: number): Promise<{ region: string; digest: Uint8Array }[]>;
  /**
   * The local node's own answer to `proofOfIndexing`, with the proof naming the deployment `signedAs`
   * (graph-node's id for the same build). Absent for graph-node, which is asked through its status API.
   */
  proofOfIndexingAs?(deploymentId: string, block: { number: number; hash: Uint8Array }, indexer: Uint8Array | null, signedAs: string): Promise<string | null>;
}

export interface RunningEngine extends Engine {
  close(): Promise<void>;
}

export interface RunningEngines {
  local: Engine;
  graphNode: Engine;
  /**
   * Deploys another build under another name on both running engines (a graft onto the first one, say).
   * `prepare` runs before each engine's deploy, to adapt the build's manifest to that engine.
   */
  deployAnother(built: BuiltSubgraph, name: string, prepare: (label: Engine["label"]) => Promise<void>): Promise<{ local: Engine; graphNode: Engine }>;
  close(): Promise<void>;
}

export interface EngineOptions {
  chainUrl: string;
  network: string;
  name: string;
  /** The local node's store: a Postgres database (C collation); PGlite in a temporary folder when absent. */
  databaseUrl?: string;
  /** Extra graph-node settings for this run (e.g. unbatched writes where a case needs them). */
  graphNodeEnv?: Record<string, string>;
  /** The local node gets the build folder uploaded as it is (`uploadBuildVerbatim`) instead of through graph-cli's deploy. */
  verbatimUpload?: boolean;
  log?: (line: string) => void;
}

/** The local node running with nothing deployed yet: files can go into its IPFS before the chain names them. */
export interface LocalEngineNode {
  ipfsUrl: string;
  /** Adds a file to the node's IPFS (which graph-node reads too); answers its CID. */
  addFile(content: Uint8Array): Promise<string>;
  /** Deploys the build with graph-cli (under `name`, else the options' name); closing the answer closes the node. */
  deploy(built: BuiltSubgraph, name?: string): Promise<RunningEngine & { ipfsUrl: string }>;
  close(): Promise<void>;
}

/** The local node on a fresh PGlite in a temporary folder, or on `options.databaseUrl`. */
export async function openLocalEngine(options: EngineOptions): Promise<LocalEngineNode> {
  const dataDir = await mkdtemp(join(tmpdir(), "parity-local-"));
  let local: LocalNode | undefined;
  const close = async () => {
    await local?.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    local = await createLocalNode({
      ethereumRpc: options.chainUrl,
      dataDir,
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
      ports: { query: 0, admin: 0, ipfs: 0, status: 0 },
      // PARITY_LOCAL_LOG=1 shows the local node's own log with the case's lines.
      log: process.env.PARITY_LOCAL_LOG ? (line) => options.log?.(`local node log: ${line}`) : () => undefined,
      pollIntervalMs: 100,
      // One block a run (a run holds whole blocks): the cases' few hundred events then pass through the
      // pipeline as a long chain does, runs queued ahead of commits, reading what earlier runs wrote.
      eventsPerRun: 1,
      // Both engines accept @fulltext, which graph-node's release builds refuse by default.
      allowFulltextSearch: true,
      // `gnd dev` sets graph-node's reorg threshold to 10 (for pruning and `prune: auto`), whatever the environment says.
      history: { reorgThreshold: 10 },
    });
  } catch (error) {
    await close();
    throw error;
  }
  const node = local;
  options.log?.(`local node: store ${options.databaseUrl ? "PostgreSQL" : "PGlite"}`);
  return {
    ipfsUrl: node.urls.ipfs,
    addFile: (content) => node.ipfs.add(content),
    async deploy(built, name = options.name) {
      let deploymentId: string;
      if (options.verbatimUpload) {
        deploymentId = await uploadBuildVerbatim(built.buildDir, (bytes) => node.ipfs.add(bytes));
        await nameDeployment(node.urls.admin, name, deploymentId);
      } else {
        const deployed = await deploySubgraph({ name, versionLabel: "parity", deployUrl: node.urls.admin, ipfsUrl: node.urls.ipfs, ...(built.networkFile === false ? {} : { network: options.network, networkFile: "networks.json" }), cwd: built.workDir, ...(built.graphCliBin ? { graphCliBin: built.graphCliBin } : {}) });
        if (!deployed.deploymentId) throw new Error(`graph deploy to the local node printed no deployment id:\n${deployed.output}`);
        deploymentId = deployed.deploymentId;
      }
      options.log?.(`local node: deployed ${deploymentId}`);
      // The proof follows the data: its journal is hashed through the block first, as the status API does.
      const poiDigests = async (id: string, block: number) => {
        await node.proofs.catchUp(id, block);
        return node.store.poiDigests(id, block);
      };
      const proofOfIndexingAs: Engine["proofOfIndexingAs"] = (id, block, indexer, signedAs) => proofOfIndexing(node.store, id, block, indexer, signedAs, (d, b) => node.proofs.catchUp(d, b));
      return { label: "local", queryUrl: `${node.urls.query}/subgraphs/name/${name}`, statusUrl: `${node.urls.status}/graphql`, adminUrl: node.urls.admin, name, ipfsUrl: node.urls.ipfs, poiDigests, proofOfIndexingAs, close };
    },
    close,
  };
}

/** The local node on a fresh PGlite, the build deployed with graph-cli; its IPFS also serves graph-node. */
export async function startLocalEngine(built: BuiltSubgraph, options: EngineOptions, opened?: LocalEngineNode): Promise<RunningEngine & { ipfsUrl: string }> {
  const node = opened ?? (await openLocalEngine(options));
  try {
    return await node.deploy(built);
  } catch (error) {
    await node.close();
    throw error;
  }
}

/** graph-node (`gnd dev`) on the same build, reading files from the IPFS API at `ipfs` (host:port). */
export async function startGraphNodeOracle(built: BuiltSubgraph, options: EngineOptions & { ipfs: string }): Promise<RunningEngine & { queryRoot: string }> {
  let graphNode: GraphNodeEngine | undefined;
  try {
    graphNode = await startGraphNodeEngine({
      manifests: [join(built.workDir, "subgraph.yaml")],
      networks: [{ name: options.network, url: options.chainUrl }],
      ipfs: options.ipfs,
      ports: { query: 0, admin: 0, status: 0, metrics: 0 },
      env: { ETHEREUM_POLLING_INTERVAL: "200", GRAPH_ALLOW_NON_DETERMINISTIC_FULLTEXT_SEARCH: "true", ...options.graphNodeEnv },
      // PARITY_GRAPH_NODE_LOG=1 shows graph-node's own log with the case's lines (to see why it differs).
      ...(process.env.PARITY_GRAPH_NODE_LOG ? { onLog: (line: string) => options.log?.(`graph-node log: ${line}`) } : {}),
    });
    await nameDeployment(graphNode.urls.admin, options.name, graphNode.deployments[0] ?? "");
    options.log?.(`graph-node: deployed ${graphNode.deployments[0] ?? "?"}`);
    const running = graphNode;
    const poiDigests = (id: string, block: number) => readPoiDigests(running.postgresUrl, id, block);
    return { label: "graph-node", queryUrl: `${running.urls.query}/subgraphs/name/${options.name}`, statusUrl: running.urls.status, name: options.name, adminUrl: running.urls.admin, queryRoot: `${running.urls.query}/subgraphs/name/`, poiDigests, close: () => running.close() };
  } catch (error) {
    await graphNode?.close();
    throw error;
  }
}

/** Both engines on the build; the local one on `opened` when the caller started it already. */
export async function startEngines(built: BuiltSubgraph, options: EngineOptions, opened?: LocalEngineNode): Promise<RunningEngines> {
  const node = opened ?? (await openLocalEngine(options));
  const local = await startLocalEngine(built, options, node);
  try {
    // graph-node reads the same build, and the local node's IPFS for anything a mapping fetches.
    const graphNode = await startGraphNodeOracle(built, { ...options, ipfs: new URL(local.ipfsUrl).host });
    return {
      local,
      graphNode,
      async deployAnother(another, name, prepare) {
        // graph-node first: the local deploy (graph-cli) builds the work copy again, over what gnd reads.
        await prepare("graph-node");
        await nameDeployment(graphNode.adminUrl, name, join(another.buildDir, "subgraph.yaml"));
        await prepare("local");
        const { label, queryUrl, statusUrl, adminUrl, poiDigests, proofOfIndexingAs } = await node.deploy(another, name);
        return {
          local: { label, queryUrl, statusUrl, adminUrl, name, poiDigests, ...(proofOfIndexingAs ? { proofOfIndexingAs } : {}) },
          graphNode: { label: "graph-node", queryUrl: `${graphNode.queryRoot}${name}`, statusUrl: graphNode.statusUrl, adminUrl: graphNode.adminUrl, name, poiDigests: graphNode.poiDigests },
        };
      },
      async close() {
        await graphNode.close();
        await local.close();
      },
    };
  } catch (error) {
    await local.close();
    throw error;
  }
}
