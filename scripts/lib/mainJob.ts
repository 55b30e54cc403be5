// The main job behind `npm start`: chain, contracts, local node, subgraph, sample approvals, listing.
import { join } from "node:path";
import { JsonRpcProvider } from "ethers";
import { sendApprovals } from "../../hardhat/deploy/index.js";
import { projectRoot } from "../../hardhat/projectRoot.js";
import { deploySubgraph } from "subgraph-workbench/deploy";
import { formatApprovalsTable, listApprovals, waitForBlock, type Approval } from "../../clients/subgraph/index.js";
import { builtManifestHash, graphCli } from "subgraph-workbench/lib/graphCli";
import { createWarmGraphCli } from "subgraph-workbench/lib/warmGraphCli";
import { exportImplementationAbi } from "./abi.js";
import { defaultVersionLabel } from "./versionLabel.js";
import { formatProfileTable } from "subgraph-workbench/lib/handlerProfileTable";
import { createProgressBoard } from "subgraph-workbench/lib/catchUpProgress";
import { whileWaiting } from "subgraph-workbench/lib/waitProgress";
import { answersHttp, fetchHandlerProfile, startGraphNodeServices, startLocalNodeService, type GraphNodeServices, type LocalNodePorts, type StartedLocalNode } from "subgraph-workbench/node-services";
import { waitForIpfsApi } from "subgraph-workbench/lib/ipfsApiReady";
import { ensureApprovalToken, ensureChain } from "./jobServices.js";
import type { HardhatNode } from "../../hardhat/chain/index.js";
import type { MappingLimits, QueryLimits } from "subgraph-workbench/local-node";

export { defaultPorts, type LocalNodePorts } from "subgraph-workbench/node-services";

export interface MainJobOptions {
  ethereumRpc: string;
  /** Where the local node keeps its Postgres (PGlite) data and IPFS files. */
  dataDir: string;
  /** Run the node on a real PostgreSQL server from npm (cluster in <dataDir>/postgres) instead of PGlite. */
  postgres?: boolean;
  /** `graph-node`: the real graph-node from npm instead of the local node (subgraph-workbench/node-services). */
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

export async function runMainJob(options: MainJobOptions): Promise<RunningMainJob> {
  const { log } = options;
  const started: { chain?: HardhatNode; node?: StartedLocalNode; graphNode?: GraphNodeServices } = {};
  // graph-cli's commands run in one process: it loads graph-cli and the AssemblyScript compiler once.
  const graph = createWarmGraphCli();
  let nodeStarting: Promise<unknown> = Promise.resolve();
  const shutdown = async () => {
    await graph.close();
    // A node still starting (a failed codegen) is stopped once up.
    await nodeStarting.catch(() => undefined);
    await started.graphNode?.close();
    await started.node?.close();
    await started.chain?.stop();
  };
  try {
    // 1. Chain: reuse one that answers, or start Hardhat's node on loopback.
    const chain = await ensureChain(options.ethereumRpc, (line) => log(`[1/7] ${line}`));
    if (chain.started) started.chain = chain.started;
    const freshChain = chain.fresh;

    // 2. Contracts: reuse the proxy networks.json names if it is live on this chain.
    const token = await whileWaiting("[2/7] the contracts", ensureApprovalToken(options.ethereumRpc, join(projectRoot, "networks.json"), (line) => log(`[2/7] ${line}`)), { plainLine: log });
    await exportImplementationAbi();

    // 3. Local node: reuse a node already serving (ours or docker compose's graph-node), or start ours.
    const adminUrl = `http://127.0.0.1:${options.ports.admin}`;
    const nodeRunning = await answersHttp(adminUrl);
    const useGraphNode = options.engine === "graph-node" && !nodeRunning;
    if (useGraphNode) {
      log("[3/7] graph-node (gnd from npm) starts once the subgraph is built: it indexes the build folder");
    } else if (nodeRunning) {
      log(`[3/7] reusing the graph node that answers at ${adminUrl}`);
    } else {
      // The node starts while graph-cli generates the types; the build uploads to its IPFS once it is up.
      nodeStarting = startLocalNodeService(
        {
          ethereumRpc: options.ethereumRpc,
          dataDir: options.dataDir,
          postgres: options.postgres ?? false,
          reset: freshChain,
          ports: options.ports,
          ...(options.queryLimits ? { queryLimits: options.queryLimits } : {}),
          ...(options.mappingLimits ? { mappingLimits: options.mappingLimits } : {}),
        },
        (line) => log(`[3/7] ${line}`),
      ).then((node) => (started.node = node));
      // Its error is awaited below (or at shutdown): not a stray one meanwhile.
      nodeStarting.catch(() => undefined);
    }

    // 4. Subgraph: codegen, build and deploy with the unmodified graph-cli.
    log(useGraphNode ? "[4/7] graph codegen, graph build, then graph-node on the build" : "[4/7] graph codegen, graph build --ipfs, graph create, graph deploy --ipfs-hash");
    const ipfsUrl = `http://127.0.0.1:${options.ports.ipfs}`;
    const cli = { cwd: projectRoot, runner: graph.runner };
    await whileWaiting("[4/7] graph codegen", graphCli(["codegen", "--output-dir", "generated/"], cli), { plainLine: log });
    // Our node's IPFS API listens before its store opens: the build need not wait for the whole node.
    if (!useGraphNode && !nodeRunning) await waitForIpfsApi(ipfsUrl, { timeoutMs: 120_000, gaveUp: nodeStarting });
    // Built and uploaded once: graph deploy then names the uploaded manifest instead of compiling again.
    const built = await whileWaiting("[4/7] graph build", graphCli(["build", "--network", "localhost", ...(useGraphNode ? [] : ["--ipfs", ipfsUrl])], cli), { plainLine: log });
    await nodeStarting;
    const ipfsHash = builtManifestHash(built.stdout + built.stderr);
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
      ipfsUrl,
      cwd: projectRoot,
      graphCliRunner: graph.runner,
      ...(ipfsHash ? { ipfsHash } : {}),
    });
    await graph.close();
    log(`      deployment ${deployed.deploymentId ?? "(id not printed)"}`);

