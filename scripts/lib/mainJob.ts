// The main job behind `npm start`: chain, contracts, local node, subgraph, sample approvals, listing.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Contract, JsonRpcProvider } from "ethers";
import { rpcAnswers, startHardhatNode, type HardhatNode } from "../../hardhat/chain/index.js";
import { readArtifact, deployApprovalToken, readNetworks, writeNetworkEntry, sendApprovals, ensureCompiled } from "../../hardhat/deploy/index.js";
import { projectRoot } from "../../lib/projectRoot.js";
import { deploySubgraph, formatApprovalsTable, listApprovals, waitForBlock, type Approval } from "../../clients/subgraph/index.js";
import { graphCli } from "../../lib/graphCli.js";
import { exportImplementationAbi } from "./abi.js";
import { defaultVersionLabel } from "./versionLabel.js";
import { openNodeDatabase, type NodeDatabase } from "./nodeDatabase.js";
import { startGraphNodeServices, type GraphNodeServices } from "./graphNodeEngine.js";
import type { MappingLimits, QueryLimits } from "../../local-node/index.js";

export interface LocalNodePorts {
  query: number;
  admin: number;
  ipfs: number;
  status: number;
}

export interface MainJobOptions {
  ethereumRpc: string;
  /** Where the local node keeps its Postgres (PGlite) data and IPFS files. */
  dataDir: string;
  /** Run the node on a real PostgreSQL server from npm (cluster in <dataDir>/postgres) instead of PGlite. */
  postgres?: boolean;
  /** `graph-node`: the real graph-node from npm instead of the local node (scripts/lib/graphNodeEngine.ts). */
  engine?: "local" | "graph-node";
  ports: LocalNodePorts;
  name: string;
  /** Sample approvals to send. */
  approvals: number;
  /** What one GraphQL query may cost on the local node (from GRAPH_GRAPHQL_* settings); defaults otherwise. */
  queryLimits?: Partial<QueryLimits>;
  /** What a mapping may spend on the local node (GRAPH_MAPPING_HANDLER_TIMEOUT); defaults otherwise. */
  mappingLimits?: Partial<MappingLimits>;
  log: (line: string) => void;
}

export interface RunningMainJob {
  approvals: Approval[];
  queryUrl: string;
  graphiqlUrl: string;
  /** Stops what this job started (the node, the chain); leaves what it reused. */
  shutdown(): Promise<void>;
}

interface LocalNodeHandle {
  close(): Promise<void>;
}

export const defaultPorts: LocalNodePorts = { query: 8000, admin: 8020, ipfs: 5001, status: 8030 };

