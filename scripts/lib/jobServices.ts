// What `npm start` and `npm run dev` both need before the subgraph is built: a chain (reused or started on
// loopback) and the token behind its proxy (reused or deployed, recorded in a networks.json). The local
// node is the workbench's (subgraph-workbench/node-services). Each step reports what it did through
// `log`; the caller adds its prefix.
import { Contract, JsonRpcProvider } from "ethers";
import { rpcAnswers, startHardhatNode, type HardhatNode } from "../../hardhat/chain/index.js";
import { readArtifact, deployApprovalToken, readNetworks, writeNetworkEntry, ensureCompiled } from "../../hardhat/deploy/index.js";

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