    // 5. Sample approvals, with a new seed per run so a reused chain gains new ones.
    const provider = new JsonRpcProvider(options.ethereumRpc, undefined, { staticNetwork: true });
    const seed = await provider.getBlockNumber();
    provider.destroy();
    const sent = await sendApprovals({ rpcUrl: options.ethereumRpc, token: token.address, count: options.approvals, seed });
    log(`[5/7] sent ${sent.approvals} approvals in blocks ${sent.firstBlock}-${sent.lastBlock}`);

    // 6. Wait for the node to index them.
    // A bar in a terminal; plain "[6/7] indexed block X of Y (rates, ETA)" lines otherwise.
    const statusUrl = `http://127.0.0.1:${options.ports.status}/graphql`;
    const progress = createProgressBoard({ plainLine: log });
    const bar = progress.bar(options.name, "[6/7] indexed", token.startBlock);
    const queryBase = `http://127.0.0.1:${options.ports.query}`;
    let events: number | null = null;
    let eventsAsked = 0;
    try {
      await waitForBlock({
        statusUrl,
        name: options.name,
        block: sent.lastBlock,
        onProgress: (s) => {
          // The events so far from the local node's handler profile, asked at most once a second.
          if (!useGraphNode && deployed.deploymentId && Date.now() - eventsAsked > 1000) {
            eventsAsked = Date.now();
            void fetchHandlerProfile(queryBase, deployed.deploymentId).then((rows) => (events = rows ? rows.reduce((n, r) => n + r.calls, 0) : events));
          }
          bar.update({ block: s.latestBlock ?? null, head: s.chainHeadBlock ?? null, events });
        },
      });
    } finally {
      progress.stop();
    }

    // Where the catch-up spent its time, per handler (the local node's profile; graph-node has none).
    const profile = deployed.deploymentId && !useGraphNode ? await fetchHandlerProfile(`http://127.0.0.1:${options.ports.query}`, deployed.deploymentId) : null;
    if (profile && profile.length > 0) log(`[6/7] handler profile:\n${formatProfileTable(profile).replace(/^/gm, "      ")}`);

    // 7. The approvals, and where to query them.
    const queryUrl = `http://127.0.0.1:${options.ports.query}/subgraphs/name/${options.name}`;
    const approvals = await listApprovals({ endpoint: queryUrl });
    log("[7/7] approvals:");
    log(formatApprovalsTable(approvals, { maxRows: 100 }));
    log("");
    log(`Queries (HTTP): ${queryUrl}`);
    log(`GraphiQL:       ${queryUrl} (open it in a browser)`);
    if (!useGraphNode) log(`Dashboard:      http://127.0.0.1:${options.ports.query}/ (progress, errors, handler profile; in a browser)`);
    return { approvals, queryUrl, graphiqlUrl: queryUrl, shutdown };
  } catch (error) {
    await shutdown();
    throw error;
  }
}
