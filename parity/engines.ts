// Both engines on one chain and one build: the local node (in this process, PGlite, deployed with the
// unmodified graph-cli) and graph-node (`gnd dev` on an embedded PostgreSQL, named through its admin API).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deploySubgraph } from "../clients/subgraph/index.js";
import { startGraphNodeEngine, nameDeployment, type GraphNodeEngine } from "../graph-node/index.js";
import type { BuiltSubgraph } from "../lib/subgraphBuild.js";
import { createLocalNode, type LocalNode } from "../local-node/index.js";

export interface Engine {
  label: "local" | "graph-node";
  queryUrl: string;
  statusUrl: string;
  name: string;
}

export interface RunningEngines {
  local: Engine;
  graphNode: Engine;
  close(): Promise<void>;
}

export async function startEngines(built: BuiltSubgraph, options: { chainUrl: string; network: string; name: string; log?: (line: string) => void }): Promise<RunningEngines> {
  const dataDir = await mkdtemp(join(tmpdir(), "parity-local-"));
  let local: LocalNode | undefined;
  let graphNode: GraphNodeEngine | undefined;
  const close = async () => {
    await graphNode?.close();
    await local?.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    local = await createLocalNode({ ethereumRpc: options.chainUrl, dataDir, ports: { query: 0, admin: 0, ipfs: 0, status: 0 }, log: () => undefined, pollIntervalMs: 100 });
    const deployed = await deploySubgraph({ name: options.name, versionLabel: "parity", deployUrl: local.urls.admin, ipfsUrl: local.urls.ipfs, network: options.network, networkFile: "networks.json", cwd: built.workDir });
    if (!deployed.deploymentId) throw new Error(`graph deploy to the local node printed no deployment id:\n${deployed.output}`);
    options.log?.(`local node: deployed ${deployed.deploymentId}`);
    // graph-node reads the same build, and the local node's IPFS for anything a mapping fetches.
    graphNode = await startGraphNodeEngine({
      manifests: [join(built.workDir, "subgraph.yaml")],
      networks: [{ name: options.network, url: options.chainUrl }],
      ipfs: new URL(local.urls.ipfs).host,
      ports: { query: 0, admin: 0, status: 0, metrics: 0 },
      env: { ETHEREUM_POLLING_INTERVAL: "200" },
      // GRAPH_NODE_LOG=1 shows graph-node's own log lines (why it failed, what it fetched).
      ...(process.env.GRAPH_NODE_LOG ? { onLog: (line: string) => options.log?.(`graph-node: ${line}`) } : {}),
    });
    await nameDeployment(graphNode.urls.admin, options.name, graphNode.deployments[0] ?? "");
    options.log?.(`graph-node: deployed ${graphNode.deployments[0] ?? "?"}`);
    return {
      local: { label: "local", queryUrl: `${local.urls.query}/subgraphs/name/${options.name}`, statusUrl: `${local.urls.status}/graphql`, name: options.name },
      graphNode: { label: "graph-node", queryUrl: `${graphNode.urls.query}/subgraphs/name/${options.name}`, statusUrl: graphNode.urls.status, name: options.name },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