export async function runMainJob(options: MainJobOptions): Promise<RunningMainJob> {
  const { log } = options;
  const started: { chain?: HardhatNode; node?: LocalNodeHandle; database?: NodeDatabase; graphNode?: GraphNodeServices } = {};
  const shutdown = async () => {
    await started.graphNode?.close();
    await started.node?.close();
    await started.database?.stop();
    await started.chain?.stop();
  };
  try {
    // 1. Chain: reuse one that answers, or start Hardhat's node on loopback.
    const freshChain = !(await rpcAnswers(options.ethereumRpc));
    if (freshChain) {
      const url = new URL(options.ethereumRpc);
      if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost") {
        throw new Error(`No chain answers at ${url.origin}, and only a loopback chain can be started here`);
      }
      log(`[1/7] starting a Hardhat chain on ${url.origin}`);
      started.chain = await startHardhatNode({ port: Number(url.port || 8545) });
    } else {
      log(`[1/7] reusing the chain that answers at ${new URL(options.ethereumRpc).origin}`);
    }

    // 2. Contracts: reuse the proxy networks.json names if it is live on this chain.
    await ensureCompiled();
    await exportImplementationAbi();
    let token = await liveProxy(options.ethereumRpc);
    if (token) {
      log(`[2/7] reusing the token proxy ${token.address} (block ${token.startBlock})`);
    } else {
      const deployed = await deployApprovalToken({ rpcUrl: options.ethereumRpc });
      await writeNetworkEntry("localhost", { address: deployed.proxy, startBlock: deployed.startBlock });
      token = { address: deployed.proxy, startBlock: deployed.startBlock };
      log(`[2/7] deployed the ERC-20 at ${deployed.implementation} behind the proxy ${deployed.proxy} (block ${deployed.startBlock}); networks.json updated`);
    }

    // 3. Local node: reuse a node already serving (ours or docker compose's graph-node), or start ours.
    const adminUrl = `http://127.0.0.1:${options.ports.admin}`;
    const nodeRunning = await answersHttp(adminUrl);
    const useGraphNode = options.engine === "graph-node" && !nodeRunning;
    if (useGraphNode) {
      log("[3/7] graph-node (gnd from npm) starts once the subgraph is built: it indexes the build folder");
    } else if (nodeRunning) {
      log(`[3/7] reusing the graph node that answers at ${adminUrl}`);
    } else {
      const nodeDataDir = join(options.dataDir, "local-node");
      const reset = freshChain && existsSync(nodeDataDir);
      if (reset) {
        log(`[3/7] resetting ${nodeDataDir}: it indexed an earlier chain, and this chain is new`);
        await rm(nodeDataDir, { recursive: true, force: true });
      }
      // DATABASE_URL is not read here: the main job owns its data, and resets it on a new chain.
      started.database = await openNodeDatabase({ postgres: options.postgres ?? false, postgresDir: join(options.dataDir, "postgres"), reset: freshChain, env: {} });
      log(`[3/7] starting the local node (${started.database.describe}; files in ${nodeDataDir})`);
      const { createLocalNode } = await import("../../local-node/index.js");
      started.node = await createLocalNode({
        ethereumRpc: options.ethereumRpc,
        dataDir: nodeDataDir,
        ...(started.database.databaseUrl ? { databaseUrl: started.database.databaseUrl } : {}),
        ports: options.ports,
        log: (line: string) => void line,
        ...(options.queryLimits ? { queryLimits: options.queryLimits } : {}),
        ...(options.mappingLimits ? { mappingLimits: options.mappingLimits } : {}),
      });
    }

    // 4. Subgraph: codegen, build and deploy with the unmodified graph-cli.
    log(useGraphNode ? "[4/7] graph codegen, graph build, then graph-node on the build" : "[4/7] graph codegen, graph build, graph create, graph deploy");
    await graphCli(["codegen", "--output-dir", "generated/"], { cwd: projectRoot });
    await graphCli(["build", "--network", "localhost"], { cwd: projectRoot });
    if (useGraphNode) {
      started.graphNode = await startGraphNodeServices({
        ethereumRpc: options.ethereumRpc,
        manifest: join(projectRoot, "subgraph.yaml"),
        dataDir: options.dataDir,
        ports: options.ports,
        name: options.name,
        reset: freshChain,
      });
      log(`      graph-node indexes ${started.graphNode.engine.deployments[0] ?? "?"} as ${options.name}`);
    }
    const deployed = useGraphNode ? { deploymentId: started.graphNode?.engine.deployments[0] ?? null } : await deploySubgraph({
      name: options.name,
      versionLabel: defaultVersionLabel(),
      network: "localhost",
      deployUrl: adminUrl,
      ipfsUrl: `http://127.0.0.1:${options.ports.ipfs}`,
      cwd: projectRoot,
    });
    log(`      deployment ${deployed.deploymentId ?? "(id not printed)"}`);

    // 5. Sample approvals, with a new seed per run so a reused chain gains new ones.
    const provider = new JsonRpcProvider(options.ethereumRpc, undefined, { staticNetwork: true });
    const seed = await provider.getBlockNumber();
    provider.destroy();
    const sent = await sendApprovals({ rpcUrl: options.ethereumRpc, token: token.address, count: options.approvals, seed });
    log(`[5/7] sent ${sent.approvals} approvals in blocks ${sent.firstBlock}-${sent.lastBlock}`);

    // 6. Wait for the node to index them.
    const statusUrl = `http://127.0.0.1:${options.ports.status}/graphql`;
    let lastShown = -1;
    await waitForBlock({
      statusUrl,
      name: options.name,
      block: sent.lastBlock,
      onProgress: (s) => {
        if (s.latestBlock !== lastShown) {
          lastShown = s.latestBlock ?? -1;
          log(`[6/7] indexed block ${s.latestBlock ?? "(none yet)"} of ${s.chainHeadBlock ?? "?"}`);
        }
      },
    });

    // 7. The approvals, and where to query them.
    const queryUrl = `http://127.0.0.1:${options.ports.query}/subgraphs/name/${options.name}`;
    const approvals = await listApprovals({ endpoint: queryUrl });
    log("[7/7] approvals:");
    log(formatApprovalsTable(approvals, { maxRows: 100 }));
    log("");
    log(`Queries (HTTP): ${queryUrl}`);
    log(`GraphiQL:       ${queryUrl} (open it in a browser)`);
    return { approvals, queryUrl, graphiqlUrl: queryUrl, shutdown };
  } catch (error) {
    await shutdown();
    throw error;
  }
}

/** The proxy recorded in networks.json, if it is deployed on this chain and answers as EIP-897. */
async function liveProxy(rpcUrl: string): Promise<{ address: string; startBlock: number } | null> {
  const entry = (await readNetworks()).localhost?.ApprovalToken;
  if (!entry) return null;
  const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true });
  try {
    if ((await provider.getCode(entry.address)) === "0x") return null;
    const proxy = new Contract(entry.address, (await readArtifact("DelegateProxy")).abi, provider);
    const type = (await proxy.getFunction("proxyType")()) as bigint;
    return type === 2n ? { address: entry.address, startBlock: entry.startBlock ?? 0 } : null;
  } catch {
    return null;
  } finally {
    provider.destroy();
  }
}

async function answersHttp(url: string): Promise<boolean> {
  try {
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}", signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}
