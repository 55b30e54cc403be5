// What `npm start` and `npm run dev` both need before a subgraph is built: a chain (reused or started on
// loopback), the token behind its proxy (reused or deployed, recorded in a networks.json), and the local
// node (reused or started). Each step reports what it did through `log`; the caller adds its prefix.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Contract, JsonRpcProvider } from "ethers";
import { rpcAnswers, startHardhatNode, type HardhatNode } from "../../hardhat/chain/index.js";
import { readArtifact, deployApprovalToken, readNetworks, writeNetworkEntry, ensureCompiled } from "../../hardhat/deploy/index.js";
import { openNodeDatabase, type NodeDatabase } from "../../packages/workbench/src/node-services/nodeDatabase.js";
import type { MappingLimits, QueryLimits, VersionSwitching } from "../../packages/workbench/src/local-node/index.js";

export interface LocalNodePorts {
  query: number;
  admin: number;
  ipfs: number;
  status: number;
}

export const defaultPorts: LocalNodePorts = { query: 8000, admin: 8020, ipfs: 5001, status: 8030 };

type Log = (line: string) => void;

export interface ChainHandle {
  /** True when no chain answered and this one was started: data indexed from an earlier chain is stale. */
  fresh: boolean;
  /** The chain started here, to stop at the end; absent when reused. */
  started?: HardhatNode;
}

/** Reuses a chain that answers at `ethereumRpc`, or starts Hardhat's node there (loopback only). */
export async function ensureChain(ethereumRpc: string, log: Log): Promise<ChainHandle> {
  const url = new URL(ethereumRpc);
  if (await rpcAnswers(ethereumRpc)) {
    log(`reusing the chain that answers at ${url.origin}`);
    return { fresh: false };
  }
  if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost") {
    throw new Error(`No chain answers at ${url.origin}, and only a loopback chain can be started here`);
  }
  log(`starting a Hardhat chain on ${url.origin}`);
  return { fresh: true, started: await startHardhatNode({ port: Number(url.port || 8545) }) };
}

export interface TokenHandle {
  address: string;
  startBlock: number;
  /** True when it was deployed now (a chain without it). */
  deployed: boolean;
}

/** Reuses the proxy `networksPath` names when it is live on this chain, else deploys one and records it there. */
export async function ensureApprovalToken(ethereumRpc: string, networksPath: string, log: Log): Promise<TokenHandle> {
  await ensureCompiled();
  const live = await liveProxy(ethereumRpc, networksPath);
  if (live) {
    log(`reusing the token proxy ${live.address} (block ${live.startBlock})`);
    return { ...live, deployed: false };
  }
  const deployed = await deployApprovalToken({ rpcUrl: ethereumRpc });
  await writeNetworkEntry("localhost", { address: deployed.proxy, startBlock: deployed.startBlock }, networksPath);
  log(`deployed the ERC-20 at ${deployed.implementation} behind the proxy ${deployed.proxy} (block ${deployed.startBlock}); networks.json updated`);
  return { address: deployed.proxy, startBlock: deployed.startBlock, deployed: true };
}

export interface StartLocalNodeOptions {
  ethereumRpc: string;
  dataDir: string;
  postgres: boolean;
  /** Drop the node's data first: it indexed an earlier chain. */
  reset: boolean;
  ports: LocalNodePorts;
  queryLimits?: Partial<QueryLimits>;
  mappingLimits?: Partial<MappingLimits>;
  /** When a new version serves; default: EXPERIMENTAL_SUBGRAPH_VERSION_SWITCHING_MODE, else instant (graph-node's). */
  versionSwitching?: VersionSwitching;
  /** A host thread loaded ahead for each next deployment (the dev loop deploys on every save). */
  keepSpareHostThread?: boolean;
  /** Chain data kept for re-indexing (the dev loop re-indexes on every save). */
  chainCache?: boolean;
}

export interface StartedLocalNode {
  /** Closes the node, then its database server. */
  close(): Promise<void>;
}

/** Starts our local node with its data under `<dataDir>/local-node` (and `<dataDir>/postgres` with --postgres). */
export async function startLocalNodeService(options: StartLocalNodeOptions, log: Log): Promise<StartedLocalNode> {
  const nodeDataDir = join(options.dataDir, "local-node");
  if (options.reset && existsSync(nodeDataDir)) {
    log(`resetting ${nodeDataDir}: it indexed an earlier chain, and this chain is new`);
    await rm(nodeDataDir, { recursive: true, force: true });
  }
  // DATABASE_URL is not read here: the job owns its data, and resets it on a new chain.
  const database: NodeDatabase = await openNodeDatabase({ postgres: options.postgres, postgresDir: join(options.dataDir, "postgres"), reset: options.reset, env: {} });
  log(`starting the local node (${database.describe}; files in ${nodeDataDir})`);
  try {
    const { createLocalNode, nodeSettingsFromEnv } = await import("../../packages/workbench/src/local-node/index.js");
    const node = await createLocalNode({
      ethereumRpc: options.ethereumRpc,
      dataDir: nodeDataDir,
      ...(database.databaseUrl ? { databaseUrl: database.databaseUrl } : {}),
      ports: options.ports,
      log: (line: string) => void line,
      ...(options.queryLimits ? { queryLimits: options.queryLimits } : {}),
      ...(options.mappingLimits ? { mappingLimits: options.mappingLimits } : {}),
      ...nodeSettingsFromEnv(),
      ...(options.versionSwitching ? { versionSwitching: options.versionSwitching } : {}),
      ...(options.keepSpareHostThread ? { keepSpareHostThread: true } : {}),
      ...(options.chainCache ? { chainCache: true } : {}),
    });
    return {
      async close() {
        await node.close();
        await database.stop();
      },
    };
  } catch (error) {
    await database.stop();
    throw error;
  }
}

/** True when something answers HTTP at `url` (a graph node's admin port, say). */
export async function answersHttp(url: string): Promise<boolean> {
  try {
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}", signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/** The proxy recorded in networks.json, if it is deployed on this chain and answers as EIP-897. */
async function liveProxy(rpcUrl: string, networksPath: string): Promise<{ address: string; startBlock: number } | null> {
  const entry = (await readNetworks(networksPath)).localhost?.ApprovalToken;
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
