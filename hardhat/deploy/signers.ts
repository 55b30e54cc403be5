import { JsonRpcProvider, Wallet, type Signer } from "ethers";
import { maskUrl } from "subgraph-workbench/lib/redact";


export interface ChainConnection {
  provider: JsonRpcProvider;
  /** Accounts that can send: the node's unlocked accounts, or one wallet from a private key. */
  signers: Signer[];
}

/**
 * Connects to a JSON-RPC node. With a private key (for real networks) the only signer is that
 * wallet; otherwise the node's unlocked accounts are used (Hardhat's node has twenty).
 */
export async function connectChain(rpcUrl: string, privateKey?: string): Promise<ChainConnection> {
  // Polling every 50 ms keeps tx.wait() fast on an automining local node.
  const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  if (privateKey) return { provider, signers: [new Wallet(privateKey, provider)] };
  let accounts: string[];
  try {
    accounts = (await provider.send("eth_accounts", [])) as string[];
  } catch (cause) {
    throw new Error(`Cannot reach the Ethereum node at ${maskUrl(rpcUrl)}`, { cause });
  }
  if (accounts.length === 0) {
    throw new Error(`The node at ${maskUrl(rpcUrl)} has no unlocked accounts; set PRIVATE_KEY to send transactions`);
  }
  return { provider, signers: await Promise.all(accounts.map((_, i) => provider.getSigner(i))) };
}
