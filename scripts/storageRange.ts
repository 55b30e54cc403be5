// npm run storage-range -- <blockHash> <txIndex> <address> <startKey> [maxResults]
// Emulates debug_storageRangeAt over eth_getStorageAt against ETHEREUM_RPC (default http://127.0.0.1:8545)
// and prints the JSON-RPC-shaped answer; failed slot reads are warned about on stderr.
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import { storageRangeAtResponse } from "../clients/evm/index.js";

try {
  process.loadEnvFile();
} catch {
  // No .env file: the environment alone applies.
}

const [blockHash, txIndex, address, startKey, maxResults] = process.argv.slice(2);
if (!blockHash || !txIndex || !address || !startKey) {
  console.error("usage: npm run storage-range -- <blockHash> <txIndex> <address> <startKey> [maxResults]");
  process.exit(2);
}
const client = createJsonRpcClient({ url: process.env.ETHEREUM_RPC ?? "http://127.0.0.1:8545" });
const response = await storageRangeAtResponse(client, {
  blockHash,
  txIndex: Number(txIndex),
  address,
  startKey,
  ...(maxResults !== undefined && { maxResults: Number(maxResults) }),
  logger: { warn: (message) => console.error(message) },
});
console.log(JSON.stringify(response, null, 2));
if ("error" in response) process.exitCode = 1;
