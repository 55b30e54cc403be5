// `npm run deploy:contracts`: deploys the ERC-20 behind its EIP-897 proxy and records the proxy in
// networks.json. Env: ETHEREUM_RPC (default the local Hardhat node), PRIVATE_KEY (real networks),
// NETWORK (the networks.json entry, default "localhost").
import { deployApprovalToken, ensureCompiled, writeNetworkEntry } from "../hardhat/deploy/index.js";
import { maskUrl } from "subgraph-workbench/lib/redact";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  rpc: { type: "string", default: process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545" },
  network: { type: "string", default: process.env.NETWORK ?? "localhost" },
});

try {
  await ensureCompiled();
  const deployed = await deployApprovalToken({ rpcUrl: values.rpc, ...(process.env.PRIVATE_KEY ? { privateKey: process.env.PRIVATE_KEY } : {}) });
  await writeNetworkEntry(values.network, { address: deployed.proxy, startBlock: deployed.startBlock });
  console.log(`chain:          ${maskUrl(values.rpc)} (chain id ${deployed.chainId})`);
  console.log(`implementation: ${deployed.implementation}`);
  console.log(`proxy:          ${deployed.proxy} (block ${deployed.startBlock})`);
  console.log(`networks.json:  ${values.network}.ApprovalToken updated`);
} catch (error) {
  fail(error);
}
