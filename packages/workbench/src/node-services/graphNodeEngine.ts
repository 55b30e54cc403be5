// `--engine graph-node`: the real graph-node from npm (gnd dev) on the usual ports, with what it needs
// beside it: a PostgreSQL server from npm (cluster in <data>/graph-node-postgres) and the local node's
// IPFS API on 5001 (mappings read files from it). gnd dev indexes the project's build folder (./build) as
// it was when it started, and the deployment gets the subgraph name through the admin API, so
// `npm run query` and GraphiQL work unchanged. Not --watch: in the project folder gnd's watcher sees
// changes all the time (caches, data) and removes and re-deploys the subgraph again and again.
import { join } from "node:path";
import { nameDeployment, startGraphNodeEngine, type GraphNodeEngine } from "../graph-node/index.js";
import { createIpfsServer, createIpfsStore } from "../local-node/index.js";

export interface GraphNodeServicesOptions {
  ethereumRpc: string;
  /** The project's subgraph.yaml; its graph-cli build is in `build/` beside it. */
  manifest: string;
  /** Where the IPFS blocks and the PostgreSQL cluster live. */
  dataDir: string;
  ports: { query: number; admin: number; ipfs: number; status: number };
  name: string;
  /** Drop the indexed data first (the chain it came from is gone). */
  reset: boolean;
  network?: string;
  log?: (line: string) => void;
}

export interface GraphNodeServices {
  engine: GraphNodeEngine;
  close(): Promise<void>;
}

export async function startGraphNodeServices(options: GraphNodeServicesOptions): Promise<GraphNodeServices> {
  const ipfs = await createIpfsStore({ dir: join(options.dataDir, "graph-node-ipfs") });
  const ipfsServer = await createIpfsServer({ ipfs, port: options.ports.ipfs });
  let engine: GraphNodeEngine | undefined;
  const close = async () => {
    await engine?.close();
    await ipfsServer.close();
  };
  try {
    engine = await startGraphNodeEngine({
      manifests: [options.manifest],
      networks: [{ name: options.network ?? "localhost", url: options.ethereumRpc }],
      ipfs: new URL(ipfsServer.url).host,
      ports: { query: options.ports.query, admin: options.ports.admin, status: options.ports.status, metrics: 0 },
      postgres: { dataDir: join(options.dataDir, "graph-node-postgres") },
      resetDatabase: options.reset,
      // GRAPH_NODE_LOG=1 shows graph-node's own log lines.
      ...(options.log ? { onLog: options.log } : process.env.GRAPH_NODE_LOG ? { onLog: (line: string) => console.log(`graph-node: ${line}`) } : {}),
    });
    await nameDeployment(engine.urls.admin, options.name, engine.deployments[0] ?? "");
    return { engine, close };
  } catch (error) {
    await close();
    throw error;
  }
}
